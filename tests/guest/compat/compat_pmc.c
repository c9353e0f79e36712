// SPDX-License-Identifier: GPL-2.0
/*
 * compat_pmc: NetBSD's pmc_control(2) and pmc_get_info(2) as the manual page
 * describes them, on perfmon's software counters (pmc.h).
 *
 * Between PMC_OP_START and PMC_OP_STOP the tests call nothing but the workload;
 * the STOP is itself a system call that a running system call counter counts.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmc.h"
#include "users.h"
#include "util.h"
#include "suites.h"

static void ck_configure(int ctr, pmc_evid_t ev)
{
	struct pmc_counter_cfg cfg = { .event_id = ev };

	ck_assert_ok(pmc_control(ctr, PMC_OP_CONFIGURE, &cfg));
}

static uint64_t ck_value(int ctr)
{
	uint64_t v = 0;

	ck_assert_ok(pmc_get_info(ctr, PMC_INFO_COUNTER_VALUE, &v));
	return v;
}

static uint64_t ck_accumulated(int ctr)
{
	uint64_t v = ~0ULL;

	ck_assert_ok(pmc_get_info(ctr, PMC_INFO_ACCUMULATED_COUNTER_VALUE, &v));
	return v;
}

/* START, n getppid, STOP on counter ctr; both calls must succeed */
static void window(int ctr, long n)
{
	int rs, rt;

	rs = pmc_control(ctr, PMC_OP_START, NULL);
	do_getppid(n);
	rt = pmc_control(ctr, PMC_OP_STOP, NULL);
	ck_assert_msg(rs == 0 && rt == 0, "start %d, stop %d: %s", rs, rt, strerror(errno));
}

START_TEST(test_info)
{
	int n = -1, type = -1, i;

	ck_assert_ok(pmc_get_info(0, PMC_INFO_NCOUNTERS, &n));
	ck_assert_int_ge(n, PMC_NCOUNTERS_SW);
	/* ctr is ignored */
	ck_assert_ok(pmc_get_info(12345, PMC_INFO_NCOUNTERS, &type));
	ck_assert_int_eq(type, n);
	for (i = 0; i < n; i++) {
		ck_assert_ok(pmc_get_info(i, PMC_INFO_CPUCTR_TYPE, &type));
		ck_assert_int_eq(type, i < PMC_NCOUNTERS_SW ? PMC_TYPE_PERFMON_SW :
							      PMC_TYPE_PERFMON_X86);
	}
	ck_assert_ok(pmc_get_info(-1, PMC_INFO_CPUCTR_TYPE, &type));
	ck_assert_int_eq(type, n > PMC_NCOUNTERS_SW ? PMC_TYPE_PERFMON_X86 :
						      PMC_TYPE_PERFMON_SW);
}
END_TEST

