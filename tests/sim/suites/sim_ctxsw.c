// SPDX-License-Identifier: GPL-2.0
/*
 * ctxsw: the MSR accesses of each operation, exactly, and context switches out
 * and in (alone, and with another thread's context on the CPU in between): counts
 * survive, and only the registers that must change are written.
 *
 * Expected accesses, for a context counting on GP counters 0 and 1:
 *
 *                      global control (Intel v2+, AMD v2)   without (Intel v1, AMD)
 *   load                    0                                  0
 *   first start             2 PMDs + 2 selects + global = 5W   2 PMDs + 2 selects = 4W
 *   read (started)          2R                                 2R
 *   stop / switch out       2R + global = 1W                   2R + 2 selects (EN) = 2W
 *   read (stopped)          0                                  0
 *   start / switch in       global = 1W                        2 selects (EN) = 2W
 *   unload (stopped)        status 1R, 2 selects cleared +     2 selects cleared = 2W
 *                           global to its power-on value = 3W
 */
#include "sim_test.h"

static struct pfm_context *two_counters(void)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_write_pmc(ctx, GP_PMC(1), SEL_U(sim_cycles_event()), 0);
	ck_write_pmd(ctx, GP_PMD(0), 0);
	ck_write_pmd(ctx, GP_PMD(1), 0);
	return ctx;
}

static void read_both(struct pfm_context *ctx, u64 *a, u64 *b)
{
	struct pfarg_pmd pd[2] = { { .reg_num = GP_PMD(0) }, { .reg_num = GP_PMD(1) } };

	ck_assert_int_eq(pfm_read_pmds(ctx, pd, 2), 0);
	*a = pd[0].reg_value;
	*b = pd[1].reg_value;
}

START_TEST(test_op_counts)
{
	struct pfm_context *ctx;
	u64 a, b;

	sim_start(_i);
	ctx = two_counters();
	ck_msr("write", 0, 0);
	ck_load_self(ctx);
	ck_msr("load", 0, 0);
	ck_start(ctx);
	ck_msr("first start", 0, sim_has_global() ? 5 : 4);
	ck_assert_uint_eq(sim.n.apic, 1);		/* the LVT entry, once */
	sim_count(SIM_EV_INST, 100, SIM_USER);
	sim_count(sim_cycles_event(), 300, SIM_USER);
	sim_mark();
	read_both(ctx, &a, &b);
	ck_msr("read", 2, 0);
	ck_assert_u64_eq(a, 100);
	ck_assert_u64_eq(b, 300);
	ck_stop(ctx);
	ck_msr("stop", 2, sim_has_global() ? 1 : 2);
	read_both(ctx, &a, &b);
	ck_msr("read stopped", 0, 0);
	ck_start(ctx);
	ck_msr("start again", 0, sim_has_global() ? 1 : 2);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	pfm_host_sched_out(ctx);
	ck_msr("switch out", 2, sim_has_global() ? 1 : 2);
	sim_count(SIM_EV_INST, 1000, SIM_USER);		/* not ours */
	read_both(ctx, &a, &b);
	ck_msr("read switched out", 0, 0);
	pfm_host_sched_in(ctx);
	ck_msr("switch in", 0, sim_has_global() ? 1 : 2);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_stop(ctx);
	sim_mark();
	ck_unload(ctx);
	ck_msr("unload", sim_has_global() ? 1 : 0, sim_has_global() ? 3 : 2);
	read_both(ctx, &a, &b);
	ck_assert_u64_eq(a, 102);
	ck_assert_u64_eq(b, 300);
	ck_assert_uint_eq(sim.n.apic, 1);
	pfm_context_put(ctx);
}
END_TEST

