// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the software-event PMU.
 *
 * Each CPU has two banks of PMCs selecting an event and 64-bit PMDs: the thread
 * bank, for the per-thread session of the thread running there, and the CPU bank,
 * for the CPU's own session.  Events are counted into the banks of the CPU they
 * happen on: the thread bank's if the thread that owns it caused them, the CPU
 * bank's whoever did, each as if it were alone (an event of a monitored thread
 * on a monitored CPU counts in both), so their counts are exact, and each bank's
 * carries go to its own session.  The bank's PMDs are the live set's own values in memory (pmu.h,
 * bind()): at a context switch nothing moves, the bank is only pointed at the set
 * going live (bind) and stopped (unbind), and a read finds the values where the
 * hooks put them.  The PMCs are copied into the bank at bind, and the event masks
 * derived from them again only when they differ from the last set's: a thread
 * alone on its CPU finds its own there.  Unbound (driven through its unit
 * operations alone), the bank counts into PMDs of its own.
 */
#include "internal.h"
#include "ctx.h"
#include "sets.h"
#include "env.h"
#include "pmu_state.h"
#include "sw_bank.h"
#include "upage.h"

#define N	PFM_SW_NUM_COUNTERS

struct pfm_sw_banks __percpu *pfm_sw_banks;

/* After pfm_sw_timers_exit(): no bank counts, no timer or work of one is left. */
void pfm_sw_banks_exit(void)
{
	unsigned int cpu, b;

	if (!pfm_sw_banks)
		return;
	for_each_possible_cpu(cpu) {
		for (b = 0; b < 2; b++) {
			struct pfm_sw_bank *c = &per_cpu_ptr(pfm_sw_banks, cpu)->bank[b];

			kfree(c->pmc);
			kfree(c->own);
			kfree(c->stamp);
		}
	}
	free_percpu(pfm_sw_banks);
	pfm_sw_banks = NULL;
}

/* The banks, zeroed, and each one's counters' arrays (8 KiB each, of the CPU's node). */
int pfm_sw_banks_init(void)
{
	unsigned int cpu, b;

	pfm_sw_banks = alloc_percpu(struct pfm_sw_banks);
	if (!pfm_sw_banks)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		for (b = 0; b < 2; b++) {
			struct pfm_sw_bank *c = &per_cpu_ptr(pfm_sw_banks, cpu)->bank[b];
			int node = cpu_to_node(cpu);

			c->pmc = kcalloc_node(N, sizeof(u64), GFP_KERNEL, node);
			c->own = kcalloc_node(N, sizeof(u64), GFP_KERNEL, node);
			c->stamp = kcalloc_node(N, sizeof(u64), GFP_KERNEL, node);
			if (!c->pmc || !c->own || !c->stamp) {
				pfm_sw_banks_exit();
				return -ENOMEM;
			}
		}
	}
	return 0;
}

/*
 * Threads moved onto each CPU while it has a CPU session: a migration is seen on the
 * CPU that moves the thread, so it is counted here and folded into the destination's
 * bank on that CPU (pfm_sw_fold_migrations()).
 */
static DEFINE_PER_CPU(atomic_long_t, pfm_sw_migrations_in);

/* The level an event has when its cause does not say otherwise (perfmon_sw.h). */
static const u64 pfm_sw_own_level[PFM_SW_EV_MAX + 1] = {
	[PFM_SW_EV_TASK_CLOCK]		= PFM_SW_LEVELS,
	[PFM_SW_EV_CTX_SWITCHES]	= PFM_SW_LEVELS,
	[PFM_SW_EV_CPU_MIGRATIONS]	= PFM_SW_LEVELS,
	[PFM_SW_EV_PAGE_FAULTS]		= PFM_SW_PMC_USR,
	[PFM_SW_EV_SYSCALLS]		= PFM_SW_PMC_USR,
};

/* The counters of word w that count an event at level (PFM_SW_PMC_USR/OS). */
static u64 pfm_sw_level_mask(const struct pfm_sw_bank *c, u64 level, unsigned int w)
{
	return ((level & PFM_SW_PMC_USR) ? c->m[w].at_usr : 0) |
	       ((level & PFM_SW_PMC_OS) ? c->m[w].at_os : 0);
}

