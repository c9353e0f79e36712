// SPDX-License-Identifier: GPL-2.0
/*
 * sets: event sets (sets.c) and switching them (switch.c, ovfl.c).
 *
 * The fake clock drives the switch timeouts (shim_hrtimer_fire()); the fake unit
 * counts every register access, so a switch can be held to the registers that
 * differ between the two sets.
 */
#include "harness.h"

static struct pfarg_setdesc desc(u16 id, u32 flags, u64 timeout)
{
	return (struct pfarg_setdesc){ .set_id = id, .set_flags = flags, .set_timeout = timeout };
}

START_TEST(test_create_validation)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_setdesc d;

	d = desc(1, 0x8, 0);					/* unknown flag */
	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), -EINVAL);
	d = desc(1, PFM_SETFL_TIME_SWITCH, 0);			/* no timeout */
	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), -EINVAL);
	d = desc(1, 0, 0);
	d.set_reserved1 = 1;
	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), -EINVAL);
	d = desc(1, 0, 0);
	d.set_reserved2[4] = 1;					/* the last word */
	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), -EINVAL);
	ck_assert_ptr_null(pfm_find_set(ctx, 1));

	ck_load_self(ctx);
	d = desc(1, 0, 0);
	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), -EBUSY);
	ck_assert_int_eq(pfm_delete_evtsets(ctx, &d, 1), -EBUSY);
	ck_assert_ptr_null(pfm_find_set(ctx, 1));
	ck_done(ctx);
}
END_TEST

/* Sets are kept in id order; ids need not be contiguous. */
START_TEST(test_create_ordered)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_setdesc d[3] = { desc(65535, 0, 0), desc(7, 0, 0), desc(300, 0, 0) };
	static const u16 want[] = { 0, 7, 300, 65535 };
	struct pfm_event_set *set;
	unsigned int k = 0;

	ck_assert_int_eq(pfm_create_evtsets(ctx, d, 3), 0);
	list_for_each_entry(set, &ctx->sets, list)
		ck_assert_uint_eq(set->id, want[k++]);
	ck_assert_uint_eq(k, 4);
	ck_assert_ptr_eq(pfm_next_set(ctx, pfm_find_set(ctx, 65535)), pfm_find_set(ctx, 0));
	ck_assert_ptr_eq(pfm_next_set(ctx, pfm_find_set(ctx, 7)), pfm_find_set(ctx, 300));
	ck_done(ctx);
}
END_TEST

/* The timeout is rounded up to what the timer can do, and written back. */
START_TEST(test_effective_timeout)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_setdesc d[2] = { desc(1, PFM_SETFL_TIME_SWITCH, 1),
				      desc(2, PFM_SETFL_TIME_SWITCH, 1000001) };
	u64 res = pfm_timer_resolution_ns();

	ck_assert_int_eq(pfm_create_evtsets(ctx, d, 2), 0);
	ck_assert_u64_eq(d[0].set_timeout, res);
	ck_assert_u64_eq(d[1].set_timeout, (1000001 + res - 1) / res * res);
	ck_assert_u64_eq(ck_info(ctx, 2).set_timeout, d[1].set_timeout);
	ck_done(ctx);
}
END_TEST

/* Creating an existing set changes its properties, not its registers. */
START_TEST(test_modify_keeps_registers)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_create_set(ctx, 1, 0, 0);
	ck_write_set_pmc(ctx, 1, 0, FAKE_PMC_EN | 0x11);
	ck_write_pmd_full(ctx, 1, 0, 1234, 0, 0, 0, 0);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 50000);
	ck_assert_u64_eq(*pfm_set_pmc(pfm_find_set(ctx, 1), 0), FAKE_PMC_EN | 0x11);
	ck_assert_u64_eq(pfm_set_pmd(pfm_find_set(ctx, 1), 0)->value, 1234);
	ck_assert_uint_eq(ck_info(ctx, 1).set_flags, PFM_SETFL_TIME_SWITCH);
	ck_done(ctx);
}
END_TEST