START_TEST(test_errors)
{
	struct pmc_counter_cfg cfg = { .event_id = PMC_EV_SW_SYSCALLS };
	long psz = sysconf(_SC_PAGESIZE);
	void *bad, *ro;
	uint64_t v = 77;
	int n, t;

	/* a page no access reaches (kept mapped, so no later mapping takes its place), one read-only */
	bad = mmap(NULL, psz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(bad != MAP_FAILED);
	ro = mmap(NULL, psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(ro != MAP_FAILED);

	ck_assert_ok(pmc_get_info(0, PMC_INFO_NCOUNTERS, &n));
	/* EINVAL: unknown op, counter out of range */
	ck_assert_errno(pmc_get_info(0, 0, &v), EINVAL);
	ck_assert_errno(pmc_get_info(0, 5, &v), EINVAL);
	ck_assert_errno(pmc_control(0, 0, &cfg), EINVAL);
	ck_assert_errno(pmc_control(0, 6, &cfg), EINVAL);
	ck_assert_errno(pmc_control(n, PMC_OP_CONFIGURE, &cfg), EINVAL);
	ck_assert_errno(pmc_control(-1, PMC_OP_CONFIGURE, &cfg), EINVAL);
	ck_assert_errno(pmc_control(n, PMC_OP_START, NULL), EINVAL);
	ck_assert_errno(pmc_get_info(n, PMC_INFO_COUNTER_VALUE, &v), EINVAL);
	ck_assert_errno(pmc_get_info(-1, PMC_INFO_COUNTER_VALUE, &v), EINVAL);
	ck_assert_errno(pmc_get_info(n, PMC_INFO_ACCUMULATED_COUNTER_VALUE, &v), EINVAL);
	ck_assert_errno(pmc_get_info(n, PMC_INFO_CPUCTR_TYPE, &t), EINVAL);
	ck_assert_errno(pmc_get_info(-2, PMC_INFO_CPUCTR_TYPE, &t), EINVAL);
	ck_assert_uint_eq(v, 77);

	/* EFAULT: argp */
	ck_assert_errno(pmc_get_info(0, PMC_INFO_NCOUNTERS, NULL), EFAULT);
	ck_assert_errno(pmc_get_info(0, PMC_INFO_CPUCTR_TYPE, NULL), EFAULT);
	ck_assert_errno(pmc_get_info(-1, PMC_INFO_CPUCTR_TYPE, NULL), EFAULT);
	ck_assert_errno(pmc_get_info(0, PMC_INFO_ACCUMULATED_COUNTER_VALUE, NULL), EFAULT);
	ck_assert_errno(pmc_control(0, PMC_OP_CONFIGURE, NULL), EFAULT);
	ck_assert_errno(pmc_control(0, PMC_OP_PROFSTART, NULL), EFAULT);
	/* as system calls: an inaccessible or read-only argument too, not a crash */
	ck_assert_errno(pmc_get_info(0, PMC_INFO_NCOUNTERS, bad), EFAULT);
	ck_assert_errno(pmc_get_info(0, PMC_INFO_CPUCTR_TYPE, bad), EFAULT);
	ck_assert_errno(pmc_get_info(0, PMC_INFO_ACCUMULATED_COUNTER_VALUE, ro), EFAULT);
	ck_assert_errno(pmc_control(0, PMC_OP_CONFIGURE, bad), EFAULT);
	ck_assert_errno(pmc_control(0, PMC_OP_PROFSTART, bad), EFAULT);

	/* ENXIO: not yet configured */
	ck_assert_errno(pmc_control(0, PMC_OP_START, NULL), ENXIO);
	ck_assert_errno(pmc_control(0, PMC_OP_STOP, NULL), ENXIO);
	ck_assert_errno(pmc_get_info(0, PMC_INFO_COUNTER_VALUE, &v), ENXIO);
	ck_assert_errno(pmc_control(0, PMC_OP_PROFSTOP, NULL), ENXIO);

	/* ENODEV: an event the counter does not count (0x43: i686 DATA_MEM_REFS) */
	cfg.event_id = 0;
	ck_assert_errno(pmc_control(0, PMC_OP_CONFIGURE, &cfg), ENODEV);
	cfg.event_id = PFM_SW_EV_MAX + 1;
	ck_assert_errno(pmc_control(0, PMC_OP_CONFIGURE, &cfg), ENODEV);
	cfg.event_id = 0x43;
	ck_assert_errno(pmc_control(0, PMC_OP_CONFIGURE, &cfg), ENODEV);
	cfg.reset_value = 100;
	ck_assert_errno(pmc_control(0, PMC_OP_PROFSTART, &cfg), ENODEV);
	/* the refusals configured nothing */
	ck_assert_errno(pmc_control(0, PMC_OP_START, NULL), ENXIO);

	/* EINPROGRESS: started twice; a stop of a stopped counter is fine */
	ck_configure(0, PMC_EV_SW_SYSCALLS);
	ck_assert_ok(pmc_control(0, PMC_OP_STOP, NULL));
	ck_assert_ok(pmc_control(0, PMC_OP_START, NULL));
	ck_assert_errno(pmc_control(0, PMC_OP_START, NULL), EINPROGRESS);
	ck_assert_ok(pmc_control(0, PMC_OP_STOP, NULL));
	ck_assert_ok(pmc_control(0, PMC_OP_STOP, NULL));
	ck_assert_errno(pmc_get_info(0, PMC_INFO_COUNTER_VALUE, NULL), EFAULT);

	/* EBUSY: a configured counter cannot profile */
	cfg.event_id = PMC_EV_SW_SYSCALLS;
	ck_assert_errno(pmc_control(0, PMC_OP_PROFSTART, &cfg), EBUSY);
	/* a bad CONFIGURE leaves the counter as it was */
	v = ck_value(0);
	cfg.event_id = 0;
	ck_assert_errno(pmc_control(0, PMC_OP_CONFIGURE, &cfg), ENODEV);
	ck_assert_uint_eq(ck_value(0), v);
	ck_assert_ok(pmc_control(0, PMC_OP_START, NULL));
	ck_assert_ok(pmc_control(0, PMC_OP_STOP, NULL));
	ck_assert_uint_gt(ck_value(0), v);
	munmap(ro, psz);
	munmap(bad, psz);
}
END_TEST

static const long syscall_n[] = { 0, 1, 1000, 100000 };

START_TEST(test_syscalls_exact)
{
	long n = syscall_n[_i];

	ck_configure(0, PMC_EV_SW_SYSCALLS);
	ck_assert_uint_eq(ck_value(0), 0);
	window(0, n);
	ck_assert_uint_eq(ck_value(0), n + 1);
}
END_TEST

/* stop freezes the value, start resumes from it, configure zeroes it */
START_TEST(test_stop_start_keeps_value)
{
	ck_configure(3, PMC_EV_SW_SYSCALLS);
	window(3, 500);
	ck_assert_uint_eq(ck_value(3), 500 + 1);
	do_getppid(100);			/* stopped: not counted */
	ck_assert_uint_eq(ck_value(3), 500 + 1);
	window(3, 200);
	ck_assert_uint_eq(ck_value(3), 500 + 1 + 200 + 1);
	ck_configure(3, PMC_EV_SW_SYSCALLS);
	ck_assert_uint_eq(ck_value(3), 0);
	/* configure stops a running counter */
	ck_assert_ok(pmc_control(3, PMC_OP_START, NULL));
	ck_configure(3, PMC_EV_SW_SYSCALLS);
	do_getppid(10);
	ck_assert_uint_eq(ck_value(3), 0);
	ck_assert_ok(pmc_control(3, PMC_OP_START, NULL));
}
END_TEST

/* counters start and stop one by one */
START_TEST(test_counters_independent)
{
	int r0, r1, s1, s0;

	ck_configure(0, PMC_EV_SW_SYSCALLS);
	ck_configure(7, PMC_EV_SW_SYSCALLS);
	r0 = pmc_control(0, PMC_OP_START, NULL);
	do_getppid(100);
	r1 = pmc_control(7, PMC_OP_START, NULL);	/* counted by 0 */
	do_getppid(50);
	s1 = pmc_control(7, PMC_OP_STOP, NULL);		/* counted by both */
	do_getppid(25);
	s0 = pmc_control(0, PMC_OP_STOP, NULL);		/* counted by 0 */
	ck_assert_int_eq(r0, 0);
	ck_assert_int_eq(r1, 0);
	ck_assert_int_eq(s1, 0);
	ck_assert_int_eq(s0, 0);
	ck_assert_uint_eq(ck_value(7), 50 + 1);
	ck_assert_uint_eq(ck_value(0), 100 + 1 + 50 + 1 + 25 + 1);
}
END_TEST

#define FAULT_PAGES	256

/* START, a write to each of n pages, STOP on counter ctr */
static void touch_window(int ctr, char *p, long n)
{
	int rs, rt;

	rs = pmc_control(ctr, PMC_OP_START, NULL);
	touch_pages(p, n);
	rt = pmc_control(ctr, PMC_OP_STOP, NULL);
	ck_assert_msg(rs == 0 && rt == 0, "start %d, stop %d: %s", rs, rt, strerror(errno));
}

START_TEST(test_page_faults_exact)
{
	char *warm = ck_fresh_pages(1);
	char *p = ck_fresh_pages(FAULT_PAGES);

	ck_configure(1, PMC_EV_SW_PAGE_FAULTS);
	/* fault in what the window runs besides the pages */
	touch_window(1, warm, 1);
	ck_configure(1, PMC_EV_SW_PAGE_FAULTS);

	touch_window(1, p, FAULT_PAGES);
	ck_assert_uint_eq(ck_value(1), FAULT_PAGES);
	/* touched pages fault no more */
	touch_window(1, p, FAULT_PAGES);
	ck_assert_uint_eq(ck_value(1), FAULT_PAGES);
}
END_TEST

static pid_t child_getppid(long n)
{
	pid_t pid = fork();

	if (!pid) {
		do_getppid(n);
		_exit(0);
	}
	return pid;
}

static void ck_reap(pid_t pid)
{
	int status;

	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status), "child status %#x", status);
}

