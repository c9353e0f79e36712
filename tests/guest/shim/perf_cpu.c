// SPDX-License-Identifier: GPL-2.0
/*
 * perf_cpu: pfm_perf_event_open()'s CPU events (pid -1, cpu N), on perfmon's
 * CPU sessions.  An event counts what happens on its CPU, whoever runs there:
 * the test pins itself (sched_setaffinity) to the CPU it counts and makes the
 * faults itself.  Nothing else makes user-level faults in the guest, so the
 * count of a window is exactly the test's.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "util.h"
#include "perf_ring_util.h"
#include "users.h"
#include "suites.h"

#define PARANOID	PFM_SYSFS "/paranoid"
#define PERF_TARGETS	PFM_SYSFS "/perf_targets_count"
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
#define TIMES		(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* The CPU the tests count on: 1, away from where the guest's init runs. */
static int the_cpu(void)
{
	ck_assert_msg(sysconf(_SC_NPROCESSORS_ONLN) >= 2,
		      "the guest must have two CPUs online");
	return 1;
}

static int ck_open_cpu(struct perf_event_attr *a, int cpu, int group_fd)
{
	int fd = pfm_perf_event_open(a, -1, cpu, group_fd, 0);

	ck_assert_msg(fd >= 0, "open config %llu on CPU %d: %s",
		      (unsigned long long)a->config, cpu, strerror(errno));
	return fd;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Exact: the faults of 64 fresh pages touched on the CPU; the other CPU's
 * event, enabled over the same window, sees none of them.
 */
START_TEST(test_cpu_page_faults)
{
	int cpu = the_cpu(), fd, other;
	struct perf_event_attr a;
	char *p = ck_fresh_pages(96);

	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	ck_pin(cpu);
	fd = ck_open_cpu(&a, cpu, -1);
	a.disabled = 0;
	other = ck_open_cpu(&a, 0, -1);
	fault_on(fd, p, 64);
	ck_assert_ok(ioctl(other, PERF_EVENT_IOC_DISABLE, 0));
	ck_assert_uint_eq(ck_read1(fd), 64);
	ck_assert_uint_eq(ck_read1(other), 0);
	/* RESET: back to 0, then counting on from there */
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ck_assert_uint_eq(ck_read1(fd), 0);
	fault_on(fd, p + 64 * page_size(), 32);
	ck_assert_uint_eq(ck_read1(fd), 32);
	ck_pin(-1);
	close(other);
	close(fd);
}
END_TEST

/*
 * A clock's count against its time_enabled: both are taken in one visit to the
 * CPU, which under TCG is short but not instant (code run the first time); two
 * visits would part them by the time between, longer on a busy host.  The visit
 * lies within the ioctl that asks for it, so they part by less than the longest
 * ENABLE or DISABLE took (over 1 ms on the debug kernel, KASAN's code run the
 * first time) and this.
 */
#define CLOCK_SLACK_NS	NSEC_PER_MSEC

/* ioctl(fd, req), asserted, and *longest raised to its duration */
static void ck_timed_ioctl(int fd, unsigned long req, uint64_t *longest)
{
	uint64_t t = now_ns();

	ck_assert_ok(ioctl(fd, req, 0));
	t = now_ns() - t;
	if (t > *longest)
		*longest = t;
}

/*
 * cpu-clock and task-clock on a CPU both count wall-clock time while enabled,
 * the CPU idle or not (6.1: the CPU context's time), as time_enabled and
 * time_running do; a disabled event has counted nothing and no time.
 */
START_TEST(test_cpu_clocks_and_times)
{
	int cpu = the_cpu(), fd[2], off, i;
	struct perf_event_attr a;
	uint64_t v[3], t0, window, longest = 0, slack;

	for (i = 0; i < 2; i++) {
		attr_sw(&a, i ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK);
		a.read_format = TIMES;
		fd[i] = ck_open_cpu(&a, cpu, -1);
	}
	off = ck_open_cpu(&a, cpu, -1);
	/* every call below a visit to CPU 1, woken from idle */
	ck_pin(0);
	t0 = now_ns();
	for (i = 0; i < 2; i++)
		ck_timed_ioctl(fd[i], PERF_EVENT_IOC_ENABLE, &longest);
	usleep(200000);
	for (i = 0; i < 2; i++)
		ck_timed_ioctl(fd[i], PERF_EVENT_IOC_DISABLE, &longest);
	window = now_ns() - t0;
	slack = CLOCK_SLACK_NS + longest;
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(read(fd[i], v, sizeof(v)), sizeof(v));
		ck_assert_msg(v[0] >= 190 * NSEC_PER_MSEC && v[0] <= window,
			      "event %d counted %llu ns over a 200 ms sleep (%llu ns window)",
			      i, (unsigned long long)v[0], (unsigned long long)window);
		ck_assert_uint_eq(v[1], v[2]);
		/* count and times: one clock, read in the same visit to CPU 1 */
		ck_assert_msg(v[1] >= v[0] - slack && v[1] <= v[0] + slack,
			      "event %d: count %llu, time_enabled %llu (the longest ioctl %llu ns)",
			      i, (unsigned long long)v[0], (unsigned long long)v[1],
			      (unsigned long long)longest);
	}
	ck_assert_int_eq(read(off, v, sizeof(v)), sizeof(v));
	ck_assert_uint_eq(v[0], 0);
	ck_assert_uint_eq(v[1], 0);
	ck_assert_uint_eq(v[2], 0);
	ck_pin(-1);
	close(off);
	close(fd[0]);
	close(fd[1]);
}
END_TEST

