// SPDX-License-Identifier: GPL-2.0
/*
 * inherit_bench: what counting a process's children and threads costs, per
 * child or thread, perfmon against perf_events, in the same guest boot,
 * interleaved round by round.
 *
 * Three workloads (inherit_work.c), each at several sizes n:
 *   fork     n times fork(), _exit(0) in the child, waitpid() in the parent
 *   exec     the same, the child running a tiny static program (a shell's way)
 *   threads  n threads created, then joined; as many times as makes
 *            INHERIT_THREAD_TASKS threads (64) or more, so that the small
 *            points' cost is not lost in the runs' spread
 * This program runs them (--work KIND N [perf]), timing the workload alone and
 * writing the time to OUT, so that no tool's start or end is in it.
 *
 * Each point runs the workload in six modes:
 *   none       unmonitored
 *   preload    unmonitored, with the perf shim's library preloaded
 *   shim       the four software events of bench_common.h (the first
 *              INHERIT_NEV of them) opened by the program itself with
 *              attr.inherit, through the shim (libperfmon-perf.so
 *              preloaded, PFM_PERF_FALLBACK=0: the kernel's perf_event_open is
 *              not used)
 *   perf       the same events opened by the kernel's perf_event_open
 *   pfmon      pfmon -e task-clock,syscalls -- the program (PFM_FL_INHERIT)
 *   perf-stat  perf stat -e task-clock,raw_syscalls:sys_enter -- the program
 * The cost per child or thread is (monitored - unmonitored) over the tasks the
 * run made, the shim's taken against the preloaded run, the others' against the
 * plain one; each run's timed part starts settled, just after a tick.  The
 * ratios shim / perf and pfmon / perf-stat are taken within each round, and the
 * medians and quartiles over the rounds are given.
 *
 * Output: a table per workload, the goals, then one line
 * "BENCH-INHERIT-JSON: {...}" for the host (inherit_report.c).
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"
#include "inherit_bench.h"
#include "inherit_work.h"

#define OUT		"/tmp/inherit_bench.ns"
#define SELF		"/bin/inherit_bench"
#define EXIT_PROG	"/bin/inherit_exit"
#define SHIM_LIB	"/lib/perfmon/libperfmon-perf.so"

const char *const inh_mode_name[INH_NMODES] = {
	"none", "preload", "shim", "perf", "pfmon", "perf-stat",
};

const char *const inh_kind_name[INH_NKINDS] = { "fork", "exec", "threads" };

/* Whether the shim's library is mapped into this process. */
static int shim_mapped(void)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (!f)
		die("/proc/self/maps");
	while (!found && fgets(line, sizeof(line), f))
		found = !!strstr(line, "libperfmon-perf.so");
	fclose(f);
	return found;
}

/*
 * The first nev of the four events of the calling thread with attr.inherit, each
 * on its own as perf stat opens them; through the shim when it is preloaded.
 */
static void open_inherit(int fd[BENCH_NEV], int nev)
{
	struct perf_event_attr a;
	int i;

	for (i = 0; i < nev; i++) {
		bench_inherit_attr(&a, i);
		fd[i] = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		if (fd[i] < 0)
			die("perf_event_open");
	}
}

/*
 * Returns just after a timer tick, so that the ticks fall at the same places in
 * every run's time: a run of one child is shorter than a tick's period, and one
 * tick more or less in it moved its cost by half.
 */
static void after_tick(void)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &a);
	do
		clock_gettime(CLOCK_MONOTONIC_COARSE, &b);
	while (b.tv_sec == a.tv_sec && b.tv_nsec == a.tv_nsec);
}

/* How many times a run makes its n tasks. */
static long batches(int kind, long n)
{
	long tasks = atol(getenv("INHERIT_THREAD_TASKS") ?: "64");

	return kind == INH_THREADS && tasks > n ? (tasks + n - 1) / n : 1;
}

static int work(const char *kind, long n, int counted)
{
	unsigned long long v;
	int nev = atoi(getenv("INHERIT_NEV") ?: "4");
	int fd[BENCH_NEV], i;
	double t0, t;

	/* the shim's mode must be the shim's alone, the kernel's without it */
	if (counted && shim_mapped() != !!getenv("INHERIT_SHIM")) {
		fprintf(stderr, "inherit_bench: the shim is %smapped\n",
			shim_mapped() ? "" : "not ");
		return 1;
	}
	if (nev < 1 || nev > BENCH_NEV)
		nev = BENCH_NEV;
	if (counted)
		open_inherit(fd, nev);
	/*
	 * What the runs before left to the kernel's deferred work (RCU callbacks
	 * freeing tasks, work items) is done while this one sleeps, not in its
	 * time; the guest's idle time costs the host nothing.
	 */
	usleep(1000 * atoi(getenv("INHERIT_SETTLE_MS") ?: "20"));
	after_tick();
	t0 = bench_now_ns();
	if (!strcmp(kind, "threads"))
		for (i = batches(INH_THREADS, n); i > 0; i--)
			work_threads(n);
	else
		work_children(n, strcmp(kind, "exec") ? NULL : EXIT_PROG);
	t = bench_now_ns() - t0;
	for (i = 0; counted && i < nev; i++) {
		if (read(fd[i], &v, sizeof(v)) != sizeof(v))
			die("read");
		close(fd[i]);
	}
	bench_put_ns(OUT, t);
	return 0;
}

