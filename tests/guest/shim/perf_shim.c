// SPDX-License-Identifier: GPL-2.0
/*
 * perf_shim: pfm_perf_event_open() where it is perfmon's own, not perf_events':
 * the choices <perfmon/perfmon_perf.h> (PERF_EVENT_OPEN COMPATIBILITY) documents,
 * which the differential test (tests/guest/clients/) cannot compare with the
 * kernel.  Exact counts come from page faults the test itself makes.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "util.h"
#include "perf_ring_util.h"
#include "users.h"
#include "suites.h"

#define PERF_TARGETS	PFM_SYSFS "/perf_targets_count"
#define PERF_EVENTS	PFM_SYSFS "/perf_events_count"
#define PARANOID	PFM_SYSFS "/paranoid"

static int open_sw(unsigned long long config, pid_t pid, int group_fd)
{
	struct perf_event_attr a;

	attr_sw(&a, config);
	return pfm_perf_event_open(&a, pid, -1, group_fd, 0);
}

static int ck_open_sw(unsigned long long config, pid_t pid, int group_fd)
{
	int fd = open_sw(config, pid, group_fd);

	ck_assert_msg(fd >= 0, "open config %llu: %s", config, strerror(errno));
	return fd;
}

/* Exact: the faults of n fresh pages, between ENABLE and DISABLE. */
START_TEST(test_self_page_faults)
{
	char *p = ck_fresh_pages(64);
	int fd = ck_open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1);

	fault_on(fd, p, 64);
	ck_assert_uint_eq(ck_read1(fd), 64);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ck_assert_uint_eq(ck_read1(fd), 0);
	close(fd);
}
END_TEST

/*
 * Events that count the same share a counter, each with its own intervals:
 * any number fit, and each counts exactly what happened while it was on.
 */
START_TEST(test_counters_shared)
{
	char *p = ck_fresh_pages(64);
	struct perf_event_attr a;
	int fd[24], clk[12], i;

	for (i = 0; i < 24; i++)
		fd[i] = ck_open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1);
	for (i = 0; i < 12; i++)
		clk[i] = ck_open_sw(i & 1 ? PERF_COUNT_SW_CPU_CLOCK : PERF_COUNT_SW_TASK_CLOCK,
				    0, -1);
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	a.exclude_user = 1;		/* counts nothing: no counter */
	i = pfm_perf_event_open(&a, 0, -1, -1, 0);
	ck_assert_int_ge(i, 0);
	close(i);
	close(ck_open_sw(PERF_COUNT_SW_DUMMY, 0, -1));

	/* 0-7 on for all 64 pages, 8-15 for the last 32, 16-23 never */
	for (i = 0; i < 8; i++)
		ck_assert_ok(ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(p, 32);
	for (i = 8; i < 16; i++)
		ck_assert_ok(ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0));
	/* a reset while the counter runs for others starts this one afresh */
	ck_assert_ok(ioctl(fd[1], PERF_EVENT_IOC_RESET, 0));
	touch_pages(p + 32 * page_size(), 16);
	ck_assert_ok(ioctl(fd[2], PERF_EVENT_IOC_DISABLE, 0));
	touch_pages(p + 48 * page_size(), 16);
	for (i = 0; i < 16; i++)
		ck_assert_ok(ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0));

	ck_assert_uint_eq(ck_read1(fd[0]), 64);
	ck_assert_uint_eq(ck_read1(fd[1]), 32);
	ck_assert_uint_eq(ck_read1(fd[2]), 48);
	for (i = 3; i < 8; i++)
		ck_assert_uint_eq(ck_read1(fd[i]), 64);
	for (i = 8; i < 16; i++)
		ck_assert_uint_eq(ck_read1(fd[i]), 32);
	for (i = 16; i < 24; i++)
		ck_assert_uint_eq(ck_read1(fd[i]), 0);
	for (i = 0; i < 24; i++)
		close(fd[i]);
	for (i = 0; i < 12; i++)
		close(clk[i]);
}
END_TEST

/*
 * A group whose events each have a counter of their own (sampling ones do)
 * starts and stops on as many counters at once, more than a sync reads into
 * its own frame: each event counts exactly what happened while it was on, from
 * its own counter (task clocks first, page faults after them).
 */
