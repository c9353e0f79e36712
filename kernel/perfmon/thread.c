// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: attaching a context to a thread.
 *
 * An attachment puts a hook on the thread: a preempt notifier, which moves the
 * context's state on and off the PMU as the thread is switched in and out, and an
 * entry in the thread-to-hook map, which the exit hook looks up.  The scheduler walks
 * a thread's notifier list without a lock, so only the thread itself registers and
 * unregisters its notifier: a thread attached from elsewhere hooks itself in a
 * task_work item before it next runs user code, and a detach asked for by another
 * thread takes effect at once (monitoring stops, the context is free to attach
 * elsewhere) while the dead hook stays on the thread, doing nothing, until the thread
 * runs the unhooking task_work item or exits.
 *
 * A hook lives while it is in the map or has a task_work item pending; it holds a
 * reference on its context and on its thread.  Hook fields other than refs and live
 * are touched only by the hooked thread.
 *
 * PFM_FL_NOTIFY_BLOCK: a notifying overflow in the thread queues a task_work item
 * that holds it, on its way back to user mode, until the controller restarts, stops
 * or detaches (pfm_env_block(), pfm_env_unblock()).
 */
#include <linux/hashtable.h>
#include <linux/pid.h>
#include <linux/preempt.h>
#include <linux/sched/task.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>

#include "internal.h"
#include "ctx.h"
#include "env.h"
#include "msg.h"
#include "state.h"
#include "sw_pmu.h"
#include "switch.h"
#include "thread.h"

struct pfm_hook {
	struct preempt_notifier pn;
	struct pfm_context *ctx;
	struct task_struct *task;
	struct hlist_node node;		/* in pfm_hooks while mapped */
	refcount_t refs;		/* the map entry + pending task_work items */
	bool live;			/* ctx is attached through this hook (map lock) */
	bool mapped;
	bool on;			/* pn registered */
	bool block_pending;		/* block_work queued */
	struct callback_head hook_work;
	struct callback_head unhook_work;
	struct callback_head block_work;
};

static DEFINE_HASHTABLE(pfm_hooks, 8);
static DEFINE_RAW_SPINLOCK(pfm_hooks_lock);
static atomic_t pfm_nr_hooks = ATOMIC_INIT(0);

static void pfm_hook_put(struct pfm_hook *hook)
{
	if (!refcount_dec_and_test(&hook->refs))
		return;
	put_task_struct(hook->task);
	pfm_context_put(hook->ctx);
	kfree(hook);
}

/* A thread has at most one context attached. */
static int pfm_hook_map(struct pfm_hook *hook)
{
	struct pfm_hook *h;
	unsigned long flags;
	int ret = 0;

	raw_spin_lock_irqsave(&pfm_hooks_lock, flags);
	hash_for_each_possible(pfm_hooks, h, node, (unsigned long)hook->task) {
		if (h->task == hook->task && h->live) {
			ret = -EEXIST;
			goto out;
		}
	}
	hash_add(pfm_hooks, &hook->node, (unsigned long)hook->task);
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

/* Out of the map; drops the reference the map entry held. */
static void pfm_hook_unmap(struct pfm_hook *hook)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_hooks_lock, flags);
	hash_del(&hook->node);
	atomic_dec(&pfm_nr_hooks);
	raw_spin_unlock_irqrestore(&pfm_hooks_lock, flags);
	hook->mapped = false;
	pfm_hook_put(hook);
}

static void pfm_sched_in(struct preempt_notifier *pn, int cpu)
{
	struct pfm_hook *hook = container_of(pn, struct pfm_hook, pn);
	struct pfm_context *ctx = hook->ctx;
	unsigned long flags;

	bool migrated = false;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	if (ctx->hook == hook)
		migrated = pfm_sched_in_locked(ctx, cpu);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	/* Counted once live, outside the lock (see pfm_sw_count()). */
	if (migrated)
		pfm_sw_count(PFM_SW_EV_CPU_MIGRATIONS, 1);
}

/* Runs with the runqueue lock held and interrupts off. */
static void pfm_sched_out(struct preempt_notifier *pn, struct task_struct *next)
{
	struct pfm_hook *hook = container_of(pn, struct pfm_hook, pn);
	struct pfm_context *ctx = hook->ctx;

	/*
	 * Counted while still live, outside the lock (see pfm_sw_count()); only by
	 * the live hook: a dead one may sit beside it.  ctx->hook cannot change
	 * under us: interrupts are off and this thread is the one that would.
	 */
	if (READ_ONCE(ctx->hook) == hook)
		pfm_sw_count(PFM_SW_EV_CTX_SWITCHES, 1);
	raw_spin_lock(&ctx->lock);
	if (ctx->hook == hook)
		pfm_sched_out_locked(ctx);
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

	preempt_notifier_init(&hook->pn, &pfm_preempt_ops);
	preempt_notifier_register(&hook->pn);
	hook->on = true;
	if (ctx->hook != hook)
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

	raw_spin_lock_irqsave(&ctx->lock, flags);
	if (ctx->hook == hook && !hook->on && hook->mapped && !(current->flags & PF_EXITING))
		pfm_hook_on_locked(hook);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	pfm_hook_put(hook);
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
	pfm_unload_locked(ctx);
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
	if (hook->on)
		preempt_notifier_unregister(&hook->pn);
	hook->on = false;
	raw_spin_unlock_irqrestore(&ctx->lock, flags);

	if (was_live) {
		pfm_hook_set_dead(hook);
		pfm_detach_release(ctx);
	}
	if (hook->mapped)
		pfm_hook_unmap(hook);
	return was_live;
}

