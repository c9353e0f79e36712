// SPDX-License-Identifier: GPL-2.0
/*
 * mux_log: the set switch log format (mux_smpl.c, included to reach its statics)
 * driven by the core's switching (switch.c, state.c) on the fake unit and clock;
 * the context's live time; randomised timeouts (sets.c, switch.c).
 */
#include "harness.h"
#include "smpl.h"
#include "mux_smpl.c"

/* The registry (smpl_fmt.c) is kernel-only; the format's own init is not tested. */
int pfm_smpl_fmt_register(struct pfm_smpl_fmt *fmt __always_unused)
{
	return 0;
}

void pfm_smpl_fmt_unregister(struct pfm_smpl_fmt *fmt __always_unused)
{
}

static u64 mux_buf[(PFM_MUX_SMPL_MIN_SIZE + 4096) / 8];

static void mux_on_switch(struct pfm_context *ctx, struct pfm_event_set *prev,
			  struct pfm_event_set *next)
{
	pfm_mux_smpl_fmt.set_switch(&ctx->smpl, ctx, prev, next);
}

/* ctx logs its switches into a fresh buffer of size bytes. */
static void mux_attach(struct pfm_context *ctx, size_t size)
{
	struct pfm_mux_smpl_arg arg = { .buf_size = size };

	ck_assert_uint_le(size, sizeof(mux_buf));
	memset(mux_buf, 0, sizeof(mux_buf));
	pfm_mux_smpl_init_buf(mux_buf, size, &arg);
	ctx->smpl.fmt = &pfm_mux_smpl_fmt;
	ctx->smpl.addr = mux_buf;
	ctx->smpl.size = size;
	pfm_host_env.on_switch = mux_on_switch;
}

static void mux_done(struct pfm_context *ctx)
{
	ctx->smpl.fmt = NULL;
	ctx->smpl.addr = NULL;
	pfm_host_env.on_switch = NULL;
	ck_done(ctx);
}

static struct pfm_mux_smpl_hdr *mux_hdr(void)
{
	return (struct pfm_mux_smpl_hdr *)mux_buf;
}

/* The k-th record (from 0), its values after it. */
static struct pfm_mux_smpl_entry *mux_entry(unsigned int k)
{
	char *p = (char *)mux_buf + sizeof(struct pfm_mux_smpl_hdr);
	struct pfm_mux_smpl_entry *e;

	ck_assert_uint_lt(k, mux_hdr()->hdr_count);
	for (;;) {
		e = (struct pfm_mux_smpl_entry *)p;
		if (!k--)
			return e;
		p += sizeof(*e) + (e->nr_prev + e->nr_next) * sizeof(u64);
	}
}

static u64 mux_val(struct pfm_mux_smpl_entry *e, unsigned int j)
{
	return ((u64 *)(e + 1))[j];
}

START_TEST(test_mux_validate)
{
	struct pfm_mux_smpl_arg a = { .buf_size = PFM_MUX_SMPL_MIN_SIZE };

	ck_assert_int_eq(pfm_mux_smpl_validate(0, &a), 0);
	ck_assert_u64_eq(pfm_mux_smpl_getsize(&a), PFM_MUX_SMPL_MIN_SIZE);
	a.buf_size--;
	ck_assert_int_eq(pfm_mux_smpl_validate(0, &a), -EINVAL);
	a.buf_size++;
	a.buf_flags = 1;
	ck_assert_int_eq(pfm_mux_smpl_validate(0, &a), -EINVAL);
	a.buf_flags = 0;
	a.reserved1 = 1;
	ck_assert_int_eq(pfm_mux_smpl_validate(0, &a), -EINVAL);
	a.reserved1 = 0;
	a.reserved[5] = 1;
	ck_assert_int_eq(pfm_mux_smpl_validate(0, &a), -EINVAL);
	a.reserved[5] = 0;
	/* it records no samples, and never asks for a notification */
	ck_assert(!pfm_mux_smpl_fmt.handler(NULL, NULL, NULL, 0));
	ck_assert_ptr_null(pfm_mux_smpl_fmt.restart);
}
END_TEST

/*
 * Two sets of two and one PMDs, switched by timeout: a record at the start, one at
 * each switch, one at the start after a stop; times are the live time (the clock's
 * idle stretches while stopped or switched out do not count), values those of both
 * sets at the switch.
 */
