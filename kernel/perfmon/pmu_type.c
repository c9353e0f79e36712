// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: contexts bound to one type of CPU (pmu_type.h).
 */
#include "internal.h"
#include "ctx.h"
#include "layer.h"
#include "pmu_type.h"
#include "sets.h"

int pfm_pmu_type_of_flags(u32 flags, u8 *type)
{
	const struct pfm_pmu_unit *u = pfm_pmu.typed;
	u32 id = (flags & PFM_FL_PMU_TYPE_MASK) >> PFM_FL_PMU_TYPE_SHIFT;
	unsigned int k;

	*type = 0;
	if (!u)
		return id ? -ENODEV : 0;
	if (!id) {
		/* a CPU session takes its CPU's type when it attaches */
		if (!(flags & PFM_FL_SYSTEM_WIDE))
			*type = 1;
		return 0;
	}
	for (k = 0; k < u->num_types; k++)
		if (u->types[k].id == id) {
			*type = k + 1;
			return 0;
		}
	return -ENODEV;
}

void pfm_ctx_every_type(struct pfm_context *ctx)
{
	if (!(ctx->flags & PFM_FL_SYSTEM_WIDE) && ctx->state == PFM_CTX_UNLOADED)
		ctx->pmu_type = 0;
}

static int pfm_pmu_type_check(unsigned int k, bool pmd, unsigned int num, u64 value)
{
	const struct pfm_pmu_unit *u = pfm_pmu.typed;
	const struct pfm_reg *r = pmd ? &pfm_pmu.pmd[num] : &pfm_pmu.pmc[num];
	const struct pfm_regdesc *d;

	if (r->unit != u)
		return 0;
	d = pmd ? &u->types[k].pmds[r->idx] : &u->types[k].pmcs[r->idx];
	if (!(d->type & PFM_REG_I))
		return -EINVAL;
	if (pmd)
		return 0;
	if (value & d->rsvd_msk)
		return -EINVAL;
	return u->type_pmc_check ? u->type_pmc_check(k, r->idx, value) : 0;
}

int pfm_pmu_type_check_reg(const struct pfm_context *ctx, bool pmd, unsigned int num,
			   u64 value)
{
	if (!ctx->pmu_type)
		return 0;
	return pfm_pmu_type_check(ctx->pmu_type - 1, pmd, num, value);
}

/* Every register a set of ctx uses exists on type k, with its value. */
static int pfm_pmu_type_check_sets(struct pfm_context *ctx, unsigned int k)
{
	struct pfm_event_set *set;
	unsigned int i;

	list_for_each_entry(set, &ctx->sets, list) {
		for_each_set_bit(i, set->used_pmcs, min_t(unsigned int, pfm_pmu.pmc_end, set->used_bits))
			if (pfm_pmu_type_check(k, false, i, *pfm_set_pmc(set, i)))
				return -EINVAL;
		for_each_set_bit(i, set->used_pmds, min_t(unsigned int, pfm_pmu.pmd_end, set->used_bits))
			if (pfm_pmu_type_check(k, true, i, 0))
				return -EINVAL;
	}
	return 0;
}

int pfm_pmu_type_attach_cpu(struct pfm_context *ctx, int cpu)
{
	const struct pfm_pmu_unit *u = pfm_pmu.typed;
	unsigned int k;
	int ret;

	if (!u)
		return 0;
	k = u->cpu_type(cpu);
	if (ctx->pmu_type)
		return ctx->pmu_type == k + 1 ? 0 : -EINVAL;
	ret = pfm_pmu_type_check_sets(ctx, k);
	if (ret)
		return ret;
	ctx->pmu_type = k + 1;
	ctx->pmu_type_at_attach = true;
	return 0;
}

void pfm_pmu_type_detach_cpu(struct pfm_context *ctx)
{
	if (!ctx->pmu_type_at_attach)
		return;
	ctx->pmu_type = 0;
	ctx->pmu_type_at_attach = false;
}

void pfm_pmu_type_avail(const struct pfm_context *ctx, unsigned long *pmcs,
			unsigned long *pmds)
{
	if (ctx->pmu_type)
		pfm_pmu_type_regs(ctx->pmu_type - 1, pmcs, pmds);
}

void pfm_pmu_type_regs(unsigned int k, unsigned long *pmcs, unsigned long *pmds)
{
	const struct pfm_pmu_unit *u = pfm_pmu.typed;
	const struct pfm_pmu_type *t = &u->types[k];
	unsigned int i;

	for (i = 0; i < u->num_pmcs; i++)
		if (!(t->pmcs[i].type & PFM_REG_I))
			__clear_bit(u->first_pmc + i, pmcs);
	for (i = 0; i < u->num_pmds; i++)
		if (!(t->pmds[i].type & PFM_REG_I))
			__clear_bit(u->first_pmd + i, pmds);
}
