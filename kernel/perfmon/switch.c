// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the active set going live and leaving, and switching sets.
 *
 * A set is live while it is the active set of a started context whose thread is on a
 * CPU (a CPU session is on its CPU all the time).  Only live time counts: a set's
 * duration and its switch timeout advance while it is live, so a per-thread session
 * multiplexes on the thread's virtual time and a CPU session on wall-clock time.
 *
 * Switches happen where the state is live, in the monitored thread's own context:
 * from the timeout's hrtimer (pinned to the CPU the set is live on) or from the
 * overflow path.  Sets are taken round-robin in id order.  All functions here run
 * with ctx->lock held.
 *
 * The context's live time (ctx->live_ns, the sum of its sets' durations) is the time
 * base of the set switch log: each activation is handed to the sampling format
 * (pfm_smpl_switch_locked()) with the PMU disabled, so that logging costs no set
 * any of its live time.
 */
#include "internal.h"
#include "ctx.h"
#include "env.h"
#include "hold.h"
#include "ovfl.h"
#include "pmu_state.h"
#include "pmu_type.h"
#include "sets.h"
#include "switch.h"
#include "upage.h"

static bool pfm_set_times(const struct pfm_event_set *set)
{
	return set->flags & PFM_SETFL_TIME_SWITCH;
}

/* This run's timeout: less a random part within the mask, drawn anew each run. */
static u64 pfm_run_timeout(const struct pfm_event_set *set)
{
	if (!(set->flags & PFM_SETFL_RANDOM_TIMEOUT))
		return set->timeout_ns;
	return set->timeout_ns - (get_random_u64() & set->timeout_mask);
}

/*
 * A switch out's stamp is the scheduler's last charge of the thread's runtime,
 * which may be older than a reading of ours since (a set switch, a read) where the
 * scheduler skipped its clock's update (RQCF_ACT_SKIP): nothing is taken back.
 */
static void pfm_live_account(struct pfm_context *ctx, struct pfm_event_set *set, u64 now)
{
	u64 d = pfm_ns_since(ctx->live_since_ns, now);

	set->duration_ns += d;
	ctx->live_ns += d;
}

/*
 * Thresholds and timeout start afresh each time a set becomes the active one.  The
 * values of every set are in memory here, except while a live set takes itself
 * again (the timer of a lone set): that one is not a switch and is not logged.
 */
void pfm_set_activate(struct pfm_context *ctx, struct pfm_event_set *set)
{
	unsigned int i;

	if (set != ctx->active || !ctx->started)
		pfm_smpl_switch_locked(ctx, ctx->active, set);
	ctx->active = set;
	set->runs++;
	set->timeout_left_ns = pfm_run_timeout(set);
	pfm_for_each_reg(i, set->used_pmds, pfm_pmu.pmd_end) {
		struct pfm_pmd *p = pfm_set_pmd(set, i);

		p->switch_left = p->ovfl_switch_cnt;
	}
	pfm_upage_refresh(ctx);
}

/*
 * While a keyed hit is counted (hold.h) the timer is left as it is and marked
 * stale: the CPU's resync irq_work makes it agree with the live set afterwards,
 * and a stale timer that fires first does nothing.  A stale timer's remaining
 * time is no set's: the timeout left was taken when it went stale.
 */
static DEFINE_PER_CPU(struct irq_work, pfm_timer_resync_work);

static void pfm_timer_resync_fn(struct irq_work *work);

static void pfm_timer_stale(struct pfm_context *ctx)
{
	struct irq_work *w = this_cpu_ptr(&pfm_timer_resync_work);

	ctx->timer_stale = true;
	if (unlikely(!w->func))
		*w = IRQ_WORK_INIT_HARD(pfm_timer_resync_fn);
	irq_work_queue(w);
}

static void pfm_timer_arm(struct pfm_context *ctx)
{
	if (!pfm_set_times(ctx->active))
		return;
	if (pfm_timers_held()) {
		pfm_timer_stale(ctx);
		return;
	}
	ctx->timer_stale = false;
	pfm_timer_call(hrtimer_start(&ctx->timer, ns_to_ktime(ctx->active->timeout_left_ns),
				     HRTIMER_MODE_REL_PINNED_HARD));
}

/* The timer runs on this CPU, where the caller has interrupts off: it cannot be firing. */
static void pfm_timer_disarm(struct pfm_context *ctx)
{
	struct pfm_event_set *set = ctx->active;
	s64 left;

	if (ctx->timer_stale) {
		if (!pfm_timers_held()) {
			pfm_timer_call(hrtimer_try_to_cancel(&ctx->timer));
			ctx->timer_stale = false;
		}
		return;
	}
	if (!pfm_set_times(set))
		return;
	if (pfm_timers_held()) {
		/* the expiry is this CPU's to change: read without the base's lock */
		left = ktime_to_ns(ktime_sub(hrtimer_get_expires(&ctx->timer), ktime_get()));
		set->timeout_left_ns = left > 0 ? left : 0;
		pfm_timer_stale(ctx);
		return;
	}
	pfm_timer_call(left = ktime_to_ns(hrtimer_get_remaining(&ctx->timer)));
	pfm_timer_call(hrtimer_try_to_cancel(&ctx->timer));
	set->timeout_left_ns = left > 0 ? left : 0;
}

