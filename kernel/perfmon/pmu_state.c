// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: moving a set's image between memory and the PMU, and 64-bit emulation.
 *
 * All functions here run with ctx->lock held, on the CPU the monitored thread runs on
 * when its state is live (see pfm_run_on_state()).  A set is live when it is the
 * active set of a started context whose thread is on this CPU; otherwise its values
 * are in memory.
 *
 * A unit that counts into memory (pmu.h, bind()) is the exception: its PMDs' values
 * are the set's own even while live, so nothing of it is saved or restored, and a
 * context switch only tells it where to count (pfm_pmu_enable()) and to stop
 * (pfm_pmu_disable()).  Only the registers in pfm_pmu.moved_pmcs/pmds move.
 *
 * 64-bit emulation: a PMD narrower than 64 bits is extended by adding, at each sync,
 * the hardware delta modulo its width to the 64-bit value, whose low bits are the
 * hardware value at the previous sync.  The PMU interrupt (hardware drivers) syncs
 * at least once per wrap, so no wrap is lost; a carry out of 64 bits is an overflow.
 */
#include "internal.h"
#include "ctx.h"
#include "sets.h"
#include "env.h"
#include "pmu_state.h"
#include "sw_pmu.h"

DEFINE_PER_CPU(struct pfm_context *, pfm_pmu_owner[2]);
DEFINE_PER_CPU(struct pfm_context *, pfm_pmu_hw_owner);

bool pfm_pmd_sync(struct pfm_event_set *set, unsigned int i)
{
	return __pfm_pmd_sync(set, i);
}

void pfm_pmd_load(struct pfm_event_set *set, unsigned int i)
{
	const struct pfm_reg *r = &pfm_pmu.pmd[i];
	struct pfm_pmd *p = pfm_set_pmd(set, i);
	u64 hw = p->value & pfm_pmd_ovfl_mask(r->desc);

	r->unit->write_pmd(set->system_wide, r->idx, hw);
}

/* After PMD i's overflow, its reset applied (ovfl.c): its time owed is kept. */
void pfm_pmd_reload(struct pfm_event_set *set, unsigned int i)
{
	const struct pfm_reg *r = &pfm_pmu.pmd[i];
	u64 hw = pfm_set_pmd(set, i)->value & pfm_pmd_ovfl_mask(r->desc);

	if (r->unit->reload_pmd)
		r->unit->reload_pmd(set->system_wide, r->idx, hw);
	else
		r->unit->write_pmd(set->system_wide, r->idx, hw);
}

static void pfm_pmc_load(struct pfm_event_set *set, unsigned int i)
{
	const struct pfm_reg *r = &pfm_pmu.pmc[i];

	r->unit->write_pmc(set->system_wide, r->idx, *pfm_set_pmc(set, i));
}

/*
 * The registers of the set that move at a switch: used, of a unit with registers,
 * all below PFM_MAX_PMCS and PFM_MAX_PMDS (pfm_check_unit()).
 */
static void pfm_set_moved(const struct pfm_event_set *set, unsigned long *pmcs,
			  unsigned long *pmds)
{
	bitmap_and(pmcs, set->used_pmcs, pfm_pmu.moved_pmcs, PFM_MAX_PMCS);
	bitmap_and(pmds, set->used_pmds, pfm_pmu.moved_pmds, PFM_MAX_PMDS);
}

/* Only the registers the set uses are written: the others are quiescent already. */
void pfm_set_restore(struct pfm_event_set *set)
{
	DECLARE_BITMAP(pmcs, PFM_MAX_PMCS);
	DECLARE_BITMAP(pmds, PFM_MAX_PMDS);
	unsigned int i;

	pfm_set_moved(set, pmcs, pmds);
	pfm_for_each_reg(i, pmcs, PFM_MAX_PMCS)
		pfm_pmc_load(set, i);
	pfm_for_each_reg(i, pmds, PFM_MAX_PMDS)
		pfm_pmd_load(set, i);
}

/* Leaves the PMU quiescent for whoever uses this CPU next. */
void pfm_set_save(struct pfm_event_set *set)
{
	DECLARE_BITMAP(pmcs, PFM_MAX_PMCS);
	DECLARE_BITMAP(pmds, PFM_MAX_PMDS);
	unsigned int i;

	pfm_set_moved(set, pmcs, pmds);
	pfm_for_each_reg(i, pmds, PFM_MAX_PMDS)
		pfm_pmd_sync(set, i);
	pfm_for_each_reg(i, pmcs, PFM_MAX_PMCS) {
		const struct pfm_reg *r = &pfm_pmu.pmc[i];

		r->unit->write_pmc(set->system_wide, r->idx, r->desc->dfl_val);
	}
}

/*
 * From one set to another while live: only the PMCs that differ are written, the
 * PMDs of the new set loaded.  The PMU is disabled around it by the caller.
 */
