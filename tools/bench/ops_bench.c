// SPDX-License-Identifier: GPL-2.0
/*
 * ops_bench: the cost of each operation, perfmon against perf_events, in the
 * same guest run.
 *
 * Both count the same four software events of the calling thread (task-clock,
 * context switches, page faults, CPU migrations): perfmon with one context,
 * perf_events with one group of four.  The operations, on CPU 0:
 *
 *   read      read the four counts: pfm_read_pmds() of a vector made once (a read
 *             writes only its values) / read() of the group
 *   startstop pfm_start() + pfm_stop() / ENABLE + DISABLE ioctls on the group
 *   session   create, program, attach, close / four perf_event_open() + close()
 *   syscall   a getppid() while counting (and with nothing counting)
 *   sys-cnt   a getppid() while counting system calls: perfmon's SYSCALLS event
 *             alone / the raw_syscalls:sys_enter tracepoint alone, perf's way
 *             of counting them (perf stat -e raw_syscalls:sys_enter)
 *   ctxsw     a pipe round trip with a second process on the same CPU
 *   fault     a first touch of a fresh page
 *   sample    the same, each fault sampled into a mapped perf ring: through
 *             perfmon's perf_event_open (pfm_perf_event_open) / the kernel's
 *             (ops_sample.c); with it the cost per sample, the fault's cost
 *             less the unmonitored fault's, and its ratio within each round
 *   smpl-dfl  the same, perfmon's own sampling (the default format's buffer) /
 *             the kernel's perf ring
 *
 * and the read sweep: reading n = 1..8 counts of n event counters (context
 * switches, page faults, migrations in turn) with pfm_read_pmds(), from the
 * counts page without a system call (pfm_counts_read(), libperfmon's fastest
 * documented reader: the checks made once, by pfm_counts_prepare() before the
 * timed reads), and with read() of a perf group of n.
 *
 * Under QEMU's TCG the guest's time is emulated and moves with the host's load
 * between runs, and drifts within one.  So the tools are measured
 * interleaved: each round runs one batch of each tool back to back, in an order
 * that alternates from round to round, and the ratio is taken within the round;
 * the table gives the median over ROUNDS rounds of each ratio with its spread
 * (the 25th and 75th percentiles).  A drift or a busy host moves both sides of
 * a round alike and leaves the ratio.  make bench runs the guest under QEMU's
 * instruction counting (tools/bench/bench.mk), where a time is a count of
 * instructions and the rounds agree closely; the interleaving still serves
 * plain TCG runs.
 *
 * OPS_ONLY (the environment, from the kernel's command line): a comma-separated
 * list of operations to measure alone, without the goals, and without the read
 * sweep unless the list names "sweep" (OPS_ONLY=fault,sample,smpl-dfl: the
 * sampling rows in a few minutes; OPS_ONLY=read,sweep: every read).
 *
 * Output: tables, then one line "BENCH-JSON: {...}" for the host to collect.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfmon.h"
#include "bench_common.h"
#include "ops_sample.h"

#define NEV	BENCH_NEV
#define ROUNDS	15
#define MAXN	8		/* the read sweep's largest vector */

enum tool { NONE, PERFMON, PERF, NTOOLS };

/* One tool's session on the calling thread. */
/* what a session counts: the four events, or system calls alone */
enum counts { CNT_FOUR, CNT_SYSCALLS };

