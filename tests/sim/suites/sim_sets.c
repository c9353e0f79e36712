// SPDX-License-Identifier: GPL-2.0
/*
 * sets: switching event sets on the hardware, on overflow and on timeout.  Counts
 * stay exact per set, and a switch writes only the registers that differ between
 * the two sets: with global control, the global enable off and on, the counters
 * of the incoming set, and the event selects that differ; without it, the enable
 * bit of each event select in use off and on as well.  With a single set there is
 * no switch and nothing is written.  On a hybrid processor, a thread that moves
 * to a CPU of another type in the middle of a set's turn.
 */
#include "sim_test.h"

/*
 * Set 0 counts instructions on counter 0 and branches on counter 1; set 1 counts
 * cycles on counter 0 and branches on counter 1 (the same event select).
 */
static struct pfm_context *two_sets(u32 flags, u64 timeout, u64 pmd0)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmd pd = {
		.reg_num = GP_PMD(0), .reg_value = pmd0, .reg_flags = PFM_PMDFL_SWITCH,
		.reg_ovfl_switch_cnt = 1,
	};

	ck_create_set(ctx, 0, flags, timeout);
	ck_create_set(ctx, 1, flags, timeout);
	ck_write_set_pmc(ctx, 0, GP_PMC(0), SEL_U(SIM_EV_INST));
	ck_write_set_pmc(ctx, 0, GP_PMC(1), SEL_U(SIM_EV_BRANCH));
	ck_write_set_pmc(ctx, 1, GP_PMC(0), SEL_U(sim_cycles_event()));
	ck_write_set_pmc(ctx, 1, GP_PMC(1), SEL_U(SIM_EV_BRANCH));
	ck_assert_int_eq(pfm_write_pmds(ctx, &pd, 1), 0);
	ck_write_set_pmd(ctx, 0, GP_PMD(1), 0);
	ck_write_set_pmd(ctx, 1, GP_PMD(0), 0);
	ck_write_set_pmd(ctx, 1, GP_PMD(1), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	return ctx;
}

static u16 active(struct pfm_context *ctx)
{
	return ctx->active->id;
}

/* The registers a switch between the two sets writes (see the top). */
static void ck_switch_writes(const char *what)
{
	unsigned long sel0 = sim_msr_writes(sim_sel_msr(0));
	unsigned long sel1 = sim_msr_writes(sim_sel_msr(1));

	ck_assert_msg(sel0 == (sim_has_global() ? 1 : 2), "%s: %lu writes of select 0", what, sel0);
	ck_assert_msg(sel1 == (sim_has_global() ? 0 : 2), "%s: %lu writes of select 1", what, sel1);
	ck_assert_uint_eq(sim_msr_writes(sim_ctr_msr(0)), 1);
	ck_assert_uint_eq(sim_msr_writes(sim_ctr_msr(1)), 1);
	if (sim_has_global())
		ck_assert_uint_eq(sim_msr_writes(pfm_x86_pmu.gctrl_msr), 2);
}

START_TEST(test_timeout_switch)
{
	struct pfm_context *ctx;
	struct sim_counts c;

	sim_start(_i);
	ctx = two_sets(PFM_SETFL_TIME_SWITCH, 1000000, 0);
	sim_count(SIM_EV_INST, 100, SIM_USER);
	sim_count(SIM_EV_BRANCH, 10, SIM_USER);
	pfm_host_env.clock_ns += 1000000;
	sim_mark();
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(active(ctx), 1);
	ck_switch_writes("timeout switch 0 -> 1");
	c = sim_since();
	ck_assert_uint_eq(sim_reads(&c), 2);		/* the outgoing counters */
	ck_assert_uint_eq(sim_writes(&c), sim_has_global() ? 5 : 6);
	sim_count(SIM_EV_INST, 100, SIM_USER);
	sim_count(sim_cycles_event(), 7, SIM_USER);
	sim_count(SIM_EV_BRANCH, 20, SIM_USER);
	pfm_host_env.clock_ns += 1000000;
	sim_mark();
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(active(ctx), 0);
	ck_switch_writes("timeout switch 1 -> 0");
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, GP_PMD(0)), 101);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, GP_PMD(1)), 10);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, GP_PMD(0)), 7);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, GP_PMD(1)), 20);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* Counter 0 of set 0 overflows (64 bits) after 1000 instructions: switch to set 1. */
START_TEST(test_overflow_switch)
{
	struct pfm_context *ctx;
	struct pfarg_setinfo info;

	sim_start(_i);
	ctx = two_sets(PFM_SETFL_OVFL_SWITCH, 0, -1000ULL);
	sim_count(SIM_EV_INST, 999, SIM_USER);
	ck_assert_uint_eq(active(ctx), 0);
	sim_mark();
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_assert_uint_eq(active(ctx), 1);
	sim_count(SIM_EV_INST, 50, SIM_USER);		/* set 1 does not count these */
	sim_count(sim_cycles_event(), 5, SIM_USER);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, GP_PMD(0)), 0);	/* wrapped to 0 */
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, GP_PMD(0)), 5);
	ck_getinfo(ctx, 0, &info);
	ck_assert_u64_eq(info.set_ovfl_pmds[0], 1ULL << GP_PMD(0));
	ck_assert_u64_eq(info.set_runs, 1);
	ck_getinfo(ctx, 1, &info);
	ck_assert_u64_eq(info.set_runs, 1);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* One set that would switch on timeout: there is nothing to switch to, nothing written. */
