// SPDX-License-Identifier: GPL-2.0
/*
 * upage: the counts page (upage.c) against pfm_read_pmds() through the core: after
 * events, context switches, migrations, writes, a 64-bit overflow and a set
 * switch, every PMD the page shows holds what the call reads, and only those; the
 * layout generation moves with the set shown and the PMDs shown, and only then.
 */
#include "harness.h"
#include "upage.h"

#define SYS	2	/* software counters used */
#define FLT	3
#define MIG	4
#define CLK	5

static struct pfm_counts_page *page_new(struct pfm_context *ctx)
{
	struct pfm_counts_page *pg = kzalloc(sizeof(*pg), GFP_KERNEL);

	ck_assert_ptr_nonnull(pg);
	ck_assert(pfm_upage_install(ctx, pg));
	ck_assert_uint_eq(pg->version, PFM_COUNTS_PAGE_VERSION);
	return pg;	/* freed with the context */
}

static bool shown(const struct pfm_counts_page *pg, unsigned int pmd)
{
	return (pg->mapped_pmds[pmd / 64] >> (pmd % 64)) & 1;
}

/* Every counter the page shows reads as the call reads it; the clock is not shown. */
static void ck_page_exact(struct pfm_context *ctx, const struct pfm_counts_page *pg,
			  u16 set)
{
	static const unsigned int ctrs[] = { SYS, FLT, MIG };
	unsigned int k;

	ck_assert_uint_eq(pg->seq % 2, 0);
	ck_assert_uint_eq(pg->set_id, set);
	for (k = 0; k < ARRAY_SIZE(ctrs); k++) {
		ck_assert_msg(shown(pg, SW_PMD(ctrs[k])), "counter %u not shown", ctrs[k]);
		ck_assert_u64_eq(pg->pmds[SW_PMD(ctrs[k])],
				 ck_read_set_pmd(ctx, set, SW_PMD(ctrs[k])));
	}
	ck_assert(!shown(pg, SW_PMD(CLK)));
	ck_assert(!shown(pg, SW_PMD(0)));
}

static void program(struct pfm_context *ctx, u16 set)
{
	ck_write_set_pmc(ctx, set, SW_PMC(SYS), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_write_set_pmc(ctx, set, SW_PMC(FLT), PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS));
	ck_write_set_pmc(ctx, set, SW_PMC(MIG), PFM_SW_PMC(PFM_SW_EV_CPU_MIGRATIONS));
	ck_write_set_pmc(ctx, set, SW_PMC(CLK), PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK));
}

START_TEST(test_page_follows_the_counts)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_counts_page *pg;

	program(ctx, 0);
	pg = page_new(ctx);
	ck_page_exact(ctx, pg, 0);
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 7);
	pfm_sw_count(PFM_SW_EV_PAGE_FAULTS, 3);
	ck_assert_u64_eq(pg->pmds[SW_PMD(SYS)], 7);
	ck_page_exact(ctx, pg, 0);
	/* switched out and in, moved to another CPU on the way */
	pfm_host_sched_out(ctx);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 100);		/* someone else's */
	pfm_host_sched_in(ctx);
	pfm_sw_count(PFM_SW_EV_CPU_MIGRATIONS, 1);
	ck_page_exact(ctx, pg, 0);
	/* a write while live */
	ck_write_pmd(ctx, SW_PMD(FLT), 1000);
	ck_assert_u64_eq(pg->pmds[SW_PMD(FLT)], 1000);
	pfm_sw_count(PFM_SW_EV_PAGE_FAULTS, 1);
	ck_page_exact(ctx, pg, 0);
	/* a 64-bit overflow: the reset shows (what was counted past it, plus 1000) */
	ck_write_pmd_full(ctx, 0, SW_PMD(SYS), ~0ULL - 1, 0, 1000, 0, 0);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 5);
	ck_assert_u64_eq(pg->pmds[SW_PMD(SYS)], 1003);
	ck_page_exact(ctx, pg, 0);
	ck_stop(ctx);
	ck_page_exact(ctx, pg, 0);
	ck_unload(ctx);
	ck_page_exact(ctx, pg, 0);
	pfm_context_put(ctx);
}
END_TEST

/*
 * Counters past the ABI's bit vectors (PMD 320 on) count while the page is
 * mapped, and the page, which ends at PMD 319, is not written past its end
 * (ASAN: the host's page is exactly a struct pfm_counts_page): the counters
 * below show, those past do not, and the call reads them all.
 */
