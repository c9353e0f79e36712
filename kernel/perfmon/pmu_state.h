/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: moving a set between memory and the PMU (pmu_state.c).
 */
#ifndef _PERFMON_PMU_STATE_H
#define _PERFMON_PMU_STATE_H

#include "internal.h"
#include "ctx.h"
#include "sets.h"

/*
 * The contexts whose active sets are on this CPU's PMU, between enable and
 * disable: the running thread's ([false]) and the CPU's own ([true]), each on its
 * own bank of a unit counting into memory (pmu.h); and of them the one that
 * drives the hardware units, the one holding the hardware (res.c), if any.
 */
DECLARE_PER_CPU(struct pfm_context *, pfm_pmu_owner[2]);
DECLARE_PER_CPU(struct pfm_context *, pfm_pmu_hw_owner);

/*
 * The next bit set in map from start on, or n: find_next_bit() inline, for the
 * context switch, which walks a set's few registers in bitmaps of ~72 bits and
 * would otherwise pay an out-of-line call per register.
 */
static __always_inline unsigned int pfm_next_reg(const unsigned long *map, unsigned int n,
						 unsigned int start)
{
	unsigned int w = start / BITS_PER_LONG;
	unsigned long bits;

	if (start >= n)
		return n;
	bits = map[w] & (~0UL << (start % BITS_PER_LONG));
	while (!bits) {
		if (++w >= BITS_TO_LONGS(n))
			return n;
		bits = map[w];
	}
	start = w * BITS_PER_LONG + __ffs(bits);
	return start < n ? start : n;
}

#define pfm_for_each_reg(i, map, n)				\
	for ((i) = pfm_next_reg(map, n, 0); (i) < (n);		\
	     (i) = pfm_next_reg(map, n, (i) + 1))
/*
 * Whether any register the set uses moves at a switch: a set of software counters
 * alone (pmu.h, bind()) has nothing to save or restore.  Asked at every context
 * switch: where no unit has registers that move, it costs one test.
 */
static inline bool pfm_set_moves(const struct pfm_event_set *set)
{
	if (!pfm_pmu.any_moved)
		return false;
	return bitmap_intersects(set->used_pmcs, pfm_pmu.moved_pmcs, PFM_MAX_PMCS) ||
	       bitmap_intersects(set->used_pmds, pfm_pmu.moved_pmds, PFM_MAX_PMDS);
}

void pfm_set_restore(struct pfm_event_set *set);
void pfm_set_save(struct pfm_event_set *set);
void pfm_set_swap(struct pfm_event_set *from, struct pfm_event_set *to);
/*
 * Brings the 64-bit value up to date; true when it carried out of 64 bits.  Whoever
 * syncs first sees the carry, maybe before the unit reports the overflow: it is
 * marked pending and acted on by the overflow path, or when the set next goes live.
 * A unit counting into memory brings p->value itself up to date (the time of a
 * task clock), and leaves the carries it sees pending itself.  Inline for a read,
 * which syncs every PMD it reads; pfm_pmd_sync() elsewhere.
 */
static __always_inline bool __pfm_pmd_sync(struct pfm_event_set *set, unsigned int i)
{
	const struct pfm_reg *r = &pfm_pmu.pmd[i];
	struct pfm_pmd *p = pfm_set_pmd(set, i);
	u64 mask, hw, old;

	if (r->unit->bind) {
		r->unit->read_pmd(set->system_wide, r->idx);
		return false;
	}
	mask = pfm_pmd_ovfl_mask(r->desc);
	hw = r->unit->read_pmd(set->system_wide, r->idx) & mask;
	old = p->value;
	if (test_bit(i, set->no_emul64)) {
		p->value = hw;
		return false;
	}
	p->value += (hw - (old & mask)) & mask;
	if (p->value >= old)
		return false;
	__set_bit(i, set->ovfl_pending);
	set->ovfl_pending_any = true;
	return true;
}