/*
 * The accumulated value sums the exited children: each counted from its first
 * instruction after fork() to its exit (n getppid and the exit_group).
 */
START_TEST(test_accumulated_children)
{
	uint64_t own;
	pid_t a, b;

	ck_configure(2, PMC_EV_SW_SYSCALLS);
	ck_configure(4, PMC_EV_SW_PAGE_FAULTS);
	ck_assert_uint_eq(ck_accumulated(2), 0);
	ck_assert_ok(pmc_control(2, PMC_OP_START, NULL));

	a = child_getppid(1000);
	ck_reap(a);
	ck_assert_uint_eq(ck_accumulated(2), 1000 + 1);
	/* a configured counter that was stopped counted nothing in the child */
	ck_assert_uint_eq(ck_accumulated(4), 0);

	b = child_getppid(300);
	ck_reap(b);
	ck_assert_uint_eq(ck_accumulated(2), 1000 + 1 + 300 + 1);
	ck_assert_uint_eq(ck_accumulated(2), 1000 + 1 + 300 + 1);

	/* the children's calls are not the parent's */
	ck_assert_ok(pmc_control(2, PMC_OP_STOP, NULL));
	own = ck_value(2);
	ck_assert_uint_lt(own, 1000);
	/* a stopped counter's children count nothing */
	ck_reap(child_getppid(50));
	ck_assert_uint_eq(ck_accumulated(2), 1000 + 1 + 300 + 1);
	ck_assert_uint_eq(ck_value(2), own);
}
END_TEST