/* The workload's own time in mode, in ns. */
static double run(int mode, int kind, long n)
{
	char ns[24], *k = (char *)inh_kind_name[kind];
	char *const argv[INH_NMODES][16] = {
		[INH_NONE] = { SELF, "--work", k, ns, NULL },
		[INH_PRELOAD] = { SELF, "--work", k, ns, NULL },
		[INH_SHIM] = { SELF, "--work", k, ns, "perf", NULL },
		[INH_PERF] = { SELF, "--work", k, ns, "perf", NULL },
		[INH_PFMON] = { "/bin/pfmon", "-e", "task-clock,syscalls", "--",
				SELF, "--work", k, ns, NULL },
		[INH_PERF_STAT] = { "/usr/bin/perf", "stat", "-e",
				    "task-clock,raw_syscalls:sys_enter", "--",
				    SELF, "--work", k, ns, NULL },
	};
	char *const shim_env[] = { "LD_PRELOAD=" SHIM_LIB, "PFM_PERF_FALLBACK=0",
				   "INHERIT_SHIM=1", NULL };

	snprintf(ns, sizeof(ns), "%ld", n);
	return bench_run_timed(argv[mode], mode == INH_PRELOAD || mode == INH_SHIM ?
			       shim_env : NULL, OUT);
}

/* A comma-separated list of sizes into v (at most INH_MAXPTS): how many. */
static int parse_sizes(const char *s, long *v)
{
	int k = 0;
	char *end;

	while (*s && k < INH_MAXPTS) {
		v[k] = strtol(s, &end, 10);
		if (end == s || v[k] < 1) {
			fprintf(stderr, "inherit_bench: bad size list at '%s'\n", s);
			exit(2);
		}
		k++;
		s = *end == ',' ? end + 1 : end;
	}
	return k;
}

/* One point: every mode, interleaved round by round. */
static void measure(struct inh_point *p, int kind, int rounds)
{
	static const int base[INH_NMODES] = {
		[INH_SHIM] = INH_PRELOAD, [INH_PERF] = INH_NONE,
		[INH_PFMON] = INH_NONE, [INH_PERF_STAT] = INH_NONE,
	};
	double ns[INH_NMODES][INH_MAXROUNDS], cost[INH_NMODES][INH_MAXROUNDS];
	double ratio[INH_NCMP][INH_MAXROUNDS];
	int i, m, j;

	/* a short first run warms what the point's runs use */
	p->tasks = p->n * batches(kind, p->n);
	run(INH_NONE, kind, p->n < 10 ? p->n : 10);
	for (i = 0; i < rounds; i++) {
		for (j = 0; j < INH_NMODES; j++) {
			m = i & 1 ? INH_NMODES - 1 - j : j;
			ns[m][i] = run(m, kind, p->n);
		}
		for (m = INH_SHIM; m < INH_NMODES; m++)
			cost[m][i] = (ns[m][i] - ns[base[m]][i]) / p->tasks;
		ratio[INH_CMP_SHIM][i] = cost[INH_SHIM][i] / cost[INH_PERF][i];
		ratio[INH_CMP_PFMON][i] = cost[INH_PFMON][i] / cost[INH_PERF_STAT][i];
	}
	for (m = 0; m < INH_NMODES; m++) {
		p->ns[m] = stat3(ns[m], rounds);
		if (m >= INH_SHIM)
			p->cost[m] = stat3(cost[m], rounds);
	}
	for (j = 0; j < INH_NCMP; j++)
		p->ratio[j] = stat3(ratio[j], rounds);
}

static int clamp_rounds(int r)
{
	return r < 1 ? 1 : r > INH_MAXROUNDS ? INH_MAXROUNDS : r;
}

int main(int argc, char **argv)
{
	static struct inh_curve curve[INH_NKINDS];
	const char *children = getenv("INHERIT_CHILDREN") ?: "1,10,100,1000";
	const char *threads = getenv("INHERIT_THREADS") ?: "1,2,4,8,16,32,64";
	int rounds = atoi(getenv("INHERIT_ROUNDS") ?: "7");
	int big_rounds = atoi(getenv("INHERIT_BIG_ROUNDS") ?: "3");
	double t0;
	int k, i;

	if (argc >= 4 && !strcmp(argv[1], "--work"))
		return work(argv[2], atol(argv[3]), argc > 4);
	rounds = clamp_rounds(rounds);
	big_rounds = clamp_rounds(big_rounds);
	for (k = 0; k < INH_NKINDS; k++) {
		curve[k].npts = parse_sizes(k == INH_THREADS ? threads : children,
					    curve[k].n);
		for (i = 0; i < curve[k].npts; i++) {
			curve[k].pt[i].n = curve[k].n[i];
			t0 = bench_now_ns();
			curve[k].pt[i].rounds = curve[k].n[i] >= INH_BIG ? big_rounds : rounds;
			measure(&curve[k].pt[i], k, curve[k].pt[i].rounds);
			fprintf(stderr, "inherit_bench: %s %ld: %.2f s of guest time\n",
				inh_kind_name[k], curve[k].n[i], (bench_now_ns() - t0) / 1e9);
		}
	}
	inh_report(curve);
	return 0;
}
