// SPDX-License-Identifier: GPL-2.0
/*
 * compat_perf_counter: the 2008 proposal's perf_counter_open() as its text
 * describes it (perf_counter.h), with exact software counts.
 *
 * Between an enable and a disable the tests call nothing but the workload; the
 * PERF_COUNTER_IOC_DISABLE is itself a system call that a system call counter counts.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "perf_counter.h"
#include "util.h"
#include "suites.h"

#define SYSCALLS	PERF_COUNTER_RAW_PFM_SW(PFM_SW_EV_SYSCALLS)
#define SW(id)		PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, id)

static int counter(uint64_t config, int disabled, int group_fd)
{
	struct perf_counter_hw_event hw = { .config = config, .disabled = disabled };
	int fd = perf_counter_open(&hw, 0, -1, group_fd, 0);

	ck_assert_msg(fd >= 0, "perf_counter_open(%#llx): %s", (unsigned long long)config,
		      strerror(errno));
	return fd;
}

static uint64_t value(int fd)
{
	uint64_t v = ~0ULL;

	ck_assert_int_eq(perf_counter_read(fd, &v, sizeof(v)), sizeof(v));
	return v;
}

/* ENABLE, n getppid, DISABLE */
static void window(int fd, long n)
{
	int re, rd;

	re = perf_counter_ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0);
	do_getppid(n);
	rd = perf_counter_ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0);
	ck_assert_msg(re == 0 && rd == 0, "enable %d, disable %d: %s", re, rd, strerror(errno));
}

static int open_hw(struct perf_counter_hw_event *hw, pid_t pid, int cpu)
{
	return perf_counter_open(hw, pid, cpu, -1, 0);
}

/*
 * Field i of hw set to a value the proposal or perfmon refuses (EINVAL), i <
 * BAD_FIELDS.  inherit of the calling thread is native too (test_inherit).
 */
#define BAD_FIELDS	11
static void bad_field(struct perf_counter_hw_event *hw, int i)
{
	switch (i) {
	case 0: hw->irq_period = 1000; break;		/* sampling */
	case 1: hw->inherit = 1; hw->irq_period = 1; break;
	case 2: hw->mmap = 1; break;
	case 3: hw->munmap = 1; break;
	case 4: hw->comm = 1; break;
	case 5: hw->__reserved_1 = 1; break;
	case 6: hw->extra_config_len = 8; break;
	case 7: hw->__reserved_2 = 1; break;
	case 8: hw->__reserved_3 = 1; break;
	case 9: hw->read_format = 4; break;
	default: hw->config = PERF_COUNTER_RAW_PFM_SW(PFM_SW_EV_SYSCALLS) | 0x100; break;
	}
}

/* the library's software counters on one thread or CPU (perf_counter.h) */
#define PC_COUNTERS	64

/* configs with no meaning on perfmon (EINVAL) */
static const uint64_t bad_config[] = {
	PERF_COUNTER_CONFIG(PERF_TYPE_HARDWARE, PERF_COUNT_INSTRUCTIONS),
	PERF_COUNTER_CONFIG(PERF_TYPE_TRACEPOINT, 1),
	PERF_COUNTER_CONFIG(5, 0),
	SW(PERF_COUNT_PAGE_FAULTS_MIN),
	SW(PERF_COUNT_PAGE_FAULTS_MAJ),
	SW(7),
	PERF_COUNTER_RAW_MASK | 0x5100c0,		/* an x86 event select */
	PERF_COUNTER_RAW_PFM_SW(0),
	PERF_COUNTER_RAW_PFM_SW(PFM_SW_EV_MAX + 1),
};

