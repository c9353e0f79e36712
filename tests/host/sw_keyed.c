// SPDX-License-Identifier: GPL-2.0
/*
 * sw_keyed: the software PMU's keyed events (sw_keyed.c, pfm_sw_count_keyed()).
 * A hit counts only in the counters of its event whose PMC has its key, at its
 * level, in the thread's session and the CPU's; its carries take the overflow
 * path.  Each PMC value that names a key holds the source once, from the write
 * to its replacement or its set's end; a refused key changes nothing.
 */
#include "harness.h"
#include "hold.h"

#define TP	PFM_SW_EV_TRACEPOINT
#define BP	PFM_SW_EV_BREAKPOINT
#define KEYS	128
#define BAD_KEY	99		/* the source knows no such key */
#define BUSY_KEY 98		/* the source cannot take it now */

static int holds[2][KEYS];	/* [event - TP][key] */

static int src_get(unsigned int event, u32 key)
{
	if (key >= KEYS || key == BAD_KEY)
		return -ENOENT;
	if (key == BUSY_KEY)
		return -EBUSY;
	holds[event - TP][key]++;
	return 0;
}

static void src_put(unsigned int event, u32 key)
{
	ck_assert_uint_lt(key, KEYS);
	ck_assert_int_gt(holds[event - TP][key], 0);
	holds[event - TP][key]--;
}

static const struct pfm_sw_keyed_ops src = { .get = src_get, .put = src_put };

static int total_holds(void)
{
	int e, k, t = 0;

	for (e = 0; e < 2; e++)
		for (k = 0; k < KEYS; k++)
			t += holds[e][k];
	return t;
}

static void setup(void)
{
	pfm_host_setup();
	memset(holds, 0, sizeof(holds));
	ck_assert_int_eq(pfm_sw_keyed_register(TP, &src), 0);
	ck_assert_int_eq(pfm_sw_keyed_register(BP, &src), 0);
}

static void teardown(void)
{
	pfm_sw_keyed_unregister(TP, &src);
	pfm_sw_keyed_unregister(BP, &src);
}

static u64 keyed(unsigned int ev, u32 key, u64 levels)
{
	return (PFM_SW_PMC_KEYED(ev, key) & ~PFM_SW_PMC_USR) | levels;
}

static void hit(unsigned int ev, u32 key, u64 n, u64 level)
{
	pfm_sw_count_keyed(ev, key, n, level, NULL);
}

/* Each counter counts the hits of its own event and key, at its levels. */
START_TEST(test_counts_by_key)
{
	struct pfm_context *thr = ck_ctx_new(0), *cpu = ck_ctx_new(PFM_FL_SYSTEM_WIDE);

	ck_write_pmc(thr, SW_PMC(0), keyed(TP, 5, PFM_SW_PMC_USR), 0);
	ck_write_pmc(thr, SW_PMC(1), keyed(TP, 6, PFM_SW_PMC_USR), 0);
	ck_write_pmc(thr, SW_PMC(2), keyed(BP, 5, PFM_SW_PMC_USR), 0);
	ck_write_pmc(thr, SW_PMC(3), keyed(TP, 5, PFM_SW_PMC_OS), 0);
	ck_write_pmc(thr, SW_PMC(4), keyed(TP, 5, PFM_SW_PMC_USR | PFM_SW_PMC_OS), 0);
	ck_write_pmc(cpu, SW_PMC(0), keyed(TP, 5, PFM_SW_PMC_USR | PFM_SW_PMC_OS), 0);
	ck_assert_int_eq(holds[0][5], 4);
	ck_load_self(thr);
	ck_assert_int_eq(pfm_load(cpu, 0, 0), 0);
	ck_start(thr);
	ck_start(cpu);

	hit(TP, 5, 3, PFM_SW_PMC_USR);
	hit(TP, 6, 2, PFM_SW_PMC_USR);
	hit(BP, 5, 1, PFM_SW_PMC_USR);
	hit(TP, 5, 4, PFM_SW_PMC_OS);
	hit(TP, 7, 10, PFM_SW_PMC_USR);		/* a key no counter has */
	current = &shim_task_other;		/* another thread's: the CPU's only */
	hit(TP, 5, 20, PFM_SW_PMC_USR);
	current = &shim_task_self;
	pfm_sw_count(TP, 100);			/* not keyed: counts nowhere */

	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(0)), 3);
	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(1)), 2);
	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(2)), 1);
	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(3)), 4);
	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(4)), 7);
	ck_assert_u64_eq(ck_read_pmd(cpu, SW_PMD(0)), 27);
	/* switched out, the thread's counters stop; the CPU's count on */
	pfm_host_sched_out(thr);
	hit(TP, 5, 1, PFM_SW_PMC_USR);
	pfm_host_sched_in(thr);
	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(0)), 3);
	ck_assert_u64_eq(ck_read_pmd(cpu, SW_PMD(0)), 28);
	ck_done(thr);
	ck_done(cpu);
	ck_assert_int_eq(total_holds(), 0);
}
END_TEST