/* Hard interrupt, the hits behind: this CPU's contexts' stale timers follow their sets. */
static void pfm_timer_resync_fn(struct irq_work *work __always_unused)
{
	unsigned int b;

	for (b = 0; b < 2; b++) {
		struct pfm_context *ctx = this_cpu_read(pfm_pmu_owner[b]);

		if (!ctx)
			continue;
		raw_spin_lock(&ctx->lock);
		if (ctx->timer_stale) {
			pfm_timer_call(hrtimer_try_to_cancel(&ctx->timer));
			ctx->timer_stale = false;
			if (ctx->started && ctx->on_cpu == smp_processor_id())
				pfm_timer_arm(ctx);
		}
		raw_spin_unlock(&ctx->lock);
	}
}

/*
 * One time stamp, now, serves the set's duration and the units' (a task clock):
 * they agree exactly.  A context switch passes the scheduler's own stamp of the
 * switch (thread.c), other callers a reading of the clock.  The context switch
 * inlines both ways whole (pfm_sched_in_locked(), ...): for a context whose units
 * all count into memory, the hook's call costs the lock and the units' bind() or
 * unbind(), and no layers of calls between.
 */
static __always_inline void __pfm_live_in(struct pfm_context *ctx, u64 now)
{
	if (pfm_set_moves(ctx->active))
		pfm_set_restore(ctx->active);
	/* before the counters run: what was loaded is read from the shadows */
	pfm_upage_live(ctx, true);
	ctx->live_since_ns = now;
	pfm_pmu_enable(ctx, now);
	pfm_timer_arm(ctx);
	/* Overflows that carried while the set was away are acted on now. */
	pfm_overflow_pending_locked(ctx);
}

static __always_inline void __pfm_live_out(struct pfm_context *ctx, u64 now)
{
	struct pfm_event_set *set = ctx->active;

	pfm_timer_disarm(ctx);
	pfm_pmu_disable(ctx, now);
	pfm_live_account(ctx, set, now);
	if (pfm_set_moves(set))
		pfm_set_save(set);
	pfm_upage_live(ctx, false);
}

void pfm_live_in(struct pfm_context *ctx)
{
	__pfm_live_in(ctx, pfm_clock_ns());
}

void pfm_live_out(struct pfm_context *ctx)
{
	__pfm_live_out(ctx, pfm_clock_ns());
}

/*
 * The monitored thread comes onto cpu at time now (ctx->lock held): the state goes
 * live there if monitoring is started.  True if it resumed on another CPU than it
 * last ran on.
 */
bool pfm_sched_in_locked(struct pfm_context *ctx, int cpu, u64 now)
{
	bool migrated = false;

	/* on a CPU of another type, the state stays in memory, not counting */
	if (!pfm_pmu_type_serves(ctx, cpu))
		return false;
	ctx->on_cpu = cpu;
	if (ctx->started) {
		__pfm_live_in(ctx, now);
		migrated = ctx->last_cpu != cpu;
		ctx->last_cpu = cpu;
	}
	return migrated;
}

/* The monitored thread leaves its CPU at time now (ctx->lock held). */
void pfm_sched_out_locked(struct pfm_context *ctx, u64 now)
{
	if (ctx->started && ctx->on_cpu >= 0)
		__pfm_live_out(ctx, now);
	ctx->on_cpu = -1;
}

/*
 * While live: from the active set to next (which may be the same set), the switch
 * timer left alone.
 */
static void pfm_switch_sets(struct pfm_context *ctx, struct pfm_event_set *next)
{
	struct pfm_event_set *prev = ctx->active;
	u64 start = 0, now;

	if (next != prev) {
		/* Durations cover what the counters saw: from enable to disable. */
		now = pfm_clock_ns();
		start = now;
		pfm_pmu_disable(ctx, now);
		pfm_live_account(ctx, prev, now);
		pfm_set_swap(prev, next);
	}
	pfm_set_activate(ctx, next);
	ctx->nr_switches++;
	if (next != prev) {
		ctx->live_since_ns = pfm_clock_ns();
		pfm_pmu_enable(ctx, ctx->live_since_ns);
		pfm_stat_add(set_switches, 1);
		pfm_stat_add(set_switch_ns, pfm_clock_ns() - start);
	}
}

/* While live, outside the switch timer: the next set's timeout starts afresh. */
void pfm_switch_locked(struct pfm_context *ctx, struct pfm_event_set *next)
{
	pfm_timer_disarm(ctx);
	pfm_switch_sets(ctx, next);
	pfm_timer_arm(ctx);
}

/* The timer moves itself on to the next set's timeout. */
static enum hrtimer_restart pfm_timer_fn(struct hrtimer *timer)
{
	struct pfm_context *ctx = container_of(timer, struct pfm_context, timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;

	raw_spin_lock(&ctx->lock);
	if (ctx->started && ctx->on_cpu == smp_processor_id() && pfm_set_times(ctx->active) &&
	    !ctx->timer_stale) {
		pfm_switch_sets(ctx, pfm_next_set(ctx, ctx->active));
		if (pfm_set_times(ctx->active)) {
			hrtimer_forward_now(timer,
					    ns_to_ktime(ctx->active->timeout_left_ns));
			ret = HRTIMER_RESTART;
		}
	}
	raw_spin_unlock(&ctx->lock);
	return ret;
}

void pfm_timer_init(struct pfm_context *ctx)
{
	hrtimer_init(&ctx->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	ctx->timer.function = pfm_timer_fn;
}

/* A stale timer may outlive the set's leaving (pfm_timer_disarm()): gone at the end. */
void pfm_timer_exit(struct pfm_context *ctx)
{
	hrtimer_cancel(&ctx->timer);
}

/* Module exit: no context is left to mark a timer stale. */
void pfm_timer_resync_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct irq_work *w = per_cpu_ptr(&pfm_timer_resync_work, cpu);

		if (w->func)
			irq_work_sync(w);
	}
}
