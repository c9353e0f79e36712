// SPDX-License-Identifier: GPL-2.0
/*
 * sw: the software-event PMU (sw_pmu.c), first as a register bank driven directly
 * through its unit operations, then through the core.
 *
 * Counter i is PMC/PMD i of the unit (logical PFM_SW_FIRST_PMC/PMD + i).  A counter
 * counts its event while the bank is enabled, its PMC has EN and a non-zero event,
 * and the event happens in the thread that enabled the bank.
 */
#include "harness.h"
#include "hold.h"

#define N_SW	PFM_SW_NUM_COUNTERS

static const struct pfm_pmu_unit *u = &pfm_sw_unit;

static void count(unsigned int event, unsigned int times)
{
	while (times--)
		pfm_sw_count(event, 1);
}

START_TEST(test_counts_syscalls)
{
	u->write_pmc(false, 2, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	u->write_pmd(false, 2, 0);
	u->enable(false);
	count(PFM_SW_EV_SYSCALLS, 7);
	ck_assert_u64_eq(u->read_pmd(false, 2), 7);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 100);
	ck_assert_u64_eq(u->read_pmd(false, 2), 107);
	/* other events and other counters are left alone */
	count(PFM_SW_EV_PAGE_FAULTS, 3);
	ck_assert_u64_eq(u->read_pmd(false, 2), 107);
	ck_assert_u64_eq(u->read_pmd(false, 1), 0);
	ck_assert_u64_eq(u->read_pmd(false, 3), 0);
	u->disable(false);
}
END_TEST

START_TEST(test_not_counting)
{
	u->write_pmc(false, 0, PFM_SW_EV_SYSCALLS);			/* EN clear */
	u->write_pmc(false, 1, PFM_SW_PMC(PFM_SW_EV_NONE));		/* event 0 */
	u->write_pmc(false, 2, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));	/* counts, but not yet */
	count(PFM_SW_EV_SYSCALLS, 4);				/* bank not enabled */
	u->enable(false);
	count(PFM_SW_EV_SYSCALLS, 5);
	count(PFM_SW_EV_NONE, 5);
	ck_assert_u64_eq(u->read_pmd(false, 0), 0);
	ck_assert_u64_eq(u->read_pmd(false, 1), 0);
	ck_assert_u64_eq(u->read_pmd(false, 2), 5);
	u->disable(false);
}
END_TEST

START_TEST(test_disable_stops)
{
	u->write_pmc(false, 5, PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS));
	u->enable(false);
	count(PFM_SW_EV_PAGE_FAULTS, 3);
	u->disable(false);
	count(PFM_SW_EV_PAGE_FAULTS, 10);
	ck_assert_u64_eq(u->read_pmd(false, 5), 3);
	u->enable(false);
	count(PFM_SW_EV_PAGE_FAULTS, 1);
	ck_assert_u64_eq(u->read_pmd(false, 5), 4);
	/* a PMC rewritten to quiescent stops its counter at once */
	u->write_pmc(false, 5, 0);
	count(PFM_SW_EV_PAGE_FAULTS, 1);
	ck_assert_u64_eq(u->read_pmd(false, 5), 4);
	u->disable(false);
}
END_TEST

START_TEST(test_task_clock)
{
	pfm_host_env.clock_ns = 900;
	u->write_pmc(false, 0, PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK));
	u->write_pmd(false, 0, 0);
	pfm_host_env.clock_ns = 1000;
	ck_assert_u64_eq(u->read_pmd(false, 0), 0);		/* not enabled: no time */
	u->enable(false);
	pfm_host_env.clock_ns = 1500;
	ck_assert_u64_eq(u->read_pmd(false, 0), 500);
	ck_assert_u64_eq(u->read_pmd(false, 0), 500);		/* reading folds once */
	pfm_host_env.clock_ns = 1700;
	u->disable(false);
	pfm_host_env.clock_ns = 5000;
	ck_assert_u64_eq(u->read_pmd(false, 0), 700);
	u->enable(false);
	pfm_host_env.clock_ns = 5010;
	ck_assert_u64_eq(u->read_pmd(false, 0), 710);
	/* changing the event folds the time so far, then stops the clock */
	pfm_host_env.clock_ns = 5020;
	u->write_pmc(false, 0, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	pfm_host_env.clock_ns = 9000;
	ck_assert_u64_eq(u->read_pmd(false, 0), 720);
	u->disable(false);
}
END_TEST

