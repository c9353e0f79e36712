// SPDX-License-Identifier: GPL-2.0
/*
 * notify: overflow notification (ovfl.c) and restart (state.c).
 *
 * A PMD written with PFM_PMDFL_OVFL_NOTIFY masks monitoring at its 64-bit overflow
 * and the controller gets a message (env.c records pfm_msg_ovfl_locked()); the
 * counters stop where they are until pfm_start(PFM_STARTFL_RESTART) reloads the
 * notified PMDs with their long reset value.  System calls of the software PMU are
 * the events: each pfm_sw_count() is one.
 */
#include "harness.h"

#define PMC	PFM_SW_FIRST_PMC
#define PMD	PFM_SW_FIRST_PMD

static void syscalls(unsigned int n)
{
	while (n--)
		pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
}

/* A context counting system calls on PMD64 (notifying) and PMD65 (not). */
static struct pfm_context *notify_ctx(u64 start, u64 long_reset)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_write_pmc(ctx, PMC, PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmc(ctx, PMC + 1, PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmd_full(ctx, 0, PMD, start, PFM_PMDFL_OVFL_NOTIFY, 0, long_reset, 0);
	ck_write_pmd(ctx, PMD + 1, 0);
	ck_load_self(ctx);
	ck_start(ctx);
	return ctx;
}

START_TEST(test_notify_masks)
{
	struct pfm_context *ctx = notify_ctx(-3ULL, -5ULL);

	syscalls(2);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 0);
	syscalls(1);					/* the overflow */
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 1);
	ck_assert(test_bit(PMD, pfm_host_env.ovfl_msg_pmds));
	ck_assert_uint_eq(bitmap_weight(pfm_host_env.ovfl_msg_pmds, PFM_MAX_PMDS), 1);
	ck_assert(ctx->masked);
	ck_assert(!ctx->started);
	/* masked: nothing counts, and the counters keep what they had */
	syscalls(10);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD), 0);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD + 1), 3);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 1);

	/* restart: the long reset, then counting again up to the next overflow */
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), 0);
	ck_assert(!ctx->masked);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD), -5ULL);
	ck_assert_u64_eq(pfm_set_pmd(ctx_set0(ctx), PMD)->last_reset_val, -5ULL);
	syscalls(4);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 1);
	syscalls(1);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 2);
	ck_assert(ctx->masked);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD + 1), 8);
	/* a restart of a masked context started by nobody else is the only resume */
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), 0);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), -EBUSY);
	ck_done(ctx);
}
END_TEST

START_TEST(test_restart_refusals)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	/* not attached: EINVAL as any start; attached, nothing to resume: EBUSY */
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), -EINVAL);
	ck_load_self(ctx);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), -EBUSY);
	ck_start(ctx);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), -EBUSY);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART | PFM_STARTFL_SET, 0), -EINVAL);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 1), -EINVAL);
	ck_assert(ctx->started);
	ck_done(ctx);
}
END_TEST

/* Stop, plain start and detach lift the mask and drop the pending reset. */
START_TEST(test_mask_lifted)
{
	struct pfm_context *ctx;
	unsigned int how;

	for (how = 0; how < 3; how++) {
		ctx = notify_ctx(-1ULL, -7ULL);
		syscalls(1);
		ck_assert(ctx->masked);
		if (how == 0)
			ck_stop(ctx);
		else if (how == 1)
			ck_start(ctx);
		else
			ck_unload(ctx);
		ck_assert(!ctx->masked);
		ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0),
				 how == 2 ? -EINVAL : -EBUSY);
		ck_assert_u64_eq(ck_read_pmd(ctx, PMD), 0);
		ck_done(ctx);
	}
}
END_TEST

/* A PMD written while masked keeps the written value at restart. */
START_TEST(test_write_replaces_reset)
{
	struct pfm_context *ctx = notify_ctx(-1ULL, -7ULL);

	syscalls(1);
	ck_write_pmd_full(ctx, 0, PMD, 100, PFM_PMDFL_OVFL_NOTIFY, 0, -7ULL, 0);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), 0);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD), 100);
	syscalls(2);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD), 102);
	ck_done(ctx);
}
END_TEST