START_TEST(test_mux_log_switches)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_mux_smpl_entry *e;
	struct pfarg_setinfo i0, i1;

	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 2000000);
	ck_write_set_pmc(ctx, 0, 0, FAKE_PMC_EN);
	ck_write_set_pmc(ctx, 0, 1, FAKE_PMC_EN);
	ck_write_set_pmc(ctx, 1, 2, FAKE_PMC_EN);
	ck_write_set_pmd(ctx, 1, 2, 100);
	mux_attach(ctx, sizeof(mux_buf));
	ck_load_self(ctx);
	pfm_host_env.clock_ns = 5000;
	ck_start(ctx);
	ck_assert_u64_eq(mux_hdr()->hdr_count, 1);
	e = mux_entry(0);
	ck_assert_u64_eq(e->live_ns, 0);
	ck_assert_uint_eq(e->flags, PFM_MUX_START);
	ck_assert_uint_eq(e->next_set, 0);
	ck_assert_u64_eq(e->next_run, 1);
	ck_assert_uint_eq(e->nr_prev, 0);
	ck_assert_uint_eq(e->nr_next, 2);

	fake_pmu_advance(0, 7);
	fake_pmu_advance(1, 3);
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));		/* to set 1 */
	e = mux_entry(1);
	ck_assert_u64_eq(e->live_ns, 1000000);
	ck_assert_uint_eq(e->flags, PFM_MUX_PREV);
	ck_assert_uint_eq(e->prev_set, 0);
	ck_assert_uint_eq(e->next_set, 1);
	ck_assert_uint_eq(e->nr_prev, 2);
	ck_assert_uint_eq(e->nr_next, 1);
	ck_assert_u64_eq(mux_val(e, 0), 7);
	ck_assert_u64_eq(mux_val(e, 1), 3);
	ck_assert_u64_eq(mux_val(e, 2), 100);

	fake_pmu_advance(2, 4);
	pfm_host_env.clock_ns += 500000;
	ck_stop(ctx);
	pfm_host_env.clock_ns += 9000000;			/* stopped: no live time */
	ck_start(ctx);						/* set 1 again */
	e = mux_entry(2);
	ck_assert_u64_eq(e->live_ns, 1500000);
	ck_assert_uint_eq(e->flags, PFM_MUX_PREV | PFM_MUX_START);
	ck_assert_uint_eq(e->prev_set, 1);
	ck_assert_uint_eq(e->next_set, 1);
	ck_assert_u64_eq(e->next_run, 2);
	ck_assert_u64_eq(mux_val(e, 0), 104);
	ck_assert_u64_eq(mux_val(e, 1), 104);

	pfm_host_env.clock_ns += 2000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));		/* to set 0 */
	e = mux_entry(3);
	ck_assert_u64_eq(e->live_ns, 3500000);
	ck_assert_u64_eq(e->next_run, 2);
	ck_assert_u64_eq(mux_val(e, 1), 7);			/* set 0's start */
	pfm_host_env.clock_ns += 250000;
	ck_stop(ctx);
	ck_assert_u64_eq(mux_hdr()->hdr_count, 4);
	ck_assert_u64_eq(mux_hdr()->hdr_lost, 0);
	ck_assert_u64_eq(mux_hdr()->hdr_cur_offs, sizeof(struct pfm_mux_smpl_hdr) +
			 4 * sizeof(*e) + (2 + 3 + 2 + 3) * sizeof(u64));
	/* the live time is the sum of the durations: where the last run ended */
	i0 = ck_info(ctx, 0);
	i1 = ck_info(ctx, 1);
	ck_assert_u64_eq(i0.set_act_duration + i1.set_act_duration, 3750000);
	ck_assert_u64_eq(ctx->live_ns, 3750000);
	mux_done(ctx);
}
END_TEST

/* A lone set that times out takes itself again: not a switch, nothing logged. */
START_TEST(test_mux_lone_set)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_write_set_pmc(ctx, 0, 0, FAKE_PMC_EN);
	mux_attach(ctx, sizeof(mux_buf));
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_u64_eq(ctx_set0(ctx)->runs, 2);
	ck_assert_u64_eq(mux_hdr()->hdr_count, 1);
	ck_assert_uint_eq(pfm_host_env.switch_logs, 1);
	mux_done(ctx);
}
END_TEST

/*
 * A record that does not fit is counted as lost, and nothing else changes: the
 * switch happens, monitoring goes on, no notification.
 */
START_TEST(test_mux_full)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	size_t size = sizeof(struct pfm_mux_smpl_hdr) + 2 * (sizeof(struct pfm_mux_smpl_entry) +
							    2 * sizeof(u64)) + 8;

	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_write_set_pmc(ctx, 0, 0, FAKE_PMC_EN);
	ck_write_set_pmc(ctx, 1, 0, FAKE_PMC_EN);
	mux_attach(ctx, size);
	ck_load_self(ctx);
	ck_start(ctx);						/* 1 value */
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));		/* 2 values */
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));		/* no room */
	ck_assert_uint_eq(ctx->active->id, 0);
	ck_assert(ctx->started);
	ck_assert(!ctx->masked);
	ck_assert_u64_eq(mux_hdr()->hdr_count, 2);
	ck_assert_u64_eq(mux_hdr()->hdr_lost, 1);
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 0);
	mux_done(ctx);
}
END_TEST

