// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: taking a preempt notifier off a thread from another thread.
 *
 * The scheduler walks a thread's notifier list without a lock, from the thread
 * itself: at its switch out (runqueue lock held, interrupts off) and at its switch
 * in (interrupts on, preemption off).  preempt_notifier_unregister() unlinks
 * without a lock too.  So the list is changed only where no walk can be under way:
 *
 *  - the thread is blocked: not on a runqueue, not on a CPU, not being woken.  It
 *    cannot be woken while we hold its pi_lock, which try_to_wake_up() takes
 *    first; once its last switch out is over (on_cpu clear) its list is quiet;
 *  - the thread is the one a cross-CPU call interrupted, with preemption on in
 *    the code interrupted: a walk runs with preemption off, and so does the
 *    registering of a notifier (KVM's, ours under a spinlock);
 *  - the thread's own walk, at a notifier that finds itself dead: it unlinks
 *    itself leaving its own next pointer as it was, so the walk goes on to the
 *    next one.  Its memory must outlive the walk (an RCU grace period: the walk
 *    has preemption off).
 *
 * A thread that runs is found by the call, or switches soon; one that sleeps is
 * taken off at once.  Nothing is left on the thread: no notifier, no task_work
 * item, nothing of the module for the thread to call later.
 */
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/smp.h>

#include "notifier_off.h"

/* pn off a blocked thread, under its pi_lock; false if the thread is not blocked. */
static bool pfm_notifier_off_blocked(struct pfm_notifier *n)
{
	struct task_struct *task = n->task;
	unsigned long flags;
	unsigned int state;
	bool blocked;

	raw_spin_lock_irqsave(&task->pi_lock, flags);
	state = READ_ONCE(task->__state);
	/* The state before on_rq, as try_to_wake_up() reads them. */
	smp_rmb();
	blocked = state != TASK_RUNNING && state != TASK_WAKING && !READ_ONCE(task->on_rq);
	if (blocked) {
#ifdef CONFIG_SMP
		/* Dequeued, maybe still switching out: its last walk ends first. */
		smp_cond_load_acquire(&task->on_cpu, !VAL);
#endif
		if (n->on) {
			preempt_notifier_unregister(&n->pn);
			WRITE_ONCE(n->on, false);
		}
	}
	raw_spin_unlock_irqrestore(&task->pi_lock, flags);
	return blocked;
}

/* Cross-CPU call: pn off the thread if it is the one interrupted, preemptible. */
static void pfm_notifier_off_here(void *info)
{
	struct pfm_notifier *n = info;

	if (current != n->task || !n->on)
		return;
#ifdef CONFIG_PREEMPT_COUNT
	/* Without the count, a walk under way cannot be told: only a switch does it. */
	if (preempt_count() & (PREEMPT_MASK | SOFTIRQ_MASK))
		return;
	preempt_notifier_unregister(&n->pn);
	WRITE_ONCE(n->on, false);
#endif
}

/*
 * Returns once n is off its thread, by whichever of the ways above comes first.
 * Sleeps between tries: a thread waiting for a CPU gets it.
 */
void pfm_notifier_take_off(struct pfm_notifier *n)
{
	while (smp_load_acquire(&n->on)) {
		if (pfm_notifier_off_blocked(n))
			return;
		smp_call_function_single(task_cpu(n->task), pfm_notifier_off_here, n, 1);
		if (!smp_load_acquire(&n->on))
			return;
		schedule_timeout_uninterruptible(1);
	}
}

/*
 * In n's thread, from its own switch in or out: n off, the walk going on past it.
 * The caller touches nothing n's owner may free after this.
 */
void pfm_notifier_unlink_self(struct pfm_notifier *n)
{
	__hlist_del(&n->pn.link);
	smp_store_release(&n->on, false);
}
