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
#include <sys/syscall.h>
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

Suite *pfm_tracepoint_suite(void)
{
	Suite *s = suite_create("tracepoint");
	TCase *tc = pfm_tcase("tracepoint");

	tcase_add_loop_test(tc, test_tp_getppid_exact, 0, ARRAY_SIZE(calls_n));
	tcase_add_test(tc, test_tp_two_keys);
	tcase_add_test(tc, test_tp_bad_keys);
	suite_add_tcase(s, tc);
	return s;
}
