// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: counter overflows.
 *
 * A unit reports that counters overflowed at their hardware width; the core syncs
 * them and acts on the ones that carried out of 64 bits (an overflow always means a
 * 64-bit overflow): reset to the short reset value (what was counted past the
 * overflow is kept), count down the set-switch thresholds, switch.  A carry seen
 * first by another sync (a read, a save) is pending until then (pfm_pmd_sync()).
 */
#include "internal.h"
#include "stats.h"

/* Acts on the pending 64-bit overflows of the live active set. */
void pfm_overflow_pending_locked(struct pfm_context *ctx)
{
	struct pfm_event_set *set = ctx->active;
	DECLARE_BITMAP(ovfl, PFM_MAX_PMDS);
	bool do_switch = false;
	unsigned int i;

	if (bitmap_empty(set->ovfl_pending, PFM_MAX_PMDS))
		return;
	bitmap_copy(ovfl, set->ovfl_pending, PFM_MAX_PMDS);
	bitmap_zero(set->ovfl_pending, PFM_MAX_PMDS);
	for_each_set_bit(i, ovfl, pfm_pmu.num_pmd_slots) {
		struct pfm_pmd *p = &set->pmds[i];

		p->value += p->short_reset;
		p->last_reset_val = p->short_reset;
		pfm_pmd_load(set, i);
		if ((set->flags & PFM_SETFL_OVFL_SWITCH) && (p->flags & PFM_PMDFL_SWITCH) &&
		    p->switch_left && !--p->switch_left)
			do_switch = true;
	}
	pfm_stat_add(overflows, bitmap_weight(ovfl, PFM_MAX_PMDS));
	bitmap_copy(set->ovfl_pmds, ovfl, PFM_MAX_PMDS);
	if (do_switch)
		pfm_switch_locked(ctx, pfm_next_set(ctx, set));
}

void pfm_overflow_locked(struct pfm_context *ctx, const struct pfm_pmu_unit *unit, u64 bits)
{
	struct pfm_event_set *set = ctx->active;
	unsigned int b;

	for (b = 0; bits; b++, bits >>= 1) {
		unsigned int i = unit->first_pmd + b;

		if ((bits & 1) && test_bit(i, set->used_pmds))
			pfm_pmd_sync(set, i);
	}
	pfm_overflow_pending_locked(ctx);
}

void pfm_pmu_overflow(const struct pfm_pmu_unit *unit, u64 bits)
{
	struct pfm_context *ctx = this_cpu_read(pfm_pmu_owner);

	/* Live state cannot leave this CPU while its interrupts are off. */
	if (!ctx)
		return;
	raw_spin_lock(&ctx->lock);
	if (ctx->started && ctx->on_cpu == smp_processor_id())
		pfm_overflow_locked(ctx, unit, bits);
	raw_spin_unlock(&ctx->lock);
}
