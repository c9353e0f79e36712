// SPDX-License-Identifier: GPL-2.0
/*
 * attach: per-thread contexts on threads of other processes.
 *
 * The monitored thread is a forked child (struct kid, util.h) that blocks on
 * a pipe between orders, so the counts are exact: an attached thread hooks
 * itself when it next returns to user mode, and the read it was blocked in
 * had been entered before, so it is not counted; the read of its next order
 * is.  The test process (the controller) makes no call that the kid counts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

/* The target need not be stopped or traced; counting starts on its wakeup. */
START_TEST(test_remote_count_exact)
{
	struct kid k = KID_INIT;
	int fd = syscall_ctx();

	ck_kid_start(&k);
	ck_load(fd, k.pid);
	ck_assert_ok(pfm_start(fd, 0));
	ck_kid_run(&k, 1000);
	ck_assert_ok(pfm_stop(fd, 0));
	/* 1000 getppid and the read of the next order */
	ck_assert_uint_eq(count(fd), 1000 + 1);

	/* stopped: the kid's calls do not count */
	ck_kid_run(&k, 200);
	ck_assert_uint_eq(count(fd), 1000 + 1);

	ck_assert_ok(pfm_start(fd, 0));
	ck_kid_run(&k, 300);
	/* a read while started: the controller's own calls never count */
	ck_assert_uint_eq(count(fd), 1000 + 1 + 300 + 1);
	ck_kid_run(&k, 0);
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_uint_eq(count(fd), 1000 + 1 + 300 + 1 + 1);

	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_kid_run_exit(&k, 0);
	close(fd);
}
END_TEST

/* Loaded but not started when the kid wakes: it hooks itself, counts nothing. */
START_TEST(test_remote_load_then_start_later)
{
	struct kid k = KID_INIT;
	int fd = syscall_ctx();

	ck_kid_start(&k);
	ck_load(fd, k.pid);
	ck_kid_run(&k, 100);
	ck_assert_uint_eq(count(fd), 0);
	ck_assert_ok(pfm_start(fd, 0));
	ck_kid_run(&k, 100);
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_uint_eq(count(fd), 100 + 1);
	ck_kid_run_exit(&k, 0);
	close(fd);
}
END_TEST

/* Attaching to a thread that runs user code: it is kicked into the kernel. */
START_TEST(test_remote_spinning)
{
	struct kid k = KID_INIT;
	struct timespec t0, t1;
	uint64_t ns, window;
	int fd = ck_ctx_create();

	ck_counter(fd, 0, PFM_SW_EV_TASK_CLOCK);
	ck_kid_start(&k);
	/* the kid loops in user mode from now on: it never enters the kernel */
	ck_assert_ok(kid_order(&k, KID_SPIN));
	usleep(20000);
	ck_load(fd, k.pid);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_ok(pfm_start(fd, 0));
	usleep(200000);
	ck_assert_ok(pfm_stop(fd, 0));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = count(fd);
	kid_kill(&k);
	window = (t1.tv_sec - t0.tv_sec) * 1000000000ULL + t1.tv_nsec - t0.tv_nsec;
	/*
	 * One thread cannot run longer than the window; with two CPUs and the
	 * controller asleep it runs for most of it.  The task clock is the
	 * scheduler's clock and the window CLOCK_MONOTONIC: where the TSC is
	 * unstable (QEMU TCG) the first is only kept within a tick of the second
	 * (once 0.43 ms over a 220 ms window), so 10 ms are allowed past it.
	 */
	ck_assert_msg(ns >= 20 * NSEC_PER_MSEC && ns <= window + 10 * NSEC_PER_MSEC,
		      "task clock %llu ns in a %llu ns window",
		      (unsigned long long)ns, (unsigned long long)window);
	close(fd);
}
END_TEST

/* A kernel thread (kthreadd) cannot be monitored. */
START_TEST(test_load_kernel_thread)
{
	char comm[64];
	int fd = syscall_ctx();

	ck_assert_ok(sysfs_read("/proc/2/comm", comm, sizeof(comm)));
	ck_assert_str_eq(comm, "kthreadd\n");
	ck_assert_errno(pfm_load_context(fd, 0, 2), EPERM);
	ck_assert_errno(pfm_start(fd, 0), EINVAL);
	close(fd);
}
END_TEST

