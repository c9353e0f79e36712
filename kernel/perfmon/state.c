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
#include "ctx.h"
#include "env.h"
#include "flag_ops.h"
#include "ovfl.h"
#include "pmu_type.h"
#include "sets.h"
#include "state.h"
#include "switch.h"

#define PFM_STARTFL_ALL	(PFM_STARTFL_SET | PFM_STARTFL_RESTART | PFM_STARTFL_DRAIN)

static bool pfm_here(const struct pfm_context *ctx)
{
	return ctx->on_cpu == smp_processor_id();
}

/* Gives back what unit u holds for ctx; atomic context allowed. */
static void pfm_unit_put(struct pfm_context *ctx, unsigned int u)
{
	const struct pfm_pmu_unit *unit = pfm_pmu.units[u];
	unsigned long flags;
	u32 held;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	held = ctx->unit_held[u];
	ctx->unit_held[u] = 0;
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	if (held)
		unit->needs_put(held);
	if (unit->put)
		unit->put(pfm_ctx_system_wide(ctx));
}

/* What every unit holds while ctx is attached: its own, and what ctx's events need. */
static int pfm_units_get(struct pfm_context *ctx)
{
	const struct pfm_pmu_unit *unit;
	unsigned int u;
	int ret;

	for (u = 0; u < pfm_pmu.num_units; u++) {
		unit = pfm_pmu.units[u];
		ret = unit->get ? unit->get(pfm_ctx_system_wide(ctx)) : 0;
		if (ret)
			goto err;
		if (ctx->unit_wants[u]) {
			ret = unit->needs_get(ctx->unit_wants[u]);
			if (ret) {
				if (unit->put)
					unit->put(pfm_ctx_system_wide(ctx));
				goto err;
			}
			ctx->unit_held[u] = ctx->unit_wants[u];
		}
	}
	return 0;
err:
	while (u--)
		pfm_unit_put(ctx, u);
	return ret;
}

static void pfm_units_put(struct pfm_context *ctx)
{
	unsigned int u;

	for (u = 0; u < pfm_pmu.num_units; u++)
		pfm_unit_put(ctx, u);
}

/*
 * At the load of a context that wrote a register of a hardware unit: the
 * hardware (res.c), EBUSY while sessions of the other kind hold it.  Not loaded
 * yet, the context is the caller's alone.
 */
static int pfm_hw_get(struct pfm_context *ctx)
{
	int ret;

	if (!ctx->hw_wanted)
		return 0;
	ret = pfm_res_hw_get(ctx);
	if (!ret)
		ctx->hw_held = true;
	return ret;
}

/* Gives the hardware back at a detach; atomic context allowed. */
static void pfm_hw_put(struct pfm_context *ctx)
{
	unsigned long flags;
	bool held;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	held = ctx->hw_held;
	ctx->hw_held = false;
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	if (held)
		pfm_res_hw_put(ctx);
}

/*
 * A write of registers of a hardware unit (rw.c), ctx->mutex held, before the
 * values are applied: a loaded context takes the hardware now, or the write
 * fails with EBUSY and changes nothing.  Only the thread's exit can detach
 * meanwhile; what it could not give back (not held yet) is given back here.
 */
int pfm_hw_claim(struct pfm_context *ctx)
{
	unsigned long flags;
	bool held;
	int ret;

	if (pfm_ctx_is_loaded(ctx) && !READ_ONCE(ctx->hw_held)) {
		ret = pfm_res_hw_get(ctx);
		if (ret)
			return ret;
		raw_spin_lock_irqsave(&ctx->lock, flags);
		held = pfm_ctx_is_loaded(ctx);
		if (held)
			ctx->hw_held = true;
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		if (!held)
			pfm_res_hw_put(ctx);
	}
	ctx->hw_wanted = true;
	return 0;
}

/* Called with ctx->lock held, where the state lives. */
static void pfm_stop_locked(struct pfm_context *ctx)
{
	pfm_overflow_unmask_locked(ctx);
	if (!ctx->started)
		return;
	if (pfm_here(ctx))
		pfm_live_out(ctx);
	else
		pfm_timer_stop(ctx);	/* left by the thread's switch out */
	ctx->started = false;
}

/* Monitoring on: live at once if the state is on this CPU, else at the next switch-in. */
static void pfm_go_live_locked(struct pfm_context *ctx)
{
	ctx->started = true;
	if (pfm_here(ctx)) {
		ctx->last_cpu = ctx->on_cpu;
		pfm_live_in(ctx);
	}
}

static void pfm_start_locked(struct pfm_context *ctx, struct pfm_event_set *set)
{
	pfm_overflow_unmask_locked(ctx);
	pfm_set_activate(ctx, set);
	pfm_go_live_locked(ctx);
}

