/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: writing and reading registers (rw.c); ctx->mutex held but for a read.
 */
#ifndef _PERFMON_RW_H
#define _PERFMON_RW_H

#include "pmu_state.h"
#include "sets.h"
#include "layer.h"


#define PFM_PMDFL_ALL	(PFM_PMDFL_SMPL | PFM_PMDFL_SWITCH | PFM_PMDFL_OVFL_NOTIFY | \
			 PFM_PMDFL_RANDOM)

/* What a request's PMD number and flags must be, whatever the context. */
static __always_inline bool pfm_pmd_num_ok(unsigned int num)
{
	return num < PFM_NUM_PMDS && test_bit(num, pfm_pmu.impl_pmds);
}

/* the flags no PMD may have: none, or the request is EINVAL */
static __always_inline u32 pfm_pmd_flags_bad(u32 flags)
{
	return flags & ~PFM_PMDFL_ALL;
}

/* Vectors mostly name one set: the last one found (set, may be NULL) is asked first. */
static __always_inline struct pfm_event_set *pfm_vec_set(struct pfm_context *ctx,
							 struct pfm_event_set *set, u16 set_id)
{
	return set && set->id == set_id ? set : pfm_find_set(ctx, set_id);
}

/* A PMD of the live set that a unit counts in registers: a read syncs it first. */
static __always_inline bool pfm_pmd_in_register(const struct pfm_event_set *set,
						unsigned int i)
{
	return test_bit(i, pfm_pmu.moved_pmds) && test_bit(i, set->used_pmds);
}

/*
 * A set a read names, made ready for the answer: if it is live, the units counting
 * into its memory are synced.  Whether any of its PMDs may be in a
 * register: never for software counters alone.
 */
static __always_inline bool pfm_read_ready_set(struct pfm_context *ctx,
					       struct pfm_event_set *set)
{
	if (!pfm_live(ctx, set))
		return false;
	pfm_pmu_sync_bound(ctx);
	return pfm_set_moves(set);
}




#endif /* _PERFMON_RW_H */