/*
 * A load racing its target's exit: the child is reaped as it exits (SIGCHLD
 * ignored), so its proc entry can go between the load's lookup and its access
 * check.  Attached or ESRCH, never a refusal (EACCES) or any other errno.
 */
#define RACE_TRIES	300

START_TEST(test_load_racing_exit)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int i, ok = 0, gone = 0, other = 0, other_err = 0;

	ck_assert_ok(sigaction(SIGCHLD, &ign, &old));
	for (i = 0; i < RACE_TRIES; i++) {
		int fd = syscall_ctx();
		pid_t pid = fork();

		if (!pid)
			_exit(0);
		ck_assert_int_gt(pid, 0);
		if (!pfm_load_context(fd, 0, pid)) {
			ok++;
		} else if (errno == ESRCH) {
			gone++;
		} else {
			other++;
			other_err = errno;
		}
		close(fd);
	}
	sigaction(SIGCHLD, &old, NULL);
	printf("load racing exit: %d attached, %d ESRCH, %d other\n", ok, gone, other);
	ck_assert_msg(!other, "%d of %d loads racing the target's exit failed otherwise, "
		      "last with %s", other, RACE_TRIES, strerror(other_err));
}
END_TEST

START_TEST(test_load_no_such_tid)
{
	int fd = syscall_ctx();

	ck_assert_errno(pfm_load_context(fd, 0, unused_tid()), ESRCH);
	ck_assert_errno(pfm_start(fd, 0), EINVAL);
	close(fd);
}
END_TEST

/* root may monitor another user's thread (CAP_SYS_PTRACE) */
START_TEST(test_root_loads_other_user)
{
	struct kid k = KID_INIT;
	int fd = syscall_ctx();

	k.uid = 65534;
	k.gid = 65534;
	ck_kid_start(&k);
	ck_load(fd, k.pid);
	ck_assert_ok(pfm_start(fd, 0));
	ck_kid_run_exit(&k, 50);
	ck_assert_uint_eq(count(fd), 50 + 1);
	close(fd);
}
END_TEST

/* One context per thread: a second one on the same thread is refused. */
START_TEST(test_eexist_remote)
{
	struct kid k = KID_INIT;
	int a = syscall_ctx(), b = syscall_ctx();

	ck_kid_start(&k);
	ck_load(a, k.pid);
	ck_assert_errno(pfm_load_context(b, 0, k.pid), EEXIST);
	/* b stayed unloaded, a is untouched and counts */
	ck_assert_errno(pfm_start(b, 0), EINVAL);
	ck_assert_ok(pfm_start(a, 0));
	ck_kid_run(&k, 10);
	ck_assert_ok(pfm_stop(a, 0));
	ck_assert_uint_eq(count(a), 10 + 1);
	ck_assert_uint_eq(count(b), 0);

	/* once a is off the thread, b may go on */
	ck_assert_ok(pfm_unload_context(a, 0));
	ck_load(b, k.pid);
	ck_assert_errno(pfm_load_context(a, 0, k.pid), EEXIST);
	ck_assert_ok(pfm_start(b, 0));
	ck_kid_run(&k, 20);
	ck_assert_ok(pfm_stop(b, 0));
	ck_assert_uint_eq(count(b), 20 + 1);
	ck_assert_uint_eq(count(a), 10 + 1);
	ck_kid_run_exit(&k, 0);
	close(a);
	close(b);
}
END_TEST

START_TEST(test_eexist_self)
{
	int a = syscall_ctx(), b = syscall_ctx();

	ck_load_self(a);
	ck_assert_errno(pfm_load_context(b, 0, self_tid()), EEXIST);
	ck_assert_errno(pfm_start(b, 0), EINVAL);
	ck_assert_ok(pfm_unload_context(a, 0));
	ck_load_self(b);
	ck_assert_ok(pfm_unload_context(b, 0));
	close(a);
	close(b);
}
END_TEST

