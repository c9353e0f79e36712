// SPDX-License-Identifier: GPL-2.0
/*
 * sw_words: the software unit's counters past the first 64 (PMC/PMD 128..1087),
 * through the core.  Every word of counters counts, carries, ticks and switches
 * as the first does, and those the bit vectors name (below PMD 320) notify as
 * well; a bank walks only the words up to its last counter in use, so one that
 * used the last word and no longer does walks one again.  The counters past the
 * bit vectors take no part in overflow handling: what would need a bit vector
 * is refused, and their carries are told to nobody.
 */
#include "harness.h"
#include "sw_bank.h"

#define LAST	(PFM_SW_NUM_COUNTERS - 1)
#define LAST_BV	(PFM_SW_BV_COUNTERS - 1)	/* the last counter a bit vector names */

static void syscalls(unsigned int n)
{
	while (n--)
		pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
}

/* One counter in each word, and two in the last: each counts exactly. */
START_TEST(test_every_word_counts)
{
	static const u16 at[] = { 0, 63, 64, 130, 191, 192, LAST_BV, LAST_BV + 1, 600, 1000,
				  LAST - 1, LAST };
	struct pfm_context *ctx = ck_ctx_new(0);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(at); i++)
		ck_write_pmc(ctx, SW_PMC(at[i]), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmc(ctx, SW_PMC(100), PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS), 0);
	ck_write_pmc(ctx, SW_PMC(200), PFM_SW_PMC(PFM_SW_EV_CTX_SWITCHES), 0);
	ck_load_self(ctx);
	syscalls(3);					/* loaded, not started */
	ck_start(ctx);
	syscalls(7);
	pfm_sw_count(PFM_SW_EV_PAGE_FAULTS, 2);
	pfm_host_sched_out(ctx);
	syscalls(100);					/* someone else's */
	pfm_host_sched_in(ctx);
	syscalls(1);
	ck_stop(ctx);
	syscalls(4);
	for (i = 0; i < ARRAY_SIZE(at); i++)
		ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(at[i])), 8);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(100)), 2);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(200)), 1);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(201)), 0);
	ck_done(ctx);
}
END_TEST

/*
 * Carries of several words at one event reach the core in one overflow: one
 * message names every PMD that carried, the first word's and the others'.
 */
START_TEST(test_carries_of_every_word_notify_once)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_write_pmc(ctx, SW_PMC(1), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmc(ctx, SW_PMC(150), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmc(ctx, SW_PMC(LAST_BV), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmd_full(ctx, 0, SW_PMD(1), -3ULL, PFM_PMDFL_OVFL_NOTIFY, 0, -5ULL, 0);
	ck_write_pmd_full(ctx, 0, SW_PMD(150), -3ULL, PFM_PMDFL_OVFL_NOTIFY, 0, -5ULL, 0);
	ck_write_pmd_full(ctx, 0, SW_PMD(LAST_BV), -3ULL, PFM_PMDFL_OVFL_NOTIFY, 0, -5ULL, 0);
	ck_load_self(ctx);
	ck_start(ctx);
	syscalls(2);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 0);
	syscalls(1);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 1);
	ck_assert(test_bit(SW_PMD(1), pfm_host_env.ovfl_msg_pmds));
	ck_assert(test_bit(SW_PMD(150), pfm_host_env.ovfl_msg_pmds));
	ck_assert(test_bit(SW_PMD(LAST_BV), pfm_host_env.ovfl_msg_pmds));
	ck_assert_uint_eq(bitmap_weight(pfm_host_env.ovfl_msg_pmds, PFM_MAX_PMDS), 3);
	ck_assert(ctx->masked);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), 0);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(LAST_BV)), -5ULL);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(150)), -5ULL);
	ck_done(ctx);
}
END_TEST

/* A carry of a word past the first alone also takes the overflow path. */
START_TEST(test_carry_of_a_later_word_alone)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_write_pmc(ctx, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmc(ctx, SW_PMC(196), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmd_full(ctx, 0, SW_PMD(196), -2ULL, PFM_PMDFL_OVFL_NOTIFY, 0, -9ULL, 0);
	ck_load_self(ctx);
	ck_start(ctx);
	syscalls(2);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 1);
	ck_assert(test_bit(SW_PMD(196), pfm_host_env.ovfl_msg_pmds));
	ck_assert_uint_eq(bitmap_weight(pfm_host_env.ovfl_msg_pmds, PFM_MAX_PMDS), 1);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(0)), 2);
	ck_done(ctx);
}
END_TEST

