// SPDX-License-Identifier: GPL-2.0
/*
 * inherit: PFM_FL_INHERIT contexts count what their thread's new threads and
 * children do (perfmon.h, INHERITANCE).
 *
 * The workloads make their system calls with syscall() (fork, wait4, exit_group
 * and exit too), so that a libc adds none of its own: a child forked in the
 * window counts its K getppid() and its exit_group(), the parent its fork(), its
 * wait4() and the pfm_stop() (perfmon_sw.h).  A child's counts are folded in at
 * its exit, before its parent can reap it; a thread's after its join (the clear
 * of its tid comes first in the kernel's exit), so the thread test waits for the
 * fold with the opened context stopped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/futex.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "util.h"
#include "suites.h"

#define INH_CONTEXTS	"/sys/kernel/perfmon/inherit_contexts_count"
#define INH_LOST	"/sys/kernel/perfmon/inherit_lost_count"
#define CONTEXTS	"/sys/kernel/perfmon/contexts_count"
#define HOOKS		"/sys/kernel/perfmon/task_hooks_count"

/* An inherit context on this thread, counting system calls on counter 0. */
static int inherit_ctx(void)
{
	int fd = pfm_create_context(PFM_FL_INHERIT);

	ck_assert_msg(fd >= 0, "pfm_create_context(PFM_FL_INHERIT): %s", strerror(errno));
	ck_counter(fd, 0, PFM_SW_EV_SYSCALLS);
	ck_load_self(fd);
	return fd;
}

/* n children of k getppid() each; what the window counts */
static uint64_t fork_children(int n, long k)
{
	pid_t pid[16];

	raw_children(pid, n, k);
	/* each fork and wait4, each child's k and exit_group, the stop */
	return n + n + n * (k + 1) + 1;
}

START_TEST(test_children_exact)
{
	static const int n[] = { 1, 4, 16 };
	int fd = inherit_ctx();
	uint64_t want;
	int rs, rt;

	rs = pfm_start(fd, 0);
	want = fork_children(n[_i], 1000);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), want);
	close(fd);
	ck_assert_int_eq(wait_sysfs_long(INH_CONTEXTS, 0), 0);
}
END_TEST

/* A child that forks a grandchild, each of k getppid(). */
START_TEST(test_grandchildren)
{
	const long k = 500;
	int fd = inherit_ctx();
	pid_t pid, gpid;
	int rs, rt;

	rs = pfm_start(fd, 0);
	pid = raw_fork();
	if (!pid) {
		gpid = raw_fork();
		if (!gpid) {
			do_getppid(k);
			raw_exit();
		}
		raw_wait(gpid);
		do_getppid(k);
		raw_exit();
	}
	raw_wait(pid);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	/* parent: fork, wait4, stop; child: fork, wait4, k, exit; grandchild: k, exit */
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 3 + (k + 3) + (k + 1));
	close(fd);
}
END_TEST

/* Without PFM_FL_INHERIT nothing of the children is counted. */
START_TEST(test_no_inherit)
{
	int fd = ck_ctx_create();
	int rs, rt;

	ck_counter(fd, 0, PFM_SW_EV_SYSCALLS);
	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	fork_children(2, 1000);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 2 + 2 + 1);
	close(fd);
}
END_TEST

struct thread_arg {
	long k;
	volatile pid_t tid;	/* cleared by the kernel at the thread's exit */
	char stack[64 * 1024] __attribute__((aligned(16)));
};

static int thread_fn(void *p)
{
	struct thread_arg *a = p;

	do_getppid(a->k);
	return 0;	/* clone()'s exit, the thread's only other call */
}

START_TEST(test_threads_exact)
{
	const int n = 3;
	const long k = 1000;
	static struct thread_arg t[3];
	int fd = inherit_ctx(), i, rs, rt;
	long waits = 0;
	pid_t tid, made[3];

	rs = pfm_start(fd, 0);
	/*
	 * The kernel sets tid before the thread runs (PARENT_SETTID) and clears it
	 * at its exit: clone()'s value must not be stored there too, or a thread
	 * that ends before clone() returns has its tid written back, and the wait
	 * below never ends.  It is checked after the stop: an assertion is a
	 * system call of the harness's, which the context would count.
	 */
	for (i = 0; i < n; i++) {
		t[i].k = k;
		made[i] = clone(thread_fn, t[i].stack + sizeof(t[i].stack),
				CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
				CLONE_THREAD | CLONE_SYSVSEM | CLONE_PARENT_SETTID |
				CLONE_CHILD_CLEARTID, &t[i], &t[i].tid, NULL, &t[i].tid);
	}
	for (i = 0; i < n; i++) {
		while ((tid = t[i].tid) > 0) {
			syscall(SYS_futex, &t[i].tid, FUTEX_WAIT, tid, NULL, NULL, 0);
			waits++;
		}
	}
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	for (i = 0; i < n; i++)
		ck_assert_int_gt(made[i], 0);
	/* the folds come after the joins: stopped, the waiting counts nothing */
	ck_assert_int_eq(wait_sysfs_long(INH_CONTEXTS, 0), 0);
	/* each clone, each futex wait, the stop; each thread's k and exit */
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), n + waits + 1 + n * (k + 1));
	close(fd);
}
END_TEST

