// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: what a sampling perf event's overflow computes besides its record
 * (overflow.h), the same for a software counter and a hardware one.
 *
 * The period.  The core resets the sampling PMD by its reset value, -period, at
 * each 64-bit overflow, and wrapped adds the period back, so that the PMD's
 * progress plus wrapped stays the count.  A hardware counter narrower than the
 * period (a period beyond the counter's width) overflows at its width on the
 * way, and the core's 64-bit emulation takes those interrupts without a sample:
 * the sample comes after period events, as perf's x86 driver programs at most
 * its max_period and samples only when the whole period is left behind.
 *
 * Where the sample was taken.  A PMU interrupt hands the core where it
 * interrupted the CPU (pfm_pmu_overflow_at()), the software unit the faulting
 * instruction or what its timer interrupted: that is the sample's IP, in
 * kernel mode only for an event that counts the kernel (exclude_kernel=0), as
 * perf's sample IP is the interrupt's or the fault's.  Otherwise (a count with
 * no instruction, such as a switch, an interrupt that skidded into the kernel
 * for a user-only event, a carry found by a read) the IP is where the thread is
 * in user mode.
 */
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/time64.h>

#include "layer.h"
#include "overflow.h"

#define PFM_PERF_SAMPLE_OK	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
				 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
				 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
				 PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | \
				 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | \
				 PFM_PERF_SAMPLE_TAIL)

/*
 * The sample bits a record here has; any other is EOPNOTSUPP, where perf
 * refuses what a PMU cannot do (BRANCH_STACK without LBRs is 6.1's x86
 * EOPNOTSUPP too).
 */
int pfm_perf_sample_bits_check(const struct perf_event_attr *attr)
{
	return attr->sample_type & ~PFM_PERF_SAMPLE_OK ? -EOPNOTSUPP : 0;
}

/* The XMM registers' bits (asm/perf_regs.h), which only PEBS records. */
#define PFM_PERF_REGS_EXTENDED	(~((1ULL << 32) - 1))

/*
 * perf_try_init_event(): registers no PMU here records, asked for in either
 * mask, sampled or not, are EOPNOTSUPP.
 */
int pfm_perf_regs_extended_check(const struct perf_event_attr *attr)
{
	return (attr->sample_regs_user | attr->sample_regs_intr) & PFM_PERF_REGS_EXTENDED ?
	       -EOPNOTSUPP : 0;
}

/*
 * A software event other than the clocks, a tracepoint or a breakpoint, with a fixed period
 * and PERIOD in its samples: 6.1's perf_swevent_event() samples every
 * occurrence, each with PERIOD 1, whatever sample_period says (the count is
 * unchanged).  Hardware events sample every period.
 */
bool pfm_perf_every_event(const struct perf_event_attr *attr)
{
	return pfm_perf_swevent(attr) && !attr->freq &&
	       (attr->sample_type & PERF_SAMPLE_PERIOD) && !pfm_perf_is_clock(attr);
}

/*
 * The first period: sample_period; with freq, for the clocks the fixed period
 * 1e9/freq ns (and attr.freq is cleared, as perf does: PERIOD says it), for other
 * events, hardware ones too, 1, adapted at each sample.  A counting event with a
 * counter of its own (gated: cgroup.c) gets 0, a PMD that never carries, whatever
 * freq and sample_type say: sample_freq 0 is no sampling, as in perf.
 */
u64 pfm_perf_first_period(struct perf_event_attr *attr)
{
	if (!attr->sample_period)	/* sample_freq shares the field */
		return 0;
	if (pfm_perf_every_event(attr))
		return 1;
	if (!attr->freq)
		return attr->sample_period;
	if (pfm_perf_is_clock(attr)) {
		/*
		 * Past 1 GHz (the rate knob allows it) the kernel's period is 0 ns;
		 * here it is 1, the finest there is: a period of 0 would never
		 * carry, and the skip of missed periods divides by it.
		 */
		attr->sample_period = max_t(u64, div64_u64(NSEC_PER_SEC, attr->sample_freq), 1);
		attr->freq = 0;
		return attr->sample_period;
	}
	return 1;
}

