// SPDX-License-Identifier: GPL-2.0
/*
 * rw: register vectors (rw.c) on the fake 48-bit unit and the software unit.
 *
 * Every element is checked before any is applied: a vector with one bad element
 * fails with that element's error, changes nothing in the context, and touches no
 * register.
 */
#include "harness.h"

#define FAKE_EV		0x3cULL			/* any event code, in the low bits */

static struct pfarg_pmc pmc(u16 num, u64 value)
{
	return (struct pfarg_pmc){ .reg_num = num, .reg_value = value };
}

static struct pfarg_pmd pmd(u16 num, u64 value)
{
	return (struct pfarg_pmd){ .reg_num = num, .reg_value = value };
}

/* The whole state a vector may change: the set image, the context, the hardware. */
struct image {
	u64 pmcs[PFM_NUM_PMCS];
	struct pfm_pmd pmds[PFM_NUM_PMDS];
	DECLARE_BITMAP(used_pmcs, PFM_NUM_PMCS);
	DECLARE_BITMAP(used_pmds, PFM_NUM_PMDS);
	DECLARE_BITMAP(no_emul64, PFM_MAX_PMDS);
	u64 runs, duration_ns;
	enum pfm_state state;
	bool started;
	struct fake_pmu hw;
};

static struct image before, after;

static void snap(struct pfm_context *ctx, struct image *img)
{
	struct pfm_event_set *set = ctx_set0(ctx);
	unsigned int i;

	memset(img, 0, sizeof(*img));
	/* what the registers hold, whether the set's arrays reach them or not */
	for_each_set_bit(i, pfm_pmu.impl_pmcs, pfm_pmu.pmc_end)
		img->pmcs[pfm_pmu.pmc_slot[i]] = pfm_set_pmc_val(set, i);
	for_each_set_bit(i, pfm_pmu.impl_pmds, pfm_pmu.pmd_end)
		img->pmds[pfm_pmu.pmd_slot[i]] = *pfm_set_pmd_read(set, i);
	bitmap_copy(img->used_pmcs, set->used_pmcs, set->used_bits);
	bitmap_copy(img->used_pmds, set->used_pmds, set->used_bits);
	memcpy(img->no_emul64, set->no_emul64, sizeof(img->no_emul64));
	img->runs = set->runs;
	img->duration_ns = set->duration_ns;
	img->state = ctx->state;
	img->started = ctx->started;
	img->hw = fake_pmu;
}

static void ck_unchanged(const char *what)
{
	ck_assert_msg(!memcmp(before.pmcs, after.pmcs, sizeof(before.pmcs)),
		      "%s: pmcs[] changed", what);
	ck_assert_msg(!memcmp(before.pmds, after.pmds, sizeof(before.pmds)),
		      "%s: pmds[] changed", what);
	ck_assert_msg(!memcmp(before.used_pmcs, after.used_pmcs, sizeof(before.used_pmcs)),
		      "%s: used_pmcs changed", what);
	ck_assert_msg(!memcmp(before.used_pmds, after.used_pmds, sizeof(before.used_pmds)),
		      "%s: used_pmds changed", what);
	ck_assert_msg(!memcmp(before.no_emul64, after.no_emul64, sizeof(before.no_emul64)),
		      "%s: no_emul64 changed", what);
	ck_assert_msg(before.state == after.state && before.started == after.started &&
		      before.runs == after.runs && before.duration_ns == after.duration_ns,
		      "%s: context changed", what);
	ck_assert_msg(!memcmp(&before.hw, &after.hw, sizeof(before.hw)),
		      "%s: %u fake register accesses", what,
		      fake_pmu_accesses() - (before.hw.nr_write_pmc + before.hw.nr_write_pmd +
					     before.hw.nr_read_pmd + before.hw.nr_enable +
					     before.hw.nr_disable));
}

/*
 * A context with registers in use, unloaded or live (loaded, started: an applied
 * write would reach the hardware at once).
 */
static struct pfm_context *prepared_ctx(bool live)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_write_pmc(ctx, 0, FAKE_PMC_EN | FAKE_EV, 0);
	ck_write_pmd(ctx, 0, 1000);
	ck_write_pmc(ctx, SW_PMC(1), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	if (live) {
		ck_load_self(ctx);
		ck_start(ctx);
		ck_assert(ctx->started);
	}
	return ctx;
}

