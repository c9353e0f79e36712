// SPDX-License-Identifier: GPL-2.0
/*
 * state: the context state machine.
 *
 *   UNLOADED --load--> LOADED(stopped) --start--> LOADED(started) --stop--> ...
 *   LOADED --unload, or the monitored thread exits--> UNLOADED
 *
 * Wrong-state calls fail (EBUSY or EINVAL) and change nothing; where a state
 * is not visible through a call's result, the syscall counter shows it.
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

START_TEST(test_start_stop_unloaded)
{
	int fd = ck_ctx_create();

	ck_assert_errno(pfm_start(fd, 0), EINVAL);
	ck_assert_errno(pfm_stop(fd, 0), EINVAL);
	close(fd);
}
END_TEST

START_TEST(test_unload_unloaded)
{
	int fd = ck_ctx_create();

	ck_assert_errno(pfm_unload_context(fd, 0), EINVAL);
	close(fd);
}
END_TEST

START_TEST(test_load_self)
{
	int fd = ck_ctx_create();

	ck_assert_ok(pfm_load_context(fd, 0, self_tid()));
	ck_assert_ok(pfm_unload_context(fd, 0));
	close(fd);
}
END_TEST

START_TEST(test_load_twice)
{
	int fd = ck_ctx_create();

	ck_load_self(fd);
	ck_assert_errno(pfm_load_context(fd, 0, self_tid()), EBUSY);
	/* still loaded: unload works once */
	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_assert_errno(pfm_unload_context(fd, 0), EINVAL);
	close(fd);
}
END_TEST

START_TEST(test_load_unknown_flags)
{
	int fd = ck_ctx_create();

	ck_assert_errno(pfm_load_context(fd, 0x1, self_tid()), EINVAL);
	ck_assert_errno(pfm_load_context(fd, (int)0x80000000u, self_tid()),
			EINVAL);
	/* and it stayed unloaded */
	ck_assert_errno(pfm_start(fd, 0), EINVAL);
	close(fd);
}
END_TEST

START_TEST(test_load_no_such_thread)
{
	int fd = ck_ctx_create();

	ck_assert_errno(pfm_load_context(fd, 0, unused_tid()), ESRCH);
	ck_assert_errno(pfm_start(fd, 0), EINVAL);
	close(fd);
}
END_TEST

START_TEST(test_start_stop_cycle)
{
	int fd = ck_ctx_create();

	ck_load_self(fd);
	ck_assert_ok(pfm_start(fd, 0));
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_ok(pfm_start(fd, 0));
	ck_assert_ok(pfm_stop(fd, 0));
	close(fd);
}
END_TEST

/* stopping a stopped context is allowed, just after load too */
START_TEST(test_stop_when_stopped)
{
	int fd = ck_ctx_create();

	ck_load_self(fd);
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_ok(pfm_start(fd, 0));
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_ok(pfm_stop(fd, 0));
	close(fd);
}
END_TEST

START_TEST(test_start_when_started)
{
	int fd = ck_ctx_create();

	ck_load_self(fd);
	ck_assert_ok(pfm_start(fd, 0));
	ck_assert_ok(pfm_start(fd, 0));
	ck_assert_ok(pfm_stop(fd, 0));
	close(fd);
}
END_TEST

START_TEST(test_start_after_unload)
{
	int fd = ck_ctx_create();

	ck_load_self(fd);
	ck_assert_ok(pfm_start(fd, 0));
	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_assert_errno(pfm_start(fd, 0), EINVAL);
	ck_assert_errno(pfm_stop(fd, 0), EINVAL);
	close(fd);
}
END_TEST

START_TEST(test_reload)
{
	int fd = ck_ctx_create();

	ck_load_self(fd);
	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_load_self(fd);
	ck_assert_ok(pfm_start(fd, 0));
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_ok(pfm_unload_context(fd, 0));
	close(fd);
}
END_TEST

START_TEST(test_unknown_ctl_flags)
{
	int fd = syscall_ctx();
	int rt;

	ck_load_self(fd);

	ck_assert_errno(pfm_start(fd, 0x4), EINVAL);
	ck_assert_errno(pfm_start(fd, (int)0x80000000u), EINVAL);
	/* not started: nothing counts */
	do_getppid(10);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 0);

	ck_assert_ok(pfm_start(fd, 0));
	ck_assert_errno(pfm_stop(fd, 0x1), EINVAL);
	ck_assert_errno(pfm_stop(fd, (int)0x80000000u), EINVAL);
	/* not stopped: the failed stops and these count */
	do_getppid(10);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_ge(ck_read_pmd(fd, SW_PMD(0)), 10);

	ck_assert_errno(pfm_unload_context(fd, 0x1), EINVAL);
	ck_assert_errno(pfm_unload_context(fd, (int)0x80000000u), EINVAL);
	/* not unloaded */
	ck_assert_errno(pfm_load_context(fd, 0, self_tid()), EBUSY);
	ck_assert_ok(pfm_unload_context(fd, 0));
	close(fd);
}
END_TEST

