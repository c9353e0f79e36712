// SPDX-License-Identifier: GPL-2.0
/*
 * attach_races: a load on another process's thread while that thread exits, at
 * the two points of the attach where the exit used to find a hook half made:
 * mapped but ctx not yet attached through it, and attached but the thread not yet
 * told; and a load whose context's last close comes in the middle of the call.  The debug kernel holds each window open for as long as a test asks
 * (kernel/perfmon/race.h), so the exit lands inside it every time; the module
 * kernel has no race windows and skips these tests.
 *
 * A helper thread sees the hook mapped (task_hooks_count one up), tells the
 * target to exit and reaps it, all while the load sleeps in the window; the load
 * must then return its errno, leave no hook behind, and queue what an exit
 * queues.  A hook freed under the attach is a KASAN report, which fails the run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

#define RACE_DIR	"/sys/kernel/debug/perfmon/"
#define RACE_MAPPED	RACE_DIR "race_attach_mapped_us"
#define RACE_LOADED	RACE_DIR "race_attach_loaded_us"
#define RACE_CALL	RACE_DIR "race_call_fd_us"
#define HOOKS		PFM_SYSFS "/task_hooks_count"
#define CONTEXTS	PFM_SYSFS "/contexts_count"
/* Long enough for an exit on the debug kernel under load, short for the suite. */
#define WINDOW_US	"500000\n"

struct exiter {
	pthread_t thread;
	pid_t pid;
	int go;			/* the target's pipe: a write makes it exit */
	long hooks;		/* task_hooks_count before the load */
	int reaped;		/* the target was reaped (set before the load returns) */
	int err;		/* errno of a failed step, or 0 */
};

