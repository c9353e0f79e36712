// SPDX-License-Identifier: GPL-2.0
/*
 * ctx: creation flags, context allocation and reference counting (ctx.c, sets.c).
 */
#include "harness.h"

/* pfm_context_alloc() failure as an errno (a NULL return counts as -ENOMEM). */
static long alloc_err(struct pfm_context *ctx)
{
	if (!ctx)
		return -ENOMEM;
	return IS_ERR(ctx) ? PTR_ERR(ctx) : 0;
}

START_TEST(test_create_flags)
{
	static const u32 ok[] = {
		0, PFM_FL_NOTIFY_BLOCK, PFM_FL_SYSTEM_WIDE, PFM_FL_SMPL_FMT,
		PFM_FL_OVFL_NO_MSG, PFM_FL_CLOEXEC,
		PFM_FL_NOTIFY_BLOCK | PFM_FL_SMPL_FMT | PFM_FL_OVFL_NO_MSG | PFM_FL_CLOEXEC,
		PFM_FL_SYSTEM_WIDE | PFM_FL_SMPL_FMT | PFM_FL_OVFL_NO_MSG | PFM_FL_CLOEXEC,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ok); i++)
		ck_assert_msg(!pfm_check_create_flags(ok[i]), "flags %#x refused", ok[i]);
	/* a PMU type on a machine with one type of CPU (CPU TYPES): no such PMU */
	for (i = 5; i < 32; i++)
		ck_assert_int_eq(pfm_check_create_flags(1U << i),
				 (1U << i) & PFM_FL_PMU_TYPE_MASK ? -ENODEV : -EINVAL);
	ck_assert_int_eq(pfm_check_create_flags(PFM_FL_SYSTEM_WIDE | (1U << 5)), -EINVAL);
	ck_assert_int_eq(pfm_check_create_flags(PFM_FL_NOTIFY_BLOCK | PFM_FL_SYSTEM_WIDE),
			 -EINVAL);
	ck_assert_int_eq(pfm_check_create_flags(0xffffffffU), -EINVAL);
}
END_TEST

static int layer_flag_check(u32 flags)
{
	return flags & PFM_FL_SYSTEM_WIDE ? -EINVAL : 0;
}

/* A layer's flag is accepted only while it serves it, with its own rules. */
START_TEST(test_layer_flag)
{
	static const struct pfm_flag_ops ops = {
		.flag = PFM_FL_INHERIT,
		.check = layer_flag_check,
	};
	static const struct pfm_flag_ops core_flag = { .flag = PFM_FL_CLOEXEC };
	static const struct pfm_flag_ops two_bits = { .flag = 0x60 };

	ck_assert_int_eq(pfm_check_create_flags(PFM_FL_INHERIT), -EINVAL);
	ck_assert_int_eq(pfm_flag_ops_register(&core_flag), -EINVAL);
	ck_assert_int_eq(pfm_flag_ops_register(&two_bits), -EINVAL);
	ck_assert_int_eq(pfm_flag_ops_register(&ops), 0);
	ck_assert_int_eq(pfm_flag_ops_register(&ops), -EBUSY);
	ck_assert_int_eq(pfm_check_create_flags(PFM_FL_INHERIT | PFM_FL_CLOEXEC), 0);
	ck_assert_int_eq(pfm_check_create_flags(PFM_FL_INHERIT | PFM_FL_SYSTEM_WIDE),
			 -EINVAL);
	/* the layer's rules apply to its flag's contexts only */
	ck_assert_int_eq(pfm_check_create_flags(PFM_FL_SYSTEM_WIDE), 0);
	ck_assert_int_eq(pfm_check_create_flags(0x40), -EINVAL);
	pfm_flag_ops_unregister(&ops);
	ck_assert_int_eq(pfm_check_create_flags(PFM_FL_INHERIT), -EINVAL);
}
END_TEST

