// SPDX-License-Identifier: GPL-2.0
/*
 * tp_filter: pfm_write_pmc_filter(), a trace event filter on a native session's
 * TRACEPOINT counter (the trace layer's call): the filtered counter counts
 * exactly the hits that pass, a refused call changes nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

static uint64_t getppid_pmc(void)
{
	long id = tracefs_syscall_id("sys_enter_getppid");

	ck_assert_msg(id >= 0, "no tracefs id for syscalls:sys_enter_getppid");
	return PFM_SW_PMC_KEYED(PFM_SW_EV_TRACEPOINT, id);
}

/* counter 0's count of n getppid() */
static uint64_t count_getppid(int fd, long n)
{
	int rs, rt;

	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	do_getppid(n);
	rt = pfm_stop(fd, 0);
	ck_assert_msg(rs == 0 && rt == 0, "start %d, stop %d", rs, rt);
	return ck_read_pmd(fd, SW_PMD(0));
}

/*
 * A filter on the caller's pid lets its 1000 calls through, one on pid 1 none; on
 * counter 1 beside it, the same id unfiltered counts them all.
 */
START_TEST(test_tp_filter_pid)
{
	int fd = ck_ctx_create();
	struct pfarg_pmc pc;
	char f[64];

	snprintf(f, sizeof(f), _i ? "common_pid == 1" : "common_pid == %d", getpid());
	pmc_init(&pc, SW_PMC(0), getppid_pmc());
	ck_assert_ok(pfm_write_pmc_filter(fd, &pc, f));
	ck_write_pmc(fd, SW_PMC(1), getppid_pmc());
	ck_assert_uint_eq(count_getppid(fd, 1000), _i ? 0 : 1000);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), 1000);
	close(fd);
}
END_TEST

/*
 * Each bad input: its errno, and counter 0 still counts every call, as written
 * before (unfiltered).
 */
START_TEST(test_tp_filter_refused)
{
	int fd = ck_ctx_create();
	struct pfarg_pmc pc, bad;
	char big[5000];

	ck_write_pmc(fd, SW_PMC(0), getppid_pmc());
	pmc_init(&pc, SW_PMC(0), getppid_pmc());
	ck_assert_errno(pfm_write_pmc_filter(-1, &pc, "common_pid != 0"), EBADF);
	ck_assert_errno(pfm_write_pmc_filter(fd, NULL, "common_pid != 0"), EFAULT);
	ck_assert_errno(pfm_write_pmc_filter(fd, &pc, (const char *)8), EFAULT);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_errno(pfm_write_pmc_filter(fd, &pc, big), EINVAL);
	/* the kernel parser's errnos, as perf's SET_FILTER gets them */
	ck_assert_errno(pfm_write_pmc_filter(fd, &pc, "nosuchfield == 1"), EINVAL);
	ck_assert_errno(pfm_write_pmc_filter(fd, &pc, "bad (("), ENOENT);
	/* not a software PMC, not TRACEPOINT, a filtered key, an unknown set */
	pmc_init(&bad, 0, getppid_pmc());
	ck_assert_errno(pfm_write_pmc_filter(fd, &bad, "common_pid != 0"), EINVAL);
	pmc_init(&bad, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_assert_errno(pfm_write_pmc_filter(fd, &bad, "common_pid != 0"), EINVAL);
	pmc_init(&bad, SW_PMC(0), PFM_SW_PMC_KEYED(PFM_SW_EV_TRACEPOINT, PFM_SW_TP_FILTERED | 7));
	ck_assert_errno(pfm_write_pmc_filter(fd, &bad, "common_pid != 0"), EINVAL);
	pc.reg_set = 5;
	ck_assert_errno(pfm_write_pmc_filter(fd, &pc, "common_pid != 0"), EINVAL);
	ck_assert_uint_eq(count_getppid(fd, 300), 300);
	close(fd);
}
END_TEST

/* A PMC written through one filter, then another: the second counts. */
START_TEST(test_tp_filter_written_twice)
{
	int fd = ck_ctx_create();
	struct pfarg_pmc pc;

	pmc_init(&pc, SW_PMC(0), getppid_pmc());
	ck_assert_ok(pfm_write_pmc_filter(fd, &pc, "common_pid == 1"));
	/* written again through another filter: the new one stands */
	ck_assert_ok(pfm_write_pmc_filter(fd, &pc, "common_pid != 1"));
	ck_assert_uint_eq(count_getppid(fd, 700), 700);
	close(fd);
}
END_TEST

Suite *pfm_tp_filter_suite(void)
{
	Suite *s = suite_create("tp_filter");
	TCase *tc = pfm_tcase("tp_filter");

	tcase_add_loop_test(tc, test_tp_filter_pid, 0, 2);
	tcase_add_test(tc, test_tp_filter_refused);
	tcase_add_test(tc, test_tp_filter_written_twice);
	suite_add_tcase(s, tc);
	return s;
}