/*
 * The carry timer is started only for a task-clock counter near its carry, and a
 * bank whose timer is not started pays no cancel at disable (a context switch).
 */
START_TEST(test_task_clock_timer_only_when_armed)
{
	unsigned long starts = shim_hrtimer_starts, cancels = shim_hrtimer_cancels;

	pfm_host_env.clock_ns = 1000;
	u->write_pmc(false, 1, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	u->write_pmc(false, 0, PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK));
	u->write_pmd(false, 0, 0);				/* counting: no carry near */
	u->enable(false);
	u->disable(false);
	ck_assert_uint_eq(shim_hrtimer_starts, starts);
	ck_assert_uint_eq(shim_hrtimer_cancels, cancels);
	u->write_pmd(false, 0, -500ULL);			/* a carry 500 ns away */
	u->enable(false);
	ck_assert_uint_eq(shim_hrtimer_starts, starts + 1);
	u->disable(false);
	ck_assert_uint_eq(shim_hrtimer_cancels, cancels + 1);
	u->disable(false);					/* nothing armed: no cancel */
	ck_assert_uint_eq(shim_hrtimer_cancels, cancels + 1);
}
END_TEST

/*
 * Held (a keyed hit being counted, hold.h): the carry timer is neither started
 * nor cancelled, the bank's irq_work does it after, as the bank is then.
 */
START_TEST(test_task_clock_timer_held)
{
	unsigned long starts = shim_hrtimer_starts, cancels = shim_hrtimer_cancels;

	pfm_host_env.clock_ns = 1000;
	u->write_pmc(false, 4, PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK));
	u->write_pmd(false, 4, 0);
	u->enable(false);
	pfm_timers_hold();
	u->write_pmd(false, 4, -300ULL);
	ck_assert_uint_eq(shim_hrtimer_starts, starts);
	pfm_timers_unhold();
	pfm_host_env.clock_ns = 1100;
	ck_assert_uint_eq(shim_irq_work_run(), 1);
	ck_assert_uint_eq(shim_hrtimer_starts, starts + 1);
	ck_assert_int_eq(shim_hrtimer_last->expires, 1300);	/* from the write's stamp */
	pfm_timers_hold();
	u->disable(false);
	ck_assert_uint_eq(shim_hrtimer_cancels, cancels);
	ck_assert(shim_hrtimer_last->armed);
	pfm_timers_unhold();
	ck_assert_uint_eq(shim_irq_work_run(), 1);
	ck_assert_uint_eq(shim_hrtimer_cancels, cancels + 1);
	ck_assert(!shim_hrtimer_last->armed);
	ck_assert_uint_eq(shim_irq_work_run(), 0);
}
END_TEST

/*
 * A bank started with its clock counting sets up no carry timer; a PMD written
 * near its carry while the bank counts still gets one.
 */
START_TEST(test_task_clock_written_near_carry_while_on)
{
	unsigned long starts = shim_hrtimer_starts;

	pfm_host_env.clock_ns = 1000;
	u->write_pmc(false, 4, PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK));
	u->write_pmd(false, 4, 0);
	u->enable(false);
	ck_assert_uint_eq(shim_hrtimer_starts, starts);
	u->write_pmd(false, 4, -300ULL);
	ck_assert_uint_eq(shim_hrtimer_starts, starts + 1);
	ck_assert(shim_hrtimer_last->armed);
	ck_assert_int_eq(shim_hrtimer_last->expires, 1300);
	u->disable(false);
	ck_assert(!shim_hrtimer_last->armed);
}
END_TEST

START_TEST(test_two_counters_same_event)
{
	u->write_pmc(false, 0, PFM_SW_PMC(PFM_SW_EV_CTX_SWITCHES));
	u->write_pmc(false, 7, PFM_SW_PMC(PFM_SW_EV_CTX_SWITCHES));
	u->write_pmd(false, 7, 1000);
	u->enable(false);
	count(PFM_SW_EV_CTX_SWITCHES, 6);
	ck_assert_u64_eq(u->read_pmd(false, 0), 6);
	ck_assert_u64_eq(u->read_pmd(false, 7), 1006);
	u->disable(false);
}
END_TEST