static void release_ctx(struct pfm_context *ctx)
{
	if (ctx->state == PFM_CTX_LOADED)
		ck_unload(ctx);
	pfm_context_put(ctx);
}

/* Bad last elements of a write_pmcs vector, and the error each must give. */
static const struct {
	const char *what;
	struct pfarg_pmc req;
	long err;
} bad_pmcs[] = {
	{ "unimplemented PMC", { .reg_num = FAKE_NUM }, -EINVAL },
	{ "PMC in the hole", { .reg_num = SW_PMC(0) - 1 }, -EINVAL },
	{ "PMC past the sw unit", { .reg_num = SW_PMC(PFM_SW_NUM_COUNTERS) }, -EINVAL },
	{ "PMC past the space", { .reg_num = PFM_NUM_PMCS }, -EINVAL },
	{ "PMC 65535", { .reg_num = 0xffff }, -EINVAL },
	{ "reserved bit 32", { .reg_num = 1, .reg_value = 1ULL << 32 }, -EINVAL },
	{ "reserved bit 63", { .reg_num = 3, .reg_value = 1ULL << 63 }, -EINVAL },
	{ "sw reserved bit", { .reg_num = SW_PMC(2), .reg_value = 1ULL << 23 }, -EINVAL },
	{ "sw unknown event", { .reg_num = SW_PMC(2),
				.reg_value = PFM_SW_PMC(PFM_SW_EV_MAX + 1) }, -EINVAL },
	{ "unknown flag", { .reg_num = 1, .reg_flags = 0x2 }, -EINVAL },
	{ "unknown flag 31", { .reg_num = 1, .reg_flags = 1U << 31 }, -EINVAL },
	{ "reserved2[0]", { .reg_num = 1, .reg_reserved2 = { 1 } }, -EINVAL },
	{ "reserved2[3]", { .reg_num = 1, .reg_reserved2 = { 0, 0, 0, 1ULL << 63 } },
	  -EINVAL },
	{ "unknown set", { .reg_num = 1, .reg_set = 1 }, -EINVAL },
	{ "unknown set 65535", { .reg_num = 1, .reg_set = 0xffff }, -EINVAL },
	{ "NO_EMUL64 without PFM_REG_NO64", { .reg_num = 3,
					      .reg_flags = PFM_PMCFL_NO_EMUL64 }, -EINVAL },
	{ "access refused", { .reg_num = 2, .reg_value = FAKE_OS_BIT }, -EPERM },
};

#define GOOD_PMCS	4
static void good_pmcs(struct pfarg_pmc *v)
{
	v[0] = pmc(0, FAKE_PMC_EN | 0x11);
	v[1] = pmc(1, FAKE_PMC_EN | FAKE_EV);
	v[1].reg_flags = PFM_PMCFL_NO_EMUL64;
	v[2] = pmc(SW_PMC(3), PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK));
	v[3] = pmc(2, FAKE_PMC_EN);
}

/* Bad last elements of a write_pmds vector. */
static const struct {
	const char *what;
	struct pfarg_pmd req;
	long err;
} bad_pmds[] = {
	{ "unimplemented PMD", { .reg_num = FAKE_NUM }, -EINVAL },
	{ "PMD past the space", { .reg_num = PFM_NUM_PMDS }, -EINVAL },
	{ "notify past the bit vectors", { .reg_num = PFM_MAX_PMDS,
					   .reg_flags = PFM_PMDFL_OVFL_NOTIFY }, -EINVAL },
	{ "PMD 65535", { .reg_num = 0xffff }, -EINVAL },
	{ "unknown set", { .reg_num = 1, .reg_set = 3 }, -EINVAL },
	{ "unknown flag", { .reg_num = 1, .reg_flags = 0x10 }, -EINVAL },
	{ "reserved2[7]", { .reg_num = 1, .reg_reserved2 = { [7] = 1 } }, -EINVAL },
	{ "reset_pmds unimplemented", { .reg_num = 1, .reg_reset_pmds = { 1ULL << 10 } },
	  -EINVAL },
	{ "smpl_pmds unimplemented", { .reg_num = 1, .reg_smpl_pmds = { [0] = 1ULL << 63 } },
	  -EINVAL },
	{ "SMPL without a format", { .reg_num = 1, .reg_flags = PFM_PMDFL_SMPL }, -EINVAL },
	{ "SMPL|OVFL_NOTIFY without a format", { .reg_num = 1,
			       .reg_flags = PFM_PMDFL_SMPL | PFM_PMDFL_OVFL_NOTIFY }, -EINVAL },
};

