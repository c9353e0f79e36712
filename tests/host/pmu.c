// SPDX-License-Identifier: GPL-2.0
/*
 * pmu: building the logical register map from units (pmu.c).
 *
 * A unit is refused whole (and the map left as it was) when its registers overlap
 * those of a unit already there (EBUSY) or its description is inconsistent (EINVAL).
 */
#include "harness.h"

/* A modifiable copy of the fake unit, kept alive for the whole test. */
static struct pfm_pmu_unit unit;
static struct pfm_regdesc pmcs[FAKE_NUM], pmds[FAKE_NUM];

static struct pfm_pmu_unit *fake_copy(u16 first_pmc, u16 first_pmd)
{
	memcpy(pmcs, fake_pmcs, sizeof(pmcs));
	memcpy(pmds, fake_pmds, sizeof(pmds));
	unit = fake_unit;
	unit.name = "copy";
	unit.pmcs = pmcs;
	unit.pmds = pmds;
	unit.first_pmc = first_pmc;
	unit.first_pmd = first_pmd;
	return &unit;
}

/* The map must be exactly what it was. */
static struct pfm_pmu saved;
static void save_map(void)
{
	memcpy(&saved, &pfm_pmu, sizeof(saved));
}

static void ck_map_unchanged(void)
{
	ck_assert_int_eq(memcmp(&saved, &pfm_pmu, sizeof(saved)), 0);
}

static void ck_add_fails(const struct pfm_pmu_unit *u, int err)
{
	save_map();
	ck_assert_int_eq(pfm_pmu_add_unit(u), err);
	ck_map_unchanged();
}

START_TEST(test_both_units)
{
	unsigned int i;

	ck_assert_int_eq(pfm_pmu_add_unit(&fake_unit), 0);
	ck_assert_int_eq(pfm_pmu_add_unit(&pfm_sw_unit), 0);
	ck_assert_uint_eq(pfm_pmu.num_units, 2);
	ck_assert_str_eq(pfm_pmu.model, "fake48");
	ck_assert_uint_eq(pfm_pmu.pmc_end, PFM_SW_FIRST_PMC + PFM_SW_NUM_COUNTERS);
	ck_assert_uint_eq(pfm_pmu.pmd_end, PFM_SW_FIRST_PMD + PFM_SW_NUM_COUNTERS);
	for (i = 0; i < PFM_NUM_PMCS; i++) {
		bool impl = i < FAKE_NUM ||
			    (i >= PFM_SW_FIRST_PMC && i < PFM_SW_FIRST_PMC + PFM_SW_NUM_COUNTERS);

		ck_assert_msg(test_bit(i, pfm_pmu.impl_pmcs) == impl, "PMC%u", i);
		ck_assert_msg(test_bit(i, pfm_pmu.impl_pmds) == impl, "PMD%u", i);
	}
	ck_assert_ptr_eq(pfm_pmu.pmc[2].unit, &fake_unit);
	ck_assert_ptr_eq(pfm_pmu.pmc[2].desc, &fake_pmcs[2]);
	ck_assert_uint_eq(pfm_pmu.pmc[2].idx, 2);
	ck_assert_ptr_eq(pfm_pmu.pmd[PFM_SW_FIRST_PMD + 5].unit, &pfm_sw_unit);
	ck_assert_uint_eq(pfm_pmu.pmd[PFM_SW_FIRST_PMD + 5].idx, 5);
	ck_assert_uint_eq(pfm_pmu.pmd[PFM_SW_FIRST_PMD + 5].desc->width, 64);
	ck_assert_uint_eq(pfm_pmu.pmd[3].desc->width, FAKE_WIDTH);
	ck_assert_ptr_null(pfm_pmu.pmc[10].unit);
}
END_TEST

START_TEST(test_sw_only)
{
	ck_assert_int_eq(pfm_pmu_add_unit(&pfm_sw_unit), 0);
	ck_assert_str_eq(pfm_pmu.model, "software");
	ck_assert_uint_eq(pfm_pmu.pmc_end, PFM_SW_FIRST_PMC + PFM_SW_NUM_COUNTERS);
	ck_assert_uint_eq(pfm_pmu.num_pmc_slots, PFM_SW_NUM_COUNTERS);
	ck_assert_uint_eq(pfm_pmu.num_pmd_slots, PFM_SW_NUM_COUNTERS);
	ck_assert(!test_bit(0, pfm_pmu.impl_pmcs));
	ck_assert(test_bit(PFM_SW_FIRST_PMC, pfm_pmu.impl_pmcs));
}
END_TEST

/*
 * A unit whose registers move at a switch (no bind()) stays below the end of the
 * bit vectors, where the switch's bitmaps stop; the software unit goes past it.
 */