/*
 * A clock's carry is seen by a timer, late: if a whole period or more went by
 * past the carry, the core's reset (value - period) would leave the PMD
 * positive, never to carry again.  The periods missed are skipped, as perf's
 * clock events skip the timer's overruns: one sample, the next carry within a
 * period, and the count kept whole (the skipped periods join wrapped).  A
 * hardware counter's interrupt comes within its skid, never a period late.
 * Called with p->value at a period or more (pfm_perf_period_done_at()).
 */
void pfm_perf_overrun(u64 *wrapped, struct pfm_pmd *p, u64 period)
{
	u64 rem, skip;

	/* only a sampling event's PMD carries: a counting one's never does */
	if (WARN_ON_ONCE(!period))
		return;
	div64_u64_rem(p->value, period, &rem);
	skip = p->value - rem;
	p->value -= skip;
	*wrapped += skip;
}

/*
 * freq on an event that is not a clock: the period that would have given freq
 * samples a second over the last one, low-pass filtered (an eighth of the
 * difference at a time), as perf adapts it; gaps longer than two ticks (the
 * thread slept) teach nothing.  The core resets the PMD to the new period.
 */
void pfm_perf_adapt(struct pfm_perf_period *pp, u64 freq, u64 now, struct pfm_pmd *p)
{
	u64 delta = now - pp->stamp, period;
	s64 diff;

	pp->stamp = now;
	if (!delta || delta >= 2 * TICK_NSEC)
		return;
	period = div64_u64(pp->period * NSEC_PER_SEC, delta * freq);
	diff = ((s64)(period - pp->period) + 7) / 8;
	period = pp->period + diff;
	pp->period = period ? period : 1;
	p->short_reset = -pp->period;
	p->long_reset = -pp->period;
}

/*
 * perf_event_max_sample_rate, as max samples a tick: past it the event is
 * throttled (PERF_RECORD_THROTTLE in *record) and takes no sample until the
 * first overflow of a later tick (PERF_RECORD_UNTHROTTLE).  True when this
 * overflow is not to be sampled.  A throttled hardware counter ran a longer
 * period (pfm_perf_period_backoff()): its own period is back for the next one,
 * and freq learns nothing from the throttled stretch.  A sample within the
 * tick's limit is pfm_perf_throttle_at()'s alone, inline (overflow.h).
 */
bool __pfm_perf_throttle_at(struct pfm_perf_throttle *t, unsigned long tick, unsigned int max,
			    struct pfm_perf_period *pp, struct pfm_pmd *p, u32 *record)
{
	*record = 0;
	if (tick != t->tick) {
		t->tick = tick;
		t->count = 0;
		if (t->on) {
			t->on = false;
			*record = PERF_RECORD_UNTHROTTLE;
		}
		if (t->backoff) {
			t->backoff = 0;
			p->short_reset = -pp->period;
			p->long_reset = -pp->period;
			pp->stamp = 0;
		}
	}
	if (t->on)
		return true;
	if (++t->count <= max)
		return false;
	t->on = true;
	*record = PERF_RECORD_THROTTLE;
	return true;
}

/* Past this, a throttled counter's period stops growing. */
#define PFM_PERF_BACKOFF_MAX	(1ULL << 62)

/*
 * A throttled hardware counter must stop interrupting, not only stop
 * sampling: 6.1 stops the event until the next tick.  Here it keeps counting
 * on a long period instead, so the count stays whole and no timer is needed:
 * first max periods (a tick's worth at the rate that tripped the limit), then
 * twice as long at each overflow still in that tick.  A counter at any rate
 * interrupts a few dozen times a tick at most, and at a steady rate the first
 * overflow after the tick ends the throttle about a tick later.
 */
void pfm_perf_period_backoff(struct pfm_perf_throttle *t, const struct pfm_perf_period *pp,
			     unsigned int max, u64 *wrapped, struct pfm_pmd *p)
{
	u64 b = t->backoff;

	if (!b)
		b = pp->period < div64_u64(PFM_PERF_BACKOFF_MAX, max) ?
		    pp->period * max : PFM_PERF_BACKOFF_MAX;
	else if (b < PFM_PERF_BACKOFF_MAX / 2)
		b *= 2;
	else
		b = PFM_PERF_BACKOFF_MAX;
	t->backoff = b;
	p->short_reset = -b;
	p->long_reset = -b;
	*wrapped += b;
}
