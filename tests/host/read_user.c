// SPDX-License-Identifier: GPL-2.0
/*
 * read_user: pfm_read_pmds() from a vector in user memory (rw_user.c), on the fake
 * unit, whose PMDs count in registers, and the software unit.
 *
 * A vector of up to 16 requests is read in one visit under ctx->lock with page
 * faults disabled; anything out of the ordinary hands the call to the long way.
 * The shim faults the Nth user access made with page faults disabled (a page the
 * kernel would have had to fault in), and counts pagefault_disable() calls: a
 * visit makes one.
 */
#include "harness.h"
#include "rw_user.h"

#define P48	(1ULL << FAKE_WIDTH)
#define PMC0	(FAKE_PMC_EN | 0x3c)

/* PMD0 of the fake unit counting on the calling thread from init, started. */
static struct pfm_context *counting_ctx(u64 init)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_write_pmc(ctx, 0, PMC0, 0);
	ck_write_pmd(ctx, 0, init);
	ck_load_self(ctx);
	ck_start(ctx);
	return ctx;
}

static void req_init(struct pfarg_pmd *pd, u16 set, u16 num)
{
	memset(pd, 0, sizeof(*pd));
	pd->reg_set = set;
	pd->reg_num = num;
	pd->reg_value = 0x5a5a5a5a;
}

static long read_user(struct pfm_context *ctx, struct pfarg_pmd *pd, unsigned int n)
{
	return pfm_read_pmds_user(ctx, (void __user *)pd, (u64)n * sizeof(*pd));
}

/* A live PMD in a register: the visit reads it, carry out of 48 bits included. */
START_TEST(test_visit_reads_register)
{
	struct pfm_context *ctx = counting_ctx(P48 - 10);
	unsigned int visits = shim_pagefault_disables;
	unsigned int reads = fake_pmu.nr_read_pmd;
	struct pfarg_pmd pd[2];

	ck_write_pmd(ctx, SW_PMD(0), 77);
	fake_pmu_advance(0, 25);
	req_init(&pd[0], 0, 0);
	req_init(&pd[1], 0, SW_PMD(0));
	ck_assert_int_eq(read_user(ctx, pd, 2), 0);
	ck_assert_u64_eq(pd[0].reg_value, P48 + 15);
	ck_assert_u64_eq(pd[1].reg_value, 77);
	ck_assert_uint_eq(shim_pagefault_disables, visits + 1);
	ck_assert_uint_eq(fake_pmu.nr_read_pmd, reads + 1);
	ck_done(ctx);
}
END_TEST

/*
 * A page not at hand, at each of the visit's user accesses of a vector of two:
 * ten fetches (a head and four reserved words each) and six answers.  The long
 * way answers, the same.
 */
START_TEST(test_visit_hands_off_at_each_access)
{
	struct pfm_context *ctx = counting_ctx(1000);
	struct pfarg_pmd pd[2];
	int at;

	for (at = 0; at < 16; at++) {
		unsigned int visits = shim_pagefault_disables;

		fake_pmu_advance(0, 1);
		req_init(&pd[0], 0, 0);
		req_init(&pd[1], 0, 0);
		shim_uaccess_fault_at = at;
		ck_assert_int_eq(read_user(ctx, pd, 2), 0);
		ck_assert_msg(shim_uaccess_fault_at == -1, "access %d: no fault", at);
		ck_assert_u64_eq(pd[0].reg_value, 1001 + at);
		ck_assert_u64_eq(pd[1].reg_value, 1001 + at);
		ck_assert_uint_eq(shim_pagefault_disables, visits + 1);
	}
	ck_done(ctx);
}
END_TEST

/*
 * A failed read reads no register and writes nothing back, whichever check fails;
 * a PMD not implemented is told by its offset, past every set's array.
 */
START_TEST(test_visit_failed_reads_no_register)
{
	struct pfm_context *ctx = counting_ctx(5);
	unsigned int reads, k;
	struct pfarg_pmd pd[3];

	fake_pmu_advance(0, 3);
	for (k = 0; k < 5; k++) {
		req_init(&pd[0], 0, 0);
		req_init(&pd[1], 0, SW_PMD(0));
		req_init(&pd[2], 0, 0);
		if (k == 0)
			pd[2].reg_num = PFM_NUM_PMDS;
		else if (k == 4)
			pd[2].reg_num = 7;	/* in the space, not implemented */
		else if (k == 1)
			pd[2].reg_set = 7;
		else if (k == 2)
			pd[2].reg_flags = 1u << 31;
		else
			pd[2].reg_reserved2[3] = 1;
		reads = fake_pmu.nr_read_pmd;
		ck_assert_int_eq(read_user(ctx, pd, 3), -EINVAL);
		ck_assert_uint_eq(fake_pmu.nr_read_pmd, reads);
		ck_assert_u64_eq(pd[0].reg_value, 0x5a5a5a5a);
		ck_assert_u64_eq(pd[1].reg_value, 0x5a5a5a5a);
	}
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 8);
	ck_done(ctx);
}
END_TEST

/* Sets in turn: the live one's PMD from its register, the other's from memory. */
START_TEST(test_visit_sets_in_turn)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmd pd[4];

	ck_create_set(ctx, 3, 0, 0);
	ck_write_pmc(ctx, 0, PMC0, 0);
	ck_write_pmd(ctx, 0, 100);
	ck_write_set_pmd(ctx, 3, 0, 300);
	ck_write_set_pmd(ctx, 3, 1, 301);
	ck_load_self(ctx);
	ck_start(ctx);
	fake_pmu_advance(0, 7);
	req_init(&pd[0], 3, 0);
	req_init(&pd[1], 0, 0);
	req_init(&pd[2], 3, 1);
	req_init(&pd[3], 0, 0);
	ck_assert_int_eq(read_user(ctx, pd, 4), 0);
	ck_assert_u64_eq(pd[0].reg_value, 300);
	ck_assert_u64_eq(pd[1].reg_value, 107);
	ck_assert_u64_eq(pd[2].reg_value, 301);
	ck_assert_u64_eq(pd[3].reg_value, 107);
	ck_done(ctx);
}
END_TEST

/* 16 requests are read in one visit, 17 the long way: the same answers. */
START_TEST(test_visit_length)
{
	struct pfm_context *ctx = counting_ctx(40);
	struct pfarg_pmd pd[17];
	unsigned int n, k;

	fake_pmu_advance(0, 2);
	for (n = 16; n <= 17; n++) {
		unsigned int visits = shim_pagefault_disables;

		for (k = 0; k < n; k++)
			req_init(&pd[k], 0, k % 2 ? SW_PMD(k % 8) : 0);
		ck_assert_int_eq(read_user(ctx, pd, n), 0);
		for (k = 0; k < n; k++)
			ck_assert_u64_eq(pd[k].reg_value, k % 2 ? 0 : 42);
		ck_assert_uint_eq(shim_pagefault_disables, visits + (n == 16));
	}
	ck_done(ctx);
}
END_TEST

Suite *pfm_read_user_suite(void)
{
	Suite *s = suite_create("read_user");
	TCase *tc = pfm_host_tcase("visit", pfm_host_setup);

	tcase_add_test(tc, test_visit_reads_register);
	tcase_add_test(tc, test_visit_hands_off_at_each_access);
	tcase_add_test(tc, test_visit_failed_reads_no_register);
	tcase_add_test(tc, test_visit_sets_in_turn);
	tcase_add_test(tc, test_visit_length);
	suite_add_tcase(s, tc);
	return s;
}
