// SPDX-License-Identifier: GPL-2.0
/*
 * perf_sample: perf's hardware events sampling (sample_period, freq) on every
 * simulated model, through the core's overflow path as the perf layer uses it:
 * the event's own hardware counter as a sampling PMD reset to -period by the
 * core, the PMI's interrupted IP carried from the NMI (unit.c) through
 * pfm_pmu_overflow_at() to the format, the "perf_ring" format's routes by set
 * and PMD (perf/counters.c), and what pfm_perf_sample_overflow() computes for each
 * sample (perf/overflow.c: the IP and its level, the period's accounting, freq's
 * adaptive period).  The record's layout and ring are the guest suites' (on the
 * software PMU; the guest has no hardware PMU).
 */
#include "sim_perf.h"
#include "perf/overflow.h"

#define UIP	0x401000ULL		/* user-mode code */
#define KIP	0xffffffff81234000ULL	/* kernel code */
#define MAX_SAMPLES	128

/* A sampling event as perf/sample.c keeps it, and the samples it took. */
struct smpl {
	struct ev ev;
	u16 set;
	struct pfm_perf_period per;
	u64 freq;			/* sample_freq with attr.freq, else 0 */
	int member;			/* a counting member's counter (READ), or -1 */
	u64 base;			/* the PMD when counting began (perf/event.c) */
	unsigned int n;
	u64 ip[MAX_SAMPLES];
	u16 misc[MAX_SAMPLES];
	u64 period[MAX_SAMPLES];
	u64 member_count[MAX_SAMPLES];
	/* perf_event_max_sample_rate's limit a tick (perf/sample.c), 0 for none */
	unsigned int max;
	struct pfm_perf_throttle thr;
	unsigned int throttles, unthrottles;
};

static struct pfm_perf_counter cnt[2][PFM_PERF_NUM_COUNTERS];
static u64 wrapped[2][PFM_PERF_NUM_COUNTERS];	/* the rows' wrapped[] (perf/event.h) */
static struct pfm_perf_routes routes;
static u64 now_ns;			/* local_clock() at the samples */
static unsigned long tick;		/* jiffies at the samples */
static const char fake_fmt;

/*
 * The "perf_ring" format's handler and pfm_perf_sample_overflow(), less the
 * record: the event the route names, its IP and level, its period and a
 * member's count (PERF_SAMPLE_READ of a group), then the period done.
 */
static void on_sample(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int pmd)
{
	struct smpl *s = (struct smpl *)pfm_perf_route_find(&routes, set->id, pmd);
	unsigned int i;

	ck_assert_ptr_nonnull(s);
	if (s->max) {
		u32 rec;
		bool skip = pfm_perf_throttle_at(&s->thr, tick, s->max, &s->per,
						 pfm_set_pmd(set, pmd), &rec);

		s->throttles += rec == PERF_RECORD_THROTTLE;
		s->unthrottles += rec == PERF_RECORD_UNTHROTTLE;
		if (skip) {
			pfm_perf_period_backoff(&s->thr, &s->per, s->max,
						&wrapped[set->id][s->ev.counter],
						pfm_set_pmd(set, pmd));
			return;
		}
	}
	ck_assert_uint_lt(s->n, MAX_SAMPLES);
	i = s->n++;
	s->ip[i] = pfm_perf_sample_ip(pfm_overflow_where(), !(s->ev.excl & EX_U),
					&s->misc[i]);
	s->period[i] = s->per.period;
	if (s->member >= 0)
		s->member_count[i] = pfm_pmd_value(ctx, set, pfm_perf_counter_pmd(s->member));
	pfm_perf_period_done_at(&s->per, s->freq, now_ns, &wrapped[set->id][s->ev.counter],
				pfm_set_pmd(set, pmd));
}