/* A started thread context whose counter 0 counts TP 5 at user level from -period. */
static struct pfm_context *keyed_from(u64 period, u32 pmd_flags)
{
	struct pfm_context *thr = ck_ctx_new(0);

	ck_write_pmc(thr, SW_PMC(0), keyed(TP, 5, PFM_SW_PMC_USR), 0);
	ck_write_pmd_full(thr, 0, SW_PMD(0), -period, pmd_flags, -period, -period, 0);
	ck_load_self(thr);
	ck_start(thr);
	return thr;
}

/* A keyed counter's carry is an overflow like any other: notified, masked. */
START_TEST(test_overflow)
{
	struct pfm_context *thr = keyed_from(3, PFM_PMDFL_OVFL_NOTIFY);

	hit(TP, 5, 2, PFM_SW_PMC_USR);
	hit(TP, 6, 5, PFM_SW_PMC_USR);
	ck_assert(!thr->masked);
	hit(TP, 5, 1, PFM_SW_PMC_USR);
	ck_assert(thr->masked);
	ck_assert(test_bit(SW_PMD(0), ctx_set0(thr)->ovfl_pmds));
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 1);
	ck_done(thr);
}
END_TEST

/*
 * A hit from inside one of the core's own timer calls (hold.h: busy, with the
 * owner's ctx->lock held) leaves its carry to the bank's irq_work, which takes
 * it to the overflow path: then it is reset, as any other.
 */
START_TEST(test_carry_held_while_busy)
{
	struct pfm_context *thr = keyed_from(2, 0);

	__this_cpu_write(pfm_timer_busy, true);
	hit(TP, 5, 3, PFM_SW_PMC_USR);
	__this_cpu_write(pfm_timer_busy, false);
	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(0)), 1);	/* carried, not acted on */
	ck_assert_uint_eq(shim_irq_work_run(), 1);
	/* reset, the hit past the carry kept */
	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(0)), -1ULL);
	ck_assert(test_bit(SW_PMD(0), ctx_set0(thr)->ovfl_pmds));
	hit(TP, 5, 2, PFM_SW_PMC_USR);				/* the next carry, at once */
	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(0)), -1ULL);
	ck_assert_uint_eq(shim_irq_work_run(), 0);
	ck_done(thr);
}
END_TEST

/* timer:hrtimer_start, as the kernel fires it inside the core's own timer starts */
static void hrtimer_start_hit(struct hrtimer *timer __always_unused)
{
	hit(TP, 5, 1, PFM_SW_PMC_USR);
}

/*
 * Each set switches at each carry of its counter 0 (at -1), which counts the
 * hits of the tracepoint that the switch's own timer start fires (hold.h: busy):
 * every carry is acted on, however it came, and none feeds another for good.
 */
