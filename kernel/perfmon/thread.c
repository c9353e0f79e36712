// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: attaching a context to a thread.
 *
 * An attachment puts a hook on the thread: a preempt notifier, which moves the
 * context's state on and off the PMU as the thread is switched in and out, and an
 * entry in the thread-to-hook map, which the exit hook looks up.  The scheduler walks
 * a thread's notifier list without a lock, so only the thread itself registers its
 * notifier: a thread attached from elsewhere hooks itself in a task_work item before
 * it next runs user code.
 *
 * A detach gives everything back before it returns, whatever the thread does: the
 * context, its charge, the module.  Monitoring stops at once and the hook is dead
 * (ctx->hook no longer names it); the detacher then takes the notifier off the
 * thread (notifier_off.c): at once under the thread's pi_lock if it is blocked
 * (asleep, stopped), by a cross-CPU call if it runs, or the thread's next switch
 * in or out, where a dead hook does nothing but unlink itself.  So no dead hook
 * stays on a thread and nothing of the module is left for a sleeping thread to
 * call.
 *
 * A hook lives while it is in the map, a detacher holds it or it has a task_work
 * item pending; it holds a reference on its context and on its thread.  Hook fields
 * other than refs, live, mapped, pending, queued and n.on are touched only by the
 * hooked thread.
 *
 * Attaching to a thread that is not running must not leave anything waiting for it
 * either (a module cannot cancel a task_work item), so no task_work item is queued
 * on a sleeping thread.  The hook is left pending in the map, and the item is queued
 * only when the thread runs: by a probe on the scheduler's switch, at the thread's
 * next switch-in, or at once by a cross-CPU call if the thread is on a CPU now.  A
 * detach that finds the hook still pending takes it out of the map and frees it at
 * once.  The probe is attached only while some attach is pending.
 *
 * PFM_FL_NOTIFY_BLOCK: a notifying overflow in the thread queues a task_work item
 * that holds it, on its way back to user mode, until the controller restarts, stops
 * or detaches (pfm_env_block(), pfm_env_unblock()).
 */
#include <linux/binfmts.h>
#include <linux/cred.h>
#include <linux/hashtable.h>
#include <linux/pid.h>
#include <linux/preempt.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>

#include "internal.h"
#include "access.h"
#include "ctx.h"
#include "env.h"
#include "msg.h"
#include "notifier_off.h"
#include "pmu_type.h"
#include "race.h"
#include "sched_stamps.h"
#include "state.h"
#include "sw_pmu.h"
#include "sw_hooks.h"
#include "switch.h"
#include "task_ops.h"
#include "thread.h"

struct pfm_hook {
	struct pfm_notifier n;		/* the notifier, its thread, on its list */
	struct pfm_context *ctx;
	struct hlist_node node;		/* in pfm_hooks while mapped */
	refcount_t refs;		/* the map entry, an attacher, a detacher, pending
					 * task_work items */
	bool live;			/* ctx is attached through this hook (map lock) */
	bool mapped;			/* (map lock) */
	bool pending;			/* hook_work not queued yet (map lock) */
	bool queued;			/* hook_work queued (map lock) */
	bool block_pending;		/* block_work queued */
	bool probe;			/* holds the attach probe (an attach from elsewhere) */
	bool release;			/* its detach gives back what the attachment
					 * held (pfm_unload_locked(); ctx->lock) */
	const struct cred *cred;	/* the controller's, at the first attach */
	struct callback_head hook_work;
	struct callback_head block_work;
	struct rcu_head rcu;		/* a switch's walk may still step past it */
};

static DEFINE_HASHTABLE(pfm_hooks, 8);
static DEFINE_RAW_SPINLOCK(pfm_hooks_lock);
static atomic_t pfm_nr_hooks = ATOMIC_INIT(0);
static atomic_t pfm_nr_pending = ATOMIC_INIT(0);

