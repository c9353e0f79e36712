/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the time of a context switch of a monitored thread, for its hook's
 * preempt notifier (thread.c).
 */
#ifndef _PERFMON_SCHED_STAMPS_H
#define _PERFMON_SCHED_STAMPS_H

#include <linux/sched.h>
#include <linux/sched/rt.h>

#include "layer.h"		/* pfm_clock_ns() */

/*
 * The time of a context switch as the scheduler stamped it.  Where neither IRQ nor
 * steal time is taken out of the runqueue's task clock, se.exec_start is
 * local_clock() on this CPU (the clock of pfm_clock_ns()) as the scheduler last
 * charged the thread's runtime: when it put the thread away at a switch out, when
 * it picked it at a switch in.  A monitored thread's live time is then its runtime
 * as the scheduler counts it (CLOCK_THREAD_CPUTIME_ID), and a switch pays for no
 * reading of the clock (two a round trip, a fifth of what monitoring added to a
 * pipe ping-pong).  Otherwise the clock is read.
 *
 * The switch-in hook runs with interrupts on, after the runqueue's lock is
 * dropped: a tick or a wakeup in between charges the runtime again and moves
 * exec_start on.  A fair-class thread's runtime at its pick is kept in
 * prev_sum_exec_runtime, so its pick's stamp is found again; the other classes do
 * not keep it, and their stamp may be that late by what was charged.
 */
#if defined(CONFIG_IRQ_TIME_ACCOUNTING) || defined(CONFIG_PARAVIRT_TIME_ACCOUNTING)
#define PFM_SCHED_STAMPS	0
#else
#define PFM_SCHED_STAMPS	1
#endif

static __always_inline u64 pfm_switch_out_ns(void)
{
#if !PFM_SCHED_STAMPS
	return pfm_clock_ns();
#else
	/* the runqueue's lock is held: nothing charges the thread under us */
	return current->se.exec_start;
#endif
}

/* With interrupts off; another CPU may still charge the thread, see above. */
static __always_inline u64 pfm_switch_in_ns(void)
{
#if !PFM_SCHED_STAMPS
	return pfm_clock_ns();
#else
	const struct sched_entity *se = &current->se;
	u64 start = READ_ONCE(se->exec_start);

	if (rt_task(current))
		return start;
	return start - (READ_ONCE(se->sum_exec_runtime) - se->prev_sum_exec_runtime);
#endif
}

#endif /* _PERFMON_SCHED_STAMPS_H */
