// SPDX-License-Identifier: GPL-2.0
/*
 * hybrid: a simulated Lunar Lake (tests/sim/cpuid/, CPU 0 a Lion Cove P core,
 * CPU 1 a Skymont E core): contexts bound to one core type (uapi perfmon.h, CPU
 * TYPES), a thread migrating between the types, the errors.
 */
#include "sim_test.h"

#define CORE	0x40
#define ATOM	0x20
#define SLOTS	0x01a4		/* Topdown Slots: leaf 0x23 sub-leaf 3 bit 7 */

static void hybrid_start(void)
{
	sim_start_hybrid("intel-06-bd-lunarlake");
}

/* The thread runs on cpu from now on (a switch out, a migration, a switch in). */
static void migrate(struct pfm_context *ctx, unsigned int cpu)
{
	pfm_host_sched_out(ctx);
	sim_set_cpu(cpu);
	pfm_host_sched_in(ctx);
}

/*
 * A cpu_core context counts on the P core only: what the E core executes while
 * the thread is there is not counted, nor are the E core's registers touched;
 * back on the P core it counts on from where it was.  Exact.
 */
START_TEST(test_migrate_core)
{
	struct pfm_context *ctx;

	hybrid_start();
	ctx = ck_ctx_new(PFM_FL_PMU_TYPE(CORE));
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_write_pmc(ctx, GP_PMC(9), SEL_U(SIM_EV_BRANCH), 0);	/* P cores only */
	ck_write_pmc(ctx, FX_PMC, PFM_X86_FIXED_USR(0), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 100, SIM_USER);
	sim_count(SIM_EV_BRANCH, 10, SIM_USER);
	migrate(ctx, 1);
	sim_count(SIM_EV_INST, 1000, SIM_USER);
	sim_count(SIM_EV_BRANCH, 1000, SIM_USER);
	ck_assert_u64_eq(sim.sel[0], 0);		/* nothing programmed on the E core */
	ck_assert_u64_eq(sim.fixed_ctrl, 0);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 100);
	migrate(ctx, 0);
	sim_count(SIM_EV_INST, 7, SIM_USER);
	sim_count(SIM_EV_BRANCH, 3, SIM_USER);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 107);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(9)), 13);
	ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(0)), 107);
	ck_assert_uint_eq(sim.gp, 0);
	ck_done(ctx);
}
END_TEST

/* A cpu_atom context attached on the P core counts once its thread is on the E core. */
START_TEST(test_migrate_atom)
{
	struct pfm_context *ctx;

	hybrid_start();
	ctx = ck_ctx_new(PFM_FL_PMU_TYPE(ATOM));
	ck_write_pmc(ctx, GP_PMC(7), SEL_U(SIM_EV_INST), 0);
	ck_write_pmc(ctx, FX_PMC, PFM_X86_FIXED_USR(6), 0);	/* E cores only */
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 50, SIM_USER);
	migrate(ctx, 1);
	sim_count(SIM_EV_INST, 20, SIM_USER);
	migrate(ctx, 0);
	sim_count(SIM_EV_INST, 50, SIM_USER);
	migrate(ctx, 1);
	sim_count(SIM_EV_INST, 2, SIM_USER);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(7)), 22);
	ck_assert_uint_eq(sim.gp, 0);
	ck_done(ctx);
}
END_TEST

/*
 * Time on the other type (uapi perfmon.h, CPU TYPES): a cpu_core context's
 * live time, its only time (time running), stops while its thread is on the E
 * core and goes on back on the P core; nothing of it runs there, not even the
 * set's switch timeout.  Exact.
 */
START_TEST(test_time_on_other_type)
{
	struct pfarg_setinfo info[2] = { { .set_id = 0 }, { .set_id = 1 } };
	struct pfm_context *ctx;

	hybrid_start();
	ctx = ck_ctx_new(PFM_FL_PMU_TYPE(CORE));
	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_host_env.clock_ns += 1000;
	migrate(ctx, 1);
	pfm_host_env.clock_ns += 2000000;
	/* the timer the P core left queued comes early and stops: no switch */
	shim_hrtimer_fire(&ctx->timer);
	ck_assert(!ctx->timer.armed);
	ck_assert_uint_eq(ctx->active->id, 0);
	migrate(ctx, 0);
	pfm_host_env.clock_ns += 4000;
	ck_stop(ctx);
	ck_assert_int_eq(pfm_getinfo_evtsets(ctx, info, 2), 0);
	ck_assert_u64_eq(info[0].set_act_duration, 5000);
	ck_assert_u64_eq(info[0].set_runs, 1);
	ck_assert_u64_eq(info[1].set_act_duration, 0);
	ck_assert_uint_eq(ctx->active->id, 0);
	ck_done(ctx);
}
END_TEST

