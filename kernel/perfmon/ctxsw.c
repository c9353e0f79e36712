// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the hooks on a monitored thread, and running an operation where the
 * context's state lives.
 *
 * A thread's hooks (a preempt notifier, and an entry in the thread-to-context map) are
 * put on and taken off by the thread itself: the scheduler walks a thread's notifier
 * list without a lock, so only its owner may change it.  A detach asked for by another
 * thread stops the context at once and leaves the unhooking to a task_work item that
 * the monitored thread runs on its way back to user mode, or to the exit hook.
 */
#include <linux/hashtable.h>
#include <linux/pid.h>
#include <linux/preempt.h>
#include <linux/sched/clock.h>
#include <linux/sched/task.h>
#include <linux/smp.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>

#include "internal.h"
#include "ctxsw.h"

static DEFINE_HASHTABLE(pfm_task_map, 8);
static DEFINE_RAW_SPINLOCK(pfm_task_map_lock);
static atomic_t pfm_nr_hooked = ATOMIC_INIT(0);

u64 pfm_clock_ns(void)
{
	return local_clock();
}

static struct pfm_context *pfm_task_ctx(struct task_struct *task)
{
	struct pfm_context *ctx;

	hash_for_each_possible(pfm_task_map, ctx, task_node, (unsigned long)task)
		if (ctx->task == task)
			return ctx;
	return NULL;
}

static int pfm_map_add(struct pfm_context *ctx, struct task_struct *task)
{
	unsigned long flags;
	int ret = 0;

	raw_spin_lock_irqsave(&pfm_task_map_lock, flags);
	if (pfm_task_ctx(task)) {
		ret = -EEXIST;
	} else {
		ctx->task = task;
		hash_add(pfm_task_map, &ctx->task_node, (unsigned long)task);
		atomic_inc(&pfm_nr_hooked);
	}
	raw_spin_unlock_irqrestore(&pfm_task_map_lock, flags);
	return ret;
}

static void pfm_map_del(struct pfm_context *ctx)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_task_map_lock, flags);
	hash_del(&ctx->task_node);
	WRITE_ONCE(ctx->task, NULL);
	atomic_dec(&pfm_nr_hooked);
	raw_spin_unlock_irqrestore(&pfm_task_map_lock, flags);
}