START_TEST(test_alloc_set0_only)
{
	struct pfm_context *ctx = ck_ctx_new(PFM_FL_CLOEXEC | PFM_FL_OVFL_NO_MSG);
	struct pfm_event_set *set = ctx_set0(ctx);
	unsigned int i;

	ck_assert_ptr_eq(list_first_entry(&ctx->sets, struct pfm_event_set, list), set);
	ck_assert_ptr_eq(set->list.next, &ctx->sets);		/* the only set */
	ck_assert_ptr_null(pfm_find_set(ctx, 1));
	ck_assert_ptr_null(pfm_find_set(ctx, 65535));
	ck_assert_uint_eq(refcount_read(&ctx->ref), 1);
	ck_assert_int_eq(ctx->state, PFM_CTX_UNLOADED);
	ck_assert(!ctx->started);
	ck_assert_int_eq(ctx->on_cpu, -1);
	ck_assert_ptr_null(ctx->task);
	ck_assert_uint_eq(ctx->flags, PFM_FL_OVFL_NO_MSG);	/* CLOEXEC is the fd's */
	ck_assert_int_eq(shim_this_module.refs, 1);
	/* A fresh set: no arrays, PMCs quiescent, PMDs zero, nothing used. */
	ck_assert_uint_eq(set->pmc_slots, 0);
	ck_assert_uint_eq(set->pmd_slots, 0);
	for (i = 0; i < FAKE_NUM; i++)
		ck_assert_u64_eq(pfm_set_pmc_val(set, i), fake_pmcs[i].dfl_val);
	ck_assert_u64_eq(pfm_set_pmc_val(set, 3), FAKE_PMC3_DFL);
	for_each_set_bit(i, pfm_pmu.impl_pmds, pfm_pmu.pmd_end)
		ck_assert_u64_eq(pfm_set_pmd_read(set, i)->value, 0);
	ck_assert(bitmap_empty(set->used_pmcs, set->used_bits));
	ck_assert(bitmap_empty(set->used_pmds, set->used_bits));
	ck_assert_uint_eq(set->used_bits, PFM_MAX_PMDS);	/* the bit vectors' inline bitmaps */
	ck_assert_uint_eq(set->runs, 0);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_refcount_frees)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_assert_int_gt(shim_alloc_live, 0);
	pfm_context_get(ctx);
	pfm_context_get(ctx);
	ck_assert_uint_eq(refcount_read(&ctx->ref), 3);
	pfm_context_put(ctx);
	pfm_context_put(ctx);
	ck_assert_int_gt(shim_alloc_live, 0);		/* still referenced */
	ck_assert_int_eq(shim_this_module.refs, 1);
	pfm_context_put(ctx);
	ck_assert_int_eq(shim_alloc_live, 0);		/* ctx, set, pmcs, pmds: all gone */
	ck_assert_int_eq(shim_this_module.refs, 0);
}
END_TEST

/*
 * Fails each allocation of alloc(0) in turn: each fails cleanly, until none is
 * left to fail.  The context made then goes back; the number of its allocations.
 */
static unsigned long fail_each_point(struct pfm_context *(*alloc)(u32 flags))
{
	struct pfm_context *ctx;
	unsigned long n;

	for (n = 1; n < 100; n++) {
		shim_alloc_fail_nth(n);
		ctx = alloc(0);
		shim_alloc_fail_nth(0);
		if (ctx && !IS_ERR(ctx))
			break;
		ck_assert_int_eq(alloc_err(ctx), -ENOMEM);
		ck_assert_msg(shim_alloc_live == 0, "fail #%lu: %ld leaked", n, shim_alloc_live);
		ck_assert_int_eq(shim_this_module.refs, 0);
		ck_assert_int_eq(pfm_host_env.charged, 0);
	}
	pfm_context_put(ctx);
	return n - 1;
}

START_TEST(test_alloc_failure_each_point)
{
	unsigned long n = fail_each_point(pfm_context_alloc);

	ck_assert_uint_ge(n, 1);	/* at least one allocation was failed */
	ck_assert_uint_eq(shim_alloc_failed, n);
}
END_TEST

/*
 * A context no fd reads has no message queue, one allocation less; a message
 * queued there is dropped (msg.c).  Each of its allocations fails cleanly too.
 */
