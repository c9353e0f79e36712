// SPDX-License-Identifier: GPL-2.0
/*
 * coexist: counters held by someone else (an NMI watchdog of the old kind holding
 * one counter, perf_events holding them all) are reported unavailable and never
 * touched: not their registers, not their global enable or status bits, not their
 * PMIs.  The counters are reserved while a context is attached and given back,
 * quiesced, when the last one detaches.  (The teardown checks that nothing of
 * someone else's was accessed and that every reservation of ours was released.)
 */
#include "sim_test.h"

#define THEIRS	1		/* the counter someone else holds */

static void start_with_other(enum sim_model_id id)
{
	sim_reset(id);
	sim_other_take(THEIRS);
	sim_other_program(THEIRS, SIM_EV_BRANCH, -5000ULL);
	ck_assert_str_eq(sim_probe(), sim_models[id].driver_model);
}

START_TEST(test_other_holds_one)
{
	struct pfm_context *ctx;
	unsigned int n, i;

	start_with_other(_i);
	n = sim_m()->num_gp;
	ctx = ck_ctx_new(0);
	for (i = 0; i < n; i++) {
		ck_assert_msg(sim_avail_pmc(ctx, GP_PMC(i)) == (i != THEIRS), "PMC%u", i);
		ck_assert_msg(sim_avail_pmd(ctx, GP_PMD(i)) == (i != THEIRS), "PMD%u", i);
	}
	if (sim_has_fixed()) {
		ck_assert(sim_avail_pmc(ctx, FX_PMC));
		ck_assert(sim_avail_pmd(ctx, FX_PMD(0)));
	}
	ck_assert(sim_avail_pmc(ctx, SW_PMC(0)));
	for (i = 0; i < n; i++)
		if (i != THEIRS)
			ck_write_pmc(ctx, GP_PMC(i), SEL_U(SIM_EV_INST), 0);
	ck_write_pmd(ctx, GP_PMD(0), -3000ULL);
	ck_load_self(ctx);
	ck_start(ctx);
	/* their counter overflows (their PMI), then ours (our PMI) */
	sim_count(SIM_EV_BRANCH, 6000, SIM_USER);
	sim_count(SIM_EV_INST, 4000, SIM_USER);
	ck_assert_uint_eq(sim.other_pmis, 1);		/* -5000 + 6000: one wrap */
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 1000);
	for (i = 2; i < n; i++)
		ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(i)), 4000);
	ck_assert_uint_eq(sim.ctr[THEIRS], 1000);
	if (pfm_x86_pmu.gctrl_msr)
		ck_assert(sim.gctrl & (1ULL << THEIRS));
	ck_unload(ctx);
	pfm_context_put(ctx);
	/* theirs still enabled after we quiesced ours */
	ck_assert(sim.sel[THEIRS] & SEL_EN);
	if (pfm_x86_pmu.gctrl_msr)
		ck_assert(sim.gctrl & (1ULL << THEIRS));
}
END_TEST

/* The core refuses writes to a register someone else holds (pfm_pmu_avail()). */
START_TEST(test_other_write_ebusy)
{
	struct pfm_context *ctx;
	struct pfarg_pmd pd = { .reg_num = GP_PMD(THEIRS) };

	start_with_other(_i);
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(THEIRS), SEL_U(SIM_EV_INST), 0), -EBUSY);
	ck_assert_int_eq(pfm_write_pmds(ctx, &pd, 1), -EBUSY);
	pfm_context_put(ctx);
}
END_TEST

/* perf_events holds every counter: no hardware register; the software PMU works. */
START_TEST(test_perf_holds_all)
{
	struct pfm_context *ctx;
	struct pfarg_setinfo info;
	unsigned int n;

	sim_reset(_i);
	sim_perf_take_all();
	ck_assert_str_eq(sim_probe(), sim_models[_i].driver_model);
	sim_mark();
	ctx = ck_ctx_new(0);
	ck_getinfo(ctx, 0, &info);
	for (n = 0; n < PFM_SW_FIRST_PMC; n++) {
		ck_assert_msg(!(info.set_avail_pmcs[0] & (1ULL << n)), "PMC%u available", n);
		ck_assert_msg(!(info.set_avail_pmds[0] & (1ULL << n)), "PMD%u available", n);
	}
	for (n = 1; n < PFM_PMC_BV; n++)			/* software PMCs 64..319 */
		ck_assert_u64_eq(info.set_avail_pmcs[n], ~0ULL);
	ck_write_pmc(ctx, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 2);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(0)), 2);
	ck_unload(ctx);
	pfm_context_put(ctx);
	ck_msr("a session beside perf_events", 0, 0);
}
END_TEST