static struct pfm_context *smpl_ctx(void)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	memset(cnt, 0, sizeof(cnt));
	memset(wrapped, 0, sizeof(wrapped));
	memset(&routes, 0, sizeof(routes));
	now_ns = 0;
	tick = 0;
	ctx->smpl.fmt = (const struct pfm_smpl_fmt *)&fake_fmt;
	pfm_host_env.on_record = on_sample;
	return ctx;
}

static void smpl_done(struct pfm_context *ctx)
{
	pfm_host_env.on_record = NULL;
	ctx->smpl.fmt = NULL;
	ck_unload(ctx);
	pfm_context_put(ctx);
}

static void attr_of(struct perf_event_attr *a, u32 type, u64 config, u64 excl, u64 period,
		    bool freq)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->exclude_user = !!(excl & EX_K);
	a->exclude_kernel = !!(excl & EX_U);
	a->sample_period = period;	/* sample_freq with freq */
	a->freq = freq;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
}

/*
 * What perf/event.c and perf/sample.c do at open: the attr's encoding on a
 * counter of its own in set, a sampling PMD at -(first period) routed to s.
 */
static void smpl_open(struct pfm_context *ctx, struct smpl *s, u16 set, u32 type, u64 config,
		      u64 excl, u64 period, bool freq)
{
	struct perf_event_attr a;
	struct pfm_perf_enc e;
	unsigned int pmd;
	u64 pmc, p;
	int c;

	memset(s, 0, sizeof(*s));
	s->ev = EV(type, config, excl);
	s->set = set;
	s->member = -1;
	attr_of(&a, type, config, excl, period, freq);
	ck_assert_int_eq(pfm_perf_sample_bits_check(&a), 0);
	ck_assert_int_eq(pfm_perf_hw_encode(&a, -1, &e), 0);
	e.own = true;
	c = pfm_perf_counter_get(ctx, set, cnt[set], &e, &pmc, NULL);
	ck_assert_int_ge(c, PFM_PERF_GP_FIRST);		/* a hardware counter */
	s->ev.counter = c;
	cnt[set][c].smpl = true;
	s->per.period = p = pfm_perf_first_period(&a);
	s->per.stamp = now_ns;
	s->freq = a.freq ? a.sample_freq : 0;
	pmd = pfm_perf_counter_pmd(c);
	ck_write_pmd_full(ctx, set, pmd, -p, PFM_PMDFL_SMPL, -p, -p, 0);
	s->base = -p;
	pfm_perf_route_set(&routes, set, c, (struct pfm_perf_event *)s);
	set_counting_in(ctx, set, cnt[set], PFM_PERF_COUNTER(c), true);
}

static unsigned int smpl_pmd(const struct smpl *s)
{
	return pfm_perf_counter_pmd(s->ev.counter);
}

/* The PMD's value now: -period right after a reload. */
static u64 smpl_pmd_value(struct pfm_context *ctx, const struct smpl *s)
{
	return ck_read_set_pmd(ctx, s->set, smpl_pmd(s));
}

/*
 * What read() gives for it (perf/event.c): the PMD's progress since counting
 * began, and the periods the resets took.
 */
static u64 smpl_count(struct pfm_context *ctx, const struct smpl *s)
{
	return smpl_pmd_value(ctx, s) + wrapped[s->set][s->ev.counter] - s->base;
}

static bool is_intel(void)
{
	return sim_m()->vendor == SIM_INTEL;
}

static u64 branch_event(void)
{
	return is_intel() ? 0x00c4 : 0x00c2;
}

/* The width a counter wraps at on this model. */
static unsigned int counter_width(int c)
{
	return c >= PFM_PERF_FIXED_FIRST ? sim_m()->fixed_width : sim_m()->width;
}

/*
 * sample_period N on instructions:u (a fixed counter where there is one) and on
 * branches at both levels: one sample every N, each at the IP the PMI
 * interrupted (kernel IP and misc KERNEL for the branches taken in the kernel),
 * PERIOD N, the PMD reloaded with -N at each one, the count exact.
 */
