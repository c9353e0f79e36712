// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff's times of events whose counting is switched at context switches:
 *
 * thread-on-cpu-times: the test's task-clock, one event per CPU (pid 0, cpu N,
 * as perf record opens them).  The test spins ON_LAST_MS of its CPU time on
 * the last CPU, then ON_FIRST_MS on the first.  6.1 keeps such an event
 * inactive while its thread runs elsewhere: time_enabled is the thread's time
 * while enabled, the same for every CPU's event, and time_running the part on
 * that CPU.  Each event's share (running / enabled, in percent) is compared
 * with native's within 10 points ('p'), and held to the spins' ranges.
 *
 * cgroup-times: a cgroup event on the test's CPU (perf stat -G), while the
 * test, in the root cgroup, spins TEST_MS there and then a child in the cgroup
 * spins CHILD_MS.  6.1 gives a cgroup event the time its cgroup's tasks ran on
 * the CPU: time_enabled and time_running alike, the child's spin and not the
 * test's.  Its share of the child's CPU time (the child's rusage) is compared
 * ('p'): a share of the window's wall-clock time moved by 16 points between two
 * native runs on a loaded host, whose preemptions of the guest's CPUs fall on
 * the test's spin or the child's at random.  The case is skipped (no
 * observation) where cgroup v2 is not mounted.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diff.h"

#define ON_LAST_MS	150
#define ON_FIRST_MS	50
#define MAX_CPUS	64
#define TIMES		(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* part of whole, in percent */
static unsigned long long pct(unsigned long long part, unsigned long long whole)
{
	return whole ? part * 100 / whole : 0;
}

void case_thread_on_cpu_times(const struct backend *be, struct trace *t)
{
	int n = sysconf(_SC_NPROCESSORS_ONLN), fd[MAX_CPUS], i;
	unsigned long long v[MAX_CPUS][3], share, ena0;
	struct perf_event_attr a;

	if (n < 2)
		return;
	if (n > MAX_CPUS)
		n = MAX_CPUS;
	attr_sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.read_format = TIMES;
	for (i = 0; i < n; i++)
		fd[i] = do_open(be, t, &a, 0, i, -1, 0, "task-clock of the thread on one CPU");
	for (i = 0; i < n; i++)
		if (fd[i] < 0)
			goto out;
	/*
	 * The first CPU's event last, just before the move to the last CPU: on a
	 * loaded debug kernel the other ENABLEs take tens of ms of the thread's
	 * time, which would count on the first CPU if the thread is there.
	 */
	for (i = n - 1; i >= 0; i--)
		do_ioctl(t, fd[i], PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	pin(n - 1);
	work_spin(ON_LAST_MS);
	pin(0);
	work_spin(ON_FIRST_MS);
	for (i = 0; i < n; i++)
		do_ioctl(t, fd[i], PERF_EVENT_IOC_DISABLE, 0, "DISABLE");
	for (i = 0; i < n; i++)
		if (do_read(t, fd[i], v[i], sizeof(v[i]), "count, enabled, running") != sizeof(v[i]))
			goto out;
	ena0 = v[0][1];
	for (i = 0; i < n; i++) {
		share = pct(v[i][2], v[i][1]);
		obs_call(t, 0, 1, "share of the thread's time on CPU %s", i == 0 ? "first" :
			 i == n - 1 ? "last" : "other");
		obs_val(t, share, 'p');
		/* the spins' parts of the thread's time, and nothing elsewhere */
		obs_val(t, i == n - 1 ? share >= 55 && share <= 90 :
			   i == 0 ? share >= 15 && share <= 40 : share <= 5, 'e');
		/* every event enabled over the thread's same time */
		obs_val(t, v[i][1] + ena0 / 20 >= ena0 && v[i][1] <= ena0 + ena0 / 20, 'e');
		/* the clock counts while running: its count is time_running */
		obs_val(t, v[i][0] + v[i][2] / 10 + 1000000 >= v[i][2] &&
			   v[i][0] <= v[i][2] + v[i][2] / 10 + 1000000, 'e');
	}
out:
	pin(-1);
	for (i = 0; i < n; i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

#define CG_ROOT		"/sys/fs/cgroup"
#define CG_DIR		CG_ROOT "/perf_diff_times"
#define TEST_MS		100
#define CHILD_MS	100

static long long wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* user and system time of the waited-for children */
static unsigned long long rusage_ns(const struct rusage *r)
{
	return (r->ru_utime.tv_sec + r->ru_stime.tv_sec) * 1000000000ULL +
	       (r->ru_utime.tv_usec + r->ru_stime.tv_usec) * 1000ULL;
}

void case_cgroup_times(const struct backend *be, struct trace *t)
{
	int cpu = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0, cg, fd = -1;
	struct child ch = { .no_lock = 1 };
	unsigned long long v[3] = { 0 }, win;
	struct rusage r0, r1;
	struct perf_event_attr a;
	long long w0;

	cg = cg_dir_open(CG_DIR);
	if (cg < 0)
		return;
	pin(cpu);
	if (child_start(&ch, work_spin, CHILD_MS))
		goto out_pin;
	obs_call(t, cg_enter(CG_DIR, ch.pid), 1, "child into the cgroup");
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.read_format = TIMES;
	fd = do_open(be, t, &a, cg, cpu, -1, PERF_FLAG_PID_CGROUP,
		     "page-faults of the cgroup on the CPU, with times");
	if (fd < 0) {
		child_go(&ch);
		child_wait(&ch);
		goto out_pin;
	}
	w0 = wall_ns();
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	work_spin(TEST_MS);
	getrusage(RUSAGE_CHILDREN, &r0);
	child_go(&ch);
	obs_call(t, child_wait(&ch), 1, "child spins %d ms", CHILD_MS);
	getrusage(RUSAGE_CHILDREN, &r1);
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "DISABLE");
	win = wall_ns() - w0;
	if (do_read(t, fd, v, sizeof(v), "count, enabled, running") != sizeof(v))
		goto out_fd;
	obs_val(t, pct(v[1], rusage_ns(&r1) - rusage_ns(&r0)), 'p');
	/* the child's spin, its start and exit, not the test's spin */
	obs_val(t, v[1] >= CHILD_MS * 900000ULL && v[1] + TEST_MS * 900000ULL <= win, 'e');
	obs_val(t, v[2] <= v[1] && v[2] + v[1] / 20 >= v[1], 'e');
out_fd:
	close(fd);
out_pin:
	pin(-1);
	close(cg);
	rmdir(CG_DIR);
}
