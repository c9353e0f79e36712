// SPDX-License-Identifier: GPL-2.0
/*
 * sleepers: a detach gives everything back at once, whatever the monitored thread
 * does.  The thread ran after the attach (so the hook is on it), then sleeps: in
 * pause(), in a blocked read(), or stopped by SIGSTOP.  The controller closes the
 * fd, unloads, or exits; at once the counts in /sys/kernel/perfmon/ and the
 * module's references are back, and the user's charge is free.  Then the thread
 * is woken, runs, and exits normally.
 *
 * "pfm_tests --ran-sleepers" (main.c) leaves such threads asleep for run-suite.sh,
 * which unloads the module while they sleep.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "footprint.h"
#include "users.h"
#include "util.h"
#include "suites.h"

enum sleep_kind { SLEEP_PAUSE, SLEEP_READ, SLEEP_STOP };

static const char *const sleep_name[] = { "pause", "read", "stopped" };

/* The kid, which has just run an order and waits for the next, goes to sleep. */
static int kid_sleep(struct kid *k, enum sleep_kind how)
{
	switch (how) {
	case SLEEP_PAUSE:
		if (kid_order(k, KID_PAUSE))
			return -1;
		return wait_paused(k->pid);
	case SLEEP_READ:
		return 0;
	case SLEEP_STOP:
		if (kill(k->pid, SIGSTOP))
			return -1;
		return wait_stopped(k->pid);
	}
	return -1;
}

/* Back to waiting for an order. */
static int kid_wake(struct kid *k, enum sleep_kind how)
{
	switch (how) {
	case SLEEP_PAUSE:
		if (kill(k->pid, SIGUSR1))
			return -1;
		return wait_blocked_read(k->pid, k->cmd[k->turn][0]);
	case SLEEP_READ:
		return 0;
	case SLEEP_STOP:
		return kill(k->pid, SIGCONT);
	}
	return -1;
}

/* Attached and started, the kid runs 100 getppid and sleeps how. */
static int ran_then_sleeps(struct kid *k, enum sleep_kind how)
{
	int fd = syscall_ctx();

	ck_load(fd, k->pid);
	ck_assert_ok(pfm_start(fd, 0));
	ck_kid_run(k, 100);
	ck_assert_msg(!kid_sleep(k, how), "%s: the kid did not sleep", sleep_name[how]);
	return fd;
}

/* The woken kid counts nothing and exits normally. */
static void ck_kid_wakes(struct kid *k, enum sleep_kind how)
{
	ck_assert_msg(!kid_wake(k, how), "%s: the kid did not wake", sleep_name[how]);
	ck_kid_run(k, 1000);
	ck_kid_run_exit(k, 10);
}

static void closed_while_asleep(enum sleep_kind how)
{
	struct footprint before, attached, after;
	struct kid k = KID_INIT;
	int fd;

	ck_kid_start(&k);
	footprint(&before);
	fd = ran_then_sleeps(&k, how);
	footprint(&attached);
	ck_assert_int_eq(attached.hooks, before.hooks + 1);
	ck_assert_int_eq(attached.contexts, before.contexts + 1);
	/* 100 getppid and the read that fetched the next order (and the pause) */
	ck_assert_uint_eq(count(fd), 100 + 1 + (how == SLEEP_PAUSE));
	ck_assert_ok(close(fd));
	footprint(&after);
	ck_footprint_same(&before, &after, sleep_name[how]);
	ck_kid_wakes(&k, how);
}

START_TEST(test_close_paused)
{
	closed_while_asleep(SLEEP_PAUSE);
}
END_TEST

START_TEST(test_close_blocked_read)
{
	closed_while_asleep(SLEEP_READ);
}
END_TEST

START_TEST(test_close_stopped)
{
	closed_while_asleep(SLEEP_STOP);
}
END_TEST

/* An unload gives the hook and the session back; the open fd keeps its context. */
START_TEST(test_unload_paused)
{
	struct footprint before, after;
	struct kid k = KID_INIT;
	int fd;

	ck_kid_start(&k);
	footprint(&before);
	fd = ran_then_sleeps(&k, SLEEP_PAUSE);
	ck_assert_ok(pfm_unload_context(fd, 0));
	footprint(&after);
	ck_assert_int_eq(after.hooks, before.hooks);
	ck_assert_int_eq(after.sessions, before.sessions);
	ck_assert_int_eq(after.contexts, before.contexts + 1);
	ck_assert_uint_eq(count(fd), 100 + 1 + 1);
	/* and it loads again, on the sleeping kid itself */
	ck_load(fd, k.pid);
	ck_assert_ok(close(fd));
	footprint(&after);
	ck_footprint_same(&before, &after, "unload");
	ck_kid_wakes(&k, SLEEP_PAUSE);
}
END_TEST

/* The controller, a child of ours, attaches to our kid and exits; the kid sleeps. */
struct controller {
	struct kid *k;
	enum sleep_kind how;
};