/* Per-thread: only the thread that enabled the bank counts. */
START_TEST(test_owner_only)
{
	u->write_pmc(false, 3, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	u->enable(false);
	count(PFM_SW_EV_SYSCALLS, 2);
	current = &shim_task_other;
	count(PFM_SW_EV_SYSCALLS, 50);
	current = &shim_task_self;
	count(PFM_SW_EV_SYSCALLS, 1);
	ck_assert_u64_eq(u->read_pmd(false, 3), 3);
	/* CPU-side events count for CPU sessions only */
	pfm_sw_count_cpu(PFM_SW_EV_SYSCALLS, 9);
	ck_assert_u64_eq(u->read_pmd(false, 3), 3);
	u->disable(false);
}
END_TEST

/*
 * System-wide: every thread's events count, and the CPU's own, in the CPU bank;
 * the thread bank, with the same PMC, counts its owner's only.
 */
START_TEST(test_system_wide_counts_all)
{
	u->write_pmc(true, 3, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	u->enable(true);
	count(PFM_SW_EV_SYSCALLS, 2);
	current = &shim_task_other;
	count(PFM_SW_EV_SYSCALLS, 5);
	current = &shim_task_self;
	pfm_sw_count_cpu(PFM_SW_EV_SYSCALLS, 1);
	ck_assert_u64_eq(u->read_pmd(true, 3), 8);
	ck_assert_u64_eq(u->read_pmd(false, 3), 0);
	u->disable(true);
	u->write_pmc(false, 3, PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	u->enable(false);
	current = &shim_task_other;
	count(PFM_SW_EV_SYSCALLS, 5);
	current = &shim_task_self;
	pfm_sw_count_cpu(PFM_SW_EV_SYSCALLS, 1);
	ck_assert_u64_eq(u->read_pmd(false, 3), 0);
	count(PFM_SW_EV_SYSCALLS, 1);
	ck_assert_u64_eq(u->read_pmd(false, 3), 1);
	u->disable(false);
	ck_assert_u64_eq(u->read_pmd(true, 3), 8);
}
END_TEST

START_TEST(test_pmc_check)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmc c = { .reg_num = PFM_SW_FIRST_PMC };
	unsigned int ev;

	ck_assert_ptr_nonnull(u->pmc_check);
	for (ev = 0; ev <= 0xff; ev++) {
		int want = ev > PFM_SW_EV_MAX ? -EINVAL : 0;

		ck_assert_int_eq(u->pmc_check(0, ev), want);
		ck_assert_int_eq(u->pmc_check(7, PFM_SW_PMC(ev)), want);
		c.reg_value = PFM_SW_PMC(ev);
		/* keyed events: no source registered here (sw_keyed.c tests them) */
		ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), pfm_sw_keyed(ev) ? -ENOENT : want);
	}
	pfm_context_put(ctx);
}
END_TEST