void pfm_set_swap(struct pfm_event_set *from, struct pfm_event_set *to)
{
	DECLARE_BITMAP(pmcs, PFM_MAX_PMCS);
	DECLARE_BITMAP(pmds, PFM_MAX_PMDS);
	DECLARE_BITMAP(to_pmcs, PFM_MAX_PMCS);
	unsigned int i, pmc_writes = 0;

	pfm_set_moved(from, pmcs, pmds);
	for_each_set_bit(i, pmds, PFM_MAX_PMDS)
		pfm_pmd_sync(from, i);
	pfm_set_moved(to, to_pmcs, pmds);
	bitmap_or(pmcs, pmcs, to_pmcs, PFM_MAX_PMCS);
	for_each_set_bit(i, pmcs, PFM_MAX_PMCS) {
		const struct pfm_reg *r = &pfm_pmu.pmc[i];
		u64 cur = test_bit(i, from->used_pmcs) ? *pfm_set_pmc(from, i) : r->desc->dfl_val;
		u64 want = test_bit(i, to->used_pmcs) ? *pfm_set_pmc(to, i) : r->desc->dfl_val;

		if (cur != want) {
			r->unit->write_pmc(to->system_wide, r->idx, want);
			pmc_writes++;
		}
	}
	for_each_set_bit(i, pmds, PFM_MAX_PMDS)
		pfm_pmd_load(to, i);
	pfm_stat_add(set_switch_pmc_writes, pmc_writes);
	pfm_stat_add(set_switch_pmd_writes, bitmap_weight(pmds, PFM_MAX_PMDS));
}

u64 pfm_pmd_value(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int i)
{
	return pfm_pmd_value_live(ctx, set, i, pfm_live(ctx, set));
}

void pfm_pmd_set_value(struct pfm_context *ctx, struct pfm_event_set *set,
		       unsigned int i, u64 value)
{
	pfm_set_pmd(set, i)->value = value;
	if (pfm_live(ctx, set) && pfm_pmd_counting(ctx, i))
		pfm_pmd_load(set, i);
}

/*
 * A value that replaces PMD i's: what the old value's carry had left to do (its
 * act at the next switch-in, its reset at a restart) is dropped with it, so that
 * no overflow is acted on for a value that never carried.
 */
void pfm_pmd_replace_value(struct pfm_context *ctx, struct pfm_event_set *set,
			   unsigned int i, u64 value)
{
	if (i < PFM_MAX_PMDS) {
		__clear_bit(i, set->restart_pmds);
		if (unlikely(test_bit(i, set->ovfl_pending))) {
			__clear_bit(i, set->ovfl_pending);
			set->ovfl_pending_any = !bitmap_empty(set->ovfl_pending, PFM_MAX_PMDS);
		}
	}
	pfm_pmd_set_value(ctx, set, i, value);
}

/*
 * A PMC the context already wrote (pfm_write_pmcs() checked its value) takes
 * another, where the state is (ctx->lock held): a layer that turns a counter on
 * and off in atomic context, at a context switch, flips its enable bit here.
 */
void pfm_pmc_set_value(struct pfm_context *ctx, struct pfm_event_set *set,
		       unsigned int i, u64 value)
{
	u64 was = pfm_set_pmc_val(set, i);

	/* a PMC no write reached has no slot in the set to change */
	if (WARN_ON_ONCE(pfm_pmu.pmc_slot[i] >= set->pmc_slots))
		return;
	/*
	 * The holds on a keyed event's source follow the writes (sw_keyed.c): a
	 * value changed in place that named another key would leave one source
	 * held by a value that is gone and the other put by a value it never held.
	 */
	if (WARN_ONCE(!pfm_sw_keyed_same(i, was, value),
		      "perfmon: PMC%u of set %u: %#llx in place of %#llx\n", i, set->id, value, was))
		return;
	*pfm_set_pmc(set, i) = value;
	pfm_pmc_update(ctx, set, i);
}

/*
 * Each change of a set's PMC values (its creation, every write: pfm_pmc_update())
 * gives them a number no other set's values ever had, so that a unit that copies
 * them at bind() knows its copy is current from one comparison (0: no number).
 */
static atomic_long_t pfm_pmcs_gen;

void pfm_set_pmcs_changed(struct pfm_event_set *set)
{
	set->pmcs_gen = atomic_long_inc_return(&pfm_pmcs_gen);
}

void pfm_pmc_update(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int i)
{
	pfm_set_pmcs_changed(set);
	if (pfm_live(ctx, set))
		pfm_pmc_load(set, i);
}

/*
 * A live context that has just taken the hardware (a write of one of its
 * registers, state.c) drives the hardware units from now on, with what the write
 * put there: they count without waiting for the next switch in, which for a CPU
 * session would never come.
 */
void pfm_pmu_hw_join_locked(struct pfm_context *ctx)
{
	unsigned int u;

	if (!ctx->hw_held || !pfm_live(ctx, ctx->active) ||
	    this_cpu_read(pfm_pmu_hw_owner) == ctx)
		return;
	this_cpu_write(pfm_pmu_hw_owner, ctx);
	for (u = 0; u < pfm_pmu.num_units; u++)
		if (!pfm_pmu.units[u]->bind)
			pfm_pmu.units[u]->enable(pfm_ctx_system_wide(ctx));
}