/* A task clock in the last word ticks, stops with the thread, and folds at a read. */
START_TEST(test_task_clock_in_last_word)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_write_pmc(ctx, SW_PMC(2), PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK), 0);
	ck_write_pmc(ctx, SW_PMC(LAST), PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK), 0);
	ck_load_self(ctx);
	pfm_host_env.clock_ns = 1000;
	ck_start(ctx);
	pfm_host_env.clock_ns = 1500;
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(LAST)), 500);
	pfm_host_sched_out(ctx);
	pfm_host_env.clock_ns = 3000;
	pfm_host_sched_in(ctx);
	pfm_host_env.clock_ns = 3200;
	ck_stop(ctx);
	pfm_host_env.clock_ns = 9000;
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(LAST)), 700);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(2)), 700);
	ck_done(ctx);
}
END_TEST

/*
 * A sampling task clock in a word past the first: its carry's timer is armed for
 * it and the sample is taken when it fires.
 */
START_TEST(test_sampling_clock_past_first_word)
{
	struct pfm_context *ctx = ck_sampling_clock_at_1000(131);
	struct hrtimer *t;

	t = shim_hrtimer_last;
	ck_assert(t->armed);
	ck_assert_int_eq(t->expires, 2000);
	pfm_host_env.clock_ns = 2000;
	ck_assert(shim_hrtimer_fire(t));
	ck_assert_uint_eq(pfm_host_env.samples, 1);
	ck_assert(t->armed);
	ck_assert_int_eq(t->expires, 3000);
	ck_stop(ctx);
	ctx->smpl.fmt = NULL;
	ck_done(ctx);
}
END_TEST

/*
 * The words a bank walks follow the counters in use: a set that used the last
 * word, replaced by one that uses the first alone, leaves one word to walk.
 */
START_TEST(test_words_walked_follow_use)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_sw_bank *c = pfm_sw_bank(false);

	ck_write_pmc(ctx, SW_PMC(5), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	ck_assert_uint_eq(c->nwords, 1);
	ck_write_pmc(ctx, SW_PMC(LAST), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_assert_uint_eq(c->nwords, PFM_SW_NUM_COUNTERS / 64);
	syscalls(3);
	ck_write_pmc(ctx, SW_PMC(LAST), 0, 0);
	ck_assert_uint_eq(c->nwords, 1);
	syscalls(2);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(5)), 5);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(LAST)), 3);
	ck_done(ctx);
}
END_TEST

/*
 * A counter past the bit vectors refuses, one at a time and changing nothing,
 * what only overflow handling uses (each flag, a random mask, a sample event id,
 * reset and sample vectors, reset values, a switch count); the last counter
 * they name takes them.
 */
START_TEST(test_past_the_bit_vectors_no_overflow_fields)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_event_set *set = ctx_set0(ctx);
	static const u32 flags[] = { PFM_PMDFL_SMPL, PFM_PMDFL_SWITCH, PFM_PMDFL_OVFL_NOTIFY,
				     PFM_PMDFL_RANDOM };
	struct pfarg_pmd r;
	unsigned int k;

	ck_write_pmc(ctx, SW_PMC(LAST_BV + 1), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmd(ctx, SW_PMD(LAST_BV + 1), 5);
	for (k = 0; k < ARRAY_SIZE(flags) + 7; k++) {
		memset(&r, 0, sizeof(r));
		r.reg_num = SW_PMD(LAST_BV + 1);
		r.reg_value = 99;
		if (k < ARRAY_SIZE(flags))
			r.reg_flags = flags[k];
		else if (k == ARRAY_SIZE(flags) + 4)
			r.reg_short_reset = 1;
		else if (k == ARRAY_SIZE(flags) + 5)
			r.reg_long_reset = 1;
		else if (k == ARRAY_SIZE(flags) + 6)
			r.reg_ovfl_switch_cnt = 1;
		else if (k == ARRAY_SIZE(flags))
			r.reg_random_mask = 0xff;
		else if (k == ARRAY_SIZE(flags) + 1)
			r.reg_smpl_eventid = 1;
		else if (k == ARRAY_SIZE(flags) + 2)
			r.reg_reset_pmds[1] = 1;
		else
			r.reg_smpl_pmds[1] = 1;
		ck_assert_msg(pfm_write_pmds(ctx, &r, 1) == -EINVAL, "case %u", k);
		ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(LAST_BV + 1)), 5);
		ck_assert_uint_eq(pfm_set_pmd(set, SW_PMD(LAST_BV + 1))->flags, 0);
	}
	/* the last counter the bit vectors name takes them */
	memset(&r, 0, sizeof(r));
	r.reg_num = SW_PMD(LAST_BV);
	r.reg_flags = PFM_PMDFL_OVFL_NOTIFY;
	r.reg_random_mask = 0xff;
	r.reg_reset_pmds[1] = 1;
	ck_assert_int_eq(pfm_write_pmds(ctx, &r, 1), 0);
	ck_done(ctx);
}
END_TEST

