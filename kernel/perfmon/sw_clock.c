// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the software PMU's task clock (PFM_SW_EV_TASK_CLOCK), which advances
 * with time rather than at events: the time owed to a counter is folded into its
 * PMD where it is read, stopped or switched (sw_pmu.c), and a timer on the bank's
 * CPU makes a sampling one carry on time.
 */
#include "internal.h"
#include "ctx.h"
#include "env.h"
#include "pmu_state.h"
#include "sw_bank.h"

static bool pfm_sw_ticking(const struct pfm_sw_bank *c, unsigned int i)
{
	return (pfm_sw_ticking_mask(c, i / 64) >> (i % 64)) & 1;
}

/* Adds the time since the last fold to a running task-clock counter: its carry. */
u64 pfm_sw_fold(struct pfm_sw_bank *c, unsigned int i, u64 now)
{
	if (!pfm_sw_ticking(c, i))
		return 0;
	return __pfm_sw_fold(c, pfm_sw_pmd(c, i), i, now);
}

/*
 * A task-clock counter carries with time, not at an event: a timer on the bank's
 * CPU fires when the nearest one would, so that a sampling PMD (written at
 * -period, reset to -period by the core) overflows on time, as perf's
 * hrtimer-driven clock events do.  Only counters within 2^62 ns of their carry
 * arm it: counting ones start at 0 and never do.
 */
#define PFM_SW_TIMER_HORIZON	(1ULL << 62)

/*
 * The timer is pinned to the bank's CPU and fires in hard interrupt context there,
 * and the bank is touched there with interrupts off: timer_armed is exact, and a
 * context switch of a thread without a task-clock carry near pays no cancel.
 */
static void pfm_sw_timer_workfn(struct irq_work *work);

/* The bank's irq_work, set up at its first need (a held carry needs no timer). */
static void pfm_sw_work_queue(struct pfm_sw_bank *c)
{
	if (unlikely(!c->timer_work.func))
		c->timer_work = IRQ_WORK_INIT_HARD(pfm_sw_timer_workfn);
	irq_work_queue(&c->timer_work);
}

/* Held: the timer is made to agree with the bank by its irq_work, after. */
static __always_inline bool pfm_sw_timers_held(struct pfm_sw_bank *c)
{
	if (!pfm_timers_held())
		return false;
	c->timer_held = true;
	pfm_sw_work_queue(c);
	return true;
}

static void __pfm_sw_cancel(struct pfm_sw_bank *c)
{
	if (c->in_tick)
		c->tick_next = 0;
	else
		pfm_timer_call(hrtimer_try_to_cancel(&c->timer));
	c->timer_armed = false;
}

noinline void __pfm_sw_disarm(struct pfm_sw_bank *c)
{
	if (!pfm_sw_timers_held(c))
		__pfm_sw_cancel(c);
}

static enum hrtimer_restart pfm_sw_tick(struct hrtimer *t);

/*
 * At time now: a task clock's PMD holds its count up to its stamp, and the
 * time since is owed to it (a reload keeps it owing, pfm_sw_reload_pmd()).
 */
static void __pfm_sw_arm(struct pfm_sw_bank *c, u64 now)
{
	unsigned long words = pfm_sw_ticking_words(c);
	u64 next = PFM_SW_TIMER_HORIZON;
	unsigned int i, w;

	pfm_sw_for_each(w, words) {
		unsigned long ticking = pfm_sw_ticking_mask(c, w);

		pfm_sw_for_each(i, ticking) {
			u64 v = *pfm_sw_pmd(c, w * 64 + i), ahead = v + (now - c->stamp[w * 64 + i]);

			if ((s64)v < 0 && (s64)ahead >= 0)
				next = 1;		/* the carry is already owed */
			else if (ahead && -ahead < next)
				next = -ahead;
		}
	}
	if (next < PFM_SW_TIMER_HORIZON) {
		next = max_t(u64, next, 1);
		/* from its own function, the timer is put back by returning RESTART */
		if (c->in_tick)
			c->tick_next = next;
		else
			pfm_timer_call(hrtimer_start(&c->timer, ns_to_ktime(next),
							HRTIMER_MODE_REL_PINNED_HARD));
		c->timer_armed = true;
	} else if (c->timer_armed) {
		__pfm_sw_cancel(c);
	}
}

