// SPDX-License-Identifier: GPL-2.0
/*
 * args: copying vector arguments in and out (args.c).
 *
 * Size rules first (EINVAL: empty or not whole; E2BIG: over arg_mem_max), then the
 * copy (EFAULT), so a bad size is reported as such whatever the pointer; a failed
 * copy leaks nothing.
 */
#include "harness.h"

#define ELEM	sizeof(struct pfarg_pmc)

static void ck_vec_err(const void *uptr, u64 size, size_t elem, long err)
{
	void *p = pfm_vec_copy_in(uptr, size, elem);

	ck_assert_msg(IS_ERR(p) && PTR_ERR(p) == err, "size %llu, elem %zu: %ld, not %ld",
		      (unsigned long long)size, elem, IS_ERR(p) ? PTR_ERR(p) : 0L, err);
}

START_TEST(test_size_zero)
{
	struct pfarg_pmc v[2] = {};

	ck_vec_err(v, 0, ELEM, -EINVAL);
	ck_assert_uint_eq(shim_uaccess_calls, 0);
	ck_assert_uint_eq(shim_alloc_calls, 0);
}
END_TEST

START_TEST(test_size_not_whole)
{
	struct pfarg_pmc v[3] = {};

	ck_vec_err(v, 1, ELEM, -EINVAL);
	ck_vec_err(v, ELEM - 1, ELEM, -EINVAL);
	ck_vec_err(v, ELEM + 1, ELEM, -EINVAL);
	ck_vec_err(v, 3 * ELEM - 8, ELEM, -EINVAL);
	ck_assert_uint_eq(shim_uaccess_calls, 0);
}
END_TEST

START_TEST(test_size_over_max)
{
	static char big[2 * PAGE_SIZE];
	void *p;

	ck_assert_uint_eq(pfm_arg_mem_max, PAGE_SIZE);
	ck_vec_err(big, PAGE_SIZE + 16, 16, -E2BIG);
	ck_vec_err(big, 2 * PAGE_SIZE, 16, -E2BIG);
	/* A size that is both not whole and too big is not whole. */
	ck_vec_err(big, PAGE_SIZE + 17, 16, -EINVAL);
	/* The limit itself is accepted. */
	p = pfm_vec_copy_in(big, PAGE_SIZE, 16);
	ck_assert(!IS_ERR(p));
	kfree(p);
	/* It follows arg_mem_max. */
	pfm_arg_mem_max = 2 * ELEM;
	ck_vec_err(big, 3 * ELEM, ELEM, -E2BIG);
	p = pfm_vec_copy_in(big, 2 * ELEM, ELEM);
	ck_assert(!IS_ERR(p));
	kfree(p);
	/* Sizes that do not fit in 32 bits are not truncated. */
	ck_vec_err(big, (u64)ELEM << 32, ELEM, -E2BIG);
	ck_vec_err(big, ~0ULL - (~0ULL % ELEM), ELEM, -E2BIG);
}
END_TEST

START_TEST(test_fault)
{
	const void *bad[] = { NULL, (void *)8, (void *)4095, SHIM_BAD_UPTR };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ck_vec_err(bad[i], 2 * ELEM, ELEM, -EFAULT);
		ck_assert_int_eq(shim_alloc_live, 0);	/* the buffer was freed */
	}
	ck_assert_uint_eq(shim_uaccess_calls, ARRAY_SIZE(bad));
}
END_TEST

/* Size errors win over a bad pointer, and the pointer is not even touched. */
START_TEST(test_size_before_pointer)
{
	ck_vec_err(SHIM_BAD_UPTR, 0, ELEM, -EINVAL);
	ck_vec_err(NULL, ELEM + 3, ELEM, -EINVAL);
	ck_vec_err(SHIM_BAD_UPTR, PAGE_SIZE + ELEM - PAGE_SIZE % ELEM, ELEM, -E2BIG);
	ck_vec_err((void *)16, 1ULL << 40, 8, -E2BIG);
	ck_assert_uint_eq(shim_uaccess_calls, 0);
	ck_assert_uint_eq(shim_alloc_calls, 0);
}
END_TEST

START_TEST(test_good_copy)
{
	struct pfarg_pmc v[3];
	struct pfarg_pmc *k;
	unsigned int i;

	for (i = 0; i < 3; i++)
		v[i] = (struct pfarg_pmc){ .reg_num = i + 1, .reg_set = 7 * i,
					   .reg_value = 0x1122334455667788ULL + i };
	k = pfm_vec_copy_in(v, sizeof(v), ELEM);
	ck_assert(!IS_ERR(k));
	ck_assert_ptr_ne(k, v);
	ck_assert_int_eq(memcmp(k, v, sizeof(v)), 0);
	ck_assert_int_eq(shim_alloc_live, 1);
	kfree(k);
}
END_TEST

START_TEST(test_nomem)
{
	struct pfarg_pmc v = {};

	shim_alloc_fail_nth(1);
	ck_vec_err(&v, sizeof(v), ELEM, -ENOMEM);
	ck_assert_uint_eq(shim_uaccess_calls, 0);
}
END_TEST

START_TEST(test_copy_out)
{
	struct pfarg_pmd in[2] = { { .reg_num = 1, .reg_value = 42 }, { .reg_num = 2 } };
	struct pfarg_pmd out[2];

	memset(out, 0xff, sizeof(out));
	ck_assert_int_eq(pfm_vec_copy_out(out, in, sizeof(in)), 0);
	ck_assert_int_eq(memcmp(in, out, sizeof(in)), 0);
	ck_assert_int_eq(pfm_vec_copy_out(SHIM_BAD_UPTR, in, sizeof(in)), -EFAULT);
	ck_assert_int_eq(pfm_vec_copy_out((void *)64, in, sizeof(in)), -EFAULT);
}
END_TEST

Suite *pfm_args_suite(void)
{
	Suite *s = suite_create("args");
	TCase *tc = pfm_host_tcase("vec", pfm_host_setup_bare);

	tcase_add_test(tc, test_size_zero);
	tcase_add_test(tc, test_size_not_whole);
	tcase_add_test(tc, test_size_over_max);
	tcase_add_test(tc, test_fault);
	tcase_add_test(tc, test_size_before_pointer);
	tcase_add_test(tc, test_good_copy);
	tcase_add_test(tc, test_nomem);
	tcase_add_test(tc, test_copy_out);
	suite_add_tcase(s, tc);
	return s;
}