static void *exiter_run(void *arg)
{
	struct exiter *e = arg;
	int i, status;

	/* the hook is mapped once the count is one up: the load is in its window */
	for (i = 0; i < 5000 && ck_sysfs_read_long(HOOKS) != e->hooks + 1; i++)
		usleep(1000);
	if (write(e->go, "x", 1) != 1 || waitpid(e->pid, &status, 0) != e->pid) {
		e->err = errno;
		return NULL;
	}
	__atomic_store_n(&e->reaped, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A forked target that exits when told, and the thread that tells it. */
static void exiter_start(struct exiter *e)
{
	int p[2];

	memset(e, 0, sizeof(*e));
	ck_assert_ok(pipe(p));
	e->pid = fork();
	ck_assert_int_ge(e->pid, 0);
	if (!e->pid) {
		char c;

		close(p[1]);
		_exit(read(p[0], &c, 1) == 1 ? 0 : 1);
	}
	close(p[0]);
	e->go = p[1];
	e->hooks = ck_sysfs_read_long(HOOKS);
	ck_assert_int_eq(pthread_create(&e->thread, NULL, exiter_run, e), 0);
}

/* The target was reaped while the load was still in its window. */
static void exiter_end(struct exiter *e, int reaped_at_return)
{
	pthread_join(e->thread, NULL);
	close(e->go);
	ck_assert_msg(!e->err, "exiter: %s", strerror(e->err));
	ck_assert_msg(reaped_at_return, "the target exited after the load's window");
}

static int race_windows(void)
{
	if (access(RACE_MAPPED, W_OK)) {
		printf("attach_races: no race windows in this kernel (%s): skipped\n",
		       strerror(errno));
		return 0;
	}
	return 1;
}

static void window_set(const char *path, const char *us)
{
	ck_assert_msg(!sysfs_write(path, us), "%s: %s", path, strerror(errno));
}

/*
 * Loads fd on a target that exits while the load sleeps in window; the load's
 * result, errno in *err.  The target is reaped by then.
 */
static int load_racing_exit(int fd, const char *window, struct exiter *e, int *err)
{
	int reaped, ret;

	window_set(window, WINDOW_US);
	exiter_start(e);
	ret = pfm_load_context(fd, 0, e->pid);
	*err = errno;
	reaped = __atomic_load_n(&e->reaped, __ATOMIC_ACQUIRE);
	window_set(window, "0\n");
	exiter_end(e, reaped);
	return ret;
}

/*
 * The exit comes between the map and the attach through the hook: the exit hook
 * found a hook ctx was not attached through, so the load must not attach ctx.
 */
START_TEST(test_exit_after_map)
{
	struct exiter e;
	int fd, ret, err;

	if (!race_windows())
		return;
	fd = syscall_ctx();
	ret = load_racing_exit(fd, RACE_MAPPED, &e, &err);
	ck_assert_msg(ret == -1 && err == ESRCH, "load: %d (%s), want ESRCH",
		      ret, strerror(err));
	/* nothing attached, nothing left behind */
	ck_assert_errno(pfm_start(fd, 0), EINVAL);
	ck_assert_int_eq(wait_sysfs_long(HOOKS, e.hooks), e.hooks);
	/* free to attach again */
	ck_load_self(fd);
	ck_assert_ok(pfm_unload_context(fd, 0));
	close(fd);
}
END_TEST

/*
 * The exit comes once ctx is attached, before the thread is told of its hook: the
 * exit detaches ctx as any exit does (the end message), and the attach must not
 * then wait for a thread that is gone.
 */
START_TEST(test_exit_after_attach)
{
	struct pollfd p;
	union pfarg_msg msg;
	struct exiter e;
	int fd, ret, err;

	if (!race_windows())
		return;
	fd = syscall_ctx();
	ret = load_racing_exit(fd, RACE_LOADED, &e, &err);
	ck_assert_msg(!ret, "load: %s", strerror(err));
	/* detached by the exit, with its end message */
	ck_assert_errno(pfm_start(fd, 0), EINVAL);
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	ck_assert_int_eq(poll(&p, 1, 5000), 1);
	ck_assert_int_eq(read(fd, &msg, sizeof(msg)), sizeof(msg));
	ck_assert_uint_eq(msg.type, PFM_MSG_END);
	ck_assert_int_eq(msg.pfm_end_msg.msg_end_tid, e.pid);
	ck_assert_uint_eq(msg.pfm_end_msg.msg_end_reason, PFM_END_EXIT);
	ck_assert_int_eq(wait_sysfs_long(HOOKS, e.hooks), e.hooks);
	ck_load_self(fd);
	ck_assert_ok(pfm_unload_context(fd, 0));
	close(fd);
}
END_TEST

/*
 * The same with PFM_FL_INHERIT: the inherit layer, told of the attach after it,
 * finds the thread gone already.  The load succeeds as above, with no family to
 * inherit into, and the context loads again on this thread, whose child's
 * system calls it then counts.
 */
START_TEST(test_exit_after_attach_inherit)
{
	struct exiter e;
	int fd, ret, err, i;
	pid_t child;

	if (!race_windows())
		return;
	fd = pfm_create_context(PFM_FL_INHERIT);
	ck_assert_msg(fd >= 0, "pfm_create_context(PFM_FL_INHERIT): %s", strerror(errno));
	ck_counter(fd, 0, PFM_SW_EV_SYSCALLS);
	ret = load_racing_exit(fd, RACE_LOADED, &e, &err);
	ck_assert_msg(!ret, "load: %s", strerror(err));
	ck_assert_errno(pfm_start(fd, 0), EINVAL);
	ck_assert_int_eq(wait_sysfs_long(HOOKS, e.hooks), e.hooks);
	ck_load_self(fd);
	ck_assert_ok(pfm_start(fd, 0));
	child = fork();
	if (!child) {
		for (i = 0; i < 1000; i++)
			syscall(SYS_getppid);
		_exit(0);
	}
	waitpid(child, NULL, 0);
	pfm_stop(fd, 0);
	ck_assert_int_gt(child, 0);
	/* the child's 1000 and its exit's, the fork's, wait's and stop's calls */
	ck_assert_uint_ge(count(fd), 1000);
	ck_assert_uint_le(count(fd), 1020);
	ck_assert_ok(pfm_unload_context(fd, 0));
	close(fd);
}
END_TEST

struct closer_call {
	int fd;
	int ready;		/* write end: told just before the call */
	int ret, err;
};

/* The load of fd on this thread, in the window after the lookup of fd. */
static void *load_self_in_window(void *arg)
{
	struct closer_call *c = arg;

	if (write(c->ready, "x", 1) != 1)
		c->err = errno;
	c->ret = pfm_load_context(c->fd, 0, (uint64_t)syscall(SYS_gettid));
	if (c->ret)
		c->err = errno;
	return NULL;
}

/*
 * The last close of a context comes while a call on it from another thread is
 * between the lookup of its fd and its work.  The call holds the file, as any
 * system call does: the release waits for it, then unloads the context and
 * ends its inherit family, and the context is freed.  (With only a reference on
 * the context, the load attached it after its release had run: its family then
 * held it for good, and contexts_count never came back.)
 */
START_TEST(test_close_during_call)
{
	struct closer_call c = { 0 };
	long base, hooks;
	pthread_t t;
	int p[2];
	char x;

	if (!race_windows())
		return;
	base = ck_sysfs_read_long(CONTEXTS);
	hooks = ck_sysfs_read_long(HOOKS);
	c.fd = pfm_create_context(PFM_FL_INHERIT);
	ck_assert_msg(c.fd >= 0, "pfm_create_context(PFM_FL_INHERIT): %s", strerror(errno));
	ck_counter(c.fd, 0, PFM_SW_EV_SYSCALLS);
	ck_assert_ok(pipe(p));
	c.ready = p[1];
	window_set(RACE_CALL, WINDOW_US);
	ck_assert_int_eq(pthread_create(&t, NULL, load_self_in_window, &c), 0);
	ck_assert_int_eq(read(p[0], &x, 1), 1);
	usleep(100000);		/* into the window, which is 500 ms */
	ck_assert_ok(close(c.fd));
	pthread_join(t, NULL);
	window_set(RACE_CALL, "0\n");
	close(p[0]);
	close(p[1]);
	ck_assert_msg(!c.ret, "load: %s", strerror(c.err));
	/* released once the load was done: nothing attached, nothing kept */
	ck_assert_int_eq(wait_sysfs_long(HOOKS, hooks), hooks);
	ck_assert_int_eq(wait_sysfs_long(CONTEXTS, base), base);
}
END_TEST

Suite *pfm_attach_races_suite(void)
{
	Suite *s = suite_create("attach_races");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_exit_after_map);
	tcase_add_test(tc, test_exit_after_attach);
	tcase_add_test(tc, test_exit_after_attach_inherit);
	tcase_add_test(tc, test_close_during_call);
	suite_add_tcase(s, tc);
	return s;
}