START_TEST(test_moved_below_bit_vectors)
{
	ck_add_fails(fake_copy(PFM_MAX_PMCS, 0), -EINVAL);
	ck_add_fails(fake_copy(0, PFM_MAX_PMDS - 1), -EINVAL);
	ck_assert_int_eq(pfm_pmu_add_unit(fake_copy(PFM_MAX_PMCS - FAKE_NUM,
						    PFM_MAX_PMDS - FAKE_NUM)), 0);
	ck_assert_uint_eq(pfm_pmu.pmd_end, PFM_MAX_PMDS);
}
END_TEST

START_TEST(test_overlap)
{
	ck_assert_int_eq(pfm_pmu_add_unit(&fake_unit), 0);
	ck_add_fails(&fake_unit, -EBUSY);			/* the same unit twice */
	ck_add_fails(fake_copy(3, 10), -EBUSY);			/* one PMC in common */
	ck_add_fails(fake_copy(10, 2), -EBUSY);			/* two PMDs in common */
	ck_assert_int_eq(pfm_pmu_add_unit(&pfm_sw_unit), 0);
	ck_add_fails(fake_copy(PFM_SW_FIRST_PMC + PFM_SW_BV_COUNTERS - FAKE_NUM, 20), -EBUSY);
	ck_add_fails(fake_copy(20, PFM_SW_FIRST_PMD - 1), -EBUSY);
	/* the software unit reaches the end of the numbering space: nothing fits past it */
	ck_add_fails(fake_copy(PFM_SW_FIRST_PMC + PFM_SW_NUM_COUNTERS - 1, 20), -EINVAL);
	/* Right beside them is fine. */
	ck_assert_int_eq(pfm_pmu_add_unit(fake_copy(FAKE_NUM, PFM_SW_FIRST_PMD - FAKE_NUM)), 0);
	ck_assert_uint_eq(pfm_pmu.pmd_end, PFM_SW_FIRST_PMD + PFM_SW_NUM_COUNTERS);
	ck_assert_uint_eq(pfm_pmu.num_pmd_slots, PFM_SW_NUM_COUNTERS + 2 * FAKE_NUM);
}
END_TEST

/* A register that is not implemented takes no room. */
START_TEST(test_unimplemented_hole)
{
	struct pfm_pmu_unit *u = fake_copy(0, 0);

	pmcs[1].type = 0;
	pmds[1].type = 0;
	pmds[1].width = 0;		/* not checked: not implemented */
	ck_assert_int_eq(pfm_pmu_add_unit(u), 0);
	ck_assert(!test_bit(1, pfm_pmu.impl_pmcs));
	ck_assert(!test_bit(1, pfm_pmu.impl_pmds));
	ck_assert(test_bit(2, pfm_pmu.impl_pmcs));
	ck_assert_uint_eq(pfm_pmu.num_pmc_slots, FAKE_NUM - 1);
	ck_assert_uint_eq(pfm_pmu.pmc_slot[2], 1);
	/* so another unit may take it */
	static struct pfm_pmu_unit one;

	one = fake_unit;
	one.first_pmc = one.first_pmd = 1;
	one.num_pmcs = one.num_pmds = 1;
	ck_assert_int_eq(pfm_pmu_add_unit(&one), 0);
	ck_assert(test_bit(1, pfm_pmu.impl_pmcs));
	ck_assert_ptr_eq(pfm_pmu.pmd[1].unit, &one);
	ck_assert_uint_eq(pfm_pmu.pmc_end, FAKE_NUM);
	ck_assert_uint_eq(pfm_pmu.num_pmc_slots, FAKE_NUM);
	ck_assert_uint_eq(pfm_pmu.pmc_slot[1], 1);
	ck_assert_uint_eq(pfm_pmu.pmc_slot[2], 2);
	ck_assert_uint_eq(pfm_pmu.pmc[1].dep_pmd, 1);
}
END_TEST

START_TEST(test_bad_pmd)
{
	struct pfm_pmu_unit *u;

	u = fake_copy(0, 0);
	pmds[2].width = 0;
	ck_add_fails(u, -EINVAL);
	u = fake_copy(0, 0);
	pmds[2].width = 65;
	ck_add_fails(u, -EINVAL);
	u = fake_copy(0, 0);
	pmds[3].dep_pmc = FAKE_NUM;
	ck_add_fails(u, -EINVAL);
	u = fake_copy(0, 0);
	pmds[0].dep_pmc = 255;
	ck_add_fails(u, -EINVAL);
	/* 64 bits is the widest, and fine */
	u = fake_copy(0, 0);
	pmds[2].width = 64;
	ck_assert_int_eq(pfm_pmu_add_unit(u), 0);
}
END_TEST

