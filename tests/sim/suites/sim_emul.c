// SPDX-License-Identifier: GPL-2.0
/*
 * emul64: 64-bit counts over counters of 31 to 48 bits, across many hardware
 * wraps (each one a PMI, claimed and handled), and 64-bit overflows: found
 * exactly when the 64-bit value carries, reported in the set's overflowed-PMD
 * mask, reset to the short reset value.
 */
#include "sim_test.h"

static u64 view(void)
{
	return 1ULL << sim_view_width();
}

/* A context on GP counter 0 counting instructions from init (and fixed 0 if any). */
static struct pfm_context *inst_ctx(u64 init, u32 pmc_flags)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(SIM_EV_INST), pmc_flags), 0);
	ck_write_pmd(ctx, GP_PMD(0), init);
	if (sim_has_fixed()) {
		ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, FX_PMC, PFM_X86_FIXED_USR(0),
						    pmc_flags), 0);
		ck_write_pmd(ctx, FX_PMD(0), init);
	}
	ck_load_self(ctx);
	ck_start(ctx);
	return ctx;
}

static void done(struct pfm_context *ctx)
{
	ck_unload(ctx);
	pfm_context_put(ctx);
}

static u64 ovfl_pmds(struct pfm_context *ctx)
{
	struct pfarg_setinfo info;

	ck_getinfo(ctx, 0, &info);
	return info.set_ovfl_pmds[0];
}

/* Ten wraps of the hardware counter in one go: ten PMIs, an exact 64-bit count. */
START_TEST(test_many_wraps)
{
	struct pfm_context *ctx;
	u64 n = 10 * view() + 123;
	unsigned long pmis;

	sim_start(_i);
	ctx = inst_ctx(0, 0);
	pmis = sim.pmis;
	sim_count(SIM_EV_INST, n, SIM_USER);
	/*
	 * One PMI per arming period of the GP counter (its whole view, or 2^31 where
	 * only 32 bits can be written); the fixed counters' periods are multiples of
	 * it, so their wraps fall on the same steps and add none.
	 */
	ck_assert_uint_eq(sim.pmis - pmis, n / pfm_x86_pmu.gp_period);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), n);
	if (sim_has_fixed())
		ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(0)), n);
	ck_assert_u64_eq(ovfl_pmds(ctx), 0);		/* wraps are not overflows */
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), n);
	done(ctx);
}
END_TEST

/* Many wraps one by one, reading between them. */
START_TEST(test_wraps_step_by_step)
{
	struct pfm_context *ctx;
	u64 expect = view() - 3;
	unsigned int k;

	sim_start(_i);
	ctx = inst_ctx(expect, 0);
	for (k = 0; k < 100; k++) {
		u64 step = view() / 3 + k;

		sim_count(SIM_EV_INST, step, SIM_USER);
		expect += step;
		ck_assert_msg(ck_read_pmd(ctx, GP_PMD(0)) == expect, "step %u", k);
	}
	done(ctx);
}
END_TEST

/* A 64-bit overflow, and the mask of the PMDs that overflowed. */
START_TEST(test_overflow_mask)
{
	struct pfm_context *ctx;
	struct pfarg_pmd pd[2];

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_write_pmc(ctx, GP_PMC(1), SEL_U(SIM_EV_INST), 0);
	memset(pd, 0, sizeof(pd));
	pd[0].reg_num = GP_PMD(0);
	pd[0].reg_value = -1000ULL;
	pd[1].reg_num = GP_PMD(1);
	pd[1].reg_value = -2500ULL;
	pd[1].reg_short_reset = -100ULL;
	ck_assert_int_eq(pfm_write_pmds(ctx, pd, 2), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 999, SIM_USER);
	ck_assert_u64_eq(ovfl_pmds(ctx), 0);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_assert_u64_eq(ovfl_pmds(ctx), 1ULL << GP_PMD(0));
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 0);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(1)), -1500ULL);
	sim_count(SIM_EV_INST, 1500 + 30, SIM_USER);
	ck_assert_u64_eq(ovfl_pmds(ctx), 1ULL << GP_PMD(1));
	/* reset to the short reset value, what counted past the overflow kept */
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(1)), -100ULL + 30);
	sim_count(SIM_EV_INST, 70, SIM_USER);
	ck_assert_u64_eq(ovfl_pmds(ctx), 1ULL << GP_PMD(1));	/* again */
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(1)), -100ULL);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 1530 + 70);
	done(ctx);
}
END_TEST

/* The overflow is at 2^64, not at the hardware width: many wraps before it. */
START_TEST(test_overflow_after_wraps)
{
	struct pfm_context *ctx;
	u64 dist = 3 * view() + 7;

	sim_start(_i);
	ctx = inst_ctx(-dist, 0);
	sim_count(SIM_EV_INST, dist - 1, SIM_USER);
	ck_assert_u64_eq(ovfl_pmds(ctx), 0);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), ~0ULL);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 0);
	if (sim_has_fixed()) {
		ck_assert_u64_eq(ovfl_pmds(ctx), 1ULL << GP_PMD(0) | 1ULL << FX_PMD(0));
		ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(0)), 0);
	} else {
		ck_assert_u64_eq(ovfl_pmds(ctx), 1ULL << GP_PMD(0));
	}
	done(ctx);
}
END_TEST

/*
 * Notification through the PMI: the overflow masks monitoring (the counter stops
 * in the hardware too), one message; the restart loads the long reset into the
 * counter and counting goes on to the next notification.
 */