/* USR and OS select the levels whose events count; some events have no level. */
START_TEST(test_levels)
{
	static const u64 lvl[] = { PFM_SW_PMC_USR, PFM_SW_PMC_OS,
				   PFM_SW_PMC_USR | PFM_SW_PMC_OS, 0 };
	struct pfm_ovfl_where copy = { .ip = 0xffffffff81000000ULL, .kernel = true };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		u->write_pmc(false, i, PFM_SW_EV_PAGE_FAULTS | PFM_SW_PMC_EN | lvl[i]);
		u->write_pmc(false, 4 + i, PFM_SW_EV_CTX_SWITCHES | PFM_SW_PMC_EN | lvl[i]);
	}
	u->enable(false);
	count(PFM_SW_EV_PAGE_FAULTS, 3);		/* user-mode accesses */
	pfm_sw_count_fault(0x1000, &copy);		/* copy_to_user, twice */
	pfm_sw_count_fault(0x2000, &copy);
	count(PFM_SW_EV_CTX_SWITCHES, 5);
	ck_assert_u64_eq(u->read_pmd(false, 0), 3);
	ck_assert_u64_eq(u->read_pmd(false, 1), 2);
	ck_assert_u64_eq(u->read_pmd(false, 2), 5);
	ck_assert_u64_eq(u->read_pmd(false, 3), 0);
	ck_assert_u64_eq(u->read_pmd(false, 4), 5);
	ck_assert_u64_eq(u->read_pmd(false, 5), 5);
	ck_assert_u64_eq(u->read_pmd(false, 6), 5);
	ck_assert_u64_eq(u->read_pmd(false, 7), 0);
	/* a system call is a user-level event */
	u->write_pmc(false, 1, PFM_SW_EV_SYSCALLS | PFM_SW_PMC_EN | PFM_SW_PMC_OS);
	u->write_pmc(false, 2, PFM_SW_EV_SYSCALLS | PFM_SW_PMC_EN | PFM_SW_PMC_USR);
	count(PFM_SW_EV_SYSCALLS, 4);
	ck_assert_u64_eq(u->read_pmd(false, 1), 2);
	ck_assert_u64_eq(u->read_pmd(false, 2), 9);
	u->disable(false);
}
END_TEST

/* A task clock counts the thread's time at either level, and at none without one. */
START_TEST(test_task_clock_levels)
{
	pfm_host_env.clock_ns = 100;
	u->write_pmc(false, 0, PFM_SW_EV_TASK_CLOCK | PFM_SW_PMC_EN | PFM_SW_PMC_OS);
	u->write_pmc(false, 1, PFM_SW_EV_TASK_CLOCK | PFM_SW_PMC_EN);
	u->enable(false);
	pfm_host_env.clock_ns = 400;
	ck_assert_u64_eq(u->read_pmd(false, 0), 300);
	ck_assert_u64_eq(u->read_pmd(false, 1), 0);
	u->disable(false);
}
END_TEST

/*
 * CPU sessions count the threads moved onto their CPU: noted from the moving CPU,
 * counted at the next switch, read or disable on the bank's CPU.
 */
START_TEST(test_cpu_migrations_in)
{
	u->write_pmc(true, 1, PFM_SW_PMC(PFM_SW_EV_CPU_MIGRATIONS));
	pfm_sw_migration_to(0);				/* not enabled: nothing */
	u->enable(true);
	pfm_sw_migration_to(0);
	pfm_sw_migration_to(0);
	ck_assert_u64_eq(u->read_pmd(true, 1), 2);
	pfm_sw_migration_to(0);
	pfm_sw_count_cpu(PFM_SW_EV_CTX_SWITCHES, 1);	/* a switch folds them */
	pfm_sw_migration_to(0);
	u->disable(true);				/* so does a disable */
	ck_assert_u64_eq(u->read_pmd(true, 1), 4);
	/* per-thread banks count their own thread's migrations only */
	u->write_pmc(false, 1, PFM_SW_PMC(PFM_SW_EV_CPU_MIGRATIONS));
	u->enable(false);
	pfm_sw_migration_to(0);
	ck_assert_u64_eq(u->read_pmd(false, 1), 0);
	pfm_sw_count_thread(PFM_SW_EV_CPU_MIGRATIONS, 1);
	ck_assert_u64_eq(u->read_pmd(false, 1), 1);
	u->disable(false);
	ck_assert_u64_eq(u->read_pmd(true, 1), 4);
}
END_TEST

/*
 * The system call hook is held only while a context that wrote a user-level
 * system call counter is attached, from the write or the attach, whichever is last.
 */