/*
 * A carry of a counter past the bit vectors is a plain 64-bit wrap, told to
 * nobody: no message, nothing masked, the others count on.
 */
START_TEST(test_carry_past_the_bit_vectors_silent)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_write_pmc(ctx, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmc(ctx, SW_PMC(LAST), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmd(ctx, SW_PMD(LAST), -3ULL);
	ck_load_self(ctx);
	ck_start(ctx);
	syscalls(4);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 0);
	ck_assert(!ctx->masked);
	ck_assert(ctx->started);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(LAST)), 1);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(0)), 4);
	ck_done(ctx);
}
END_TEST

/*
 * A set's bitmaps of used registers cover the bit vectors' registers until a
 * write names one past them: then every register, the bits before kept.  Each
 * allocation of that write failed in turn is ENOMEM, and changes nothing.
 */
START_TEST(test_used_bitmaps_grow_past_the_bit_vectors)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_event_set *set = ctx_set0(ctx);
	unsigned long n;
	long live;

	ck_write_pmc(ctx, SW_PMC(5), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmd(ctx, SW_PMD(LAST_BV), 7);
	ck_assert_uint_eq(set->used_bits, PFM_MAX_PMDS);
	live = shim_alloc_live;
	for (n = 1; n < 10; n++) {
		shim_alloc_fail_nth(n);
		if (!pfm_host_write_pmc(ctx, 0, SW_PMC(LAST_BV + 1),
					PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0))
			break;
		ck_assert_uint_eq(set->used_bits, PFM_MAX_PMDS);
		ck_assert_int_eq(shim_alloc_live, live);
	}
	shim_alloc_fail_nth(0);
	ck_assert_uint_gt(n, 1);
	ck_assert_uint_eq(set->used_bits, PFM_NUM_PMDS);
	ck_assert(test_bit(SW_PMC(5), set->used_pmcs) && test_bit(SW_PMD(5), set->used_pmds));
	ck_assert(test_bit(SW_PMD(LAST_BV), set->used_pmds));
	ck_assert(test_bit(SW_PMC(LAST_BV + 1), set->used_pmcs));
	ck_assert(test_bit(SW_PMD(LAST_BV + 1), set->used_pmds));
	ck_assert(!test_bit(SW_PMD(LAST), set->used_pmds));
	ck_load_self(ctx);
	ck_start(ctx);
	syscalls(3);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(LAST_BV + 1)), 3);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(5)), 3);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(LAST_BV)), 7);
	ck_done(ctx);
}
END_TEST

/* The register past the last counter is no register: refused, and nothing changes. */
START_TEST(test_past_the_last_counter)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, SW_PMC(PFM_SW_NUM_COUNTERS),
					    PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0), -EINVAL);
	ck_assert_uint_eq(ctx_set0(ctx)->pmc_slots, 0);
	ck_done(ctx);
}
END_TEST

Suite *pfm_sw_words_suite(void)
{
	Suite *s = suite_create("sw_words");
	TCase *tc = pfm_host_tcase("words", pfm_host_setup_sw);

	tcase_add_test(tc, test_every_word_counts);
	tcase_add_test(tc, test_carries_of_every_word_notify_once);
	tcase_add_test(tc, test_carry_of_a_later_word_alone);
	tcase_add_test(tc, test_task_clock_in_last_word);
	tcase_add_test(tc, test_sampling_clock_past_first_word);
	tcase_add_test(tc, test_words_walked_follow_use);
	tcase_add_test(tc, test_past_the_bit_vectors_no_overflow_fields);
	tcase_add_test(tc, test_carry_past_the_bit_vectors_silent);
	tcase_add_test(tc, test_used_bitmaps_grow_past_the_bit_vectors);
	tcase_add_test(tc, test_past_the_last_counter);
	suite_add_tcase(s, tc);
	return s;
}