/* Deleting a set takes its duration out of the live time: it stays their sum. */
START_TEST(test_mux_live_time_delete)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_setdesc d = { .set_id = 1 };

	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 3000000);
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	pfm_host_env.clock_ns += 2000000;
	ck_stop(ctx);
	ck_assert_u64_eq(ctx->live_ns, 3000000);
	ck_unload(ctx);
	ck_assert_int_eq(pfm_delete_evtsets(ctx, &d, 1), 0);
	ck_assert_u64_eq(ctx->live_ns, 1000000);
	ck_done(ctx);
}
END_TEST

static struct pfarg_setdesc rdesc(u32 flags, u64 timeout, u64 mask)
{
	return (struct pfarg_setdesc){ .set_id = 1, .set_flags = flags,
				       .set_timeout = timeout, .set_timeout_mask = mask };
}

/* Every bad random timeout is EINVAL and creates nothing. */
START_TEST(test_random_timeout_errors)
{
	const u32 T = PFM_SETFL_TIME_SWITCH, R = PFM_SETFL_RANDOM_TIMEOUT;
	struct pfm_context *ctx = ck_ctx_new(0);
	u64 res = pfm_timer_resolution_ns();
	struct pfarg_setdesc d;

	d = rdesc(R, 1000000, 0xffff);				/* no timer */
	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), -EINVAL);
	d = rdesc(T | R, 1000000, 0);				/* no range */
	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), -EINVAL);
	d = rdesc(T, 1000000, 0xffff);				/* range, no flag */
	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), -EINVAL);
	d = rdesc(0, 0, 1);
	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), -EINVAL);
	d = rdesc(T | R, 1000000, 1000000);			/* as long as the timeout */
	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), -EINVAL);
	d = rdesc(T | R, 1000000, ~0ULL);
	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), -EINVAL);
	d = rdesc(T | R, 1000000, 1000000 - res + 1);		/* a run below the minimum */
	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), -EINVAL);
	ck_assert_ptr_null(pfm_find_set(ctx, 1));
	d = rdesc(T | R, 1000000, 1000000 - res);		/* the minimum is allowed */
	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), 0);
	ck_assert_u64_eq(pfm_find_set(ctx, 1)->timeout_mask, 1000000 - res);
	/* delete takes no mask */
	d = (struct pfarg_setdesc){ .set_id = 1, .set_timeout_mask = 1 };
	ck_assert_int_eq(pfm_delete_evtsets(ctx, &d, 1), -EINVAL);
	ck_assert_ptr_nonnull(pfm_find_set(ctx, 1));
	ck_done(ctx);
}
END_TEST

/*
 * Each run lasts the timeout less the random bits within the mask, drawn at each
 * activation, whether the set comes by a start or by the timer.
 */
START_TEST(test_random_timeout_runs)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_setdesc d[2] = {
		{ .set_id = 0, .set_flags = PFM_SETFL_TIME_SWITCH | PFM_SETFL_RANDOM_TIMEOUT,
		  .set_timeout = 1000000, .set_timeout_mask = 0x3ffff },
		{ .set_id = 1, .set_flags = PFM_SETFL_TIME_SWITCH, .set_timeout = 1000000 },
	};

	ck_assert_int_eq(pfm_create_evtsets(ctx, d, 2), 0);
	ck_assert_u64_eq(d[0].set_timeout, 1000000);
	ck_load_self(ctx);
	shim_random = 0xfff00000 | 100000;			/* masked: 100000 */
	ck_start(ctx);
	pfm_host_env.clock_ns += 899999;
	ck_assert(!shim_hrtimer_fire(&ctx->timer));
	pfm_host_env.clock_ns += 1;
	ck_assert(shim_hrtimer_fire(&ctx->timer));		/* after 900 us */
	ck_assert_uint_eq(ctx->active->id, 1);
	shim_random = 0x20000;					/* set 1 takes no part */
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(ctx->active->id, 0);			/* set 0 for 1 ms - 128 Ki */
	pfm_host_env.clock_ns += 1000000 - 0x20000 - 1;
	ck_assert(!shim_hrtimer_fire(&ctx->timer));
	pfm_host_env.clock_ns += 1;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	ck_assert_uint_eq(ctx->active->id, 1);
	ck_assert_u64_eq(ck_info(ctx, 0).set_act_duration, 900000 + 1000000 - 0x20000);
	ck_assert_uint_eq(ck_info(ctx, 0).set_flags,
			  PFM_SETFL_TIME_SWITCH | PFM_SETFL_RANDOM_TIMEOUT);
	ck_done(ctx);
}
END_TEST

Suite *pfm_mux_smpl_suite(void)
{
	Suite *s = suite_create("mux_smpl");
	TCase *tc = pfm_host_tcase("mux_smpl", pfm_host_setup);

	tcase_add_test(tc, test_mux_validate);
	tcase_add_test(tc, test_mux_log_switches);
	tcase_add_test(tc, test_mux_lone_set);
	tcase_add_test(tc, test_mux_full);
	tcase_add_test(tc, test_mux_live_time_delete);
	tcase_add_test(tc, test_random_timeout_errors);
	tcase_add_test(tc, test_random_timeout_runs);
	suite_add_tcase(s, tc);
	return s;
}
