// SPDX-License-Identifier: GPL-2.0
/*
 * sw_banks: a per-thread session and a CPU session on one CPU at once.  The
 * software unit has a bank for each (sw_pmu.c): an event counts in both, each as
 * if it were alone, and each bank's carries reach its own session.  The hardware
 * is held by one kind of session at a time (res.c): the other kind is refused
 * with EBUSY at a load or at a write of a hardware register, and a session
 * without hardware never drives the hardware unit of a session that has it.
 */
#include "harness.h"

static const struct pfm_pmu_unit *u = &pfm_sw_unit;

static const struct pfm_ovfl_where user_fault = { .ip = 0x401000, .kernel = false };

static void faults(unsigned int n)
{
	while (n--)
		pfm_sw_count_fault(0x10000, &user_fault);
}

/* Through the unit alone: which bank each source of events reaches. */
START_TEST(test_both_banks_count)
{
	unsigned int b;

	for (b = 0; b < 2; b++) {
		u->write_pmc(b, 0, PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS));
		u->write_pmc(b, 1, PFM_SW_PMC(PFM_SW_EV_CTX_SWITCHES));
		u->write_pmc(b, 2, PFM_SW_PMC(PFM_SW_EV_CPU_MIGRATIONS));
		u->write_pmc(b, 3, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
		u->enable(b);
	}
	faults(3);				/* the owner's: both banks */
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 2);
	current = &shim_task_other;		/* another thread's: the CPU's only */
	faults(4);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 5);
	current = &shim_task_self;
	pfm_sw_count_switch_out();		/* the owner's own switch hook */
	pfm_sw_count_cpu(PFM_SW_EV_CTX_SWITCHES, 1);	/* the scheduler's, as seen by the CPU */
	pfm_sw_count_thread(PFM_SW_EV_CPU_MIGRATIONS, 1);	/* the owner came in moved */
	pfm_sw_migration_to(0);			/* someone moved onto the CPU */

	ck_assert_u64_eq(u->read_pmd(false, 0), 3);
	ck_assert_u64_eq(u->read_pmd(false, 1), 1);
	ck_assert_u64_eq(u->read_pmd(false, 2), 1);
	ck_assert_u64_eq(u->read_pmd(false, 3), 2);
	ck_assert_u64_eq(u->read_pmd(true, 0), 7);
	ck_assert_u64_eq(u->read_pmd(true, 1), 1);
	ck_assert_u64_eq(u->read_pmd(true, 2), 1);
	ck_assert_u64_eq(u->read_pmd(true, 3), 7);
	/* one bank stopped, the other counts on */
	u->disable(false);
	faults(1);
	ck_assert_u64_eq(u->read_pmd(false, 0), 3);
	ck_assert_u64_eq(u->read_pmd(true, 0), 8);
	u->disable(true);
}
END_TEST

/* A thread session on the current thread and a CPU session on CPU 0, both started. */
static void two_sessions(struct pfm_context **thr, struct pfm_context **cpu)
{
	*thr = ck_ctx_new(0);
	*cpu = ck_ctx_new(PFM_FL_SYSTEM_WIDE);
	ck_load_self(*thr);
	ck_assert_int_eq(pfm_load(*cpu, 0, 0), 0);
}

/*
 * Through the core: each session counts the thread's faults exactly, and each
 * overflow reaches its own session (a notifying PMD masks the one it belongs to).
 */
START_TEST(test_overflows_reach_their_session)
{
	struct pfm_context *thr, *cpu;

	two_sessions(&thr, &cpu);
	ck_write_pmc(thr, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS), 0);
	ck_write_pmd_full(thr, 0, SW_PMD(0), -3ULL, PFM_PMDFL_OVFL_NOTIFY, -3ULL, -3ULL, 0);
	ck_write_pmc(cpu, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS), 0);
	ck_write_pmd_full(cpu, 0, SW_PMD(0), -5ULL, PFM_PMDFL_OVFL_NOTIFY, -5ULL, -5ULL, 0);
	ck_write_pmc(cpu, SW_PMC(1), PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS), 0);
	ck_start(thr);
	ck_start(cpu);

	faults(2);
	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(0)), -1ULL);
	ck_assert_u64_eq(ck_read_pmd(cpu, SW_PMD(0)), -3ULL);
	faults(1);				/* the thread's carry, only */
	ck_assert(thr->masked);
	ck_assert(!cpu->masked && cpu->started);
	ck_assert(test_bit(SW_PMD(0), ctx_set0(thr)->ovfl_pmds));
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 1);
	faults(1);				/* masked: the thread's does not count */
	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(0)), 0);
	faults(1);				/* the CPU's carry */
	ck_assert(cpu->masked);
	ck_assert(test_bit(SW_PMD(0), ctx_set0(cpu)->ovfl_pmds));
	ck_assert_uint_eq(pfm_host_env.ovfl_msgs, 2);
	ck_assert_u64_eq(ck_read_pmd(cpu, SW_PMD(1)), 5);

	/* restarted, each counts on; the thread switched out, the CPU alone */
	ck_assert_int_eq(pfm_start(thr, PFM_STARTFL_RESTART, 0), 0);
	ck_assert_int_eq(pfm_start(cpu, PFM_STARTFL_RESTART, 0), 0);
	faults(1);
	pfm_host_sched_out(thr);
	current = &shim_task_other;
	faults(2);
	current = &shim_task_self;
	pfm_host_sched_in(thr);
	faults(1);
	ck_assert_u64_eq(ck_read_pmd(thr, SW_PMD(0)), -3ULL + 2);
	ck_assert_u64_eq(ck_read_pmd(cpu, SW_PMD(1)), 9);
	ck_done(thr);
	ck_done(cpu);
}
END_TEST