/* pmc[i] takes value: in_use follows it, the masks wait for pfm_sw_recount(). */
static void pfm_sw_set_pmc(struct pfm_sw_bank *c, unsigned int i, u64 value)
{
	unsigned int w = i / 64;

	c->pmc[i] = value;
	if (value)
		c->in_use[w] |= 1ULL << (i % 64);
	else
		c->in_use[w] &= ~(1ULL << (i % 64));
	if (value && w >= c->nwords)
		c->nwords = w + 1;
	while (c->nwords > 1 && !c->in_use[c->nwords - 1])
		c->nwords--;
}

/*
 * A PMC of 0 counts nothing: only the counters in use have a bit to derive, and
 * only the words that had masks or have counters are cleared.
 */
static void pfm_sw_recount(struct pfm_sw_bank *c)
{
	unsigned int i, w;

	/* one word, the most frequent, in a clear of known size */
	if (likely(max(c->mask_words, c->nwords) <= 1))
		memset(c->m, 0, sizeof(c->m[0]));
	else
		memset(c->m, 0, max(c->mask_words, c->nwords) * sizeof(c->m[0]));
	c->mask_words = c->nwords;
	c->tick_words = 0;
	for (w = 0; w < c->nwords; w++) {
		struct pfm_sw_masks *m = &c->m[w];
		u64 used = c->in_use[w];

		pfm_sw_for_each(i, used) {
			u64 bit = 1ULL << i, pmc = c->pmc[w * 64 + i];

			m->counting[pfm_sw_event(pmc)] |= bit;
			if (pmc & PFM_SW_PMC_USR)
				m->at_usr |= bit;
			if (pmc & PFM_SW_PMC_OS)
				m->at_os |= bit;
		}
		m->counting[PFM_SW_EV_NONE] = 0;
		m->switch_mask = m->counting[PFM_SW_EV_CTX_SWITCHES] &
			pfm_sw_level_mask(c, pfm_sw_own_level[PFM_SW_EV_CTX_SWITCHES], w);
		if (m->counting[PFM_SW_EV_TASK_CLOCK])
			c->tick_words |= 1U << w;
	}
	c->stale = false;
}

/* Whether the bank's owner has a counts page to follow (the test, inline). */
static __always_inline bool pfm_sw_page_mapped(const struct pfm_sw_bank *c)
{
	struct pfm_context *ctx = this_cpu_read(pfm_pmu_owner[c->system_wide]);

	return ctx && READ_ONCE(ctx->upage);
}

/*
 * Adds n to the counters of word w in mask; returns their carries.  The owner's
 * counts page follows (upage.c): software counts are 64-bit, so the bank's value
 * is the PMD's.
 */
static __always_inline u64 pfm_sw_add_mask(struct pfm_sw_bank *c, unsigned int w,
					   unsigned long mask, u64 n)
{
	unsigned long changed;
	unsigned int i, stride;
	u64 ovfl = 0, *vals;

	if (!mask)
		return 0;
	vals = pfm_sw_vals(c, &stride);
	vals += w * 64 * stride;
	changed = mask;
	pfm_sw_for_each(i, mask) {
		u64 *v = &vals[i * stride];

		*v += n;
		if (unlikely(*v < n))
			ovfl |= 1ULL << i;
	}
	/* the page takes the words it has room for (pfm_upage_publish()) */
	if (pfm_sw_page_mapped(c))
		pfm_upage_publish(c->system_wide, PFM_SW_FIRST_PMD + w * 64, vals, stride,
				  changed);
	return ovfl;
}

/* Of the counters of word w in mask, those whose PMC has key (keyed events, perfmon_sw.h). */
static noinline unsigned long pfm_sw_key_mask(const struct pfm_sw_bank *c, unsigned int w,
					      unsigned long mask, u32 key)
{
	unsigned long keep = 0;
	unsigned int i;

	pfm_sw_for_each(i, mask)
		if (PFM_SW_PMC_KEY(c->pmc[w * 64 + i]) == key)
			keep |= 1UL << i;
	return keep;
}