START_TEST(test_syscall_hook_held)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmc c = { .reg_num = PFM_SW_FIRST_PMC + 1 };
	int *users = &pfm_host_env.sw_syscall_users;

	c.reg_value = PFM_SW_EV_SYSCALLS | PFM_SW_PMC_EN | PFM_SW_PMC_OS;	/* counts nothing */
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), 0);
	ck_load_self(ctx);
	ck_assert_int_eq(*users, 0);
	ck_unload(ctx);
	c.reg_value = PFM_SW_PMC(PFM_SW_EV_SYSCALLS);
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), 0);
	ck_assert_int_eq(*users, 0);				/* not attached */
	ck_load_self(ctx);
	ck_assert_int_eq(*users, 1);
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), 0);
	ck_assert_int_eq(*users, 1);				/* once per context */
	ck_unload(ctx);
	ck_assert_int_eq(*users, 0);
	pfm_context_put(ctx);

	/* written while attached: held at once, or the write fails */
	ctx = ck_ctx_new(0);
	ck_load_self(ctx);
	ck_assert_int_eq(*users, 0);
	pfm_host_env.sw_needs_get_ret = -ENOMEM;
	c.reg_value = PFM_SW_PMC(PFM_SW_EV_SYSCALLS);
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), -ENOMEM);
	/* unchanged */
	ck_assert_u64_eq(*pfm_set_pmc(ctx_set0(ctx), PFM_SW_FIRST_PMC + 1), 0);
	pfm_host_env.sw_needs_get_ret = 0;
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), 0);
	ck_assert_int_eq(*users, 1);
	ck_unload(ctx);
	/* an attach that cannot take the hook fails and holds nothing */
	pfm_host_env.sw_needs_get_ret = -ENOMEM;
	ck_assert_int_eq(pfm_load(ctx, 0, current->pid), -ENOMEM);
	pfm_host_env.sw_needs_get_ret = 0;
	ck_assert_int_eq(*users, 0);
	ck_assert_int_eq(pfm_host_env.sw_hooks_users, 0);
	pfm_context_put(ctx);
}
END_TEST

/* Only OS needs privilege; the core asks for it with the register's priv_msk. */
START_TEST(test_os_is_privileged)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfarg_pmc c = { .reg_num = PFM_SW_FIRST_PMC + 3 };
	unsigned int i;

	for (i = 0; i < N_SW; i++)
		ck_assert_u64_eq(u->pmcs[i].priv_msk, PFM_SW_PMC_OS);
	pfm_host_env.unprivileged = true;
	c.reg_value = PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS) | PFM_SW_PMC_OS;
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), -EPERM);
	c.reg_value = PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS);
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), 0);
	pfm_context_put(ctx);
}
END_TEST

/* Through the core: a user's view of a syscall counter and a task clock. */
START_TEST(test_through_core)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	u16 sys = 2, clk = 5;

	ck_write_pmc(ctx, PFM_SW_FIRST_PMC + sys, PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmc(ctx, PFM_SW_FIRST_PMC + clk, PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK), 0);
	ck_load_self(ctx);
	count(PFM_SW_EV_SYSCALLS, 3);			/* loaded, not started */
	pfm_host_env.clock_ns = 1000;
	ck_start(ctx);
	count(PFM_SW_EV_SYSCALLS, 7);
	pfm_host_env.clock_ns = 1500;
	ck_assert_u64_eq(ck_read_pmd(ctx, PFM_SW_FIRST_PMD + sys), 7);
	ck_assert_u64_eq(ck_read_pmd(ctx, PFM_SW_FIRST_PMD + clk), 500);
	/* switched out: a context switch is counted, time is not */
	ck_write_pmc(ctx, PFM_SW_FIRST_PMC + 0, PFM_SW_PMC(PFM_SW_EV_CTX_SWITCHES), 0);
	pfm_host_sched_out(ctx);
	pfm_host_env.clock_ns = 2500;
	count(PFM_SW_EV_SYSCALLS, 100);			/* someone else's */
	pfm_host_sched_in(ctx);
	pfm_host_env.clock_ns = 2700;
	ck_stop(ctx);
	count(PFM_SW_EV_SYSCALLS, 4);			/* stopped */
	pfm_host_env.clock_ns = 9000;
	ck_assert_u64_eq(ck_read_pmd(ctx, PFM_SW_FIRST_PMD + sys), 7);
	ck_assert_u64_eq(ck_read_pmd(ctx, PFM_SW_FIRST_PMD + clk), 700);
	ck_assert_u64_eq(ck_read_pmd(ctx, PFM_SW_FIRST_PMD + 0), 1);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/*
 * A switch out is stamped with the scheduler's last charge of the thread's
 * runtime, which is older than a reading of ours where the scheduler skipped its
 * clock's update: started at 1000, switched out with the stamp 900, the clock
 * and the set's live time take nothing back (they would read 200, not 300).
 */
