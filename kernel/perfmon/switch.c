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
	if (pfm_set_times(set))
		set->timeout_left_ns -= min(d, set->timeout_left_ns);
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
	/* past the bit vectors no PMD has a switch count (rw.c) */
	pfm_for_each_reg(i, set->used_pmds, PFM_MAX_PMDS) {
		struct pfm_pmd *p = pfm_set_pmd(set, i);

		p->switch_left = p->ovfl_switch_cnt;
	}
	pfm_upage_refresh(ctx);
}

/*
 * The switch timeout runs on the thread's time, its hrtimer on the wall clock, and
 * the timer is left as it is when the thread leaves its CPU: the deadline then
 * moves on with the wall clock while the expiry stays, so the timer can come early,
 * never late.  Early on the live set, it moves itself on by what is left; with the
 * thread away, it stops, and the thread's next switch-in starts it.  A switch-in
 * keeps the timer it finds queued on its CPU unless its expiry has fallen behind
 * the deadline by more than 7/8 of the time left (pfm_timer_follow()): an early
 * interrupt costs more than a start, but only the ones that come so early are
 * avoided at that price; most switches make no timer call.
 *
 * ctx->timer_at_ns is the expiry on pfm_clock_ns()'s clock, set with the timer's;
 * the active set's timeout_left_ns is what was left at ctx->live_since_ns while it
 * is live, at its leaving otherwise.
 *
 * A stale timer (ctx->timer_stale) may be queued or running anywhere and does
 * nothing when it fires; the next start cancels it first.  A timer is stale where
 * it could not be cancelled: while a keyed hit is counted (hold.h), or while its
 * function runs on the CPU the thread left.  Then the CPU's resync irq_work starts
 * it afresh once the hit is behind, or the function has returned.
 */

/* Less than this left, the timeout is reached: a new expiry would come later still. */
#define PFM_TIMER_SLACK_NS	1000

static DEFINE_PER_CPU(struct irq_work, pfm_timer_resync_work);

static void pfm_timer_resync_fn(struct irq_work *work);

static void pfm_timer_resync_later(struct pfm_context *ctx)
{
	struct irq_work *w = this_cpu_ptr(&pfm_timer_resync_work);

	ctx->timer_stale = true;
	if (unlikely(!w->func))
		*w = IRQ_WORK_INIT_HARD(pfm_timer_resync_fn);
	irq_work_queue(w);
}

/* What is left at now of the live active set's timeout. */
static u64 pfm_timer_left(const struct pfm_context *ctx, u64 now)
{
	u64 d = pfm_ns_since(ctx->live_since_ns, now);
	u64 left = ctx->active->timeout_left_ns;

	return left > d ? left - d : 0;
}

/* Whether the timer is queued on this CPU: its function cannot be running anywhere. */
static __always_inline bool pfm_timer_queued_here(struct pfm_context *ctx)
{
	return hrtimer_is_queued(&ctx->timer) &&
	       READ_ONCE(ctx->timer.base)->cpu_base->cpu == smp_processor_id();
}

/*
 * Live here: the timer on this CPU for what is left of the active set's timeout.
 * One queued here is only moved; any other is cancelled first, which costs
 * nothing when it is neither queued nor running.
 */
static noinline void pfm_timer_start(struct pfm_context *ctx, u64 now)
{
	u64 left;
	int ret;

	if (pfm_timers_held()) {
		pfm_timer_resync_later(ctx);
		return;
	}
	if (ctx->timer_stale || !pfm_timer_queued_here(ctx)) {
		pfm_timer_call(ret = hrtimer_try_to_cancel(&ctx->timer));
		if (ret < 0) {
			/* its function runs where the thread was: it finds the timer stale */
			pfm_timer_resync_later(ctx);
			return;
		}
	}
	ctx->timer_stale = false;
	left = pfm_timer_left(ctx, now);
	ctx->timer_at_ns = now + left;
	pfm_timer_call(hrtimer_start(&ctx->timer, ns_to_ktime(left),
				     HRTIMER_MODE_REL_PINNED_HARD));
}

/*
 * The state leaves the CPU otherwise than by a context switch (a stop, a mask, a
 * switch of sets), or a stopped context's thread is away: no timer is wanted.
 */
void pfm_timer_stop(struct pfm_context *ctx)
{
	int ret;

	if (pfm_timers_held()) {
		ctx->timer_stale = true;
		return;
	}
	pfm_timer_call(ret = hrtimer_try_to_cancel(&ctx->timer));
	ctx->timer_stale = ret < 0;
}

/*
 * The active set goes live at now: the timer queued on this CPU is kept if it
 * comes no later than the deadline and no sooner than an eighth of the time left.
 */
