// SPDX-License-Identifier: GPL-2.0
/*
 * emul64: 64-bit emulation of a 48-bit counter, and moving the state between memory
 * and the PMU (pmu_state.c), on the fake unit.
 *
 * Counter 0 of the fake unit runs under PMC0 with EN; the test advances the fake
 * hardware and reads through pfm_read_pmds(), like a user.
 */
#include "harness.h"

#define P48	(1ULL << FAKE_WIDTH)
#define PMC0	(FAKE_PMC_EN | 0x3c)

/* A context on the calling thread, PMC0 written (with pmc_flags), PMD0 = init, started. */
static struct pfm_context *counting_ctx(u64 init, u32 pmc_flags)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_write_pmc(ctx, 0, PMC0, pmc_flags);
	ck_write_pmd(ctx, 0, init);
	ck_load_self(ctx);
	ck_assert_uint_eq(fake_pmu_accesses(), 0);	/* still nothing on the PMU */
	ck_start(ctx);
	ck_assert(fake_pmu.enabled);
	ck_assert_u64_eq(fake_pmu.pmc[0], PMC0);
	ck_assert_u64_eq(fake_pmu.pmd[0], init & FAKE_MASK);
	return ctx;
}

static void done(struct pfm_context *ctx)
{
	ck_unload(ctx);
	ck_assert(!fake_pmu.enabled);
	pfm_context_put(ctx);
}

START_TEST(test_wrap_once)
{
	struct pfm_context *ctx = counting_ctx(P48 - 10, 0);

	ck_assert_u64_eq(ck_read_pmd(ctx, 0), P48 - 10);
	fake_pmu_advance(0, 25);
	ck_assert_u64_eq(fake_pmu.pmd[0], 15);		/* the hardware wrapped */
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), P48 + 15);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), P48 + 15);	/* reading twice adds nothing */
	fake_pmu_advance(0, 1);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), P48 + 16);
	done(ctx);
}
END_TEST

/* One wrap at most between syncs, as the overflow interrupt guarantees. */
START_TEST(test_many_wraps)
{
	struct pfm_context *ctx = counting_ctx(P48 - 10, 0);
	u64 expect = P48 - 10;
	unsigned int k;

	for (k = 0; k < 1000; k++) {
		fake_pmu_advance(0, P48 / 2);
		expect += P48 / 2;
		ck_assert_msg(ck_read_pmd(ctx, 0) == expect, "after %u steps", k + 1);
	}
	ck_assert_u64_eq(expect, P48 - 10 + 1000 * (P48 / 2));
	/* a step just short of a whole wrap is still counted exactly */
	fake_pmu_advance(0, P48 - 1);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), expect + P48 - 1);
	done(ctx);
}
END_TEST

/* Near 2^64 the 64-bit value wraps to small values like a 64-bit counter. */
START_TEST(test_carry_out_of_64)
{
	struct pfm_context *ctx = counting_ctx(~0ULL - 5, 0);

	ck_assert_u64_eq(fake_pmu.pmd[0], FAKE_MASK - 5);
	fake_pmu_advance(0, 10);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 4);
	fake_pmu_advance(0, P48 / 2);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 4 + P48 / 2);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 4 + P48 / 2);
	done(ctx);
}
END_TEST

START_TEST(test_no_emul64_raw)
{
	struct pfm_context *ctx = counting_ctx(P48 - 10, PFM_PMCFL_NO_EMUL64);

	fake_pmu_advance(0, 25);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 15);		/* the raw 48-bit value */
	fake_pmu_advance(0, P48 - 20);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), P48 - 5);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), P48 - 5);
	done(ctx);
}
END_TEST

/* Other counters are not disturbed by NO_EMUL64 on PMC0. */
START_TEST(test_no_emul64_per_counter)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_write_pmc(ctx, 0, PMC0, PFM_PMCFL_NO_EMUL64);
	ck_write_pmc(ctx, 1, PMC0, 0);
	ck_write_pmd(ctx, 0, P48 - 1);
	ck_write_pmd(ctx, 1, P48 - 1);
	ck_load_self(ctx);
	ck_start(ctx);
	fake_pmu_advance(0, 3);
	fake_pmu_advance(1, 3);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 2);
	ck_assert_u64_eq(ck_read_pmd(ctx, 1), P48 + 2);
	done(ctx);
}
END_TEST

/* Stop saves the 64-bit value and quiesces; start puts the low 48 bits back. */
START_TEST(test_stop_saves_start_restores)
{
	struct pfm_context *ctx = counting_ctx(P48 - 10, 0);
	unsigned int acc;

	fake_pmu_advance(0, 25);
	ck_stop(ctx);
	ck_assert(!fake_pmu.enabled);
	ck_assert_u64_eq(fake_pmu.pmc[0], fake_pmcs[0].dfl_val);	/* quiescent */
	ck_assert_u64_eq(pfm_set_pmd(ctx_set0(ctx), 0)->value, P48 + 15);
	/* Stopped: nothing counts, and reading touches no register. */
	fake_pmu.pmd[0] = 0x1234;		/* someone else uses the PMU meanwhile */
	acc = fake_pmu_accesses();
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), P48 + 15);
	ck_assert_uint_eq(fake_pmu_accesses(), acc);
	ck_start(ctx);
	ck_assert(fake_pmu.enabled);
	ck_assert_u64_eq(fake_pmu.pmd[0], 15);
	ck_assert_u64_eq(fake_pmu.pmc[0], PMC0);
	fake_pmu_advance(0, 5);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), P48 + 20);
	done(ctx);
}
END_TEST

