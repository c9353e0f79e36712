/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: moving a set between memory and the PMU (pmu_state.c).
 */
#ifndef _PERFMON_PMU_STATE_H
#define _PERFMON_PMU_STATE_H

#include "internal.h"

DECLARE_PER_CPU(struct pfm_context *, pfm_pmu_owner);
void pfm_set_restore(struct pfm_event_set *set);
void pfm_set_save(struct pfm_event_set *set);
void pfm_set_swap(struct pfm_event_set *from, struct pfm_event_set *to);
bool pfm_pmd_sync(struct pfm_event_set *set, unsigned int i);
void pfm_pmd_load(struct pfm_event_set *set, unsigned int i);
void pfm_pmu_enable(struct pfm_context *ctx);
void pfm_pmu_disable(void);
u64 pfm_pmd_value(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int i);
void pfm_pmd_set_value(struct pfm_context *ctx, struct pfm_event_set *set,
		       unsigned int i, u64 value);
void pfm_pmc_update(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int i);

#endif /* _PERFMON_PMU_STATE_H */