struct session {
	enum tool tool;
	int fd[NEV];		/* perfmon: fd[0]; perf: the group, leader first */
	/*
	 * perfmon's read vector, made once as a program makes it: a read writes
	 * only the values into it, so the same requests serve every read
	 */
	struct pfarg_pmd pd[NEV];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The tracepoint perf counts system calls with, by its id in tracefs. */
static int perf_open_sys_enter(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct perf_event_attr a;
	char path[96];
	unsigned int k;
	long id = -1;
	FILE *f;
	int fd;

	for (k = 0; k < 2 && id < 0; k++) {
		snprintf(path, sizeof(path), "%s/events/raw_syscalls/sys_enter/id", dirs[k]);
		f = fopen(path, "r");
		if (f && fscanf(f, "%ld", &id) != 1)
			id = -1;
		if (f)
			fclose(f);
	}
	if (id < 0)
		die("raw_syscalls:sys_enter's id (is tracefs mounted?)");
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = id;
	a.disabled = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		die("perf_event_open of raw_syscalls:sys_enter");
	return fd;
}

static void session_open_syscalls(struct session *s)
{
	struct pfarg_pmc pc;
	struct pfarg_pmd pd;

	if (s->tool == PERF) {
		s->fd[0] = perf_open_sys_enter();
		return;
	}
	s->fd[0] = pfm_create_context(0);
	if (s->fd[0] < 0)
		die("pfm_create_context");
	memset(&pc, 0, sizeof(pc));
	memset(&pd, 0, sizeof(pd));
	pc.reg_num = PFM_SW_FIRST_PMC;
	pc.reg_value = PFM_SW_PMC(PFM_SW_EV_SYSCALLS);
	pd.reg_num = PFM_SW_FIRST_PMD;
	if (pfm_write_pmcs(s->fd[0], &pc, sizeof(pc)) || pfm_write_pmds(s->fd[0], &pd, sizeof(pd)) ||
	    pfm_load_context(s->fd[0], 0, gettid()))
		die("perfmon setup");
}

static void session_open(struct session *s, enum tool tool, enum counts counts)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->tool = tool;
	if (tool != NONE && counts == CNT_SYSCALLS) {
		session_open_syscalls(s);
		return;
	}
	if (tool == PERFMON) {
		s->fd[0] = bench_pfm_four();
		if (s->fd[0] < 0 || pfm_load_context(s->fd[0], 0, gettid()))
			die("perfmon setup");
		for (i = 0; i < NEV; i++)
			s->pd[i].reg_num = PFM_SW_FIRST_PMD + i;
	} else if (tool == PERF) {
		s->fd[0] = bench_perf_open(0, bench_perf_ev[0], -1, 0);
		for (i = 1; i < NEV; i++)
			s->fd[i] = bench_perf_open(0, bench_perf_ev[i], s->fd[0], 0);
	}
}

static void session_close(struct session *s)
{
	int i;

	for (i = NEV - 1; i >= 0; i--)
		if (s->fd[i] > 0)
			close(s->fd[i]);
}