/*
 * A stop of the opened context stops its inheritors, a start starts them: the
 * child's first k getppid() come while stopped, its second k while started.  The
 * few calls around them (pipes) fall either side of the start and stop.
 */
START_TEST(test_start_stop_reach)
{
	const long k = 100000;
	int fd = inherit_ctx(), go[2], ready[2];
	uint64_t v;
	pid_t pid;
	char c;

	ck_assert_ok(pipe(go));
	ck_assert_ok(pipe(ready));
	ck_assert_ok(pfm_start(fd, 0));
	pid = raw_fork();
	if (!pid) {
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			raw_exit();
		do_getppid(k);		/* stopped */
		if (write(ready[1], "s", 1) != 1 || read(go[0], &c, 1) != 1)
			raw_exit();
		do_getppid(k);		/* started again */
		raw_exit();
	}
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	ck_assert_ok(pfm_start(fd, 0));
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	raw_wait(pid);
	ck_assert_ok(pfm_stop(fd, 0));
	v = ck_read_pmd(fd, SW_PMD(0));
	ck_assert_msg(v >= k && v < k + 20, "%llu system calls for %ld counted",
		      (unsigned long long)v, k);
	close(fd);
}
END_TEST

/*
 * The close of the opened context ends its inheritors at once, a child asleep
 * in pause() too; killed, the child leaves no context nor hook behind.  (Until
 * the child runs, its detached hook holds its inheritor's memory, as any
 * context detached from a sleeping thread: thread.c.)
 */
START_TEST(test_close_sleeping_child)
{
	long ctxs = ck_sysfs_read_long(CONTEXTS), hooks = ck_sysfs_read_long(HOOKS);
	int fd = inherit_ctx(), status, closed[2];
	pid_t pid;
	char c;

	ck_assert_ok(pipe(closed));
	ck_assert_ok(pfm_start(fd, 0));
	pid = raw_fork();
	if (!pid) {
		/* the fd is the parent's to close: the child holds the file too */
		close(fd);
		if (write(closed[1], "c", 1) != 1)
			raw_exit();
		for (;;)
			pause();
	}
	ck_assert_int_eq(wait_sysfs_long(INH_CONTEXTS, 1), 1);
	/* the parent's close is the file's last only once the child's is done */
	ck_assert_int_eq(read(closed[0], &c, 1), 1);
	close(closed[0]);
	close(closed[1]);
	close(fd);
	ck_assert_int_eq(ck_sysfs_read_long(INH_CONTEXTS), 0);
	ck_assert_ok(kill(pid, SIGKILL));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(wait_sysfs_long(CONTEXTS, ctxs), ctxs);
	ck_assert_int_eq(wait_sysfs_long(HOOKS, hooks), hooks);
}
END_TEST

/* Each flag PFM_FL_INHERIT cannot go with is EINVAL, and makes no context. */
START_TEST(test_bad_flags)
{
	static const int bad[] = {
		PFM_FL_INHERIT | PFM_FL_SYSTEM_WIDE,
		PFM_FL_INHERIT | PFM_FL_NOTIFY_BLOCK,
		PFM_FL_INHERIT | 0x40,
	};
	long ctxs = ck_sysfs_read_long(CONTEXTS);
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		errno = 0;
		ck_assert_int_eq(pfm_create_context(bad[i]), -1);
		ck_assert_int_eq(errno, EINVAL);
	}
	ck_assert_int_eq(ck_sysfs_read_long(CONTEXTS), ctxs);
	fd = pfm_create_context(PFM_FL_INHERIT | PFM_FL_OVFL_NO_MSG | PFM_FL_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	close(fd);
}
END_TEST

/*
 * Notification is the opened context's own: an inheritor's PMDs start at 0 with
 * none of the opened PMDs' flags, so the children's counts never overflow there
 * and queue no message; the fold adds them without an overflow.
 */
START_TEST(test_notify_not_inherited)
{
	const long k = 1000;
	int fd = pfm_create_context(PFM_FL_INHERIT);
	struct pfarg_pmd pd;
	struct pollfd p;
	int rs, rt;

	ck_assert_int_ge(fd, 0);
	ck_counter(fd, 0, PFM_SW_EV_SYSCALLS);
	/* the opened thread's own overflow after 2^32 calls: never in this test */
	pmd_init(&pd, SW_PMD(0), -(1ULL << 32));
	pd.reg_flags = PFM_PMDFL_OVFL_NOTIFY;
	ck_assert_ok(pfm_write_pmds(fd, &pd, sizeof(pd)));
	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	fork_children(2, k);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)),
			  -(1ULL << 32) + 2 + 2 + 2 * (k + 1) + 1);
	p.fd = fd;
	p.events = POLLIN;
	ck_assert_int_eq(poll(&p, 1, 0), 0);
	close(fd);
}
END_TEST