/* ctx attached to task, whose access the caller checked. */
static long pfm_attach_task(struct pfm_context *ctx, struct task_struct *task)
{
	int ret;

	/* A thread held until it restarts itself would never run again. */
	if ((ctx->flags & PFM_FL_NOTIFY_BLOCK) && task == current)
		return -EINVAL;
	ret = pfm_res_session_get(ctx, -1);
	if (ret)
		return ret;
	ret = pfm_hw_get(ctx);
	if (ret)
		goto err_session;
	ret = pfm_units_get(ctx);
	if (ret)
		goto err_hw;
	ret = pfm_env_attach(ctx, task);
	if (ret)
		goto err_units;
	return 0;

err_units:
	pfm_units_put(ctx);
err_hw:
	pfm_hw_put(ctx);
err_session:
	pfm_res_session_put(ctx, -1);
	return ret;
}

static long pfm_load_task(struct pfm_context *ctx, u64 target)
{
	struct task_struct *task;
	int ret;

	if (target > INT_MAX)
		return -ESRCH;
	task = pfm_find_task((pid_t)target);
	if (IS_ERR(task))
		return PTR_ERR(task);
	ret = pfm_access_task(task);
	if (!ret)
		ret = pfm_attach_task(ctx, task);
	put_task_struct(task);
	return ret;
}

/*
 * For a layer that changes what only a detached context may change (its sets)
 * while the thread goes on being counted: ctx, attached to task, detached, fn
 * run, and ctx attached again, monitoring stopped; ctx->mutex held.  The new
 * hook is made before the detach, and what the attachment holds (the session,
 * the hardware, the units and their needs) stays held across, so the attach
 * again cannot fail for want of memory, nor because a CPU session took the
 * hardware meanwhile: only the thread's exit (ESRCH) or an exec that withdrew
 * the controller's access (EACCES) end the attachment then, after fn.  An error
 * before the detach changes nothing, and fn is not run.  The layers' flag ops
 * see no detach: the attachment goes on.
 */
long pfm_reattach_task(struct pfm_context *ctx, struct task_struct *task,
		       void (*fn)(struct pfm_context *ctx, void *arg), void *arg)
{
	struct pfm_hook *hook;
	unsigned long flags;
	bool live;
	int ret;

	if (ctx->state != PFM_CTX_LOADED || pfm_ctx_system_wide(ctx))
		return -EBUSY;
	hook = pfm_env_reattach_prepare(ctx, task);
	if (IS_ERR(hook))
		return PTR_ERR(hook);
	/* whichever detach comes next, ours or the thread's exit, keeps the claims */
	raw_spin_lock_irqsave(&ctx->lock, flags);
	live = ctx->state == PFM_CTX_LOADED;
	ctx->keep_claims = live;
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	if (!live) {
		pfm_env_reattach_abort(hook);
		return -ESRCH;
	}
	pfm_env_detach(ctx);
	fn(ctx, arg);
	ret = pfm_env_reattach(ctx, task, hook);
	if (ret)
		pfm_detach_release(ctx);
	return ret;
}

static void pfm_do_attach_cpu(struct pfm_context *ctx, void *arg)
{
	int cpu = *(int *)arg;

	ctx->cpu = cpu;
	ctx->on_cpu = cpu;
	ctx->started = false;
	ctx->state = PFM_CTX_LOADED;
}

/*
 * A CPU session is live on its CPU for as long as it is attached; every operation
 * is carried there by pfm_run_on_state(), so the caller may run on any CPU.
 */
static long pfm_load_cpu(struct pfm_context *ctx, u64 target)
{
	int cpu = (int)target;
	int ret;

	if (target >= nr_cpu_ids)
		return -EINVAL;
	/* Before the hotplug lock: enabling a tracepoint takes it too. */
	ret = pfm_units_get(ctx);
	if (ret)
		return ret;
	cpus_read_lock();
	ret = -EINVAL;
	if (!cpu_online(cpu))
		goto err;
	ret = pfm_pmu_type_attach_cpu(ctx, cpu);
	if (ret)
		goto err;
	ret = pfm_res_session_get(ctx, cpu);
	if (ret)
		goto err_type;
	ret = pfm_hw_get(ctx);
	if (ret) {
		pfm_res_session_put(ctx, cpu);
		goto err_type;
	}
	pfm_context_get(ctx);
	pfm_run_on_state(ctx, pfm_do_attach_cpu, &cpu);
	cpus_read_unlock();
	return 0;
err_type:
	pfm_pmu_type_detach_cpu(ctx);
err:
	cpus_read_unlock();
	pfm_units_put(ctx);
	return ret;
}

long pfm_load(struct pfm_context *ctx, u32 flags, u64 target)
{
	long ret;

	if (flags)
		return -EINVAL;
	if (ctx->state != PFM_CTX_UNLOADED)
		return -EBUSY;
	if (ctx->flags & PFM_FL_SYSTEM_WIDE)
		return pfm_load_cpu(ctx, target);
	ret = pfm_load_task(ctx, target);
	if (ret)
		return ret;
	/* a layer's flag (flag_ops.c) follows the attachment; its failure undoes it */
	ret = pfm_flag_ops_loaded(ctx);
	if (ret)
		pfm_unload(ctx, 0);
	return ret;
}

