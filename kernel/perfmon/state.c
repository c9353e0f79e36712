// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: attach, detach, start and stop.
 *
 * Attach and detach leave monitoring stopped.  While stopped nothing is on the PMU:
 * start restores the active set onto the PMU of the CPU the thread runs on and enables
 * it, stop disables it and saves it back, so a stopped context costs nothing at
 * context switch.
 */
#include "internal.h"

#define PFM_STARTFL_ALL	(PFM_STARTFL_SET | PFM_STARTFL_RESTART)

static struct pfm_event_set *pfm_first_set(struct pfm_context *ctx)
{
	return list_first_entry(&ctx->sets, struct pfm_event_set, list);
}

static bool pfm_here(const struct pfm_context *ctx)
{
	return ctx->on_cpu == smp_processor_id();
}

static int pfm_units_get(void)
{
	unsigned int u;
	int ret;

	for (u = 0; u < pfm_pmu.num_units; u++) {
		if (!pfm_pmu.units[u]->get)
			continue;
		ret = pfm_pmu.units[u]->get();
		if (ret)
			goto err;
	}
	return 0;
err:
	while (u--)
		if (pfm_pmu.units[u]->put)
			pfm_pmu.units[u]->put();
	return ret;
}

static void pfm_units_put(void)
{
	unsigned int u;

	for (u = 0; u < pfm_pmu.num_units; u++)
		if (pfm_pmu.units[u]->put)
			pfm_pmu.units[u]->put();
}

/* Called with ctx->lock held, where the state lives. */
static void pfm_stop_locked(struct pfm_context *ctx)
{
	struct pfm_event_set *set = ctx->active;

	if (!ctx->started)
		return;
	if (pfm_here(ctx)) {
		pfm_pmu_disable(ctx, set);
		pfm_set_save(ctx, set);
	}
	set->duration_ns += pfm_clock_ns() - ctx->set_started_ns;
	ctx->started = false;
}

static void pfm_start_locked(struct pfm_context *ctx, struct pfm_event_set *set)
{
	ctx->active = set;
	ctx->started = true;
	ctx->set_started_ns = pfm_clock_ns();
	set->runs++;
	if (pfm_here(ctx)) {
		ctx->last_cpu = ctx->on_cpu;
		pfm_set_restore(ctx, set);
		pfm_pmu_enable(ctx, set);
	}
}

long pfm_load(struct pfm_context *ctx, u32 flags, u64 target)
{
	struct task_struct *task;
	int ret;

	if (flags)
		return -EINVAL;
	/* ctx->task still set: a detach asked by another thread awaits its unhooking. */
	if (ctx->state != PFM_CTX_UNLOADED || READ_ONCE(ctx->task))
		return -EBUSY;
	if (ctx->flags & PFM_FL_SYSTEM_WIDE)
		return -EOPNOTSUPP;	/* CPU attach comes with the access model */
	if (target > INT_MAX)
		return -ESRCH;
	task = pfm_find_task((pid_t)target);
	if (IS_ERR(task))
		return PTR_ERR(task);
	if (task != current) {
		ret = -EOPNOTSUPP;	/* other threads come with the access model */
		goto out_task;
	}
	ret = pfm_units_get();
	if (ret)
		goto out_task;
	/* The attachment holds a reference on the context and on the thread. */
	pfm_context_get(ctx);
	ret = pfm_env_attach(ctx, task);
	if (ret)
		goto err_attach;
	if (!ctx->active)
		ctx->active = pfm_first_set(ctx);
	return 0;

err_attach:
	pfm_context_put(ctx);
	pfm_units_put();
out_task:
	put_task_struct(task);
	return ret;
}

/*
 * The atomic part of a detach, shared by unload, close and the thread's exit: with
 * ctx->lock held, on the monitored thread's CPU.  The caller releases the references
 * (pfm_detach_release()) once the lock is dropped.
 */
void pfm_unload_locked(struct pfm_context *ctx)
{
	pfm_stop_locked(ctx);
	ctx->state = PFM_CTX_UNLOADED;
}

void pfm_detach_release(struct pfm_context *ctx, struct task_struct *task)
{
	pfm_units_put();
	put_task_struct(task);
	pfm_context_put(ctx);
}

long pfm_unload(struct pfm_context *ctx, u32 flags)
{
	if (flags)
		return -EINVAL;
	if (ctx->state != PFM_CTX_LOADED)
		return -EINVAL;
	return pfm_env_detach(ctx);
}

static void pfm_do_start(struct pfm_context *ctx, void *arg)
{
	struct pfm_event_set *set = arg;

	if (ctx->state != PFM_CTX_LOADED)
		return;
	if (ctx->started) {
		if (set == ctx->active)
			return;
		pfm_stop_locked(ctx);
	}
	pfm_start_locked(ctx, set);
}

long pfm_start(struct pfm_context *ctx, u32 flags, u64 arg)
{
	struct pfm_event_set *set;

	if (flags & ~PFM_STARTFL_ALL)
		return -EINVAL;
	if (!(flags & PFM_STARTFL_SET) && arg)
		return -EINVAL;
	if (ctx->state != PFM_CTX_LOADED)
		return -EINVAL;
	/* Nothing can be pending: overflow notifications are not in this version yet. */
	if (flags & PFM_STARTFL_RESTART)
		return -EBUSY;
	if (flags & PFM_STARTFL_SET) {
		set = arg <= PFM_MAX_SET_ID ? pfm_find_set(ctx, (u16)arg) : NULL;
		if (!set)
			return -EINVAL;
	} else {
		set = ctx->active;
	}
	pfm_run_on_state(ctx, pfm_do_start, set);
	return 0;
}

static void pfm_do_stop(struct pfm_context *ctx, void *arg)
{
	pfm_stop_locked(ctx);
}

long pfm_stop(struct pfm_context *ctx, u32 flags)
{
	if (flags)
		return -EINVAL;
	if (ctx->state != PFM_CTX_LOADED)
		return -EINVAL;
	pfm_run_on_state(ctx, pfm_do_stop, NULL);
	return 0;
}