START_TEST(test_delete)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_setdesc d[2];
	struct pfarg_pmc pmc = { .reg_num = 0, .reg_set = 2, .reg_value = FAKE_PMC_EN };
	struct pfarg_setinfo info = { .set_id = 2 };

	ck_create_set(ctx, 2, 0, 0);
	ck_create_set(ctx, 5, 0, 0);
	d[0] = desc(9, 0, 0);					/* no such set */
	ck_assert_int_eq(pfm_delete_evtsets(ctx, d, 1), -EINVAL);
	d[0] = desc(2, 0, 0);
	d[1] = desc(2, 0, 0);					/* twice */
	ck_assert_int_eq(pfm_delete_evtsets(ctx, d, 2), -EINVAL);
	d[0] = desc(2, PFM_SETFL_TIME_SWITCH, 0);		/* only the id counts */
	ck_assert_int_eq(pfm_delete_evtsets(ctx, d, 1), -EINVAL);
	ck_assert_ptr_nonnull(pfm_find_set(ctx, 2));

	d[0] = desc(2, 0, 0);
	ck_assert_int_eq(pfm_delete_evtsets(ctx, d, 1), 0);
	ck_assert_ptr_null(pfm_find_set(ctx, 2));
	ck_assert_int_eq(pfm_write_pmcs(ctx, &pmc, 1), -EINVAL);
	ck_assert_int_eq(pfm_getinfo_evtsets(ctx, &info, 1), -EINVAL);

	/* Set 0 can go too, but not the last set. */
	d[0] = desc(0, 0, 0);
	d[1] = desc(5, 0, 0);
	ck_assert_int_eq(pfm_delete_evtsets(ctx, d, 2), -EBUSY);
	ck_assert_int_eq(pfm_delete_evtsets(ctx, d, 1), 0);
	ck_assert_ptr_eq(pfm_first_set(ctx), pfm_find_set(ctx, 5));
	ck_done(ctx);
}
END_TEST

START_TEST(test_getinfo_validation)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_setinfo i = { .set_id = 0 };
	unsigned int w;

	i.set_reserved1 = 1;
	ck_assert_int_eq(pfm_getinfo_evtsets(ctx, &i, 1), -EINVAL);
	i.set_reserved1 = 0;
	i.set_reserved3[0] = 1;
	ck_assert_int_eq(pfm_getinfo_evtsets(ctx, &i, 1), -EINVAL);
	i.set_reserved3[0] = 0;
	i.set_id = 3;
	ck_assert_int_eq(pfm_getinfo_evtsets(ctx, &i, 1), -EINVAL);
	i = ck_info(ctx, 0);
	/* Every implemented register is available: fake 0..3 and software 64..319. */
	ck_assert_u64_eq(i.set_avail_pmcs[0], 0xf);
	ck_assert_u64_eq(i.set_avail_pmds[0], 0xf);
	for (w = 1; w < PFM_PMD_BV; w++) {
		ck_assert_u64_eq(i.set_avail_pmcs[w], ~0ULL);
		ck_assert_u64_eq(i.set_avail_pmds[w], ~0ULL);
	}
	ck_done(ctx);
}
END_TEST

/*
 * Two sets on the fake unit, switched by timeout: the active set changes at each
 * expiry, in id order and round-robin, each set counts only while active, and runs
 * and durations add up to the time monitored.
 */
START_TEST(test_timeout_switch)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_setinfo i0, i1;

	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 3000000);
	ck_write_set_pmc(ctx, 0, 0, FAKE_PMC_EN);
	ck_write_set_pmc(ctx, 1, 0, FAKE_PMC_EN);
	ck_load_self(ctx);
	pfm_host_env.clock_ns = 1000;
	ck_start(ctx);
	ck_assert_uint_eq(ctx->active->id, 0);

	fake_pmu_advance(0, 10);				/* set 0 */
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(ctx->active->id, 1);
	fake_pmu_advance(0, 20);				/* set 1 */
	pfm_host_env.clock_ns += 1000000;
	ck_assert(!shim_hrtimer_fire(&ctx->timer));		/* 3 ms for set 1 */
	pfm_host_env.clock_ns += 2000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(ctx->active->id, 0);
	fake_pmu_advance(0, 5);					/* set 0 again */
	pfm_host_env.clock_ns += 500000;
	ck_stop(ctx);
	ck_assert(!ctx->timer.armed);

	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 15);		/* set 0's PMD0 */
	ck_assert_u64_eq(pfm_set_pmd(pfm_find_set(ctx, 1), 0)->value, 20);
	i0 = ck_info(ctx, 0);
	i1 = ck_info(ctx, 1);
	ck_assert_u64_eq(i0.set_runs, 2);
	ck_assert_u64_eq(i1.set_runs, 1);
	ck_assert_u64_eq(i0.set_act_duration, 1500000);
	ck_assert_u64_eq(i1.set_act_duration, 3000000);
	ck_assert_u64_eq(i0.set_act_duration + i1.set_act_duration, 4500000);
	ck_done(ctx);
}
END_TEST