START_TEST(test_bad_pmc_dfl)
{
	struct pfm_pmu_unit *u = fake_copy(0, 0);

	pmcs[1].dfl_val = 1ULL << 40;		/* inside rsvd_msk */
	ck_add_fails(u, -EINVAL);
	u = fake_copy(0, 0);
	pmcs[3].rsvd_msk |= FAKE_PMC3_DFL;
	ck_add_fails(u, -EINVAL);
}
END_TEST

START_TEST(test_bad_range_and_ops)
{
	struct pfm_pmu_unit *u;

	ck_add_fails(fake_copy(PFM_MAX_PMCS - FAKE_NUM + 1, 0), -EINVAL);
	ck_add_fails(fake_copy(0, PFM_MAX_PMDS - 1), -EINVAL);
	ck_add_fails(fake_copy(65535, 0), -EINVAL);
	u = fake_copy(0, 0);
	u->read_pmd = NULL;
	ck_add_fails(u, -EINVAL);
	u = fake_copy(0, 0);
	u->enable = NULL;
	ck_add_fails(u, -EINVAL);
	/* the top of the numbering space is usable */
	ck_assert_int_eq(pfm_pmu_add_unit(fake_copy(PFM_MAX_PMCS - FAKE_NUM,
						    PFM_MAX_PMDS - FAKE_NUM)), 0);
	ck_assert_uint_eq(pfm_pmu.pmc_end, PFM_MAX_PMCS);
	ck_assert_uint_eq(pfm_pmu.pmd_end, PFM_MAX_PMDS);
	ck_assert_uint_eq(pfm_pmu.pmc_slot[PFM_MAX_PMCS - 1], FAKE_NUM - 1);
	ck_assert_uint_eq(pfm_pmu.pmd_slot[PFM_MAX_PMDS - 1], FAKE_NUM - 1);
}
END_TEST

/*
 * The slots of a set's arrays: one for each implemented register, none for the
 * others, in logical order whatever order the units came in; the software PMDs
 * contiguous (its bank strides over them from the first); a fresh set's PMCs
 * quiescent; each PMC's chain names exactly the PMDs it controls.
 */
static void ck_slots(const unsigned long *impl, unsigned int end, unsigned int num,
		     const u16 *slot, const char *what)
{
	unsigned int i, n = 0;

	for (i = 0; i < end; i++) {
		if (!test_bit(i, impl))
			continue;
		ck_assert_msg(slot[i] == n, "%s%u: slot %u, not %u", what, i, slot[i], n);
		n++;
	}
	ck_assert_uint_eq(n, num);
	ck_assert_uint_eq(bitmap_weight(impl, end), num);
}

static void ck_slot_index(void)
{
	unsigned int i, n;

	ck_slots(pfm_pmu.impl_pmcs, pfm_pmu.pmc_end, pfm_pmu.num_pmc_slots,
		 pfm_pmu.pmc_slot, "PMC");
	ck_slots(pfm_pmu.impl_pmds, pfm_pmu.pmd_end, pfm_pmu.num_pmd_slots,
		 pfm_pmu.pmd_slot, "PMD");
	for (n = 0; n < pfm_pmu.num_pmd_slots; n++) {
		ck_assert_uint_eq(pfm_pmu.pmd_slot[pfm_pmu.slot_pmd[n]], n);
		ck_assert_uint_eq(pfm_pmu.pmd_off[pfm_pmu.slot_pmd[n]], n * sizeof(struct pfm_pmd));
	}
	for (i = 0; i < PFM_SW_NUM_COUNTERS && test_bit(PFM_SW_FIRST_PMD, pfm_pmu.impl_pmds); i++)
		ck_assert_uint_eq(pfm_pmu.pmd_slot[PFM_SW_FIRST_PMD + i],
				  pfm_pmu.pmd_slot[PFM_SW_FIRST_PMD] + i);
	for_each_set_bit(i, pfm_pmu.impl_pmcs, pfm_pmu.pmc_end)
		ck_assert_u64_eq(pfm_pmu.dfl_pmcs[pfm_pmu.pmc_slot[i]],
				 pfm_pmu.pmc[i].desc->dfl_val);
	for_each_set_bit(i, pfm_pmu.impl_pmcs, pfm_pmu.pmc_end) {
		const struct pfm_reg *r = &pfm_pmu.pmc[i];
		unsigned int pmd, k, chained = 0, last = 0;

		for (pmd = r->dep_pmd; pmd != PFM_NO_REG; pmd = pfm_pmu.pmd[pmd].dep_pmd) {
			ck_assert(test_bit(pmd, pfm_pmu.impl_pmds));
			ck_assert_ptr_eq(pfm_pmu.pmd[pmd].unit, r->unit);
			ck_assert_uint_eq(pfm_pmu.pmd[pmd].desc->dep_pmc, r->idx);
			ck_assert(!chained || pmd > last);		/* going up */
			last = pmd;
			chained++;
		}
		for (k = n = 0; k < r->unit->num_pmds; k++) {
			const struct pfm_regdesc *d = &r->unit->pmds[k];

			n += (d->type & PFM_REG_I) && d->dep_pmc == r->idx;
		}
		ck_assert_uint_eq(chained, n);
	}
}