/* A stopped context costs nothing at a context switch. */
START_TEST(test_stopped_switch_free)
{
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = two_counters();
	ck_load_self(ctx);
	ck_start(ctx);
	ck_stop(ctx);
	sim_mark();
	pfm_host_sched_out(ctx);
	pfm_host_sched_in(ctx);
	ck_msr("switch of a stopped context", 0, 0);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* Many switches: the count is exact, the cost of each the same. */
START_TEST(test_many_switches)
{
	struct pfm_context *ctx;
	unsigned int k;
	u64 a, b;

	sim_start(_i);
	ctx = two_counters();
	ck_load_self(ctx);
	ck_start(ctx);
	for (k = 0; k < 1000; k++) {
		sim_count(SIM_EV_INST, 3, SIM_USER);
		sim_mark();
		pfm_host_sched_out(ctx);
		ck_msr("switch out", 2, sim_has_global() ? 1 : 2);
		sim_count(SIM_EV_INST, 7, SIM_USER);
		pfm_host_sched_in(ctx);
		ck_msr("switch in", 0, sim_has_global() ? 1 : 2);
	}
	read_both(ctx, &a, &b);
	ck_assert_u64_eq(a, 3000);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/*
 * Another thread's context uses the PMU while ours is switched out: ours comes back
 * with its own values, and only what the other changed is written back.
 */
START_TEST(test_other_thread_between)
{
	struct pfm_context *a, *b;
	u64 x, y;

	sim_start(_i);
	a = two_counters();
	ck_load_self(a);
	ck_start(a);
	sim_count(SIM_EV_INST, 100, SIM_USER);
	pfm_host_sched_out(a);

	shim_current = &shim_task_other;
	b = ck_ctx_new(0);
	ck_write_pmc(b, GP_PMC(0), SEL_U(SIM_EV_BRANCH), 0);
	ck_write_pmd(b, GP_PMD(0), 0);
	ck_assert_int_eq(pfm_load(b, 0, shim_task_other.pid), 0);
	sim_mark();
	ck_start(b);
	/* its counter (written), its event select, the global enable */
	ck_msr("the other's start", 0, sim_has_global() ? 3 : 2);
	sim_count(SIM_EV_BRANCH, 50, SIM_USER);
	sim_count(SIM_EV_INST, 30, SIM_USER);
	pfm_host_sched_out(b);
	ck_msr("the other's switch out", 1, 1);

	shim_current = &shim_task_self;
	pfm_host_sched_in(a);
	/*
	 * Counter 0 and its event select; counter 1 is as we left it (its select's EN
	 * aside, without global control).
	 */
	ck_msr("switch back in", 0, 3);
	sim_count(SIM_EV_INST, 5, SIM_USER);
	read_both(a, &x, &y);
	ck_assert_u64_eq(x, 105);
	ck_assert_u64_eq(y, 0);
	ck_assert_u64_eq(ck_read_pmd(b, GP_PMD(0)), 50);
	ck_unload(a);
	ck_unload(b);
	pfm_context_put(a);
	pfm_context_put(b);
}
END_TEST

/*
 * Software counters beside the hardware ones cost no MSR access at a switch (they
 * count in the set's memory): a switch costs what two GP counters alone cost, and
 * the software counts are exact across switches, the other thread's events aside.
 */
START_TEST(test_sw_counters_switch_free)
{
	struct pfm_context *ctx;
	unsigned int k, i;
	u64 a, b;

	sim_start(_i);
	ctx = two_counters();
	for (i = 0; i < 4; i++)
		ck_write_pmc(ctx, SW_PMC(i), PFM_SW_PMC(i & 1 ? PFM_SW_EV_SYSCALLS :
					    PFM_SW_EV_CTX_SWITCHES), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	for (k = 0; k < 100; k++) {
		pfm_sw_count(PFM_SW_EV_SYSCALLS, 2);
		sim_count(SIM_EV_INST, 3, SIM_USER);
		sim_mark();
		pfm_host_sched_out(ctx);
		ck_msr("switch out", 2, sim_has_global() ? 1 : 2);
		shim_current = &shim_task_other;
		pfm_sw_count(PFM_SW_EV_SYSCALLS, 5);		/* not ours */
		shim_current = &shim_task_self;
		pfm_host_sched_in(ctx);
		ck_msr("switch in", 0, sim_has_global() ? 1 : 2);
	}
	ck_stop(ctx);
	read_both(ctx, &a, &b);
	ck_assert_u64_eq(a, 300);
	for (i = 0; i < 4; i++)
		ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(i)), i & 1 ? 200 : 100);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* A CPU coming online (its registers may be reset): written again, in full. */
START_TEST(test_cpu_online_forgets)
{
	struct pfm_context *ctx;
	u64 a, b;

	sim_start(_i);
	ctx = two_counters();
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 10, SIM_USER);
	pfm_host_sched_out(ctx);
	/* the CPU went offline and came back: registers lost */
	sim_hw_cpu_online();
	memset(sim.sel, 0, sizeof(sim.sel));
	memset(sim.ctr, 0, sizeof(sim.ctr));
	sim.gctrl = 0;
	sim.lvtpc = SIM_APIC_LVT_MASKED;
	sim_mark();
	pfm_host_sched_in(ctx);
	ck_msr("switch in after online", 0, sim_has_global() ? 5 : 4);
	sim_count(SIM_EV_INST, 10, SIM_USER);
	read_both(ctx, &a, &b);
	ck_assert_u64_eq(a, 20);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* After a resume, the same on every CPU. */
START_TEST(test_resume_forgets)
{
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = two_counters();
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_host_sched_out(ctx);
	sim_hw_resume();
	memset(sim.sel, 0, sizeof(sim.sel));
	sim.gctrl = 0;
	sim.lvtpc = SIM_APIC_LVT_MASKED;
	sim_mark();
	pfm_host_sched_in(ctx);
	ck_msr("switch in after resume", 0, sim_has_global() ? 5 : 4);
	sim_count(SIM_EV_INST, 10, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 10);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

Suite *sim_ctxsw_suite(void)
{
	Suite *s = suite_create("sim_ctxsw");
	TCase *tc = sim_tcase("ctxsw");

	tcase_add_loop_test(tc, test_op_counts, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_stopped_switch_free, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_many_switches, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_other_thread_between, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_sw_counters_switch_free, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_cpu_online_forgets, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_resume_forgets, 0, SIM_NR_MODELS);
	suite_add_tcase(s, tc);
	return s;
}