/* Hooks on threads: attached, pending, or dead and waiting for their thread. */
unsigned int pfm_thread_hooks(void)
{
	return atomic_read(&pfm_nr_hooks);
}

static void pfm_hook_put(struct pfm_hook *hook)
{
	if (!refcount_dec_and_test(&hook->refs))
		return;
	if (hook->cred)
		put_cred(hook->cred);
	put_task_struct(hook->n.task);
	pfm_context_put(hook->ctx);
	kfree_rcu(hook, rcu);
}

/* A thread has at most one context attached. */
static int pfm_hook_map(struct pfm_hook *hook)
{
	struct pfm_hook *h;
	unsigned long flags;
	int ret = 0;

	raw_spin_lock_irqsave(&pfm_hooks_lock, flags);
	/*
	 * Past PF_EXITING the exit hook may have looked for hooks already: under the
	 * lock, either it sees this one or we see the flag.
	 */
	if (hook->n.task->flags & PF_EXITING) {
		ret = -ESRCH;
		goto out;
	}
	hash_for_each_possible(pfm_hooks, h, node, (unsigned long)hook->n.task) {
		if (h->n.task == hook->n.task && h->live) {
			ret = -EEXIST;
			goto out;
		}
	}
	hash_add(pfm_hooks, &hook->node, (unsigned long)hook->n.task);
	hook->live = true;
	hook->mapped = true;
	atomic_inc(&pfm_nr_hooks);
out:
	raw_spin_unlock_irqrestore(&pfm_hooks_lock, flags);
	return ret;
}

static void pfm_hook_set_dead(struct pfm_hook *hook)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_hooks_lock, flags);
	hook->live = false;
	raw_spin_unlock_irqrestore(&pfm_hooks_lock, flags);
}

/* No longer pending, with pfm_hooks_lock held: true if it was. */
static bool pfm_hook_unpend_locked(struct pfm_hook *hook)
{
	if (!hook->pending)
		return false;
	hook->pending = false;
	atomic_dec(&pfm_nr_pending);
	return true;
}

/* Out of the map, with pfm_hooks_lock held: true if it was pending. */
static bool pfm_hook_unmap_locked(struct pfm_hook *hook)
{
	lockdep_assert_held(&pfm_hooks_lock);
	hash_del(&hook->node);
	atomic_dec(&pfm_nr_hooks);
	hook->mapped = false;
	return pfm_hook_unpend_locked(hook);
}

/* After pfm_hook_unmap_locked(), unlocked and not under rq locks: what it held. */
static void pfm_hook_unmapped(struct pfm_hook *hook, bool was_pending)
{
	if (was_pending)
		pfm_attach_probe_put();
	pfm_hook_put(hook);	/* the map's reference */
}

/* Out of the map if still in it: the thread and a detacher may both try. */
static void pfm_hook_unmap(struct pfm_hook *hook)
{
	bool mapped, was_pending = false;
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_hooks_lock, flags);
	mapped = hook->mapped;
	if (mapped)
		was_pending = pfm_hook_unmap_locked(hook);
	raw_spin_unlock_irqrestore(&pfm_hooks_lock, flags);
	if (mapped)
		pfm_hook_unmapped(hook, was_pending);
}

static void pfm_sched_in(struct preempt_notifier *pn, int cpu)
{
	struct pfm_hook *hook = container_of(pn, struct pfm_hook, n.pn);
	struct pfm_context *ctx = hook->ctx;
	bool migrated = false;

	/*
	 * finish_task_switch() calls this once it has dropped the runqueue lock
	 * with interrupts on: they need no saving.
	 */
	lockdep_assert_irqs_enabled();
	if (READ_ONCE(ctx->hook) != hook) {
		pfm_notifier_unlink_self(&hook->n);
		return;
	}
	raw_spin_lock_irq(&ctx->lock);
	if (ctx->hook == hook)
		migrated = pfm_sched_in_locked(ctx, cpu, pfm_switch_in_ns());
	raw_spin_unlock_irq(&ctx->lock);
	/* Counted once live, outside the lock (see pfm_sw_count()). */
	if (migrated)
		pfm_sw_count_thread(PFM_SW_EV_CPU_MIGRATIONS, 1);
}

