/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: moving a set between memory and the PMU (pmu_state.c).
 */
#ifndef _PERFMON_PMU_STATE_H
#define _PERFMON_PMU_STATE_H

#include "internal.h"

DECLARE_PER_CPU(struct pfm_context *, pfm_pmu_owner);

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
 * alone (pmu.h, bind()) has nothing to save or restore.
 */
static inline bool pfm_set_moves(const struct pfm_event_set *set)
{
	return bitmap_intersects(set->used_pmcs, pfm_pmu.moved_pmcs, pfm_pmu.num_pmc_slots) ||
	       bitmap_intersects(set->used_pmds, pfm_pmu.moved_pmds, pfm_pmu.num_pmd_slots);
}

void pfm_set_restore(struct pfm_event_set *set);
void pfm_set_save(struct pfm_event_set *set);
void pfm_set_swap(struct pfm_event_set *from, struct pfm_event_set *to);
bool pfm_pmd_sync(struct pfm_event_set *set, unsigned int i);
void pfm_pmd_load(struct pfm_event_set *set, unsigned int i);
void pfm_pmu_enable(struct pfm_context *ctx, u64 now);
void pfm_pmu_disable(u64 now);
u64 pfm_pmd_value(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int i);
void pfm_pmd_set_value(struct pfm_context *ctx, struct pfm_event_set *set,
		       unsigned int i, u64 value);
void pfm_pmc_update(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int i);

#endif /* _PERFMON_PMU_STATE_H */