START_TEST(test_alloc_unread)
{
	struct pfm_context *ctx, *unread;
	unsigned long calls, native;

	calls = shim_alloc_calls;
	ctx = ck_ctx_new(0);
	native = shim_alloc_calls - calls;
	ck_assert_ptr_nonnull(ctx->msgq);
	calls = shim_alloc_calls;
	unread = pfm_context_alloc_unread(0);
	ck_assert(unread && !IS_ERR(unread));
	ck_assert_uint_eq(shim_alloc_calls - calls, native - 1);
	ck_assert_ptr_null(unread->msgq);
	ck_assert_uint_eq(unread->msgq_count, 0);
	pfm_context_put(unread);
	pfm_context_put(ctx);
	ck_assert_int_eq(shim_alloc_live, 0);
	ck_assert_uint_eq(fail_each_point(pfm_context_alloc_unread), native - 1);
	ck_assert_uint_eq(fail_each_point(pfm_context_alloc), native);
}
END_TEST

START_TEST(test_alloc_module_gone)
{
	struct pfm_context *ctx;

	shim_module_get_fail = true;
	ctx = pfm_context_alloc(0);
	ck_assert_int_ne(alloc_err(ctx), 0);
	ck_assert_uint_eq(shim_alloc_calls, 0);
	ck_assert_int_eq(shim_this_module.refs, 0);
}
END_TEST

START_TEST(test_alloc_charge_fails)
{
	struct pfm_context *ctx;

	pfm_host_env.charge_ret = -EMFILE;
	ctx = pfm_context_alloc(0);
	ck_assert_int_eq(alloc_err(ctx), -EMFILE);
	ck_assert_int_eq(shim_alloc_live, 0);
	ck_assert_int_eq(shim_this_module.refs, 0);
}
END_TEST

/* Sets are kept in id order; pfm_find_set() relies on it. */
START_TEST(test_find_set_ordered)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	static const u16 ids[] = { 3, 7, 65535 };
	struct pfm_event_set *sets[ARRAY_SIZE(ids)];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		sets[i] = pfm_set_alloc(ids[i], false);
		ck_assert_ptr_nonnull(sets[i]);
		ck_assert_uint_eq(sets[i]->id, ids[i]);
		list_add_tail(&sets[i]->list, &ctx->sets);
	}
	for (i = 0; i < ARRAY_SIZE(ids); i++)
		ck_assert_ptr_eq(pfm_find_set(ctx, ids[i]), sets[i]);
	ck_assert_ptr_null(pfm_find_set(ctx, 1));
	ck_assert_ptr_null(pfm_find_set(ctx, 5));
	ck_assert_ptr_null(pfm_find_set(ctx, 8));
	ck_assert_ptr_null(pfm_find_set(ctx, 65534));
	pfm_context_put(ctx);		/* frees every set */
}
END_TEST

START_TEST(test_set_alloc_failure)
{
	struct pfm_event_set *set;
	unsigned long n;

	for (n = 1; n < 10; n++) {
		shim_alloc_fail_nth(n);
		set = pfm_set_alloc(0, false);
		shim_alloc_fail_nth(0);
		if (set)
			break;
		ck_assert_int_eq(shim_alloc_live, 0);
	}
	ck_assert_uint_ge(n, 2);
	pfm_set_free(set);
	pfm_set_free(NULL);
}
END_TEST

Suite *pfm_ctx_suite(void)
{
	Suite *s = suite_create("ctx");
	TCase *tc = pfm_host_tcase("ctx", pfm_host_setup);

	tcase_add_test(tc, test_create_flags);
	tcase_add_test(tc, test_layer_flag);
	tcase_add_test(tc, test_alloc_set0_only);
	tcase_add_test(tc, test_refcount_frees);
	tcase_add_test(tc, test_alloc_failure_each_point);
	tcase_add_test(tc, test_alloc_unread);
	tcase_add_test(tc, test_alloc_module_gone);
	tcase_add_test(tc, test_alloc_charge_fails);
	tcase_add_test(tc, test_find_set_ordered);
	tcase_add_test(tc, test_set_alloc_failure);
	suite_add_tcase(s, tc);
	return s;
}
