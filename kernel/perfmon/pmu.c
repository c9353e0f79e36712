// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: building the logical register map from the PMU units.
 */
#include "internal.h"
#include "sets.h"
#include "pmu.h"

struct pfm_pmu pfm_pmu;

static int pfm_check_unit(const struct pfm_pmu_unit *u)
{
	unsigned int i;

	if (u->first_pmc + u->num_pmcs > PFM_NUM_PMCS ||
	    u->first_pmd + u->num_pmds > PFM_NUM_PMDS)
		return -EINVAL;
	/* registers that move at a switch are below the end of the bit vectors (pmu_state.c) */
	if (!u->bind && (u->first_pmc + u->num_pmcs > PFM_MAX_PMCS ||
			 u->first_pmd + u->num_pmds > PFM_MAX_PMDS))
		return -EINVAL;
	if (!u->write_pmc || !u->write_pmd || !u->read_pmd || !u->enable || !u->disable)
		return -EINVAL;
	if (!u->bind != !u->unbind || !u->bind != !u->sync)
		return -EINVAL;
	if (u->num_types && (!u->types || !u->cpu_type || u->num_types > PFM_MAX_PMU_TYPES ||
			     u->bind || pfm_pmu.typed))
		return -EINVAL;
	for (i = 0; i < u->num_pmds; i++) {
		const struct pfm_regdesc *d = &u->pmds[i];

		if (!(d->type & PFM_REG_I))
			continue;
		if (!d->width || d->width > 64 || d->dep_pmc >= u->num_pmcs)
			return -EINVAL;
	}
	for (i = 0; i < u->num_pmcs; i++)
		if (u->pmcs[i].dfl_val & u->pmcs[i].rsvd_msk)
			return -EINVAL;
	return 0;
}

/* pfm_pmu.sync_bound where more than one unit counts into memory */
static void pfm_pmu_sync_each_bound(bool system_wide)
{
	unsigned int u;

	for (u = 0; u < pfm_pmu.num_bound; u++)
		pfm_pmu.bound[u]->sync(system_wide);
}

/*
 * The slots of a set's arrays (pmu.h), made again whenever a unit comes: each
 * implemented register's, in logical order, and a fresh set's PMC values.
 */
static void pfm_pmu_index(void)
{
	unsigned int i, n = 0;

	BUILD_BUG_ON(PFM_NUM_PMDS * sizeof(struct pfm_pmd) >= PFM_PMD_NO_OFF);
	for_each_set_bit(i, pfm_pmu.impl_pmcs, PFM_NUM_PMCS) {
		pfm_pmu.pmc_slot[i] = n;
		pfm_pmu.dfl_pmcs[n++] = pfm_pmu.pmc[i].desc->dfl_val;
	}
	pfm_pmu.num_pmc_slots = n;
	n = 0;
	memset(pfm_pmu.pmd_off, 0xff, sizeof(pfm_pmu.pmd_off));
	for_each_set_bit(i, pfm_pmu.impl_pmds, PFM_NUM_PMDS) {
		pfm_pmu.pmd_slot[i] = n;
		pfm_pmu.pmd_off[i] = n * sizeof(struct pfm_pmd);
		pfm_pmu.slot_pmd[n++] = i;
	}
	pfm_pmu.num_pmd_slots = n;
}

/*
 * Registers of a unit may not overlap those of another: the logical numbers are the
 * ABI, so a unit says where its registers go rather than being placed by the core.
 */