START_TEST(test_read_stopped_no_hw)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_write_pmc(ctx, 0, PMC0, 0);
	ck_write_pmd(ctx, 0, 77);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 77);		/* unloaded */
	ck_load_self(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 77);		/* loaded, stopped */
	ck_write_pmd(ctx, 0, 78);
	ck_assert_uint_eq(fake_pmu_accesses(), 0);
	ck_assert(!fake_pmu.enabled);
	fake_pmu_advance(0, 100);				/* not enabled: no count */
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 78);
	ck_assert_uint_eq(fake_pmu_accesses(), 0);
	done(ctx);
}
END_TEST

/* A write while counting goes to the hardware at once and restarts the emulation. */
START_TEST(test_write_live)
{
	struct pfm_context *ctx = counting_ctx(0, 0);

	fake_pmu_advance(0, 1000);
	ck_write_pmd(ctx, 0, (1ULL << 50) + 7);
	ck_assert_u64_eq(fake_pmu.pmd[0], 7);
	fake_pmu_advance(0, 3);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), (1ULL << 50) + 10);
	/* a PMC written while counting reaches the hardware too */
	ck_write_pmc(ctx, 0, FAKE_PMC_EN | 0x11, 0);
	ck_assert_u64_eq(fake_pmu.pmc[0], FAKE_PMC_EN | 0x11);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), (1ULL << 50) + 10);
	done(ctx);
}
END_TEST

/* The thread leaves the CPU and comes back: the count survives what others do. */
START_TEST(test_switch_out_in)
{
	struct pfm_context *ctx = counting_ctx(P48 - 10, 0);
	unsigned int acc;

	fake_pmu_advance(0, 20);
	pfm_host_sched_out(ctx);
	ck_assert(!fake_pmu.enabled);
	ck_assert_int_eq(ctx->on_cpu, -1);
	fake_pmu.pmd[0] = 0xabcdef;		/* another thread's count */
	acc = fake_pmu_accesses();
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), P48 + 10);
	ck_assert_uint_eq(fake_pmu_accesses(), acc);
	pfm_host_sched_in(ctx);
	ck_assert(fake_pmu.enabled);
	ck_assert_u64_eq(fake_pmu.pmd[0], 10);
	fake_pmu_advance(0, P48 - 1);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 2 * P48 + 9);
	done(ctx);
}
END_TEST

/*
 * A carry the save saw is acted on when the thread is back, unless a write
 * replaced the PMD meanwhile: the carry was the old value's, and acting on it
 * would notify (or sample, or reset) the new one.
 */
START_TEST(test_write_drops_pending_carry)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_event_set *set;

	ck_write_pmc(ctx, 0, PMC0, 0);
	ck_write_pmd_full(ctx, 0, 0, -5ULL, PFM_PMDFL_OVFL_NOTIFY, 0, 0, 0);
	ck_load_self(ctx);
	ck_start(ctx);
	set = ctx_set0(ctx);
	fake_pmu_advance(0, 10);		/* past 2^64, no interrupt yet */
	pfm_host_sched_out(ctx);
	ck_assert(test_bit(0, set->ovfl_pending));
	ck_write_pmd_full(ctx, 0, 0, 100, PFM_PMDFL_OVFL_NOTIFY, 0, 0, 0);
	ck_assert(!test_bit(0, set->ovfl_pending));
	pfm_host_sched_in(ctx);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 0);
	ck_assert(!ctx->masked);
	ck_assert(bitmap_empty(set->ovfl_pmds, PFM_MAX_PMDS));
	fake_pmu_advance(0, 3);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 103);
	done(ctx);
}
END_TEST

/* 64-bit software counters wrap like any 64-bit counter. */
START_TEST(test_sw_counter_64)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	u16 n = PFM_SW_FIRST_PMD + 3;

	ck_write_pmc(ctx, PFM_SW_FIRST_PMC + 3, PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS), 0);
	ck_write_pmd(ctx, n, ~0ULL - 1);
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_sw_count(PFM_SW_EV_PAGE_FAULTS, 5);
	ck_assert_u64_eq(ck_read_pmd(ctx, n), 3);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, n), 3);
	done(ctx);
}
END_TEST

Suite *pfm_emul64_suite(void)
{
	Suite *s = suite_create("emul64");
	TCase *tc = pfm_host_tcase("emul64", pfm_host_setup);

	tcase_add_test(tc, test_wrap_once);
	tcase_add_test(tc, test_many_wraps);
	tcase_add_test(tc, test_carry_out_of_64);
	tcase_add_test(tc, test_no_emul64_raw);
	tcase_add_test(tc, test_no_emul64_per_counter);
	tcase_add_test(tc, test_stop_saves_start_restores);
	tcase_add_test(tc, test_read_stopped_no_hw);
	tcase_add_test(tc, test_write_live);
	tcase_add_test(tc, test_switch_out_in);
	tcase_add_test(tc, test_write_drops_pending_carry);
	tcase_add_test(tc, test_sw_counter_64);
	suite_add_tcase(s, tc);
	return s;
}