START_TEST(test_switch_out_stamped_before_last_reading)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	const u16 clk = 1;

	ck_write_pmc(ctx, SW_PMC(clk), PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK), 0);
	ck_load_self(ctx);
	pfm_host_env.clock_ns = 1000;
	ck_start(ctx);
	pfm_host_env.clock_ns = 1100;
	pfm_host_sched_out_at(ctx, 900);
	pfm_host_env.clock_ns = 2000;
	pfm_host_sched_in(ctx);
	pfm_host_env.clock_ns = 2300;
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(clk)), 300);
	ck_assert_u64_eq(ctx_set0(ctx)->duration_ns, 300);
	ck_assert_u64_eq(ctx->live_ns, 300);
	ck_done(ctx);
}
END_TEST

/* harness.h */
struct pfm_context *ck_sampling_clock_at_1000(u16 clk)
{
	static const char fake_fmt;
	struct pfm_context *ctx = ck_ctx_new(0);

	ctx->smpl.fmt = (const struct pfm_smpl_fmt *)&fake_fmt;
	ck_write_pmc(ctx, SW_PMC(clk), PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK), 0);
	ck_write_pmd_full(ctx, 0, SW_PMD(clk), -1000ULL, PFM_PMDFL_SMPL, -1000ULL, -1000ULL, 0);
	ck_load_self(ctx);
	pfm_host_env.clock_ns = 1000;
	ck_start(ctx);
	return ctx;
}

/*
 * A sampling task clock 700 ns from its carry at a switch out comes back with the
 * pick stamped at 5000 and the hook running at 5040: it carries at 5700, the
 * timer is not a hook's delay late.
 */
START_TEST(test_task_clock_carry_timed_from_pick)
{
	const u16 clk = 3;
	struct pfm_context *ctx = ck_sampling_clock_at_1000(clk);
	struct hrtimer *t;

	pfm_host_env.clock_ns = 1300;
	pfm_host_sched_out(ctx);
	pfm_host_env.clock_ns = 5040;
	pfm_host_sched_in_at(ctx, 5000);
	t = shim_hrtimer_last;
	ck_assert(t->armed);
	ck_assert_int_eq(t->expires, 5700);
	pfm_host_env.clock_ns = 5100;
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(clk)), -600ULL);
	ctx->smpl.fmt = NULL;
	ck_done(ctx);
}
END_TEST

static void on_record_takes_50ns(struct pfm_context *ctx __always_unused,
				 struct pfm_event_set *set __always_unused,
				 unsigned int pmd __always_unused)
{
	pfm_host_env.clock_ns += 50;
}

/*
 * A sampling task clock (PMD at -1000, reset -1000) through the core: its
 * carry's timer fires 100 ns late, the record takes 50 ns, and the reload
 * keeps the time owed since the carry: the clock counts the overflow's
 * handling, and its next carry is timed from the fold, not from the reload.
 */
START_TEST(test_task_clock_reload_keeps_time)
{
	const u16 clk = 3;
	struct pfm_context *ctx = ck_sampling_clock_at_1000(clk);
	struct hrtimer *t;

	pfm_host_env.on_record = on_record_takes_50ns;
	t = shim_hrtimer_last;
	ck_assert(t->armed);
	ck_assert_int_eq(t->expires, 2000);
	pfm_host_env.clock_ns = 2100;
	ck_assert(shim_hrtimer_fire(t));
	ck_assert_uint_eq(pfm_host_env.samples, 1);
	ck_assert_u64_eq(pfm_host_env.clock_ns, 2150);
	/* 100 past the carry, less the period, plus the 50 of the record */
	ck_assert(t->armed);
	ck_assert_int_eq(t->expires, 2150 + 850);
	pfm_host_env.clock_ns = 2300;
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(clk)), -700ULL);
	pfm_host_env.on_record = NULL;
	ctx->smpl.fmt = NULL;
	ck_done(ctx);
}
END_TEST

/*
 * The bank keeps the PMCs of the set it last bound across a switch: a PMC written
 * while the thread is away must still reach it at the next switch-in.
 */