/* A child still running is not summed until it exits. */
START_TEST(test_accumulated_waits_for_exit)
{
	int go[2];
	pid_t pid;
	char c = 0;

	ck_assert_ok(pipe(go));
	ck_configure(0, PMC_EV_SW_SYSCALLS);
	ck_assert_ok(pmc_control(0, PMC_OP_START, NULL));
	pid = fork();
	if (!pid) {
		/* read, getppid x 20, exit_group */
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		do_getppid(20);
		_exit(0);
	}
	ck_assert_int_gt(pid, 0);
	ck_assert_uint_eq(ck_accumulated(0), 0);
	ck_assert_int_eq(write(go[1], &c, 1), 1);
	ck_reap(pid);
	ck_assert_uint_eq(ck_accumulated(0), 1 + 20 + 1);
}
END_TEST

#define PROF_PERIOD	100

/* a sample every PROF_PERIOD system calls: 1000 and the PROFSTOP make 10 */
START_TEST(test_profiling)
{
	struct pmc_counter_cfg cfg = { .event_id = PMC_EV_SW_SYSCALLS,
				       .reset_value = PROF_PERIOD };
	struct pfm_dfl_smpl_entry e[16];
	uint64_t v;
	long n, i;
	int rs, rt;

	ck_assert_int_eq(pmc_prof_samples(5, e, 16), 0);
	cfg.reset_value = 0;
	ck_assert_errno(pmc_control(5, PMC_OP_PROFSTART, &cfg), EINVAL);
	cfg.reset_value = PROF_PERIOD;

	rs = pmc_control(5, PMC_OP_PROFSTART, &cfg);
	do_getppid(1000);
	rt = pmc_control(5, PMC_OP_PROFSTOP, NULL);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);

	n = pmc_prof_samples(5, e, 16);
	ck_assert_int_eq(n, 10);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(e[i].pid, gettid());
		ck_assert_uint_eq(e[i].tgid, getpid());
		ck_assert_uint_eq(e[i].ovfl_pmd, SW_PMD(5));
		/* the PMD's last reset: none before the first sample */
		ck_assert_uint_eq(e[i].last_reset_val, i ? -(uint64_t)PROF_PERIOD : 0);
		ck_assert_uint_ne(e[i].ip, 0);
	}
	/* other counters recorded nothing; a bad counter is EINVAL */
	ck_assert_int_eq(pmc_prof_samples(4, e, 16), 0);
	ck_assert_errno(pmc_prof_samples(-1, e, 16), EINVAL);

	/* profiling stopped: the counter is free again */
	ck_assert_errno(pmc_control(5, PMC_OP_PROFSTOP, NULL), ENXIO);
	ck_assert_errno(pmc_get_info(5, PMC_INFO_COUNTER_VALUE, &v), ENXIO);
	ck_configure(5, PMC_EV_SW_SYSCALLS);
	window(5, 10);
	ck_assert_uint_eq(ck_value(5), 10 + 1);
	ck_assert_int_eq(pmc_prof_samples(5, e, 16), 10);
}
END_TEST

