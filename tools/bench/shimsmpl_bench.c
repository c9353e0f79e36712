// SPDX-License-Identifier: GPL-2.0
/*
 * shimsmpl_bench: the cost of a sample through perfmon's perf_event_open shim
 * against perf_events', as the number of sampling events on the thread grows.
 *
 * A point is n page-fault events of the calling thread, each sampling every
 * fault (sample_period 1, IP, TID and TIME) into a ring of its own
 * (ops_sample.c: opened through pfm_perf_event_open() or the kernel's
 * perf_event_open()), while the thread takes a batch of first touches of fresh
 * pages.  The cost per sample is the batch's time less the unmonitored batch's,
 * over faults x n samples.  Each round runs none, the shim and perf_events back
 * to back, in an order that alternates from round to round, and the ratio is
 * taken within the round; medians and quartiles over the rounds (stat3).
 * Under QEMU's instruction counting a ns is an instruction.
 *
 * Environment (from the kernel's command line): SHIMSMPL_ROUNDS (7),
 * SHIMSMPL_FAULTS (faults a batch, 2000), SHIMSMPL_MAXN (the largest n, 16).
 *
 * Output: a table, the goal lines, then "BENCH-SHIMSMPL-JSON: {...}".
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"
#include "ops_sample.h"

#define MAX_ROUNDS	31
#define MAX_EVENTS	16	/* the shim gives a thread's events 32 counters */
#define SHIM_GOAL	0.9	/* a sample through the shim against perf_events' */
#define FLAT_LIMIT	1.10	/* the largest point's cost within 10% of the smallest's */

enum tool { NONE, SHIM, PERF, NTOOLS };

static const char *const tool_name[NTOOLS] = { "none", "shim", "perf" };