static void session_start(struct session *s)
{
	if (s->tool == PERFMON && pfm_start(s->fd[0], 0))
		die("pfm_start");
	if (s->tool == PERF && ioctl(s->fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
		die("PERF_EVENT_IOC_ENABLE");
}

static void session_stop(struct session *s)
{
	if (s->tool == PERFMON && pfm_stop(s->fd[0], 0))
		die("pfm_stop");
	if (s->tool == PERF && ioctl(s->fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP))
		die("PERF_EVENT_IOC_DISABLE");
}

static void session_read(struct session *s, uint64_t *v)
{
	uint64_t buf[1 + NEV];
	int i;

	if (s->tool == PERFMON) {
		if (pfm_read_pmds(s->fd[0], s->pd, sizeof(s->pd)))
			die("pfm_read_pmds");
		for (i = 0; i < NEV; i++)
			v[i] = s->pd[i].reg_value;
	} else if (s->tool == PERF) {
		if (read(s->fd[0], buf, sizeof(buf)) != sizeof(buf))
			die("read of the perf group");
		memcpy(v, buf + 1, NEV * sizeof(*v));
	}
}

/* The operations: each runs n times within a started (or stopped) session. */
typedef void (*op_fn)(struct session *s, long n);

static void op_read(struct session *s, long n)
{
	uint64_t v[NEV];

	while (n--)
		session_read(s, v);
}

static void op_startstop(struct session *s, long n)
{
	session_stop(s);
	while (n--) {
		session_start(s);
		session_stop(s);
	}
	session_start(s);
}

/* The tool being measured: op_session opens its own (a thread has one context). */
static enum tool cur_tool;

static void op_session(struct session *s, long n)
{
	struct session t;

	(void)s;
	while (n--) {
		session_open(&t, cur_tool, CNT_FOUR);
		session_close(&t);
	}
}

static void op_syscall(struct session *s, long n)
{
	(void)s;
	while (n--)
		syscall(SYS_getppid);
}

static int ping[2], pong[2];

static void op_ctxsw(struct session *s, long n)
{
	(void)s;
	while (n--)
		if (bench_round_trip(ping, pong))
			die("ping-pong");
}

static void op_fault(struct session *s, long n)
{
	long psz = sysconf(_SC_PAGESIZE), i;
	char *p;

	(void)s;
	p = mmap(NULL, n * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
	madvise(p, n * psz, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++)
		((volatile char *)p)[i * psz] = 1;
	munmap(p, n * psz);
}

struct op {
	const char *name;
	op_fn fn;
	long iters;
	bool needs_tool;	/* meaningless with nothing counting */
	bool own_session;	/* runs without a session around it */
	enum counts counts;	/* what its session counts */
	/* under a sampling event (ops_sample.h), not the counts: perfmon's way */
	enum sampler pfm_sampler;
};

static const struct op ops[] = {
	{ "read", op_read, 5000, true, false, CNT_FOUR, SMP_NONE },
	{ "startstop", op_startstop, 3000, true, false, CNT_FOUR, SMP_NONE },
	{ "session", op_session, 200, true, true, CNT_FOUR, SMP_NONE },
	{ "syscall", op_syscall, 20000, false, false, CNT_FOUR, SMP_NONE },
	{ "sys-cnt", op_syscall, 20000, false, false, CNT_SYSCALLS, SMP_NONE },
	{ "ctxsw", op_ctxsw, 1500, false, false, CNT_FOUR, SMP_NONE },
	{ "fault", op_fault, 2000, false, false, CNT_FOUR, SMP_NONE },
	{ "sample", op_fault, 2000, false, true, CNT_FOUR, SMP_SHIM },
	{ "smpl-dfl", op_fault, 2000, false, true, CNT_FOUR, SMP_DFL },
};
#define NOPS (sizeof(ops) / sizeof(ops[0]))

/* One batch of op by tool: ns per operation. */
static double batch(const struct op *op, enum tool tool)
{
	struct sample_session smp;
	struct session s;
	uint64_t t0, t;

	if (op->fn == op_fault)
		bench_hook_wait_off("fault");
	if (op->pfm_sampler != SMP_NONE) {
		if (tool != NONE)
			sample_open(&smp, tool == PERFMON ? op->pfm_sampler : SMP_PERF);
		t0 = now_ns();
		op->fn(NULL, op->iters);
		t = now_ns() - t0;
		if (tool != NONE)
			sample_close(&smp, op->iters);
		return (double)t / op->iters;
	}
	cur_tool = tool;
	if (op->counts == CNT_SYSCALLS)
		bench_hook_wait_off("syscall");
	session_open(&s, op->own_session ? NONE : tool, op->counts);
	session_start(&s);
	t0 = now_ns();
	op->fn(&s, op->iters);
	t = now_ns() - t0;
	session_stop(&s);
	session_close(&s);
	return (double)t / op->iters;
}

/*
 * Round r runs the tools forwards when r is even, backwards when odd, so that
 * neither always goes first (after a cache-cold switch of op, say).
 */
static enum tool round_tool(int r, int k, int ntools)
{
	return (r & 1) ? ntools - 1 - k : k;
}

struct op_result {
	struct stat3 ns[NTOOLS];	/* ns per operation */
	struct stat3 ratio;		/* perfmon / perf, within each round */
	struct stat3 over[NTOOLS];	/* (tool - none) / none, within each round */
	/* sampling ops: tool - none, ns per sample, and perfmon's over perf's */
	struct stat3 cost[NTOOLS], cost_ratio;
};

static void measure_op(const struct op *op, struct op_result *res)
{
	double ns[NTOOLS][ROUNDS], ratio[ROUNDS], over[NTOOLS][ROUNDS];
	double cost[NTOOLS][ROUNDS], cost_ratio[ROUNDS];
	int r, k, t;

	for (r = 0; r < ROUNDS; r++) {
		for (k = 0; k < NTOOLS; k++) {
			t = round_tool(r, k, NTOOLS);
			ns[t][r] = (t == NONE && op->needs_tool) ? 0 : batch(op, t);
		}
		ratio[r] = ns[PERFMON][r] / ns[PERF][r];
		for (t = 0; t < NTOOLS; t++) {
			over[t][r] = ns[NONE][r] ? ns[t][r] / ns[NONE][r] - 1 : 0;
			cost[t][r] = ns[t][r] - ns[NONE][r];
		}
		cost_ratio[r] = cost[PERF][r] ? cost[PERFMON][r] / cost[PERF][r] : 0;
	}
	for (t = 0; t < NTOOLS; t++) {
		res->ns[t] = stat3(ns[t], ROUNDS);
		res->over[t] = stat3(over[t], ROUNDS);
		res->cost[t] = stat3(cost[t], ROUNDS);
	}
	res->ratio = stat3(ratio, ROUNDS);
	res->cost_ratio = stat3(cost_ratio, ROUNDS);
}

/* --- the read sweep ------------------------------------------------------ */

enum reader { RD_SYSCALL, RD_MAPPED, RD_PERF, NREADERS };

static const char *const reader_name[NREADERS] = { "pfm_read_pmds", "pfm_counts_read",
						   "perf_read" };

static const int sweep_pfm_ev[3] = {
	PFM_SW_EV_CTX_SWITCHES, PFM_SW_EV_PAGE_FAULTS, PFM_SW_EV_CPU_MIGRATIONS,
};

static const int sweep_perf_ev[3] = {
	PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_CPU_MIGRATIONS,
};

#define SWEEP_ITERS	5000

/* n counters counting, started: the reads of one batch, ns per read of n counts. */
static double sweep_batch(enum reader rd, int n)
{
	const struct pfm_counts_page *pg = NULL;
	struct pfm_counts_reader reader;
	struct pfarg_pmc pc[MAXN];
	struct pfarg_pmd pd[MAXN];
	unsigned int pmds[MAXN];
	uint64_t v[MAXN], buf[1 + MAXN], t0, t;
	int fd[MAXN], i;
	long k;

	if (rd == RD_PERF) {
		fd[0] = bench_perf_open(0, sweep_perf_ev[0], -1, 0);
		for (i = 1; i < n; i++)
			fd[i] = bench_perf_open(0, sweep_perf_ev[i % 3], fd[0], 0);
		if (ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
			die("PERF_EVENT_IOC_ENABLE");
	} else {
		fd[0] = pfm_create_context(0);
		if (fd[0] < 0)
			die("pfm_create_context");
		memset(pc, 0, sizeof(pc));
		memset(pd, 0, sizeof(pd));
		for (i = 0; i < n; i++) {
			pc[i].reg_num = PFM_SW_FIRST_PMC + i;
			pc[i].reg_value = PFM_SW_PMC(sweep_pfm_ev[i % 3]) | PFM_SW_PMC_OS;
			pd[i].reg_num = PFM_SW_FIRST_PMD + i;
			pmds[i] = PFM_SW_FIRST_PMD + i;
		}
		if (pfm_write_pmcs(fd[0], pc, n * sizeof(pc[0])) ||
		    pfm_write_pmds(fd[0], pd, n * sizeof(pd[0])) ||
		    pfm_load_context(fd[0], 0, gettid()) || pfm_start(fd[0], 0))
			die("perfmon setup");
		if (rd == RD_MAPPED) {
			pg = pfm_mmap_counts(fd[0]);
			if (!pg)
				die("pfm_mmap_counts");
			if (pfm_counts_prepare(pg, 0, pmds, n, &reader))
				die("pfm_counts_prepare");
		}
	}
	t0 = now_ns();
	for (k = 0; k < SWEEP_ITERS; k++) {
		if (rd == RD_SYSCALL && pfm_read_pmds(fd[0], pd, n * sizeof(pd[0])))
			die("pfm_read_pmds");
		if (rd == RD_MAPPED && pfm_counts_read(&reader, v))
			die("pfm_counts_read");
		if (rd == RD_PERF &&
		    read(fd[0], buf, (1 + n) * sizeof(buf[0])) != (ssize_t)((1 + n) * sizeof(buf[0])))
			die("read of the perf group");
	}
	t = now_ns() - t0;
	if (pg)
		pfm_munmap_counts(pg);
	for (i = (rd == RD_PERF ? n : 1) - 1; i >= 0; i--)
		close(fd[i]);
	return (double)t / SWEEP_ITERS;
}

struct sweep_result {
	struct stat3 ns[NREADERS];
	struct stat3 over_perf[NREADERS];	/* reader / perf_read, within each round */
};

static void measure_sweep(int n, struct sweep_result *res)
{
	double ns[NREADERS][ROUNDS], over[NREADERS][ROUNDS];
	int r, k, d;

	for (r = 0; r < ROUNDS; r++) {
		for (k = 0; k < NREADERS; k++) {
			d = round_tool(r, k, NREADERS);
			ns[d][r] = sweep_batch(d, n);
		}
		for (d = 0; d < NREADERS; d++)
			over[d][r] = ns[d][r] / ns[RD_PERF][r];
	}
	for (d = 0; d < NREADERS; d++) {
		res->ns[d] = stat3(ns[d], ROUNDS);
		res->over_perf[d] = stat3(over[d], ROUNDS);
	}
}

static const struct op_result *op_res(const struct op_result *res, const char *name)
{
	unsigned int o;

	for (o = 0; o < NOPS; o++)
		if (!strcmp(ops[o].name, name))
			return &res[o];
	abort();
}

/* Whether OPS_ONLY (a comma-separated list, or unset: all) names op. */
static bool op_wanted(const char *only, const char *op)
{
	size_t len = strlen(op);
	const char *p;

	if (!only)
		return true;
	for (p = only; *p; p += strcspn(p, ","), p += *p == ',')
		if (!strncmp(p, op, len) && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

static const char *verdict(bool met)
{
	return met ? "met" : "NOT MET";
}

/*
 * The cost goals against perf_events, on the medians measured above; a goal not met says what
 * stands in its way (memory, goal 5, is bench-mem's report).
 */
static void print_goals(const struct op_result *res, const struct sweep_result *sw)
{
	const struct op_result *ss = op_res(res, "startstop"), *cs = op_res(res, "ctxsw");
	const struct op_result *sc = op_res(res, "sys-cnt"), *rd = op_res(res, "read");
	double m8 = sw[8].over_perf[RD_MAPPED].med;
	double r4 = sw[4].over_perf[RD_SYSCALL].med, r8 = sw[8].over_perf[RD_SYSCALL].med;
	bool counts = r4 <= 0.5 && r8 <= 0.5, clock = rd->ratio.med <= 0.5;

	printf("\ngoals, medians:\n");
	printf("1. mapped read of 8 counts at least 20x cheaper than perf's group read(): "
	       "%.0fx, %s\n", 1 / m8, verdict(1 / m8 >= 20));
	printf("2. pfm_read_pmds of 4 and 8 counts at most half of perf's: %.3f and %.3f, %s;\n"
	       "   of the four with a task clock (the read row): %.3f, %s\n", r4, r8,
	       verdict(counts), rd->ratio.med, verdict(clock));
	if (!counts)
		printf("   in the way: the system call and the ioctl door (fd lookup, the LSM's\n"
		       "   file_ioctl hook) cost about what perf's read() door costs, some 800\n"
		       "   instructions with the library's (make prof-read PROF_MODE=pfm)\n");
	if (!clock)
		printf("   in the way: a task clock's read reads the clock and folds the time into\n"
		       "   the count, about 95 instructions to perf's 60 on top of a read of counts\n"
		       "   (make prof-read PROF_MODE=pfm-four and perf-four)\n");
	printf("3. pipe round trip while counting: +%.1f%% over none (under 3%%), perf +%.1f%%, "
	       "%s\n", 100 * cs->over[PERFMON].med, 100 * cs->over[PERF].med,
	       verdict(cs->over[PERFMON].med < 0.03 &&
		       cs->over[PERFMON].med <= cs->over[PERF].med));
	printf("4. start + stop at most 1/3 of perf's: %.3f, %s; a system call while counting "
	       "system calls against perf's: %.3f, %s\n", ss->ratio.med,
	       verdict(ss->ratio.med <= 1.0 / 3), sc->ratio.med, verdict(sc->ratio.med <= 1.0));
}

/* The read sweep, printed as it goes. */
static void run_sweep(struct sweep_result *sw)
{
	int n;

	printf("\nread sweep: ns per read of n counts, and its ratio to perf's group read(); "
	       "mapped: the counts page by pfm_counts_read()\n");
	printf("%2s %10s %10s %10s  %-22s %-22s\n", "n", "pfm_read", "mapped", "perf",
	       "pfm_read/perf", "mapped/perf");
	for (n = 1; n <= MAXN; n++) {
		measure_sweep(n, &sw[n]);
		printf("%2d %10.0f %10.0f %10.0f  %5.3f [%5.3f-%5.3f]  %6.4f [%6.4f-%6.4f]\n", n,
		       sw[n].ns[RD_SYSCALL].med, sw[n].ns[RD_MAPPED].med, sw[n].ns[RD_PERF].med,
		       sw[n].over_perf[RD_SYSCALL].med, sw[n].over_perf[RD_SYSCALL].p25,
		       sw[n].over_perf[RD_SYSCALL].p75, sw[n].over_perf[RD_MAPPED].med,
		       sw[n].over_perf[RD_MAPPED].p25, sw[n].over_perf[RD_MAPPED].p75);
	}
}

static void json_stat(const char *name, struct stat3 s, int digits, const char *sep)
{
	printf("\"%s\": [%.*f, %.*f, %.*f]%s", name, digits, s.p25, digits, s.med, digits,
	       s.p75, sep);
}

int main(void)
{
	static struct op_result res[NOPS];
	static struct sweep_result sw[MAXN + 1];
	static bool done[NOPS];
	const char *only = getenv("OPS_ONLY");
	bool sweep = op_wanted(only, "sweep");
	unsigned int o;
	pid_t ponger;
	int n, d;
	bool first;

	bench_pin(0);
	ponger = bench_start_ponger(ping, pong);
	printf("ops_bench: %d rounds, tools interleaved; medians [25th-75th percentile] "
	       "(under -icount shift=0 a ns is an instruction)\n\n", ROUNDS);
	printf("%-10s %9s %9s %9s  %-22s %-18s %-18s\n", "operation", "none ns", "perfmon",
	       "perf", "perfmon/perf", "perfmon over none", "perf over none");
	for (o = 0; o < NOPS; o++) {
		struct op_result *x = &res[o];

		if (!op_wanted(only, ops[o].name))
			continue;
		done[o] = true;
		measure_op(&ops[o], x);
		printf("%-10s %9.0f %9.0f %9.0f  %5.3f [%5.3f-%5.3f]     ", ops[o].name,
		       x->ns[NONE].med, x->ns[PERFMON].med, x->ns[PERF].med, x->ratio.med,
		       x->ratio.p25, x->ratio.p75);
		if (ops[o].needs_tool)
			printf("\n");
		else
			printf("%+6.1f%% [%+.1f,%+.1f]  %+6.1f%% [%+.1f,%+.1f]\n",
			       100 * x->over[PERFMON].med, 100 * x->over[PERFMON].p25,
			       100 * x->over[PERFMON].p75, 100 * x->over[PERF].med,
			       100 * x->over[PERF].p25, 100 * x->over[PERF].p75);
	}
	for (o = 0; o < NOPS; o++) {
		struct op_result *x = &res[o];

		if (ops[o].pfm_sampler == SMP_NONE || !done[o])
			continue;
		printf("\n%s: ns per sample (the fault's cost less the unmonitored fault's): "
		       "perfmon %.0f [%.0f-%.0f], perf %.0f [%.0f-%.0f], "
		       "perfmon/perf %5.3f [%5.3f-%5.3f]\n", ops[o].name,
		       x->cost[PERFMON].med, x->cost[PERFMON].p25, x->cost[PERFMON].p75,
		       x->cost[PERF].med, x->cost[PERF].p25, x->cost[PERF].p75,
		       x->cost_ratio.med, x->cost_ratio.p25, x->cost_ratio.p75);
	}
	close(ping[1]);
	waitpid(ponger, NULL, 0);

	if (sweep)
		run_sweep(sw);
	if (!only)
		print_goals(res, sw);

	/* each figure as [25th percentile, median, 75th percentile] */
	printf("\nBENCH-JSON: {\"unit\": \"ns/op\", \"rounds\": %d, \"stat\": "
	       "\"[p25, median, p75]\", \"ops\": {", ROUNDS);
	for (o = 0, first = true; o < NOPS; o++) {
		if (!done[o])
			continue;
		printf("%s\"%s\": {", first ? "" : ", ", ops[o].name);
		first = false;
		json_stat("none", res[o].ns[NONE], 0, ", ");
		json_stat("perfmon", res[o].ns[PERFMON], 0, ", ");
		json_stat("perf", res[o].ns[PERF], 0, ", ");
		json_stat("perfmon_over_none", res[o].over[PERFMON], 4, ", ");
		json_stat("perf_over_none", res[o].over[PERF], 4, ", ");
		if (ops[o].pfm_sampler != SMP_NONE) {
			json_stat("perfmon_per_sample", res[o].cost[PERFMON], 0, ", ");
			json_stat("perf_per_sample", res[o].cost[PERF], 0, ", ");
			json_stat("per_sample_perfmon_over_perf", res[o].cost_ratio, 4, ", ");
		}
		json_stat("perfmon_over_perf", res[o].ratio, 4, "}");
	}
	printf("}, \"read_sweep\": [");
	for (n = 1; n <= MAXN && sweep; n++) {
		printf("%s{\"n\": %d, ", n > 1 ? ", " : "", n);
		for (d = 0; d < NREADERS; d++) {
			char name[64];

			json_stat(reader_name[d], sw[n].ns[d], 0, ", ");
			snprintf(name, sizeof(name), "%s_over_perf", reader_name[d]);
			json_stat(name, sw[n].over_perf[d], 4, d < NREADERS - 1 ? ", " : "}");
		}
	}
	printf("]}\n");
	return 0;
}