/* The hardware goes to one kind of session at a time: EBUSY at a write, and at a load. */
START_TEST(test_hardware_exclusive)
{
	struct pfm_context *thr, *cpu, *other = ck_ctx_new(0);
	struct pfarg_pmc pmc = { .reg_num = 0, .reg_value = FAKE_PMC_EN | 1 };
	struct pfarg_pmd pmd = { .reg_num = 1, .reg_value = 5 };

	ck_write_pmc(other, 0, FAKE_PMC_EN | 1, 0);	/* will want the hardware at load */
	two_sessions(&thr, &cpu);
	ck_write_pmc(cpu, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS), 0);
	ck_start(cpu);
	ck_start(thr);
	/* the thread session takes the hardware first */
	ck_write_pmc(thr, 0, FAKE_PMC_EN | 1, 0);
	ck_assert(fake_pmu.enabled && !fake_pmu.system_wide);
	ck_assert_int_eq(pfm_write_pmcs(cpu, &pmc, 1), -EBUSY);
	ck_assert_int_eq(pfm_write_pmds(cpu, &pmd, 1), -EBUSY);
	ck_assert(!test_bit(0, ctx_set0(cpu)->used_pmcs));
	ck_assert(!test_bit(1, ctx_set0(cpu)->used_pmds));
	ck_assert(!cpu->hw_wanted && !cpu->hw_held);
	ck_assert_int_eq(pfm_host_env.hw_sessions[0], 1);
	/* software registers are no business of the hardware's */
	ck_write_pmc(cpu, SW_PMC(1), PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_done(thr);
	ck_assert(!fake_pmu.enabled);
	ck_assert_int_eq(pfm_host_env.hw_sessions[0], 0);

	/* free now: the CPU session takes it, live at once */
	ck_assert_int_eq(pfm_write_pmcs(cpu, &pmc, 1), 0);
	ck_assert(fake_pmu.enabled && fake_pmu.system_wide);
	fake_pmu_advance(0, 40);
	ck_assert_u64_eq(ck_read_pmd(cpu, 0), 40);
	ck_assert_int_eq(pfm_load(other, 0, current->pid), -EBUSY);
	ck_assert_int_eq(other->state, PFM_CTX_UNLOADED);
	ck_assert_int_eq(pfm_host_env.task_sessions, 0);

	/* a software-only thread session beside it leaves the hardware to it */
	thr = ck_ctx_new(0);
	ck_write_pmc(thr, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS), 0);
	ck_load_self(thr);
	ck_start(thr);
	pfm_host_sched_out(thr);
	pfm_host_sched_in(thr);
	ck_stop(thr);
	ck_assert(fake_pmu.enabled && fake_pmu.system_wide);
	fake_pmu_advance(0, 2);
	faults(1);
	ck_assert_u64_eq(ck_read_pmd(cpu, 0), 42);
	ck_assert_u64_eq(ck_read_pmd(cpu, SW_PMD(0)), 1);
	ck_done(thr);
	ck_done(cpu);
	ck_assert(!fake_pmu.enabled);
	/* and the thread may have it again */
	ck_load_self(other);
	ck_assert(other->hw_held);
	ck_done(other);
}
END_TEST

Suite *pfm_sw_banks_suite(void)
{
	Suite *s = suite_create("sw_banks");
	TCase *tc = pfm_host_tcase("bank", pfm_host_setup_sw);

	tcase_add_test(tc, test_both_banks_count);
	suite_add_tcase(s, tc);
	tc = pfm_host_tcase("sessions", pfm_host_setup);
	tcase_add_test(tc, test_overflows_reach_their_session);
	tcase_add_test(tc, test_hardware_exclusive);
	suite_add_tcase(s, tc);
	return s;
}