START_TEST(test_group_own_counters)
{
	char *p = ck_fresh_pages(64);
	struct perf_event_attr a;
	int fd[12], i, r;

	for (i = 0; i < 12; i++) {
		attr_sw(&a, i < 8 ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_PAGE_FAULTS);
		a.sample_period = 1ULL << 40;
		a.disabled = !i;
		fd[i] = pfm_perf_event_open(&a, 0, -1, i ? fd[0] : -1, 0);
		ck_assert_msg(fd[i] >= 0, "open %d: %s", i, strerror(errno));
	}
	/* 32 pages counted, 16 not, 8 counted: the second round starts from a count */
	for (r = 0; r < 2; r++) {
		ck_assert_ok(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
		touch_pages(p + 48 * r * page_size(), 32 - 24 * r);
		ck_assert_ok(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
		touch_pages(p + 32 * page_size(), 16 * !r);
	}
	for (i = 0; i < 12; i++)
		if (i < 8)
			ck_assert_uint_gt(ck_read1(fd[i]), 0);
		else
			ck_assert_uint_eq(ck_read1(fd[i]), 40);
	for (i = 11; i >= 0; i--)
		close(fd[i]);
}
END_TEST

/* One thread, one context: perfmon's own and perf events exclude each other. */
START_TEST(test_native_context_excludes)
{
	int ctx, fd;

	ctx = ck_ctx_create();
	ck_load_self(ctx);
	ck_assert_errno(open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1), EBUSY);
	close(ctx);

	fd = ck_open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1);
	ctx = ck_ctx_create();
	ck_assert_errno(pfm_load_context(ctx, 0, self_tid()), EEXIST);
	close(ctx);
	close(fd);
}
END_TEST

/*
 * A thread's event on one CPU opens (its samples: perf_sample.c); while it is
 * open, a CPU event of that CPU opens beside it (perf_cpu.c has CPU events); a
 * CPU out of range is EINVAL.
 */
START_TEST(test_cpu_events)
{
	struct perf_event_attr a;
	int fd, c;

	attr_sw(&a, PERF_COUNT_SW_CPU_CLOCK);
	fd = pfm_perf_event_open(&a, 0, 0, -1, 0);
	ck_assert_int_ge(fd, 0);
	c = pfm_perf_event_open(&a, -1, 0, -1, 0);
	ck_assert_msg(c >= 0, "a CPU event beside a thread's: %s", strerror(errno));
	close(c);
	/* a member on another CPU than its leader's */
	if (possible_cpus() > 1)
		ck_assert_errno(pfm_perf_event_open(&a, 0, 1, fd, 0), EINVAL);
	ck_assert_errno(pfm_perf_event_open(&a, 0, -1, fd, 0), EINVAL);
	close(fd);
	ck_assert_errno(pfm_perf_event_open(&a, 0, 4096, -1, 0), EINVAL);
	/* the event type is checked first: ENOENT, not EACCES */
	a.type = PERF_TYPE_HARDWARE;
	ck_assert_errno(pfm_perf_event_open(&a, -1, 0, -1, 0), ENOENT);
}
END_TEST

/* A period or a frequency samples (perf_sample.c, perf_freq.c have the details). */
START_TEST(test_sampling_refused)
{
	struct perf_event_attr a;
	int fd;

	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP;
	fd = pfm_perf_event_open(&a, 0, -1, -1, 0);
	ck_assert_int_ge(fd, 0);
	close(fd);
	a.freq = 1;
	a.sample_freq = 100;
	fd = pfm_perf_event_open(&a, 0, -1, -1, 0);
	ck_assert_int_ge(fd, 0);
	close(fd);
	/* above the maximum rate: EINVAL, earlier */
	a.sample_freq = 1000000;
	ck_assert_errno(pfm_perf_event_open(&a, 0, -1, -1, 0), EINVAL);
	/* sample_type alone is ignored */
	a.freq = 0;
	a.sample_period = 0;
	a.sample_type = PERF_SAMPLE_IDENTIFIER;
	fd = pfm_perf_event_open(&a, 0, -1, -1, 0);
	ck_assert_int_ge(fd, 0);
	close(fd);
}
END_TEST