START_TEST(test_hw_period)
{
	const u64 N = 1000;
	static struct smpl inst, br;
	struct pfm_context *ctx;
	unsigned int i;

	sim_start(_i);
	ctx = smpl_ctx();
	smpl_open(ctx, &inst, 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, EX_U, N, false);
	smpl_open(ctx, &br, 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, N, false);
	if (sim_has_fixed())
		ck_assert_int_eq(inst.ev.counter, PFM_PERF_FIXED_FIRST);
	ck_load_self(ctx);
	ck_start(ctx);
	for (i = 0; i < 10; i++) {
		sim.ip = UIP + i;
		sim_count(SIM_EV_INST, N - 1, SIM_USER);
		ck_assert_uint_eq(inst.n, i);
		sim_count(SIM_EV_INST, 1, SIM_USER);
		ck_assert_uint_eq(inst.n, i + 1);
		ck_assert_u64_eq(inst.ip[i], UIP + i);
		ck_assert_uint_eq(inst.misc[i], PERF_RECORD_MISC_USER);
		ck_assert_u64_eq(inst.period[i], N);
		ck_assert_u64_eq(smpl_pmd_value(ctx, &inst), -N);
		/* kernel instructions are not counted, nor sampled */
		sim_count(SIM_EV_INST, 3 * N, SIM_KERNEL);
	}
	sim.ip = UIP;
	sim_count(SIM_EV_INST, 123, SIM_USER);
	ck_assert_uint_eq(inst.n, 10);
	ck_assert_u64_eq(smpl_pmd_value(ctx, &inst), -N + 123);
	ck_assert_u64_eq(smpl_count(ctx, &inst), 10 * N + 123);

	/* branches: in the kernel, then in user mode */
	sim.ip = KIP;
	sim_count(branch_event(), N + 5, SIM_KERNEL);
	sim.ip = UIP + 0x40;
	sim_count(branch_event(), N, SIM_USER);
	ck_assert_uint_eq(br.n, 2);
	ck_assert_u64_eq(br.ip[0], KIP);
	ck_assert_uint_eq(br.misc[0], PERF_RECORD_MISC_KERNEL);
	ck_assert_u64_eq(br.ip[1], UIP + 0x40);
	ck_assert_uint_eq(br.misc[1], PERF_RECORD_MISC_USER);
	ck_assert_u64_eq(smpl_pmd_value(ctx, &br), -N + 5);
	ck_assert_u64_eq(smpl_count(ctx, &br), 2 * N + 5);
	ck_assert_uint_eq(inst.n, 10);
	ck_stop(ctx);
	ck_assert_u64_eq(smpl_count(ctx, &inst), 10 * N + 123);
	smpl_done(ctx);
}
END_TEST

/*
 * One PMI for two overflows (the irq_work ran after both): the first PMI's IP,
 * in the kernel, stands for both; the event that counts the kernel gets it,
 * the user-only one gets the thread's user-mode IP (a skid into the kernel
 * shows no kernel address to a user-level event).
 */
START_TEST(test_hw_kernel_ip_user_event)
{
	const u64 N = 50;
	static struct smpl inst, br;
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = smpl_ctx();
	smpl_open(ctx, &inst, 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, EX_U, N, false);
	smpl_open(ctx, &br, 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, N, false);
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_host_env.user_ip = UIP + 0x80;
	sim.hold_work = true;
	sim.ip = KIP;
	sim_count(branch_event(), N, SIM_KERNEL);
	sim.ip = UIP;
	sim_count(SIM_EV_INST, N, SIM_USER);
	ck_assert_uint_eq(inst.n + br.n, 0);
	sim.hold_work = false;
	sim_run_work();
	ck_assert_uint_eq(inst.n, 1);
	ck_assert_uint_eq(br.n, 1);
	ck_assert_u64_eq(br.ip[0], KIP);
	ck_assert_uint_eq(br.misc[0], PERF_RECORD_MISC_KERNEL);
	ck_assert_u64_eq(inst.ip[0], UIP + 0x80);
	ck_assert_uint_eq(inst.misc[0], PERF_RECORD_MISC_USER);
	ck_assert_u64_eq(smpl_count(ctx, &inst), N);
	ck_assert_u64_eq(smpl_count(ctx, &br), N);
	ck_stop(ctx);
	smpl_done(ctx);
}
END_TEST