/*
 * Context switches and migrations happen in the kernel: counted at kernel
 * level, none with exclude_kernel (as 6.1).  N sleeps of the pinned test are
 * 2N switches on its CPU (to idle and back); kernel threads add a few.  The
 * test moves itself onto the CPU N times: N migrations in.
 */
#define SCHED_N		50

START_TEST(test_cpu_switches_and_migrations)
{
	int cpu = the_cpu(), cs, cs_u, mig, i;
	struct perf_event_attr a;
	struct timespec ms = { 0, 1000000 };
	uint64_t n;

	attr_sw(&a, PERF_COUNT_SW_CONTEXT_SWITCHES);
	a.exclude_kernel = 0;
	a.disabled = 0;
	cs = ck_open_cpu(&a, cpu, -1);
	a.config = PERF_COUNT_SW_CPU_MIGRATIONS;
	mig = ck_open_cpu(&a, cpu, -1);
	a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	a.exclude_kernel = 1;
	cs_u = ck_open_cpu(&a, cpu, -1);
	ck_pin(cpu);
	for (i = 0; i < SCHED_N; i++)
		nanosleep(&ms, NULL);
	for (i = 0; i < SCHED_N; i++) {
		ck_pin(0);
		ck_pin(cpu);
	}
	ck_pin(-1);
	ck_assert_ok(ioctl(cs, PERF_EVENT_IOC_DISABLE, 0));
	ck_assert_ok(ioctl(mig, PERF_EVENT_IOC_DISABLE, 0));
	n = ck_read1(cs);
	/* the sleeps, and the moves' switches (the migration thread runs there) */
	ck_assert_msg(n >= 2 * SCHED_N && n <= 10 * SCHED_N + 200,
		      "%llu switches for %d sleeps and %d moves", (unsigned long long)n,
		      SCHED_N, SCHED_N);
	n = ck_read1(mig);
	ck_assert_msg(n >= SCHED_N && n <= SCHED_N + 100, "%llu migrations in for %d",
		      (unsigned long long)n, SCHED_N);
	ck_assert_uint_eq(ck_read1(cs_u), 0);
	close(cs_u);
	close(mig);
	close(cs);
}
END_TEST

/*
 * A group on one CPU: its members follow the leader, a group read gives every
 * count with the leader's times, RESET with PERF_IOC_FLAG_GROUP zeroes them all.
 * The events of one CPU share one target; another CPU has its own.
 */
