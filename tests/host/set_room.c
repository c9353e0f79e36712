// SPDX-License-Identifier: GPL-2.0
/*
 * set_room: a set's arrays hold the registers its writes named, no more
 * (set_room.c): they grow at a write past them, also while the software bank
 * counts into them, a failed growth changes nothing, and a register past them
 * reads as never written.
 */
#include "harness.h"
#include "rw_user.h"

static const u64 sys = PFM_SW_PMC(PFM_SW_EV_SYSCALLS);

static void syscalls(unsigned int n)
{
	while (n--)
		pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
}

static unsigned int pmc_reach(unsigned int i)
{
	return pfm_pmu.pmc_slot[i] + 1;
}

static unsigned int pmd_reach(unsigned int i)
{
	return pfm_pmu.pmd_slot[i] + 1;
}

/* A read through the user door (rw_user.c's visit) of PMD num of set 0. */
static u64 read_user(struct pfm_context *ctx, u16 num)
{
	struct pfarg_pmd pd = { .reg_num = num, .reg_value = 0x5a5a };

	ck_assert_int_eq(pfm_read_pmds_user(ctx, (void __user *)&pd, sizeof(pd)), 0);
	return pd.reg_value;
}

/* PMD num of set 0 reads v both ways: the kernel vector's and the user door's. */
static void ck_reads(struct pfm_context *ctx, u16 num, u64 v)
{
	ck_assert_u64_eq(ck_read_pmd(ctx, num), v);
	ck_assert_u64_eq(read_user(ctx, num), v);
}

START_TEST(test_grows_by_use)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_event_set *set = ctx_set0(ctx);

	ck_assert_uint_eq(set->pmc_slots, 0);
	ck_assert_uint_eq(set->pmd_slots, 0);
	ck_assert_ptr_null(set->pmds);
	/* a read past the arrays: zero, and they stay as they are */
	ck_reads(ctx, SW_PMD(9), 0);
	ck_assert_ptr_null(set->pmds);

	/* a PMC: its slot, and its PMD's */
	ck_write_pmc(ctx, SW_PMC(3), sys, 0);
	ck_assert_uint_eq(set->pmc_slots, pmc_reach(SW_PMC(3)));
	ck_assert_uint_eq(set->pmd_slots, pmd_reach(SW_PMD(3)));
	ck_assert_uint_eq(set->pmds_bytes, set->pmd_slots * sizeof(struct pfm_pmd));
	ck_write_pmd(ctx, SW_PMD(3), 77);

	/* a lower one: nothing moves */
	ck_write_pmc(ctx, SW_PMC(1), sys, 0);
	ck_assert_uint_eq(set->pmc_slots, pmc_reach(SW_PMC(3)));
	ck_assert_u64_eq(pfm_set_pmc_val(set, SW_PMC(2)), 0);

	/* a PMD alone: the PMDs grow, the PMCs do not */
	ck_write_pmd(ctx, SW_PMD(20), 5);
	ck_assert_uint_eq(set->pmd_slots, pmd_reach(SW_PMD(20)));
	ck_assert_uint_eq(set->pmc_slots, pmc_reach(SW_PMC(3)));
	ck_assert_u64_eq(pfm_set_pmc_val(set, SW_PMC(20)), 0);
	/* what was written before the growth is still there */
	ck_reads(ctx, SW_PMD(3), 77);
	ck_assert_u64_eq(*pfm_set_pmc(set, SW_PMC(3)), sys);
	ck_reads(ctx, SW_PMD(20), 5);
	ck_reads(ctx, SW_PMD(21), 0);
	ck_done(ctx);
}
END_TEST

/*
 * A write past the arrays while the bank counts into them: the bank counts into
 * the new ones from there (into the freed ones otherwise, which ASan reports).
 */
START_TEST(test_grows_while_counting)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_event_set *set = ctx_set0(ctx);
	struct pfm_pmd *old;

	ck_write_pmc(ctx, SW_PMC(0), sys, 0);
	ck_load_self(ctx);
	ck_start(ctx);
	syscalls(5);
	old = set->pmds;
	ck_write_pmc(ctx, SW_PMC(30), sys, 0);
	ck_assert_ptr_ne(set->pmds, old);
	ck_assert_uint_eq(set->pmd_slots, pmd_reach(SW_PMD(30)));
	syscalls(3);
	ck_reads(ctx, SW_PMD(0), 8);
	ck_reads(ctx, SW_PMD(30), 3);
	ck_done(ctx);
}
END_TEST

