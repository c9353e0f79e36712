// SPDX-License-Identifier: GPL-2.0
/*
 * csw_bench: the cost of a context switch while counting, perfmon against
 * perf_events, in the same guest boot, interleaved round by round.
 *
 * The workload (csw_ring.c): threads passing a token round a ring of futexes on
 * the guest's one CPU, every hand-off exactly one context switch from one
 * monitored thread to the next.  Each thread counts its own events: perfmon
 * with a context of its own loaded on itself and started, perf_events with its
 * own group (perf_event_open of pid 0).  The cost per switch is the time per
 * hand-off while counting less the time per hand-off with nothing counting, in
 * the same round; the ratio is perfmon's cost over perf's, in the same round.
 *
 * Three sweeps:
 *   threads  2, 16, 128 threads in the ring, 4 events each
 *   events   1, 4, 8, 16 events per thread (task-clock, context switches, page
 *            faults, CPU migrations in turn), CSW_THREADS threads (2)
 *   sets     1, 2, 4, 8 event sets of the 4 events per thread, perfmon's sets
 *            switched every CSW_TIMEOUT_US (100 us) of the thread's time (set 0
 *            too when alone: the timer is the same at every point); perf_events
 *            never multiplexes software events, so perf counts the same events
 *            all at once, in as many groups of 4 as perfmon has sets
 *
 * Every point: CSW_ROUNDS rounds (5) of one batch of CSW_HANDOFFS hand-offs
 * (4000) with nothing, perfmon and perf, in an order that alternates from round
 * to round; medians and quartiles over the rounds (stat3).  Under QEMU's
 * instruction counting (make bench) a ns is one instruction.
 *
 * Output: a table, the goals judged, then one line "BENCH-CSW-JSON: {...}".
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "csw_ring.h"

#define MAX_ROUNDS	31
#define MAX_POINTS	4
#define FLAT_LIMIT	1.10

enum sweep_var { VAR_THREADS, VAR_EVENTS, VAR_SETS, NSWEEPS };

struct sweep {
	const char *name;
	const char *unit;	/* what the variable counts */
	int npoints;
	int x[MAX_POINTS];
	/* what stands in the way of each goal, if not met */
	const char *note_ratio, *note_flat;
};

static const struct sweep sweeps[NSWEEPS] = {
	[VAR_THREADS] = { "threads", "monitored threads sharing the CPU", 3, { 2, 16, 128 },
			  NULL, NULL },
	[VAR_EVENTS] = { "events", "events per thread", 4, { 1, 4, 8, 16 }, NULL,
			 "every counter costs at every switch: its PMC compared at the bind, "
			 "the bank having last held the other thread's set (some 10 "
			 "instructions), a task clock stamped at switch-in and folded at "
			 "switch-out (some 27 more), a context-switch counter incremented at "
			 "switch-out (some 9 more); CSW_SWEEPS=events CSW_EVENT=i measures "
			 "one kind" },
	[VAR_SETS] = { "sets", "event sets switched by timeout (perf: groups)", 4,
		       { 1, 2, 4, 8 }, NULL, NULL },
};

struct point {
	struct csw_conf conf;
	struct stat3 ns[CSW_NTOOLS];	/* per hand-off */
	struct stat3 cost[CSW_NTOOLS];	/* per switch: less none's, same round */
	struct stat3 ratio;		/* perfmon's cost over perf's, same round */
	struct stat3 hratio;		/* perfmon's hand-off over perf's, same round */
	struct stat3 switches[CSW_NTOOLS], set_runs;
};

static struct {
	int rounds, threads, only;
	long handoffs;
	const char *sweeps;
	unsigned long long timeout_ns;
} opt;

static const char *const tool_name[CSW_NTOOLS] = { "none", "perfmon", "perf" };

static long env_long(const char *name, long def, long min, long max)
{
	const char *v = getenv(name);
	long n = v ? atol(v) : def;

	return n < min ? min : n > max ? max : n;
}

static struct csw_conf point_conf(enum sweep_var v, int x)
{
	struct csw_conf c = { opt.threads, 4, opt.only, 1, 0 };

