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

/*
 * Without sub-leaf 3, EBX stands (and the events past its length are missing),
 * v6's events of bits 8 to 12 included.
 */
START_TEST(test_leaf23_no_events)
{
	struct sim_model m = v6_with_holes();
	struct pfm_context *ctx;

	m.events_unavail = (1U << 7) | (1U << 9);
	sim_reset_custom(&m);
	sim_probe();
	ck_assert_uint_eq(pfm_x86_pmu.events_missing, (~0U << 13) | (1U << 7) | (1U << 9));
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(0x01a4), 0), -EINVAL);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(0x0073), 0), -EINVAL);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(0x00c5), 0);
	ck_write_pmc(ctx, GP_PMC(1), SEL_U(0x02a4), 0);
	pfm_context_put(ctx);
}
END_TEST

/* The architectural events, bit k of CPUID.0AH:EBX and of sub-leaf 3 EAX. */
static const u16 arch_ev[] = {
	0x003c, 0x00c0, 0x013c, 0x4f2e, 0x412e, 0x00c4, 0x00c5, 0x01a4,
	0x02a4, 0x0073, 0x019c, 0x02c2, 0x01e4,
};

/* Bit k set: a context made with flags is refused architectural event k, EINVAL. */
static unsigned int refused(u32 flags)
{
	struct pfm_context *ctx = ck_ctx_new(flags);
	unsigned int k, r = 0;
	int ret;

	for (k = 0; k < ARRAY_SIZE(arch_ev); k++) {
		ret = pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(arch_ev[k]), 0);
		ck_assert_msg(!ret || ret == -EINVAL, "event %#x: %d", arch_ev[k], ret);
		if (ret)
			r |= 1U << k;
	}
	pfm_context_put(ctx);
	return r;
}

/*
 * Real processors (tests/sim/cpuid/): the events each core type is refused.
 * Lunar, Arrow and Panther Lake: sub-leaf 3 P 0x1dff (no Topdown Bad
 * Speculation), E 0x1f7f (no Topdown Slots); Meteor Lake P 0xdff and Granite
 * Rapids 0xdff (no Bad Speculation, no LBR Inserts), Meteor Lake E 0x7f (none
 * of bits 7-12).  Without sub-leaf 3, an EBX of 8 bits (Sapphire Rapids) or 7
 * (Skylake: Topdown Slots missing) says nothing of bits 8-12, whose encodings
 * stay the model's own events.  Alder and Raptor Lake (no leaf 0x23): EBX says
 * Topdown Slots missing on both types, which the E cores lack and the P cores
 * have.  A thread's context of no type is the P cores'.
 */
#define BAD_SPEC	(1U << 9)
#define LBR_INS		(1U << 12)
static const struct {
	const char *name;
	unsigned int p, e;
} real[] = {
	{ "intel-06-bd-lunarlake",	BAD_SPEC,		1U << 7 },
	{ "intel-06-c6-arrowlake",	BAD_SPEC,		1U << 7 },
	{ "intel-06-cc-pantherlake",	BAD_SPEC,		1U << 7 },
	{ "intel-06-aa-meteorlake",	BAD_SPEC | LBR_INS,	0x1f80 },
	{ "intel-06-ad-graniterapids",	BAD_SPEC | LBR_INS,	0 },
	{ "intel-06-8f-sapphirerapids",	0,			0 },
	{ "intel-06-5e-skylake",	1U << 7,		0 },
	{ "intel-06-97-alderlake-s",	0,			1U << 7 },
	{ "intel-06-b7-raptorlake",	0,			1U << 7 },
};

START_TEST(test_v6_events_real)
{
	sim_start_named(real[_i].name);
	if (pfm_x86_ntypes < 2) {
		ck_assert_msg(refused(0) == real[_i].p, "%s: %#x", real[_i].name, refused(0));
		return;
	}
	ck_assert_msg(refused(PFM_FL_PMU_TYPE(0x40)) == real[_i].p, "%s P: %#x",
		      real[_i].name, refused(PFM_FL_PMU_TYPE(0x40)));
	ck_assert_msg(refused(PFM_FL_PMU_TYPE(0x20)) == real[_i].e, "%s E: %#x",
		      real[_i].name, refused(PFM_FL_PMU_TYPE(0x20)));
	ck_assert_uint_eq(refused(0), real[_i].p);		/* the first type's */
}
END_TEST

/*
 * Lunar Lake: Topdown Bad Speculation (0x0073) is the E cores' only.  It counts
 * exactly on an E core, LBR Inserts (0x01e4) on a P core; a CPU session of no
 * type that programs 0x0073 attaches to the E core and not to the P core.
 */
START_TEST(test_v6_events_count)
{
	struct pfm_context *ctx;

	sim_start_hybrid("intel-06-bd-lunarlake");
	ctx = ck_ctx_new(PFM_FL_PMU_TYPE(0x40));
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(0x01e4), 0);
	ck_write_pmc(ctx, GP_PMC(1), SEL_U(0x02c2), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(0x01e4, 321, SIM_USER);
	sim_count(0x02c2, 55, SIM_USER);
	sim_count(0x0073, 9, SIM_USER);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 321);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(1)), 55);
	ck_done(ctx);

	ctx = ck_ctx_new(PFM_FL_SYSTEM_WIDE);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(0x0073), 0);
	ck_assert_int_eq(pfm_load(ctx, 0, 0), -EINVAL);		/* CPU 0: P core */
	ck_assert_int_eq(ctx->state, PFM_CTX_UNLOADED);
	ck_assert_int_eq(pfm_load(ctx, 0, 1), 0);
	ck_assert_uint_eq(ctx->pmu_type, 2);
	sim_set_cpu(1);
	ck_start(ctx);
	sim_count(0x0073, 77, SIM_USER);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 77);
	ck_unload(ctx);
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
	tcase_add_loop_test(tc, test_v6_events_real, 0, ARRAY_SIZE(real));
	tcase_add_test(tc, test_v6_events_count);
	suite_add_tcase(s, tc);
	return s;
}
