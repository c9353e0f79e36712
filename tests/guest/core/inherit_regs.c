// SPDX-License-Identifier: GPL-2.0
/*
 * inherit_regs: what an inheritor has of its opened context's registers and sets
 * (perfmon.h, INHERITANCE): the sets, each switched by the inheritor's own
 * timeouts (set 0's too) and folded set by set, and the PMC writes made after
 * its fork.
 *
 * As in inherit.c, the children make their system calls with syscall(), so that
 * the counts are exact.  Two counters count the system calls alike until a PMC
 * write disables the second: their difference is what the family made after the
 * write, the child's part included only if the write reached its inheritor.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <sys/syscall.h>

#include "util.h"
#include "suites.h"

#define INH_CONTEXTS	"/sys/kernel/perfmon/inherit_contexts_count"

/* The PMC request that disables counter 1 of set 0 (its event kept). */
static void pmc_disable_1(struct pfarg_pmc *pc)
{
	pmc_init(pc, SW_PMC(1), PFM_SW_PMC(PFM_SW_EV_SYSCALLS) & ~PFM_SW_PMC_EN);
}

/*
 * A child forked while both counters count waits in a read; the opened context's
 * PMC write then disables counter 1, and the child makes k getppid() and exits.
 * _i 0: the write alone; 1: with a request for a set nobody has, which fails the
 * write (EINVAL) and changes nothing, in the opened context or the inheritor.
 * The checks wait for the stop: each one writes to the test runner's pipe.
 */
START_TEST(test_pmc_write_reaches_inheritor)
{
	const long k = 2000;
	struct pfarg_pmc pc[2];
	int fd = pfm_create_context(PFM_FL_INHERIT), go[2], rs, rt, rw, ew;
	uint64_t c0, c1;
	pid_t pid;
	char c;

	ck_assert_int_ge(fd, 0);
	ck_counter(fd, 0, PFM_SW_EV_SYSCALLS);
	ck_counter(fd, 1, PFM_SW_EV_SYSCALLS);
	ck_load_self(fd);
	ck_assert_ok(pipe(go));
	pmc_disable_1(&pc[0]);
	pmc_init(&pc[1], SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS));
	pc[1].reg_set = 7;
	rs = pfm_start(fd, 0);
	pid = raw_fork();
	if (!pid) {
		syscall(SYS_read, go[0], &c, 1);
		do_getppid(k);
		raw_exit();
	}
	if (wait_blocked_read(pid, go[0]))
		kill(pid, SIGKILL);
	errno = 0;
	rw = pfm_write_pmcs(fd, pc, (_i + 1) * sizeof(pc[0]));
	ew = errno;
	syscall(SYS_write, go[1], "g", 1);
	raw_wait(pid);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_int_eq(rw, _i ? -1 : 0);
	ck_assert_int_eq(ew, _i ? EINVAL : 0);
	c0 = ck_read_pmd(fd, SW_PMD(0));
	c1 = ck_read_pmd(fd, SW_PMD(1));
	/* after the write: the parent's write(), wait4() and stop; the child's k and exit */
	ck_assert_uint_eq(c0 - c1, _i ? 0 : 3 + k + 1);
	close(fd);
	close(go[0]);
	close(go[1]);
	ck_assert_int_eq(wait_sysfs_long(INH_CONTEXTS, 0), 0);
}
END_TEST

/*
 * A loaded PFM_FL_INHERIT context of two sets switched after timeout ns of
 * their live time, each counting the system calls on counter 0.
 */
static int two_sets_self(uint64_t timeout)
{
	struct pfarg_setdesc sd[2] = {
		{ .set_id = 0, .set_flags = PFM_SETFL_TIME_SWITCH, .set_timeout = timeout },
		{ .set_id = 1, .set_flags = PFM_SETFL_TIME_SWITCH, .set_timeout = timeout },
	};
	int fd = pfm_create_context(PFM_FL_INHERIT);
	struct pfarg_pmc pc;
	struct pfarg_pmd pd;

	ck_assert_int_ge(fd, 0);
	ck_assert_ok(pfm_create_evtsets(fd, sd, sizeof(sd)));
	ck_counter(fd, 0, PFM_SW_EV_SYSCALLS);
	pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	pc.reg_set = 1;
	ck_assert_ok(pfm_write_pmcs(fd, &pc, sizeof(pc)));
	pmd_init(&pd, SW_PMD(0), 0);
	pd.reg_set = 1;
	ck_assert_ok(pfm_write_pmds(fd, &pd, sizeof(pd)));
	ck_load_self(fd);
	return fd;
}