/* While a counter profiles it is in use: EBUSY for everything but PROFSTOP. */
START_TEST(test_profiling_busy)
{
	struct pmc_counter_cfg cfg = { .event_id = PMC_EV_SW_SYSCALLS,
				       .reset_value = 1000000 };
	uint64_t v;

	ck_assert_ok(pmc_control(6, PMC_OP_PROFSTART, &cfg));
	ck_assert_errno(pmc_control(6, PMC_OP_PROFSTART, &cfg), EBUSY);
	ck_assert_errno(pmc_control(6, PMC_OP_CONFIGURE, &cfg), EBUSY);
	ck_assert_errno(pmc_control(6, PMC_OP_START, NULL), EBUSY);
	ck_assert_errno(pmc_control(6, PMC_OP_STOP, NULL), EBUSY);
	ck_assert_errno(pmc_get_info(6, PMC_INFO_COUNTER_VALUE, &v), EBUSY);
	ck_assert_ok(pmc_control(6, PMC_OP_PROFSTOP, NULL));
	ck_assert_int_eq(pmc_prof_samples(6, NULL, 0), 0);
}
END_TEST

/* The thread has a perfmon context already: the counters are in use. */
/*
 * ENOMEM, "the kernel is unable to allocate memory": a user whose locked-memory
 * limit refuses the sampling buffer still counts, but cannot profile.
 */
static void no_locked_memory(void *arg)
{
	struct rlimit rl = { 0, 0 };
	struct pmc_counter_cfg cfg = { .event_id = PMC_EV_SW_SYSCALLS, .reset_value = 10 };
	uint64_t v = ~0ULL;

	(void)arg;
	child_expect(setrlimit(RLIMIT_MEMLOCK, &rl), 0);
	child_expect(pmc_control(1, PMC_OP_PROFSTART, &cfg), ENOMEM);
	child_expect(pmc_control(0, PMC_OP_CONFIGURE, &cfg), 0);
	child_expect(pmc_get_info(0, PMC_INFO_COUNTER_VALUE, &v), 0);
	if (v)
		child_fail("count %llu, not 0", (unsigned long long)v);
	child_expect(pmc_control(1, PMC_OP_PROFSTART, &cfg), ENOMEM);
}

START_TEST(test_profiling_no_memory)
{
	struct run r;

	as_user(&r, USER_NOBODY, no_locked_memory, NULL);
	ck_run(&r);
}
END_TEST

START_TEST(test_busy_beside_native_context)
{
	int fd = ck_ctx_create(), n;

	ck_load_self(fd);
	ck_assert_errno(pmc_get_info(0, PMC_INFO_NCOUNTERS, &n), EBUSY);
	close(fd);
	ck_assert_ok(pmc_get_info(0, PMC_INFO_NCOUNTERS, &n));
}
END_TEST

Suite *pfm_compat_pmc_suite(void)
{
	Suite *s = suite_create("compat_pmc");
	TCase *tc = pfm_tcase("compat_pmc");

	tcase_add_test(tc, test_info);
	tcase_add_test(tc, test_errors);
	tcase_add_loop_test(tc, test_syscalls_exact, 0, ARRAY_SIZE(syscall_n));
	tcase_add_test(tc, test_stop_start_keeps_value);
	tcase_add_test(tc, test_counters_independent);
	tcase_add_test(tc, test_page_faults_exact);
	tcase_add_test(tc, test_accumulated_children);
	tcase_add_test(tc, test_accumulated_waits_for_exit);
	tcase_add_test(tc, test_profiling);
	tcase_add_test(tc, test_profiling_busy);
	tcase_add_test(tc, test_profiling_no_memory);
	tcase_add_test(tc, test_busy_beside_native_context);
	suite_add_tcase(s, tc);
	return s;
}
