// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: a set's arrays, as long as the registers its writes name reach.
 *
 * A context of a few events would otherwise hold a slot for every register the
 * PMU implements, in each of its sets.  A set starts with none; a write that
 * names a register past them makes new arrays that reach it (and, for a PMC, the
 * PMDs it controls), copies the old ones in and puts them in place where the
 * state is, under ctx->lock, so that a unit counting into the set's memory (the
 * software bank) moves with them.  The readers of a register a set's arrays do
 * not reach get its quiescent value (sets.h).  A write that first names a
 * register past the ABI's bit vectors (a software counter past PMD 319) gives
 * the set bitmaps of used registers that cover every register.
 */
#include "internal.h"
#include "ctx.h"
#include "env.h"
#include "sets.h"
#include "sw_pmu.h"

const struct pfm_pmd pfm_pmd_none;

/* New arrays for one set, made before the visit that puts them in. */
struct pfm_set_room {
	struct pfm_event_set *set;
	unsigned int pmc_slots, pmd_slots;
	u64 *pmcs;
	struct pfm_pmd *pmds;
	struct pfm_pmd_opts *opts;
	unsigned long *used;		/* [2 * PFM_USED_WORDS]: PMCs', then PMDs' */
};

static void pfm_set_room_free(struct pfm_set_room *r)
{
	kfree(r->pmcs);
	kfree(r->pmds);
	kfree(r->opts);
	kfree(r->used);
}

/*
 * Whether PMD slots reach past the bit vectors.  The registers there are the
 * software counters, each PMC with its PMD, so the PMDs tell for both.
 */
static bool pfm_set_room_past_bv(const struct pfm_event_set *set, unsigned int pmd_slots)
{
	return set->used_bits < PFM_NUM_PMDS && pmd_slots &&
	       pfm_pmu.slot_pmd[pmd_slots - 1] >= PFM_MAX_PMDS;
}

/*
 * The arrays that grow, the PMCs copied in and the slots past them quiescent.
 * The PMCs do not change meanwhile: only under ctx->mutex (the writes, held
 * here); the PMDs may (a unit counting into them): they are copied in
 * pfm_set_room_swap().
 */
static int pfm_set_room_alloc(struct pfm_set_room *r)
{
	struct pfm_event_set *set = r->set;
	bool pmds = r->pmd_slots > set->pmd_slots;
	bool used = pfm_set_room_past_bv(set, r->pmd_slots);
	unsigned int s;

	if (r->pmc_slots > set->pmc_slots)
		r->pmcs = kmalloc_array(r->pmc_slots, sizeof(*r->pmcs), GFP_KERNEL);
	if (pmds)
		r->pmds = kcalloc(r->pmd_slots, sizeof(*r->pmds), GFP_KERNEL);
	if (pmds && set->opts)
		r->opts = kcalloc(r->pmd_slots, sizeof(*r->opts), GFP_KERNEL);
	if (used)
		r->used = kcalloc(2 * PFM_USED_WORDS, sizeof(*r->used), GFP_KERNEL);
	if ((r->pmc_slots > set->pmc_slots && !r->pmcs) || (pmds && !r->pmds) ||
	    (pmds && set->opts && !r->opts) ||
	    (used && !r->used)) {
		pfm_set_room_free(r);
		return -ENOMEM;
	}
	for (s = 0; r->pmcs && s < r->pmc_slots; s++)
		r->pmcs[s] = s < set->pmc_slots ? set->pmcs[s] : pfm_pmu.dfl_pmcs[s];
	return 0;
}

/*
 * Where the state is, ctx->lock held: the new arrays in, the old ones left in r
 * to free.  The PMCs change only under ctx->mutex, and were copied already.
 */
static void pfm_set_room_swap(struct pfm_context *ctx __always_unused, void *arg)
{
	struct pfm_set_room *r = arg;
	struct pfm_event_set *set = r->set;
	u64 *pmcs = set->pmcs;
	struct pfm_pmd *pmds = set->pmds;
	struct pfm_pmd_opts *opts = set->opts;

	if (r->pmcs) {
		set->pmcs = r->pmcs;
		set->pmc_slots = r->pmc_slots;
		r->pmcs = pmcs;
	}
	if (r->used) {
		/* the bits change only under ctx->mutex, held by the write */
		bitmap_copy(r->used, set->used_pmcs, set->used_bits);
		bitmap_copy(r->used + PFM_USED_WORDS, set->used_pmds, set->used_bits);
		set->used_pmcs = r->used;
		set->used_pmds = r->used + PFM_USED_WORDS;
		set->used_bits = PFM_NUM_PMDS;
		/* the set keeps it (pfm_set_free()) */
		r->used = NULL;
	}
	if (!r->pmds)
		return;
	if (pmds)
		memcpy(r->pmds, pmds, set->pmds_bytes);
	set->pmds = r->pmds;
	r->pmds = pmds;
	if (opts) {
		memcpy(r->opts, opts, set->pmd_slots * sizeof(*opts));
		set->opts = r->opts;
		r->opts = opts;
	}
	set->pmd_slots = r->pmd_slots;
	set->pmds_bytes = r->pmd_slots * sizeof(struct pfm_pmd);
	pfm_sw_set_moved(set);
}

