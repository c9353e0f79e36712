// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: event sets, the software image of the whole PMU.
 */
#include "internal.h"

/* A fresh set holds every PMC at its quiescent value and every PMD at zero. */
struct pfm_event_set *pfm_set_alloc(u16 id)
{
	struct pfm_event_set *set;
	unsigned int i;

	set = kzalloc(sizeof(*set), GFP_KERNEL);
	if (!set)
		return NULL;
	set->id = id;
	INIT_LIST_HEAD(&set->list);
	set->pmcs = kcalloc(max(pfm_pmu.num_pmc_slots, 1U), sizeof(*set->pmcs), GFP_KERNEL);
	set->pmds = kcalloc(max(pfm_pmu.num_pmd_slots, 1U), sizeof(*set->pmds), GFP_KERNEL);
	if (!set->pmcs || !set->pmds) {
		pfm_set_free(set);
		return NULL;
	}
	for_each_set_bit(i, pfm_pmu.impl_pmcs, pfm_pmu.num_pmc_slots)
		set->pmcs[i] = pfm_pmu.pmc[i].desc->dfl_val;
	return set;
}

void pfm_set_free(struct pfm_event_set *set)
{
	if (!set)
		return;
	kfree(set->pmcs);
	kfree(set->pmds);
	kfree(set);
}

struct pfm_event_set *pfm_find_set(struct pfm_context *ctx, u16 id)
{
	struct pfm_event_set *set;

	list_for_each_entry(set, &ctx->sets, list) {
		if (set->id == id)
			return set;
		if (set->id > id)
			break;
	}
	return NULL;
}

void pfm_free_sets(struct pfm_context *ctx)
{
	struct pfm_event_set *set, *tmp;

	list_for_each_entry_safe(set, tmp, &ctx->sets, list) {
		list_del(&set->list);
		pfm_set_free(set);
	}
}