/* The timer is set up at the bank's first need of it. */
noinline void pfm_sw_arm(struct pfm_sw_bank *c, u64 now)
{
	if (!c->timer_ready) {
		pfm_timer_call(hrtimer_init(&c->timer, CLOCK_MONOTONIC,
					       HRTIMER_MODE_REL_PINNED_HARD));
		c->timer.function = pfm_sw_tick;
		c->timer_ready = true;
	}
	if (!pfm_sw_timers_held(c))
		__pfm_sw_arm(c, now);
}

/*
 * A keyed hit inside one of the core's timer calls carried: the carries wait in
 * the set, and the irq_work takes them to the overflow path once the call and
 * its caller's lock are behind.  What that path's own timer calls carry in turn
 * waits for the next hit, or the set's next overflow path or switch in: a counter
 * of the timers' tracepoints whose carries switch sets or re-arm a timer would
 * otherwise feed itself for good.
 */
void pfm_sw_carry_held(struct pfm_sw_bank *c, u64 ovfl)
{
	pfm_sw_carried(c, 0, ovfl);
	if (c->carry_acting) {
		c->carry_waiting = true;
		return;
	}
	c->carry_held = true;
	pfm_sw_work_queue(c);
}

/*
 * Hard interrupt on the bank's CPU, after a held start or cancel, or a held
 * carry.  The timer is made to agree with the bank as it is now, whatever came
 * in between.  Only a held call re-arms here: the carries' resets re-arm for
 * themselves, and a counter that carries at each hit of the timer's own
 * tracepoints would otherwise bring the irq_work back for good.
 */
static void pfm_sw_timer_workfn(struct irq_work *work)
{
	struct pfm_sw_bank *c = container_of(work, struct pfm_sw_bank, timer_work);

	if (c->carry_held) {
		c->carry_held = false;
		c->carry_acting = true;
		if (c->enabled)
			pfm_pmu_bank_overflow_at(&pfm_sw_unit, c->system_wide, 0, NULL);
		c->carry_acting = false;
	}
	if (!c->timer_held)
		return;
	c->timer_held = false;
	if (c->enabled)
		__pfm_sw_arm(c, pfm_clock_ns());
	else if (c->timer_armed)
		__pfm_sw_cancel(c);
}

/*
 * Hard interrupt on the bank's CPU: the owner is the thread it interrupted.  An
 * arm made meanwhile (the overflow's resets, or the fold's own) sets the next
 * expiry, which the return puts the timer back at, as perf's hrtimer clocks do:
 * no second start, base lock and reprogramming of the CPU's clock event for it.
 */
static enum hrtimer_restart pfm_sw_tick(struct hrtimer *t)
{
	struct pfm_sw_bank *c = container_of(t, struct pfm_sw_bank, timer);
	unsigned long words = pfm_sw_ticking_words(c);
	u64 now = pfm_clock_ns(), ovfl = 0;
	struct pfm_ovfl_where at;
	bool more = false;
	unsigned int i, w;

	c->timer_armed = false;
	if (!c->enabled)
		return HRTIMER_NORESTART;
	/* the first word's carries go with the call, the others' pending in the set */
	pfm_sw_for_each(w, words) {
		unsigned long ticking = pfm_sw_ticking_mask(c, w);
		u64 o = 0;

		pfm_sw_for_each(i, ticking)
			o |= pfm_sw_fold(c, w * 64 + i, now);
		if (w)
			pfm_sw_carried(c, w, o);
		else
			ovfl = o;
		more |= w && o;
	}
	c->in_tick = true;
	c->tick_next = 0;
	/* a clock's sample is where the timer found the CPU, as perf's hrtimer's */
	if (ovfl || more)
		pfm_pmu_bank_overflow_at(&pfm_sw_unit, c->system_wide, ovfl, /* resets re-arm */
					 pfm_irq_where(&at) ? &at : NULL);
	else
		pfm_sw_arm(c, now);
	c->in_tick = false;
	if (!c->tick_next)
		return HRTIMER_NORESTART;
	hrtimer_set_expires(t, ktime_add_ns(hrtimer_cb_get_time(t), c->tick_next));
	return HRTIMER_RESTART;
}

/* Module exit: no bank is enabled any more, no timer can be rearmed. */
void pfm_sw_timers_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct pfm_sw_bank *c = per_cpu_ptr(pfm_sw_banks, cpu)->bank;
		unsigned int b;

		for (b = 0; b < 2; b++) {
			if (c[b].timer_work.func)
				irq_work_sync(&c[b].timer_work);
			if (c[b].timer_ready)
				hrtimer_cancel(&c[b].timer);
		}
	}
}