/* A switch writes only the PMCs that differ, and loads the new set's PMDs. */
START_TEST(test_switch_writes_only_differences)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	unsigned int pmc_writes, pmd_writes;

	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	/* PMC0 the same in both, PMC1 differs, PMC2 only in set 1. */
	ck_write_set_pmc(ctx, 0, 0, FAKE_PMC_EN | 1);
	ck_write_set_pmc(ctx, 1, 0, FAKE_PMC_EN | 1);
	ck_write_set_pmc(ctx, 0, 1, FAKE_PMC_EN | 2);
	ck_write_set_pmc(ctx, 1, 1, FAKE_PMC_EN | 3);
	ck_write_set_pmc(ctx, 1, 2, FAKE_PMC_EN | 4);
	ck_load_self(ctx);
	ck_start(ctx);

	pmc_writes = fake_pmu.nr_write_pmc;
	pmd_writes = fake_pmu.nr_write_pmd;
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(fake_pmu.nr_write_pmc - pmc_writes, 2);	/* PMC1, PMC2 */
	ck_assert_uint_eq(fake_pmu.nr_write_pmd - pmd_writes, 3);	/* set 1's PMD0..2 */
	/* what the statistics report for make bench */
	ck_assert_u64_eq(pfm_stats.set_switches, 1);
	ck_assert_u64_eq(pfm_stats.set_switch_pmc_writes, 2);
	ck_assert_u64_eq(pfm_stats.set_switch_pmd_writes, 3);
	ck_assert_u64_eq(fake_pmu.pmc[2], FAKE_PMC_EN | 4);

	pmc_writes = fake_pmu.nr_write_pmc;
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(fake_pmu.nr_write_pmc - pmc_writes, 2);	/* PMC1, PMC2 back */
	ck_assert_u64_eq(fake_pmu.pmc[2], fake_pmcs[2].dfl_val);
	ck_done(ctx);
}
END_TEST

/* With one set, a timeout restarts the set and touches no register. */
START_TEST(test_single_set_no_writes)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	unsigned int before;

	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_write_set_pmc(ctx, 0, 0, FAKE_PMC_EN);
	ck_load_self(ctx);
	ck_start(ctx);
	before = fake_pmu_accesses();
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(fake_pmu_accesses(), before);
	ck_assert_uint_eq(ctx->active->id, 0);
	ck_assert_u64_eq(ctx->active->runs, 2);
	ck_assert(ctx->timer.armed);
	ck_done(ctx);
}
END_TEST

/*
 * Virtual time: the timeout does not run while the thread is switched out.  The
 * timer stays queued across the switch out; firing while the thread is away it
 * stops, and the switch-in starts it for the leftover.  A switch out and in with
 * the timer in time makes no timer call at all.
 */
START_TEST(test_timeout_is_virtual)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	unsigned long starts, cancels;

	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, 0, 0);
	ck_load_self(ctx);
	ck_start(ctx);
	starts = shim_hrtimer_starts;
	cancels = shim_hrtimer_cancels;
	pfm_host_env.clock_ns += 100000;
	pfm_host_sched_out(ctx);
	pfm_host_env.clock_ns += 100000;			/* away 100 us */
	pfm_host_sched_in(ctx);
	ck_assert_uint_eq(shim_hrtimer_starts, starts);
	ck_assert_uint_eq(shim_hrtimer_cancels, cancels);
	ck_assert_int_eq(hrtimer_get_remaining(&ctx->timer), 800000);	/* early by 100 us */
	pfm_host_env.clock_ns += 500000;
	pfm_host_sched_out(ctx);
	ck_assert(ctx->timer.armed);
	ck_assert_u64_eq(ck_info(ctx, 0).set_timeout, 400000);	/* leftover */
	pfm_host_env.clock_ns += 50000000;			/* asleep */
	ck_assert(shim_hrtimer_fire(&ctx->timer));		/* early, away: stops */
	ck_assert(!ctx->timer.armed);
	ck_assert_uint_eq(ctx->active->id, 0);
	pfm_host_sched_in(ctx);
	ck_assert_uint_eq(shim_hrtimer_starts, starts + 1);
	ck_assert_int_eq(hrtimer_get_remaining(&ctx->timer), 400000);
	ck_assert_u64_eq(ck_info(ctx, 0).set_timeout, 400000);
	pfm_host_env.clock_ns += 100000;
	ck_assert_u64_eq(ck_info(ctx, 0).set_timeout, 300000);	/* live: less its time */
	pfm_host_env.clock_ns += 300000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(ctx->active->id, 1);
	ck_assert_u64_eq(pfm_find_set(ctx, 0)->duration_ns, 1000000);
	ck_assert(!ctx->timer.armed);				/* set 1 does not time out */
	ck_done(ctx);
}
END_TEST