START_TEST(test_carries_of_own_timer_calls)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_event_set *s0, *s1;
	unsigned int set, k;

	for (set = 0; set < 2; set++) {
		ck_create_set(ctx, set, PFM_SETFL_OVFL_SWITCH | PFM_SETFL_TIME_SWITCH, 1000000000);
		ck_write_set_pmc(ctx, set, SW_PMC(0), keyed(TP, 5, PFM_SW_PMC_USR));
		ck_write_set_pmc(ctx, set, SW_PMC(1), keyed(TP, 5, PFM_SW_PMC_USR));
		ck_write_pmd_full(ctx, set, SW_PMD(0), -1ULL, PFM_PMDFL_SWITCH, -1ULL, -1ULL, 1);
	}
	ck_load_self(ctx);
	shim_hrtimer_start_hook = hrtimer_start_hit;
	ck_start(ctx);
	s0 = pfm_find_set(ctx, 0);
	s1 = pfm_find_set(ctx, 1);
	/*
	 * k steady rounds: a hit acts on set 0's waiting carry and switches to set
	 * 1, whose timer start's hit carries there: the irq_work switches back, and
	 * the timer start's hit in set 0 waits for the next hit.
	 */
	for (k = 0; k < 10; k++) {
		shim_irq_work_run();
		ck_assert_uint_eq(ctx->active->id, 0);
		ck_assert_u64_eq(s0->runs, k + 2);
		ck_assert_u64_eq(s1->runs, k + 1);
		ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, SW_PMD(0)), 0);
		ck_assert(test_bit(SW_PMD(0), s0->ovfl_pending));
		ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, SW_PMD(0)), -1ULL);
		ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, SW_PMD(1)), 2 * k + 2);
		ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, SW_PMD(1)), k + 1);
		hit(TP, 5, 1, PFM_SW_PMC_USR);
	}
	shim_hrtimer_start_hook = NULL;
	ck_done(ctx);
}
END_TEST

/* A hit counting more than the period: reset within a period of its next carry. */
START_TEST(test_hit_past_a_period)
{
	struct pfm_context *thr = keyed_from(2, 0);

	hit(TP, 5, 5, PFM_SW_PMC_USR);		/* 3 past the carry: 1 past the next */
	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(0)), -1ULL);
	hit(TP, 5, 1, PFM_SW_PMC_USR);
	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(0)), -2ULL);
	ck_done(thr);
}
END_TEST

/* One hold per value in a set: writes, rewrites, vectors, refusals, the end. */
START_TEST(test_holds)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmc v[3] = {};
	u64 before;

	ck_write_pmc(ctx, SW_PMC(0), keyed(TP, 5, PFM_SW_PMC_USR), 0);
	ck_assert_int_eq(holds[0][5], 1);
	ck_write_pmc(ctx, SW_PMC(0), keyed(TP, 6, PFM_SW_PMC_USR), 0);
	ck_assert_int_eq(holds[0][5], 0);
	ck_assert_int_eq(holds[0][6], 1);
	/* the on switch alone: the same key, still one hold */
	ck_write_pmc(ctx, SW_PMC(0), keyed(TP, 6, PFM_SW_PMC_USR) & ~PFM_SW_PMC_EN, 0);
	ck_assert_int_eq(holds[0][6], 1);
	/* one vector writing a PMC twice: its last value holds */
	v[0] = (struct pfarg_pmc){ .reg_num = SW_PMC(0), .reg_value = keyed(TP, 7, PFM_SW_PMC_USR) };
	v[1] = (struct pfarg_pmc){ .reg_num = SW_PMC(1), .reg_value = keyed(BP, 7, PFM_SW_PMC_USR) };
	v[2] = (struct pfarg_pmc){ .reg_num = SW_PMC(0), .reg_value = keyed(TP, 8, PFM_SW_PMC_USR) };
	ck_assert_int_eq(pfm_write_pmcs(ctx, v, 3), 0);
	ck_assert_int_eq(holds[0][6], 0);
	ck_assert_int_eq(holds[0][7], 0);
	ck_assert_int_eq(holds[0][8], 1);
	ck_assert_int_eq(holds[1][7], 1);
	ck_assert_int_eq(total_holds(), 2);

	/* refusals: the source's errno, nothing held or changed */
	before = *pfm_set_pmc(ctx_set0(ctx), SW_PMC(0));
	v[0].reg_value = keyed(TP, 9, PFM_SW_PMC_USR);
	v[1].reg_value = keyed(TP, BAD_KEY, PFM_SW_PMC_USR);
	ck_assert_int_eq(pfm_write_pmcs(ctx, v, 2), -ENOENT);
	v[1].reg_value = keyed(BP, BUSY_KEY, PFM_SW_PMC_USR);
	ck_assert_int_eq(pfm_write_pmcs(ctx, v, 2), -EBUSY);
	ck_assert_int_eq(holds[0][9], 0);
	ck_assert_int_eq(total_holds(), 2);
	ck_assert_u64_eq(*pfm_set_pmc(ctx_set0(ctx), SW_PMC(0)), before);
	/* a key on an event that has none */
	v[0].reg_value = PFM_SW_PMC(PFM_SW_EV_SYSCALLS) | (5ULL << PFM_SW_PMC_KEY_SHIFT);
	ck_assert_int_eq(pfm_write_pmcs(ctx, v, 1), -EINVAL);
	ck_assert_int_eq(total_holds(), 2);

	/* a quiescent value lets go; a deleted set and the context's end too */
	ck_write_pmc(ctx, SW_PMC(1), 0, 0);
	ck_assert_int_eq(holds[1][7], 0);
	ck_create_set(ctx, 1, 0, 0);
	ck_write_set_pmc(ctx, 1, SW_PMC(2), keyed(TP, 10, PFM_SW_PMC_USR));
	ck_assert_int_eq(holds[0][10], 1);
	{
		struct pfarg_setdesc d = { .set_id = 1 };

		ck_assert_int_eq(pfm_delete_evtsets(ctx, &d, 1), 0);
	}
	ck_assert_int_eq(holds[0][10], 0);
	ck_assert_int_eq(total_holds(), 1);
	ck_done(ctx);
	ck_assert_int_eq(total_holds(), 0);
}
END_TEST

