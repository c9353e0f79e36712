// SPDX-License-Identifier: GPL-2.0
/*
 * tracepoint: the software PMU's TRACEPOINT event written directly by a native
 * perfmon2 session (perfmon_sw.h), keyed by the tracefs id, fed by the trace
 * layer's source.
 *
 * Between pfm_start() and pfm_stop() the tests call nothing but the workload, so
 * a system call event counts exactly the calls the test made.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

/* The tracefs id of syscalls:<ev>; the test fails without one. */
static uint32_t tp_id(const char *ev)
{
	long id = tracefs_syscall_id(ev);

	if (id >= 0)
		return id;
	ck_abort_msg("no tracefs id for syscalls:%s", ev);
	return 0;
}

static const long calls_n[] = { 0, 1, 1000 };

/* n getppid() counted by sys_enter_getppid on counter 0, exactly. */
START_TEST(test_tp_getppid_exact)
{
	long n = calls_n[_i];
	int fd = ck_ctx_create(), rs, rt;

	ck_write_pmc(fd, SW_PMC(0),
		     PFM_SW_PMC_KEYED(PFM_SW_EV_TRACEPOINT, tp_id("sys_enter_getppid")));
	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	do_getppid(n);
	rt = pfm_stop(fd, 0);
	ck_assert_msg(rs == 0 && rt == 0, "start %d, stop %d", rs, rt);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), n);
	close(fd);
}
END_TEST

/* Two ids on two counters: each counts its own calls only. */
START_TEST(test_tp_two_keys)
{
	int fd = ck_ctx_create(), rs, rt;
	long i;

	ck_write_pmc(fd, SW_PMC(0),
		     PFM_SW_PMC_KEYED(PFM_SW_EV_TRACEPOINT, tp_id("sys_enter_getppid")));
	ck_write_pmc(fd, SW_PMC(1),
		     PFM_SW_PMC_KEYED(PFM_SW_EV_TRACEPOINT, tp_id("sys_enter_getpgid")));
	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	do_getppid(300);
	for (i = 0; i < 200; i++)
		syscall(SYS_getpgid, 0);
	rt = pfm_stop(fd, 0);
	ck_assert_msg(rs == 0 && rt == 0, "start %d, stop %d", rs, rt);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 300);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), 200);
	close(fd);
}
END_TEST

/*
 * Keys no trace event has: an id past tracefs's (the source's EINVAL), a
 * filtered key nobody made; a key on an event that is not keyed.  Each write
 * changes nothing: the counter still counts the id it had.
 */
START_TEST(test_tp_bad_keys)
{
	uint32_t id = tp_id("sys_enter_getppid");
	int fd = ck_ctx_create(), rs, rt;
	struct pfarg_pmc pc;

	ck_write_pmc(fd, SW_PMC(0), PFM_SW_PMC_KEYED(PFM_SW_EV_TRACEPOINT, id));
	pmc_init(&pc, SW_PMC(0), PFM_SW_PMC_KEYED(PFM_SW_EV_TRACEPOINT, 0xfffff));
	ck_assert_errno(pfm_write_pmcs(fd, &pc, 1), EINVAL);
	pmc_init(&pc, SW_PMC(0), PFM_SW_PMC_KEYED(PFM_SW_EV_TRACEPOINT, PFM_SW_TP_FILTERED | 7));
	ck_assert_errno(pfm_write_pmcs(fd, &pc, 1), EINVAL);
	pmc_init(&pc, SW_PMC(0), PFM_SW_PMC_KEYED(PFM_SW_EV_SYSCALLS, id));
	ck_assert_errno(pfm_write_pmcs(fd, &pc, 1), EINVAL);
	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	do_getppid(100);
	rt = pfm_stop(fd, 0);
	ck_assert_msg(rs == 0 && rt == 0, "start %d, stop %d", rs, rt);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 100);
	close(fd);
}
END_TEST

/*
 * A hit that comes with the hrtimer base's lock held: timer:hrtimer_start fires
 * inside enqueue_hrtimer().  Each hit overflows counter 0 (at -1, reset to -1),
 * and the reset re-arms the carry timer of counter 1, a sampling task clock: the
 * timer must wait until the lock is let go, or the CPU spins on it for good.
 * Every sleep starts a timer of the thread's own, in the kernel, so each counts
 * on counter 2.
 */