/* Adds n to word w's counters of event (of key, if keyed), at level; returns the carries. */
static __always_inline u64 pfm_sw_add_word(struct pfm_sw_bank *c, unsigned int w,
					   unsigned int event, u64 n, u64 level, u32 key)
{
	unsigned long mask = c->m[w].counting[event] & pfm_sw_level_mask(c, level, w);

	if (unlikely(event >= PFM_SW_EV_TRACEPOINT) && mask)
		mask = pfm_sw_key_mask(c, w, mask, key);
	return pfm_sw_add_mask(c, w, mask, n);
}

/*
 * The words past the first, in a bank with counters there: their carries go
 * pending in the bound set at once, where the overflow call that the first
 * word's would make finds them (pfm_sw_carried()).  Whether any went pending.
 */
static noinline bool pfm_sw_add_more(struct pfm_sw_bank *c, unsigned int event, u64 n,
				     u64 level, u32 key)
{
	bool carried = false;
	unsigned int w;

	for (w = 1; w < c->nwords; w++) {
		u64 ovfl = pfm_sw_add_word(c, w, event, n, level, key);

		carried |= pfm_sw_carried(c, w, ovfl);
	}
	return carried;
}

/*
 * Adds n to the counters of event (of key, if keyed), at level; returns the first
 * word's carries, and in *more whether the other words' carried (pending in the
 * set already): either way the caller's overflow call acts on them.  A bank of
 * no more than 64 counters in use pays one compare for the words it lacks.
 */
static __always_inline u64 pfm_sw_add(struct pfm_sw_bank *c, unsigned int event, u64 n,
				      u64 level, u32 key, bool *more)
{
	u64 ovfl = pfm_sw_add_word(c, 0, event, n, level, key);

	if (unlikely(c->nwords > 1) && pfm_sw_add_more(c, event, n, level, key))
		*more = true;
	return ovfl;
}

/*
 * On the bank's CPU, interrupts off.  Carries are left to the caller (the first
 * word's returned, the others' pending, *more set): where a lock of the owner is
 * held (a read, a disable) the core's sync finds them itself.
 */
static noinline u64 __pfm_sw_fold_migrations(struct pfm_sw_bank *c, bool *more)
{
	long n;

	n = atomic_long_xchg(this_cpu_ptr(&pfm_sw_migrations_in), 0);
	if (!n)
		return 0;
	return pfm_sw_add(c, PFM_SW_EV_CPU_MIGRATIONS, n,
			  pfm_sw_own_level[PFM_SW_EV_CPU_MIGRATIONS], 0, more);
}

static __always_inline u64 pfm_sw_fold_migrations(struct pfm_sw_bank *c, bool *more)
{
	/* per-thread banks count their own thread's moves, at no atomic's cost here */
	if (likely(!c->enabled || !c->system_wide))
		return 0;
	return __pfm_sw_fold_migrations(c, more);
}

/*
 * A set moved on or off the bank at a context switch goes through here register
 * by register with the bank disabled: then only the register is stored, and
 * enable() derives the event masks (nothing reads them while disabled) and stamps
 * every counter, once for the whole set.  The clock is read only where a counter
 * ticks.
 */
static void pfm_sw_write_pmc(bool system_wide, unsigned int i, u64 value)
{
	struct pfm_sw_bank *c = pfm_sw_bank(system_wide);
	u64 now;

	c->pmcs_gen = 0;
	if (!c->enabled) {
		c->stale |= c->pmc[i] != value;
		pfm_sw_set_pmc(c, i, value);
		return;
	}
	now = pfm_clock_ns();
	pfm_sw_carried(c, i / 64, pfm_sw_fold(c, i, now));
	c->stamp[i] = now;
	pfm_sw_set_pmc(c, i, value);
	pfm_sw_recount(c);
	pfm_sw_arm(c, now);
}

static void pfm_sw_write_pmd(bool system_wide, unsigned int i, u64 value)
{
	struct pfm_sw_bank *c = pfm_sw_bank(system_wide);

	*pfm_sw_pmd(c, i) = value;
	if (c->enabled) {
		c->stamp[i] = pfm_clock_ns();
		pfm_sw_arm(c, c->stamp[i]);
	}
}

