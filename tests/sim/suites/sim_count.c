// SPDX-License-Identifier: GPL-2.0
/*
 * count: programming counters through the core and reading exact counts of what
 * the simulated CPU executes, with user/kernel filtering, every counter at once,
 * fixed counters, the software PMU beside the hardware one, and nothing counted
 * (nor any register touched) outside start..stop.
 */
#include "sim_test.h"

/* GP counter i counts a private event, so that counts can be told apart. */
#define EV(i)	(0x10ULL + (i))

START_TEST(test_user_kernel_filter)
{
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_write_pmc(ctx, GP_PMC(1), SEL_K(SIM_EV_INST), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 1000, SIM_USER);	/* "retire 1000 instructions in user mode" */
	sim_count(SIM_EV_INST, 300, SIM_KERNEL);
	sim_count(sim_cycles_event(), 5000, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 1000);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(1)), 300);
	ck_write_pmc(ctx, GP_PMC(1), SEL_UK(SIM_EV_INST), 0);	/* live */
	sim_count(SIM_EV_INST, 20, SIM_USER);
	sim_count(SIM_EV_INST, 22, SIM_KERNEL);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 1020);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(1)), 342);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_every_counter)
{
	struct pfm_context *ctx;
	unsigned int i, j, n;

	sim_start(_i);
	n = sim_m()->num_gp;
	ctx = ck_ctx_new(0);
	for (i = 0; i < n; i++) {
		ck_write_pmc(ctx, GP_PMC(i), SEL_U(EV(i)), 0);
		ck_write_pmd(ctx, GP_PMD(i), 1000000ULL * i);
	}
	if (sim_has_fixed()) {
		u64 v = 0;

		for (j = 0; j < sim_num_fixed(); j++)
			v |= PFM_X86_FIXED_USR(j) | PFM_X86_FIXED_OS(j);
		ck_write_pmc(ctx, FX_PMC, v, 0);
	}
	ck_load_self(ctx);
	ck_start(ctx);
	for (i = 0; i < n; i++)
		sim_count(EV(i), 1000 + i, SIM_USER);
	sim_count(SIM_EV_INST, 111, SIM_USER);
	sim_count(SIM_EV_CYCLES, 222, SIM_KERNEL);
	sim_count(SIM_EV_REF, 333, SIM_USER);
	sim_count(0x01a4, 444, SIM_USER);
	ck_stop(ctx);
	for (i = 0; i < n; i++)
		ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(i)), 1000000ULL * i + 1000 + i);
	for (j = 0; j < sim_num_fixed(); j++)
		ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(j)), 111 * (j + 1));
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_fixed_filter)
{
	struct pfm_context *ctx;

	sim_start(_i);
	if (!sim_has_fixed())
		return;
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, FX_PMC, PFM_X86_FIXED_OS(0) | PFM_X86_FIXED_USR(1) |
		     PFM_X86_FIXED_OS(2) | PFM_X86_FIXED_USR(2), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 10, SIM_USER);
	sim_count(SIM_EV_INST, 11, SIM_KERNEL);
	sim_count(SIM_EV_CYCLES, 12, SIM_USER);
	sim_count(SIM_EV_CYCLES, 13, SIM_KERNEL);
	sim_count(SIM_EV_REF, 14, SIM_USER);
	sim_count(SIM_EV_REF, 15, SIM_KERNEL);
	ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(0)), 11);
	ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(1)), 12);
	ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(2)), 29);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* Only between start and stop; a restart goes on from the count. */
START_TEST(test_start_stop)
{
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_write_pmd(ctx, GP_PMD(0), 5000);
	sim_count(SIM_EV_INST, 10, SIM_USER);		/* unloaded */
	ck_load_self(ctx);
	sim_count(SIM_EV_INST, 10, SIM_USER);		/* loaded, stopped */
	ck_msr("write, load", 0, 0);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 1000, SIM_USER);
	ck_stop(ctx);
	sim_count(SIM_EV_INST, 10, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 6000);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 6001);
	ck_unload(ctx);
	sim_count(SIM_EV_INST, 10, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 6001);
	pfm_context_put(ctx);
}
END_TEST

/* A PMC written while counting takes effect at once; turned off, it stops. */
START_TEST(test_live_pmc_write)
{
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 10, SIM_USER);
	sim_mark();
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_BRANCH), 0);
	ck_msr("a live event change", 0, 1);		/* the event select alone */
	sim_count(SIM_EV_INST, 10, SIM_USER);
	sim_count(SIM_EV_BRANCH, 5, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 15);
	ck_write_pmc(ctx, GP_PMC(0), SIM_EV_BRANCH | SEL_USR, 0);	/* EN off */
	sim_count(SIM_EV_BRANCH, 5, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 15);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_BRANCH), 0);		/* on again */
	sim_count(SIM_EV_BRANCH, 5, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 20);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* The software PMU's counters work beside the hardware ones, in one context. */
START_TEST(test_software_beside)
{
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 3);
	sim_count(SIM_EV_INST, 77, SIM_USER);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(0)), 3);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 77);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* A context with software counters only never touches the hardware. */
START_TEST(test_software_only_no_access)
{
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 3);
	ck_stop(ctx);
	ck_unload(ctx);
	pfm_context_put(ctx);
	ck_assert_uint_eq(sim_total(&sim.n, true), 2);	/* the probe's two */
	ck_assert_uint_eq(sim.n.apic, 0);
}
END_TEST

/* A system-wide session on CPU 0 counts user and kernel of everyone. */
START_TEST(test_system_wide)
{
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = ck_ctx_new(PFM_FL_SYSTEM_WIDE);
	ck_write_pmc(ctx, GP_PMC(0), SEL_UK(SIM_EV_INST), 0);
	ck_assert_int_eq(pfm_load(ctx, 0, 0), 0);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 40, SIM_USER);
	sim_count(SIM_EV_INST, 2, SIM_KERNEL);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 42);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

Suite *sim_count_suite(void)
{
	Suite *s = suite_create("sim_count");
	TCase *tc = sim_tcase("count");

	tcase_add_loop_test(tc, test_user_kernel_filter, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_every_counter, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_fixed_filter, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_start_stop, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_live_pmc_write, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_software_beside, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_software_only_no_access, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_system_wide, 0, sim_nr_core_models());
	suite_add_tcase(s, tc);
	return s;
}
