// SPDX-License-Identifier: GPL-2.0
/*
 * ops_bench: the cost of each operation, perfmon against perf_events, in the
 * same guest run.
 *
 * Both count the same four software events of the calling thread (task-clock,
 * context switches, page faults, CPU migrations): perfmon with one context,
 * perf_events with one group of four.  For each operation the time per
 * operation is the median of REPEAT runs of ITERS operations, on CPU 0:
 *
 *   read      read the four counts: pfm_read_pmds() / read() of the group
 *   startstop pfm_start() + pfm_stop() / ENABLE + DISABLE ioctls on the group
 *   session   create, program, attach, close / four perf_event_open() + close()
 *   syscall   a getppid() while counting (and with nothing counting)
 *   ctxsw     a pipe round trip with a second process on the same CPU
 *   fault     a first touch of a fresh page
 *
 * Output: a table, then one line "BENCH-JSON: {...}" for the host to collect.
 * Under QEMU's TCG these are emulated times: the ratios are what to read.
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

#define NEV	4
#define REPEAT	5

enum tool { NONE, PERFMON, PERF, NTOOLS };

static const int pfm_ev[NEV] = {
	PFM_SW_EV_TASK_CLOCK, PFM_SW_EV_CTX_SWITCHES, PFM_SW_EV_PAGE_FAULTS,
	PFM_SW_EV_CPU_MIGRATIONS,
};

static const int perf_ev[NEV] = {
	PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_CPU_MIGRATIONS,
};

/* One tool's session on the calling thread. */
struct session {
	enum tool tool;
	int fd[NEV];		/* perfmon: fd[0]; perf: the group, leader first */
};

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int perf_open(int type_config, int group)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = type_config;
	a.disabled = group < 0;
	a.read_format = PERF_FORMAT_GROUP;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
	if (fd < 0)
		die("perf_event_open");
	return fd;
}

static void session_open(struct session *s, enum tool tool)
{
	struct pfarg_pmc pc[NEV];
	struct pfarg_pmd pd[NEV];
	int i;

	memset(s, 0, sizeof(*s));
	s->tool = tool;
	if (tool == PERFMON) {
		s->fd[0] = pfm_create_context(0);
		if (s->fd[0] < 0)
			die("pfm_create_context");
		memset(pc, 0, sizeof(pc));
		memset(pd, 0, sizeof(pd));
		for (i = 0; i < NEV; i++) {
			pc[i].reg_num = PFM_SW_FIRST_PMC + i;
			pc[i].reg_value = PFM_SW_PMC(pfm_ev[i]) | PFM_SW_PMC_OS;
			pd[i].reg_num = PFM_SW_FIRST_PMD + i;
		}
		if (pfm_write_pmcs(s->fd[0], pc, sizeof(pc)) ||
		    pfm_write_pmds(s->fd[0], pd, sizeof(pd)) ||
		    pfm_load_context(s->fd[0], 0, gettid()))
			die("perfmon setup");
	} else if (tool == PERF) {
		s->fd[0] = perf_open(perf_ev[0], -1);
		for (i = 1; i < NEV; i++)
			s->fd[i] = perf_open(perf_ev[i], s->fd[0]);
	}
}

static void session_close(struct session *s)
{
	int i;

	if (s->tool == PERFMON)
		close(s->fd[0]);
	else if (s->tool == PERF)
		for (i = NEV - 1; i >= 0; i--)
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
	struct pfarg_pmd pd[NEV];
	uint64_t buf[1 + NEV];
	int i;

	if (s->tool == PERFMON) {
		memset(pd, 0, sizeof(pd));
		for (i = 0; i < NEV; i++)
			pd[i].reg_num = PFM_SW_FIRST_PMD + i;
		if (pfm_read_pmds(s->fd[0], pd, sizeof(pd)))
			die("pfm_read_pmds");
		for (i = 0; i < NEV; i++)
			v[i] = pd[i].reg_value;
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
		session_open(&t, cur_tool);
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
	char c = 0;

	(void)s;
	while (n--) {
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			die("ping-pong");
	}
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
};

static const struct op ops[] = {
	{ "read", op_read, 20000, true, false },
	{ "startstop", op_startstop, 10000, true, false },
	{ "session", op_session, 2000, true, true },
	{ "syscall", op_syscall, 50000, false, false },
	{ "ctxsw", op_ctxsw, 5000, false, false },
	{ "fault", op_fault, 4000, false, false },
};
#define NOPS (sizeof(ops) / sizeof(ops[0]))

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Median over REPEAT runs of ns per operation. */
static double measure(const struct op *op, enum tool tool)
{
	uint64_t t[REPEAT], t0;
	struct session s;
	int r;

	cur_tool = tool;
	for (r = 0; r < REPEAT; r++) {
		session_open(&s, op->own_session ? NONE : tool);
		session_start(&s);
		t0 = now_ns();
		op->fn(&s, op->iters);
		t[r] = now_ns() - t0;
		session_stop(&s);
		session_close(&s);
	}
	qsort(t, REPEAT, sizeof(t[0]), cmp_u64);
	return (double)t[REPEAT / 2] / op->iters;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* The other end of the ping-pong, on the same CPU. */
static pid_t start_ponger(void)
{
	pid_t pid;
	char c;

	if (pipe(ping) || pipe(pong))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		/* only its own ends: the parent's close of ping is its end */
		close(ping[1]);
		close(pong[0]);
		while (read(ping[0], &c, 1) == 1)
			if (write(pong[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	return pid;
}

int main(void)
{
	double ns[NOPS][NTOOLS];
	unsigned int o, t;
	pid_t ponger;

	pin(0);
	ponger = start_ponger();
	printf("ops_bench: ns per operation, median of %d runs (TCG: emulated time)\n\n",
	       REPEAT);
	printf("%-10s %10s %10s %10s %14s\n", "operation", "none", "perfmon", "perf",
	       "perfmon/perf");
	for (o = 0; o < NOPS; o++) {
		for (t = 0; t < NTOOLS; t++)
			ns[o][t] = (t == NONE && ops[o].needs_tool) ? 0 :
				   measure(&ops[o], t);
		printf("%-10s %10.0f %10.0f %10.0f %14.2f\n", ops[o].name, ns[o][NONE],
		       ns[o][PERFMON], ns[o][PERF], ns[o][PERFMON] / ns[o][PERF]);
	}
	close(ping[1]);
	waitpid(ponger, NULL, 0);

	printf("\nBENCH-JSON: {\"unit\": \"ns/op\", \"ops\": {");
	for (o = 0; o < NOPS; o++)
		printf("%s\"%s\": {\"none\": %.0f, \"perfmon\": %.0f, \"perf\": %.0f, "
		       "\"perfmon_over_perf\": %.3f}", o ? ", " : "", ops[o].name,
		       ns[o][NONE], ns[o][PERFMON], ns[o][PERF],
		       ns[o][PERFMON] / ns[o][PERF]);
	printf("}}\n");
	return 0;
}