bool pfm_pmd_sync(struct pfm_event_set *set, unsigned int i);
void pfm_pmd_load(struct pfm_event_set *set, unsigned int i);
void pfm_pmd_reload(struct pfm_event_set *set, unsigned int i);
/*
 * A set is live when it is the active set of a started context whose thread is on
 * this CPU: its values are then in the PMU, else in memory.
 */
static inline bool pfm_live(const struct pfm_context *ctx, const struct pfm_event_set *set)
{
	return ctx->started && set == ctx->active && ctx->on_cpu == smp_processor_id();
}

/*
 * Whether PMD i of the live set is where its unit counts: in its registers, or,
 * for a unit counting into memory, bound to it (not between a disable and the
 * next enable, where its value in memory is whole).
 */
static inline bool pfm_pmd_counting(const struct pfm_context *ctx, unsigned int i)
{
	return test_bit(i, pfm_pmu.moved_pmds) ||
	       this_cpu_read(pfm_pmu_owner[pfm_ctx_system_wide(ctx)]) == ctx;
}

/* pfm_pmd_value() when the caller knows the set's liveness (the counts page does). */
static inline u64 pfm_pmd_value_live(const struct pfm_context *ctx, struct pfm_event_set *set,
				     unsigned int i, bool live)
{
	if (live && pfm_set_uses_pmd(set, i) && pfm_pmd_counting(ctx, i))
		__pfm_pmd_sync(set, i);
	return pfm_set_pmd_read(set, i)->value;
}

/*
 * For a read of ctx's live set: the units counting into its memory, if bound to it
 * (not between a disable and the next enable, where its values are whole), bring
 * all of its PMDs up to date there.  Inline: a read asks it once per set.
 */
static inline void pfm_pmu_sync_bound(const struct pfm_context *ctx)
{
	bool system_wide = pfm_ctx_system_wide(ctx);

	if (this_cpu_read(pfm_pmu_owner[system_wide]) == ctx && pfm_pmu.sync_bound)
		pfm_pmu.sync_bound(system_wide);
}

/*
 * The active set goes live at time now: units count for it from here, the
 * hardware units only for a context holding the hardware (a session of the other
 * kind may be live on this CPU too, and must not have them stopped under it).
 * Inline: a context switch calls it, and a unit that counts into memory costs it
 * no more than its bind() and unbind() themselves.
 */
static __always_inline void pfm_pmu_enable(struct pfm_context *ctx, u64 now)
{
	bool system_wide = pfm_ctx_system_wide(ctx);
	unsigned int u;

	this_cpu_write(pfm_pmu_owner[system_wide], ctx);
	if (ctx->hw_held)
		this_cpu_write(pfm_pmu_hw_owner, ctx);
	for (u = 0; u < pfm_pmu.num_units; u++) {
		const struct pfm_pmu_unit *unit = pfm_pmu.units[u];

		if (unit->bind)
			unit->bind(ctx->active, system_wide, now);
		else if (ctx->hw_held)
			unit->enable(system_wide);
	}
}

static __always_inline void pfm_pmu_disable(struct pfm_context *ctx, u64 now)
{
	bool system_wide = pfm_ctx_system_wide(ctx);
	bool hw = this_cpu_read(pfm_pmu_hw_owner) == ctx;
	unsigned int u;

	for (u = 0; u < pfm_pmu.num_units; u++) {
		const struct pfm_pmu_unit *unit = pfm_pmu.units[u];

		if (unit->unbind)
			unit->unbind(system_wide, now);
		else if (hw)
			unit->disable(system_wide);
	}
	this_cpu_write(pfm_pmu_owner[system_wide], NULL);
	if (hw)
		this_cpu_write(pfm_pmu_hw_owner, NULL);
}

void pfm_pmu_hw_join_locked(struct pfm_context *ctx);

void pfm_pmc_update(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int i);
void pfm_set_pmcs_changed(struct pfm_event_set *set);

#endif /* _PERFMON_PMU_STATE_H */