static void pfm_sched_in(struct preempt_notifier *pn, int cpu)
{
	struct pfm_context *ctx = container_of(pn, struct pfm_context, pn);
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	ctx->on_cpu = cpu;
	if (ctx->started) {
		pfm_set_restore(ctx, ctx->active);
		pfm_pmu_enable(ctx, ctx->active);
		if (ctx->last_cpu != cpu)
			pfm_sw_count(PFM_SW_EV_CPU_MIGRATIONS, 1);
		ctx->last_cpu = cpu;
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}

/* Runs with the runqueue lock held and interrupts off. */
static void pfm_sched_out(struct preempt_notifier *pn, struct task_struct *next)
{
	struct pfm_context *ctx = container_of(pn, struct pfm_context, pn);

	raw_spin_lock(&ctx->lock);
	if (ctx->started && ctx->on_cpu >= 0) {
		pfm_sw_count(PFM_SW_EV_CTX_SWITCHES, 1);
		pfm_pmu_disable(ctx, ctx->active);
		pfm_set_save(ctx, ctx->active);
	}
	ctx->on_cpu = -1;
	raw_spin_unlock(&ctx->lock);
}

static struct preempt_ops pfm_preempt_ops = {
	.sched_in = pfm_sched_in,
	.sched_out = pfm_sched_out,
};

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

/* Hooks the calling thread; ctx->mutex held.  Leaves monitoring stopped. */
int pfm_env_attach(struct pfm_context *ctx, struct task_struct *task)
{
	unsigned long flags;
	int ret;

	if (WARN_ON_ONCE(task != current))
		return -EINVAL;
	ret = pfm_map_add(ctx, task);
	if (ret)
		return ret;
	raw_spin_lock_irqsave(&ctx->lock, flags);
	preempt_notifier_init(&ctx->pn, &pfm_preempt_ops);
	preempt_notifier_register(&ctx->pn);
	ctx->on_cpu = smp_processor_id();
	ctx->last_cpu = ctx->on_cpu;
	ctx->started = false;
	ctx->state = PFM_CTX_LOADED;
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return 0;
}

/*
 * Takes the hooks off the calling thread if they are on it, detaching first if the
 * context is still attached (the thread is exiting).  Safe in atomic context.
 */
static void pfm_unhook_current(struct pfm_context *ctx)
{
	struct task_struct *task;
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	task = ctx->task;
	if (task != current) {
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		return;
	}
	if (ctx->state == PFM_CTX_LOADED)
		pfm_unload_locked(ctx);
	preempt_notifier_unregister(&ctx->pn);
	ctx->on_cpu = -1;
	raw_spin_unlock_irqrestore(&ctx->lock, flags);

	pfm_map_del(ctx);
	pfm_detach_release(ctx, task);
}

static void pfm_unhook_work(struct callback_head *head)
{
	struct pfm_context *ctx = container_of(head, struct pfm_context, unhook_work);

	pfm_unhook_current(ctx);
	pfm_context_put(ctx);
}

static void pfm_do_unload(struct pfm_context *ctx, void *arg)
{
	if (ctx->state == PFM_CTX_LOADED)
		pfm_unload_locked(ctx);
}

/* ctx->mutex held. */
long pfm_env_detach(struct pfm_context *ctx)
{
	struct task_struct *task = ctx->task;

	if (task == current) {
		pfm_unhook_current(ctx);
		return 0;
	}
	pfm_run_on_state(ctx, pfm_do_unload, NULL);
	pfm_context_get(ctx);
	init_task_work(&ctx->unhook_work, pfm_unhook_work);
	/* Fails only once the thread is past its exit hook, which unhooked it. */
	if (task_work_add(task, &ctx->unhook_work, TWA_RESUME))
		pfm_context_put(ctx);
	return 0;
}

/* The fd is going away: detach if attached.  ctx->mutex held. */
void pfm_env_release(struct pfm_context *ctx)
{
	if (ctx->state == PFM_CTX_LOADED)
		pfm_env_detach(ctx);
}

struct pfm_remote {
	struct pfm_context *ctx;
	pfm_state_fn fn;
	void *arg;
	bool done;
};

static void pfm_remote_fn(void *info)
{
	struct pfm_remote *r = info;

	raw_spin_lock(&r->ctx->lock);
	if (r->ctx->on_cpu == smp_processor_id()) {
		r->fn(r->ctx, r->arg);
		r->done = true;
	}
	raw_spin_unlock(&r->ctx->lock);
}

/*
 * Runs fn with ctx->lock held where the state is: on the CPU the monitored thread runs
 * on (by a cross-CPU call when that is not us), or on the saved copy when the thread
 * is not running.  The thread may move while we look, hence the loop.
 */
void pfm_run_on_state(struct pfm_context *ctx, pfm_state_fn fn, void *arg)
{
	struct pfm_remote r = { .ctx = ctx, .fn = fn, .arg = arg };
	unsigned long flags;
	int cpu;

	for (;;) {
		raw_spin_lock_irqsave(&ctx->lock, flags);
		cpu = ctx->on_cpu;
		if (cpu < 0 || cpu == smp_processor_id()) {
			fn(ctx, arg);
			raw_spin_unlock_irqrestore(&ctx->lock, flags);
			return;
		}
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		smp_call_function_single(cpu, pfm_remote_fn, &r, 1);
		if (r.done)
			return;
	}
}

static void pfm_probe_exit(void *data, struct task_struct *task)
{
	struct pfm_context *ctx;
	unsigned long flags;

	if (!atomic_read(&pfm_nr_hooked))
		return;
	raw_spin_lock_irqsave(&pfm_task_map_lock, flags);
	ctx = pfm_task_ctx(task);
	if (ctx)
		pfm_context_get(ctx);
	raw_spin_unlock_irqrestore(&pfm_task_map_lock, flags);
	if (!ctx)
		return;
	pfm_unhook_current(ctx);
	pfm_context_put(ctx);
}

static struct tracepoint *pfm_exit_tp;

static void pfm_find_exit_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exit"))
		pfm_exit_tp = tp;
}

int pfm_ctxsw_init(void)
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

void pfm_ctxsw_exit(void)
{
	tracepoint_probe_unregister(pfm_exit_tp, pfm_probe_exit, NULL);
	tracepoint_synchronize_unregister();
	preempt_notifier_dec();
}