/* Runs with the runqueue lock held and interrupts off. */
static void pfm_sched_out(struct preempt_notifier *pn, struct task_struct *next)
{
	struct pfm_hook *hook = container_of(pn, struct pfm_hook, n.pn);
	struct pfm_context *ctx = hook->ctx;

	/*
	 * Detached (a context once gone from a hook never comes back to it): the
	 * hook leaves the thread's list now, which its detacher waits for.
	 */
	if (READ_ONCE(ctx->hook) != hook) {
		pfm_notifier_unlink_self(&hook->n);
		return;
	}
	/* Counted while still live, outside the lock (see pfm_sw_count()). */
	pfm_sw_count_switch_out();
	raw_spin_lock(&ctx->lock);
	if (ctx->hook == hook)
		pfm_sched_out_locked(ctx, pfm_switch_out_ns());
	raw_spin_unlock(&ctx->lock);
}

static struct preempt_ops pfm_preempt_ops = {
	.sched_in = pfm_sched_in,
	.sched_out = pfm_sched_out,
};

/* In the hooked thread, with ctx->lock held. */
static void pfm_hook_on_locked(struct pfm_hook *hook)
{
	struct pfm_context *ctx = hook->ctx;

	preempt_notifier_init(&hook->n.pn, &pfm_preempt_ops);
	preempt_notifier_register(&hook->n.pn);
	WRITE_ONCE(hook->n.on, true);
	if (ctx->hook != hook || !pfm_pmu_type_serves(ctx, smp_processor_id()))
		return;
	ctx->on_cpu = smp_processor_id();
	ctx->last_cpu = ctx->on_cpu;
	if (ctx->started)
		pfm_live_in(ctx);
}

static void pfm_hook_work(struct callback_head *head)
{
	struct pfm_hook *hook = container_of(head, struct pfm_hook, hook_work);
	struct pfm_context *ctx = hook->ctx;
	unsigned long flags;
	bool was_pending;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	if (ctx->hook == hook && !hook->n.on && hook->mapped && !(current->flags & PF_EXITING))
		pfm_hook_on_locked(hook);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);

	raw_spin_lock_irqsave(&pfm_hooks_lock, flags);
	was_pending = pfm_hook_unpend_locked(hook);
	raw_spin_unlock_irqrestore(&pfm_hooks_lock, flags);
	if (was_pending)
		pfm_attach_probe_put();
	pfm_hook_put(hook);
}

/*
 * The thread of a pending hook runs: queue the item that hooks it in, which runs
 * before the thread next returns to user mode.  Called in that thread (a cross-CPU
 * call that found it on its CPU) or as it is switched in, with the runqueue lock
 * held: nothing here may wake a task up, and TWA_RESUME only flags it.
 */
static void pfm_hook_queue_locked(struct pfm_hook *hook)
{
	lockdep_assert_held(&pfm_hooks_lock);
	if (!hook->pending || hook->queued)
		return;
	refcount_inc(&hook->refs);
	init_task_work(&hook->hook_work, pfm_hook_work);
	if (task_work_add(hook->n.task, &hook->hook_work, TWA_RESUME)) {
		/* Exiting: the exit hook detaches it. */
		refcount_dec(&hook->refs);	/* the map's reference remains */
		return;
	}
	hook->queued = true;
}

/* The scheduler switches to next (attach probe, sw_hooks.c). */
void pfm_attach_switch(struct task_struct *next)
{
	struct pfm_hook *hook;

	if (!atomic_read(&pfm_nr_pending))
		return;
	raw_spin_lock(&pfm_hooks_lock);
	hash_for_each_possible(pfm_hooks, hook, node, (unsigned long)next)
		if (hook->n.task == next)
			pfm_hook_queue_locked(hook);
	raw_spin_unlock(&pfm_hooks_lock);
}