/*
 * A period beyond the counter's width: the counter wraps on the way (PMIs
 * without samples, as perf's x86 driver programs at most max_period and
 * samples when the whole period is left), and the sample comes after exactly
 * period events.
 */
START_TEST(test_hw_period_beyond_width)
{
	static struct smpl inst;
	struct pfm_context *ctx;
	unsigned long nmis;
	u64 P;

	sim_start(_i);
	ctx = smpl_ctx();
	smpl_open(ctx, &inst, 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, EX_U, 1, false);
	P = 3 * (1ULL << counter_width(inst.ev.counter)) + 7;
	/* the period as IOC_PERIOD sets it before the start */
	inst.per.period = P;
	ck_write_pmd_full(ctx, 0, smpl_pmd(&inst), -P, PFM_PMDFL_SMPL, -P, -P, 0);
	inst.base = -P;
	ck_load_self(ctx);
	ck_start(ctx);
	nmis = sim.nmis;
	sim.ip = UIP;
	sim_count(SIM_EV_INST, P - 1, SIM_USER);
	ck_assert_uint_eq(inst.n, 0);
	ck_assert_uint_ge(sim.nmis - nmis, 3);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_assert_uint_eq(inst.n, 1);
	ck_assert_u64_eq(inst.period[0], P);
	ck_assert_u64_eq(smpl_pmd_value(ctx, &inst), -P);
	ck_assert_u64_eq(smpl_count(ctx, &inst), P);
	sim_count(SIM_EV_INST, P + 2, SIM_USER);
	ck_assert_uint_eq(inst.n, 2);
	ck_assert_u64_eq(smpl_count(ctx, &inst), 2 * P + 2);
	ck_stop(ctx);
	smpl_done(ctx);
}
END_TEST

/*
 * freq on cycles (config 0, as PERF_COUNT_SW_CPU_CLOCK's: not a clock here):
 * the first period is 1 and freq stays; cycles at one a nanosecond, 1000
 * samples a second asked: the period adapts towards 10^6 an eighth of the
 * difference at a time, each sample's PERIOD the period that ran out, the count
 * exact; a gap of more than two ticks teaches nothing.
 */
START_TEST(test_hw_freq)
{
	static struct smpl cyc;
	struct perf_event_attr a;
	struct pfm_context *ctx;
	u64 total = 0, n, prev;
	unsigned int i;

	sim_start(_i);
	attr_of(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, EX_U, 1000, true);
	ck_assert_u64_eq(pfm_perf_first_period(&a), 1);
	ck_assert(a.freq);
	ck_assert(!pfm_perf_every_event(&a));
	ctx = smpl_ctx();
	smpl_open(ctx, &cyc, 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, EX_U, 1000, true);
	ck_assert_u64_eq(cyc.freq, 1000);
	ck_load_self(ctx);
	ck_start(ctx);
	sim.ip = UIP;
	for (i = 0; i < 100; i++) {
		n = cyc.per.period;
		now_ns += n;
		total += n;
		sim_count(sim_cycles_event(), n, SIM_USER);
		ck_assert_uint_eq(cyc.n, i + 1);
		ck_assert_u64_eq(cyc.period[i], n);
		ck_assert_u64_eq(smpl_pmd_value(ctx, &cyc), -cyc.per.period);
		if (i)
			ck_assert_uint_ge((u64)cyc.per.period, (u64)cyc.period[i]);
	}
	ck_assert_u64_eq(cyc.period[1], 125001);	/* 1 + (10^6 - 1 + 7) / 8 */
	ck_assert_uint_ge((u64)cyc.per.period, (u64)1000000 - 1000);
	ck_assert_uint_le((u64)cyc.per.period, (u64)1000000 + 1000);
	ck_assert_u64_eq(smpl_count(ctx, &cyc), total);
	/* the thread slept 10 ms: the period stays */
	prev = cyc.per.period;
	now_ns += 10000000;
	sim_count(sim_cycles_event(), prev, SIM_USER);
	ck_assert_u64_eq(cyc.per.period, prev);
	ck_assert_u64_eq(smpl_count(ctx, &cyc), total + prev);
	ck_stop(ctx);
	smpl_done(ctx);
}
END_TEST