START_TEST(test_open_errors)
{
	struct perf_counter_hw_event hw;
	int fds[PC_COUNTERS], p[2], lead, member, i;
	struct kid k = KID_INIT;

#define RESET(cfg) do { memset(&hw, 0, sizeof(hw)); hw.config = (cfg); } while (0)
	ck_assert_errno(perf_counter_open(NULL, 0, -1, -1, 0), EFAULT);
	RESET(SYSCALLS);
	ck_assert_errno(perf_counter_open(&hw, 0, -1, -1, 1), EINVAL);	/* flags */
	for (i = 0; i < BAD_FIELDS; i++) {
		RESET(SYSCALLS);
		bad_field(&hw, i);
		ck_assert_msg(open_hw(&hw, 0, -1) == -1 && errno == EINVAL,
			      "bad field %d: %s", i, strerror(errno));
	}
	for (i = 0; i < (int)ARRAY_SIZE(bad_config); i++) {
		RESET(bad_config[i]);
		ck_assert_msg(open_hw(&hw, 0, -1) == -1 && errno == EINVAL,
			      "config %#llx: %s", (unsigned long long)bad_config[i],
			      strerror(errno));
	}

	/* pid and cpu */
	RESET(SYSCALLS);
	ck_assert_errno(open_hw(&hw, 0, -2), EINVAL);
	ck_assert_errno(open_hw(&hw, -1, -1), EINVAL);
	ck_assert_errno(open_hw(&hw, 0, 0), EINVAL);
	ck_assert_errno(open_hw(&hw, unused_tid(), -1), ESRCH);

	/* group_fd: no counter, or a member */
	ck_assert_ok(pipe(p));
	RESET(SYSCALLS);
	ck_assert_errno(perf_counter_open(&hw, 0, -1, p[0], 0), EBADF);
	lead = counter(SYSCALLS, 1, -1);
	member = counter(SYSCALLS, 1, lead);
	ck_assert_errno(perf_counter_open(&hw, 0, -1, member, 0), EINVAL);
	/* a group is inherited whole or not at all */
	hw.inherit = 1;
	ck_assert_errno(perf_counter_open(&hw, 0, -1, lead, 0), EINVAL);
	ck_assert_ok(perf_counter_close(member));
	ck_assert_ok(perf_counter_close(lead));
	/* inherit follows the forks this library sees: the calling thread's */
	RESET(SYSCALLS);
	hw.inherit = 1;
	ck_assert_errno(open_hw(&hw, -1, 0), EINVAL);
	ck_kid_start(&k);
	ck_assert_errno(open_hw(&hw, k.pid, -1), EINVAL);
	kid_kill(&k);
	lead = open_hw(&hw, self_tid(), -1);
	ck_assert_int_ge(lead, 0);
	hw.inherit = 0;
	ck_assert_errno(perf_counter_open(&hw, 0, -1, lead, 0), EINVAL);
	ck_assert_ok(perf_counter_close(lead));

	/* the refusals took no counter: all 64 are there, then no more */
	for (i = 0; i < PC_COUNTERS; i++)
		fds[i] = counter(SYSCALLS, 1, -1);
	ck_assert_errno(open_hw(&hw, 0, -1), ENOSPC);
	for (i = 0; i < PC_COUNTERS; i++)
		ck_assert_ok(perf_counter_close(fds[i]));
#undef RESET
}
END_TEST

START_TEST(test_fd_calls)
{
	uint64_t v[3];
	char c;
	int fd = counter(SYSCALLS, 1, -1), p[2];

	ck_assert_errno(perf_counter_read(fd, v, 7), ENOSPC);
	ck_assert_errno(perf_counter_ioctl(fd, PERF_COUNTER_IOC_REFRESH, 1), EINVAL);
	ck_assert_errno(perf_counter_ioctl(fd, PERF_EVENT_IOC_RESET, 0), ENOTTY);
	/* the handle itself: read() gives nothing */
	ck_assert_int_eq(read(fd, &c, 1), 0);
	ck_assert_ok(perf_counter_close(fd));
	ck_assert_errno(perf_counter_read(fd, v, sizeof(v)), EBADF);
	ck_assert_errno(perf_counter_close(fd), EBADF);
	/* other fds get the plain calls */
	ck_assert_ok(pipe(p));
	ck_assert_errno(perf_counter_ioctl(p[0], PERF_COUNTER_IOC_ENABLE, 0), ENOTTY);
	ck_assert_int_eq(write(p[1], "x", 1), 1);
	ck_assert_int_eq(perf_counter_read(p[0], &c, 1), 1);
	ck_assert_ok(perf_counter_close(p[0]));
}
END_TEST