static void controller_run(void *arg)
{
	struct controller *c = arg;

	child_syscall_ctx_on(c->k->pid);
	child_expect(kid_run(c->k, 100), 0);
	child_expect(kid_sleep(c->k, c->how), 0);
	/* exit closes fd */
}

static void controller_exits(enum sleep_kind how)
{
	struct footprint before, after;
	struct kid k = KID_INIT;
	struct controller c = { .k = &k, .how = how };

	ck_kid_start(&k);
	footprint(&before);
	ck_child("controller", controller_run, &c);
	/* the child's orders moved the pipes on; ours did not */
	k.turn ^= how == SLEEP_PAUSE;
	k.turn ^= 1;
	footprint(&after);
	ck_footprint_same(&before, &after, "controller's exit");
	ck_kid_wakes(&k, how);
}

START_TEST(test_controller_exits_paused)
{
	controller_exits(SLEEP_PAUSE);
}
END_TEST

START_TEST(test_controller_exits_stopped)
{
	controller_exits(SLEEP_STOP);
}
END_TEST

/*
 * A user without CAP_PERFMON at its limit of one context: once closed, the context
 * of a sleeping kid no longer counts, and a new one is created at once.
 */
static void charge_freed(void *arg)
{
	struct kid k = KID_INIT;
	int fd;

	(void)arg;
	child_expect(kid_start(&k), 0);
	child_expect(fd = pfm_create_context(0), 0);
	child_expect(pfm_create_context(0), EMFILE);
	child_expect(pfm_load_context(fd, 0, k.pid), 0);
	child_expect(kid_run(&k, 10), 0);
	child_expect(kid_sleep(&k, SLEEP_PAUSE), 0);
	child_expect(close(fd), 0);
	child_expect(fd = pfm_create_context(0), 0);
	child_expect(pfm_create_context(0), EMFILE);
	child_expect(close(fd), 0);
	child_expect(kid_wake(&k, SLEEP_PAUSE), 0);
	if (kid_run_exit(&k, 10))
		child_fail("the woken kid did not exit normally");
}

START_TEST(test_charge_freed)
{
	struct knob max = { .path = PFM_SYSFS "/ctx_per_user_max" };
	struct run r;

	knob_save(&max);
	ck_assert_ok(sysfs_write(max.path, "1\n"));
	as_user(&r, USER_NOBODY, charge_freed, NULL);
	knob_restore(&max);
	ck_run(&r);
}
END_TEST

/*
 * "pfm_tests --ran-sleepers" (main.c); no check assertions here.  A process that
 * makes no perfmon call itself (the door it would open pins the module) forks
 * kids, and a controller for each, which attaches, lets the kid run, puts it to
 * sleep and exits.  It prints "ready" and waits for SIGUSR1; then it wakes the
 * kids, and exits 0 if each ran and exited normally.
 */
static int ran_sleeper(struct kid *k, enum sleep_kind how)
{
	struct controller c = { .k = k, .how = how };
	int status;
	pid_t pid;

	if (kid_start(k))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		controller_run(&c);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || status)
		return -1;
	k->turn ^= how == SLEEP_PAUSE;
	k->turn ^= 1;
	return 0;
}

int ran_sleepers(void)
{
	struct kid k[] = { KID_INIT, KID_INIT, KID_INIT };
	unsigned int i;
	sigset_t usr1;
	int sig, ret = 0;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	/* No child_report_init(): check's calls need a test running. */
	if (sigprocmask(SIG_BLOCK, &usr1, NULL))
		return 1;
	for (i = 0; i < ARRAY_SIZE(k); i++) {
		if (ran_sleeper(&k[i], (enum sleep_kind)i)) {
			fprintf(stderr, "ran-sleepers: %s: the controller failed\n",
				sleep_name[i]);
			ret = 1;
		}
	}
	printf("ready\n");
	fflush(stdout);
	sigwait(&usr1, &sig);
	for (i = 0; i < ARRAY_SIZE(k); i++) {
		if (k[i].pid > 0 && (kid_wake(&k[i], (enum sleep_kind)i) ||
				     kid_run(&k[i], 1000) || kid_run_exit(&k[i], 10))) {
			fprintf(stderr, "ran-sleepers: the %s kid did not wake and exit\n",
				sleep_name[i]);
			ret = 1;
		}
	}
	return ret;
}

Suite *pfm_sleepers_suite(void)
{
	Suite *s = suite_create("sleepers");
	TCase *tc = pfm_tcase("sleepers");

	tcase_add_test(tc, test_close_paused);
	tcase_add_test(tc, test_close_blocked_read);
	tcase_add_test(tc, test_close_stopped);
	tcase_add_test(tc, test_unload_paused);
	tcase_add_test(tc, test_controller_exits_paused);
	tcase_add_test(tc, test_controller_exits_stopped);
	tcase_add_test(tc, test_charge_freed);
	suite_add_tcase(s, tc);
	return s;
}