/* Every bad input: its errno, and nothing changed. */
START_TEST(test_type_errors)
{
	struct pfm_context *ctx;
	struct pfarg_setinfo info;

	hybrid_start();
	ck_assert_int_eq(pfm_check_create_flags(PFM_FL_PMU_TYPE(0x30)), -ENODEV);
	ck_assert_int_eq(pfm_check_create_flags(PFM_FL_PMU_TYPE(ATOM)), 0);
	ctx = ck_ctx_new(PFM_FL_PMU_TYPE(ATOM));
	/* GP 8 and 9, fixed counter 3: P cores only */
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(8), SEL_U(SIM_EV_INST), 0), -EINVAL);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, FX_PMC, PFM_X86_FIXED_USR(3), 0), -EINVAL);
	ck_assert(!test_bit(GP_PMC(8), ctx_set0(ctx)->used_pmcs));
	info = ck_info(ctx, 0);
	ck_assert(!(info.set_avail_pmcs[0] & (1ULL << GP_PMC(8))));
	ck_assert(info.set_avail_pmcs[0] & (1ULL << GP_PMC(7)));
	ck_assert(!(info.set_avail_pmds[0] & (1ULL << FX_PMD(3))));
	ck_assert(info.set_avail_pmds[0] & (1ULL << FX_PMD(6)));
	pfm_context_put(ctx);
	/* the default per-thread type is the P cores' */
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, GP_PMC(9), SEL_U(SIM_EV_INST), 0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, FX_PMC, PFM_X86_FIXED_USR(6), 0), -EINVAL);
	pfm_context_put(ctx);
}
END_TEST

/*
 * A CPU session: without a type it takes its CPU's, checked at the attach; with
 * one, it attaches only to a CPU of that type.
 */
START_TEST(test_cpu_session)
{
	struct pfm_context *ctx;

	hybrid_start();
	ctx = ck_ctx_new(PFM_FL_SYSTEM_WIDE | PFM_FL_PMU_TYPE(CORE));
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_assert_int_eq(pfm_load(ctx, 0, 1), -EINVAL);
	ck_assert_int_eq(ctx->state, PFM_CTX_UNLOADED);
	pfm_context_put(ctx);

	ctx = ck_ctx_new(PFM_FL_SYSTEM_WIDE);
	ck_write_pmc(ctx, GP_PMC(9), SEL_U(SIM_EV_INST), 0);	/* P only */
	ck_assert_int_eq(pfm_load(ctx, 0, 1), -EINVAL);		/* CPU 1: E core */
	ck_assert_int_eq(ctx->state, PFM_CTX_UNLOADED);
	ck_assert_int_eq(pfm_load(ctx, 0, 0), 0);
	ck_assert_uint_eq(ctx->pmu_type, 1);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 40, SIM_USER);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(9)), 40);
	ck_unload(ctx);
	ck_assert_uint_eq(ctx->pmu_type, 0);
	pfm_context_put(ctx);
}
END_TEST

/*
 * Leaf 0x23 sub-leaf 3 on each type (Meteor Lake P 0xdff, E 0x7f; Lunar Lake P
 * 0x1dff, E 0x1f7f): Topdown Slots is the P cores' only.  A cpu_core context
 * may count it; a cpu_atom one is refused it (EINVAL, as an architectural event
 * the CPU lacks), and a CPU session that names no type may not take the E
 * core's type with it.
 */
START_TEST(test_arch_events_by_type)
{
	static const char *const names[] = {
		"intel-06-aa-meteorlake", "intel-06-bd-lunarlake",
	};
	struct pfm_context *ctx;

	sim_start_hybrid(names[_i]);
	ctx = ck_ctx_new(PFM_FL_PMU_TYPE(ATOM));
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(SLOTS), 0), -EINVAL);
	ck_assert(!test_bit(GP_PMC(0), ctx_set0(ctx)->used_pmcs));
	/* the events both types have stay allowed */
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(0x00c4), 0);
	pfm_context_put(ctx);

	ctx = ck_ctx_new(PFM_FL_PMU_TYPE(CORE));
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SLOTS), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SLOTS, 123, SIM_USER);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 123);
	ck_done(ctx);

	ctx = ck_ctx_new(PFM_FL_SYSTEM_WIDE);
	ck_write_pmc(ctx, GP_PMC(1), SEL_U(SLOTS), 0);
	ck_assert_int_eq(pfm_load(ctx, 0, 1), -EINVAL);		/* CPU 1: E core */
	ck_assert_int_eq(ctx->state, PFM_CTX_UNLOADED);
	ck_assert_int_eq(pfm_load(ctx, 0, 0), 0);
	ck_assert_uint_eq(ctx->pmu_type, 1);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

Suite *sim_hybrid_suite(void)
{
	Suite *s = suite_create("sim_hybrid");
	TCase *tc = sim_tcase("hybrid");

	tcase_add_test(tc, test_migrate_core);
	tcase_add_test(tc, test_migrate_atom);
	tcase_add_test(tc, test_time_on_other_type);
	tcase_add_test(tc, test_type_errors);
	tcase_add_test(tc, test_cpu_session);
	tcase_add_loop_test(tc, test_arch_events_by_type, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
