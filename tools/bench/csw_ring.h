/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csw_bench's workload: threads passing a token round a ring, each hand-off one
 * context switch on the guest's one CPU, each thread counting its own events
 * with perfmon, with perf_events, or with nothing (csw_ring.c).
 */
#ifndef _PFM_CSW_RING_H
#define _PFM_CSW_RING_H

enum csw_tool { CSW_NONE, CSW_PERFMON, CSW_PERF, CSW_NTOOLS };

/* What each thread of the ring counts. */
struct csw_conf {
	int threads;
	/* per set (perfmon), per group (perf): bench_common.h's four in turn */
	int events;
	int only;		/* >= 0: every counter counts bench event only */
	/*
	 * perfmon: event sets of the same events switched every timeout_ns of the
	 * thread's time (none with timeout_ns 0: one set, no timer); perf: as many
	 * groups of the same events, all counting at once
	 */
	int sets;
	unsigned long long timeout_ns;
};

/* What one batch measured. */
struct csw_run {
	double ns;		/* per hand-off */
	/* context switches the threads counted, per hand-off; -1: none counts them */
	double switches;
	double set_runs;	/* perfmon: set activations, per thread */
};

/*
 * One batch: the ring's threads started, each with its own session of tool
 * (opened, loaded on itself and started before the clock starts), then
 * handoffs passes of the token timed.  Dies on any failure.
 */
void csw_batch(const struct csw_conf *c, enum csw_tool tool, long handoffs,
	       struct csw_run *out);

#endif /* _PFM_CSW_RING_H */