static void pfm_attach_nudge(void *info)
{
	struct pfm_hook *hook = info;

	if (current != hook->n.task)
		return;
	raw_spin_lock(&pfm_hooks_lock);
	pfm_hook_queue_locked(hook);
	raw_spin_unlock(&pfm_hooks_lock);
}

/*
 * Makes hook pending and gets it queued as soon as its thread runs.  The probe is
 * on before the hook is pending, so a switch-in after this is seen; a thread
 * already on a CPU is found there by the cross-CPU call.
 */
static void pfm_hook_pend(struct pfm_hook *hook)
{
	unsigned long flags;
	bool mapped;

	raw_spin_lock_irqsave(&pfm_hooks_lock, flags);
	mapped = hook->mapped;
	if (mapped) {
		hook->pending = true;
		atomic_inc(&pfm_nr_pending);
	}
	raw_spin_unlock_irqrestore(&pfm_hooks_lock, flags);
	if (!mapped) {
		/* The thread's exit took it off already: nothing left to wait for. */
		pfm_attach_probe_put();
		return;
	}
	/* Pending before we look where the thread is (pairs with the switch's barrier). */
	smp_mb();
	smp_call_function_single(task_cpu(hook->n.task), pfm_attach_nudge, hook, 1);
}

/*
 * A detached hook whose thread has not run since the attach: out of the map and
 * freed now, with nothing left on the thread.  False if its item is queued already.
 */
static bool pfm_hook_drop_pending(struct pfm_hook *hook)
{
	unsigned long flags;
	bool dropped;

	raw_spin_lock_irqsave(&pfm_hooks_lock, flags);
	dropped = hook->pending && !hook->queued;
	if (dropped)
		pfm_hook_unmap_locked(hook);
	raw_spin_unlock_irqrestore(&pfm_hooks_lock, flags);
	if (dropped)
		pfm_hook_unmapped(hook, true);
	return dropped;
}

/*
 * Detaches the context from hook's thread if it is still attached through hook, with
 * ctx->lock held where the state lives.  True if it was.
 */
static bool pfm_hook_detach_locked(struct pfm_hook *hook)
{
	struct pfm_context *ctx = hook->ctx;

	if (ctx->hook != hook)
		return false;
	hook->release = pfm_unload_locked(ctx);
	ctx->hook = NULL;
	ctx->task = NULL;
	ctx->on_cpu = -1;
	return true;
}

/*
 * In the hooked thread: detach if still attached (the thread exits, or detaches
 * itself), take the notifier off and leave the map.  Atomic context allowed.
 */
static bool pfm_hook_off(struct pfm_hook *hook)
{
	struct pfm_context *ctx = hook->ctx;
	unsigned long flags;
	bool was_live;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	was_live = pfm_hook_detach_locked(hook);
	if (hook->n.on) {
		preempt_notifier_unregister(&hook->n.pn);
		WRITE_ONCE(hook->n.on, false);
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);

	if (was_live) {
		pfm_hook_set_dead(hook);
		if (hook->release)
			pfm_detach_release(ctx);
	}
	pfm_hook_unmap(hook);
	return was_live;
}

struct task_struct *pfm_find_task(pid_t tid)
{
	struct task_struct *task;
	struct pid *pid;

	if (tid == task_pid_vnr(current)) {
		get_task_struct(current);
		return current;
	}
	if (tid <= 0)
		return ERR_PTR(-ESRCH);
	pid = find_get_pid(tid);
	task = get_pid_task(pid, PIDTYPE_PID);
	put_pid(pid);
	return task ?: ERR_PTR(-ESRCH);
}