#define GOOD_PMDS	3
static void good_pmds(struct pfarg_pmd *v)
{
	v[0] = pmd(0, 5);
	v[1] = pmd(1, FAKE_MASK - 3);
	v[2] = pmd(SW_PMD(1), 77);
	v[2].reg_reset_pmds[0] = 1;		/* implemented: fine */
}

/* Bad last elements of a read_pmds vector. */
static const struct {
	const char *what;
	struct pfarg_pmd req;
} bad_reads[] = {
	{ "unimplemented PMD", { .reg_num = 7 } },
	{ "PMD past the space", { .reg_num = PFM_NUM_PMDS + 1 } },
	{ "unknown set", { .reg_num = 0, .reg_set = 1 } },
	{ "unknown flag", { .reg_num = 0, .reg_flags = 0x100 } },
	{ "reserved2[0]", { .reg_num = 0, .reg_reserved2 = { 1 } } },
};

START_TEST(test_failed_pmc_vector_changes_nothing)
{
	bool live = _i;
	unsigned int b;

	pfm_host_env.unprivileged = true;
	for (b = 0; b < ARRAY_SIZE(bad_pmcs); b++) {
		struct pfm_context *ctx = prepared_ctx(live);
		struct pfarg_pmc v[GOOD_PMCS + 1];

		good_pmcs(v);
		v[GOOD_PMCS] = bad_pmcs[b].req;
		snap(ctx, &before);
		ck_assert_msg(pfm_write_pmcs(ctx, v, GOOD_PMCS + 1) == bad_pmcs[b].err,
			      "%s: not refused with %ld", bad_pmcs[b].what, bad_pmcs[b].err);
		snap(ctx, &after);
		ck_unchanged(bad_pmcs[b].what);
		release_ctx(ctx);
	}
}
END_TEST

START_TEST(test_failed_pmd_vector_changes_nothing)
{
	bool live = _i;
	unsigned int b;

	for (b = 0; b < ARRAY_SIZE(bad_pmds); b++) {
		struct pfm_context *ctx = prepared_ctx(live);
		struct pfarg_pmd v[GOOD_PMDS + 1];

		good_pmds(v);
		v[GOOD_PMDS] = bad_pmds[b].req;
		snap(ctx, &before);
		ck_assert_msg(pfm_write_pmds(ctx, v, GOOD_PMDS + 1) == bad_pmds[b].err,
			      "%s: not refused with %ld", bad_pmds[b].what, bad_pmds[b].err);
		snap(ctx, &after);
		ck_unchanged(bad_pmds[b].what);
		release_ctx(ctx);
	}
}
END_TEST

/* A failed read leaves the vector as it was, and reads no register. */
START_TEST(test_failed_read_vector_untouched)
{
	bool live = _i;
	unsigned int b;

	for (b = 0; b < ARRAY_SIZE(bad_reads); b++) {
		struct pfm_context *ctx = prepared_ctx(live);
		struct pfarg_pmd v[3] = { pmd(0, 0xdead), pmd(SW_PMD(1), 0xbeef) };

		v[2] = bad_reads[b].req;
		v[2].reg_value = 0xf00d;
		snap(ctx, &before);
		ck_assert_msg(pfm_read_pmds(ctx, v, 3) == -EINVAL, "%s: not refused",
			      bad_reads[b].what);
		snap(ctx, &after);
		ck_unchanged(bad_reads[b].what);
		ck_assert_u64_eq(v[0].reg_value, 0xdead);
		ck_assert_u64_eq(v[1].reg_value, 0xbeef);
		ck_assert_u64_eq(v[2].reg_value, 0xf00d);
		release_ctx(ctx);
	}
}
END_TEST