/*
 * Detach while the thread is blocked: the counts freeze, and the context is
 * free to go to another thread at once.
 */
START_TEST(test_detach_reattach_other)
{
	struct kid k1 = KID_INIT, k2 = KID_INIT;
	int fd = syscall_ctx();

	ck_kid_start(&k1);
	ck_kid_start(&k2);
	ck_load(fd, k1.pid);
	ck_assert_ok(pfm_start(fd, 0));
	ck_kid_run(&k1, 400);
	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_assert_uint_eq(count(fd), 400 + 1);
	ck_assert_errno(pfm_start(fd, 0), EINVAL);

	/* k1 goes on unmonitored: the counts do not move */
	ck_kid_run(&k1, 300);
	ck_assert_uint_eq(count(fd), 400 + 1);

	ck_load(fd, k2.pid);
	ck_write_pmd(fd, SW_PMD(0), 0);
	ck_assert_ok(pfm_start(fd, 0));
	ck_kid_run(&k2, 700);
	ck_kid_run(&k1, 100);		/* not k1 any more */
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_uint_eq(count(fd), 700 + 1);

	ck_kid_run_exit(&k1, 0);
	ck_kid_run_exit(&k2, 0);
	ck_assert_uint_eq(count(fd), 700 + 1);
	close(fd);
}
END_TEST

/* Back onto the same thread at once, before it has run since the detach. */
START_TEST(test_detach_reattach_same)
{
	struct kid k = KID_INIT;
	int fd = syscall_ctx();

	ck_kid_start(&k);
	ck_load(fd, k.pid);
	ck_assert_ok(pfm_start(fd, 0));
	ck_kid_run(&k, 100);
	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_assert_uint_eq(count(fd), 100 + 1);

	ck_load(fd, k.pid);
	ck_write_pmd(fd, SW_PMD(0), 0);
	ck_assert_ok(pfm_start(fd, 0));
	ck_kid_run(&k, 250);
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_uint_eq(count(fd), 250 + 1);

	/* and once more, the kid having run the detach in between */
	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_kid_run(&k, 10);
	ck_load(fd, k.pid);
	ck_assert_ok(pfm_start(fd, 0));
	ck_kid_run_exit(&k, 30);
	ck_assert_uint_eq(count(fd), 250 + 1 + 30 + 1);
	close(fd);
}
END_TEST

/* A context detached from one kid while a second context attaches to it. */
START_TEST(test_detach_then_other_ctx)
{
	struct kid k = KID_INIT;
	int a = syscall_ctx(), b = syscall_ctx();

	ck_kid_start(&k);
	ck_load(a, k.pid);
	ck_assert_ok(pfm_start(a, 0));
	ck_assert_ok(pfm_unload_context(a, 0));
	/* a's hook is still on the kid, dead: it must not block b */
	ck_load(b, k.pid);
	ck_assert_ok(pfm_start(b, 0));
	ck_kid_run(&k, 60);
	ck_assert_ok(pfm_stop(b, 0));
	ck_assert_uint_eq(count(a), 0);
	ck_assert_uint_eq(count(b), 60 + 1);
	ck_kid_run_exit(&k, 0);
	close(a);
	close(b);
}
END_TEST

Suite *pfm_attach_suite(void)
{
	Suite *s = suite_create("attach");
	TCase *tc = pfm_tcase("attach");

	tcase_add_test(tc, test_remote_count_exact);
	tcase_add_test(tc, test_remote_load_then_start_later);
	tcase_add_test(tc, test_remote_spinning);
	tcase_add_test(tc, test_load_kernel_thread);
	tcase_add_test(tc, test_load_no_such_tid);
	tcase_add_test(tc, test_load_racing_exit);
	tcase_add_test(tc, test_root_loads_other_user);
	tcase_add_test(tc, test_eexist_remote);
	tcase_add_test(tc, test_eexist_self);
	tcase_add_test(tc, test_detach_reattach_other);
	tcase_add_test(tc, test_detach_reattach_same);
	tcase_add_test(tc, test_detach_then_other_ctx);
	suite_add_tcase(s, tc);
	return s;
}