/*
 * Maps hook unless an exec made its thread unreadable since the caller's check.
 * Again (a reattach, whoever the caller): the controller's credentials of the
 * first attach are checked, as the exec probe checks them, since an exec may
 * have come while the context was off the thread; and the lock is waited for
 * whatever signal the caller has, which must not end the attachment.
 */
static int pfm_hook_map_checked(struct pfm_hook *hook, bool again)
{
	struct task_struct *task = hook->n.task;
	int ret = 0;

	/*
	 * exec() changes credentials under exec_update_lock and runs the exec hook
	 * after: with it held, an exec either comes first and is checked here, or
	 * comes after and finds the hook.
	 */
	if (again)
		down_read(&task->signal->exec_update_lock);
	else
		ret = down_read_killable(&task->signal->exec_update_lock);
	if (ret)
		return ret;
	if ((again || task != current) && !pfm_access_cred_may_read(hook->cred, task))
		ret = -EACCES;
	else
		ret = pfm_hook_map(hook);
	up_read(&task->signal->exec_update_lock);
	return ret;
}

/* A hook of ctx for task, not mapped yet; it takes over the reference on cred. */
static struct pfm_hook *pfm_hook_alloc(struct pfm_context *ctx, struct task_struct *task,
				       const struct cred *cred)
{
	struct pfm_hook *hook;
	int ret;

	hook = kzalloc(sizeof(*hook), GFP_KERNEL);
	if (!hook) {
		put_cred(cred);
		return ERR_PTR(-ENOMEM);
	}
	hook->n.task = task;
	hook->ctx = ctx;
	hook->cred = cred;
	refcount_set(&hook->refs, 1);
	if (task != current) {
		ret = pfm_attach_probe_get();
		if (ret) {
			put_cred(cred);
			kfree(hook);
			return ERR_PTR(ret);
		}
		hook->probe = true;
	}
	return hook;
}

/* A hook that was never mapped, given up. */
static void pfm_hook_free_unmapped(struct pfm_hook *hook)
{
	if (hook->probe)
		pfm_attach_probe_put();
	put_cred(hook->cred);
	kfree(hook);
}

/*
 * ctx attached through hook once it is mapped (again: a reattach,
 * pfm_hook_map_checked()); a hook that cannot be mapped is given up.
 */