/* The ioctls a counting software event refuses, with perf_events' errnos. */
START_TEST(test_ioctl_errnos)
{
	int fd = ck_open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1);
	int other = ck_open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1);
	int devnull = open("/dev/null", O_RDONLY);
	struct perf_event_attr a;
	uint64_t v = 100;

	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1), EINVAL);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_PERIOD, NULL), EFAULT);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v), EINVAL);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_ID, NULL), EFAULT);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, -1));
	/* no ring to redirect to (perf_output.c has the rest) */
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, other), EINVAL);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, fd), EINVAL);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, devnull), EBADF);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, NULL), EFAULT);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "ip > 0"), EINVAL);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_SET_BPF, 999), EBADF);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_SET_BPF, devnull), EINVAL);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), EINVAL);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, NULL), EFAULT);
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), EOPNOTSUPP);
	a.type = PERF_TYPE_HARDWARE;
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), EINVAL);
	ck_assert_errno(ioctl(fd, _IO('$', 0x7f), 0), ENOTTY);
	close(devnull);
	close(other);
	close(fd);
}
END_TEST

/* The user page: lock even, index 0, the count and times; one page only. */
START_TEST(test_mmap_user_page)
{
	long psz = page_size();
	char *p = ck_fresh_pages(16);
	struct perf_event_mmap_page *pg;
	uint64_t v[3];
	int fd;

	fd = ck_open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1);
	/* 1 + 2^n pages, as perf_events: 4 is no ring size */
	ck_assert_ptr_eq(mmap(NULL, 4 * psz, PROT_READ, MAP_SHARED, fd, 0), MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_eq(mmap(NULL, psz, PROT_READ, MAP_PRIVATE, fd, 0), MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	pg = mmap(NULL, psz, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(pg, MAP_FAILED);
	ck_assert_uint_eq(pg->index, 0);
	ck_assert_uint_eq(pg->pmc_width, 64);
	ck_assert_uint_eq(pg->lock % 2, 0);

	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(p, 16);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ck_assert_uint_eq(ck_read1(fd), 16);
	ck_assert_uint_eq(pg->offset, 16);
	ck_assert_uint_eq(pg->lock % 2, 0);
	ck_assert_uint_eq(pg->time_enabled, pg->time_running);
	munmap(pg, psz);
	close(fd);

	/* the times agree with what read() says */
	{
		struct perf_event_attr a;

		attr_sw(&a, PERF_COUNT_SW_TASK_CLOCK);
		a.disabled = 0;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		fd = pfm_perf_event_open(&a, 0, -1, -1, 0);
		ck_assert_int_ge(fd, 0);
		pg = mmap(NULL, psz, PROT_READ, MAP_SHARED, fd, 0);
		ck_assert_ptr_ne(pg, MAP_FAILED);
		spin_until(thread_cpu_ns() + 5 * NSEC_PER_MSEC);
		ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		ck_assert_int_eq(read(fd, v, sizeof(v)), sizeof(v));
		ck_assert_uint_ge(v[1], 5 * NSEC_PER_MSEC);
		ck_assert_uint_eq(v[1], v[2]);
		ck_assert_uint_eq(pg->time_enabled, v[1]);
		ck_assert_uint_eq(pg->offset, v[0]);
		munmap(pg, psz);
		close(fd);
	}
}
END_TEST

/* POLLHUP without a mapping (as perf_events), and when the thread exits. */
START_TEST(test_poll_hup)
{
	struct kid k = KID_INIT;
	struct pollfd pfd;
	void *pg;
	int fd;

	fd = ck_open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1);
	ck_assert_int_eq(poll_now(fd), POLLHUP);
	close(fd);

	ck_kid_start(&k);
	fd = ck_open_sw(PERF_COUNT_SW_PAGE_FAULTS, k.pid, -1);
	pg = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(pg, MAP_FAILED);
	ck_assert_int_eq(poll_now(fd), 0);
	ck_kid_run_exit(&k, 0);
	pfd.fd = fd;
	pfd.events = POLLIN;
	ck_assert_int_eq(poll(&pfd, 1, 10000), 1);
	ck_assert_int_eq(pfd.revents, POLLHUP);
	munmap(pg, page_size());
	close(fd);
}
END_TEST

/* What exists shows in sysfs, and goes at the last close. */
START_TEST(test_sysfs_counts)
{
	long t0 = ck_sysfs_read_long(PERF_TARGETS), e0 = ck_sysfs_read_long(PERF_EVENTS);
	struct kid k = KID_INIT;
	int a, b, c;

	ck_kid_start(&k);
	a = ck_open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1);
	b = ck_open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, a);
	c = ck_open_sw(PERF_COUNT_SW_PAGE_FAULTS, k.pid, -1);
	ck_assert_int_eq(ck_sysfs_read_long(PERF_TARGETS), t0 + 2);
	ck_assert_int_eq(ck_sysfs_read_long(PERF_EVENTS), e0 + 3);
	close(a);
	close(b);
	ck_assert_int_eq(ck_sysfs_read_long(PERF_TARGETS), t0 + 1);
	close(c);
	kid_kill(&k);
	ck_assert_int_eq(ck_sysfs_read_long(PERF_TARGETS), t0);
	ck_assert_int_eq(ck_sysfs_read_long(PERF_EVENTS), e0);
}
END_TEST