/*
 * A group: instructions:u sampling, cycles:u counting beside it (PERF_SAMPLE_READ
 * with PERF_FORMAT_GROUP reads the member's PMD in the overflow): each sample
 * sees the member's count at that point, exactly.
 */
START_TEST(test_hw_group_read)
{
	const u64 N = 200;
	static struct smpl inst;
	struct ev cyc = EV(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, EX_U);
	struct pfm_context *ctx;
	unsigned int i;

	sim_start(_i);
	ctx = smpl_ctx();
	smpl_open(ctx, &inst, 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, EX_U, N, false);
	ck_assert_int_ge(open_ev_in(ctx, 0, cnt[0], &cyc), PFM_PERF_GP_FIRST);
	ck_assert_int_ne(cyc.counter, inst.ev.counter);
	inst.member = cyc.counter;
	set_counting_in(ctx, 0, cnt[0], PFM_PERF_COUNTER(cyc.counter), true);
	ck_load_self(ctx);
	ck_start(ctx);
	sim.ip = UIP;
	for (i = 0; i < 5; i++) {
		sim_count(sim_cycles_event(), 7, SIM_USER);
		sim_count(sim_cycles_event(), 100, SIM_KERNEL);
		sim_count(SIM_EV_INST, N, SIM_USER);
		ck_assert_uint_eq(inst.n, i + 1);
		ck_assert_u64_eq(inst.member_count[i], 7 * (i + 1));
	}
	ck_assert_u64_eq(ck_read_pmd(ctx, pfm_perf_counter_pmd(cyc.counter)), 35);
	ck_assert_u64_eq(smpl_count(ctx, &inst), 5 * N);
	ck_stop(ctx);
	smpl_done(ctx);
}
END_TEST

/*
 * Multiplexed: a hardware sampling event in set 0 and another in set 1, on the
 * same counter index: each overflow reaches the event of the set it happened
 * in, each counts exactly its set's turns, each PMD reloaded in its own set.
 */
START_TEST(test_hw_sampling_in_sets)
{
	const u64 N = 10;
	static struct smpl a, b;
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = smpl_ctx();
	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	/* counter masks: general-purpose counters only (the filter is not simulated) */
	smpl_open(ctx, &a, 0, PERF_TYPE_RAW, 0x010000c0, EX_U, N, false);
	smpl_open(ctx, &b, 1, PERF_TYPE_RAW, 0x020000c0, EX_U, N, false);
	ck_assert_int_eq(a.ev.counter, PFM_PERF_GP_FIRST);
	ck_assert_int_eq(b.ev.counter, PFM_PERF_GP_FIRST);
	ck_load_self(ctx);
	ck_start(ctx);
	sim.ip = UIP;
	sim_count(SIM_EV_INST, 25, SIM_USER);			/* set 0 */
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	sim.ip = UIP + 1;
	sim_count(SIM_EV_INST, 35, SIM_USER);			/* set 1 */
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
	sim.ip = UIP + 2;
	sim_count(SIM_EV_INST, 15, SIM_USER);			/* set 0 */
	ck_stop(ctx);
	ck_assert_uint_eq(a.n, 4);
	ck_assert_uint_eq(b.n, 3);
	ck_assert_u64_eq(a.ip[1], UIP);
	ck_assert_u64_eq(a.ip[3], UIP + 2);
	ck_assert_u64_eq(b.ip[2], UIP + 1);
	ck_assert_u64_eq(smpl_pmd_value(ctx, &a), -N);
	ck_assert_u64_eq(smpl_pmd_value(ctx, &b), -N + 5);
	ck_assert_u64_eq(smpl_count(ctx, &a), 40);
	ck_assert_u64_eq(smpl_count(ctx, &b), 35);
	smpl_done(ctx);
}
END_TEST