static long env_long(const char *name, long def, long lo, long hi)
{
	const char *v = getenv(name);
	long x = v ? atol(v) : def;

	return x < lo ? lo : x > hi ? hi : x;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* One batch: nfaults first touches with n events of tool sampling; its ns. */
static double batch(enum tool tool, int n, long nfaults)
{
	struct sample_session s[MAX_EVENTS];
	long psz = sysconf(_SC_PAGESIZE), i;
	volatile char *p;
	uint64_t t0, t;
	int k;

	bench_hook_wait_off("fault");
	for (k = 0; tool != NONE && k < n; k++)
		sample_open(&s[k], tool == SHIM ? SMP_SHIM : SMP_PERF);
	p = mmap(NULL, nfaults * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
	madvise((void *)p, nfaults * psz, MADV_NOHUGEPAGE);
	t0 = now_ns();
	for (i = 0; i < nfaults; i++)
		p[i * psz] = 1;
	t = now_ns() - t0;
	munmap((void *)p, nfaults * psz);
	/* every ring holds a sample of every fault: nothing was throttled or lost */
	for (k = n - 1; tool != NONE && k >= 0; k--)
		sample_close(&s[k], nfaults);
	return (double)t;
}

struct point {
	int n;
	struct stat3 cost[NTOOLS];	/* ns per sample (none: ns per fault) */
	struct stat3 ratio;		/* shim / perf, within each round */
};

static void measure(struct point *pt, int rounds, long nfaults)
{
	double ns[NTOOLS][MAX_ROUNDS], cost[NTOOLS][MAX_ROUNDS], ratio[MAX_ROUNDS];
	int r, k, t;

	for (r = 0; r < rounds; r++) {
		for (k = 0; k < NTOOLS; k++) {
			t = (r & 1) ? NTOOLS - 1 - k : k;
			ns[t][r] = batch(t, pt->n, nfaults);
		}
		cost[NONE][r] = ns[NONE][r] / nfaults;
		for (t = SHIM; t < NTOOLS; t++)
			cost[t][r] = (ns[t][r] - ns[NONE][r]) / ((double)nfaults * pt->n);
		ratio[r] = cost[SHIM][r] / cost[PERF][r];
	}
	for (t = 0; t < NTOOLS; t++)
		pt->cost[t] = stat3(cost[t], rounds);
	pt->ratio = stat3(ratio, rounds);
}

struct goal {
	const char *goal;
	double figure, limit;
	const char *note;	/* what stands in the way, if not met */
};

static void json_stat(const char *name, struct stat3 s, int digits, const char *sep)
{
	printf("\"%s\": [%.*f, %.*f, %.*f]%s", name, digits, s.p25, digits, s.med, digits,
	       s.p75, sep);
}

static void print_json(const struct point *pts, int npts, int rounds, long nfaults,
		       const struct goal *g, int ng)
{
	int i, t;

	printf("BENCH-SHIMSMPL-JSON: {\"unit\": \"ns/sample\", \"rounds\": %d, \"faults\": %ld, "
	       "\"stat\": \"[p25, median, p75]\", \"points\": [", rounds, nfaults);
	for (i = 0; i < npts; i++) {
		printf("%s{\"n\": %d, ", i ? ", " : "", pts[i].n);
		for (t = 0; t < NTOOLS; t++)
			json_stat(t == NONE ? "none_per_fault" : tool_name[t], pts[i].cost[t], 1,
				  ", ");
		json_stat("shim_over_perf", pts[i].ratio, 4, "}");
	}
	printf("], \"goals\": [");
	for (i = 0; i < ng; i++)
		printf("%s{\"goal\": \"%s\", \"figure\": %.4f, \"limit\": %g, \"cmp\": \"<=\", "
		       "\"note\": \"%s\"}", i ? ", " : "", g[i].goal, g[i].figure, g[i].limit,
		       g[i].figure <= g[i].limit ? "" : g[i].note);
	printf("], \"ratios\": {");
	for (i = 0; i < npts; i++)
		printf("%s\"shimsmpl.n%d\": %.4f", i ? ", " : "", pts[i].n, pts[i].ratio.med);
	printf("}}\n");
}

int main(void)
{
	int rounds = env_long("SHIMSMPL_ROUNDS", 7, 1, MAX_ROUNDS);
	long nfaults = env_long("SHIMSMPL_FAULTS", 2000, 100, 3000);
	int maxn = env_long("SHIMSMPL_MAXN", MAX_EVENTS, 1, MAX_EVENTS);
	struct point pts[8];
	struct goal g[3];
	char flat[128];
	double worst = 0, shim_grow, perf_grow;
	int npts = 0, n, i;

	bench_pin(0);
	printf("shimsmpl_bench: a page-fault sample through the shim against perf_events', "
	       "n events sampling every fault;\n%d rounds of %ld faults, tools interleaved; "
	       "ns per sample (the fault's cost less the unmonitored fault's, over n),\n"
	       "medians [25th-75th percentile] (under -icount shift=0 a ns is an instruction)"
	       "\n\n", rounds, nfaults);
	printf("%3s %9s %22s %22s  %-22s\n", "n", "none/flt", "shim", "perf", "shim/perf");
	for (n = 1; n <= maxn; n *= 2) {
		struct point *pt = &pts[npts++];

		pt->n = n;
		measure(pt, rounds, nfaults);
		printf("%3d %9.0f %8.1f [%5.0f-%5.0f] %8.1f [%5.0f-%5.0f]  %5.3f [%5.3f-%5.3f]\n", n,
		       pt->cost[NONE].med, pt->cost[SHIM].med, pt->cost[SHIM].p25,
		       pt->cost[SHIM].p75, pt->cost[PERF].med, pt->cost[PERF].p25,
		       pt->cost[PERF].p75, pt->ratio.med, pt->ratio.p25, pt->ratio.p75);
		fflush(stdout);
	}
	for (i = 0; i < npts; i++)
		if (pts[i].ratio.med > worst)
			worst = pts[i].ratio.med;
	shim_grow = pts[npts - 1].cost[SHIM].med / pts[0].cost[SHIM].med;
	perf_grow = pts[npts - 1].cost[PERF].med / pts[0].cost[PERF].med;
	g[0] = (struct goal){ "a sample through the shim against perf_events' (1 event, shimsmpl)",
			      pts[0].ratio.med, SHIM_GOAL,
			      "the sample path: make prof-read PROF_MODE=smp-shim and smp-perf" };
	g[1] = (struct goal){ "every point of the shim's sample curve against perf_events', "
			      "the worst (shimsmpl)", worst, 1.0,
			      "the point's overflow path: make prof-read PROF_MODE=smp-shim" };
	snprintf(flat, sizeof(flat), "the shim's cost per sample flat from 1 to %d events: "
		 "at %d over at 1 (shimsmpl)", pts[npts - 1].n, pts[npts - 1].n);
	g[2] = (struct goal){ flat, shim_grow, FLAT_LIMIT,
			      "a per-event cost on each fault (the core's overflow loop, one "
			      "record per event)" };
	printf("\ngoals, medians:\n");
	for (i = 0; i < 3; i++) {
		printf("%d. %s: %.3f (goal <= %g), %s\n", i + 1, g[i].goal, g[i].figure,
		       g[i].limit, g[i].figure <= g[i].limit ? "met" : "NOT MET");
		if (g[i].figure > g[i].limit)
			printf("   in the way: %s\n", g[i].note);
	}
	printf("   (perf_events' cost per sample at %d events over at 1: %.3f)\n\n",
	       pts[npts - 1].n, perf_grow);
	print_json(pts, npts, rounds, nfaults, g, 3);
	return 0;
}
