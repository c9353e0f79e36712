/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon: multiplexed counts with an estimate and an error bound.
 *
 * A count made by an event set that was live only part of the time is an estimate
 * of the count over the whole time.  The kernel logs every set switch into a "mux"
 * sampling buffer (<perfmon/perfmon_mux_smpl.h>): for each run of a set, its span
 * in the context's live time and the counters at both ends.  From the runs of one
 * counter, k = 1..K in time order, over a total live time T:
 *
 *   d_k = t1_k - t0_k            the run's duration
 *   x_k = c1_k - c0_k            what it counted
 *   r_k = x_k / d_k              its rate, taken at the run's middle m_k
 *   C = sum x_k,  D = sum d_k    observed count and time
 *   gaps j = 0..K: before run 1 (length t0_1), between runs k and k+1
 *   (t0_{k+1} - t1_k), after run K (T - t1_K); g_j their lengths, T = D + sum g_j
 *
 * Linear scaling (what perf does):   E_lin = C * T / D
 * Time interpolation (after Mytkowicz et al., "Time interpolation: so many metrics,
 * so few registers", MICRO 2007): each gap's count is its length times a rate
 * taken from the runs on either side of it:
 *
 *   E_int = C + sum_j g_j * rhat_j,
 *   rhat_j = (x_k + x_{k+1}) / (d_k + d_{k+1})          (gap between runs k, k+1)
 *   rhat_0 = max(0, r_1 + (r_2 - r_1) * (mid_0 - m_1) / (m_2 - m_1))
 *   rhat_K likewise on the line through runs K-1 and K  (one run: E_int = E_lin)
 *
 * Between two runs the rate is their pooled rate: for runs of equal length it is the
 * line through their rates at the gap's middle, and weighting by duration keeps a
 * run that the machine stalled (long, at a low rate) from weighing as much as a
 * normal one, which would bias the estimate up.  Before the first and after the
 * last run the rate follows the line through the two nearest runs, so a trend at
 * the ends of the program is followed too.
 *
 * Error bound: the run-to-run variation of the rate, from successive differences
 * (von Neumann's estimator, which a phase change raises only where it happens),
 * weighted by w_k = min(d_k, d_{k+1}):
 *
 *   s^2 = sum_k w_k (r_{k+1} - r_k)^2 / (2 sum_k w_k)
 *
 * Each gap's true mean rate is taken to differ from rhat_j by that much, with no
 * averaging inside the gap (phases are longer than runs), and its events to add
 * Poisson noise (rate at least one event per observed time):
 *
 *   Var_int = s^2 * sum_j g_j^2 + sum_j g_j * max(rhat_j, 1 / D)
 *   bound_int = 1.96 * sqrt(Var_int)                      (95%)
 *
 * For linear scaling, the mean rate's standard error by batch means, which holds
 * when neighbouring runs are alike (phases) and when the machine stalls some runs
 * (a stall lengthens a run and lowers its rate): the K runs in time order are cut
 * into B = min(10, K / 2) batches of consecutive runs, b = 1..B, each with its
 * count C_b and time D_b, and
 *
 *   v = B / (B - 1) * sum_b (C_b - D_b * C / D)^2 / D^2
 *   Var_lin = (T - D)^2 * v + (T - D) * max(C / D, 1 / D)
 *   bound_lin = t_{B-1} * sqrt(Var_lin)      (t: Student's 97.5% quantile)
 *
 * (two or three runs: v = sum_k d_k (r_k - C/D)^2 / (D K), and 1.96).
 *
 * Interpolation assumes the rate changes smoothly from one run to the next, and
 * runs as long as the timeouts make them.  Where runs are stretched (the 90th
 * percentile of their durations above twice the median: a long system call
 * delays the switch, a virtual CPU is descheduled), the stretched runs are
 * those where the program did something else, and interpolation fills the other
 * sets' stretched runs with the wrong rate, a bias its bound does not see.  Its
 * bound is then widened to
 * max(bound_int, |E_int - E_lin| + bound_lin), which holds linear scaling's
 * interval.
 *
 * Work clock (pfm_mux_work_clock(), which pfm_mux_count() applies): a run is as
 * long as its timeout makes it unless the machine stopped the program while the
 * clock ran on (a virtual CPU descheduled by its host, a long stretch with
 * interrupts off); the timer then fires late, when the program resumes.  Of such
 * a run the log shows the length, not the work, which lies anywhere between none
 * and a whole timeout.  So every run of every set in the log, of length L_i, is
 * taken to have done the work
 *
 *   W_i = L_i                if L_i <= 1.5 * M_s
 *   W_i = M_s / 2            otherwise (a stall: the work's expected value)
 *
 * where M_s is the median length of the runs of its set s (a set with fewer than
 * 4 runs is taken as it is), and times are mapped onto the sum of the W_i before
 * them; both estimators then work on that clock.  Where the clock follows the
 * work (a CPU's own clock, QEMU with -icount), nothing changes but for stretches
 * with interrupts off.  The work of a stalled run is a guess: a host that stalls
 * the program finely and often leaves errors that no clock in the guest removes
 * (see the benchmark's figures, tools/bench/bench.mk).
 *
 * Which to report (pfm_mux_choose()): interpolation when it lies within
 * bound_lin of E_lin and its bound is the narrower (so never with stretched
 * runs), with bound_lin as its bound; linear scaling otherwise.  Interpolation
 * is the more accurate where the runs are regular, but its own bound takes the
 * gaps' errors as independent, which phases about as short as a cycle of sets
 * and a clock whose rate drifts break, where bound_lin, which takes no such
 * independence, still holds around the interpolated estimate.
 * With fewer than two runs there is no variation to see: the bound is the estimate
 * itself (100%).  A set that never ran has no estimate (EINVAL).
 *
 * Use (pfmon): create the context with the "mux" format, map its buffer, program
 * the sets with PFM_SETFL_TIME_SWITCH (and PFM_SETFL_RANDOM_TIMEOUT against
 * aliasing, with a mask of about half the timeout: a narrower mask lets the
 * rotation of the sets keep its place in a loop's rounds from one round to the
 * next, and alias again), start, run, stop, then for each counter
 * call pfm_mux_count() and pfm_mux_choose(), and print "est.value +- est.bound".
 * Functions return 0, or -1 with errno set.
 */
#ifndef _LIBPERFMON_MUX_H
#define _LIBPERFMON_MUX_H

#include <stdint.h>
#include <perfmon/perfmon_mux_smpl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One run of one counter: its live-time span in ns and the counter at both ends. */
struct pfm_mux_run {
	uint64_t t0, t1;
	uint64_t c0, c1;
};

struct pfm_mux_est {
	double value;		/* the estimated count over the whole live time */
	double bound;		/* half-width of its 95% interval */
	double observed;	/* counted while live: C */
	double live_frac;	/* D / T */
	unsigned int runs;	/* K */
};

/*
 * Both estimates (either pointer may be NULL) from n runs in time order within
 * [0, total_ns].  EINVAL: no run with a duration, runs out of order or overlapping,
 * a counter going backwards, a run past total_ns.
 */
int pfm_mux_estimate(const struct pfm_mux_run *runs, unsigned int n, uint64_t total_ns,
		     struct pfm_mux_est *lin, struct pfm_mux_est *interp);

/*
 * The runs of the idx-th value of set `set` (its PMDs in increasing register
 * order) from the log in buf (the mapped buffer), the run under way closed at
 * (end_ns, end_value).  *n runs are stored, at most max.  EINVAL: idx past the
 * set's values in a record, a bad header; ENOBUFS: the log lost records
 * (hdr_lost), or more than max runs.
 */
int pfm_mux_log_runs(const void *buf, uint16_t set, unsigned int idx, uint64_t end_ns,
		     uint64_t end_value, struct pfm_mux_run *runs, unsigned int max,
		     unsigned int *n);

/*
 * The runs of one counter (from pfm_mux_log_runs() on the same log and end_ns) and
 * the total live time end_ns, put on the log's work clock (above): every run of
 * every set in the log lasts at most twice the median run of its set, if the set
 * ran at least 4 times.  Runs stay in the log's order; *total_ns is the total work
 * time.  EINVAL: a bad header, a run past end_ns or ending before it begins, a
 * log whose times go backwards; ENOMEM.
 */
int pfm_mux_work_clock(const void *buf, uint64_t end_ns, struct pfm_mux_run *runs,
		       unsigned int n, uint64_t *total_ns);

/*
 * For a stopped context fd whose mux log is mapped at buf: both estimates of PMD
 * pmd of set `set`, the idx-th PMD the set uses.  The total live time is the sum of
 * the durations of the sets in the log (pfm_getinfo_evtsets()), the run under way
 * ends with pfm_read_pmds(); runs and total are taken on the work clock
 * (pfm_mux_work_clock()) when every set in the log switches on its timeout alone
 * (PFM_SETFL_TIME_SWITCH without PFM_SETFL_OVFL_SWITCH: runs that end at an
 * overflow threshold have no typical length).  Errors: those of the calls, of pfm_mux_log_runs()
 * and pfm_mux_estimate(); ENOMEM.
 */
int pfm_mux_count(int fd, const void *buf, uint16_t set, uint16_t pmd, unsigned int idx,
		  struct pfm_mux_est *lin, struct pfm_mux_est *interp);

/*
 * Of the two estimates of one counter (from pfm_mux_estimate() or pfm_mux_count()),
 * the one to report, as above: lin, or interp with lin's bound.
 */
const struct pfm_mux_est *pfm_mux_choose(const struct pfm_mux_est *lin,
					 struct pfm_mux_est *interp);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPERFMON_MUX_H */