/*
 * The stamp stays: the time since the carry's fold is counted from value on.  The
 * timer waits for the task clocks alone: another counter's reset leaves it be.
 */
static void pfm_sw_reload_pmd(bool system_wide, unsigned int i, u64 value)
{
	struct pfm_sw_bank *c = pfm_sw_bank(system_wide);

	*pfm_sw_pmd(c, i) = value;
	if (pfm_sw_ticking_mask(c, i / 64) & (1ULL << (i % 64)))
		pfm_sw_arm(c, pfm_clock_ns());
}

/*
 * The time since their last fold to the task clocks of word w in ticking (not 0),
 * at time now: their carries.
 */
static __always_inline u64 pfm_sw_fold_ticking(struct pfm_sw_bank *c, unsigned int w,
					       unsigned long ticking, u64 now)
{
	unsigned int i, stride;
	u64 ovfl = 0, *vals;

	vals = pfm_sw_vals(c, &stride);
	vals += w * 64 * stride;
	pfm_sw_for_each(i, ticking)
		ovfl |= __pfm_sw_fold(c, &vals[i * stride], w * 64 + i, now);
	return ovfl;
}

/* The later words' part of pfm_sw_fold_all(). */
static noinline void pfm_sw_fold_later(struct pfm_sw_bank *c, u64 now)
{
	unsigned long words = pfm_sw_ticking_words(c) & ~1UL;
	unsigned int w;

	pfm_sw_for_each(w, words)
		pfm_sw_carried(c, w, pfm_sw_fold_ticking(c, w, pfm_sw_ticking_mask(c, w), now));
}

/*
 * The time owed to every ticking task clock, at time now, left pending in the
 * set: the first word's inline, as if the unit had no more.
 */
static __always_inline void pfm_sw_fold_all(struct pfm_sw_bank *c, u64 now)
{
	unsigned long ticking = pfm_sw_ticking_mask(c, 0);

	if (ticking)
		pfm_sw_carried(c, 0, pfm_sw_fold_ticking(c, 0, ticking, now));
	if (pfm_sw_ticking_later(c))
		pfm_sw_fold_later(c, now);
}

/*
 * What is owed to the counters of word w in ticking (task clocks; all of them if
 * every), at one reading of the clock, and to a CPU session's migration counters.
 */
static noinline void pfm_sw_fold_owed(struct pfm_sw_bank *c, unsigned int w,
				      unsigned long ticking, bool every)
{
	bool more = false;
	u64 now;

	pfm_sw_carried(c, 0, pfm_sw_fold_migrations(c, &more));
	if (every ? !pfm_sw_ticking_words(c) : !ticking)
		return;
	now = pfm_clock_ns();
	if (every)
		pfm_sw_fold_all(c, now);
	else
		pfm_sw_carried(c, w, pfm_sw_fold_ticking(c, w, ticking, now));
}

/* A count of events is whole where it is: only time and arrivals are owed to it. */
static u64 pfm_sw_read_pmd(bool system_wide, unsigned int i)
{
	struct pfm_sw_bank *c = pfm_sw_bank(system_wide);
	unsigned long ticking = pfm_sw_ticking_mask(c, i / 64) & (1UL << (i % 64));

	if (c->system_wide || ticking)
		pfm_sw_fold_owed(c, i / 64, ticking, false);
	return *pfm_sw_pmd(c, i);
}

/*
 * A read of counts of events finds nothing owed: it pays for a look at two fields.
 * A task clock of a thread's bank is folded here, with no call but the clock's: a
 * read of one is the task clock's most frequent use.
 */
static void pfm_sw_sync(bool system_wide)
{
	struct pfm_sw_bank *c = pfm_sw_bank(system_wide);

	if (unlikely(c->system_wide))
		pfm_sw_fold_owed(c, 0, 0, true);
	else if (pfm_sw_ticking_words(c))
		pfm_sw_fold_all(c, pfm_clock_ns());
}

