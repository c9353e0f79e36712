/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the parts of a sampling perf event that need no event
 * (overflow.c): the sample bits it may ask for, its periods, and where a
 * sample was taken.
 * Pure functions of the counter, the PMD and the core's overflow state, so that
 * the simulator runs them on hardware counters (tests/sim), as sample.c runs
 * them in the kernel.  ctx->lock held, interrupts off.
 */
#ifndef _PERFMON_PERF_OVERFLOW_H
#define _PERFMON_PERF_OVERFLOW_H

#include <linux/perf_event.h>

#include "counters.h"

struct pfm_ovfl_where;
struct pfm_pmd;

/* A sampling event's period: the one counting now, and freq's last sample. */
struct pfm_perf_period {
	u64 period;
	u64 stamp;			/* freq: local_clock() of the last sample */
};

/*
 * perf_event_max_sample_rate's limit on one event, tick by tick
 * (pfm_perf_throttle_at()).
 */
struct pfm_perf_throttle {
	unsigned long tick;		/* the jiffy whose samples count counts */
	unsigned int count;
	bool on;			/* no samples until the next tick */
	u64 backoff;			/* a throttled hardware counter's period, or 0 */
};

int pfm_perf_sample_bits_check(const struct perf_event_attr *attr);
bool pfm_perf_every_event(const struct perf_event_attr *attr);
u64 pfm_perf_first_period(struct perf_event_attr *attr);
void pfm_perf_period_done_at(struct pfm_perf_period *pp, u64 freq, u64 now,
			     struct pfm_perf_counter *c, struct pfm_pmd *p);
bool pfm_perf_throttle_at(struct pfm_perf_throttle *t, unsigned long tick, unsigned int max,
			  struct pfm_perf_period *pp, struct pfm_pmd *p, u32 *record);
void pfm_perf_period_backoff(struct pfm_perf_throttle *t, const struct pfm_perf_period *pp,
			     unsigned int max, struct pfm_perf_counter *c, struct pfm_pmd *p);
bool pfm_perf_sample_excluded(const struct perf_event_attr *attr,
			      const struct pfm_ovfl_where *at);
u64 pfm_perf_sample_ip(const struct pfm_ovfl_where *at, bool counts_kernel, u16 *misc);

/*
 * Events 6.1 counts through perf_swevent_event(), one occurrence at a time:
 * software events, tracepoints' hits (perf_tp_event()) and breakpoints'
 * (perf_bp_event()).  Inline: every sample asks.
 */
static inline bool pfm_perf_swevent(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE || attr->type == PERF_TYPE_TRACEPOINT ||
	       attr->type == PERF_TYPE_BREAKPOINT;
}

#endif /* _PERFMON_PERF_OVERFLOW_H */