/*
 * A timer that comes early on the live set (its thread was away after it was
 * started) moves itself on by what is left, and switches only then; a switch-in
 * that finds it early by more than 7/8 of the time left starts it anew.
 */
START_TEST(test_timeout_early)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	unsigned long starts;

	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_load_self(ctx);
	ck_start(ctx);
	starts = shim_hrtimer_starts;
	pfm_host_env.clock_ns += 200000;
	pfm_host_sched_out(ctx);
	pfm_host_env.clock_ns += 300000;			/* 800 us left, 300 early */
	pfm_host_sched_in(ctx);
	ck_assert_uint_eq(shim_hrtimer_starts, starts);
	pfm_host_env.clock_ns += 500000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));		/* early by 300 us */
	ck_assert_uint_eq(ctx->active->id, 0);
	ck_assert(ctx->timer.armed);
	ck_assert_int_eq(hrtimer_get_remaining(&ctx->timer), 300000);
	pfm_host_env.clock_ns += 300000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(ctx->active->id, 1);
	ck_assert_u64_eq(pfm_find_set(ctx, 0)->duration_ns, 1000000);
	ck_assert_int_eq(hrtimer_get_remaining(&ctx->timer), 1000000);

	starts = shim_hrtimer_starts;
	pfm_host_env.clock_ns += 100000;
	pfm_host_sched_out(ctx);
	pfm_host_env.clock_ns += 850000;			/* 900 left, 850 early */
	pfm_host_sched_in(ctx);
	ck_assert_uint_eq(shim_hrtimer_starts, starts + 1);
	ck_assert_int_eq(hrtimer_get_remaining(&ctx->timer), 900000);
	ck_assert_uint_eq(ctx->active->id, 1);
	ck_done(ctx);
}
END_TEST

/*
 * Overflow switching on the software unit: a syscall counter reset to -3 after each
 * overflow, with a threshold of 2, switches after exactly 6 counts; it keeps
 * counting for its own purpose, and the other counter is not disturbed.
 */
