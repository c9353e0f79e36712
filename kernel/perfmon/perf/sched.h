/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: where a perf group counts (sched.c): the event set of its target's
 * context it is placed in, the multiplexing of sets when groups do not fit
 * together, and the sets' live durations the events' times come from.
 * target->ctx->mutex held.
 */
#ifndef _PERFMON_PERF_SCHED_H
#define _PERFMON_PERF_SCHED_H

#include <linux/types.h>

#include "counters.h"

struct pfm_op_clock;
struct pfm_perf_event;
struct pfm_perf_target;

/* The live durations of a target's sets, and their sum. */
struct pfm_perf_clock {
	u64 total;
	u64 set[PFM_PERF_MAX_SETS];
};

int pfm_perf_sched_place(struct pfm_perf_target *t, struct pfm_perf_event *ev,
			 struct pfm_perf_event *leader, const struct pfm_perf_enc *enc);
void pfm_perf_sched_leave(struct pfm_perf_event *ev);
int pfm_perf_sched_retry(struct pfm_perf_event *leader);
void pfm_perf_sched_orphan(struct pfm_perf_event *sib);
void pfm_perf_clock_op(struct pfm_perf_target *t, struct pfm_perf_clock *c,
		       struct pfm_op_clock *op);
void pfm_perf_clock_done(struct pfm_perf_target *t, struct pfm_perf_clock *c,
			 struct pfm_op_clock *op);

#endif /* _PERFMON_PERF_SCHED_H */
