// SPDX-License-Identifier: GPL-2.0
/*
 * perf_sets: perf groups over event sets as perf/sched.c spreads them, on every
 * simulated model: more hardware events than counters in two sets, sampling
 * overflows routed by set (perf/ring.c's table, perf/counters.c), pinned events on one
 * counter index in every set.
 */
#include "sim_perf.h"

/*
 * More events than counters, spread as perf/sched.c does: the event that does
 * not fit beside the others in set 0 goes to set 1, the sets switch on their
 * timeout, and each event counts exactly what happened while its set was
 * active.  The sets' durations are time_running and their sum time_enabled:
 * they scale a steady workload's count back to the whole.
 */
START_TEST(test_multiplexed_sets)
{
	static struct pfm_perf_counter cnt[2][PFM_PERF_NUM_COUNTERS];
	struct pfarg_setinfo info[2] = { { .set_id = 0 }, { .set_id = 1 } };
	struct ev ev[PFM_X86_MAX_GP + 1];
	struct pfm_context *ctx;
	unsigned int n, i, s;
	u64 ena;

	sim_start(_i);
	memset(cnt, 0, sizeof(cnt));
	n = sim_m()->num_gp + 1;
	ctx = ck_ctx_new(0);
	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	/* instructions with distinct counter masks: no sharing, no fixed counter */
	for (i = 0; i < n; i++) {
		ev[i] = EV(PERF_TYPE_RAW, 0x00c0 | (u64)(i + 1) << 24, EX_U);
		if (i < n - 1) {
			ck_assert_int_eq(open_ev_in(ctx, 0, cnt[0], &ev[i]), PFM_PERF_GP_FIRST + i);
			continue;
		}
		ck_assert_int_eq(open_ev_in(ctx, 0, cnt[0], &ev[i]), -EINVAL);
		ck_assert_int_eq(open_ev_in(ctx, 1, cnt[1], &ev[i]), PFM_PERF_GP_FIRST);
	}
	set_counting_in(ctx, 0, cnt[0], ~0ULL, true);
	set_counting_in(ctx, 1, cnt[1], ~0ULL, true);
	ck_load_self(ctx);
	ck_start(ctx);
	/* 100 user instructions a millisecond: 1 ms in set 0, 1 in set 1, 1 in set 0 */
	for (s = 0; s < 3; s++) {
		sim_count(SIM_EV_INST, 100, SIM_USER);
		sim_count(SIM_EV_INST, 50, SIM_KERNEL);
		pfm_host_env.clock_ns += 1000000;
		if (s < 2)
			ck_assert(shim_hrtimer_fire(&ctx->timer));
	}
	ck_stop(ctx);
	for (i = 0; i < n - 1; i++)
		ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, pfm_perf_counter_pmd(ev[i].counter)), 200);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, pfm_perf_counter_pmd(ev[n - 1].counter)), 100);
	/* set 1's counter 0 is not set 0's */
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, pfm_perf_counter_pmd(ev[0].counter)), 200);
	ck_assert_int_eq(pfm_getinfo_evtsets(ctx, info, 2), 0);
	ck_assert_u64_eq(info[0].set_act_duration, 2000000);
	ck_assert_u64_eq(info[1].set_act_duration, 1000000);
	ena = info[0].set_act_duration + info[1].set_act_duration;
	ck_assert_u64_eq(100 * ena / info[1].set_act_duration, 300);
	ck_assert_u64_eq(200 * ena / info[0].set_act_duration, 300);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* --- sampling and pinned events over sets, as perf/sched.c and perf/ring.c --- */

static struct pfm_perf_routes test_routes;
static unsigned int routed[2], unrouted;
static struct pfm_perf_event *const ev_a = (struct pfm_perf_event *)&routed[0];
static struct pfm_perf_event *const ev_b = (struct pfm_perf_event *)&routed[1];

/* The perf_ring format's handler: whose overflow this is, by set and PMD. */
static void route_record(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int pmd)
{
	struct pfm_perf_event *ev = pfm_perf_route_find(&test_routes, set->id, pmd);

	(void)ctx;
	if (ev == ev_a)
		routed[0]++;
	else if (ev == ev_b)
		routed[1]++;
	else
		unrouted++;
}

/*
 * A software sampling event in set 0 and another in set 1, each on counter 0 of
 * its set's row (the same PMD), beside hardware groups that need the two sets:
 * each overflow reaches the event of the set it happened in, each set's counts
 * are exact, and a PMD no event owns reaches none.
 */