static int pfm_hook_attach(struct pfm_hook *hook, bool again)
{
	struct pfm_context *ctx = hook->ctx;
	struct task_struct *task = hook->n.task;
	unsigned long flags;
	bool exiting;
	int ret;

	/*
	 * Ours until the end of the attach: once mapped, the thread's exit may take
	 * the hook off and drop the map's reference at any time.
	 */
	refcount_inc(&hook->refs);
	ret = pfm_hook_map_checked(hook, again);
	if (ret) {
		pfm_hook_free_unmapped(hook);
		return ret;
	}
	get_task_struct(task);
	pfm_context_get(ctx);
	if (task != current)
		pfm_race_window(PFM_RACE_ATTACH_MAPPED);

	/*
	 * The exit hook sets PF_EXITING before it takes ctx->lock: either it comes
	 * after this and detaches ctx, or it came before, found ctx not attached
	 * through the hook yet, and the attach must not be made.
	 */
	raw_spin_lock_irqsave(&ctx->lock, flags);
	exiting = task->flags & PF_EXITING;
	if (!exiting) {
		ctx->hook = hook;
		ctx->task = task;
		ctx->started = false;
		ctx->state = PFM_CTX_LOADED;
		if (task == current)
			pfm_hook_on_locked(hook);
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	if (exiting) {
		pfm_hook_set_dead(hook);
		pfm_hook_unmap(hook);
		if (hook->probe)
			pfm_attach_probe_put();
		ret = -ESRCH;
	} else if (task != current) {
		pfm_race_window(PFM_RACE_ATTACH_LOADED);
		pfm_hook_pend(hook);
	}
	pfm_hook_put(hook);
	return ret;
}

/* Attaches ctx to task, monitoring stopped; ctx->mutex held. */
int pfm_env_attach(struct pfm_context *ctx, struct task_struct *task)
{
	struct pfm_hook *hook;

	hook = pfm_hook_alloc(ctx, task, get_current_cred());
	if (IS_ERR(hook))
		return PTR_ERR(hook);
	return pfm_hook_attach(hook, false);
}

/*
 * The hook of a reattach (state.c), made while ctx is still attached to task,
 * with the credentials of the attach it continues.
 */
struct pfm_hook *pfm_env_reattach_prepare(struct pfm_context *ctx, struct task_struct *task)
{
	const struct cred *cred = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	if (ctx->hook && ctx->task == task)
		cred = get_cred(ctx->hook->cred);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	if (!cred)
		return ERR_PTR(-ESRCH);
	return pfm_hook_alloc(ctx, task, cred);
}

/*
 * ctx attached to task again through hook, which this consumes: only the
 * thread's exit (ESRCH) or an exec that withdrew the controller's access
 * (EACCES) fail it.
 */
int pfm_env_reattach(struct pfm_context *ctx, struct task_struct *task, struct pfm_hook *hook)
{
	return pfm_hook_attach(hook, true);
}

void pfm_env_reattach_abort(struct pfm_hook *hook)
{
	pfm_hook_free_unmapped(hook);
}

struct pfm_detach {
	struct pfm_hook *hook;
};

static void pfm_do_detach(struct pfm_context *ctx, void *arg)
{
	struct pfm_detach *d = arg;
	struct pfm_hook *hook = ctx->hook;

	if (hook && pfm_hook_detach_locked(hook)) {
		refcount_inc(&hook->refs);
		d->hook = hook;
	}
}

static void pfm_block_work(struct callback_head *work)
{
	struct pfm_hook *hook = container_of(work, struct pfm_hook, block_work);
	struct pfm_context *ctx = hook->ctx;

	hook->block_pending = false;
	/* A signal ends the wait too: the thread can always be killed. */
	wait_event_interruptible(ctx->restart_wait,
				 !READ_ONCE(ctx->masked) || READ_ONCE(ctx->hook) != hook);
	pfm_hook_put(hook);
}

/* ctx->lock held, just masked: holds the monitored thread if the overflow is its own. */
void pfm_env_block(struct pfm_context *ctx)
{
	struct pfm_hook *hook = ctx->hook;

	lockdep_assert_held(&ctx->lock);
	if (!hook || hook->n.task != current || hook->block_pending)
		return;
	refcount_inc(&hook->refs);
	hook->block_pending = true;
	init_task_work(&hook->block_work, pfm_block_work);
	/* Fails only in the thread's exit: there is no user mode to hold it from. */
	if (task_work_add(current, &hook->block_work, TWA_RESUME)) {
		hook->block_pending = false;
		refcount_dec(&hook->refs);	/* the map's reference remains */
	}
}

/* After a restart, start, stop or detach; no lock held. */
void pfm_env_unblock(struct pfm_context *ctx)
{
	if (ctx->flags & PFM_FL_NOTIFY_BLOCK)
		wake_up_interruptible(&ctx->restart_wait);
}

/* Detaches a per-thread context; ctx->mutex held. */
long pfm_env_detach(struct pfm_context *ctx)
{
	struct pfm_detach d = {};

	if (ctx->task == current) {
		pfm_hook_off(ctx->hook);
		return 0;
	}
	pfm_run_on_state(ctx, pfm_do_detach, &d);
	pfm_env_unblock(ctx);
	if (!d.hook)
		return 0;
	pfm_hook_set_dead(d.hook);
	if (d.hook->release)
		pfm_detach_release(ctx);
	if (!pfm_hook_drop_pending(d.hook)) {
		/* Off the thread before we return, whatever the thread does. */
		pfm_notifier_take_off(&d.hook->n);
		pfm_hook_unmap(d.hook);
	}
	pfm_hook_put(d.hook);
	return 0;
}

/*
 * Ends the attachments of task that keep() refuses, with an end message giving
 * why, and takes every dead hook off; in task, atomic context.
 */
static void pfm_hooks_end(struct task_struct *task, bool (*keep)(struct pfm_hook *hook),
			  u32 reason)
{
	struct pfm_hook *hook, *found[4];
	unsigned int n, i, ended;
	unsigned long flags;

	if (!atomic_read(&pfm_nr_hooks))
		return;
	do {
		n = 0;
		ended = 0;
		raw_spin_lock_irqsave(&pfm_hooks_lock, flags);
		hash_for_each_possible(pfm_hooks, hook, node, (unsigned long)task) {
			if (hook->n.task != task || n == ARRAY_SIZE(found))
				continue;
			refcount_inc(&hook->refs);
			found[n++] = hook;
		}
		raw_spin_unlock_irqrestore(&pfm_hooks_lock, flags);
		for (i = 0; i < n; i++) {
			struct pfm_context *ctx = found[i]->ctx;

			/* A thread has one live hook at most: the loop ends. */
			if (!keep || !READ_ONCE(found[i]->live) || !keep(found[i])) {
				pfm_context_get(ctx);
				if (pfm_hook_off(found[i]))
					pfm_msg_end(ctx, task, reason);
				pfm_context_put(ctx);
				ended++;
			}
			pfm_hook_put(found[i]);
		}
	} while (n == ARRAY_SIZE(found) && ended);
}

/* The monitored thread exits: detach, queue the end message, unhook. */
static void pfm_probe_exit(void *data, struct task_struct *task)
{
	pfm_task_ops_run(task, false);
	pfm_hooks_end(task, NULL, PFM_END_EXIT);
}

static bool pfm_hook_still_readable(struct pfm_hook *hook)
{
	return pfm_access_cred_may_read(hook->cred, hook->n.task);
}

/*
 * The monitored thread has exec'd, with the new image's credentials and
 * dumpability in place and before its first instruction: the attach rule is
 * applied again to the controller's credentials at attach, and an attachment it no
 * longer allows ends here, with the counts made before kept.  This is where the
 * kernel itself withdraws ptrace-read access (a setuid or file-capability image, or
 * one not dumpable by the user).
 */
static void pfm_probe_exec(void *data, struct task_struct *task, pid_t old_pid,
			   struct linux_binprm *bprm)
{
	pfm_hooks_end(task, pfm_hook_still_readable, PFM_END_EXEC);
	pfm_task_ops_run(task, true);
}

static struct tracepoint *pfm_exit_tp, *pfm_exec_tp;

int pfm_thread_init(void)
{
	int ret;

	pfm_exit_tp = pfm_tracepoint("sched_process_exit");
	pfm_exec_tp = pfm_tracepoint("sched_process_exec");
	if (!pfm_exit_tp || !pfm_exec_tp)
		return -ENOENT;
	preempt_notifier_inc();
	ret = tracepoint_probe_register(pfm_exit_tp, pfm_probe_exit, NULL);
	if (ret)
		goto err_notifier;
	ret = tracepoint_probe_register(pfm_exec_tp, pfm_probe_exec, NULL);
	if (ret)
		goto err_exit;
	return 0;

err_exit:
	tracepoint_probe_unregister(pfm_exit_tp, pfm_probe_exit, NULL);
	tracepoint_synchronize_unregister();
err_notifier:
	preempt_notifier_dec();
	return ret;
}

void pfm_thread_exit(void)
{
	tracepoint_probe_unregister(pfm_exec_tp, pfm_probe_exec, NULL);
	tracepoint_probe_unregister(pfm_exit_tp, pfm_probe_exit, NULL);
	tracepoint_synchronize_unregister();
	preempt_notifier_dec();
}