START_TEST(test_pmc_written_while_out)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_write_pmc(ctx, PFM_SW_FIRST_PMC, PFM_SW_PMC(PFM_SW_EV_SYSCALLS), 0);
	ck_write_pmc(ctx, PFM_SW_FIRST_PMC + 1, PFM_SW_PMC(PFM_SW_EV_CTX_SWITCHES), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	count(PFM_SW_EV_SYSCALLS, 2);
	pfm_host_sched_out(ctx);
	pfm_host_sched_in(ctx);			/* the bank's copy is current */
	count(PFM_SW_EV_SYSCALLS, 3);
	pfm_host_sched_out(ctx);
	ck_write_pmc(ctx, PFM_SW_FIRST_PMC, PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS), 0);
	pfm_host_sched_in(ctx);
	count(PFM_SW_EV_SYSCALLS, 5);
	count(PFM_SW_EV_PAGE_FAULTS, 4);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, PFM_SW_FIRST_PMD), 5 + 4);
	ck_assert_u64_eq(ck_read_pmd(ctx, PFM_SW_FIRST_PMD + 1), 2);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/*
 * The registers are SW_PMC0..SW_PMC1023 and SW_PMD0..SW_PMD1023, each PMD controlled
 * by its own PMC, the last counter as much as the first.
 */
START_TEST(test_register_names)
{
	char name[16];
	unsigned int i;

	ck_assert_uint_eq(u->num_pmcs, 1024);
	ck_assert_uint_eq(u->num_pmds, 1024);
	for (i = 0; i < N_SW; i++) {
		snprintf(name, sizeof(name), "SW_PMC%u", i);
		ck_assert_str_eq(u->pmcs[i].name, name);
		snprintf(name, sizeof(name), "SW_PMD%u", i);
		ck_assert_str_eq(u->pmds[i].name, name);
		ck_assert_uint_eq(u->pmds[i].dep_pmc, i);
	}
}
END_TEST

/*
 * Sets of different counters bound in turn on one bank: a bind compares only the
 * counters either side uses, so what one set left in the bank (counters 0 and 63)
 * must still be cleared for the next (counter 5 alone), and come back with it.
 */
START_TEST(test_bind_sets_in_turn)
{
	struct pfm_context *a = ck_ctx_new(0), *b = ck_ctx_new(0);
	struct pfm_event_set *sa = ctx_set0(a), *sb = ctx_set0(b);
	const u64 sys = PFM_SW_PMC(PFM_SW_EV_SYSCALLS);
	unsigned int round;

	ck_write_pmc(a, PFM_SW_FIRST_PMC, sys, 0);
	ck_write_pmc(a, PFM_SW_FIRST_PMC + N_SW - 1, sys, 0);
	ck_write_pmc(b, PFM_SW_FIRST_PMC + 5, sys, 0);
	for (round = 0; round < 2; round++) {
		u->bind(sa, false, 0);
		count(PFM_SW_EV_SYSCALLS, 3);
		u->unbind(false, 0);
		u->bind(sb, false, 0);
		count(PFM_SW_EV_SYSCALLS, 4);
		u->unbind(false, 0);
	}
	ck_assert_u64_eq(pfm_set_pmd(sa, PFM_SW_FIRST_PMD)->value, 6);
	ck_assert_u64_eq(pfm_set_pmd(sa, PFM_SW_FIRST_PMD + N_SW - 1)->value, 6);
	ck_assert_u64_eq(pfm_set_pmd(sa, PFM_SW_FIRST_PMD + 5)->value, 0);
	ck_assert_u64_eq(pfm_set_pmd(sb, PFM_SW_FIRST_PMD + 5)->value, 8);
	/* sb's arrays reach counter 5 alone: the others read zero, never written */
	ck_assert_uint_eq(sb->pmd_slots, 6);
	ck_assert_u64_eq(pfm_set_pmd_read(sb, PFM_SW_FIRST_PMD)->value, 0);
	ck_assert_u64_eq(pfm_set_pmd_read(sb, PFM_SW_FIRST_PMD + N_SW - 1)->value, 0);
	pfm_context_put(a);
	pfm_context_put(b);
}
END_TEST