/*
 * perf_event_max_sample_rate at 4 samples a tick, period 10: the fifth
 * overflow of the tick throttles the event (one THROTTLE), and the counter
 * stops interrupting at the period's rate: it backs off to 40 events, then
 * twice as long each time, so 100000 more events in that tick cost about a
 * dozen PMIs, not 10000, and no sample.  The count stays exact.  The first
 * overflow of the next tick writes UNTHROTTLE, samples, and the period is 10
 * again.
 */
START_TEST(test_hw_throttle)
{
	const u64 N = 10, MORE = 100000;
	static struct smpl inst;
	struct pfm_context *ctx;
	unsigned long nmis;
	u64 total, left;

	sim_start(_i);
	ctx = smpl_ctx();
	smpl_open(ctx, &inst, 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, EX_U, N, false);
	inst.max = 4;
	ck_load_self(ctx);
	ck_start(ctx);
	sim.ip = UIP;
	sim_count(SIM_EV_INST, 4 * N, SIM_USER);
	ck_assert_uint_eq(inst.n, 4);
	ck_assert_uint_eq(inst.throttles, 0);
	sim_count(SIM_EV_INST, N, SIM_USER);
	ck_assert_uint_eq(inst.n, 4);
	ck_assert_uint_eq(inst.throttles, 1);
	ck_assert_u64_eq(smpl_pmd_value(ctx, &inst), -4 * N);
	nmis = sim.nmis;
	sim_count(SIM_EV_INST, MORE, SIM_USER);
	ck_assert_uint_le(sim.nmis - nmis, 12);
	ck_assert_uint_eq(inst.n, 4);
	ck_assert_uint_eq(inst.throttles, 1);
	total = 5 * N + MORE;
	ck_assert_u64_eq(smpl_count(ctx, &inst), total);

	/* the next tick: the counter's next overflow ends it */
	tick++;
	left = -smpl_pmd_value(ctx, &inst);
	sim_count(SIM_EV_INST, left - 1, SIM_USER);
	ck_assert_uint_eq(inst.n, 4);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	total += left;
	ck_assert_uint_eq(inst.unthrottles, 1);
	ck_assert_uint_eq(inst.n, 5);
	ck_assert_u64_eq(smpl_pmd_value(ctx, &inst), -N);
	sim_count(SIM_EV_INST, 3 * N, SIM_USER);
	total += 3 * N;
	ck_assert_uint_eq(inst.n, 8);
	ck_assert_uint_eq(inst.throttles, 1);
	ck_assert_u64_eq(inst.period[7], N);
	ck_assert_u64_eq(smpl_count(ctx, &inst), total);
	ck_stop(ctx);
	smpl_done(ctx);
}
END_TEST

/*
 * freq under the throttle: the period freq adapted is the one back after it,
 * and the throttled stretch (a backed-off period) teaches freq nothing.
 */