/* Overflows without notification are reset at once; reset_pmds follow their PMD. */
START_TEST(test_short_reset_and_reset_pmds)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmd r = {
		.reg_num = PMD, .reg_value = -2ULL, .reg_short_reset = -4ULL,
		.reg_long_reset = -1000ULL,
	};

	ck_write_pmc(ctx, PMC, PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmc(ctx, PMC + 1, PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	r.reg_reset_pmds[PMD / 64] = 1ULL << ((PMD + 1) % 64);
	ck_assert_int_eq(pfm_write_pmds(ctx, &r, 1), 0);
	ck_write_pmd_full(ctx, 0, PMD + 1, 50, 0, 7, 9, 0);
	ck_load_self(ctx);
	ck_start(ctx);
	syscalls(2);					/* PMD64 overflows */
	ck_assert(!ctx->masked);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 0);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD), -4ULL);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD + 1), 7);	/* its short reset */
	syscalls(3);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD), -1ULL);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD + 1), 10);
	ck_done(ctx);
}
END_TEST

/* A notifying overflow that completes a set switch: the switch waits for the restart. */
START_TEST(test_switch_deferred)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_setdesc d[2] = {
		{ .set_id = 0, .set_flags = PFM_SETFL_OVFL_SWITCH }, { .set_id = 1 },
	};
	struct pfarg_pmd r = {
		.reg_num = PMD, .reg_value = -2ULL, .reg_long_reset = -2ULL,
		.reg_flags = PFM_PMDFL_OVFL_NOTIFY | PFM_PMDFL_SWITCH,
		.reg_ovfl_switch_cnt = 1,
	};
	struct pfarg_pmc c = {
		.reg_num = PMC, .reg_set = 1, .reg_value = PFM_SW_PMC(PFM_SW_EV_SYSCALLS),
	};

	ck_assert_int_eq(pfm_create_evtsets(ctx, d, 2), 0);
	ck_write_pmc(ctx, PMC, PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_assert_int_eq(pfm_write_pmds(ctx, &r, 1), 0);
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	syscalls(2);
	ck_assert(ctx->masked);
	ck_assert_uint_eq(ctx->active->id, 0);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), 0);
	ck_assert_uint_eq(ctx->active->id, 1);
	/* set 0's PMD got its long reset all the same */
	ck_assert_u64_eq(pfm_set_pmd(pfm_find_set(ctx, 0), PMD)->value, -2ULL);
	syscalls(3);
	/* software counts are the live set's own values in memory, live or not */
	ck_assert_u64_eq(pfm_set_pmd(pfm_find_set(ctx, 1), PMD)->value, 3);
	ck_stop(ctx);
	ck_assert_u64_eq(pfm_set_pmd(pfm_find_set(ctx, 1), PMD)->value, 3);
	ck_done(ctx);
}
END_TEST

/* Switched out while masked, the thread comes back still masked. */
START_TEST(test_masked_across_switch)
{
	struct pfm_context *ctx = notify_ctx(-1ULL, -3ULL);

	syscalls(1);
	pfm_host_sched_out(ctx);
	pfm_host_sched_in(ctx);
	syscalls(5);
	ck_assert(ctx->masked);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD + 1), 1);
	pfm_host_sched_out(ctx);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), 0);
	syscalls(5);					/* away: not counted */
	pfm_host_sched_in(ctx);
	syscalls(2);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD), -1ULL);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD + 1), 3);
	ck_done(ctx);
}
END_TEST

