// SPDX-License-Identifier: GPL-2.0
/*
 * rdpmc: the counts page's hardware counters (uapi perfmon.h, COUNTS PAGE), read as
 * libperfmon reads them (libpfm-glue/counts_rdpmc.h, compiled here over the
 * simulated RDPMC), equal what pfm_read_pmds() returns at the same point: while
 * counting, across hardware wraps (each a PMI that re-arms the counter), 64-bit
 * overflows and their resets, a notification's mask and restart, writes, set switches on timeout and on overflow,
 * switches out and in and a migration.  Out of the set's live time the page holds
 * the values and no rdpmc entry; a reader on another CPU than the monitored
 * thread's is refused; a thread without CR4.PCE, and a CPU session, are given no
 * entry.  On every model.
 */
#include "sim_test.h"
#include "upage.h"

static int reader_cpu;		/* the CPU the reading thread runs on */

static uint64_t sim_user_rdpmc(uint32_t ecx)
{
	uint64_t v;

	ck_assert_msg(sim_rdpmc(ecx, &v), "rdpmc %#x faulted on %s", ecx, sim_m()->name);
	return v;
}

#define PFM_COUNTS_RDPMC(ecx)	sim_user_rdpmc(ecx)
#define PFM_COUNTS_CPU()	(reader_cpu)
#include "../../../libpfm-glue/counts_rdpmc.h"

#define SYS	2		/* a software counter beside the hardware ones */

static struct pfm_counts_page *page_new(struct pfm_context *ctx)
{
	struct pfm_counts_page *pg = kzalloc(sizeof(*pg), GFP_KERNEL);

	ck_assert_ptr_nonnull(pg);
	ck_assert(pfm_upage_install(ctx, pg));
	return pg;	/* freed with the context */
}

static bool shown(const struct pfm_counts_page *pg, unsigned int pmd)
{
	return (pg->mapped_pmds[pmd / 64] >> (pmd % 64)) & 1;
}

/* One pass of the library's read of one PMD (nothing runs concurrently here). */
static int mapped_read(const struct pfm_counts_page *pg, u16 set, unsigned int pmd, u64 *v)
{
	unsigned int seq = pg->seq;
	int cpu = PFM_COUNTS_CPU_UNKNOWN;
	uint64_t val;

	ck_assert_uint_eq(seq % 2, 0);
	if (pg->set_id != set || !shown(pg, pmd))
		return -1;
	val = pg->pmds[pmd];
	if (pfm_counts_add_rdpmc(pg, pmd, &val, &cpu))
		return -1;
	ck_assert_uint_eq(pg->seq, seq);
	*v = val;
	return 0;
}

/* The hardware PMDs in use: GP 0 and 1, fixed 0 where there is one. */
static unsigned int hw_pmds(unsigned int *pmds)
{
	unsigned int n = 0;

	pmds[n++] = GP_PMD(0);
	pmds[n++] = GP_PMD(1);
	if (sim_has_fixed())
		pmds[n++] = FX_PMD(0);
	return n;
}

/*
 * Every PMD of set reads from the page as pfm_read_pmds() reads it; through rdpmc
 * (one per hardware PMD) exactly when live says the set is live.
 */
static void ck_page_exact(struct pfm_context *ctx, const struct pfm_counts_page *pg,
			  u16 set, bool live, const char *what)
{
	unsigned int pmds[3], n = hw_pmds(pmds), k;
	unsigned long rdpmcs = sim.rdpmcs;
	u64 v;

	for (k = 0; k < n; k++) {
		ck_assert_msg(!mapped_read(pg, set, pmds[k], &v), "%s on %s: PMD %u not readable",
			      what, sim_m()->name, pmds[k]);
		ck_assert_msg(v == ck_read_set_pmd(ctx, set, pmds[k]),
			      "%s on %s: PMD %u mapped %#llx, read %#llx", what, sim_m()->name,
			      pmds[k], (unsigned long long)v,
			      (unsigned long long)ck_read_set_pmd(ctx, set, pmds[k]));
		ck_assert_msg(!PFM_RDPMC_INDEX(pg->rdpmc[pmds[k]]) == !live,
			      "%s on %s: PMD %u rdpmc entry %#x", what, sim_m()->name, pmds[k],
			      pg->rdpmc[pmds[k]]);
		if (live)
			ck_assert_uint_eq(pg->rdpmc_cpu, shim_cpu);
	}
	ck_assert_msg(sim.rdpmcs - rdpmcs == (live ? n : 0), "%s on %s: %lu rdpmc, expected %u",
		      what, sim_m()->name, sim.rdpmcs - rdpmcs, live ? n : 0);
	ck_assert_uint_eq(sim.rdpmc_gp, 0);
	if (set == 0 && shown(pg, SW_PMD(SYS))) {
		ck_assert(!mapped_read(pg, set, SW_PMD(SYS), &v));
		ck_assert_u64_eq(v, ck_read_set_pmd(ctx, set, SW_PMD(SYS)));
	}
}