/* Stamps the task clocks of words past the first at now; the OR of their values. */
static noinline u64 pfm_sw_stamp_later(struct pfm_sw_bank *c, u64 now)
{
	unsigned long words = c->tick_words & ~1UL;
	unsigned int i, w, stride;
	u64 *vals = pfm_sw_vals(c, &stride), tops = 0;

	pfm_sw_for_each(w, words) {
		unsigned long ticking = c->m[w].counting[PFM_SW_EV_TASK_CLOCK];

		pfm_sw_for_each(i, ticking) {
			c->stamp[w * 64 + i] = now;
			tops |= vals[(w * 64 + i) * stride];
		}
	}
	return tops;
}

/*
 * The bank counts from time now (read by the caller only if a task clock ticks).
 * A task clock below 2^63 is more than 2^63 ns from its carry, beyond the timer's
 * horizon (counting ones, from 0): the values are looked at as they are stamped,
 * and the carry timer is worked out only when one of them has its top bit set
 * (a sampling one, written at -period).
 */
static void pfm_sw_start(struct pfm_sw_bank *c, bool system_wide, u64 now)
{
	unsigned long ticking = c->m[0].counting[PFM_SW_EV_TASK_CLOCK];
	unsigned int i, stride;
	u64 *vals = pfm_sw_vals(c, &stride), tops = 0;

	pfm_sw_for_each(i, ticking) {
		c->stamp[i] = now;
		tops |= vals[i * stride];
	}
	if (unlikely(c->tick_words > 1))
		tops |= pfm_sw_stamp_later(c, now);
	/* what moved here before the session was enabled is not its business */
	if (unlikely(system_wide))
		atomic_long_set(this_cpu_ptr(&pfm_sw_migrations_in), 0);
	c->owner = current;
	c->system_wide = system_wide;
	c->enabled = true;
	/*
	 * The timer counts from the clock's present, and now may be a switch's
	 * stamp from the past (the pick): the time since is taken off the wait.
	 */
	if (unlikely((s64)tops < 0))
		pfm_sw_arm(c, pfm_clock_ns());
	else
		pfm_sw_disarm(c);
}

/* Only the task-clock counters read the clock: a bank without one does not. */
static void pfm_sw_enable(bool system_wide)
{
	struct pfm_sw_bank *c = pfm_sw_bank(system_wide);

	if (c->stale)
		pfm_sw_recount(c);
	pfm_sw_start(c, system_wide, c->tick_words ? pfm_clock_ns() : 0);
}

/*
 * The set goes live here: its PMCs are copied in only if they differ from the
 * bank's, its PMDs count in place.  The same thread back on its CPU finds its own
 * there, which the values' number tells (pfm_set_pmcs_changed()); otherwise only
 * the counters that either side uses are compared: those the bank has in use,
 * and those the set's PMC writes named (its word of used_pmcs: a PMC no write
 * named holds its default, 0), so that a set of a few counters binds as cheaply
 * however many the unit has.
 */
static noinline void pfm_sw_bind_pmcs(struct pfm_sw_bank *c, struct pfm_event_set *set,
				      bool system_wide, u64 now)
{
	/* the set's writes named no software PMC past its arrays (set_room.c) */
	int named = (int)set->pmc_slots - pfm_pmu.pmc_slot[PFM_SW_FIRST_PMC];
	unsigned int i, w, words = c->nwords;
	u64 look, v;

	BUILD_BUG_ON(PFM_SW_FIRST_PMC % BITS_PER_LONG || N % BITS_PER_LONG);
	if (named > 0)
		words = max_t(unsigned int, words, min((named + 63) / 64, PFM_SW_WORDS));
	for (w = 0; w < words; w++) {
		look = c->in_use[w];
		/* the set's bitmap may stop at the bit vectors' end (sets.h) */
		if ((PFM_SW_FIRST_PMC / BITS_PER_LONG + w) * BITS_PER_LONG < set->used_bits)
			look |= set->used_pmcs[PFM_SW_FIRST_PMC / BITS_PER_LONG + w];
		pfm_sw_for_each(i, look) {
			/* the bank's counters in use may be past the set's arrays */
			v = pfm_set_pmc_val(set, PFM_SW_FIRST_PMC + w * 64 + i);
			if (c->pmc[w * 64 + i] != v) {
				pfm_sw_set_pmc(c, w * 64 + i, v);
				c->stale = true;
			}
		}
	}
	c->pmcs_gen = set->pmcs_gen;
	if (c->stale)
		pfm_sw_recount(c);
	pfm_sw_bind_to(c, set);
	pfm_sw_start(c, system_wide, now);
}