	if (v == VAR_THREADS)
		c.threads = x;
	else if (v == VAR_EVENTS)
		c.events = x;
	else {
		c.sets = x;
		c.timeout_ns = opt.timeout_ns;
	}
	return c;
}

/* Whether CSW_SWEEPS (a list of sweeps' names; all if unset) names sweep v. */
static bool sweep_on(enum sweep_var v)
{
	const char *p = opt.sweeps;
	size_t n = strlen(sweeps[v].name);

	if (!p)
		return true;
	for (; (p = strstr(p, sweeps[v].name)); p += n)
		if ((p == opt.sweeps || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* Round r runs the tools forwards when r is even, backwards when odd. */
static enum csw_tool round_tool(int r, int k)
{
	return (r & 1) ? CSW_NTOOLS - 1 - k : k;
}

static void measure(struct point *p)
{
	double ns[CSW_NTOOLS][MAX_ROUNDS], cost[CSW_NTOOLS][MAX_ROUNDS];
	double sw[CSW_NTOOLS][MAX_ROUNDS], runs[MAX_ROUNDS];
	double ratio[MAX_ROUNDS], hratio[MAX_ROUNDS];
	struct csw_run run;
	int r, k, t;

	for (r = 0; r < opt.rounds; r++) {
		for (k = 0; k < CSW_NTOOLS; k++) {
			t = round_tool(r, k);
			csw_batch(&p->conf, t, opt.handoffs, &run);
			ns[t][r] = run.ns;
			sw[t][r] = run.switches;
			if (t == CSW_PERFMON)
				runs[r] = run.set_runs;
		}
		for (t = 0; t < CSW_NTOOLS; t++)
			cost[t][r] = ns[t][r] - ns[CSW_NONE][r];
		ratio[r] = cost[CSW_PERF][r] > 0 ? cost[CSW_PERFMON][r] / cost[CSW_PERF][r] : 0;
		hratio[r] = ns[CSW_PERFMON][r] / ns[CSW_PERF][r];
	}
	for (t = 0; t < CSW_NTOOLS; t++) {
		p->ns[t] = stat3(ns[t], opt.rounds);
		p->cost[t] = stat3(cost[t], opt.rounds);
		p->switches[t] = stat3(sw[t], opt.rounds);
	}
	p->set_runs = stat3(runs, opt.rounds);
	p->ratio = stat3(ratio, opt.rounds);
	p->hratio = stat3(hratio, opt.rounds);
}

static void print_header(const struct sweep *s)
{
	printf("\n%s sweep: x = %s\n", s->name, s->unit);
	printf("%4s %8s %8s %8s  %-20s %-20s %-20s %-11s %s\n", "x", "none", "perfmon",
	       "perf", "perfmon ns/switch", "perf ns/switch", "perfmon/perf",
	       "sw/hand-off", "set runs");
}

static void print_point(int x, const struct point *p)
{
	const struct stat3 *c = p->cost;

	printf("%4d %8.0f %8.0f %8.0f  %6.0f [%6.0f-%6.0f] %6.0f [%6.0f-%6.0f] "
	       "%5.3f [%5.3f-%5.3f] ", x, p->ns[CSW_NONE].med,
	       p->ns[CSW_PERFMON].med, p->ns[CSW_PERF].med, c[CSW_PERFMON].med,
	       c[CSW_PERFMON].p25, c[CSW_PERFMON].p75, c[CSW_PERF].med, c[CSW_PERF].p25,
	       c[CSW_PERF].p75, p->ratio.med, p->ratio.p25, p->ratio.p75);
	if (p->switches[CSW_PERF].med < 0)
		printf("%5s %5s", "-", "-");
	else
		printf("%5.3f %5.3f", p->switches[CSW_PERFMON].med, p->switches[CSW_PERF].med);
	printf(" %8.1f\n", p->set_runs.med);
	fflush(stdout);
}

/* A sweep's two goals: its worst ratio, and perfmon's and perf's growth. */
struct verdict {
	double worst_ratio;
	int worst_x;
	double flat[CSW_NTOOLS];	/* largest / smallest cost per switch */
};

static struct verdict judge(const struct sweep *s, const struct point *p)
{
	struct verdict v = { 0, 0, { 0, 0, 0 } };
	double lo, hi, c;
	int i, t;

	for (i = 0; i < s->npoints; i++)
		if (p[i].ratio.med > v.worst_ratio) {
			v.worst_ratio = p[i].ratio.med;
			v.worst_x = s->x[i];
		}
	for (t = CSW_PERFMON; t < CSW_NTOOLS; t++) {
		lo = hi = p[0].cost[t].med;
		for (i = 1; i < s->npoints; i++) {
			c = p[i].cost[t].med;
			lo = c < lo ? c : lo;
			hi = c > hi ? c : hi;
		}
		v.flat[t] = lo > 0 ? hi / lo : 0;
	}
	return v;
}

static const char *met(int ok)
{
	return ok ? "met" : "NOT MET";
}

static void print_goals(const struct point res[NSWEEPS][MAX_POINTS])
{
	int v;

	printf("\ngoals, medians (cost per switch: time per hand-off less none's):\n");
	for (v = 0; v < NSWEEPS; v++) {
		const struct sweep *s = &sweeps[v];
		struct verdict j = judge(s, res[v]);
		int ok = j.worst_ratio <= 1.0;

		if (!sweep_on(v))
			continue;
		printf("%s: every point perfmon/perf <= 1.0: worst %.3f (x = %d), %s\n",
		       s->name, j.worst_ratio, j.worst_x, met(ok));
		if (!ok && s->note_ratio)
			printf("   in the way: %s\n", s->note_ratio);
		ok = j.flat[CSW_PERFMON] <= FLAT_LIMIT;
		printf("%s: perfmon's cost per switch flat within 10%%: largest/smallest %.3f "
		       "(perf's %.3f), %s\n", s->name, j.flat[CSW_PERFMON], j.flat[CSW_PERF],
		       met(ok));
		if (!ok && s->note_flat)
			printf("   in the way: %s\n", s->note_flat);
	}
}

static void json_stat(const char *name, struct stat3 s, int digits, const char *sep)
{
	printf("\"%s\": [%.*f, %.*f, %.*f]%s", name, digits, s.p25, digits, s.med, digits,
	       s.p75, sep);
}

static void json_goal(const char *goal, double figure, double limit, const char *note,
		      int ok, const char *sep)
{
	printf("{\"goal\": \"%s\", \"figure\": %.4f, \"limit\": %g, \"cmp\": \"<=\"", goal,
	       figure, limit);
	if (!ok && note)
		printf(", \"note\": \"%s\"", note);
	printf("}%s", sep);
}

static void print_json(const struct point res[NSWEEPS][MAX_POINTS])
{
	const char *sep = "";
	char goal[200];
	int v, i, t;

	printf("\nBENCH-CSW-JSON: {\"unit\": \"ns per hand-off; a hand-off is one context "
	       "switch\", \"stat\": \"[p25, median, p75]\", \"rounds\": %d, \"handoffs\": %ld, "
	       "\"timeout_ns\": %llu, \"sets_compared_with\": \"perf_events: as many groups "
	       "of the same 4 events as perfmon has sets, all counting at once\", "
	       "\"sweeps\": {", opt.rounds, opt.handoffs, opt.timeout_ns);
	for (v = 0; v < NSWEEPS; v++) {
		if (!sweep_on(v))
			continue;
		printf("%s\"%s\": [", sep, sweeps[v].name);
		sep = ", ";
		for (i = 0; i < sweeps[v].npoints; i++) {
			const struct point *p = &res[v][i];

			printf("%s{\"x\": %d, \"threads\": %d, \"events\": %d, \"sets\": %d, ",
			       i ? ", " : "", sweeps[v].x[i], p->conf.threads, p->conf.events,
			       p->conf.sets);
			for (t = 0; t < CSW_NTOOLS; t++)
				json_stat(tool_name[t], p->ns[t], 0, ", ");
			json_stat("perfmon_per_switch", p->cost[CSW_PERFMON], 0, ", ");
			json_stat("perf_per_switch", p->cost[CSW_PERF], 0, ", ");
			if (p->switches[CSW_PERF].med >= 0) {
				json_stat("perfmon_switches_per_handoff",
					  p->switches[CSW_PERFMON], 3, ", ");
				json_stat("perf_switches_per_handoff", p->switches[CSW_PERF], 3,
					  ", ");
			}
			json_stat("perfmon_set_runs_per_thread", p->set_runs, 1, ", ");
			json_stat("handoff_perfmon_over_perf", p->hratio, 4, ", ");
			json_stat("perfmon_over_perf", p->ratio, 4, "}");
		}
		printf("]");
	}
	printf("}, \"goals\": [");
	sep = "";
	for (v = 0; v < NSWEEPS; v++) {
		const struct sweep *s = &sweeps[v];
		struct verdict j = judge(s, res[v]);

		if (!sweep_on(v))
			continue;
		printf("%s", sep);
		sep = ", ";
		snprintf(goal, sizeof(goal), "csw %s: every point perfmon/perf cost per switch "
			 "<= 1.0 (worst at %d)", s->name, j.worst_x);
		json_goal(goal, j.worst_ratio, 1.0, s->note_ratio, j.worst_ratio <= 1.0, ", ");
		snprintf(goal, sizeof(goal), "csw %s: perfmon's cost per switch flat within 10%% "
			 "(largest/smallest; perf's %.3f)", s->name, j.flat[CSW_PERF]);
		json_goal(goal, j.flat[CSW_PERFMON], FLAT_LIMIT, s->note_flat,
			  j.flat[CSW_PERFMON] <= FLAT_LIMIT, "");
	}
	printf("], \"ratios\": {");
	sep = "";
	for (v = 0; v < NSWEEPS; v++) {
		for (i = 0; sweep_on(v) && i < sweeps[v].npoints; i++) {
			printf("%s\"csw.%s.%d\": %.4f, \"csw.%s.%d.handoff\": %.4f", sep,
			       sweeps[v].name, sweeps[v].x[i], res[v][i].ratio.med,
			       sweeps[v].name, sweeps[v].x[i], res[v][i].hratio.med);
			sep = ", ";
		}
	}
	printf("}}\n");
}

/* One priority for all: a woken thread never preempts its waker (csw_ring.c). */
static void fifo_on_cpu0(void)
{
	struct sched_param sp = { .sched_priority = 10 };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		die("sched_setscheduler (SCHED_FIFO)");
}

int main(void)
{
	static struct point res[NSWEEPS][MAX_POINTS];
	struct csw_run warm;
	int v, i, t;

	opt.rounds = env_long("CSW_ROUNDS", 5, 1, MAX_ROUNDS);
	opt.handoffs = env_long("CSW_HANDOFFS", 4000, 100, 100000000);
	opt.threads = env_long("CSW_THREADS", 2, 2, 1024);
	opt.timeout_ns = env_long("CSW_TIMEOUT_US", 100, 10, 10000000) * 1000ULL;
	opt.only = env_long("CSW_EVENT", -1, -1, BENCH_NEV - 1);
	opt.sweeps = getenv("CSW_SWEEPS");
	fifo_on_cpu0();
	printf("csw_bench: %d rounds of %ld hand-offs, tools interleaved; medians "
	       "[25th-75th percentile]; ns per hand-off (under -icount shift=0 a ns is an "
	       "instruction); sw/hand-off: context switches the threads counted (perfmon, "
	       "perf; the setup's included; -: no counter of them); set runs: perfmon's set activations per "
	       "thread\n", opt.rounds, opt.handoffs);
	printf("sets: perfmon's sets switched every %llu us of thread time; perf counts "
	       "the same events in as many groups, all at once\n", opt.timeout_ns / 1000);
	for (t = 0; t < CSW_NTOOLS; t++) {
		struct csw_conf c = point_conf(VAR_THREADS, 2);

		csw_batch(&c, t, opt.handoffs, &warm);
	}
	for (v = 0; v < NSWEEPS; v++) {
		if (!sweep_on(v))
			continue;
		print_header(&sweeps[v]);
		for (i = 0; i < sweeps[v].npoints; i++) {
			res[v][i].conf = point_conf(v, sweeps[v].x[i]);
			measure(&res[v][i]);
			print_point(sweeps[v].x[i], &res[v][i]);
		}
	}
	print_goals(res);
	print_json(res);
	return 0;
}
