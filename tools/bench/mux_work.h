/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Multiplexing accuracy on workloads of known counts (mux_work.c), shared by the
 * benchmark (mux_bench.c) and the guest suite (tests/guest/core/mux.c).
 *
 * Every set counts the same two software events, system calls and page faults, so
 * each set's estimate can be held against the exact totals, which an unmultiplexed
 * run of the same workload gives (one set, no switching).
 */
#ifndef PFM_MUX_WORK_H
#define PFM_MUX_WORK_H

#include <stdint.h>

enum mux_workload {
	/*
	 * 12 rounds of a system call phase (getppid) then a page fault phase (fresh
	 * pages), some 85 and 60 ms at 4 ns an instruction: several cycles of 8 sets.
	 */
	MUX_PHASED,
	/*
	 * A trend: 48 short rounds, round r making 5 (r + 1) system calls and
	 * (48 - r) / 4 page faults, some 20 ms in all at 4 ns an instruction: the
	 * call rate climbs while the fault rate falls.  Few runs per set, as in a
	 * short program, and each round shorter than a run, so that a run sees the
	 * trend, not the calls and faults alternating (rounds longer than a run
	 * alias with the runs, which no estimator undoes).
	 */
	MUX_RAMP,
};

#define MUX_EVENTS	2	/* system calls, page faults */

struct mux_exact {
	uint64_t count[MUX_EVENTS];
};

/* The estimates held against the exact counts. */
enum { MUX_LINEAR, MUX_INTERP, MUX_CHOSEN, MUX_METHODS };

/* One multiplexed run: every set's estimate of both events. */
struct mux_result {
	/* linear scaling, interpolation, and the one pfm_mux_choose() reports */
	double err_mean[MUX_METHODS];
	double err_worst[MUX_METHODS];	/* worst relative error over sets and events */
	unsigned int covered[MUX_METHODS];	/* estimates whose 95% bound holds */
	unsigned int estimates;		/* sets x events */
	uint64_t switches;		/* log records */
};

/*
 * One method's figures over the runs of a configuration: the mean error (averaged
 * over the sets and events of a run) as the average, sd, median and worst over the
 * runs; the worst event's error as the median and worst over the runs; the share
 * of the estimates whose 95% bound held the exact count.
 */
struct mux_figures {
	double mean_avg, mean_sd, mean_med, mean_max;
	double worst_med, worst_max;
	double cover;
};

void mux_summarise(const struct mux_result *res, int n, int method, struct mux_figures *f);

/*
 * The accuracy goals: the mean error averaged over the runs at most 2%, the worst
 * event of every run within 5%, the 95% bounds holding at least 95% of the time.
 */
#define MUX_GOAL_MEAN	0.02
#define MUX_GOAL_WORST	0.05
#define MUX_GOAL_COVER	0.95
int mux_goals_met(const struct mux_figures *f);

/* The exact counts: the workload under one set, no switching.  0 or -1. */
int mux_exact(enum mux_workload w, struct mux_exact *ex);

/*
 * The workload under nsets sets, each switched after timeout ns of live time less a
 * random part within mask (0: none), logged with the "mux" format.  0 or -1.
 */
int mux_measure(enum mux_workload w, int nsets, uint64_t timeout, uint64_t mask,
		const struct mux_exact *ex, struct mux_result *r);

/*
 * The random mask for a timeout: the largest 2^k - 1 not above 3/5 of it (runs of
 * 0.48 to 1 ms for 1 ms).  A narrower one leaves the rotation of the sets nearly
 * periodic, so that it keeps its place in the workload's rounds from one round to
 * the next and the errors where phases begin and end add up instead of averaging
 * out.
 */
uint64_t mux_mask_for(uint64_t timeout);

#endif /* PFM_MUX_WORK_H */