/* The control: the same vectors without the bad element do change state and hardware. */
START_TEST(test_good_vector_live_applies)
{
	struct pfm_context *ctx = prepared_ctx(true);
	struct pfarg_pmc vc[GOOD_PMCS];
	struct pfarg_pmd vd[GOOD_PMDS];
	struct pfm_event_set *set = ctx_set0(ctx);
	unsigned int acc = fake_pmu_accesses();

	good_pmcs(vc);
	ck_assert_int_eq(pfm_write_pmcs(ctx, vc, GOOD_PMCS), 0);
	ck_assert_uint_gt(fake_pmu_accesses(), acc);
	ck_assert_u64_eq(fake_pmu.pmc[1], FAKE_PMC_EN | FAKE_EV);
	ck_assert_u64_eq(*pfm_set_pmc(set, 2), FAKE_PMC_EN);
	acc = fake_pmu_accesses();
	good_pmds(vd);
	ck_assert_int_eq(pfm_write_pmds(ctx, vd, GOOD_PMDS), 0);
	ck_assert_uint_gt(fake_pmu_accesses(), acc);
	ck_assert_u64_eq(fake_pmu.pmd[1], FAKE_MASK - 3);
	ck_assert_u64_eq(pfm_set_opts(set, SW_PMD(1))->reset_pmds[0], 1);
	release_ctx(ctx);
}
END_TEST

START_TEST(test_write_pmcs_applies)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_event_set *set = ctx_set0(ctx);

	ck_write_pmc(ctx, 0, FAKE_PMC_EN | FAKE_EV, 0);
	ck_write_pmc(ctx, 1, FAKE_EV, PFM_PMCFL_NO_EMUL64);
	ck_write_pmc(ctx, SW_PMC(4), PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS), 0);
	ck_assert_u64_eq(*pfm_set_pmc(set, 0), FAKE_PMC_EN | FAKE_EV);
	ck_assert_u64_eq(*pfm_set_pmc(set, 1), FAKE_EV);
	ck_assert_u64_eq(*pfm_set_pmc(set, SW_PMC(4)), PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS));
	ck_assert(test_bit(0, set->used_pmcs) && test_bit(1, set->used_pmcs));
	ck_assert(!test_bit(2, set->used_pmcs));
	/* The PMDs they control come into use with them. */
	ck_assert(test_bit(0, set->used_pmds) && test_bit(1, set->used_pmds));
	ck_assert(test_bit(SW_PMD(4), set->used_pmds));
	ck_assert(!test_bit(SW_PMD(3), set->used_pmds));
	ck_assert(!test_bit(0, set->no_emul64));
	ck_assert(test_bit(1, set->no_emul64));
	/* Rewritten without the flag, the counter is emulated again. */
	ck_write_pmc(ctx, 1, FAKE_EV, 0);
	ck_assert(!test_bit(1, set->no_emul64));
	/* Unloaded: no register was touched. */
	ck_assert_uint_eq(fake_pmu_accesses(), 0);
	ck_assert_uint_ge(pfm_host_env.access_pmc_calls, 4);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_unknown_register)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmc c = pmc(FAKE_NUM, 0);
	struct pfarg_pmd d = pmd(FAKE_NUM, 0);

	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), -EINVAL);
	ck_assert_int_eq(pfm_write_pmds(ctx, &d, 1), -EINVAL);
	ck_assert_int_eq(pfm_read_pmds(ctx, &d, 1), -EINVAL);
	d.reg_num = PFM_NUM_PMDS;		/* past the last software counter */
	ck_assert_int_eq(pfm_read_pmds(ctx, &d, 1), -EINVAL);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_reserved_bits)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmc c = pmc(0, FAKE_PMC_EN | (1ULL << 33));
	unsigned int bit;

	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), -EINVAL);
	for (bit = 0; bit < 64; bit++) {
		c = pmc(SW_PMC(0), 1ULL << bit);
		/* EN, USR, OS, or an event bit that makes a known event */
		ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1),
				 (bit == 22 || bit == 16 || bit == 17 ||
				  (1ULL << bit) <= PFM_SW_EV_MAX) ? 0 : -EINVAL);
	}
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_unknown_flags_and_reserved_fields)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmc c = pmc(0, 0);
	struct pfarg_pmd d = pmd(0, 0);

	c.reg_flags = 0x4;
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), -EINVAL);
	c.reg_flags = 0;
	c.reg_reserved2[2] = 1;
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), -EINVAL);
	d.reg_flags = 0x20;
	ck_assert_int_eq(pfm_write_pmds(ctx, &d, 1), -EINVAL);
	ck_assert_int_eq(pfm_read_pmds(ctx, &d, 1), -EINVAL);
	d.reg_flags = 0;
	d.reg_reserved2[5] = 0x80;
	ck_assert_int_eq(pfm_write_pmds(ctx, &d, 1), -EINVAL);
	ck_assert_int_eq(pfm_read_pmds(ctx, &d, 1), -EINVAL);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_unknown_set)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmc c = pmc(0, 0);
	struct pfarg_pmd d = pmd(0, 0);

	c.reg_set = d.reg_set = 1;
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), -EINVAL);
	ck_assert_int_eq(pfm_write_pmds(ctx, &d, 1), -EINVAL);
	ck_assert_int_eq(pfm_read_pmds(ctx, &d, 1), -EINVAL);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_no_emul64_needs_reg_support)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmc c = pmc(3, 0);

	c.reg_flags = PFM_PMCFL_NO_EMUL64;
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), -EINVAL);
	c.reg_num = 2;					/* PFM_REG_NO64 */
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), 0);
	c.reg_num = SW_PMC(0);				/* PFM_REG_NO64 too */
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), 0);
	pfm_context_put(ctx);
}
END_TEST