static __always_inline void pfm_timer_follow(struct pfm_context *ctx, u64 now)
{
	u64 left = ctx->active->timeout_left_ns;
	s64 ahead = ctx->timer_at_ns - now;

	if (!pfm_set_times(ctx->active))
		return;
	if (likely(!ctx->timer_stale && pfm_timer_queued_here(ctx) &&
		   ahead <= (s64)left && ahead >= (s64)(left / 8)))
		return;
	pfm_timer_start(ctx, now);
}

/* Hard interrupt, a hit behind or a timer function returned: stale timers follow their sets. */
static void pfm_timer_resync_fn(struct irq_work *work __always_unused)
{
	unsigned int b;

	for (b = 0; b < 2; b++) {
		struct pfm_context *ctx = this_cpu_read(pfm_pmu_owner[b]);

		if (!ctx)
			continue;
		raw_spin_lock(&ctx->lock);
		if (ctx->timer_stale) {
			if (ctx->started && ctx->on_cpu == smp_processor_id() &&
			    pfm_set_times(ctx->active))
				pfm_timer_start(ctx, pfm_clock_ns());
			else
				pfm_timer_stop(ctx);
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
	pfm_timer_follow(ctx, now);
	/* Overflows that carried while the set was away are acted on now. */
	pfm_overflow_pending_locked(ctx);
}

/* A context switch (sched) leaves the timer be. */
static __always_inline void __pfm_live_out(struct pfm_context *ctx, u64 now, bool sched)
{
	struct pfm_event_set *set = ctx->active;

	if (!sched)
		pfm_timer_stop(ctx);
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
	__pfm_live_out(ctx, pfm_clock_ns(), false);
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
		__pfm_live_out(ctx, now, true);
	ctx->on_cpu = -1;
}

/*
 * While live: from the active set to next (which may be the same set, whose run
 * starts anew), the switch timer left alone.
 */
static void pfm_switch_sets(struct pfm_context *ctx, struct pfm_event_set *next)
{
	struct pfm_event_set *prev = ctx->active;
	u64 start = pfm_clock_ns(), now;

	if (next == prev) {
		pfm_live_account(ctx, prev, start);
		ctx->live_since_ns = start;
		pfm_set_activate(ctx, next);
		ctx->nr_switches++;
		return;
	}
	/* Durations cover what the counters saw: from enable to disable. */
	pfm_pmu_disable(ctx, start);
	pfm_live_account(ctx, prev, start);
	pfm_set_swap(prev, next);
	pfm_set_activate(ctx, next);
	ctx->nr_switches++;
	now = pfm_clock_ns();
	ctx->live_since_ns = now;
	pfm_pmu_enable(ctx, now);
	pfm_stat_add(set_switches, 1);
	pfm_stat_add(set_switch_ns, pfm_clock_ns() - start);
}

/* While live, outside the switch timer: the next set's timeout starts afresh. */
void pfm_switch_locked(struct pfm_context *ctx, struct pfm_event_set *next)
{
	pfm_switch_sets(ctx, next);
	if (pfm_set_times(ctx->active))
		pfm_timer_start(ctx, ctx->live_since_ns);
	else
		pfm_timer_stop(ctx);
}

/*
 * On the live set, the timeout reached or not, the timer moves itself on to what
 * is left; with the thread away, or stale, it stops.
 */
static enum hrtimer_restart pfm_timer_fn(struct hrtimer *timer)
{
	struct pfm_context *ctx = container_of(timer, struct pfm_context, timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	u64 now, left;

	raw_spin_lock(&ctx->lock);
	if (ctx->timer_stale || !ctx->started || ctx->on_cpu != smp_processor_id() ||
	    !pfm_set_times(ctx->active))
		goto out;
	now = pfm_clock_ns();
	left = pfm_timer_left(ctx, now);
	if (left < PFM_TIMER_SLACK_NS) {
		pfm_switch_sets(ctx, pfm_next_set(ctx, ctx->active));
		if (!pfm_set_times(ctx->active))
			goto out;
		now = ctx->live_since_ns;
		left = ctx->active->timeout_left_ns;
	}
	ctx->timer_at_ns = now + left;
	hrtimer_set_expires(timer, ktime_add_ns(hrtimer_cb_get_time(timer), left));
	ret = HRTIMER_RESTART;
out:
	raw_spin_unlock(&ctx->lock);
	return ret;
}

void pfm_timer_init(struct pfm_context *ctx)
{
	hrtimer_init(&ctx->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	ctx->timer.function = pfm_timer_fn;
}

/* A timer may outlive the set's leaving (a stale one, a switch out's): gone at the end. */
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