START_TEST(test_single_set_timeout)
{
	struct pfm_context *ctx = NULL;
	unsigned int k;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	for (k = 0; k < 10; k++) {
		sim_count(SIM_EV_INST, 10, SIM_USER);
		pfm_host_env.clock_ns += 1000000;
		sim_mark();
		ck_assert(shim_hrtimer_fire(&ctx->timer));
		ck_msr("a timeout with one set", 0, 0);
	}
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 100);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* One set switching on overflow: the overflow costs its handling, no switch. */
START_TEST(test_single_set_overflow)
{
	struct pfm_context *ctx;
	struct pfarg_pmd pd = {
		.reg_num = GP_PMD(0), .reg_value = -100ULL, .reg_flags = PFM_PMDFL_SWITCH,
		.reg_ovfl_switch_cnt = 1, .reg_short_reset = -100ULL,
	};

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_create_set(ctx, 0, PFM_SETFL_OVFL_SWITCH, 0);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_write_pmc(ctx, GP_PMC(1), SEL_U(SIM_EV_BRANCH), 0);
	ck_assert_int_eq(pfm_write_pmds(ctx, &pd, 1), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_mark();
	sim_count(SIM_EV_INST, 100, SIM_USER);
	/*
	 * Nothing of counter 1, which a switch would have saved and restored (without
	 * a global status, the PMI reads every counter that is on to find which one
	 * overflowed).
	 */
	ck_assert_uint_eq(sim_msr_writes(sim_sel_msr(1)), 0);
	ck_assert_uint_eq(sim_msr_writes(sim_ctr_msr(1)), 0);
	ck_assert_uint_eq(sim_msr_reads(sim_ctr_msr(1)), sim_has_global() ? 0 : 1);
	ck_assert_uint_eq(sim_msr_writes(sim_sel_msr(0)), sim_has_global() ? 0 : 2);
	sim_count(SIM_EV_INST, 30, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), -70ULL);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* Sets that are the same but for one event select: that select alone. */
START_TEST(test_switch_only_difference)
{
	struct pfm_context *ctx;
	unsigned int i, n;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	n = sim_m()->num_gp;
	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	for (i = 0; i < n; i++) {
		ck_write_set_pmc(ctx, 0, GP_PMC(i), SEL_U(0x10 + i));
		ck_write_set_pmc(ctx, 1, GP_PMC(i), SEL_U(0x10 + i + (i == n - 1)));
	}
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_host_env.clock_ns += 1000000;
	sim_mark();
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	for (i = 0; i < n; i++)
		ck_assert_msg(sim_msr_writes(sim_sel_msr(i)) == (sim_has_global() ? i == n - 1 : 2),
			      "select %u written %lu times", i, sim_msr_writes(sim_sel_msr(i)));
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* --- a hybrid processor (CPU 0 a P core, CPU 1 an E core) --- */

static void migrate(struct pfm_context *ctx, unsigned int cpu)
{
	pfm_host_sched_out(ctx);
	sim_set_cpu(cpu);
	pfm_host_sched_in(ctx);
}

/* The switch timer is armed to fire ns from now. */
static void ck_timer_in(struct pfm_context *ctx, s64 ns)
{
	ck_assert(ctx->timer.armed);
	ck_assert_int_eq(ctx->timer.expires - shim_now_ns(), ns);
}

/*
 * A context of the P cores' type (the default) whose thread moves to the E core
 * in the middle of each set's turn: on the E core nothing of it counts, its
 * registers are not written there and its rotation stands still (its timer,
 * left queued on the P core, switches nothing when it comes);
 * back on the P core the set's turn goes on for what was left of it.  Each set
 * counts exactly what the P core executed in its turns, and each set's
 * duration is its 1 ms.
 */
START_TEST(test_hybrid_migrate_mid_turn)
{
	struct pfarg_setinfo info;
	struct pfm_context *ctx;

	sim_start(_i);
	if (!sim_model_e_of(_i))
		return;
	ctx = two_sets(PFM_SETFL_TIME_SWITCH, 1000000, 0);
	sim_count(SIM_EV_INST, 100, SIM_USER);
	sim_count(SIM_EV_BRANCH, 10, SIM_USER);
	pfm_host_env.clock_ns += 400000;
	migrate(ctx, 1);
	sim_count(SIM_EV_INST, 1000, SIM_USER);
	sim_count(SIM_EV_BRANCH, 100, SIM_USER);
	pfm_host_env.clock_ns += 3000000;
	/* the timer the P core left queued comes early there and stops: no switch */
	shim_hrtimer_fire(&ctx->timer);
	ck_assert(!ctx->timer.armed);
	ck_assert_uint_eq(active(ctx), 0);
	ck_assert_u64_eq(sim.sel[0], 0);
	ck_assert_u64_eq(sim.sel[1], 0);
	migrate(ctx, 0);
	ck_timer_in(ctx, 600000);
	sim_count(SIM_EV_INST, 5, SIM_USER);
	pfm_host_env.clock_ns += 600000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(active(ctx), 1);
	sim_count(sim_cycles_event(), 7, SIM_USER);
	sim_count(SIM_EV_BRANCH, 20, SIM_USER);
	pfm_host_env.clock_ns += 250000;
	migrate(ctx, 1);
	sim_count(sim_cycles_event(), 999, SIM_USER);
	pfm_host_env.clock_ns += 2000000;
	migrate(ctx, 0);
	ck_timer_in(ctx, 750000);
	sim_count(sim_cycles_event(), 3, SIM_USER);
	pfm_host_env.clock_ns += 750000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(active(ctx), 0);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, GP_PMD(0)), 105);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, GP_PMD(1)), 10);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, GP_PMD(0)), 10);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, GP_PMD(1)), 20);
	ck_getinfo(ctx, 0, &info);
	ck_assert_u64_eq(info.set_act_duration, 1000000);
	ck_assert_u64_eq(info.set_runs, 2);
	ck_getinfo(ctx, 1, &info);
	ck_assert_u64_eq(info.set_act_duration, 1000000);
	ck_assert_u64_eq(info.set_runs, 1);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/*
 * A context of every type (the perf layer's, layer.h) rotates on both types: the
 * turn begun on the P core ends on the E core, whose counters count for the
 * set active there, and the next turn goes on across the move back.  Its
 * registers (GP 0 and 1) are on both types.  Exact counts and durations.
 */