/* The thread's page faults, its children's included, counting from now. */
static int ck_open_inherit_faults(void)
{
	struct perf_event_attr a;
	int fd;

	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.inherit = 1;
	fd = pfm_perf_event_open(&a, 0, -1, -1, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	return fd;
}

/*
 * inherit: each child gets copies on a context of its own, folded into the
 * opened event when it exits, without waiting for a read.
 */
START_TEST(test_inherit_folds_at_exit)
{
	long t0 = ck_sysfs_read_long(PERF_TARGETS), e0 = ck_sysfs_read_long(PERF_EVENTS);
	char *p = ck_fresh_pages(16 * 20);
	int fd, i, status, tries;
	uint64_t v;
	pid_t pid;

	fd = ck_open_inherit_faults();
	for (i = 0; i < 20; i++) {
		pid = fork();
		if (!pid) {
			touch_pages(p + i * 16 * page_size(), 16);
			_exit(0);
		}
		ck_assert_int_gt(pid, 0);
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert_int_eq(status, 0);
	}
	/* the exits' work items leave the test's own target and event */
	for (tries = 0; tries < 100; tries++) {
		if (ck_sysfs_read_long(PERF_TARGETS) == t0 + 1 &&
		    ck_sysfs_read_long(PERF_EVENTS) == e0 + 1)
			break;
		usleep(10000);
	}
	ck_assert_int_eq(ck_sysfs_read_long(PERF_TARGETS), t0 + 1);
	ck_assert_int_eq(ck_sysfs_read_long(PERF_EVENTS), e0 + 1);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	/* at least the children's 20 x 16 fresh pages */
	ck_assert_int_eq(read(fd, &v, sizeof(v)), sizeof(v));
	ck_assert_uint_ge(v, 20 * 16);
	close(fd);
}
END_TEST

/*
 * inherit, as stress-ng uses it: the counted process forks a worker that forks
 * the process doing the work, round after round; every round's grandchild is
 * counted, its fresh pages exactly, whatever the scheduler does between the forks.
 */
START_TEST(test_inherit_grandchild_every_round)
{
	enum { ROUNDS = 40, PAGES = 64 };
	uint64_t v, prev = 0;
	int fd, i, status;
	pid_t pid;

	fd = ck_open_inherit_faults();
	for (i = 0; i < ROUNDS; i++) {
		pid = fork();
		if (!pid) {
			pid_t gc = fork();
			int st;

			if (!gc) {
				touch_pages(ck_fresh_pages(PAGES), PAGES);
				_exit(0);
			}
			_exit(gc > 0 && waitpid(gc, &st, 0) == gc && !st ? 0 : 1);
		}
		ck_assert_int_gt(pid, 0);
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert_int_eq(status, 0);
		ck_assert_int_eq(read(fd, &v, sizeof(v)), sizeof(v));
		ck_assert_msg(v - prev >= PAGES, "round %d: %llu faults, not %d or more",
			      i, (unsigned long long)(v - prev), PAGES);
		prev = v;
	}
	close(fd);
}
END_TEST

/* Groups: a member of another thread's leader, a member's member, pinned members. */
START_TEST(test_group_rules)
{
	char *p = ck_fresh_pages(8);
	struct kid k = KID_INIT;
	struct perf_event_attr a;
	int l, m, other;

	ck_kid_start(&k);
	l = ck_open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1);
	m = ck_open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, l);
	ck_assert_errno(open_sw(PERF_COUNT_SW_PAGE_FAULTS, k.pid, l), EINVAL);
	ck_assert_errno(open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, m), EINVAL);
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.pinned = 1;
	ck_assert_errno(pfm_perf_event_open(&a, 0, -1, l, 0), EINVAL);
	/* a leader alone may be pinned */
	other = pfm_perf_event_open(&a, 0, -1, -1, 0);
	ck_assert_int_ge(other, 0);
	close(other);
	/* a member whose leader went is a leader of its own, still counting */
	close(l);
	ck_assert_ok(ioctl(m, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(p, 8);
	ck_assert_ok(ioctl(m, PERF_EVENT_IOC_DISABLE, 0));
	ck_assert_uint_eq(ck_read1(m), 8);
	close(m);
	kid_kill(&k);
}
END_TEST

/* Kernel-level counting needs privilege: EACCES (perf's fallback), not EPERM. */
static void open_as_user(void *arg __attribute__((unused)))
{
	struct perf_event_attr a;
	int fd;

	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 0;
	fd = pfm_perf_event_open(&a, 0, -1, -1, 0);
	if (fd >= 0 || errno != EACCES)
		_exit(10);
	a.exclude_kernel = 1;
	fd = pfm_perf_event_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		_exit(11);
	close(fd);
}

START_TEST(test_unprivileged_kernel_level)
{
	struct run r;

	as_user(&r, USER_NOBODY, open_as_user, NULL);
	ck_run(&r);
}
END_TEST

static void open_refused(void *arg __attribute__((unused)))
{
	struct perf_event_attr a;

	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	if (pfm_perf_event_open(&a, 0, -1, -1, 0) >= 0 || errno != EACCES)
		_exit(12);
}

START_TEST(test_paranoid_3)
{
	struct knob k = { .path = PARANOID };
	struct run r;

	knob_save(&k);
	ck_assert_ok(sysfs_write(PARANOID, "3\n"));
	as_user(&r, USER_NOBODY, open_refused, NULL);
	knob_restore(&k);
	ck_run(&r);
}
END_TEST

/*
 * The ioctl door carries one __u64 per argument and truncates the int ones as the
 * system call does: garbage above bit 31 (perf passes some) is ignored.
 */
START_TEST(test_door_args)
{
	struct pfarg_ioc_perf_open arg = {};
	struct perf_event_attr a;
	int dev, fd;

	if (access(PFM_SYSFS "/syscall", F_OK) == 0)
		return;		/* the system call door is the kernel's own */
	dev = open("/dev/perfmon", O_RDWR);
	ck_assert_int_ge(dev, 0);
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	arg.attr = (uintptr_t)&a;
	arg.pid = 0xdead00000000ULL;		/* pid 0: this thread */
	arg.cpu = 0xbeefffffffffULL;		/* cpu -1 */
	arg.group_fd = 0xffffffffffffffffULL;	/* -1 */
	fd = ioctl(dev, PFM_IOC_PERF_EVENT_OPEN, &arg);
	ck_assert_msg(fd >= 0, "open with garbage upper halves: %s", strerror(errno));
	close(fd);
	arg.attr = 0;
	ck_assert_errno(ioctl(dev, PFM_IOC_PERF_EVENT_OPEN, &arg), EFAULT);
	close(dev);
}
END_TEST

#define MUX_INTERVAL	PFM_SYSFS "/perf_mux_interval_ms"

/* The switch timeout of multiplexed groups: perf_events' 4 ms, 1..10000 ms. */
START_TEST(test_mux_interval_knob)
{
	struct knob k = { .path = MUX_INTERVAL };

	knob_save(&k);
	ck_assert_int_eq(ck_sysfs_read_long(MUX_INTERVAL), 4);
	ck_assert_errno(sysfs_write(MUX_INTERVAL, "0\n"), EINVAL);
	ck_assert_errno(sysfs_write(MUX_INTERVAL, "10001\n"), EINVAL);
	ck_assert_errno(sysfs_write(MUX_INTERVAL, "4ms\n"), EINVAL);
	ck_assert_int_eq(ck_sysfs_read_long(MUX_INTERVAL), 4);
	ck_assert_ok(sysfs_write(MUX_INTERVAL, "10000\n"));
	ck_assert_int_eq(ck_sysfs_read_long(MUX_INTERVAL), 10000);
	ck_assert_ok(sysfs_write(MUX_INTERVAL, "1\n"));
	ck_assert_int_eq(ck_sysfs_read_long(MUX_INTERVAL), 1);
	knob_restore(&k);
	ck_assert_int_eq(ck_sysfs_read_long(MUX_INTERVAL), 4);
}
END_TEST

/* A group {task-clock, page-faults}; exclusive or not. */
static int open_clock_group(int exclusive, int *member)
{
	struct perf_event_attr a;
	int l;

	attr_sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.exclusive = exclusive;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	l = pfm_perf_event_open(&a, 0, -1, -1, 0);
	ck_assert_msg(l >= 0, "leader: %s", strerror(errno));
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.disabled = 0;
	*member = pfm_perf_event_open(&a, 0, -1, l, 0);
	ck_assert_msg(*member >= 0, "member: %s", strerror(errno));
	return l;
}

/*
 * A software group is never exclusive nor multiplexed with perf_events (6.1's
 * group_can_go_on()): an exclusive one runs beside another group all the time,
 * and both count every fault.  With a 1 ms switch timeout a multiplexed pair
 * would have switched many times in the spin.
 */
START_TEST(test_exclusive_sw_group_not_multiplexed)
{
	struct knob k = { .path = MUX_INTERVAL };
	char *p = ck_fresh_pages(64);
	uint64_t v[2][5], id;
	int l[2], m[2], on[2], off[2], i;

	knob_save(&k);
	ck_assert_ok(sysfs_write(MUX_INTERVAL, "1\n"));
	l[0] = open_clock_group(1, &m[0]);
	l[1] = open_clock_group(0, &m[1]);
	/*
	 * The window's code faulted in first (a function on a page the forked test
	 * has not run yet, ioctl()'s say, faults at its first call): only the 64
	 * pages fault in it.
	 */
	ck_assert_ok(ioctl(l[0], PERF_EVENT_IOC_ID, &id));
	touch_pages(p, 0);
	spin_until(thread_cpu_ns());
	/* no check while counting: a passing one may fault (fault_on()) */
	for (i = 0; i < 2; i++)
		on[i] = ioctl(l[i], PERF_EVENT_IOC_ENABLE, 0);
	touch_pages(p, 64);
	spin_until(thread_cpu_ns() + 20 * NSEC_PER_MSEC);
	for (i = 0; i < 2; i++)
		off[i] = ioctl(l[i], PERF_EVENT_IOC_DISABLE, 0);
	knob_restore(&k);
	for (i = 0; i < 2; i++) {
		ck_assert_ok(on[i]);
		ck_assert_ok(off[i]);
	}
	for (i = 0; i < 2; i++) {
		/* {nr, enabled, running, task-clock, page-faults} */
		ck_assert_int_eq(read(l[i], v[i], sizeof(v[i])), sizeof(v[i]));
		ck_assert_uint_eq(v[i][0], 2);
		ck_assert_uint_ge(v[i][1], 20 * NSEC_PER_MSEC);
		ck_assert_uint_eq(v[i][2], v[i][1]);
		ck_assert_uint_ge(v[i][3], 20 * NSEC_PER_MSEC);
		ck_assert_uint_eq(v[i][4], 64);
		close(m[i]);
		close(l[i]);
	}
}
END_TEST

Suite *pfm_perf_shim_suite(void)
{
	Suite *s = suite_create("perf_shim");
	TCase *tc;

	tc = pfm_tcase("perf_shim");
	tcase_add_test(tc, test_self_page_faults);
	tcase_add_test(tc, test_counters_shared);
	tcase_add_test(tc, test_group_own_counters);
	tcase_add_test(tc, test_native_context_excludes);
	tcase_add_test(tc, test_cpu_events);
	tcase_add_test(tc, test_sampling_refused);
	tcase_add_test(tc, test_ioctl_errnos);
	tcase_add_test(tc, test_mmap_user_page);
	tcase_add_test(tc, test_poll_hup);
	tcase_add_test(tc, test_sysfs_counts);
	tcase_add_test(tc, test_group_rules);
	tcase_add_test(tc, test_inherit_folds_at_exit);
	tcase_add_test(tc, test_inherit_grandchild_every_round);
	tcase_add_test(tc, test_unprivileged_kernel_level);
	tcase_add_test(tc, test_paranoid_3);
	tcase_add_test(tc, test_door_args);
	tcase_add_test(tc, test_mux_interval_knob);
	tcase_add_test(tc, test_exclusive_sw_group_not_multiplexed);
	suite_add_tcase(s, tc);
	return s;
}