/*
 * Where the state is: set's arrays were replaced (set_room.c); a bank counting
 * into them counts into the new ones from here.
 */
void pfm_sw_set_moved(struct pfm_event_set *set)
{
	struct pfm_sw_bank *c = pfm_sw_bank(set->system_wide);

	if (c->set == set)
		pfm_sw_bind_to(c, set);
}

/* Its own PMCs found in the bank, the bind makes no call but the start's. */
static void pfm_sw_bind(struct pfm_event_set *set, bool system_wide, u64 now)
{
	struct pfm_sw_bank *c = pfm_sw_bank(system_wide);

	if (unlikely(!set->pmcs_gen || c->pmcs_gen != set->pmcs_gen || c->stale)) {
		pfm_sw_bind_pmcs(c, set, system_wide, now);
		return;
	}
	pfm_sw_bind_to(c, set);
	pfm_sw_start(c, system_wide, now);
}

/*
 * Folds what is owed up to now and stops counting; the carries are left pending
 * in the set.  plain: the caller knows there are no migrations to fold and no
 * timer to cancel (a per-thread bank at a context switch), and the stop makes no
 * call.
 */
static __always_inline void __pfm_sw_stop(struct pfm_sw_bank *c, u64 now, bool plain)
{
	bool more = false;

	if (!plain)
		pfm_sw_carried(c, 0, pfm_sw_fold_migrations(c, &more));
	pfm_sw_fold_all(c, now);
	c->enabled = false;
	c->owner = NULL;
	if (!plain)
		pfm_sw_disarm(c);
}

static noinline void pfm_sw_stop(struct pfm_sw_bank *c, u64 now)
{
	__pfm_sw_stop(c, now, false);
}

static void pfm_sw_disable(bool system_wide)
{
	struct pfm_sw_bank *c = pfm_sw_bank(system_wide);

	pfm_sw_stop(c, pfm_sw_ticking_words(c) ? pfm_clock_ns() : 0);
}

/*
 * The set's values are whole in memory once the carries are pending there.  A
 * per-thread bank without a timer armed (a context switch, most often) stops
 * without a call.
 */
static void pfm_sw_unbind(bool system_wide, u64 now)
{
	struct pfm_sw_bank *c = pfm_sw_bank(system_wide);

	if (unlikely(c->system_wide || c->timer_armed))
		pfm_sw_stop(c, now);
	else
		__pfm_sw_stop(c, now, true);
	c->set = NULL;
}

/* The banks an event counts in (__pfm_sw_count()). */
#define PFM_SW_TO_THREAD	0x1	/* the thread bank, if its owner caused it */
#define PFM_SW_TO_CPU		0x2	/* the CPU bank, whoever caused it */
#define PFM_SW_HOLD_TIMERS	0x4	/* a keyed hit: under any lock of the caller's (hold.h) */

/* Whether a bank of to is enabled on this CPU (the test, inline). */
static __always_inline bool pfm_sw_any_enabled(unsigned int to)
{
	return ((to & PFM_SW_TO_THREAD) && this_cpu_read(pfm_sw_banks->bank[0].enabled)) ||
	       ((to & PFM_SW_TO_CPU) && this_cpu_read(pfm_sw_banks->bank[1].enabled));
}

/*
 * Carries of an event counted in c: to the core's overflow path, or, for a keyed
 * hit inside one of the core's own timer calls, held (hold.h).
 */
static __always_inline void pfm_sw_overflow(struct pfm_sw_bank *c, bool system_wide, u64 ovfl,
					    const struct pfm_ovfl_where *at, unsigned int to)
{
	if (!(to & PFM_SW_HOLD_TIMERS)) {
		pfm_pmu_bank_overflow_at(&pfm_sw_unit, system_wide, ovfl, at);
	} else if (pfm_timers_busy()) {
		pfm_sw_carry_held(c, ovfl);
	} else {
		c->carry_waiting = false;
		pfm_pmu_bank_overflow_hit(&pfm_sw_unit, system_wide, ovfl, at);
	}
}