START_TEST(test_hw_throttle_freq)
{
	static struct smpl cyc;
	struct pfm_context *ctx;
	u64 period, left;
	unsigned int i;

	sim_start(_i);
	ctx = smpl_ctx();
	smpl_open(ctx, &cyc, 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, EX_U, 1000, true);
	cyc.max = 1000;
	ck_load_self(ctx);
	ck_start(ctx);
	sim.ip = UIP;
	/* cycles at one a ns: the period climbs from 1 */
	for (i = 0; i < 20; i++) {
		now_ns += cyc.per.period;
		sim_count(sim_cycles_event(), cyc.per.period, SIM_USER);
	}
	ck_assert_uint_eq(cyc.n, 20);
	period = cyc.per.period;
	/* a tick of 3 samples: the fourth overflow throttles */
	cyc.max = 3;
	tick++;
	for (i = 0; i < 4; i++) {
		now_ns += cyc.per.period;
		sim_count(sim_cycles_event(), cyc.per.period, SIM_USER);
	}
	ck_assert_uint_eq(cyc.throttles, 1);
	ck_assert_uint_eq(cyc.n, 23);
	period = cyc.per.period;
	ck_assert_u64_eq(smpl_pmd_value(ctx, &cyc), -3 * period);
	tick++;
	left = -smpl_pmd_value(ctx, &cyc);
	now_ns += left;
	sim_count(sim_cycles_event(), left, SIM_USER);
	ck_assert_uint_eq(cyc.unthrottles, 1);
	ck_assert_uint_eq(cyc.n, 24);
	ck_assert_u64_eq(cyc.period[23], period);
	ck_assert_u64_eq(cyc.per.period, period);
	ck_assert_u64_eq(smpl_pmd_value(ctx, &cyc), -period);
	ck_stop(ctx);
	smpl_done(ctx);
}
END_TEST

/*
 * What a hardware sampling event cannot ask for here, with 6.1's x86 errno:
 * precise_ip (no PEBS or IBS: EOPNOTSUPP, also while sampling), and the sample
 * bits a record here has not (BRANCH_STACK without LBRs is EOPNOTSUPP in 6.1);
 * RAW is taken, empty as perf's for an event without a raw record, and the
 * fields after it as 6.1 writes them without PEBS (sample_tail.c); XMM
 * registers, which only PEBS records, EOPNOTSUPP in either mask.
 */
START_TEST(test_hw_sample_errnos)
{
	static const u64 refused[] = { PERF_SAMPLE_BRANCH_STACK };
	struct perf_event_attr a;
	struct pfm_perf_enc e;
	unsigned int i;

	sim_start(_i);
	attr_of(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, EX_U, 4000, true);
	for (i = 1; i <= 3; i++) {
		a.precise_ip = i;
		ck_assert_int_eq(pfm_perf_hw_encode(&a, -1, &e), -EOPNOTSUPP);
	}
	a.precise_ip = 0;
	ck_assert_int_eq(pfm_perf_hw_encode(&a, -1, &e), 0);
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
			PFM_PERF_SAMPLE_TAIL;
	ck_assert_int_eq(pfm_perf_sample_bits_check(&a), 0);
	a.sample_regs_user = 1ULL << 32;
	ck_assert_int_eq(pfm_perf_regs_extended_check(&a), -EOPNOTSUPP);
	a.sample_regs_user = 0xff0fff;
	a.sample_regs_intr = 1ULL << 63;
	ck_assert_int_eq(pfm_perf_regs_extended_check(&a), -EOPNOTSUPP);
	a.sample_regs_intr = 0xff0fff;
	ck_assert_int_eq(pfm_perf_regs_extended_check(&a), 0);
	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		a.sample_type = PERF_SAMPLE_IP | refused[i];
		ck_assert_int_eq(pfm_perf_sample_bits_check(&a), -EOPNOTSUPP);
	}
}
END_TEST

Suite *sim_perf_sample_suite(void)
{
	Suite *s = suite_create("sim_perf_sample");
	TCase *tc = sim_tcase("perf_sample");

	tcase_add_loop_test(tc, test_hw_period, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_hw_kernel_ip_user_event, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_hw_period_beyond_width, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_hw_freq, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_hw_group_read, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_hw_sampling_in_sets, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_hw_sample_errnos, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_hw_throttle, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_hw_throttle_freq, 0, sim_nr_core_models());
	suite_add_tcase(s, tc);
	return s;
}