/*
 * The atomic part of a detach, shared by unload, close, the thread's exit and the
 * CPU going offline: with ctx->lock held, where the state lives.  True if the
 * detacher gives back what the attachment held (pfm_detach_release()); false in
 * a reattach, which keeps it for the attachment that follows.
 */
bool pfm_unload_locked(struct pfm_context *ctx)
{
	bool keep = ctx->keep_claims;

	pfm_stop_locked(ctx);
	ctx->state = PFM_CTX_UNLOADED;
	ctx->keep_claims = false;
	return !keep;
}

/* Drops what a per-thread attachment held; atomic context allowed. */
void pfm_detach_release(struct pfm_context *ctx)
{
	pfm_units_put(ctx);
	pfm_hw_put(ctx);
	pfm_res_session_put(ctx, -1);
}

static void pfm_do_detach_cpu(struct pfm_context *ctx, void *arg)
{
	int *cpu = arg;

	*cpu = -1;
	if (ctx->state != PFM_CTX_LOADED || ctx->cpu < 0)
		return;
	pfm_unload_locked(ctx);
	*cpu = ctx->cpu;
	ctx->cpu = -1;
	ctx->on_cpu = -1;
	pfm_pmu_type_detach_cpu(ctx);
}

/*
 * Detaches a CPU session; whoever wins the race between unload, close and the CPU
 * going offline releases what the attachment held.
 */
void pfm_detach_cpu(struct pfm_context *ctx)
{
	int cpu;

	pfm_run_on_state(ctx, pfm_do_detach_cpu, &cpu);
	if (cpu < 0)
		return;
	pfm_units_put(ctx);
	pfm_hw_put(ctx);
	pfm_res_session_put(ctx, cpu);
	pfm_context_put(ctx);
}

long pfm_unload(struct pfm_context *ctx, u32 flags)
{
	if (flags)
		return -EINVAL;
	if (ctx->state != PFM_CTX_LOADED)
		return -EINVAL;
	pfm_flag_ops_unload(ctx);
	if (ctx->flags & PFM_FL_SYSTEM_WIDE) {
		pfm_detach_cpu(ctx);
		return 0;
	}
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

/* Resumes a masked context, without making its set active anew (unless it switches). */
static void pfm_do_restart(struct pfm_context *ctx, void *arg)
{
	struct pfm_event_set *set;
	int *ret = arg;

	if (ctx->state != PFM_CTX_LOADED || !ctx->masked) {
		/* a shared buffer's drain alone (pfm_start()) is a restart too */
		*ret = ctx->smpl.shared ? 0 : -EBUSY;
		return;
	}
	set = pfm_overflow_restart_locked(ctx);
	if (set != ctx->active)
		pfm_set_activate(ctx, set);
	pfm_go_live_locked(ctx);
	*ret = 0;
}

long pfm_start(struct pfm_context *ctx, u32 flags, u64 arg)
{
	struct pfm_event_set *set;
	int ret;

	if (flags & ~PFM_STARTFL_ALL)
		return -EINVAL;
	/* A restart resumes where monitoring stopped: it names no set. */
	if ((flags & PFM_STARTFL_SET) && (flags & PFM_STARTFL_RESTART))
		return -EINVAL;
	/*
	 * A shared buffer's restart hands back the samples its reader consumed
	 * (arg, with PFM_STARTFL_DRAIN), loaded or not: the inheritors may write
	 * after the opened thread is gone.
	 */
	if ((flags & PFM_STARTFL_DRAIN) &&
	    (!(flags & PFM_STARTFL_RESTART) || !ctx->smpl.shared))
		return -EINVAL;
	if ((flags & PFM_STARTFL_RESTART) && ctx->smpl.shared) {
		ret = pfm_smpl_drain(ctx, (flags & PFM_STARTFL_DRAIN) ? arg : 0);
		if (ret || ctx->state != PFM_CTX_LOADED)
			return ret;
		arg = 0;
	}
	if (!(flags & PFM_STARTFL_SET) && arg)
		return -EINVAL;
	if (ctx->state != PFM_CTX_LOADED)
		return -EINVAL;
	if (flags & PFM_STARTFL_RESTART) {
		pfm_run_on_state(ctx, pfm_do_restart, &ret);
		pfm_env_unblock(ctx);
		return ret;
	}
	if (flags & PFM_STARTFL_SET) {
		set = arg <= PFM_MAX_SET_ID ? pfm_find_set(ctx, (u16)arg) : NULL;
		if (!set)
			return -EINVAL;
	} else {
		/* The last active set, the first in id order the first time. */
		set = ctx->active ?: pfm_first_set(ctx);
	}
	pfm_run_on_state(ctx, pfm_do_start, set);
	pfm_env_unblock(ctx);
	pfm_flag_ops_start(ctx, flags, arg);
	return 0;
}

static void pfm_do_stop(struct pfm_context *ctx, void *arg __always_unused)
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
	pfm_env_unblock(ctx);
	pfm_flag_ops_stop(ctx);
	return 0;
}