START_TEST(test_sampling_routed_by_set)
{
	static struct pfm_perf_counter cnt[2][PFM_PERF_NUM_COUNTERS];
	static const char fake_fmt;
	struct pfm_perf_enc sw = {
		.counters = PFM_PERF_COUNTER(PFM_PERF_SW_COUNTERS) - 1,
		.pmc = PFM_SW_EV_SYSCALLS | PFM_SW_PMC_USR,
		.own = true,
	};
	struct ev hw[PFM_X86_MAX_GP + 1];
	const u64 period = 4;
	struct pfm_context *ctx;
	unsigned int n, i, s;
	int c[2];
	u64 pmc;

	sim_start(_i);
	memset(cnt, 0, sizeof(cnt));
	memset(&test_routes, 0, sizeof(test_routes));
	routed[0] = routed[1] = unrouted = 0;
	n = sim_m()->num_gp + 1;
	ctx = ck_ctx_new(0);
	ctx->smpl.fmt = (const struct pfm_smpl_fmt *)&fake_fmt;
	pfm_host_env.on_record = route_record;
	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	for (i = 0; i < n; i++) {
		hw[i] = EV(PERF_TYPE_RAW, 0x00c0 | (u64)(i + 1) << 24, EX_U);
		ck_assert_int_ge(open_ev_in(ctx, i < n - 1 ? 0 : 1, cnt[i < n - 1 ? 0 : 1],
					    &hw[i]), 0);
	}
	for (s = 0; s < 2; s++) {
		c[s] = pfm_perf_counter_get(ctx, s, cnt[s], &sw, &pmc, NULL);
		ck_assert_int_eq(c[s], 0);
		ck_assert(cnt[s][0].users == 1);
		cnt[s][0].smpl = true;
		ck_write_pmd_full(ctx, s, SW_PMD(0), -period, PFM_PMDFL_SMPL, -period, -period, 0);
		set_counting_in(ctx, s, cnt[s], ~0ULL, true);
	}
	/* a sampling event's counter is its own: another one takes the next */
	ck_assert_int_eq(pfm_perf_counter_get(ctx, 0, cnt[0], &sw, &pmc, NULL), 1);
	pfm_perf_counter_put(ctx, 0, cnt[0], 1, false);
	pfm_perf_route_set(&test_routes, 0, c[0], ev_a);
	pfm_perf_route_set(&test_routes, 1, c[1], ev_b);
	ck_load_self(ctx);
	ck_start(ctx);
	/* set 0: 10 calls, 100 instructions; set 1: 7 and 100; set 0: 6 and 100 */
	for (s = 0; s < 3; s++) {
		for (i = 0; i < (s == 0 ? 10 : s == 1 ? 7 : 6); i++)
			pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
		sim_count(SIM_EV_INST, 100, SIM_USER);
		pfm_host_env.clock_ns += 1000000;
		if (s < 2)
			ck_assert(shim_hrtimer_fire(&ctx->timer));
	}
	ck_stop(ctx);
	/* 16 calls in set 0 at a period of 4: four samples, the last one just reset */
	ck_assert_uint_eq(routed[0], 4);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, SW_PMD(0)), -period);
	/* 7 in set 1: one sample, three into the next period */
	ck_assert_uint_eq(routed[1], 1);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, SW_PMD(0)), -period + 3);
	ck_assert_uint_eq(unrouted, 0);
	ck_assert_uint_eq(pfm_host_env.samples, 5);
	/* the hardware groups: each counted its own set's turns exactly */
	for (i = 0; i < n - 1; i++)
		ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, pfm_perf_counter_pmd(hw[i].counter)), 200);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, pfm_perf_counter_pmd(hw[n - 1].counter)), 100);
	/* routes: by set and PMD; a PMD no counter has, or a set past the rows, none */
	ck_assert_ptr_eq(pfm_perf_route_find(&test_routes, 1, SW_PMD(0)), ev_b);
	ck_assert_ptr_null(pfm_perf_route_find(&test_routes, 1, SW_PMD(1)));
	ck_assert_ptr_null(pfm_perf_route_find(&test_routes, PFM_PERF_MAX_SETS, SW_PMD(0)));
	ck_assert_ptr_null(pfm_perf_route_find(&test_routes, 0, PFM_MAX_PMDS - 1));
	pfm_host_env.on_record = NULL;
	ctx->smpl.fmt = NULL;
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/*
 * A pinned event is in every set on one counter index (perf/sched.c): the first
 * free in every row, a fixed counter first; its count is the sum of its counter
 * in each set, exact, so it runs all the time.  No index free in every row:
 * -EINVAL, the pinned group cannot be scheduled (perf's ERROR state).
 */