START_TEST(test_page_ends_at_the_bit_vectors)
{
	static const unsigned int past[] = { PFM_SW_BV_COUNTERS, PFM_SW_BV_COUNTERS + 63,
					     PFM_SW_BV_COUNTERS + 64, PFM_SW_NUM_COUNTERS - 1 };
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_counts_page *pg;
	unsigned int k;

	ck_write_pmc(ctx, SW_PMC(SYS), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmc(ctx, SW_PMC(PFM_SW_BV_COUNTERS - 1), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	for (k = 0; k < ARRAY_SIZE(past); k++)
		ck_write_pmc(ctx, SW_PMC(past[k]), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	pg = page_new(ctx);
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 7);
	ck_assert_u64_eq(pg->pmds[SW_PMD(SYS)], 7);
	ck_assert(shown(pg, SW_PMD(PFM_SW_BV_COUNTERS - 1)));
	ck_assert_u64_eq(pg->pmds[SW_PMD(PFM_SW_BV_COUNTERS - 1)], 7);
	ck_stop(ctx);
	for (k = 0; k < ARRAY_SIZE(past); k++)
		ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(past[k])), 7);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* The page shows the active set, whichever it is. */
START_TEST(test_page_follows_the_set)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_counts_page *pg;

	ck_create_set(ctx, 1, 0, 0);
	program(ctx, 0);
	program(ctx, 1);
	ck_write_set_pmd(ctx, 1, SW_PMD(SYS), 500);
	pg = page_new(ctx);
	ck_load_self(ctx);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_SET, 1), 0);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 2);
	ck_assert_u64_eq(pg->pmds[SW_PMD(SYS)], 502);
	ck_page_exact(ctx, pg, 1);
	ck_stop(ctx);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_SET, 0), 0);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
	ck_page_exact(ctx, pg, 0);
	ck_assert_u64_eq(pg->pmds[SW_PMD(SYS)], 1);
	ck_stop(ctx);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/*
 * layout_gen moves with set_id or mapped_pmds, in the same write, and only then:
 * counts, switches, migrations and value writes leave it.
 */
START_TEST(test_page_layout_generation)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_counts_page *pg;
	u32 gen;

	ck_create_set(ctx, 1, 0, 0);
	program(ctx, 0);
	program(ctx, 1);
	pg = page_new(ctx);
	gen = pg->layout_gen;
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 3);
	pfm_host_sched_out(ctx);
	pfm_host_sched_in(ctx);
	pfm_sw_count(PFM_SW_EV_CPU_MIGRATIONS, 1);
	ck_write_pmd(ctx, SW_PMD(FLT), 1000);
	ck_assert_uint_eq(pg->layout_gen, gen);
	ck_stop(ctx);
	ck_assert_uint_eq(pg->layout_gen, gen);
	/* the clock counter counting system calls: shown, a new layout */
	ck_write_set_pmc(ctx, 0, SW_PMC(CLK), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_assert(shown(pg, SW_PMD(CLK)));
	ck_assert_uint_eq(pg->layout_gen, gen + 1);
	/* and back: hidden, another */
	ck_write_set_pmc(ctx, 0, SW_PMC(CLK), PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK));
	ck_assert(!shown(pg, SW_PMD(CLK)));
	ck_assert_uint_eq(pg->layout_gen, gen + 2);
	/* the same PMC written again: the layout stays */
	ck_write_set_pmc(ctx, 0, SW_PMC(CLK), PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK));
	ck_assert_uint_eq(pg->layout_gen, gen + 2);
	/* set 1 shows the same PMDs: the set alone moves it, each way */
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_SET, 1), 0);
	ck_assert_uint_eq(pg->set_id, 1);
	ck_assert_uint_eq(pg->layout_gen, gen + 3);
	ck_page_exact(ctx, pg, 1);
	ck_stop(ctx);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_SET, 0), 0);
	ck_assert_uint_eq(pg->layout_gen, gen + 4);
	ck_page_exact(ctx, pg, 0);
	ck_stop(ctx);
	ck_assert_uint_eq(pg->seq % 2, 0);
	ck_unload(ctx);
	ck_assert_uint_eq(pg->layout_gen, gen + 4);
	pfm_context_put(ctx);
}
END_TEST

Suite *pfm_upage_suite(void)
{
	Suite *s = suite_create("upage");
	TCase *tc = pfm_host_tcase("page", pfm_host_setup_sw);

	tcase_add_test(tc, test_page_follows_the_counts);
	tcase_add_test(tc, test_page_ends_at_the_bit_vectors);
	tcase_add_test(tc, test_page_follows_the_set);
	tcase_add_test(tc, test_page_layout_generation);
	suite_add_tcase(s, tc);
	return s;
}