/* NOTIFY_BLOCK: not on the caller itself; a mask asks the environment to hold the thread. */
START_TEST(test_notify_block)
{
	struct pfm_context *ctx = ck_ctx_new(PFM_FL_NOTIFY_BLOCK);
	struct pfarg_pmd r = {
		.reg_num = PMD, .reg_value = -1ULL, .reg_flags = PFM_PMDFL_OVFL_NOTIFY,
	};

	ck_write_pmc(ctx, PMC, PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_assert_int_eq(pfm_write_pmds(ctx, &r, 1), 0);
	ck_assert_int_eq(pfm_load(ctx, 0, current->pid), -EINVAL);
	ck_assert_int_eq(pfm_host_env.attached, 0);
	ck_assert_int_eq(pfm_load(ctx, 0, shim_task_other.pid), 0);
	/* the monitored thread runs (the start reaches it there) and overflows */
	current = &shim_task_other;
	pfm_host_hook_on(ctx);
	pfm_host_sched_in(ctx);
	ck_start(ctx);
	syscalls(1);
	current = &shim_task_self;
	ck_assert(ctx->masked);
	ck_assert_uint_eq(pfm_host_env.blocks, 1);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), 0);
	ck_done(ctx);
}
END_TEST

/*
 * PFM_PMDFL_SMPL: each overflow is a sample (env.c stands in for the format) and a
 * short reset; the sample that fills the buffer masks and notifies; the restart
 * starts the buffer over and applies the long reset.
 */
START_TEST(test_sampling)
{
	static const char fake_fmt;
	struct pfm_context *ctx = ck_ctx_new(0);

	ctx->smpl.fmt = (const struct pfm_smpl_fmt *)&fake_fmt;
	ck_write_pmc(ctx, PMC, PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmd_full(ctx, 0, PMD, -2ULL, PFM_PMDFL_SMPL, -3ULL, -10ULL, 0);
	ck_load_self(ctx);
	ck_start(ctx);
	syscalls(2 + 3 + 3);
	ck_assert_uint_eq(pfm_host_env.samples, 3);
	ck_assert(!ctx->masked);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD), -3ULL);
	pfm_host_env.smpl_full = true;
	syscalls(3);
	ck_assert_uint_eq(pfm_host_env.samples, 4);
	ck_assert(ctx->masked);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 1);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), 0);
	ck_assert_uint_eq(pfm_host_env.smpl_restarts, 1);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD), -10ULL);
	ctx->smpl.fmt = NULL;
	ck_done(ctx);
}
END_TEST

/* PFM_PMDFL_RANDOM: the reset value less the random bits within reg_random_mask. */
START_TEST(test_random_reset)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmd r = {
		.reg_num = PMD, .reg_value = -1ULL, .reg_flags = PFM_PMDFL_RANDOM,
		.reg_short_reset = -10ULL, .reg_random_mask = 0xf,
	};

	ck_write_pmc(ctx, PMC, PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_assert_int_eq(pfm_write_pmds(ctx, &r, 1), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	shim_random = 0x1234567;			/* masked: 7 */
	syscalls(1);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD), -17ULL);
	ck_assert_u64_eq(pfm_set_pmd(ctx_set0(ctx), PMD)->last_reset_val, -17ULL);
	shim_random = 0;
	syscalls(17);
	ck_assert_u64_eq(ck_read_pmd(ctx, PMD), -10ULL);
	ck_done(ctx);
}
END_TEST

Suite *pfm_notify_suite(void)
{
	Suite *s = suite_create("notify");
	TCase *tc = pfm_host_tcase("notify", pfm_host_setup_sw);

	tcase_add_test(tc, test_notify_masks);
	tcase_add_test(tc, test_restart_refusals);
	tcase_add_test(tc, test_mask_lifted);
	tcase_add_test(tc, test_write_replaces_reset);
	tcase_add_test(tc, test_short_reset_and_reset_pmds);
	tcase_add_test(tc, test_switch_deferred);
	tcase_add_test(tc, test_masked_across_switch);
	tcase_add_test(tc, test_notify_block);
	tcase_add_test(tc, test_sampling);
	tcase_add_test(tc, test_random_reset);
	suite_add_tcase(s, tc);
	return s;
}