/* No source for the event: ENOENT; a source per event. */
START_TEST(test_no_source)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmc c = { .reg_num = SW_PMC(0), .reg_value = keyed(BP, 1, PFM_SW_PMC_USR) };

	ck_assert_int_eq(pfm_sw_keyed_register(BP, &src), -EBUSY);
	ck_assert_int_eq(pfm_sw_keyed_register(PFM_SW_EV_SYSCALLS, &src), -EINVAL);
	pfm_sw_keyed_unregister(BP, &src);
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), -ENOENT);
	ck_assert_int_eq(total_holds(), 0);
	ck_done(ctx);
}
END_TEST

/* The payload: swapped in and out around a hit, nested hits restoring theirs. */
START_TEST(test_payload)
{
	static const char outer[] = "outer", inner[] = "in";
	struct pfm_sw_payload a = { outer, sizeof(outer) }, b = { inner, sizeof(inner) };
	u32 size = 1;

	ck_assert_ptr_null(pfm_sw_event_payload(&size));
	ck_assert_uint_eq(size, 0);
	pfm_sw_payload_swap(&a);
	ck_assert_ptr_eq(pfm_sw_event_payload(&size), outer);
	ck_assert_uint_eq(size, sizeof(outer));
	pfm_sw_payload_swap(&b);
	ck_assert_ptr_eq(pfm_sw_event_payload(&size), inner);
	ck_assert_uint_eq(size, sizeof(inner));
	pfm_sw_payload_swap(&b);
	ck_assert_ptr_eq(pfm_sw_event_payload(&size), outer);
	pfm_sw_payload_swap(&a);
	ck_assert_ptr_null(pfm_sw_event_payload(&size));
	ck_assert_ptr_eq(a.data, outer);
}
END_TEST

Suite *pfm_sw_keyed_suite(void)
{
	Suite *s = suite_create("sw_keyed");
	TCase *tc = pfm_host_tcase("keyed", setup);

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_counts_by_key);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_carry_held_while_busy);
	tcase_add_test(tc, test_carries_of_own_timer_calls);
	tcase_add_test(tc, test_hit_past_a_period);
	tcase_add_test(tc, test_holds);
	tcase_add_test(tc, test_no_source);
	tcase_add_test(tc, test_payload);
	suite_add_tcase(s, tc);
	return s;
}
