/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the software PMU's per-CPU banks (sw_pmu.c), shared with the task
 * clock's folds and carry timer (sw_clock.c).  Private to those two files.
 *
 * The bank's masks have a bit per counter, counter i at bit i % 64 of word
 * i / 64: the counters are PMD bits of whole words (pfm_sw_carried()), so a
 * mask's word is one u64 and a walk over one costs the bits it has set, not the
 * number of counters.  Only the words up to the last counter in use are walked
 * (nwords): a context of up to 64 software events walks one, as if the unit had
 * no more counters.
 */
#ifndef _PERFMON_SW_BANK_H
#define _PERFMON_SW_BANK_H

#include "internal.h"
#include "sets.h"
#include "sw_pmu.h"
#include "hold.h"

/*
 * Walks the counters in bits (a copy, cleared as it goes): the switch walks one
 * or two, where for_each_set_bit() searches again from each bit with its bounds.
 */
#define pfm_sw_for_each(i, bits)					\
	for (; (bits) && ((i) = __ffs(bits), 1); (bits) &= (bits) - 1)

#define PFM_SW_WORDS	(PFM_SW_NUM_COUNTERS / 64)
static_assert(PFM_SW_WORDS <= 16);	/* a bit per word in tick_words */

/* One word's masks, derived from pmc[] while enabled (pfm_sw_recount()). */
struct pfm_sw_masks {
	u64 counting[PFM_SW_EV_MAX + 1];	/* counters counting each event */
	u64 at_usr;			/* counters counting at user level */
	u64 at_os;			/* counters counting at kernel level */
	u64 switch_mask;		/* counters counting the thread's switches */
};

struct pfm_sw_bank {
	struct task_struct *owner;	/* thread whose events count, when enabled */
	bool enabled;
	bool system_wide;		/* the CPU bank: every thread's events count */
	bool stale;			/* pmc[] changed since the masks were derived */
	/* the words of in_use up to its last counter: the ones the masks have */
	u8 nwords;
	u8 mask_words;			/* the words m[] may have bits in */
	u16 tick_words;			/* words with a task-clock counter: bit w, word w */
	struct pfm_sw_masks m[PFM_SW_WORDS];
	/*
	 * Counters whose PMC is not 0: the masks come from these alone, and a bind
	 * compares these and the set's written ones, however many counters there are.
	 */
	u64 in_use[PFM_SW_WORDS];
	/*
	 * [PFM_SW_NUM_COUNTERS] each, allocated apart at init (pfm_sw_banks_init()):
	 * together they are more than a per-CPU allocation may be.
	 */
	u64 *pmc;
	u64 pmcs_gen;			/* the set values pmc[] holds, 0 if unknown */
	struct pfm_event_set *set;	/* bound: the live set, whose PMDs count */
	u64 *set_vals;			/* bound: its first PMD's value (pfm_sw_bind_to()) */
	u64 *own;			/* the PMDs when unbound */
	u64 *stamp;			/* task-clock counters: when they last folded */
	struct hrtimer timer;		/* the next carry of a task-clock counter */
	struct irq_work timer_work;	/* a held start or cancel, done after (sw_clock.c) */
	bool timer_ready;
	bool timer_armed;		/* started, not yet fired or cancelled */
	bool timer_held;		/* a start or cancel waits for timer_work */
	bool carry_held;		/* carries wait for timer_work (pfm_sw_carry_held()) */
	bool carry_acting;		/* timer_work is acting on held carries */
	bool carry_waiting;		/* carries wait for the next keyed hit */
	bool in_tick;			/* the timer's function runs: it restarts itself */
	u64 tick_next;			/* in_tick: ns to the restart, 0 for none */
};

#define PFM_SW_LEVELS	(PFM_SW_PMC_USR | PFM_SW_PMC_OS)

/* The event a PMC value counts: none without EN or a level. */
static inline unsigned int pfm_sw_event(u64 pmc)
{
	if (!(pmc & PFM_SW_PMC_EN) || !(pmc & PFM_SW_LEVELS))
		return PFM_SW_EV_NONE;
	return pmc & PFM_SW_PMC_EVENT_MASK;
}

/* sw_regs.c: the unit's registers and what a PMC value is allowed, needs and shows */
extern const struct pfm_regdesc pfm_sw_pmcs[PFM_SW_NUM_COUNTERS];
extern const struct pfm_regdesc pfm_sw_pmds[PFM_SW_NUM_COUNTERS];
int pfm_sw_pmc_check(unsigned int idx, u64 value);
u32 pfm_sw_pmc_needs(unsigned int idx, u64 value);
bool pfm_sw_pmd_in_page(unsigned int idx, u64 pmc_value);

/*
 * A CPU's banks, [false] the thread bank, [true] the CPU bank (system_wide):
 * allocated per CPU at init (pfm_sw_banks_init()), being too large for the
 * room a module has for static per-CPU data; their counters' arrays apart.
 */