START_TEST(test_tp_hrtimer_lock)
{
	const uint64_t clock_period = 2000000;
	struct timespec ts = { .tv_nsec = 200000 };
	long id = tracefs_event_id("timer", "hrtimer_start");
	int fd = ck_ctx_create(), rs, rt, i;
	struct pfarg_pmd pd[3];
	uint64_t pmd0, pmd2;

	ck_assert_msg(id >= 0, "no tracefs id for timer:hrtimer_start");
	ck_write_pmc(fd, SW_PMC(0), PFM_SW_PMC_KEYED(PFM_SW_EV_TRACEPOINT, id) | PFM_SW_PMC_OS);
	ck_write_pmc(fd, SW_PMC(1), PFM_SW_PMC(PFM_SW_EV_TASK_CLOCK));
	ck_write_pmc(fd, SW_PMC(2), PFM_SW_PMC_KEYED(PFM_SW_EV_TRACEPOINT, id) | PFM_SW_PMC_OS);
	pmd_init(&pd[0], SW_PMD(0), -1ULL);
	pd[0].reg_short_reset = -1ULL;
	pd[0].reg_long_reset = -1ULL;
	pmd_init(&pd[1], SW_PMD(1), -clock_period);
	pd[1].reg_short_reset = -clock_period;
	pd[1].reg_long_reset = -clock_period;
	pmd_init(&pd[2], SW_PMD(2), 0);
	ck_assert_ok(pfm_write_pmds(fd, pd, sizeof(pd)));
	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	for (i = 0; i < 200; i++)
		nanosleep(&ts, NULL);
	spin_until(thread_cpu_ns() + 3 * clock_period);
	rt = pfm_stop(fd, 0);
	ck_assert_msg(rs == 0 && rt == 0, "start %d, stop %d", rs, rt);
	pmd0 = ck_read_pmd(fd, SW_PMD(0));
	pmd2 = ck_read_pmd(fd, SW_PMD(2));
	ck_assert_uint_ge(pmd2, 200);
	/* reset at each carry, but one that the clock's own re-arming made and waits */
	ck_assert_msg(pmd0 == -1ULL || pmd0 == 0, "pmd0 %#llx of %llu hits",
		      (unsigned long long)pmd0, (unsigned long long)pmd2);
	close(fd);
}
END_TEST

/*
 * The same hits switching sets: each set switches at each overflow of its
 * counter 0 (at -1) and after 1 ms, so that the switch timer is cancelled and
 * started where a hit holds the hrtimer base's lock, and hits of the timer's
 * own calls switch sets again.  Counter 1 of each set counts the hits while its
 * set is active: together, at least the sleeps.
 */
START_TEST(test_tp_hrtimer_sets)
{
	long id = tracefs_event_id("timer", "hrtimer_start");
	struct timespec ts = { .tv_nsec = 200000 };
	int fd = ck_ctx_create(), rs, rt, i;
	struct pfarg_setinfo si[2];
	uint64_t hits = 0;
	unsigned int set;

	ck_assert_msg(id >= 0, "no tracefs id for timer:hrtimer_start");
	for (set = 0; set < 2; set++) {
		struct pfarg_setdesc d = {
			.set_id = set,
			.set_flags = PFM_SETFL_OVFL_SWITCH | PFM_SETFL_TIME_SWITCH,
			.set_timeout = 1000000,
		};
		struct pfarg_pmc pc[2];
		struct pfarg_pmd pd[2];

		ck_assert_ok(pfm_create_evtsets(fd, &d, sizeof(d)));
		for (i = 0; i < 2; i++) {
			pmc_init(&pc[i], SW_PMC(i),
				 PFM_SW_PMC_KEYED(PFM_SW_EV_TRACEPOINT, id) | PFM_SW_PMC_OS);
			pc[i].reg_set = set;
			pmd_init(&pd[i], SW_PMD(i), i ? 0 : -1ULL);
			pd[i].reg_set = set;
		}
		pd[0].reg_short_reset = -1ULL;
		pd[0].reg_flags = PFM_PMDFL_SWITCH;
		pd[0].reg_ovfl_switch_cnt = 1;
		ck_assert_ok(pfm_write_pmcs(fd, pc, sizeof(pc)));
		ck_assert_ok(pfm_write_pmds(fd, pd, sizeof(pd)));
	}
	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	for (i = 0; i < 200; i++)
		nanosleep(&ts, NULL);
	spin_until(thread_cpu_ns() + 3000000);
	rt = pfm_stop(fd, 0);
	ck_assert_msg(rs == 0 && rt == 0, "start %d, stop %d", rs, rt);
	memset(si, 0, sizeof(si));
	si[1].set_id = 1;
	ck_assert_ok(pfm_getinfo_evtsets(fd, si, sizeof(si)));
	for (set = 0; set < 2; set++) {
		struct pfarg_pmd pd;

		pmd_init(&pd, SW_PMD(1), 0);
		pd.reg_set = set;
		ck_assert_ok(pfm_read_pmds(fd, &pd, sizeof(pd)));
		hits += pd.reg_value;
	}
	ck_assert_uint_ge(hits, 200);
	/* each sleep's hit switched at least once */
	ck_assert_msg(si[0].set_runs + si[1].set_runs >= 200, "%llu + %llu runs",
		      (unsigned long long)si[0].set_runs, (unsigned long long)si[1].set_runs);
	close(fd);
}
END_TEST

Suite *pfm_tracepoint_suite(void)
{
	Suite *s = suite_create("tracepoint");
	TCase *tc = pfm_tcase("tracepoint");

	tcase_add_loop_test(tc, test_tp_getppid_exact, 0, ARRAY_SIZE(calls_n));
	tcase_add_test(tc, test_tp_two_keys);
	tcase_add_test(tc, test_tp_bad_keys);
	tcase_add_test(tc, test_tp_hrtimer_lock);
	tcase_add_test(tc, test_tp_hrtimer_sets);
	suite_add_tcase(s, tc);
	return s;
}