START_TEST(test_hybrid_rotation_every_type)
{
	struct pfarg_setinfo info;
	struct pfm_context *ctx;

	sim_start(_i);
	if (!sim_model_e_of(_i))
		return;
	ctx = ck_ctx_new(0);
	pfm_ctx_every_type(ctx);
	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_write_set_pmc(ctx, 0, GP_PMC(0), SEL_U(SIM_EV_INST));
	ck_write_set_pmc(ctx, 1, GP_PMC(1), SEL_U(SIM_EV_BRANCH));
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 100, SIM_USER);
	pfm_host_env.clock_ns += 400000;
	migrate(ctx, 1);
	ck_timer_in(ctx, 600000);
	sim_count(SIM_EV_INST, 30, SIM_USER);
	sim_count(SIM_EV_BRANCH, 3, SIM_USER);
	pfm_host_env.clock_ns += 600000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(active(ctx), 1);
	sim_count(SIM_EV_INST, 50, SIM_USER);
	sim_count(SIM_EV_BRANCH, 40, SIM_USER);
	pfm_host_env.clock_ns += 300000;
	migrate(ctx, 0);
	ck_timer_in(ctx, 700000);
	sim_count(SIM_EV_BRANCH, 2, SIM_USER);
	pfm_host_env.clock_ns += 700000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(active(ctx), 0);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, GP_PMD(0)), 131);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, GP_PMD(1)), 42);
	ck_getinfo(ctx, 0, &info);
	ck_assert_u64_eq(info.set_act_duration, 1000000);
	ck_getinfo(ctx, 1, &info);
	ck_assert_u64_eq(info.set_act_duration, 1000000);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

Suite *sim_sets_suite(void)
{
	Suite *s = suite_create("sim_sets");
	TCase *tc = sim_tcase("sets");

	tcase_add_loop_test(tc, test_timeout_switch, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_overflow_switch, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_single_set_timeout, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_single_set_overflow, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_switch_only_difference, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_hybrid_migrate_mid_turn, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_hybrid_rotation_every_type, 0, sim_nr_core_models());
	suite_add_tcase(s, tc);
	return s;
}