/* Counter 0 of both sets of two_sets_self()'s context. */
static void read_two_sets(int fd, struct pfarg_pmd pd[2])
{
	int i;

	for (i = 0; i < 2; i++) {
		pmd_init(&pd[i], SW_PMD(0), 0);
		pd[i].reg_set = i;
	}
	ck_assert_ok(pfm_read_pmds(fd, pd, 2 * sizeof(pd[0])));
}

/*
 * Two sets, switched every 100 us of their live time, count the system calls on
 * counter 0 alike: whatever set was active, each call is counted once, so the sets
 * add up to the exact count of the family.  The children's calls are most of it,
 * made while the parent sleeps in wait4() and switches nothing: each child
 * switches its own sets (both sets count a share of its calls) and is folded set
 * by set, and both sets' durations hold the children's time.
 */
START_TEST(test_sets_inherited)
{
	const int n = 2;
	const long k = 100000;
	struct pfarg_setinfo si[2] = { { .set_id = 0 }, { .set_id = 1 } };
	int fd = two_sets_self(100000), rs, rt;
	struct pfarg_pmd pd[2];
	pid_t pid[2];

	rs = pfm_start(fd, 0);
	raw_children(pid, n, k);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	read_two_sets(fd, pd);
	ck_assert_ok(pfm_getinfo_evtsets(fd, si, sizeof(si)));
	/* each fork and wait4, each child's k and exit_group, the stop */
	ck_assert_uint_eq(pd[0].reg_value + pd[1].reg_value, n + n + n * (k + 1) + 1);
	ck_assert_msg(pd[0].reg_value > k / 10 && pd[1].reg_value > k / 10,
		      "the sets' shares: %llu, %llu", (unsigned long long)pd[0].reg_value,
		      (unsigned long long)pd[1].reg_value);
	ck_assert_msg(si[0].set_act_duration > 0 && si[1].set_act_duration > 0,
		      "the sets' durations: %llu, %llu",
		      (unsigned long long)si[0].set_act_duration,
		      (unsigned long long)si[1].set_act_duration);
	close(fd);
	ck_assert_int_eq(wait_sysfs_long(INH_CONTEXTS, 0), 0);
}
END_TEST

/*
 * The inheritors start in the sets in turn (perfmon.h, INHERITANCE): with
 * timeouts far longer than the children live, each child counts all its
 * system calls in its first set, children 0 and 2 in set 0 and children 1 and 3
 * in set 1; the parent, in set 0 all along, counts its forks, waits and the stop.
 */
START_TEST(test_first_sets_in_turn)
{
	const int n = 4;
	const long k = 1000;
	int fd = two_sets_self(10000000000ULL), i, rs, rt;
	struct pfarg_pmd pd[2];
	pid_t pid;

	rs = pfm_start(fd, 0);
	/* one child at a time: each lives in the sets' first timeout */
	for (i = 0; i < n; i++) {
		pid = raw_fork();
		if (!pid) {
			do_getppid(k);
			raw_exit();
		}
		raw_wait(pid);
	}
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs | rt, 0);
	read_two_sets(fd, pd);
	/* each child's k and exit_group; the parent's forks and wait4s, the stop */
	ck_assert_uint_eq(pd[1].reg_value, n / 2 * (k + 1));
	ck_assert_uint_eq(pd[0].reg_value, n / 2 * (k + 1) + n + n + 1);
	close(fd);
	ck_assert_int_eq(wait_sysfs_long(INH_CONTEXTS, 0), 0);
}
END_TEST

Suite *pfm_inherit_regs_suite(void)
{
	Suite *s = suite_create("inherit_regs");
	TCase *tc = tcase_create("inherit_regs");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_pmc_write_reaches_inheritor, 0, 2);
	tcase_add_test(tc, test_sets_inherited);
	tcase_add_test(tc, test_first_sets_in_turn);
	suite_add_tcase(s, tc);
	return s;
}