static const long syscall_n[] = { 0, 1, 1000, 100000 };

START_TEST(test_syscalls_exact)
{
	long n = syscall_n[_i];
	int fd = counter(SYSCALLS, 1, -1);

	do_getppid(10);			/* disabled: not counted */
	ck_assert_uint_eq(value(fd), 0);
	window(fd, n);
	ck_assert_uint_eq(value(fd), n + 1);
	window(fd, n);
	ck_assert_uint_eq(value(fd), 2 * (n + 1));
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

/* not disabled: it counts from the open on */
START_TEST(test_enabled_at_open)
{
	struct perf_counter_hw_event hw = { .config = SYSCALLS };
	int fd, rd;

	fd = perf_counter_open(&hw, 0, -1, -1, 0);
	do_getppid(300);
	rd = perf_counter_ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(rd, 0);
	ck_assert_uint_eq(value(fd), 300 + 1);
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

#define FAULT_PAGES	256

START_TEST(test_page_faults_exact)
{
	int fd = counter(SW(PERF_COUNT_PAGE_FAULTS), 1, -1);
	char *warm = ck_fresh_pages(1);
	char *p = ck_fresh_pages(FAULT_PAGES);

	/* fault in what the window runs besides the pages */
	touch_pages(warm, 1);
	window(fd, 0);
	ck_assert_uint_eq(value(fd), 0);

	ck_assert_ok(perf_counter_ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	touch_pages(p, FAULT_PAGES);
	ck_assert_ok(perf_counter_ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ck_assert_uint_eq(value(fd), FAULT_PAGES);

	/* touched pages fault no more */
	ck_assert_ok(perf_counter_ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	touch_pages(p, FAULT_PAGES);
	ck_assert_ok(perf_counter_ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ck_assert_uint_eq(value(fd), FAULT_PAGES);
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

/*
 * A group: the leader's enable and disable take the members with them; a member's
 * own disable takes only itself.
 */
START_TEST(test_group)
{
	int lead = counter(SYSCALLS, 1, -1);
	int member = counter(SYSCALLS, 0, lead);
	int rc, rd;

	do_getppid(10);				/* leader disabled: nothing counts */
	ck_assert_uint_eq(value(member), 0);
	window(lead, 100);
	ck_assert_uint_eq(value(lead), 100 + 1);
	ck_assert_uint_eq(value(member), 100 + 1);

	ck_assert_ok(perf_counter_ioctl(member, PERF_COUNTER_IOC_DISABLE, 0));
	window(lead, 50);
	ck_assert_uint_eq(value(lead), 100 + 1 + 50 + 1);
	ck_assert_uint_eq(value(member), 100 + 1);

	/* a member enabled while its leader is disabled does not count */
	ck_assert_ok(perf_counter_ioctl(member, PERF_COUNTER_IOC_ENABLE, 0));
	do_getppid(10);
	ck_assert_uint_eq(value(member), 100 + 1);

	/* closing the leader leaves the member on its own, enabled */
	rc = perf_counter_close(lead);
	do_getppid(20);
	rd = perf_counter_ioctl(member, PERF_COUNTER_IOC_DISABLE, 0);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(rd, 0);
	ck_assert_uint_eq(value(member), 100 + 1 + 20 + 1);
	ck_assert_ok(perf_counter_close(member));
}
END_TEST

/* prctl's replacement: the calling thread's leaders, not their disabled members */
START_TEST(test_task_enable)
{
	int lead = counter(SYSCALLS, 1, -1);
	int member = counter(SYSCALLS, 1, lead);
	int re, rd;

	re = perf_counter_task_enable();
	do_getppid(40);
	rd = perf_counter_task_disable();
	ck_assert_int_eq(re, 0);
	ck_assert_int_eq(rd, 0);
	ck_assert_uint_eq(value(lead), 40 + 1);
	ck_assert_uint_eq(value(member), 0);
	ck_assert_ok(perf_counter_close(member));
	ck_assert_ok(perf_counter_close(lead));
}
END_TEST

#define SPIN_NS		(100 * NSEC_PER_MSEC)

/* read_format: the time enabled and running, equal for a software counter */
START_TEST(test_read_format_times)
{
	struct perf_counter_hw_event hw = {
		.config = SW(PERF_COUNT_TASK_CLOCK), .disabled = 1,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	uint64_t v[4] = { 1, 1, 1, 1 }, t0;
	int fd = perf_counter_open(&hw, 0, -1, -1, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_errno(perf_counter_read(fd, v, 16), ENOSPC);
	ck_assert_int_eq(perf_counter_read(fd, v, sizeof(v)), 24);
	ck_assert_uint_eq(v[0], 0);
	ck_assert_uint_eq(v[1], 0);
	ck_assert_uint_eq(v[2], 0);

	ck_assert_ok(perf_counter_ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	t0 = thread_cpu_ns();
	spin_until(t0 + SPIN_NS);
	ck_assert_ok(perf_counter_ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ck_assert_int_eq(perf_counter_read(fd, v, sizeof(v)), 24);
	ck_assert_uint_ge(v[0], SPIN_NS);
	ck_assert_uint_eq(v[1], v[2]);
	ck_assert_msg(v[1] >= v[0] - v[0] / 20 && v[1] <= v[0] + v[0] / 20,
		      "task clock %llu ns, enabled %llu ns", (unsigned long long)v[0],
		      (unsigned long long)v[1]);
	/* disabled: time stands still */
	spin_until(thread_cpu_ns() + 10 * NSEC_PER_MSEC);
	t0 = v[1];
	ck_assert_int_eq(perf_counter_read(fd, v, sizeof(v)), 24);
	ck_assert_uint_eq(v[1], t0);
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

/* pid > 0: another thread, counted wherever it runs */
START_TEST(test_other_thread)
{
	struct perf_counter_hw_event hw = { .config = SYSCALLS };
	struct kid k = KID_INIT;
	int fd;

	ck_kid_start(&k);
	fd = perf_counter_open(&hw, k.pid, -1, -1, 0);
	ck_assert_msg(fd >= 0, "perf_counter_open(kid): %s", strerror(errno));
	ck_kid_run(&k, 100);
	/* each order: its getppid and the read of the next order */
	ck_assert_uint_eq(value(fd), 100 + 1);
	ck_kid_run(&k, 7);
	ck_assert_uint_eq(value(fd), 100 + 1 + 7 + 1);
	ck_assert_ok(perf_counter_close(fd));
	kid_kill(&k);
}
END_TEST

/* A thread has one perfmon context: a native one there makes the counters busy. */
START_TEST(test_busy_beside_native_context)
{
	struct perf_counter_hw_event hw = { .config = SYSCALLS };
	int ctx = ck_ctx_create(), fd;

	ck_load_self(ctx);
	ck_assert_errno(perf_counter_open(&hw, 0, -1, -1, 0), EBUSY);
	close(ctx);
	fd = perf_counter_open(&hw, 0, -1, -1, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

Suite *pfm_compat_perf_counter_suite(void)
{
	Suite *s = suite_create("compat_perf_counter");
	TCase *tc = pfm_tcase("compat_perf_counter");

	tcase_add_test(tc, test_open_errors);
	tcase_add_test(tc, test_fd_calls);
	tcase_add_loop_test(tc, test_syscalls_exact, 0, ARRAY_SIZE(syscall_n));
	tcase_add_test(tc, test_enabled_at_open);
	tcase_add_test(tc, test_page_faults_exact);
	tcase_add_test(tc, test_group);
	tcase_add_test(tc, test_task_enable);
	tcase_add_test(tc, test_read_format_times);
	tcase_add_test(tc, test_other_thread);
	tcase_add_test(tc, test_busy_beside_native_context);
	suite_add_tcase(s, tc);
	return s;
}