START_TEST(test_pinned_every_set)
{
	static struct pfm_perf_counter cnt[2][PFM_PERF_NUM_COUNTERS];
	struct pfm_perf_counter *rows[2] = { cnt[0], cnt[1] };
	struct ev a = EV(PERF_TYPE_RAW, 0x01000076, EX_U);
	struct ev b = EV(PERF_TYPE_RAW, 0x02000076, EX_U);
	struct ev inst = EV(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, EX_U);
	struct ev more[PFM_X86_MAX_GP];
	struct pfm_perf_enc pin, raw;
	struct pfm_context *ctx;
	unsigned int s, i;
	int at;
	u64 pmc;

	sim_start(_i);
	memset(cnt, 0, sizeof(cnt));
	if (sim_m()->num_gp < 3)
		return;
	ctx = ck_ctx_new(0);
	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	/* GP 0 taken in set 0, GP 0 and 1 in set 1 */
	ck_assert_int_eq(open_ev_in(ctx, 0, cnt[0], &a), PFM_PERF_GP_FIRST);
	ck_assert_int_eq(open_ev_in(ctx, 1, cnt[1], &b), PFM_PERF_GP_FIRST);
	b = EV(PERF_TYPE_RAW, 0x03000076, EX_U);
	ck_assert_int_eq(open_ev_in(ctx, 1, cnt[1], &b), PFM_PERF_GP_FIRST + 1);
	/* instructions: fixed counter 0 where there is one, else GP 2 */
	ck_assert_int_eq(encode(inst.type, inst.config, inst.excl, &pin), 0);
	at = pfm_perf_place_every(rows, 2, &pin);
	ck_assert_int_eq(at, has_fixed(0) ? PFM_PERF_FIXED_FIRST : PFM_PERF_GP_FIRST + 2);
	/* a value only GP counters take: GP 2, free in both */
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x010000c0, EX_U, &raw), 0);
	ck_assert_int_eq(pfm_perf_place_every(rows, 2, &raw), PFM_PERF_GP_FIRST + 2);
	/* the same value as set 0's a shares GP 0 there, but set 1's GP 0 is b's */
	ck_assert_int_eq(encode(a.type, a.config, a.excl, &raw), 0);
	ck_assert_int_eq(pfm_perf_place_every(rows, 2, &raw), PFM_PERF_GP_FIRST + 2);
	ck_assert_int_eq(pfm_perf_place_every(rows, 1, &raw), PFM_PERF_GP_FIRST);
	/* the pinned event at its index in both sets, counting in both */
	pin.counters = PFM_PERF_COUNTER(at);
	for (s = 0; s < 2; s++) {
		ck_assert_int_eq(pfm_perf_counter_get(ctx, s, cnt[s], &pin, &pmc, NULL), at);
		set_counting_in(ctx, s, cnt[s], ~0ULL, true);
	}
	ck_load_self(ctx);
	ck_start(ctx);
	for (s = 0; s < 3; s++) {
		sim_count(SIM_EV_INST, 100 + s, SIM_USER);
		pfm_host_env.clock_ns += 1000000;
		if (s < 2)
			ck_assert(shim_hrtimer_fire(&ctx->timer));
	}
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, pfm_perf_counter_pmd(at)), 100 + 102);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, pfm_perf_counter_pmd(at)), 101);
	/* every GP counter of set 0 taken: no index for a GP-only value in both */
	for (i = 0; i < PFM_X86_MAX_GP; i++) {
		more[i] = EV(PERF_TYPE_RAW, 0x00c4 | (u64)(i + 4) << 24, EX_U);
		if (open_ev_in(ctx, 0, cnt[0], &more[i]) == -EINVAL)
			break;
	}
	ck_assert_uint_lt(i, PFM_X86_MAX_GP);
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x050000c0, EX_U, &raw), 0);
	ck_assert_int_eq(pfm_perf_place_every(rows, 2, &raw), -EINVAL);
	/* set 1 alone: its first free GP counter (GP 0 and 1 are b's, maybe 2 pinned) */
	i = PFM_PERF_GP_FIRST + (at == PFM_PERF_GP_FIRST + 2 ? 3 : 2);
	ck_assert_int_eq(pfm_perf_place_every(rows + 1, 1, &raw),
			 i < PFM_PERF_GP_FIRST + sim_m()->num_gp ? (int)i : -EINVAL);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

Suite *sim_perf_sets_suite(void)
{
	Suite *s = suite_create("sim_perf_sets");
	TCase *tc = sim_tcase("perf_sets");

	tcase_add_loop_test(tc, test_multiplexed_sets, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_sampling_routed_by_set, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_pinned_every_set, 0, sim_nr_core_models());
	suite_add_tcase(s, tc);
	return s;
}