int pfm_pmu_add_unit(const struct pfm_pmu_unit *u)
{
	unsigned int i;
	int ret;

	if (pfm_pmu.num_units >= PFM_MAX_UNITS)
		return -ENOSPC;
	ret = pfm_check_unit(u);
	if (ret)
		return ret;
	for (i = 0; i < u->num_pmcs; i++)
		if ((u->pmcs[i].type & PFM_REG_I) && test_bit(u->first_pmc + i, pfm_pmu.impl_pmcs))
			return -EBUSY;
	for (i = 0; i < u->num_pmds; i++)
		if ((u->pmds[i].type & PFM_REG_I) && test_bit(u->first_pmd + i, pfm_pmu.impl_pmds))
			return -EBUSY;

	for (i = 0; i < u->num_pmcs; i++) {
		unsigned int n = u->first_pmc + i;

		if (!(u->pmcs[i].type & PFM_REG_I))
			continue;
		pfm_pmu.pmc[n] = (struct pfm_reg){ .desc = &u->pmcs[i], .unit = u, .idx = i,
						   .dep_pmd = PFM_NO_REG };
		__set_bit(n, pfm_pmu.impl_pmcs);
		if (!u->bind) {
			__set_bit(n, pfm_pmu.moved_pmcs);
			pfm_pmu.any_moved = true;
		}
		pfm_pmu.pmc_end = max(pfm_pmu.pmc_end, n + 1);
	}
	/* backwards, so that each PMC's chain of PMDs goes up */
	for (i = u->num_pmds; i-- > 0;) {
		unsigned int n = u->first_pmd + i, dep = u->pmds[i].dep_pmc;

		if (!(u->pmds[i].type & PFM_REG_I))
			continue;
		pfm_pmu.pmd[n] = (struct pfm_reg){ .desc = &u->pmds[i], .unit = u, .idx = i,
						   .dep_pmd = PFM_NO_REG };
		/* a PMD whose PMC is not implemented is never brought in by a write */
		if (u->pmcs[dep].type & PFM_REG_I) {
			pfm_pmu.pmd[n].dep_pmd = pfm_pmu.pmc[u->first_pmc + dep].dep_pmd;
			pfm_pmu.pmc[u->first_pmc + dep].dep_pmd = n;
		}
		__set_bit(n, pfm_pmu.impl_pmds);
		if (!u->bind) {
			__set_bit(n, pfm_pmu.moved_pmds);
			pfm_pmu.any_moved = true;
		}
		pfm_pmu.pmd_end = max(pfm_pmu.pmd_end, n + 1);
	}
	pfm_pmu_index();
	pfm_pmu.units[pfm_pmu.num_units++] = u;
	if (u->bind) {
		pfm_pmu.bound[pfm_pmu.num_bound++] = u;
		pfm_pmu.sync_bound = pfm_pmu.num_bound == 1 ? u->sync : pfm_pmu_sync_each_bound;
	}
	if (!pfm_pmu.model)
		pfm_pmu.model = u->name;
	if (u->num_types)
		pfm_pmu.typed = u;
	return 0;
}

void pfm_pmu_reset(void)
{
	memset(&pfm_pmu, 0, sizeof(pfm_pmu));
	memset(pfm_pmu.pmd_off, 0xff, sizeof(pfm_pmu.pmd_off));
}

/* Logical bitmaps of the registers usable now: implemented, and not held elsewhere. */
void pfm_pmu_avail(unsigned long *pmcs, unsigned long *pmds)
{
	DECLARE_BITMAP(upmcs, PFM_NUM_PMCS);
	DECLARE_BITMAP(upmds, PFM_NUM_PMDS);
	unsigned int u, i;

	bitmap_copy(pmcs, pfm_pmu.impl_pmcs, PFM_NUM_PMCS);
	bitmap_copy(pmds, pfm_pmu.impl_pmds, PFM_NUM_PMDS);
	for (u = 0; u < pfm_pmu.num_units; u++) {
		const struct pfm_pmu_unit *unit = pfm_pmu.units[u];

		if (!unit->avail)
			continue;
		bitmap_fill(upmcs, unit->num_pmcs);
		bitmap_fill(upmds, unit->num_pmds);
		unit->avail(upmcs, upmds);
		for (i = 0; i < unit->num_pmcs; i++)
			if (!test_bit(i, upmcs))
				__clear_bit(unit->first_pmc + i, pmcs);
		for (i = 0; i < unit->num_pmds; i++)
			if (!test_bit(i, upmds))
				__clear_bit(unit->first_pmd + i, pmds);
	}
}

/* The unit's place in pfm_pmu.units[]: it is there. */
unsigned int pfm_pmu_unit_index(const struct pfm_pmu_unit *unit)
{
	unsigned int u;

	for (u = 0; u < pfm_pmu.num_units; u++)
		if (pfm_pmu.units[u] == unit)
			break;
	return u;
}

/*
 * How the PMU would count attr: the answer of the unit that encodes perf's
 * hardware events.  -ENOENT when no unit does (no hardware PMU), the errno
 * perf_event_open(2) gives on a system without one.
 */
int pfm_pmu_encode_attr(const struct perf_event_attr *attr, int cpu, struct pfm_attr_enc *enc)
{
	unsigned int u;

	memset(enc, 0, sizeof(*enc));
	for (u = 0; u < pfm_pmu.num_units; u++)
		if (pfm_pmu.units[u]->encode_attr)
			return pfm_pmu.units[u]->encode_attr(attr, cpu, enc);
	return -ENOENT;
}

int pfm_pmu_cpu_type(int cpu)
{
	return pfm_pmu.typed ? pfm_pmu.typed->cpu_type(cpu) : -1;
}