/* Gives set at least pmc_slots and pmd_slots slots. */
static int pfm_set_room(struct pfm_context *ctx, struct pfm_event_set *set,
			unsigned int pmc_slots, unsigned int pmd_slots)
{
	struct pfm_set_room r = {
		.set = set,
		.pmc_slots = max_t(unsigned int, pmc_slots, set->pmc_slots),
		.pmd_slots = max_t(unsigned int, pmd_slots, set->pmd_slots),
	};
	int ret;

	if (r.pmc_slots == set->pmc_slots && r.pmd_slots == set->pmd_slots)
		return 0;
	ret = pfm_set_room_alloc(&r);
	if (ret)
		return ret;
	pfm_run_on_state(ctx, pfm_set_room_swap, &r);
	pfm_set_room_free(&r);
	return 0;
}

/* The slots PMC i needs: its own, and those of the PMDs it controls. */
static void pfm_pmc_reach(unsigned int i, unsigned int *pmc_slots, unsigned int *pmd_slots)
{
	unsigned int pmd;

	*pmc_slots = max(*pmc_slots, pfm_pmu.pmc_slot[i] + 1U);
	for (pmd = pfm_pmu.pmc[i].dep_pmd; pmd != PFM_NO_REG; pmd = pfm_pmu.pmd[pmd].dep_pmd)
		*pmd_slots = max(*pmd_slots, pfm_pmu.pmd_slot[pmd] + 1U);
}

/* Whether set's arrays reach PMC i and the PMDs it controls, or PMD i (pmc false). */
static bool pfm_set_reaches(const struct pfm_event_set *set, bool pmc, unsigned int i)
{
	unsigned int pmcs = 0, pmds = 0;

	if (pmc)
		pfm_pmc_reach(i, &pmcs, &pmds);
	else
		pmds = pfm_pmu.pmd_slot[i] + 1U;
	return pmcs <= set->pmc_slots && pmds <= set->pmd_slots;
}

/*
 * A set the arrays of which do not reach a register is given, at once, room for
 * every register the rest of the vector names in it: most vectors name one set,
 * and after its first writes, registers it reaches.
 */
static int pfm_sets_room(struct pfm_context *ctx, const void *vec, size_t size,
			 unsigned int n, bool pmc)
{
	unsigned int k, j, pmcs, pmds;
	struct pfm_event_set *set;
	int ret;

#define PFM_REQ(k)	((const struct pfarg_pmc *)(vec + (k) * size))
	BUILD_BUG_ON(offsetof(struct pfarg_pmc, reg_num) != offsetof(struct pfarg_pmd, reg_num) ||
		     offsetof(struct pfarg_pmc, reg_set) != offsetof(struct pfarg_pmd, reg_set));
	for (k = 0; k < n; k++) {
		set = pfm_find_set(ctx, PFM_REQ(k)->reg_set);
		if (pfm_set_reaches(set, pmc, PFM_REQ(k)->reg_num))
			continue;
		pmcs = 0;
		pmds = 0;
		for (j = k; j < n; j++) {
			unsigned int i = PFM_REQ(j)->reg_num;

			if (PFM_REQ(j)->reg_set != set->id)
				continue;
			if (pmc)
				pfm_pmc_reach(i, &pmcs, &pmds);
			else
				pmds = max(pmds, pfm_pmu.pmd_slot[i] + 1U);
		}
		ret = pfm_set_room(ctx, set, pmcs, pmds);
		if (ret)
			return ret;
	}
#undef PFM_REQ
	return 0;
}

int pfm_sets_room_pmcs(struct pfm_context *ctx, const struct pfarg_pmc *req, unsigned int n)
{
	return pfm_sets_room(ctx, req, sizeof(*req), n, true);
}

int pfm_sets_room_pmds(struct pfm_context *ctx, const struct pfarg_pmd *req, unsigned int n)
{
	return pfm_sets_room(ctx, req, sizeof(*req), n, false);
}