START_TEST(test_notify_masks_hardware)
{
	struct pfm_context *ctx;
	struct pfarg_pmd d = {
		.reg_num = GP_PMD(0), .reg_value = -100ULL, .reg_long_reset = -40ULL,
		.reg_flags = PFM_PMDFL_OVFL_NOTIFY,
	};
	u64 hw;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(SIM_EV_INST), 0), 0);
	ck_assert_int_eq(pfm_write_pmds(ctx, &d, 1), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 99, SIM_USER);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 0);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 1);
	ck_assert(ctx->masked);
	/* masked: the hardware counter does not move */
	hw = sim_peek(sim_ctr_msr(0));
	sim_count(SIM_EV_INST, 500, SIM_USER);
	ck_assert_u64_eq(sim_peek(sim_ctr_msr(0)), hw);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 0);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), 0);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), -40ULL);
	sim_count(SIM_EV_INST, 39, SIM_USER);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 1);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 2);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 0);
	done(ctx);
}
END_TEST

/* Sampling through the PMI: a sample per period, and the counter reloaded each time. */
START_TEST(test_sampling_periods)
{
	static const char fake_fmt;
	struct pfm_context *ctx;
	struct pfarg_pmd d = {
		.reg_num = GP_PMD(0), .reg_value = -30ULL, .reg_short_reset = -30ULL,
		.reg_flags = PFM_PMDFL_SMPL,
	};

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ctx->smpl.fmt = (const struct pfm_smpl_fmt *)&fake_fmt;
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(SIM_EV_INST), 0), 0);
	ck_assert_int_eq(pfm_write_pmds(ctx, &d, 1), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 30 * 7 + 5, SIM_USER);
	ck_assert_uint_eq(pfm_host_env.samples, 7);
	ck_assert(!ctx->masked);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), -25ULL);
	ctx->smpl.fmt = NULL;
	done(ctx);
}
END_TEST

/* A fixed counter's overflow alone. */
START_TEST(test_fixed_overflow)
{
	struct pfm_context *ctx;

	sim_start(_i);
	if (!sim_has_fixed())
		return;
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, FX_PMC, PFM_X86_FIXED_USR(1), 0);
	ck_write_pmd(ctx, FX_PMD(1), -50ULL);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_CYCLES, 60, SIM_USER);
	ck_assert_u64_eq(ovfl_pmds(ctx), 1ULL << FX_PMD(1));
	ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(1)), 10);
	done(ctx);
}
END_TEST

/* NO_EMUL64: the raw hardware part of the counter, as wide as pmd width says. */
START_TEST(test_no_emul64)
{
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = inst_ctx(view() - 10, PFM_PMCFL_NO_EMUL64);
	sim_count(SIM_EV_INST, 25, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 15);
	sim_count(SIM_EV_INST, view() - 20, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), view() - 5);
	ck_assert_u64_eq(ovfl_pmds(ctx), 0);
	done(ctx);
}
END_TEST

/* Stopped across a wrap point and restarted: no wrap is invented or lost. */
START_TEST(test_wrap_across_stop)
{
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = inst_ctx(view() - 5, 0);
	sim_count(SIM_EV_INST, 4, SIM_USER);
	ck_stop(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 4, SIM_USER);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), view() + 3);
	done(ctx);
}
END_TEST

/*
 * The irq_work runs after the NMI, when interrupts come back on: a read in
 * between sees the counter past its wrap, not yet re-armed.  Exact all the same.
 */
START_TEST(test_read_before_rearm)
{
	struct pfm_context *ctx;
	u64 p;

	sim_start(_i);
	p = pfm_x86_pmu.gp_period;
	ctx = inst_ctx(0, 0);
	sim.hold_work = true;
	sim_count(SIM_EV_INST, p + 5, SIM_USER);
	ck_assert(sim.work_pending);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), p + 5);
	sim_count(SIM_EV_INST, 5, SIM_USER);
	sim_run_work();
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), p + 10);
	sim.hold_work = false;
	sim_count(SIM_EV_INST, 3 * p, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 4 * p + 10);
	done(ctx);
}
END_TEST

/* Switched out between the NMI and the irq_work: re-armed while saved. */
START_TEST(test_switch_before_rearm)
{
	struct pfm_context *ctx;
	u64 p;

	sim_start(_i);
	p = pfm_x86_pmu.gp_period;
	ctx = inst_ctx(0, 0);
	sim.hold_work = true;
	sim_count(SIM_EV_INST, p + 5, SIM_USER);
	pfm_host_sched_out(ctx);
	sim_run_work();
	sim.hold_work = false;
	pfm_host_sched_in(ctx);
	sim_count(SIM_EV_INST, 2 * p, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 3 * p + 5);
	done(ctx);
}
END_TEST

/*
 * A 64-bit overflow that a read syncs before the irq_work does: the core's read
 * path does not act on the carry (pfm_pmd_sync()'s result), so it is lost.
 */
START_TEST(test_overflow_seen_by_read_first)
{
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = inst_ctx(-10ULL, 0);
	sim.hold_work = true;
	sim_count(SIM_EV_INST, 10, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 0);
	sim_run_work();
	ck_assert_u64_eq(ovfl_pmds(ctx) & 1, 1);
	done(ctx);
}
END_TEST

Suite *sim_emul_suite(void)
{
	Suite *s = suite_create("sim_emul64");
	TCase *tc = sim_tcase("emul64");

	tcase_add_loop_test(tc, test_many_wraps, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_wraps_step_by_step, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_overflow_mask, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_overflow_after_wraps, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_fixed_overflow, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_no_emul64, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_wrap_across_stop, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_read_before_rearm, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_switch_before_rearm, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_notify_masks_hardware, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_sampling_periods, 0, sim_nr_core_models());
	suite_add_tcase(s, tc);

	/* A carry seen first by a read stays pending for the overflow path. */
	tc = sim_tcase("emul64_core");
	tcase_add_loop_test(tc, test_overflow_seen_by_read_first, 0, sim_nr_core_models());
	suite_add_tcase(s, tc);
	return s;
}