/* A keyed hit takes the overflow path for carries left waiting (pfm_sw_carry_held()). */
static __always_inline bool pfm_sw_carry_waits(const struct pfm_sw_bank *c, unsigned int to)
{
	return (to & PFM_SW_HOLD_TIMERS) && unlikely(c->carry_waiting);
}

/*
 * Called where the event happens, in the thread that caused it, never with an
 * owner's ctx->lock held (a wrap calls the core's overflow path, which takes it).
 * Interrupts are off so that a cross-CPU call reading or writing a bank cannot
 * split an update.  The thread bank's carries reach the thread's session before
 * the CPU bank's reach the CPU's: two sessions, two locks, taken one at a time.
 * An event the CPU bank alone sees (a switch) brings it the threads moved onto
 * the CPU since the last one.
 */
static void __pfm_sw_count(unsigned int event, u64 n, u64 level, unsigned int to,
			   const struct pfm_ovfl_where *at, u32 key)
{
	struct pfm_sw_bank *c;
	unsigned long flags;
	bool more;
	u64 ovfl;

	if (!pfm_sw_any_enabled(to))
		return;
	local_irq_save(flags);
	if (to & PFM_SW_HOLD_TIMERS)
		pfm_timers_hold();
	c = pfm_sw_bank(false);
	if ((to & PFM_SW_TO_THREAD) && c->enabled && c->owner == current) {
		more = false;
		ovfl = pfm_sw_add(c, event, n, level, key, &more);
		if (ovfl || unlikely(more) || pfm_sw_carry_waits(c, to))
			pfm_sw_overflow(c, false, ovfl, at, to);
	}
	c = pfm_sw_bank(true);
	if ((to & PFM_SW_TO_CPU) && c->enabled) {
		more = false;
		ovfl = pfm_sw_add(c, event, n, level, key, &more);
		if (!(to & PFM_SW_TO_THREAD))
			ovfl |= pfm_sw_fold_migrations(c, &more);
		if (ovfl || unlikely(more) || pfm_sw_carry_waits(c, to))
			pfm_sw_overflow(c, true, ovfl, at, to);
	}
	if (to & PFM_SW_HOLD_TIMERS)
		pfm_timers_unhold();
	local_irq_restore(flags);
}

/* An event of the current thread: its session's, and the CPU session's. */
void pfm_sw_count(unsigned int event, u64 n)
{
	__pfm_sw_count(event, n, pfm_sw_own_level[event], PFM_SW_TO_THREAD | PFM_SW_TO_CPU,
		       NULL, 0);
}

/*
 * A keyed event's hit (layer.h), in the thread that caused it, counted as any other
 * event of that thread: its carries take the same overflow path.  The hit comes
 * from wherever its tracepoint or breakpoint is, with whatever locks are held
 * there: the carry timer waits until they are not.
 */
void pfm_sw_count_keyed(unsigned int event, u32 key, u64 n, u64 level,
			const struct pfm_ovfl_where *at)
{
	if (WARN_ON_ONCE(!pfm_sw_keyed(event)))
		return;
	__pfm_sw_count(event, n, level & PFM_SW_LEVELS,
		       PFM_SW_TO_THREAD | PFM_SW_TO_CPU | PFM_SW_HOLD_TIMERS, at, key);
}

/*
 * An event of the per-thread session's own (its thread's migration, seen as it
 * comes in): a CPU session counts arrivals its own way (pfm_sw_migration_to()).
 */
void pfm_sw_count_thread(unsigned int event, u64 n)
{
	__pfm_sw_count(event, n, pfm_sw_own_level[event], PFM_SW_TO_THREAD, NULL, 0);
}

/* The switch counters of words past the first; whether any carried (pending). */
static noinline bool pfm_sw_switch_out_later(struct pfm_sw_bank *c)
{
	bool carried = false;
	unsigned int w;

	for (w = 1; w < c->nwords; w++) {
		u64 ovfl = pfm_sw_add_mask(c, w, c->m[w].switch_mask, 1);

		carried |= pfm_sw_carried(c, w, ovfl);
	}
	return carried;
}

