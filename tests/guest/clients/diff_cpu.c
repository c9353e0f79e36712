// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff's CPU case: events on one CPU (pid -1, cpu N), the test pinned to
 * that CPU.  A group {page-faults:u, cpu-clock:u} counts the test's own faults
 * of fresh pages, exactly: nothing else makes user-level faults on the guest's
 * second CPU.  The clocks are another run's ('r'), but within one run the
 * cpu-clock member and the group's time_enabled measure the same wall-clock
 * window, and time_running equals time_enabled.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "diff.h"

#define CPU_PAGES	32
#define CPU_SLEEPS	20
/*
 * The group's window: long enough that a host which stops the guest's CPU for a
 * few milliseconds between the shim's two readings at the enable (the set's time,
 * then the counter's start, as a busy host does) stays within the
 * 5 % the clock and time_enabled are held to
 */
#define CPU_BUSY_MS	200
#define TIMES		(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

void pin(int cpu)
{
	cpu_set_t set;
	long i, n = sysconf(_SC_NPROCESSORS_CONF);

	CPU_ZERO(&set);
	for (i = 0; i < n; i++)
		if (cpu < 0 || i == cpu)
			CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* wall-clock time, ms of it, the CPU busy */
void busy_ms(long ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

/* {nr, ena, run, {value, id} x 2}: faults exact, the clock against the window */
static void group_vals(struct trace *t, const unsigned long long *v)
{
	unsigned long long ena = v[1], clk = v[5];

	obs_val(t, v[0], 'e');
	obs_val(t, ena, 'r');
	obs_val(t, v[1] == v[2], 'e');
	obs_val(t, v[3], 'e');
	obs_val(t, clk, 'r');
	obs_val(t, clk + ena / 20 >= ena && clk <= ena + ena / 20, 'e');
}

void case_cpu_events(const struct backend *be, struct trace *t)
{
	int cpu = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
	long psz = sysconf(_SC_PAGESIZE), i;
	struct timespec ms = { 0, 1000000 };
	unsigned long long v[8];
	struct perf_event_attr a;
	int l = -1, m = -1, cs = -1, off = -1;
	volatile char *p;

	p = mmap(NULL, CPU_PAGES * psz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	madvise((void *)p, CPU_PAGES * psz, MADV_NOHUGEPAGE);
	pin(cpu);

	attr_sw(&a, PERF_COUNT_SW_CPU_CLOCK);
	a.exclude_kernel = 1;
	do_open(be, t, &a, -1, -1, -1, 0, "cpu-clock:u, pid -1, cpu -1");
	do_open(be, t, &a, -1, 4096, -1, 0, "cpu-clock:u, cpu 4096");

	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | TIMES;
	l = do_open(be, t, &a, -1, cpu, -1, 0, "page-faults:u leader on the CPU");
	attr_sw(&a, PERF_COUNT_SW_CPU_CLOCK);
	a.exclude_kernel = 1;
	a.disabled = 0;
	if (l >= 0) {
		i = do_open(be, t, &a, -1, cpu ? 0 : 1, l, 0, "member on another CPU");
		if (i >= 0)
			close(i);
	}
	m = do_open(be, t, &a, -1, cpu, l, 0, "cpu-clock:u member");
	attr_sw(&a, PERF_COUNT_SW_CONTEXT_SWITCHES);
	cs = do_open(be, t, &a, -1, cpu, -1, 0, "context-switches on the CPU");
	attr_sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.read_format = TIMES;
	off = do_open(be, t, &a, -1, cpu, -1, 0, "task-clock on the CPU, never enabled");
	if (l < 0 || m < 0 || cs < 0 || off < 0)
		goto out;

	do_ioctl(t, l, PERF_EVENT_IOC_ENABLE, 0, "ENABLE leader");
	for (i = 0; i < CPU_PAGES; i++)
		p[i * psz] = 1;
	busy_ms(CPU_BUSY_MS);
	do_ioctl(t, l, PERF_EVENT_IOC_DISABLE, 0, "DISABLE leader");
	do_ioctl(t, cs, PERF_EVENT_IOC_ENABLE, 0, "ENABLE switches");
	for (i = 0; i < CPU_SLEEPS; i++)
		nanosleep(&ms, NULL);
	do_ioctl(t, cs, PERF_EVENT_IOC_DISABLE, 0, "DISABLE switches");

	do_read(t, l, v, 7 * sizeof(v[0]), "group");
	group_vals(t, v);
	do_ioctl(t, l, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP, "RESET group");
	do_read(t, l, v, 7 * sizeof(v[0]), "group after RESET");
	obs_val(t, v[3], 'e');
	obs_val(t, v[5], 'e');
	do_read(t, cs, v, sizeof(v[0]), "context-switches");
	obs_val(t, v[0], 's');
	do_read(t, off, v, 3 * sizeof(v[0]), "never enabled");
	obs_vals(t, v, 3, "eee");
out:
	pin(-1);
	if (off >= 0)
		close(off);
	if (cs >= 0)
		close(cs);
	if (m >= 0)
		close(m);
	if (l >= 0)
		close(l);
	munmap((void *)p, CPU_PAGES * psz);
}

/*
 * --- clock-switches: task-clock and context-switches over CS_ROUNDS pipe round
 * trips with a second process on CPU 0 ---
 * A group on the calling thread: both count its switches as the kernel does
 * (getrusage; the ENABLE and DISABLE may add one each outside the window), and a
 * task clock within its CPU time around the window, not under half of it.  6.1
 * stamps each switch with a clock read in its hooks, the shim with the scheduler's
 * own stamps (kernel/perfmon/thread.c): how far each clock falls short of the CPU
 * time is shown, not compared (the shim's by the edges alone, 6.1's by a few us a
 * round trip more).
 */
#define CS_ROUNDS	300

static long thread_switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

static int cs_ping[2], cs_pong[2];

/* The other process: each byte back, until ping closes. */
static void work_pong(long unused)
{
	char c;

	(void)unused;
	close(cs_ping[1]);
	close(cs_pong[0]);
	while (read(cs_ping[0], &c, 1) == 1)
		if (write(cs_pong[1], &c, 1) != 1)
			break;
}

void case_clock_switches(const struct backend *be, struct trace *t)
{
	unsigned long long buf[3] = { 0 }, cpu, sw;
	struct child ch = { .no_lock = 1 };
	struct perf_event_attr a;
	int fd[2] = { -1, -1 }, i;
	long long t0, t1;
	long k0, k1;
	char c = 0;

	pin(0);
	if (pipe(cs_ping) || pipe(cs_pong))
		goto out_pin;
	if (child_start(&ch, work_pong, 0)) {
		close(cs_ping[1]);
		close(cs_pong[0]);
		goto out_pipes;
	}
	close(cs_ping[0]);
	close(cs_pong[1]);
	child_go(&ch);
	attr_sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.read_format = PERF_FORMAT_GROUP;
	fd[0] = do_open(be, t, &a, 0, -1, -1, 0, "task-clock, leader");
	attr_sw(&a, PERF_COUNT_SW_CONTEXT_SWITCHES);
	a.disabled = 0;
	fd[1] = do_open(be, t, &a, 0, -1, fd[0], 0, "context-switches");
	if (fd[0] < 0 || fd[1] < 0)
		goto out;
	k0 = thread_switches();
	t0 = thread_ns();
	ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	for (i = 0; i < CS_ROUNDS; i++)
		if (write(cs_ping[1], &c, 1) != 1 || read(cs_pong[0], &c, 1) != 1)
			break;
	ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	t1 = thread_ns();
	k1 = thread_switches();
	obs_call(t, i, 1, "%d round trips", CS_ROUNDS);
	if (do_read(t, fd[0], buf, sizeof(buf), "nr,clock,switches") != sizeof(buf))
		goto out;
	cpu = t1 - t0;
	sw = buf[2];
	obs_val(t, buf[0], 'e');
	obs_val(t, sw >= CS_ROUNDS - 1 && sw <= (unsigned long long)(k1 - k0) &&
		   sw + 2 >= (unsigned long long)(k1 - k0), 'e');
	obs_val(t, buf[1] <= cpu && buf[1] >= cpu / 2, 'e');
	obs_val(t, cpu - buf[1], 'x');
out:
	for (i = 1; i >= 0; i--)
		if (fd[i] >= 0)
			close(fd[i]);
	close(cs_ping[1]);
	child_wait(&ch);
	close(cs_pong[0]);
	goto out_pin;
out_pipes:
	close(cs_ping[0]);
	close(cs_pong[1]);
out_pin:
	pin(-1);
}