START_TEST(test_cpu_group)
{
	int cpu = the_cpu(), l, m, other, targets;
	struct perf_event_attr a;
	uint64_t v[16], id[2];
	char *p = ck_fresh_pages(48);

	targets = ck_sysfs_read_long(PERF_TARGETS);
	attr_sw(&a, PERF_COUNT_SW_CPU_CLOCK);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | TIMES;
	l = ck_open_cpu(&a, cpu, -1);
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.disabled = 0;
	m = ck_open_cpu(&a, cpu, l);
	ck_assert_int_eq(ck_sysfs_read_long(PERF_TARGETS), targets + 1);
	other = ck_open_cpu(&a, 0, -1);
	ck_assert_int_eq(ck_sysfs_read_long(PERF_TARGETS), targets + 2);
	close(other);
	ck_assert_int_eq(ck_sysfs_read_long(PERF_TARGETS), targets + 1);
	/* members stay on their leader's CPU, and CPU events with CPU events */
	ck_assert_errno(pfm_perf_event_open(&a, -1, 0, l, 0), EINVAL);
	ck_assert_errno(pfm_perf_event_open(&a, -1, -1, l, 0), EINVAL);
	ck_assert_ok(ioctl(l, PERF_EVENT_IOC_ID, &id[0]));
	ck_assert_ok(ioctl(m, PERF_EVENT_IOC_ID, &id[1]));

	ck_pin(cpu);
	fault_on(l, p, 48);
	ck_pin(-1);
	ck_assert_int_eq(read(l, v, sizeof(v)), 7 * sizeof(v[0]));
	ck_assert_uint_eq(v[0], 2);
	/* the whole read with a failure of the times: whether the members counted */
	ck_assert_msg(v[1] > 0 && v[1] == v[2],
		      "group read: enabled %llu running %llu clock %llu faults %llu",
		      (unsigned long long)v[1], (unsigned long long)v[2],
		      (unsigned long long)v[3], (unsigned long long)v[5]);
	ck_assert_uint_gt(v[3], 0);
	ck_assert_uint_eq(v[4], id[0]);
	ck_assert_uint_eq(v[5], 48);
	ck_assert_uint_eq(v[6], id[1]);
	ck_assert_ok(ioctl(l, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	ck_assert_int_eq(read(l, v, sizeof(v)), 7 * sizeof(v[0]));
	ck_assert_uint_eq(v[3], 0);
	ck_assert_uint_eq(v[5], 0);
	close(m);
	close(l);
	ck_assert_int_eq(ck_sysfs_read_long(PERF_TARGETS), targets);
}
END_TEST

/* Bad input, in 6.1's order, and what only this layer refuses. */
START_TEST(test_cpu_errnos)
{
	struct perf_event_attr a;
	int fd;

	attr_sw(&a, PERF_COUNT_SW_CPU_CLOCK);
	ck_assert_errno(pfm_perf_event_open(&a, -1, -1, -1, 0), EINVAL);
	ck_assert_errno(pfm_perf_event_open(&a, -1, possible_cpus(), -1, 0), EINVAL);
	ck_assert_errno(pfm_perf_event_open(&a, -1, 4096, -1, 0), EINVAL);
	ck_assert_errno(pfm_perf_event_open(&a, -1, -2, -1, 0), EINVAL);
	/* the type is checked before the CPU's session: no PMU has this one */
	a.type = 1000;
	ck_assert_errno(pfm_perf_event_open(&a, -1, 0, -1, 0), ENOENT);
	/* CPU events sample too (perf_diff's cpu-sample compares them with 6.1's) */
	attr_smpl(&a, PERF_COUNT_SW_CPU_CLOCK, 100000, PERF_SAMPLE_IP);
	fd = ck_open_cpu(&a, 0, -1);
	close(fd);
	/* inherit and enable_on_exec mean nothing on a CPU: accepted */
	attr_sw(&a, PERF_COUNT_SW_CPU_CLOCK);
	a.inherit = 1;
	a.enable_on_exec = 1;
	fd = ck_open_cpu(&a, 0, -1);
	ck_assert_uint_eq(ck_read1(fd), 0);
	close(fd);
}
END_TEST

/*
 * Thread events and CPU events of software events coexist, as on 6.1 (perfmon's
 * per-thread and CPU sessions share software events); a CPU that has a perfmon
 * session of someone else's is EACCES (one session per CPU), so that perf falls
 * back to per-thread events.
 */
START_TEST(test_cpu_exclusivity)
{
	struct perf_event_attr a;
	int t, c, tc, s;

	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	t = ck_open(&a, 0);
	c = ck_open_cpu(&a, 0, -1);
	tc = pfm_perf_event_open(&a, 0, 0, -1, 0);
	ck_assert_msg(tc >= 0, "a thread's event on CPU 0 beside a CPU event: %s",
		      strerror(errno));
	close(t);
	close(tc);
	t = ck_open(&a, 0);
	close(c);
	close(t);

	s = ck_sys_ctx(PFM_SW_EV_SYSCALLS);
	ck_load(s, 0);
	ck_assert_errno(pfm_perf_event_open(&a, -1, 0, -1, 0), EACCES);
	c = ck_open_cpu(&a, the_cpu(), -1);
	close(c);
	ck_assert_ok(pfm_unload_context(s, 0));
	c = ck_open_cpu(&a, 0, -1);
	ck_assert_errno(pfm_load_context(s, 0, 0), EBUSY);
	close(c);
	close(s);
}
END_TEST

/* 6.1's perf_allow_cpu(): paranoid > 0 without CAP_PERFMON is EACCES, sampling or not. */
static void open_cpu_as(void *arg)
{
	struct perf_event_attr a;
	int fd;

	attr_sw(&a, PERF_COUNT_SW_CPU_CLOCK);
	if (arg) {
		child_expect(fd = pfm_perf_event_open(&a, -1, 0, -1, 0), EACCES);
		/* privilege before the sampling refusal, as 6.1 (perf record -a) */
		a.sample_period = 1000000;
		child_expect(pfm_perf_event_open(&a, -1, 0, -1, 0), EACCES);
		a.sample_period = 0;
	} else
		child_expect(fd = pfm_perf_event_open(&a, -1, 0, -1, 0), 0);
	if (fd >= 0)
		close(fd);
}

START_TEST(test_cpu_privilege)
{
	struct knob k = { .path = PARANOID };
	struct run r[4];

	knob_save(&k);
	as_user(&r[0], USER_NOBODY, open_cpu_as, "refused");
	as_user(&r[1], USER_PERFMON, open_cpu_as, NULL);
	ck_assert_ok(sysfs_write(PARANOID, "1\n"));
	as_user(&r[2], USER_NOBODY, open_cpu_as, "refused");
	ck_assert_ok(sysfs_write(PARANOID, "0\n"));
	as_user(&r[3], USER_NOBODY, open_cpu_as, NULL);
	knob_restore(&k);
	ck_run(&r[0]);
	ck_run(&r[1]);
	ck_run(&r[2]);
	ck_run(&r[3]);
}
END_TEST

/* Unchecked fixture: CPU 1 back online whatever a test did. */
static void cpu1_online(void)
{
	char buf[8];

	if (!sysfs_read(CPU1_ONLINE, buf, sizeof(buf)) && buf[0] == '0' &&
	    sysfs_write(CPU1_ONLINE, "1\n"))
		fprintf(stderr, "perf_cpu: cannot bring CPU 1 back online\n");
}

/*
 * An offline CPU is ENODEV (6.1's check of the CPU context); one going offline
 * under its events detaches its session: the counts stay readable, an event
 * still enabled counts no more and its times stop (as 6.1 takes the events off
 * a dying CPU), and the CPU back online takes events again.
 */
START_TEST(test_cpu_offline)
{
	struct perf_event_attr a;
	char *p = ck_fresh_pages(16);
	uint64_t v[2][3];
	int fd, clk, r, err;

	if (access(CPU1_ONLINE, F_OK)) {
		printf("perf_cpu: no %s: offline test skipped\n", CPU1_ONLINE);
		return;
	}
	attr_sw(&a, PERF_COUNT_SW_CPU_CLOCK);
	a.read_format = TIMES;
	a.disabled = 0;
	clk = ck_open_cpu(&a, 1, -1);
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	fd = ck_open_cpu(&a, 1, -1);
	ck_pin(1);
	fault_on(fd, p, 16);
	ck_pin(-1);
	errno = 0;
	r = sysfs_write(CPU1_ONLINE, "0\n");
	err = errno;
	ck_assert_msg(!r, "taking CPU 1 offline: %s", strerror(err));
	ck_assert_errno(pfm_perf_event_open(&a, -1, 1, -1, 0), ENODEV);
	ck_assert_uint_eq(ck_read1(fd), 16);
	ck_assert_int_eq(read(clk, v[0], sizeof(v[0])), sizeof(v[0]));
	usleep(20000);
	ck_assert_int_eq(read(clk, v[1], sizeof(v[1])), sizeof(v[1]));
	ck_assert_uint_gt(v[0][0], 0);
	ck_assert_uint_eq(v[1][0], v[0][0]);
	ck_assert_uint_eq(v[1][1], v[0][1]);
	ck_assert_uint_eq(v[1][2], v[0][2]);
	ck_assert_ok(ioctl(clk, PERF_EVENT_IOC_DISABLE, 0));
	close(clk);
	close(fd);
	ck_assert_ok(sysfs_write(CPU1_ONLINE, "1\n"));
	close(ck_open_cpu(&a, 1, -1));
}
END_TEST

Suite *pfm_perf_cpu_suite(void)
{
	Suite *s = suite_create("perf_cpu");
	TCase *tc;

	tc = pfm_tcase("perf_cpu");
	tcase_add_test(tc, test_cpu_page_faults);
	tcase_add_test(tc, test_cpu_clocks_and_times);
	tcase_add_test(tc, test_cpu_switches_and_migrations);
	tcase_add_test(tc, test_cpu_group);
	tcase_add_test(tc, test_cpu_errnos);
	tcase_add_test(tc, test_cpu_exclusivity);
	tcase_add_test(tc, test_cpu_privilege);
	suite_add_tcase(s, tc);

	tc = pfm_tcase("perf_cpu_offline");
	tcase_add_unchecked_fixture(tc, NULL, cpu1_online);
	tcase_add_test(tc, test_cpu_offline);
	suite_add_tcase(s, tc);
	return s;
}