/* Instructions on GP 0 (and fixed 0), cycles on GP 1, system calls; all from init. */
static struct pfm_context *hw_ctx(struct pfm_counts_page **pg, u64 init)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_write_pmc(ctx, GP_PMC(1), SEL_U(sim_cycles_event()), 0);
	ck_write_pmd(ctx, GP_PMD(0), init);
	ck_write_pmd(ctx, GP_PMD(1), init);
	if (sim_has_fixed()) {
		ck_write_pmc(ctx, FX_PMC, PFM_X86_FIXED_USR(0), 0);
		ck_write_pmd(ctx, FX_PMD(0), init);
	}
	ck_write_pmc(ctx, SW_PMC(SYS), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	*pg = page_new(ctx);
	ck_load_self(ctx);
	return ctx;
}

/* hw_ctx() from 0 on model i, the thread allowed RDPMC (CR4.PCE) */
static struct pfm_context *pce_ctx(int i, struct pfm_counts_page **pg)
{
	sim_start(i);
	sim.cr4_pce = true;
	return hw_ctx(pg, 0);
}

static u64 view(void)
{
	return 1ULL << sim_view_width();
}

START_TEST(test_rdpmc_counting)
{
	struct pfm_counts_page *pg;
	struct pfm_context *ctx;
	unsigned int k;

	ctx = pce_ctx(_i, &pg);
	ck_page_exact(ctx, pg, 0, false, "loaded");
	ck_start(ctx);
	ck_page_exact(ctx, pg, 0, true, "started");
	sim_count(SIM_EV_INST, 1000, SIM_USER);
	sim_count(sim_cycles_event(), 300, SIM_USER);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 4);
	ck_page_exact(ctx, pg, 0, true, "counting");
	/* many wraps at once: one PMI per arming period, each re-arming */
	sim_count(SIM_EV_INST, 3 * view() + 17, SIM_USER);
	ck_page_exact(ctx, pg, 0, true, "after wraps");
	for (k = 0; k < 20; k++) {
		sim_count(SIM_EV_INST, view() / 3 + k, SIM_USER);
		ck_page_exact(ctx, pg, 0, true, "wrap step");
	}
	/* a write while live */
	ck_write_pmd(ctx, GP_PMD(0), view() - 5);
	ck_page_exact(ctx, pg, 0, true, "written");
	sim_count(SIM_EV_INST, 10, SIM_USER);
	ck_page_exact(ctx, pg, 0, true, "written, counted across a wrap");
	ck_stop(ctx);
	ck_page_exact(ctx, pg, 0, false, "stopped");
	sim_count(SIM_EV_INST, 10, SIM_USER);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 10, SIM_USER);
	ck_page_exact(ctx, pg, 0, true, "started again");
	ck_unload(ctx);
	ck_page_exact(ctx, pg, 0, false, "unloaded");
	pfm_context_put(ctx);
}
END_TEST

/* A 64-bit overflow: the reset value, and what counted past it, show. */
START_TEST(test_rdpmc_overflow)
{
	struct pfm_counts_page *pg;
	struct pfm_context *ctx;
	u64 v;

	ctx = pce_ctx(_i, &pg);
	ck_write_pmd_full(ctx, 0, GP_PMD(0), -1000ULL, 0, -100ULL, 0, 0);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 999, SIM_USER);
	ck_page_exact(ctx, pg, 0, true, "before the overflow");
	sim_count(SIM_EV_INST, 51, SIM_USER);
	ck_assert(!mapped_read(pg, 0, GP_PMD(0), &v));
	ck_assert_u64_eq(v, -100ULL + 50);
	ck_page_exact(ctx, pg, 0, true, "after the overflow");
	sim_count(SIM_EV_INST, 100, SIM_USER);		/* the reset value overflows again */
	ck_assert(!mapped_read(pg, 0, GP_PMD(0), &v));
	ck_assert_u64_eq(v, -100ULL + 50);
	ck_page_exact(ctx, pg, 0, true, "after the second overflow");
	ck_done(ctx);
}
END_TEST

/*
 * A notified overflow masks monitoring: from the interrupt on, the page holds the
 * values and no entry (the counters are out of the PMU); the restart makes it live
 * again with the long reset value.
 */