START_TEST(test_perf_write_ebusy)
{
	struct pfm_context *ctx;

	sim_reset(_i);
	sim_perf_take_all();
	sim_probe();
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(SIM_EV_INST), 0), -EBUSY);
	if (sim_has_fixed())
		ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, FX_PMC, PFM_X86_FIXED_USR(0), 0),
				 -EBUSY);
	pfm_context_put(ctx);
}
END_TEST

/*
 * Taken by someone else between the write and the load: never touched (the count
 * stays as written), the other counters work.
 */
START_TEST(test_taken_before_load)
{
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_write_pmc(ctx, GP_PMC(1), SEL_U(SIM_EV_INST), 0);
	ck_write_pmd(ctx, GP_PMD(0), 42);
	sim_other_take(0);
	sim_other_program(0, SIM_EV_BRANCH, 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 10, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(1)), 10);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 42);
	ck_assert(!sim_avail_pmc(ctx, GP_PMC(0)));
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* The last detach gives the counters back clean; perf_events can take them. */
START_TEST(test_release)
{
	struct pfm_context *a, *b;
	unsigned int i;

	sim_start(_i);
	a = ck_ctx_new(0);
	ck_write_pmc(a, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_load_self(a);
	ck_assert_uint_ne(sim.evntsel_owner, 0);		/* reserved at attach */
	ck_start(a);
	b = ck_ctx_new(0);
	ck_assert_int_eq(pfm_load(b, 0, shim_task_other.pid), 0);
	ck_unload(a);
	ck_assert_uint_ne(sim.evntsel_owner, 0);		/* b still attached */
	ck_unload(b);
	ck_assert_uint_eq(sim.evntsel_owner | sim.perfctr_owner, 0);
	for (i = 0; i < sim_m()->num_gp; i++)
		ck_assert_uint_eq(sim.sel[i], 0);
	if (pfm_x86_pmu.gctrl_msr)
		ck_assert_uint_eq(sim.gctrl, (1ULL << sim_m()->num_gp) - 1);
	ck_assert_uint_eq(sim.gstatus, 0);
	sim_perf_take_all();
	ck_assert(!sim_avail_pmc(a, GP_PMC(0)));
	pfm_context_put(a);
	pfm_context_put(b);
}
END_TEST

/* Asking what is available holds nothing. */
START_TEST(test_avail_holds_nothing)
{
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_assert(sim_avail_pmc(ctx, GP_PMC(0)));
	ck_assert_uint_eq(sim.evntsel_owner | sim.perfctr_owner, 0);
	pfm_context_put(ctx);
}
END_TEST

/* Someone else's overflow while we are not even loaded: not ours, not touched. */
START_TEST(test_their_pmi_not_ours)
{
	start_with_other(_i);
	sim.lvtpc = SIM_APIC_DM_NMI;			/* as they programmed it */
	sim_count(SIM_EV_BRANCH, 6000, SIM_USER);
	ck_assert_uint_eq(sim.other_pmis, 1);
	ck_assert_uint_eq(sim_total(&sim.n, true), 2);		/* the probe's */
}
END_TEST

Suite *sim_coexist_suite(void)
{
	Suite *s = suite_create("sim_coexist");
	TCase *tc = sim_tcase("coexist");

	tcase_add_loop_test(tc, test_other_holds_one, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_perf_holds_all, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_taken_before_load, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_release, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_avail_holds_nothing, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_their_pmi_not_ours, 0, SIM_NR_MODELS);
	suite_add_tcase(s, tc);

	/* The core's part: refusing the write (EBUSY, rw.c through pfm_pmu_avail()). */
	tc = sim_tcase("coexist_core");
	tcase_add_loop_test(tc, test_other_write_ebusy, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_perf_write_ebusy, 0, SIM_NR_MODELS);
	suite_add_tcase(s, tc);
	return s;
}