/* A second load after an unload makes a new family; the first's counts stay. */
START_TEST(test_unload_reload)
{
	int fd = inherit_ctx(), rs, rt;
	uint64_t first;

	rs = pfm_start(fd, 0);
	fork_children(1, 100);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	first = ck_read_pmd(fd, SW_PMD(0));
	ck_assert_uint_eq(first, 1 + 1 + 101 + 1);
	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	fork_children(1, 100);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 2 * first);
	close(fd);
}
END_TEST

/*
 * A read of the opened context adds the live children's counts: a child that
 * made k getppid() and waits in read() is in the sum before it exits, and
 * counted once after.
 */
START_TEST(test_read_live_child)
{
	const long k = 1000;
	int fd = inherit_ctx(), go[2], ready[2], rs, rr, rt;
	struct pfarg_pmd pd;
	pid_t pid;
	char c;

	ck_assert_ok(pipe(go));
	ck_assert_ok(pipe(ready));
	pmd_init(&pd, SW_PMD(0), 0);
	rs = pfm_start(fd, 0);
	pid = raw_fork();
	if (!pid) {
		do_getppid(k);
		if (syscall(SYS_write, ready[1], "r", 1) != 1 ||
		    syscall(SYS_read, go[0], &c, 1) != 1)
			raw_exit();
		raw_exit();
	}
	syscall(SYS_read, ready[0], &c, 1);
	rr = pfm_read_pmds(fd, &pd, sizeof(pd));
	syscall(SYS_write, go[1], "g", 1);
	raw_wait(pid);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rr, 0);
	ck_assert_int_eq(rt, 0);
	/*
	 * parent: fork, read, the read of the counts; child: k, write, and its
	 * read() if it has entered it yet
	 */
	ck_assert_msg(pd.reg_value == 3 + k + 1 || pd.reg_value == 3 + k + 2,
		      "live read %llu", (unsigned long long)pd.reg_value);
	/* and write, wait4, stop; the child's read and exit_group */
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 3 + 3 + k + 3);
	close(fd);
}
END_TEST

/*
 * The opened context's set duration is its family's, as perf_events adds a child
 * event's enabled time into its parent's: a child's 50 ms of spinning are in it
 * while the child lives (the parent asleep all along) and after its exit.
 */
START_TEST(test_family_duration)
{
	const uint64_t spin = 50000000;
	int fd = inherit_ctx(), go[2], ready[2], rs, rt;
	struct pfarg_setinfo live, after;
	pid_t pid;
	char c;

	ck_assert_ok(pipe(go));
	ck_assert_ok(pipe(ready));
	memset(&live, 0, sizeof(live));
	memset(&after, 0, sizeof(after));
	rs = pfm_start(fd, 0);
	pid = raw_fork();
	if (!pid) {
		spin_until(thread_cpu_ns() + spin);
		if (syscall(SYS_write, ready[1], "r", 1) != 1 ||
		    syscall(SYS_read, go[0], &c, 1) != 1)
			raw_exit();
		raw_exit();
	}
	syscall(SYS_read, ready[0], &c, 1);
	ck_assert_ok(pfm_getinfo_evtsets(fd, &live, sizeof(live)));
	syscall(SYS_write, go[1], "g", 1);
	raw_wait(pid);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_ok(pfm_getinfo_evtsets(fd, &after, sizeof(after)));
	ck_assert_msg(live.set_act_duration >= spin, "live: %llu ns",
		      (unsigned long long)live.set_act_duration);
	ck_assert_msg(after.set_act_duration >= live.set_act_duration, "after: %llu ns, live %llu",
		      (unsigned long long)after.set_act_duration,
		      (unsigned long long)live.set_act_duration);
	close(fd);
}
END_TEST

Suite *pfm_inherit_suite(void)
{
	Suite *s = suite_create("inherit");
	TCase *tc = tcase_create("inherit");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_children_exact, 0, 3);
	tcase_add_test(tc, test_grandchildren);
	tcase_add_test(tc, test_no_inherit);
	tcase_add_test(tc, test_threads_exact);
	tcase_add_test(tc, test_start_stop_reach);
	tcase_add_test(tc, test_close_sleeping_child);
	tcase_add_test(tc, test_bad_flags);
	tcase_add_test(tc, test_notify_not_inherited);
	tcase_add_test(tc, test_unload_reload);
	tcase_add_test(tc, test_read_live_child);
	tcase_add_test(tc, test_family_duration);
	pfm_inherit_smpl_tests(tc);
	suite_add_tcase(s, tc);
	return s;
}