/* Every known PMD flag is taken, but sampling needs a sampling format. */
START_TEST(test_pmd_flags)
{
	static const u32 flags[] = {
		PFM_PMDFL_RANDOM, PFM_PMDFL_SWITCH | PFM_PMDFL_RANDOM,
		PFM_PMDFL_OVFL_NOTIFY | PFM_PMDFL_RANDOM, PFM_PMDFL_SWITCH,
		PFM_PMDFL_SWITCH | PFM_PMDFL_OVFL_NOTIFY,
	};
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmd d = pmd(0, 0);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		d.reg_flags = flags[i];
		ck_assert_int_eq(pfm_write_pmds(ctx, &d, 1), 0);
		ck_assert_int_eq(pfm_read_pmds(ctx, &d, 1), 0);
		ck_assert_uint_eq(pfm_set_pmd(ctx_set0(ctx), 0)->flags, flags[i]);
	}
	/* An unknown flag with a known one is EINVAL; so is sampling without a format. */
	d.reg_flags = PFM_PMDFL_RANDOM | 0x40;
	ck_assert_int_eq(pfm_write_pmds(ctx, &d, 1), -EINVAL);
	d.reg_flags = PFM_PMDFL_SMPL;
	ck_assert_int_eq(pfm_write_pmds(ctx, &d, 1), -EINVAL);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_read_fills)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmd w[3] = { pmd(0, 12345), pmd(3, 1ULL << 60), pmd(SW_PMD(7), ~0ULL) };
	struct pfarg_pmd r[4] = { pmd(SW_PMD(7), 1), pmd(0, 2), pmd(3, 3), pmd(2, 4) };

	/* no PMD given masks, a random mask or an event id: the set has no array of them */
	ck_assert_int_eq(pfm_write_pmds(ctx, w, 3), 0);
	ck_assert_ptr_null(ctx_set0(ctx)->opts);

	w[0].reg_ovfl_switch_cnt = 9;
	w[0].reg_long_reset = 100;
	w[0].reg_short_reset = 50;
	w[0].reg_reset_pmds[0] = 0x6;
	w[0].reg_smpl_pmds[1] = 1ULL << 2;	/* PMD 66 */
	w[0].reg_smpl_eventid = 0x77;
	w[0].reg_random_mask = 0xff;
	ck_assert_int_eq(pfm_write_pmds(ctx, w, 3), 0);
	ck_assert_int_eq(pfm_read_pmds(ctx, r, 4), 0);
	ck_assert_u64_eq(r[0].reg_value, ~0ULL);
	ck_assert_u64_eq(r[1].reg_value, 12345);
	ck_assert_u64_eq(r[1].reg_ovfl_switch_cnt, 9);
	ck_assert_u64_eq(r[1].reg_last_reset_val, 0);
	ck_assert_u64_eq(r[2].reg_value, 1ULL << 60);
	ck_assert_u64_eq(r[3].reg_value, 0);		/* never written */
	/* What the overflow machinery will use is kept. */
	ck_assert_u64_eq(pfm_set_pmd(ctx_set0(ctx), 0)->long_reset, 100);
	ck_assert_u64_eq(pfm_set_pmd(ctx_set0(ctx), 0)->short_reset, 50);
	ck_assert_u64_eq(pfm_set_opts(ctx_set0(ctx), 0)->reset_pmds[0], 0x6);
	ck_assert_u64_eq(pfm_set_opts(ctx_set0(ctx), 0)->smpl_pmds[1], 4);
	ck_assert_u64_eq(pfm_set_opts(ctx_set0(ctx), 0)->smpl_eventid, 0x77);
	ck_assert_u64_eq(pfm_set_opts(ctx_set0(ctx), 0)->random_mask, 0xff);
	ck_assert_uint_eq(fake_pmu_accesses(), 0);
	/* masks written empty are emptied */
	w[0].reg_reset_pmds[0] = 0;
	w[0].reg_smpl_pmds[1] = 0;
	ck_assert_int_eq(pfm_write_pmds(ctx, w, 1), 0);
	ck_assert_u64_eq(pfm_set_opts(ctx_set0(ctx), 0)->reset_pmds[0], 0);
	ck_assert_u64_eq(pfm_set_opts(ctx_set0(ctx), 0)->smpl_pmds[1], 0);
	pfm_context_put(ctx);
}
END_TEST