START_TEST(test_rdpmc_notify_masks)
{
	struct pfm_counts_page *pg;
	struct pfm_context *ctx;
	u64 v;

	ctx = pce_ctx(_i, &pg);
	ck_write_pmd_full(ctx, 0, GP_PMD(0), -100ULL, PFM_PMDFL_OVFL_NOTIFY, 0, -40ULL, 0);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 99, SIM_USER);
	ck_page_exact(ctx, pg, 0, true, "before the notified overflow");
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_assert(ctx->masked);
	ck_page_exact(ctx, pg, 0, false, "masked");
	sim_count(SIM_EV_INST, 500, SIM_USER);
	ck_page_exact(ctx, pg, 0, false, "masked, counted nothing");
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_RESTART, 0), 0);
	ck_page_exact(ctx, pg, 0, true, "restarted");
	ck_assert(!mapped_read(pg, 0, GP_PMD(0), &v));
	ck_assert_u64_eq(v, -40ULL);
	ck_done(ctx);
}
END_TEST

/*
 * Switched out: the values, no entry; back on another CPU: entries for that CPU,
 * which a reader elsewhere may not use.
 */
START_TEST(test_rdpmc_switch_and_migrate)
{
	struct pfm_counts_page *pg;
	struct pfm_context *ctx;
	unsigned long rdpmcs;
	unsigned int k;
	u64 v;

	sim_start(_i);
	sim.cr4_pce = true;
	shim_cpu_online |= 2;
	ctx = hw_ctx(&pg, 0);
	ck_start(ctx);
	for (k = 0; k < 50; k++) {
		sim_count(SIM_EV_INST, view() / 4 + k, SIM_USER);
		pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
		pfm_host_sched_out(ctx);
		ck_page_exact(ctx, pg, 0, false, "switched out");
		sim_count(SIM_EV_INST, 1000, SIM_USER);		/* not ours */
		reader_cpu = shim_cpu = k & 1;			/* migrates every time */
		pfm_host_sched_in(ctx);
		ck_page_exact(ctx, pg, 0, true, "switched in");
		sim_count(sim_cycles_event(), 3 * k, SIM_USER);
		ck_page_exact(ctx, pg, 0, true, "counting after the switch");
	}
	/* a reader on the other CPU reads another CPU's counters: refused */
	rdpmcs = sim.rdpmcs;
	reader_cpu = !shim_cpu;
	ck_assert_int_eq(mapped_read(pg, 0, GP_PMD(0), &v), -1);
	ck_assert_uint_eq(sim.rdpmcs, rdpmcs);
	/* the software counter is any reader's */
	ck_assert(!mapped_read(pg, 0, SW_PMD(SYS), &v));
	ck_assert_u64_eq(v, 50);
	reader_cpu = shim_cpu;
	ck_done(ctx);
}
END_TEST

/* Sets switched on timeout and on overflow: the page follows the active set. */
START_TEST(test_rdpmc_sets)
{
	struct pfm_counts_page *pg;
	struct pfm_context *ctx;
	unsigned int k;
	u16 set;
	u64 v;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	sim.cr4_pce = true;
	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH | PFM_SETFL_OVFL_SWITCH, 1000000);
	for (set = 0; set < 2; set++) {
		ck_write_set_pmc(ctx, set, GP_PMC(0), SEL_U(set ? sim_cycles_event() : SIM_EV_INST));
		ck_write_set_pmc(ctx, set, GP_PMC(1), SEL_U(SIM_EV_BRANCH));
		ck_write_set_pmd(ctx, set, GP_PMD(1), 0);
		if (sim_has_fixed()) {
			ck_write_set_pmc(ctx, set, FX_PMC, PFM_X86_FIXED_USR(0));
			ck_write_set_pmd(ctx, set, FX_PMD(0), set * 1000);
		}
	}
	ck_write_set_pmd(ctx, 0, GP_PMD(0), 0);
	/* set 1 leaves at its counter 0's 64-bit overflow */
	ck_write_pmd_full(ctx, 1, GP_PMD(0), -500ULL, PFM_PMDFL_SWITCH, -50ULL, 0, 1);
	pg = page_new(ctx);
	ck_load_self(ctx);
	ck_start(ctx);
	for (k = 0; k < 6; k++) {
		set = ctx->active->id;
		ck_assert_uint_eq(pg->set_id, set);
		sim_count(SIM_EV_INST, 100 + view() / 2, SIM_USER);
		sim_count(SIM_EV_BRANCH, 10, SIM_USER);
		sim_count(sim_cycles_event(), 200, SIM_USER);
		ck_page_exact(ctx, pg, set, true, "in a set");
		ck_assert_int_eq(mapped_read(pg, !set, GP_PMD(0), &v), -1);
		if (set == 0) {
			pfm_host_env.clock_ns += 1000000;
			ck_assert(shim_hrtimer_fire(&ctx->timer));
		} else {
			/* its counter 0 overflows: a switch, what it counted past it kept */
			sim_count(sim_cycles_event(), 300, SIM_USER);
			ck_assert_uint_eq(ctx->active->id, 0);
			ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, GP_PMD(0)), -50ULL);
			ck_write_pmd_full(ctx, 1, GP_PMD(0), -500ULL, PFM_PMDFL_SWITCH, -50ULL,
					  0, 1);
		}
		ck_assert_uint_eq(ctx->active->id, !set);
		ck_page_exact(ctx, pg, !set, true, "switched");
	}
	ck_stop(ctx);
	ck_page_exact(ctx, pg, ctx->active->id, false, "stopped");
	ck_done(ctx);
}
END_TEST

