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

#include "layer.h"
#include "counters.h"

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

/* the sample fields after RAW (sample_tail.c) */
#define PFM_PERF_SAMPLE_TAIL	(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | \
				 PERF_SAMPLE_WEIGHT_TYPE | PERF_SAMPLE_DATA_SRC | \
				 PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | \
				 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | \
				 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | \
				 PERF_SAMPLE_AUX)
int pfm_perf_sample_bits_check(const struct perf_event_attr *attr);
int pfm_perf_regs_extended_check(const struct perf_event_attr *attr);
bool pfm_perf_every_event(const struct perf_event_attr *attr);
u64 pfm_perf_first_period(struct perf_event_attr *attr);
void pfm_perf_overrun(u64 *wrapped, struct pfm_pmd *p, u64 period);
void pfm_perf_adapt(struct pfm_perf_period *pp, u64 freq, u64 now, struct pfm_pmd *p);
bool __pfm_perf_throttle_at(struct pfm_perf_throttle *t, unsigned long tick, unsigned int max,
			    struct pfm_perf_period *pp, struct pfm_pmd *p, u32 *record);
void pfm_perf_period_backoff(struct pfm_perf_throttle *t, const struct pfm_perf_period *pp,
			     unsigned int max, u64 *wrapped, struct pfm_pmd *p);

/*
 * The helpers every sample runs are inline: each one's call, and the
 * pfm_overflow_where() they read, cost more than their work.
 *
 * Events 6.1 counts through perf_swevent_event(), one occurrence at a time:
 * software events, tracepoints' hits (perf_tp_event()) and breakpoints'
 * (perf_bp_event()).
 */
static inline bool pfm_perf_swevent(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE || attr->type == PERF_TYPE_TRACEPOINT ||
	       attr->type == PERF_TYPE_BREAKPOINT;
}

/*
 * The software clocks.  Only PERF_TYPE_SOFTWARE's: a hardware event's config 0
 * is cycles, which perf samples with an adaptive period under freq.
 */
static inline bool pfm_perf_is_clock(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE &&
	       (attr->config == PERF_COUNT_SW_CPU_CLOCK ||
		attr->config == PERF_COUNT_SW_TASK_CLOCK);
}

/*
 * Whether perf_event_max_sample_rate throttles the event's samples: 6.1 throttles
 * the hardware events and the clocks (their hrtimer), never a software, tracepoint
 * or breakpoint event's overflow at an occurrence (perf_swevent_overflow() passes
 * no throttle for it).  Inline: every sample asks.
 */
static inline bool pfm_perf_throttles(const struct perf_event_attr *attr)
{
	return !pfm_perf_swevent(attr) || pfm_perf_is_clock(attr);
}

/*
 * The period that ran out is done (freq: the event's sample_freq with attr.freq,
 * else 0): the next one is set for the core's reset, which takes it off the
 * PMD, and wrapped adds it back.
 */
static inline void pfm_perf_period_done_at(struct pfm_perf_period *pp, u64 freq, u64 now,
					   u64 *wrapped, struct pfm_pmd *p)
{
	if (unlikely(p->value >= pp->period))
		pfm_perf_overrun(wrapped, p, pp->period);
	if (freq)
		pfm_perf_adapt(pp, freq, now, p);
	*wrapped += pp->period;
}

/*
 * The common case of pfm_perf_throttle_at(): a sample within the tick's limit,
 * counted; false when the tick changed or the limit is reached.
 */
static inline bool pfm_perf_throttle_within(struct pfm_perf_throttle *t, unsigned long tick,
					    unsigned int max)
{
	if (likely(tick == t->tick && !t->on && t->count < max)) {
		t->count++;
		return true;
	}
	return false;
}

/*
 * perf_event_max_sample_rate, as max samples a tick (__pfm_perf_throttle_at()):
 * true when this overflow is not to be sampled, with the THROTTLE or UNTHROTTLE
 * record to write in *record (else 0).
 */
static inline bool pfm_perf_throttle_at(struct pfm_perf_throttle *t, unsigned long tick,
					unsigned int max, struct pfm_perf_period *pp,
					struct pfm_pmd *p, u32 *record)
{
	if (pfm_perf_throttle_within(t, tick, max)) {
		*record = 0;
		return false;
	}
	return __pfm_perf_throttle_at(t, tick, max, pp, p, record);
}

/*
 * A software event whose overflow the kernel took in kernel mode (a clock's
 * timer interrupting the kernel) is not sampled when the event excludes the
 * kernel, as 6.1's perf_exclude_event() drops it; its period is still counted.
 * A hardware counter that excludes the kernel counts no kernel event: an IP in
 * the kernel is its interrupt's skid, and the sample stays.  at: the overflow's
 * pfm_overflow_where().
 */
static inline bool pfm_perf_sample_excluded(const struct perf_event_attr *attr,
					    const struct pfm_ovfl_where *at)
{
	return pfm_perf_swevent(attr) && attr->exclude_kernel && at && at->kernel;
}

/* The sample's IP, and its misc level (PERF_RECORD_MISC_USER or _KERNEL). */
static inline u64 pfm_perf_sample_ip(const struct pfm_ovfl_where *at, bool counts_kernel,
				     u16 *misc)
{
	if (at && at->kernel && counts_kernel) {
		*misc = PERF_RECORD_MISC_KERNEL;
		return at->ip;
	}
	*misc = PERF_RECORD_MISC_USER;
	/* in user mode, the interrupt's IP is where the thread is */
	return at && !at->kernel ? at->ip : pfm_user_ip();
}

#endif /* _PERFMON_PERF_OVERFLOW_H */