/* set 0 always exists; others must have been created */
START_TEST(test_start_set)
{
	int fd = ck_ctx_create();

	ck_load_self(fd);
	ck_assert_ok(pfm_start(fd, PFM_STARTFL_SET, 0));
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_errno(pfm_start(fd, PFM_STARTFL_SET, 5), EINVAL);
	ck_assert_errno(pfm_start(fd, PFM_STARTFL_SET, PFM_MAX_SET_ID), EINVAL);
	close(fd);
}
END_TEST

/* RESTART resumes after an overflow notification; there is none */
START_TEST(test_start_restart_no_notification)
{
	int fd = ck_ctx_create();

	ck_load_self(fd);
	ck_assert_errno(pfm_start(fd, PFM_STARTFL_RESTART), EBUSY);
	close(fd);
}
END_TEST

/* attach leaves monitoring stopped: nothing counts until pfm_start */
START_TEST(test_load_leaves_stopped)
{
	int fd = syscall_ctx();
	int rs, rt;

	ck_load_self(fd);
	do_getppid(100);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 0);

	/* the counter was armed all along */
	rs = pfm_start(fd, 0);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 1);
	close(fd);
}
END_TEST

/* detach leaves monitoring stopped, also across a new attach */
START_TEST(test_unload_stops)
{
	int fd = syscall_ctx();
	uint64_t v;
	int rs, ru;

	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	do_getppid(100);
	ru = pfm_unload_context(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(ru, 0);

	v = ck_read_pmd(fd, SW_PMD(0));
	ck_assert_uint_ge(v, 100);
	do_getppid(100);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), v);

	ck_load_self(fd);
	do_getppid(100);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), v);
	close(fd);
}
END_TEST

#define EXIT_N	500

/*
 * The monitored thread exits while started: the kernel detaches the context
 * and keeps the counts, which the controlling fd still reads (pfmon relies on
 * this).  The exit system call itself may or may not be counted.
 */
START_TEST(test_thread_exit_unloads)
{
	int fd = syscall_ctx();
	int status;
	uint64_t v;
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		/* no check calls here: this process is not a test */
		if (pfm_load_context(fd, 0, gettid()))
			_exit(1);
		if (pfm_start(fd, 0))
			_exit(2);
		do_getppid(EXIT_N);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "child: status %#x (1: load failed, 2: start failed)",
		      status);

	v = ck_read_pmd(fd, SW_PMD(0));
	ck_assert_uint_ge(v, EXIT_N);
	ck_assert_uint_le(v, EXIT_N + 1);

	/* unloaded: start fails, a new attach works */
	ck_assert_errno(pfm_start(fd, 0), EINVAL);
	ck_assert_errno(pfm_unload_context(fd, 0), EINVAL);
	ck_load_self(fd);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), v);
	close(fd);
}
END_TEST

Suite *pfm_state_suite(void)
{
	Suite *s = suite_create("state");
	TCase *tc = pfm_tcase("state");

	tcase_add_test(tc, test_start_stop_unloaded);
	tcase_add_test(tc, test_unload_unloaded);
	tcase_add_test(tc, test_load_self);
	tcase_add_test(tc, test_load_twice);
	tcase_add_test(tc, test_load_unknown_flags);
	tcase_add_test(tc, test_load_no_such_thread);
	tcase_add_test(tc, test_start_stop_cycle);
	tcase_add_test(tc, test_stop_when_stopped);
	tcase_add_test(tc, test_start_when_started);
	tcase_add_test(tc, test_start_after_unload);
	tcase_add_test(tc, test_reload);
	tcase_add_test(tc, test_unknown_ctl_flags);
	tcase_add_test(tc, test_start_set);
	tcase_add_test(tc, test_start_restart_no_notification);
	tcase_add_test(tc, test_load_leaves_stopped);
	tcase_add_test(tc, test_unload_stops);
	tcase_add_test(tc, test_thread_exit_unloads);
	suite_add_tcase(s, tc);
	return s;
}