/*
 * A thread without CR4.PCE gets no entry: its live hardware PMDs are not shown
 * (nothing it could fault on), the software one is; switched out, their values are.
 */
START_TEST(test_rdpmc_needs_pce)
{
	struct pfm_counts_page *pg;
	struct pfm_context *ctx;
	u64 v;

	sim_start(_i);
	ctx = hw_ctx(&pg, 0);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 1000, SIM_USER);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 3);
	ck_assert_int_eq(mapped_read(pg, 0, GP_PMD(0), &v), -1);
	ck_assert_uint_eq(pg->rdpmc[GP_PMD(0)], 0);
	ck_assert(!mapped_read(pg, 0, SW_PMD(SYS), &v));
	ck_assert_u64_eq(v, 3);
	pfm_host_sched_out(ctx);
	ck_page_exact(ctx, pg, 0, false, "switched out without PCE");
	/* the process was allowed rdpmc meanwhile (it is per process) */
	sim.cr4_pce = true;
	pfm_host_sched_in(ctx);
	sim_count(SIM_EV_INST, 1000, SIM_USER);
	ck_page_exact(ctx, pg, 0, true, "switched in with PCE");
	ck_assert_uint_eq(sim.rdpmcs, sim_has_fixed() ? 3 : 2);
	ck_done(ctx);
}
END_TEST

/* A PMD counting without 64-bit emulation is never in the page. */
START_TEST(test_rdpmc_not_emul64)
{
	struct pfm_counts_page *pg;
	struct pfm_context *ctx;

	sim_start(_i);
	sim.cr4_pce = true;
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(SIM_EV_INST),
					    PFM_PMCFL_NO_EMUL64), 0);
	ck_write_pmc(ctx, GP_PMC(1), SEL_U(SIM_EV_INST), 0);
	pg = page_new(ctx);
	ck_assert(!shown(pg, GP_PMD(0)));
	ck_assert(shown(pg, GP_PMD(1)));
	ck_load_self(ctx);
	ck_start(ctx);
	ck_assert(!shown(pg, GP_PMD(0)));
	ck_assert_uint_eq(pg->rdpmc[GP_PMD(0)], 0);
	ck_assert(shown(pg, GP_PMD(1)));
	ck_done(ctx);
}
END_TEST

/*
 * A CPU session has no rdpmc entry (whether a thread may read changes at every
 * thread switch on its CPU): its live hardware PMDs are not shown, stopped they are.
 */
START_TEST(test_rdpmc_not_cpu_session)
{
	struct pfm_counts_page *pg;
	struct pfm_context *ctx;
	u64 v;

	sim_start(_i);
	sim.cr4_pce = true;
	ctx = ck_ctx_new(PFM_FL_SYSTEM_WIDE);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	pg = page_new(ctx);
	ck_assert_int_eq(pfm_load(ctx, 0, 0), 0);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 40, SIM_USER);
	ck_assert_int_eq(mapped_read(pg, 0, GP_PMD(0), &v), -1);
	ck_assert_uint_eq(pg->rdpmc[GP_PMD(0)], 0);
	ck_stop(ctx);
	ck_assert(!mapped_read(pg, 0, GP_PMD(0), &v));
	ck_assert_u64_eq(v, 40);
	ck_assert_uint_eq(sim.rdpmcs, 0);
	ck_done(ctx);
}
END_TEST

Suite *sim_rdpmc_suite(void)
{
	Suite *s = suite_create("sim_rdpmc");
	TCase *tc = sim_tcase("rdpmc");

	tcase_add_loop_test(tc, test_rdpmc_counting, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_rdpmc_overflow, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_rdpmc_notify_masks, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_rdpmc_switch_and_migrate, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_rdpmc_sets, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_rdpmc_needs_pce, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_rdpmc_not_emul64, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_rdpmc_not_cpu_session, 0, SIM_NR_MODELS);
	suite_add_tcase(s, tc);
	return s;
}
