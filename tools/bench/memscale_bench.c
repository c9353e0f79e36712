// SPDX-License-Identifier: GPL-2.0
/*
 * memscale_bench: the kernel memory of monitoring at scale, perfmon against
 * perf_events, in the same guest run, interleaved round by round.
 *
 *   threads  1, 100, 1000 threads (MEMSCALE_THREADS), each monitored for the
 *            four events of bench_common.h: a perfmon context per thread,
 *            programmed and attached / a perf group of four per thread; per
 *            monitored thread
 *   events   one thread monitored for 1, 2, 4, 8, 16 events (MEMSCALE_EVENTS;
 *            event i is bench event i modulo 4): one context / one group; per
 *            event
 *
 * Besides perfmon and perf_events, the shim (the same groups through
 * pfm_perf_event_open(), the perf layer: a target context per thread) unless
 * MEMSCALE_SHIM=0, and a measure that opens nothing (the floor: what the guest
 * takes meanwhile).  Each measure starts threads that block on a pipe (a child
 * process), takes its baseline, opens the objects, measures, closes them and
 * ends the threads, so every tool finds the threads as perf_events finds a thread
 * it never monitored.  The kernel figure is kmem_trace.h's (objects, pages and
 * per-CPU memory taken and kept, exact for one object as for a thousand) plus
 * the rise of VmallocUsed; the fall of free pages (whole slabs) is beside it.
 *
 * MEMSCALE_ROUNDS (5), MEMSCALE_SITES=1: the objects by call site in the first
 * round of every measure (by default for the largest thread count only),
 * MEMSCALE_TIME=1: the guest time of each measure, and of reading its trace.
 * Output: a table, the goals, and one line "BENCH-MEMSCALE-JSON: {...}".
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfmon.h"
#include "kmem_trace.h"
#include "mem_meas.h"
#include "memscale.h"

#define MAX_THREADS	4096
#define TRACE_KB	(32 * 1024)

const char *const ms_tool_name[MS_NTOOLS] = { "perfmon", "shim", "perf", "none" };
const char *const ms_curve_name[MS_NCURVES] = { "threads", "events" };

static pid_t tid[MAX_THREADS];
static int fds[MAX_THREADS][BENCH_PFM_MAX];
static int hold[2];
static pid_t holder;
static int sites_env;

static void *blocked(void *arg)
{
	pid_t me = gettid();
	char c;

	if (write(*(int *)arg, &me, sizeof(me)) != sizeof(me))
		_exit(1);
	while (read(hold[0], &c, 1) > 0)
		;
	return NULL;
}

/* n threads of a child process, asleep on hold[0] until hold[1] closes */
static void start_threads(int n)
{
	pthread_attr_t attr;
	pthread_t th;
	int got[2], i;
	char c;

	if (pipe(hold) || pipe(got))
		die("pipe");
	holder = fork();
	if (holder < 0)
		die("fork");
	if (!holder) {
		close(hold[1]);
		close(got[0]);
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 64 * 1024);
		for (i = 0; i < n; i++)
			if (pthread_create(&th, &attr, blocked, &got[1]))
				_exit(1);
		while (read(hold[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(hold[0]);
	close(got[1]);
	for (i = 0; i < n; i++)
		if (read(got[0], &tid[i], sizeof(tid[i])) != sizeof(tid[i]))
			die("the threads' ids");
	close(got[0]);
}

static void stop_threads(void)
{
	close(hold[1]);
	if (waitpid(holder, NULL, 0) != holder)
		die("waitpid");
}

/* The monitoring of thread t for nev events; its fds in fds[t], their number. */
static int open_thread(enum ms_tool tool, int t, int nev)
{
	struct perf_event_attr a;
	int i;

	if (tool == MS_NONE)
		return 0;
	if (tool == MS_PERFMON) {
		fds[t][0] = pfm_create_context(0);
		if (fds[t][0] < 0 || bench_pfm_program(fds[t][0], 0, nev) ||
		    pfm_load_context(fds[t][0], 0, tid[t]))
			die("perfmon context");
		return 1;
	}
	for (i = 0; i < nev; i++) {
		if (tool == MS_PERF) {
			fds[t][i] = bench_perf_open(tid[t], bench_perf_ev[i % BENCH_NEV],
						    i ? fds[t][0] : -1, 0);
			continue;
		}
		bench_perf_attr(&a, bench_perf_ev[i % BENCH_NEV], i ? fds[t][0] : -1, 0);
		fds[t][i] = pfm_perf_event_open(&a, tid[t], -1, i ? fds[t][0] : -1, 0);
		if (fds[t][i] < 0)
			die("pfm_perf_event_open");
	}
	return nev;
}

/* One measure of point p by tool: v[V_*], per thread or per event. */
static void measure(struct ms_point *p, enum ms_tool tool, int round, int sites, double *v)
{
	long long before[NMEAS], after[NMEAS], k[KT_N];
	int t, i, nfd = 0;
	double per = p->by_event ? p->events : p->threads;

	struct timespec ts, t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	start_threads(p->threads);
	/* copied now, after the fork shared them: not while the fds are written in them */
	memset(fds, 0, sizeof(fds));
	mem_now(before);
	kmem_trace_start();
	for (t = 0; t < p->threads; t++)
		nfd = open_thread(tool, t, p->events);
	/*
	 * The counters read while the trace records (reading the trace takes the
	 * program's own memory), then the deferred frees of what the opening and
	 * the reads took and gave back.
	 */
	mem_now(after);
	usleep(300 * 1000);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	kmem_trace_stop(k);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (getenv("MEMSCALE_TIME"))
		fprintf(stderr, "memscale: %s %d x %d: trace read in %.3f s, since start %.3f s\n",
			ms_tool_name[tool], p->threads, p->events,
			t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9,
			t1.tv_sec - ts.tv_sec + (t1.tv_nsec - ts.tv_nsec) / 1e9);
	if (!round)
		kmem_trace_top(p->top[tool], sizeof(p->top[tool]), per, 4);
	if (!round && sites) {
		printf("  %s, %d threads of %d events: objects by call site, pages by flags, "
		       "bytes per %s\n", ms_tool_name[tool], p->threads, p->events,
		       p->by_event ? "event" : "thread");
		kmem_trace_print_sites(per);
	}
	for (t = 0; t < p->threads; t++)
		for (i = nfd - 1; i >= 0; i--)
			close(fds[t][i]);
	stop_threads();
	v[V_OBJECTS] = k[KT_OBJECTS] / per;
	v[V_PAGES] = k[KT_PAGES] / per;
	v[V_PERCPU] = k[KT_PERCPU] / per;
	v[V_VMALLOC] = (after[M_VMALLOC] - before[M_VMALLOC]) / per;
	v[V_KERNEL] = v[V_OBJECTS] + v[V_PAGES] + v[V_PERCPU] + v[V_VMALLOC];
	v[V_TOTAL] = (after[M_TOTAL] - before[M_TOTAL]) / per;
	v[V_SLAB] = (after[M_SLAB] - before[M_SLAB]) / per;
}

static int env_int(const char *name, int dflt)
{
	const char *s = getenv(name);

	return s && *s ? atoi(s) : dflt;
}

/* A comma-separated list of counts into the curve's points. */
static void points(struct ms_curve_data *c, const char *name, const char *dflt, int threads,
		   int max)
{
	const char *s = getenv(name);
	char *end;
	long n;

	for (s = s && *s ? s : dflt; *s && c->n < MS_MAX_POINTS; s = end + (*end == ',')) {
		n = strtol(s, &end, 10);
		if (end == s || n < 1 || n > max) {
			fprintf(stderr, "memscale: %s: 1..%d, comma-separated\n", name, max);
			exit(1);
		}
		c->p[c->n].threads = threads ? n : 1;
		c->p[c->n].events = threads ? BENCH_NEV : n;
		c->p[c->n].by_event = !threads;
		c->n++;
	}
}

int main(void)
{
	static struct ms_curve_data curve[MS_NCURVES];
	int rounds = env_int("MEMSCALE_ROUNDS", 5), shim = env_int("MEMSCALE_SHIM", 1);
	int maxthr = 1, c, i, k, round, ntools, m;
	double one[MS_NV];
	struct rlimit rl;
	enum ms_tool order[MS_NTOOLS] = { MS_PERFMON, MS_SHIM, MS_PERF, MS_NONE }, tool;
	struct ms_point *p;

	sites_env = env_int("MEMSCALE_SITES", 0);
	if (rounds < 1 || rounds > MS_MAX_ROUNDS)
		rounds = 5;
	points(&curve[MS_THREADS], "MEMSCALE_THREADS", "1,100,1000", 1, MAX_THREADS);
	points(&curve[MS_EVENTS], "MEMSCALE_EVENTS", "1,2,4,8,16", 0, BENCH_PFM_MAX);
	for (i = 0; i < curve[MS_THREADS].n; i++)
		if (curve[MS_THREADS].p[i].threads > maxthr)
			maxthr = curve[MS_THREADS].p[i].threads;
	/* the fd table at its largest from the start: its growth is no tool's */
	rl.rlim_cur = rl.rlim_max = maxthr * BENCH_NEV + 256;
	if (setrlimit(RLIMIT_NOFILE, &rl) || dup2(0, rl.rlim_cur - 1) < 0)
		die("the fd table");
	close(rl.rlim_cur - 1);
	memset(tid, 0, sizeof(tid));
	if (pfm_door() < 0)
		die("perfmon's door");
	kmem_trace_init(TRACE_KB);
	ntools = shim ? MS_NTOOLS : MS_NTOOLS - 1;
	if (!shim)
		order[1] = MS_PERF, order[2] = MS_NONE;

	for (c = 0; c < MS_NCURVES; c++) {
		for (i = 0; i < curve[c].n; i++) {
			p = &curve[c].p[i];
			for (round = 0; round < rounds; round++) {
				for (k = 0; k < ntools; k++) {
					tool = order[(k + round) % ntools];
					measure(p, tool, round, sites_env || (c == MS_THREADS &&
						p->threads == maxthr), one);
					for (m = 0; m < MS_NV; m++)
						p->v[tool][m][round] = one[m];
				}
				for (k = 0; k < MS_NTOOLS; k++)
					p->r[k][round] = p->v[k][V_KERNEL][round] /
							 p->v[MS_PERF][V_KERNEL][round];
			}
			for (k = 0; k < MS_NTOOLS; k++) {
				for (m = 0; m < MS_NV; m++)
					p->s[k][m] = stat3(p->v[k][m], rounds);
				p->ratio[k] = stat3(p->r[k], rounds);
			}
			fprintf(stderr, "memscale: %s %d done\n", ms_curve_name[c],
				c == MS_THREADS ? p->threads : p->events);
		}
	}
	ms_print(curve, rounds, shim);
	return 0;
}
