/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: keyed hits and the core's timers (hold.c).
 *
 * A keyed event's hit (a tracepoint's, a breakpoint's: layer.h) comes from
 * wherever its tracepoint or breakpoint is, with whatever locks are held there,
 * and takes the overflow path at once, in the thread that made it, so that a
 * sample has the hit's place and record.  Two things follow for the core's
 * hrtimers (the software PMU's carry timer, a set's switch timeout):
 *
 *  - while a hit is counted (held), they are neither started nor cancelled: the
 *    hit may come with this CPU's hrtimer base locked (timer:hrtimer_start fires
 *    inside enqueue_hrtimer()), which any hrtimer call takes.  Each timer's owner
 *    leaves the call to an irq_work, which runs once the caller's locks are let go;
 *  - while the core is inside one of its own hrtimer calls (busy), with the
 *    owner's ctx->lock held, a hit from the tracepoints that call fires cannot
 *    take the overflow path, which takes that lock: its carries wait for an
 *    irq_work too (pfm_sw_carry_held()).
 *
 * Both are per CPU, and change with interrupts off: an irq_work never runs inside.
 */
#ifndef _PERFMON_HOLD_H
#define _PERFMON_HOLD_H

#include <linux/percpu.h>

DECLARE_PER_CPU(unsigned int, pfm_timer_hold);
DECLARE_PER_CPU(bool, pfm_timer_busy);

static __always_inline void pfm_timers_hold(void)
{
	__this_cpu_inc(pfm_timer_hold);
}

static __always_inline void pfm_timers_unhold(void)
{
	__this_cpu_dec(pfm_timer_hold);
}

static __always_inline bool pfm_timers_held(void)
{
	return unlikely(__this_cpu_read(pfm_timer_hold));
}

static __always_inline bool pfm_timers_busy(void)
{
	return unlikely(__this_cpu_read(pfm_timer_busy));
}

/* One of the core's hrtimer calls (start, cancel, init, remaining time). */
#define pfm_timer_call(call)					\
	do {							\
		__this_cpu_write(pfm_timer_busy, true);		\
		call;						\
		__this_cpu_write(pfm_timer_busy, false);	\
	} while (0)

#endif /* _PERFMON_HOLD_H */
