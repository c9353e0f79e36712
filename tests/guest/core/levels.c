// SPDX-License-Identifier: GPL-2.0
/*
 * levels: counting at user and kernel level with the software PMU's USR and
 * OS bits, and who may count at kernel level.
 *
 * The workload has a known number of faults at each level: U fresh pages
 * touched from user mode (user-level faults) and K fresh pages filled by one
 * read() of /dev/zero (faults the kernel takes in copy-out: kernel level).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "users.h"
#include "util.h"
#include "suites.h"

#define PFM_PARANOID	PFM_SYSFS "/paranoid"

#define U		48	/* pages faulted at user level */
#define K		24	/* pages faulted at kernel level */

#define USR		PFM_SW_PMC_USR
#define OS		PFM_SW_PMC_OS
#define PMC(ev, lvl)	((uint64_t)(ev) | PFM_SW_PMC_EN | (lvl))

/* Counter i counts cases[i].ev at cases[i].lvl; its count must be cases[i].want. */
struct level_case {
	int ev;
	uint64_t lvl;
	uint64_t want;
};

/*
 * The workload, between start and stop: U user faults, K kernel faults and
 * one system call (the read; the stop is a second one).  Returns what read()
 * returned; nothing here may assert.
 */
static ssize_t fault_both_levels(int fd, int zero, char *upages, char *kpages)
{
	ssize_t n;

	pfm_start(fd, 0);
	touch_pages(upages, U);
	n = read(zero, kpages, K * page_size());
	pfm_stop(fd, 0);
	return n;
}

static const struct level_case fault_cases[] = {
	{ PFM_SW_EV_PAGE_FAULTS, USR, U },
	{ PFM_SW_EV_PAGE_FAULTS, OS, K },
	{ PFM_SW_EV_PAGE_FAULTS, USR | OS, U + K },
	{ PFM_SW_EV_PAGE_FAULTS, 0, 0 },
	{ PFM_SW_EV_SYSCALLS, USR, 2 },
	{ PFM_SW_EV_SYSCALLS, OS, 0 },
	{ PFM_SW_EV_SYSCALLS, USR | OS, 2 },
	{ PFM_SW_EV_CTX_SWITCHES, 0, 0 },
};

/*
 * In the calling process: counts the workload with fault_cases; returns 0 or
 * fails the child (this runs as other users too).
 */