START_TEST(test_slot_index)
{
	struct pfm_event_set *set;
	unsigned int i;

	/* the software unit first: the fake one's registers go below its slots */
	ck_assert_int_eq(pfm_pmu_add_unit(&pfm_sw_unit), 0);
	ck_slot_index();
	ck_assert_uint_eq(pfm_pmu.pmd_slot[PFM_SW_FIRST_PMD], 0);
	ck_assert_int_eq(pfm_pmu_add_unit(&fake_unit), 0);
	ck_slot_index();
	ck_assert_uint_eq(pfm_pmu.num_pmc_slots, FAKE_NUM + PFM_SW_NUM_COUNTERS);
	ck_assert_uint_eq(pfm_pmu.num_pmd_slots, FAKE_NUM + PFM_SW_NUM_COUNTERS);
	ck_assert_uint_eq(pfm_pmu.pmd_slot[PFM_SW_FIRST_PMD], FAKE_NUM);
	for (i = 0; i < FAKE_NUM; i++)
		ck_assert_uint_eq(pfm_pmu.pmc[i].dep_pmd, i);
	/* a set's arrays: entries of its registers alone, PMCs quiescent */
	set = pfm_set_alloc(0, false);
	ck_assert_ptr_nonnull(set);
	for_each_set_bit(i, pfm_pmu.impl_pmcs, pfm_pmu.pmc_end)
		ck_assert_u64_eq(pfm_set_pmc_val(set, i), pfm_pmu.pmc[i].desc->dfl_val);
	ck_assert_uint_eq(pfm_pmu.pmd_off[PFM_SW_FIRST_PMD + PFM_SW_NUM_COUNTERS - 1],
			  (pfm_pmu.num_pmd_slots - 1) * sizeof(struct pfm_pmd));
	pfm_set_free(set);
}
END_TEST

/* A unit with a PMD controlled by an unimplemented PMC: the PMD is in no chain. */
START_TEST(test_slot_chain_hole)
{
	struct pfm_pmu_unit *u = fake_copy(0, 0);

	pmcs[2].type = 0;
	ck_assert_int_eq(pfm_pmu_add_unit(u), 0);
	ck_slot_index();
	ck_assert_uint_eq(pfm_pmu.pmc[1].dep_pmd, 1);
	ck_assert_uint_eq(pfm_pmu.pmd[1].dep_pmd, PFM_NO_REG);
	ck_assert_uint_eq(pfm_pmu.pmd_slot[3], 3);
	ck_assert_uint_eq(pfm_pmu.pmc_slot[3], 2);
}
END_TEST

START_TEST(test_too_many_units)
{
	static struct pfm_pmu_unit units[PFM_MAX_UNITS + 1];
	unsigned int i;

	for (i = 0; i <= PFM_MAX_UNITS; i++) {
		units[i] = fake_unit;
		units[i].first_pmc = units[i].first_pmd = i * FAKE_NUM;
	}
	for (i = 0; i < PFM_MAX_UNITS; i++)
		ck_assert_int_eq(pfm_pmu_add_unit(&units[i]), 0);
	ck_add_fails(&units[PFM_MAX_UNITS], -ENOSPC);
	pfm_pmu_reset();
	ck_assert_uint_eq(pfm_pmu.num_units, 0);
	ck_assert_uint_eq(pfm_pmu.pmc_end, 0);
	ck_assert_uint_eq(pfm_pmu.num_pmc_slots, 0);
	ck_assert(!test_bit(0, pfm_pmu.impl_pmcs));
}
END_TEST

Suite *pfm_pmu_suite(void)
{
	Suite *s = suite_create("pmu");
	TCase *tc = pfm_host_tcase("units", pfm_host_setup_bare);

	tcase_add_test(tc, test_both_units);
	tcase_add_test(tc, test_sw_only);
	tcase_add_test(tc, test_moved_below_bit_vectors);
	tcase_add_test(tc, test_overlap);
	tcase_add_test(tc, test_unimplemented_hole);
	tcase_add_test(tc, test_bad_pmd);
	tcase_add_test(tc, test_bad_pmc_dfl);
	tcase_add_test(tc, test_bad_range_and_ops);
	tcase_add_test(tc, test_slot_index);
	tcase_add_test(tc, test_slot_chain_hole);
	tcase_add_test(tc, test_too_many_units);
	suite_add_tcase(s, tc);
	return s;
}