/*
 * A per-thread session's own switch out, from its hook in the scheduler, where
 * interrupts are off already: counted as pfm_sw_count_thread() would, without
 * saving and restoring them.  A CPU session counts switches from the scheduler's
 * tracepoint (pfm_sw_count_cpu()).
 */
void pfm_sw_count_switch_out(void)
{
	struct pfm_sw_bank *c = pfm_sw_bank(false);
	bool more = false;
	u64 ovfl;

	if (!c->enabled || c->owner != current)
		return;
	ovfl = pfm_sw_add_mask(c, 0, c->m[0].switch_mask, 1);
	if (unlikely(c->nwords > 1))
		more = pfm_sw_switch_out_later(c);
	if (ovfl || unlikely(more))
		pfm_pmu_bank_overflow_at(&pfm_sw_unit, false, ovfl, NULL);
}

/*
 * Events seen from the CPU's side only (a switch): they count for CPU sessions, and
 * the threads moved onto this CPU since the last switch are counted with them.
 */
void pfm_sw_count_cpu(unsigned int event, u64 n)
{
	__pfm_sw_count(event, n, pfm_sw_own_level[event], PFM_SW_TO_CPU, NULL, 0);
}

/*
 * A fault at the instruction at says: at its own level (user), or the kernel's
 * on the thread's behalf (copy_to_user).  Its address is kept on this CPU for a sampling format that
 * records it (perf's PERF_SAMPLE_ADDR): set before the count, read by the overflow
 * path under it.  Tracepoint probes run with preemption off, so the CPU is ours.
 */
static DEFINE_PER_CPU(unsigned long, pfm_sw_addr);

void pfm_sw_count_fault(unsigned long addr, const struct pfm_ovfl_where *at)
{
	this_cpu_write(pfm_sw_addr, addr);
	__pfm_sw_count(PFM_SW_EV_PAGE_FAULTS, 1,
		       at->kernel ? PFM_SW_PMC_OS : pfm_sw_own_level[PFM_SW_EV_PAGE_FAULTS],
		       PFM_SW_TO_THREAD | PFM_SW_TO_CPU, at, 0);
	this_cpu_write(pfm_sw_addr, 0);
}

/* The address of the event whose overflow is being handled, 0 if it has none. */
u64 pfm_sw_event_addr(void)
{
	return this_cpu_read(pfm_sw_addr);
}

/* A thread is being moved onto cpu (from any CPU, runqueue locks held). */
void pfm_sw_migration_to(int cpu)
{
	struct pfm_sw_bank *c = &per_cpu_ptr(pfm_sw_banks, cpu)->bank[true];

	if (READ_ONCE(c->enabled))
		atomic_long_inc(per_cpu_ptr(&pfm_sw_migrations_in, cpu));
}

const struct pfm_pmu_unit pfm_sw_unit = {
	.name = "software",
	.first_pmc = PFM_SW_FIRST_PMC,
	.first_pmd = PFM_SW_FIRST_PMD,
	.num_pmcs = N,
	.num_pmds = N,
	.pmcs = pfm_sw_pmcs,
	.pmds = pfm_sw_pmds,
	.pmc_check = pfm_sw_pmc_check,
	.write_pmc = pfm_sw_write_pmc,
	.write_pmd = pfm_sw_write_pmd,
	.reload_pmd = pfm_sw_reload_pmd,
	.read_pmd = pfm_sw_read_pmd,
	.enable = pfm_sw_enable,
	.disable = pfm_sw_disable,
	.bind = pfm_sw_bind,
	.unbind = pfm_sw_unbind,
	.sync = pfm_sw_sync,
	.get = pfm_sw_hooks_get,
	.put = pfm_sw_hooks_put,
	.pmc_needs = pfm_sw_pmc_needs,
	.pmd_in_page = pfm_sw_pmd_in_page,
	.needs_get = pfm_sw_needs_get,
	.needs_put = pfm_sw_needs_put,
};