struct pfm_sw_banks {
	struct pfm_sw_bank bank[2];
};

extern struct pfm_sw_banks __percpu *pfm_sw_banks;

static inline struct pfm_sw_bank *pfm_sw_bank(bool system_wide)
{
	return &this_cpu_ptr(pfm_sw_banks)->bank[system_wide];
}

/* The counters' values, counter i at [i * stride]: the bound set's, or the bank's own. */
#define PFM_SW_SET_STRIDE	(sizeof(struct pfm_pmd) / sizeof(u64))

static inline u64 *pfm_sw_vals(struct pfm_sw_bank *c, unsigned int *stride)
{
	*stride = c->set ? PFM_SW_SET_STRIDE : 1;
	return c->set ? c->set_vals : c->own;
}

/*
 * The bank counts into set's PMDs from here: their slots are contiguous (pmu.h),
 * the first one's found once rather than at every count.
 */
static inline void pfm_sw_bind_to(struct pfm_sw_bank *c, struct pfm_event_set *set)
{
	c->set = set;
	/*
	 * In integers: a set whose writes named no software counter may have no
	 * array, and then no counter counts into it.
	 */
	c->set_vals = (u64 *)((unsigned long)set->pmds + pfm_pmu.pmd_off[PFM_SW_FIRST_PMD] +
			      offsetof(struct pfm_pmd, value));
}

static inline u64 *pfm_sw_pmd(struct pfm_sw_bank *c, unsigned int i)
{
	unsigned int stride;
	u64 *vals = pfm_sw_vals(c, &stride);

	return &vals[i * stride];
}

/*
 * Carries of word w's counters that no overflow call reports (a fold at unbind,
 * while a read holds the owner's lock, or of a word past the first, which the
 * overflow call finds here): pending in the bound set, acted on by the core at
 * the set's overflow path or next switch-in.  The bank's PMDs are whole words
 * there.  A word past the bit vectors is a plain 64-bit wrap: told to nobody.
 * Whether any went pending.
 */
#define PFM_SW_BV_WORDS	(PFM_SW_BV_COUNTERS / 64)

static __always_inline bool pfm_sw_carried(struct pfm_sw_bank *c, unsigned int w, u64 ovfl)
{
	BUILD_BUG_ON(BITS_PER_LONG != 64 || PFM_SW_FIRST_PMD % 64 || PFM_SW_NUM_COUNTERS % 64);
	BUILD_BUG_ON(PFM_SW_FIRST_PMD + PFM_SW_BV_COUNTERS != PFM_MAX_PMDS);
	if (likely(!ovfl) || w >= PFM_SW_BV_WORDS)
		return false;
	if (c->set) {
		c->set->ovfl_pending[PFM_SW_FIRST_PMD / 64 + w] |= ovfl;
		c->set->ovfl_pending_any = true;
	}
	return true;
}

/* The task-clock counters of word w, which advance with time while the bank is enabled. */
static inline u64 pfm_sw_ticking_mask(const struct pfm_sw_bank *c, unsigned int w)
{
	return c->enabled ? c->m[w].counting[PFM_SW_EV_TASK_CLOCK] : 0;
}

/* The words with task-clock counters that tick (as pfm_sw_ticking_mask()). */
static inline unsigned long pfm_sw_ticking_words(const struct pfm_sw_bank *c)
{
	return c->enabled ? c->tick_words : 0;
}

/* Whether task clocks of words past the first tick: the rare case, out of line. */
static inline bool pfm_sw_ticking_later(const struct pfm_sw_bank *c)
{
	return unlikely(pfm_sw_ticking_words(c) > 1);
}

/*
 * Adds the time since the last fold to task-clock counter i, whose value is *v.  A
 * switch out's time may be older than the last fold (pfm_ns_since()): nothing is
 * added, and the stamp stays.  Returns its carry as a bit of its word.
 */
static __always_inline u64 __pfm_sw_fold(struct pfm_sw_bank *c, u64 *v, unsigned int i,
					 u64 now)
{
	u64 d = pfm_ns_since(c->stamp[i], now);

	if (unlikely(!d))
		return 0;
	*v += d;
	c->stamp[i] = now;
	return *v < d ? 1ULL << (i % 64) : 0;
}

/* sw_clock.c: the task clock's folds and its carry timer */
u64 pfm_sw_fold(struct pfm_sw_bank *c, unsigned int i, u64 now);
void pfm_sw_arm(struct pfm_sw_bank *c, u64 now);
void __pfm_sw_disarm(struct pfm_sw_bank *c);

/*
 * A keyed hit inside one of the core's timer calls carried (hold.h): ovfl, the
 * first word's carries (the others' are pending already).
 */
void pfm_sw_carry_held(struct pfm_sw_bank *c, u64 ovfl);

static __always_inline void pfm_sw_disarm(struct pfm_sw_bank *c)
{
	if (unlikely(c->timer_armed))
		__pfm_sw_disarm(c);
}

#endif /* _PERFMON_SW_BANK_H */