/*
 * The carry timer at switch-in is worked out only when a task clock's value has
 * its top bit set: a PMD written near its carry while the thread is away (here the
 * first of two clocks, the other counting) still gets its timer at the next
 * switch-in; one written far from it again, or beyond the horizon, gets none.
 */
START_TEST(test_task_clock_written_near_carry_while_out)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	unsigned long starts;
	struct hrtimer *t;

	ck_write_pmc(ctx, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK), 0);
	ck_write_pmc(ctx, SW_PMC(3), PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK), 0);
	ck_write_pmc(ctx, SW_PMC(5), PFM_SW_PMC(PFM_SW_EV_CTX_SWITCHES), 0);
	ck_load_self(ctx);
	pfm_host_env.clock_ns = 1000;
	ck_start(ctx);
	starts = shim_hrtimer_starts;
	pfm_host_env.clock_ns = 1200;
	pfm_host_sched_out(ctx);
	pfm_host_sched_in(ctx);			/* counting clocks: no timer */
	ck_assert_uint_eq(shim_hrtimer_starts, starts);
	pfm_host_env.clock_ns = 1300;
	pfm_host_sched_out(ctx);
	ck_write_pmd(ctx, SW_PMD(0), -500ULL);	/* a carry 500 ns away, written away */
	pfm_host_env.clock_ns = 2000;
	pfm_host_sched_in(ctx);
	ck_assert_uint_eq(shim_hrtimer_starts, starts + 1);
	t = shim_hrtimer_last;
	ck_assert(t->armed);
	ck_assert_int_eq(t->expires, 2500);
	pfm_host_env.clock_ns = 2100;
	pfm_host_sched_out(ctx);
	ck_assert(!t->armed);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(0)), -400ULL);
	ck_write_pmd(ctx, SW_PMD(0), 7);	/* far again */
	pfm_host_env.clock_ns = 3000;
	pfm_host_sched_in(ctx);
	ck_assert_uint_eq(shim_hrtimer_starts, starts + 1);
	ck_assert(!t->armed);
	pfm_host_env.clock_ns = 3050;
	pfm_host_sched_out(ctx);
	ck_write_pmd(ctx, SW_PMD(3), 1ULL << 63);	/* top bit set, 2^63 ns away */
	pfm_host_sched_in(ctx);
	ck_assert_uint_eq(shim_hrtimer_starts, starts + 1);
	ck_assert(!t->armed);
	pfm_host_env.clock_ns = 3080;
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(0)), 7 + 50 + 30);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(3)), (1ULL << 63) + 30);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(5)), 4);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

Suite *pfm_sw_suite(void)
{
	Suite *s = suite_create("sw");
	TCase *tc = pfm_host_tcase("bank", pfm_host_setup_sw);

	tcase_add_test(tc, test_counts_syscalls);
	tcase_add_test(tc, test_not_counting);
	tcase_add_test(tc, test_disable_stops);
	tcase_add_test(tc, test_task_clock);
	tcase_add_test(tc, test_task_clock_timer_only_when_armed);
	tcase_add_test(tc, test_task_clock_written_near_carry_while_on);
	tcase_add_test(tc, test_task_clock_timer_held);
	tcase_add_test(tc, test_two_counters_same_event);
	tcase_add_test(tc, test_owner_only);
	tcase_add_test(tc, test_system_wide_counts_all);
	tcase_add_test(tc, test_pmc_check);
	tcase_add_test(tc, test_through_core);
	tcase_add_test(tc, test_switch_out_stamped_before_last_reading);
	tcase_add_test(tc, test_task_clock_reload_keeps_time);
	tcase_add_test(tc, test_task_clock_carry_timed_from_pick);
	tcase_add_test(tc, test_pmc_written_while_out);
	tcase_add_test(tc, test_register_names);
	tcase_add_test(tc, test_bind_sets_in_turn);
	tcase_add_test(tc, test_task_clock_written_near_carry_while_out);
	tcase_add_test(tc, test_levels);
	tcase_add_test(tc, test_task_clock_levels);
	tcase_add_test(tc, test_os_is_privileged);
	tcase_add_test(tc, test_cpu_migrations_in);
	tcase_add_test(tc, test_syscall_hook_held);
	suite_add_tcase(s, tc);
	return s;
}
