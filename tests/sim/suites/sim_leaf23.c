// SPDX-License-Identifier: GPL-2.0
/*
 * leaf23: architectural perfmon v6 enumeration (CPUID leaf 0x23, Intel SDM vol.
 * 3B "Architectural Performance Monitoring Version 6").  Where CPUID.(7,1):EAX[8]
 * says the leaf is there and its sub-leaf 0 says sub-leaf 1 is valid, the GP
 * and fixed counters are the bitmaps of sub-leaf 1: a counter whose bit is clear
 * does not exist, even below one that does (a hole), and is never described,
 * written or counted on.
 */
#include "sim_test.h"

/* A v6 core: ten GP counters but counter 4, fixed counters 0-2 and 4-6 (no 3). */
static struct sim_model v6_with_holes(void)
{
	struct sim_model m = sim_models[SIM_INTEL_V5];

	m.name = "intel_v6_holes";
	m.version = 6;
	m.num_gp = 10;
	m.leaf23 = true;
	m.gp23 = 0x3ef;
	m.fixed23 = 0x77;
	m.events_len = 13;
	return m;
}

START_TEST(test_leaf23_bitmaps)
{
	struct sim_model m = v6_with_holes();
	unsigned int i;

	sim_reset_custom(&m);
	ck_assert_str_eq(sim_probe(), "intel_arch_v6");
	ck_assert_uint_eq(pfm_x86_pmu.gp, 0x3ef);
	ck_assert_uint_eq(pfm_x86_pmu.num_gp, 9);
	ck_assert_uint_eq(pfm_x86_pmu.fixed, 0x77);
	ck_assert_str_eq(shim_printk_last,
			 "perfmon: hardware PMU intel_arch_v6: 9 counters of 48 bits, 6 fixed, "
			 "full-width writes\n");
	for (i = 0; i < PFM_X86_MAX_GP; i++) {
		bool on = 0x3ef & (1U << i);

		ck_assert_msg(test_bit(GP_PMC(i), pfm_pmu.impl_pmcs) == on, "PMC%u", i);
		ck_assert_msg(test_bit(GP_PMD(i), pfm_pmu.impl_pmds) == on, "PMD%u", i);
		if (on)
			ck_assert_uint_eq(pfm_pmu.pmd[GP_PMD(i)].desc->addr, 0x4c1 + i);
	}
	for (i = 0; i < PFM_X86_MAX_FIXED; i++)
		ck_assert_msg(test_bit(FX_PMD(i), pfm_pmu.impl_pmds) == !!(0x77 & (1U << i)),
			      "fixed %u", i);
	ck_assert_uint_eq(pfm_pmu.pmd[FX_PMD(6)].desc->addr, 0x30f);
	ck_assert_uint_eq(sim.gp, 0);
}
END_TEST

/* The hole is refused, and every counter that exists counts, exactly. */
START_TEST(test_leaf23_counts)
{
	struct sim_model m = v6_with_holes();
	struct pfm_context *ctx;
	unsigned int i;
	u64 fx = 0;

	sim_reset_custom(&m);
	sim_probe();
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(4), SEL_U(0x14), 0), -EINVAL);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, FX_PMC, PFM_X86_FIXED_USR(3), 0), -EINVAL);
	for (i = 0; i < 10; i++)
		if (i != 4)
			ck_write_pmc(ctx, GP_PMC(i), SEL_U(0x10ULL + i), 0);
	for (i = 0; i < 7; i++)
		if (i != 3)
			fx |= PFM_X86_FIXED_USR(i);
	ck_write_pmc(ctx, FX_PMC, fx, 0);
	ck_load_self(ctx);
	ck_start(ctx);
	for (i = 0; i < 10; i++)
		sim_count(0x10ULL + i, 1000 + i, SIM_USER);
	sim_count(SIM_EV_INST, 7, SIM_USER);
	ck_stop(ctx);
	for (i = 0; i < 10; i++)
		if (i != 4)
			ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(i)), 1000 + i);
	ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(0)), 7);
	ck_assert_uint_eq(sim.gp, 0);		/* counter 4's MSRs never touched */
	ck_done(ctx);
}
END_TEST

/* Without CPUID.(7,1):EAX[8] the leaf is not enumerated: leaf 0xA's counts stand. */
START_TEST(test_leaf23_not_enumerated)
{
	struct sim_model m = v6_with_holes();

	m.leaf23 = false;
	m.num_gp = 8;
	m.num_fixed = 3;
	m.fixed_bitmap = 0;
	sim_reset_custom(&m);
	ck_assert_str_eq(sim_probe(), "intel_arch_v6");
	ck_assert_uint_eq(pfm_x86_pmu.gp, 0xff);
	ck_assert_uint_eq(pfm_x86_pmu.fixed, 0x7);
}
END_TEST

/*
 * Sub-leaf 3 (valid by sub-leaf 0 EAX bit 3): the architectural events present,
 * in place of leaf 0xA's EBX.  Here EBX calls Topdown Slots missing and has
 * Branch Misses Retired; sub-leaf 3 says the opposite, and wins.
 */
START_TEST(test_leaf23_events)
{
	struct sim_model m = v6_with_holes();
	struct pfm_context *ctx;

	m.events_unavail = 1U << 7;
	m.events23 = 0x1fbf;
	sim_reset_custom(&m);
	sim_probe();
	ck_assert_uint_eq(pfm_x86_pmu.events_missing, ~0x1fbfU);
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(0x00c5), 0), -EINVAL);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(0x01a4), 0);
	ck_write_pmc(ctx, GP_PMC(1), SEL_U(0x00c4), 0);
	pfm_context_put(ctx);
}
END_TEST

/* Without sub-leaf 3, EBX stands (and the events past its length are missing). */
START_TEST(test_leaf23_no_events)
{
	struct sim_model m = v6_with_holes();
	struct pfm_context *ctx;

	m.events_unavail = 1U << 7;
	sim_reset_custom(&m);
	sim_probe();
	ck_assert_uint_eq(pfm_x86_pmu.events_missing, (~0U << 13) | (1U << 7));
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(0x01a4), 0), -EINVAL);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(0x00c5), 0);
	pfm_context_put(ctx);
}
END_TEST

Suite *sim_leaf23_suite(void)
{
	Suite *s = suite_create("sim_leaf23");
	TCase *tc = sim_tcase("leaf23");

	tcase_add_test(tc, test_leaf23_bitmaps);
	tcase_add_test(tc, test_leaf23_counts);
	tcase_add_test(tc, test_leaf23_not_enumerated);
	tcase_add_test(tc, test_leaf23_events);
	tcase_add_test(tc, test_leaf23_no_events);
	suite_add_tcase(s, tc);
	return s;
}