/* Every allocation of a growth failed in turn: ENOMEM, nothing changed, no leak. */
START_TEST(test_growth_fails_whole)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_event_set *set = ctx_set0(ctx);
	struct pfarg_pmd pd = { .reg_num = SW_PMD(12), .reg_value = 9, .reg_reset_pmds = { 1 } };
	unsigned long n;
	long live;

	ck_write_pmc(ctx, SW_PMC(2), sys, 0);
	ck_write_pmd(ctx, SW_PMD(2), 40);
	live = shim_alloc_live;
	for (n = 1; n < 10; n++) {
		shim_alloc_fail_nth(n);
		if (!pfm_host_write_pmc(ctx, 0, SW_PMC(11), sys, 0))
			break;
		ck_assert_uint_eq(set->pmc_slots, pmc_reach(SW_PMC(2)));
		ck_assert_uint_eq(set->pmd_slots, pmd_reach(SW_PMD(2)));
		ck_assert(!test_bit(SW_PMC(11), set->used_pmcs));
		ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(2)), 40);
		ck_assert_int_eq(shim_alloc_live, live);
	}
	shim_alloc_fail_nth(0);
	ck_assert_uint_eq(n, 3);	/* the PMCs, the PMDs */
	ck_assert_uint_eq(set->pmc_slots, pmc_reach(SW_PMC(11)));
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(2)), 40);

	/*
	 * A PMD with options: the PMDs grow (the PMCs do not), then the options'
	 * array is made; its failure leaves the PMDs grown, no register changed.
	 */
	for (n = 1; n < 10; n++) {
		shim_alloc_fail_nth(n);
		if (!pfm_write_pmds(ctx, &pd, 1))
			break;
		ck_assert_uint_eq(set->pmc_slots, pmc_reach(SW_PMC(11)));
		ck_assert(!test_bit(SW_PMD(12), set->used_pmds));
		ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(12)), 0);
	}
	shim_alloc_fail_nth(0);
	ck_assert_uint_eq(n, 3);	/* the PMDs, the options */
	ck_assert_uint_eq(set->pmc_slots, pmc_reach(SW_PMC(11)));
	ck_assert_uint_eq(set->pmd_slots, pmd_reach(SW_PMD(12)));
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(12)), 9);
	ck_assert_u64_eq(pfm_set_opts(set, SW_PMD(12))->reset_pmds[0], 1);
	/* the options move with a growth */
	pd.reg_num = SW_PMD(40);
	pd.reg_reset_pmds[0] = 2;
	ck_assert_int_eq(pfm_write_pmds(ctx, &pd, 1), 0);
	ck_assert_u64_eq(pfm_set_opts(set, SW_PMD(12))->reset_pmds[0], 1);
	ck_assert_u64_eq(pfm_set_opts(set, SW_PMD(40))->reset_pmds[0], 2);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(2)), 40);
	ck_done(ctx);
}
END_TEST

/* A vector naming two sets: each grows once, to what the vector names in it. */
START_TEST(test_vector_of_two_sets)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmc pc[3] = {
		{ .reg_num = SW_PMC(4), .reg_set = 0, .reg_value = sys },
		{ .reg_num = SW_PMC(9), .reg_set = 1, .reg_value = sys },
		{ .reg_num = SW_PMC(6), .reg_set = 0, .reg_value = sys },
	};
	unsigned long calls;

	ck_create_set(ctx, 1, 0, 0);
	calls = shim_alloc_calls;
	ck_assert_int_eq(pfm_write_pmcs(ctx, pc, 3), 0);
	ck_assert_uint_eq(shim_alloc_calls - calls, 4);
	ck_assert_uint_eq(pfm_find_set(ctx, 0)->pmc_slots, pmc_reach(SW_PMC(6)));
	ck_assert_uint_eq(pfm_find_set(ctx, 1)->pmc_slots, pmc_reach(SW_PMC(9)));
	ck_assert_uint_eq(pfm_find_set(ctx, 1)->pmd_slots, pmd_reach(SW_PMD(9)));
	/* written again: no allocation */
	calls = shim_alloc_calls;
	ck_assert_int_eq(pfm_write_pmcs(ctx, pc, 3), 0);
	ck_assert_uint_eq(shim_alloc_calls - calls, 0);
	ck_done(ctx);
}
END_TEST

Suite *pfm_set_room_suite(void)
{
	Suite *s = suite_create("set_room");
	TCase *tc = pfm_host_tcase("set_room", pfm_host_setup);

	tcase_add_test(tc, test_grows_by_use);
	tcase_add_test(tc, test_grows_while_counting);
	tcase_add_test(tc, test_growth_fails_whole);
	tcase_add_test(tc, test_vector_of_two_sets);
	suite_add_tcase(s, tc);
	return s;
}