static void pfm_unhook_work(struct callback_head *head)
{
	struct pfm_hook *hook = container_of(head, struct pfm_hook, unhook_work);

	pfm_hook_off(hook);
	pfm_hook_put(hook);
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
 * Attaches ctx to task (whose reference it takes over), monitoring stopped;
 * ctx->mutex held.
 */
int pfm_env_attach(struct pfm_context *ctx, struct task_struct *task)
{
	struct pfm_hook *hook;
	unsigned long flags;
	int ret;

	hook = kzalloc(sizeof(*hook), GFP_KERNEL);
	if (!hook)
		return -ENOMEM;
	hook->task = task;
	hook->ctx = ctx;
	refcount_set(&hook->refs, 1);
	ret = pfm_hook_map(hook);
	if (ret) {
		kfree(hook);
		return ret;
	}
	get_task_struct(task);
	pfm_context_get(ctx);

	raw_spin_lock_irqsave(&ctx->lock, flags);
	ctx->hook = hook;
	ctx->task = task;
	ctx->started = false;
	ctx->state = PFM_CTX_LOADED;
	if (task == current)
		pfm_hook_on_locked(hook);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	if (task == current)
		return 0;

	refcount_inc(&hook->refs);
	init_task_work(&hook->hook_work, pfm_hook_work);
	if (task_work_add(task, &hook->hook_work, TWA_RESUME)) {
		/* The thread is past its exit hook: as if it had not been found. */
		pfm_hook_put(hook);
		raw_spin_lock_irqsave(&ctx->lock, flags);
		pfm_hook_detach_locked(hook);
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		pfm_hook_set_dead(hook);
		pfm_hook_unmap(hook);
		return -ESRCH;
	}
	/* A thread running user code on another CPU goes through the kernel now. */
	kick_process(task);
	return 0;
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
	if (!hook || hook->task != current || hook->block_pending)
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
	pfm_detach_release(ctx);
	init_task_work(&d.hook->unhook_work, pfm_unhook_work);
	/* Fails only once the thread is past its exit hook, which unhooked it. */
	if (task_work_add(d.hook->task, &d.hook->unhook_work, TWA_RESUME))
		pfm_hook_put(d.hook);
	return 0;
}

/* The monitored thread exits: detach, queue the end message, unhook. */
static void pfm_probe_exit(void *data, struct task_struct *task)
{
	struct pfm_hook *hook, *found[4];
	unsigned int n, i;
	unsigned long flags;

	if (!atomic_read(&pfm_nr_hooks))
		return;
	do {
		n = 0;
		raw_spin_lock_irqsave(&pfm_hooks_lock, flags);
		hash_for_each_possible(pfm_hooks, hook, node, (unsigned long)task) {
			if (hook->task != task || n == ARRAY_SIZE(found))
				continue;
			refcount_inc(&hook->refs);
			found[n++] = hook;
		}
		raw_spin_unlock_irqrestore(&pfm_hooks_lock, flags);
		for (i = 0; i < n; i++) {
			struct pfm_context *ctx = found[i]->ctx;

			pfm_context_get(ctx);
			if (pfm_hook_off(found[i]))
				pfm_msg_end(ctx, task);
			pfm_context_put(ctx);
			pfm_hook_put(found[i]);
		}
	} while (n == ARRAY_SIZE(found));
}

static struct tracepoint *pfm_exit_tp;

static void pfm_find_exit_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exit"))
		pfm_exit_tp = tp;
}

int pfm_thread_init(void)
{
	int ret;

	for_each_kernel_tracepoint(pfm_find_exit_tp, NULL);
	if (!pfm_exit_tp)
		return -ENOENT;
	preempt_notifier_inc();
	ret = tracepoint_probe_register(pfm_exit_tp, pfm_probe_exit, NULL);
	if (ret)
		preempt_notifier_dec();
	return ret;
}

void pfm_thread_exit(void)
{
	tracepoint_probe_unregister(pfm_exit_tp, pfm_probe_exit, NULL);
	tracepoint_synchronize_unregister();
	preempt_notifier_dec();
}