static void count_levels(void *arg)
{
	struct pfarg_pmc pc[ARRAY_SIZE(fault_cases)];
	struct pfarg_pmd pd[ARRAY_SIZE(fault_cases)];
	char *upages, *kpages;
	int fd, zero, i, n = ARRAY_SIZE(fault_cases);
	ssize_t got;

	(void)arg;
	upages = mmap(NULL, (U + K) * page_size(), PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (upages == MAP_FAILED)
		child_fail("mmap: %s", strerror(errno));
	/* a huge page would serve many first touches with one fault */
	child_expect(madvise(upages, (U + K) * page_size(), MADV_NOHUGEPAGE), 0);
	kpages = upages + U * page_size();
	child_expect(zero = open("/dev/zero", O_RDONLY), 0);
	child_expect(fd = pfm_create_context(0), 0);
	for (i = 0; i < n; i++) {
		pmc_init(&pc[i], SW_PMC(i), PMC(fault_cases[i].ev, fault_cases[i].lvl));
		pmd_init(&pd[i], SW_PMD(i), 0);
	}
	child_expect(pfm_write_pmcs(fd, pc, sizeof(pc)), 0);
	child_expect(pfm_write_pmds(fd, pd, sizeof(pd)), 0);
	child_expect(pfm_load_context(fd, 0, gettid()), 0);

	got = fault_both_levels(fd, zero, upages, kpages);
	if (got != K * page_size())
		child_fail("read(/dev/zero) gave %zd", got);

	child_expect(pfm_read_pmds(fd, pd, sizeof(pd)), 0);
	for (i = 0; i < n; i++)
		if (pd[i].reg_value != fault_cases[i].want)
			child_fail("event %d at level %#llx counted %llu, not %llu",
				   fault_cases[i].ev,
				   (unsigned long long)fault_cases[i].lvl,
				   (unsigned long long)pd[i].reg_value,
				   (unsigned long long)fault_cases[i].want);
	close(fd);
	close(zero);
	munmap(upages, (U + K) * page_size());
}

/* Faults at each level, counted by root. */
START_TEST(test_fault_levels)
{
	struct run r;

	as_user(&r, ROOT, count_levels, NULL);
	ck_run(&r);
}
END_TEST

/* Time and switches belong to no level: either bit counts them. */
START_TEST(test_levelless_events)
{
	static const uint64_t lvl[] = { USR, OS, USR | OS };
	int fd = ck_ctx_create();
	uint64_t t[3];
	int i;

	for (i = 0; i < 3; i++) {
		ck_write_pmc(fd, SW_PMC(i), PMC(PFM_SW_EV_TASK_CLOCK, lvl[i]));
		ck_write_pmd(fd, SW_PMD(i), 0);
		ck_write_pmc(fd, SW_PMC(3 + i), PMC(PFM_SW_EV_CTX_SWITCHES, lvl[i]));
		ck_write_pmd(fd, SW_PMD(3 + i), 0);
	}
	ck_load_self(fd);
	ck_assert_ok(pfm_start(fd, 0));
	spin_until(thread_cpu_ns() + 20 * NSEC_PER_MSEC);
	usleep(2000);			/* blocks: at least one switch */
	ck_assert_ok(pfm_stop(fd, 0));
	for (i = 0; i < 3; i++) {
		t[i] = ck_read_pmd(fd, SW_PMD(i));
		ck_assert_msg(t[i] >= 20 * NSEC_PER_MSEC, "task-clock at %#llx: %llu ns",
			      (unsigned long long)lvl[i], (unsigned long long)t[i]);
		ck_assert_uint_ge(ck_read_pmd(fd, SW_PMD(3 + i)), 1);
	}
	close(fd);
}
END_TEST

/*
 * Without privilege: OS is refused with EPERM, alone or in a vector, and the
 * refused vector changed nothing; USR alone is fine.
 */
static void os_refused(void *arg)
{
	struct pfarg_pmc pc[2];
	struct pfarg_pmd pd;
	int fd;

	(void)arg;
	child_expect(fd = pfm_create_context(0), 0);
	pmc_init(&pc[0], SW_PMC(0), PMC(PFM_SW_EV_SYSCALLS, USR));
	pmc_init(&pc[1], SW_PMC(1), PMC(PFM_SW_EV_PAGE_FAULTS, OS));
	child_expect(pfm_write_pmcs(fd, &pc[1], sizeof(pc[1])), EPERM);
	pc[1].reg_value = PMC(PFM_SW_EV_TASK_CLOCK, USR | OS);
	child_expect(pfm_write_pmcs(fd, pc, sizeof(pc)), EPERM);
	/* counter 0 was not programmed by the refused vector */
	child_expect(pfm_load_context(fd, 0, gettid()), 0);
	child_expect(pfm_start(fd, 0), 0);
	getppid();
	child_expect(pfm_stop(fd, 0), 0);
	pmd_init(&pd, SW_PMD(0), 0);
	child_expect(pfm_read_pmds(fd, &pd, sizeof(pd)), 0);
	if (pd.reg_value)
		child_fail("a refused vector programmed counter 0: %llu",
			   (unsigned long long)pd.reg_value);
	/* user level alone needs nothing */
	child_expect(pfm_write_pmcs(fd, pc, sizeof(pc[0])), 0);
	close(fd);
}

START_TEST(test_os_refused)
{
	struct run r;

	as_user(&r, USER_NOBODY, os_refused, NULL);
	ck_run(&r);
	as_user(&r, USER_PTRACE, os_refused, NULL);
	ck_run(&r);
	as_user(&r, USER_IPC_LOCK, os_refused, NULL);
	ck_run(&r);
}
END_TEST

/* CAP_PERFMON, or CAP_SYS_ADMIN, may count at kernel level, and the counts are right. */
START_TEST(test_os_with_capability)
{
	struct run r;

	as_user(&r, USER_PERFMON, count_levels, NULL);
	ck_run(&r);
	as_user(&r, USER_ADMIN, count_levels, NULL);
	ck_run(&r);
}
END_TEST

static struct knob paranoid = { .path = PFM_PARANOID };

static void paranoid_save(void)
{
	knob_save(&paranoid);
}

static void paranoid_restore(void)
{
	knob_restore(&paranoid);
}

/* paranoid below 2 opens kernel level to all; 2 closes it again. */
START_TEST(test_os_paranoid)
{
	struct run r[3];

	ck_assert_ok(sysfs_write(PFM_PARANOID, "1\n"));
	as_user(&r[0], USER_NOBODY, count_levels, NULL);
	ck_assert_ok(sysfs_write(PFM_PARANOID, "0\n"));
	as_user(&r[1], USER_NOBODY, count_levels, NULL);
	ck_assert_ok(sysfs_write(PFM_PARANOID, "2\n"));
	as_user(&r[2], USER_NOBODY, os_refused, NULL);
	paranoid_restore();
	ck_run(&r[0]);
	ck_run(&r[1]);
	ck_run(&r[2]);
}
END_TEST

Suite *pfm_levels_suite(void)
{
	Suite *s = suite_create("levels");
	TCase *tc = pfm_tcase("levels");

	tcase_add_unchecked_fixture(tc, paranoid_save, paranoid_restore);
	tcase_add_test(tc, test_fault_levels);
	tcase_add_test(tc, test_levelless_events);
	tcase_add_test(tc, test_os_refused);
	tcase_add_test(tc, test_os_with_capability);
	tcase_add_test(tc, test_os_paranoid);
	suite_add_tcase(s, tc);
	return s;
}