START_TEST(test_overflow_switch)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	const u16 pmc = PFM_SW_FIRST_PMC, pmd = PFM_SW_FIRST_PMD;
	struct pfarg_setinfo i;
	unsigned int k;

	ck_create_set(ctx, 0, PFM_SETFL_OVFL_SWITCH, 0);
	ck_create_set(ctx, 1, 0, 0);
	ck_write_set_pmc(ctx, 0, pmc, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_write_set_pmc(ctx, 0, pmc + 1, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_write_pmd_full(ctx, 0, pmd, -3ULL, PFM_PMDFL_SWITCH, -3ULL, 0, 2);
	ck_write_set_pmc(ctx, 1, pmc, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_load_self(ctx);
	ck_start(ctx);
	for (k = 0; k < 5; k++)
		pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
	ck_assert_uint_eq(ctx->active->id, 0);
	ck_assert_u64_eq(ck_read_pmd(ctx, pmd), -1ULL);		/* reset to -3, +2 */
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
	ck_assert_uint_eq(ctx->active->id, 1);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);			/* set 1's counter */
	ck_stop(ctx);

	ck_assert_u64_eq(ck_read_pmd(ctx, pmd), -3ULL);		/* reset after the 2nd */
	ck_assert_u64_eq(ck_read_pmd(ctx, pmd + 1), 6);
	ck_assert_u64_eq(pfm_set_pmd(pfm_find_set(ctx, 1), pmd)->value, 1);
	i = ck_info(ctx, 0);
	ck_assert_u64_eq(i.set_ovfl_pmds[1], 1);		/* PMD64 overflowed last */
	ck_assert_u64_eq(i.set_ovfl_pmds[0], 0);
	ck_assert_u64_eq(i.set_runs, 1);
	ck_done(ctx);
}
END_TEST

/* The threshold starts afresh each time the set becomes active again. */
START_TEST(test_overflow_threshold_reloads)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	const u16 pmc = PFM_SW_FIRST_PMC, pmd = PFM_SW_FIRST_PMD;
	unsigned int k;

	ck_create_set(ctx, 0, PFM_SETFL_OVFL_SWITCH, 0);
	ck_create_set(ctx, 1, PFM_SETFL_OVFL_SWITCH, 0);
	ck_write_set_pmc(ctx, 0, pmc, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_write_pmd_full(ctx, 0, pmd, -2ULL, PFM_PMDFL_SWITCH, -2ULL, 0, 3);
	ck_write_set_pmc(ctx, 1, pmc, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_write_pmd_full(ctx, 1, pmd, -1ULL, PFM_PMDFL_SWITCH, -1ULL, 0, 1);
	ck_load_self(ctx);
	ck_start(ctx);
	/* set 0: 3 overflows of 2 counts = 6; set 1: 1 count; and again. */
	for (k = 0; k < 6; k++)
		pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
	ck_assert_uint_eq(ctx->active->id, 1);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
	ck_assert_uint_eq(ctx->active->id, 0);
	for (k = 0; k < 5; k++)
		pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
	ck_assert_uint_eq(ctx->active->id, 0);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
	ck_assert_uint_eq(ctx->active->id, 1);
	ck_assert_u64_eq(pfm_find_set(ctx, 0)->runs, 2);
	ck_assert_u64_eq(ctx->nr_switches, 3);
	ck_done(ctx);
}
END_TEST

/* Without PFM_SETFL_OVFL_SWITCH on the set, or PFM_PMDFL_SWITCH on the PMD: no switch. */
START_TEST(test_overflow_without_switch_flags)
{
	const u16 pmc = PFM_SW_FIRST_PMC, pmd = PFM_SW_FIRST_PMD;
	unsigned int variant, k;

	for (variant = 0; variant < 2; variant++) {
		struct pfm_context *ctx = ck_ctx_new(0);

		ck_create_set(ctx, 0, variant ? PFM_SETFL_OVFL_SWITCH : 0, 0);
		ck_create_set(ctx, 1, 0, 0);
		ck_write_set_pmc(ctx, 0, pmc, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
		ck_write_pmd_full(ctx, 0, pmd, -1ULL, variant ? 0 : PFM_PMDFL_SWITCH, -1ULL, 0, 1);
		ck_load_self(ctx);
		ck_start(ctx);
		for (k = 0; k < 4; k++)
			pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
		ck_assert_uint_eq(ctx->active->id, 0);
		ck_assert_u64_eq(ctx->nr_switches, 0);
		ck_done(ctx);
	}
}
END_TEST

/* PFM_STARTFL_SET starts from the given set; then from the last active one. */
START_TEST(test_start_set_choice)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_create_set(ctx, 4, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 9, 0, 0);
	ck_load_self(ctx);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_SET, 4), 0);
	ck_assert_uint_eq(ctx->active->id, 4);
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(ctx->active->id, 9);
	ck_stop(ctx);
	ck_start(ctx);
	ck_assert_uint_eq(ctx->active->id, 9);
	ck_stop(ctx);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_SET, 5), -EINVAL);
	ck_done(ctx);
}
END_TEST

Suite *pfm_sets_suite(void)
{
	Suite *s = suite_create("sets");
	TCase *tc = pfm_host_tcase("sets", pfm_host_setup);

	tcase_add_test(tc, test_create_validation);
	tcase_add_test(tc, test_create_ordered);
	tcase_add_test(tc, test_effective_timeout);
	tcase_add_test(tc, test_modify_keeps_registers);
	tcase_add_test(tc, test_delete);
	tcase_add_test(tc, test_getinfo_validation);
	tcase_add_test(tc, test_timeout_switch);
	tcase_add_test(tc, test_switch_writes_only_differences);
	tcase_add_test(tc, test_single_set_no_writes);
	tcase_add_test(tc, test_timeout_is_virtual);
	tcase_add_test(tc, test_timeout_early);
	tcase_add_test(tc, test_overflow_switch);
	tcase_add_test(tc, test_overflow_threshold_reloads);
	tcase_add_test(tc, test_overflow_without_switch_flags);
	tcase_add_test(tc, test_start_set_choice);
	suite_add_tcase(s, tc);
	return s;
}