/* A read-only PMD can be read, not written. */
START_TEST(test_read_only_pmd)
{
	static struct pfm_pmu_unit ro;
	static struct pfm_regdesc pmds[FAKE_NUM];
	struct pfm_context *ctx;
	struct pfarg_pmd d = pmd(2, 5);

	memcpy(pmds, fake_pmds, sizeof(pmds));
	pmds[2].type |= PFM_REG_RO;
	ro = fake_unit;
	ro.pmds = pmds;
	pfm_pmu_reset();
	ck_assert_int_eq(pfm_pmu_add_unit(&ro), 0);
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(pfm_write_pmds(ctx, &d, 1), -EINVAL);
	ck_assert_int_eq(pfm_read_pmds(ctx, &d, 1), 0);
	ck_assert_u64_eq(d.reg_value, 0);
	d.reg_num = 1;
	ck_assert_int_eq(pfm_write_pmds(ctx, &d, 1), 0);
	pfm_context_put(ctx);
}
END_TEST

Suite *pfm_rw_suite(void)
{
	Suite *s = suite_create("rw");
	TCase *tc = pfm_host_tcase("checks", pfm_host_setup);
	TCase *tv = pfm_host_tcase("vectors", pfm_host_setup);

	tcase_add_test(tc, test_write_pmcs_applies);
	tcase_add_test(tc, test_unknown_register);
	tcase_add_test(tc, test_reserved_bits);
	tcase_add_test(tc, test_unknown_flags_and_reserved_fields);
	tcase_add_test(tc, test_unknown_set);
	tcase_add_test(tc, test_no_emul64_needs_reg_support);
	tcase_add_test(tc, test_pmd_flags);
	tcase_add_test(tc, test_read_fills);
	tcase_add_test(tc, test_read_only_pmd);
	suite_add_tcase(s, tc);

	/* _i: 0 unloaded, 1 loaded and started (applying would touch the hardware) */
	tcase_add_loop_test(tv, test_failed_pmc_vector_changes_nothing, 0, 2);
	tcase_add_loop_test(tv, test_failed_pmd_vector_changes_nothing, 0, 2);
	tcase_add_loop_test(tv, test_failed_read_vector_untouched, 0, 2);
	tcase_add_test(tv, test_good_vector_live_applies);
	suite_add_tcase(s, tv);
	return s;
}
