// SPDX-License-Identifier: GPL-2.0
/*
 * security: where access that allowed an attach no longer holds (an exec of a
 * setuid or unreadable image), and what an attach to a thread that never runs
 * leaves behind once closed: nothing.
 *
 * run-suite*.sh make the images: /bin/pfm_tests_suid, a copy of this binary
 * owned by root with mode 4755, and /bin/pfm_tests_noread, a copy with mode 0711
 * (not readable, so the kernel makes the new image not dumpable).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"
#include "footprint.h"
#include "users.h"
#include "suites.h"

#define SUID_BIN	"/bin/pfm_tests_suid"
#define NOREAD_BIN	"/bin/pfm_tests_noread"
#define PLAIN_BIN	"/bin/pfm_tests"

#define PRE_N		100	/* getppid before the exec */
#define POST_N		500	/* getppid the exec'd image makes */
#define SMPL_P		10	/* one sample every SMPL_P system calls */
/*
 * The exec'd image's own calls beyond POST_N: see lifecycle.c (15 or 17); a setuid
 * image's startup (AT_SECURE) makes a few more on the in-tree kernel.
 */
#define STARTUP_MIN	15
#define STARTUP_MAX	25

struct exec_case {
	const char *bin;
	/* filled in by the controller */
	uint64_t count;
	uint64_t samples;
	uint64_t sample_pid_bad;
	int child_status;
	int msg_type;
	uint32_t msg_reason;
	pid_t msg_pid, child;
};

/*
 * The controller (running as some user): a context that counts and samples the
 * system calls of its own child, which makes PRE_N calls and execs c->bin.  The
 * child is blocked in read() when the context is attached, so the attach is one
 * that waits for the thread to run, and the count is exact: PRE_N getppid and the
 * execve.
 */
static void exec_monitored(void *arg)
{
	struct exec_case *c = arg;
	struct pfm_dfl_smpl_arg sa = { .buf_size = 16 * 4096 };
	const struct pfm_dfl_smpl_hdr *h;
	const struct pfm_dfl_smpl_entry *e;
	struct pfarg_pmc pc;
	struct pfarg_pmd pd;
	union pfarg_msg msg;
	int fd, go[2], fl;
	char post[16];
	uint64_t k;
	pid_t pid;

	snprintf(post, sizeof(post), "%d", POST_N);
	child_expect(fd = pfm_create_context(PFM_FL_SMPL_FMT, PFM_DFL_SMPL_NAME, &sa,
					     sizeof(sa)), 0);
	h = mmap(NULL, sa.buf_size, PROT_READ, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED)
		child_fail("mmap: %s", strerror(errno));
	pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	child_expect(pfm_write_pmcs(fd, &pc, sizeof(pc)), 0);
	pmd_init(&pd, SW_PMD(0), -(uint64_t)SMPL_P);
	pd.reg_flags = PFM_PMDFL_SMPL;
	pd.reg_short_reset = -(uint64_t)SMPL_P;
	pd.reg_long_reset = -(uint64_t)SMPL_P;
	child_expect(pfm_write_pmds(fd, &pd, sizeof(pd)), 0);

	child_expect(pipe(go), 0);
	pid = fork();
	if (pid < 0)
		child_fail("fork: %s", strerror(errno));
	if (!pid) {
		char *argv[] = { "pfm_tests", "--getppid", post, NULL };
		char b;

		if (read(go[0], &b, 1) != 1)
			_exit(126);
		do_getppid(PRE_N);
		execv(c->bin, argv);
		_exit(127);
	}
	c->child = pid;
	child_expect(wait_blocked_read(pid, go[0]), 0);
	child_expect(pfm_load_context(fd, 0, pid), 0);
	child_expect(pfm_start(fd, 0), 0);
	child_expect(write(go[1], "g", 1), 0);
	child_expect(waitpid(pid, &c->child_status, 0), 0);

	pmd_init(&pd, SW_PMD(0), 0);
	child_expect(pfm_read_pmds(fd, &pd, sizeof(pd)), 0);
	/* the counter started at -SMPL_P and was reset at each sample */
	c->samples = h->hdr_count;
	c->count = c->samples * SMPL_P + (pd.reg_value + SMPL_P);
	e = (const void *)(h + 1);
	for (k = 0; k < c->samples; k++)
		if (e[k].pid != (uint32_t)pid)
			c->sample_pid_bad++;

	fl = fcntl(fd, F_GETFL);
	child_expect(fcntl(fd, F_SETFL, fl | O_NONBLOCK), 0);
	child_expect(read(fd, &msg, sizeof(msg)), 0);
	c->msg_type = msg.type;
	c->msg_reason = msg.pfm_end_msg.msg_end_reason;
	c->msg_pid = msg.pfm_end_msg.msg_end_tid;
	close(fd);
}

static struct exec_case *run_exec(enum who who, const char *bin)
{
	struct exec_case *c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct run r;

	ck_assert_ptr_ne(c, MAP_FAILED);
	ck_assert_msg(!access(bin, X_OK), "%s is missing (run-suite makes it)", bin);
	c->bin = bin;
	as_user(&r, who, exec_monitored, c);
	ck_run(&r);
	ck_assert_msg(WIFEXITED(c->child_status) && !WEXITSTATUS(c->child_status),
		      "%s as %s: the exec'd child's status %#x", bin, who_name[who],
		      c->child_status);
	ck_assert_int_eq(c->msg_type, PFM_MSG_END);
	ck_assert_int_eq(c->msg_pid, c->child);
	ck_assert_uint_eq(c->sample_pid_bad, 0);
	return c;
}

/*
 * The exec ended the attachment: the counts and samples are those of before the
 * exec, exactly, and the end message says why.
 */
static void ck_ended_at_exec(enum who who, const char *bin)
{
	struct exec_case *c = run_exec(who, bin);

	ck_assert_msg(c->msg_reason == PFM_END_EXEC, "%s as %s: end reason %u",
		      bin, who_name[who], c->msg_reason);
	ck_assert_msg(c->count == PRE_N + 1, "%s as %s: counted %llu, not %d", bin,
		      who_name[who], (unsigned long long)c->count, PRE_N + 1);
	ck_assert_uint_eq(c->samples, (PRE_N + 1) / SMPL_P);
	munmap(c, sizeof(*c));
}

/* The exec kept the attachment: the new image's calls count, up to its exit. */
static void ck_kept_over_exec(enum who who, const char *bin)
{
	struct exec_case *c = run_exec(who, bin);
	uint64_t lo = PRE_N + POST_N + STARTUP_MIN, hi = PRE_N + POST_N + STARTUP_MAX;

	ck_assert_msg(c->msg_reason == PFM_END_EXIT, "%s as %s: end reason %u",
		      bin, who_name[who], c->msg_reason);
	ck_assert_msg(c->count >= lo && c->count <= hi, "%s as %s: counted %llu", bin,
		      who_name[who], (unsigned long long)c->count);
	ck_assert_uint_eq(c->samples, c->count / SMPL_P);
	munmap(c, sizeof(*c));
}

START_TEST(test_exec_suid_ends_nobody)
{
	ck_ended_at_exec(USER_NOBODY, SUID_BIN);
}
END_TEST

START_TEST(test_exec_suid_ends_perfmon)
{
	ck_ended_at_exec(USER_PERFMON, SUID_BIN);
}
END_TEST

START_TEST(test_exec_noread_ends)
{
	ck_ended_at_exec(USER_NOBODY, NOREAD_BIN);
}
END_TEST

START_TEST(test_exec_plain_keeps_nobody)
{
	ck_kept_over_exec(USER_NOBODY, PLAIN_BIN);
}
END_TEST

/* A controller that could attach after the exec too keeps monitoring. */
START_TEST(test_exec_suid_keeps_root)
{
	ck_kept_over_exec(ROOT, SUID_BIN);
}
END_TEST

START_TEST(test_exec_suid_keeps_ptrace)
{
	ck_kept_over_exec(USER_PTRACE, SUID_BIN);
}
END_TEST

/*
 * Security modules mediate ptrace-read access, and so the attach.  The stock
 * kernel has AppArmor (run-suite.sh loads a profile with no ptrace rule); the
 * in-tree debug kernel has no security module, and calls ptrace_may_access()
 * itself, so the test has nothing to run there.
 */

#define AA_PROFILE	"pfm_confined"
#define AA_DIR		"/sys/kernel/security/apparmor"

static int aa_change_profile(const char *profile)
{
	char cmd[64];
	int fd, n, r;

	fd = open("/proc/self/attr/apparmor/current", O_WRONLY);
	if (fd < 0)
		fd = open("/proc/self/attr/current", O_WRONLY);
	if (fd < 0)
		return -1;
	n = snprintf(cmd, sizeof(cmd), "changeprofile %s", profile);
	r = write(fd, cmd, n) == n ? 0 : -1;
	close(fd);
	return r;
}

struct lsm_case {
	pid_t target;
	int confine;
	int err;
};

static void lsm_attach(void *arg)
{
	const struct lsm_case *c = arg;
	int fd;

	child_expect(fd = pfm_create_context(0), 0);
	if (c->confine && aa_change_profile(AA_PROFILE))
		child_fail("changeprofile %s: %s", AA_PROFILE, strerror(errno));
	child_expect(pfm_load_context(fd, 0, c->target), c->err);
	close(fd);
}

START_TEST(test_lsm_refuses_attach)
{
	struct kid k = KID_INIT;
	struct lsm_case c = {};

	if (!stock_kernel()) {
		printf("security: the in-tree kernel has no security module: LSM test skipped\n");
		return;
	}
	ck_assert_msg(!access(AA_DIR "/profiles", R_OK), "AppArmor is not active in the guest");
	ck_kid_start(&k);
	c.target = k.pid;
	/* the same root process, unconfined and then confined */
	ck_child("unconfined attacher", lsm_attach, &c);
	c.confine = 1;
	c.err = EACCES;
	ck_child("confined attacher", lsm_attach, &c);
	ck_kid_run_exit(&k, 0);
}
END_TEST

static pid_t ck_sleeper(void)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		for (;;)
			pause();
	}
	/* asleep: the calls the C library makes in a new child are behind it */
	ck_assert_ok(wait_paused(pid));
	return pid;
}

static void ck_kill(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
}

#define SLEEPER_CYCLES	1000

/*
 * Attach to a thread asleep in pause() and close, again and again: each close
 * gives everything back at once, though the thread never ran.
 */
START_TEST(test_sleeper_attach_close)
{
	struct footprint before, after;
	pid_t pid = ck_sleeper();
	int i, fd;

	footprint(&before);
	for (i = 0; i < SLEEPER_CYCLES; i++) {
		fd = syscall_ctx();
		ck_load(fd, pid);
		close(fd);
	}
	footprint(&after);
	ck_footprint_same(&before, &after, "load + close");
	ck_kill(pid);
}
END_TEST

/*
 * The same with every call that reaches the thread's state: start, read, stop,
 * unload, a second load.  None waits for the thread to run.
 */
START_TEST(test_sleeper_calls)
{
	struct footprint before, after;
	pid_t pid = ck_sleeper();
	int i, fd;

	footprint(&before);
	for (i = 0; i < SLEEPER_CYCLES / 4; i++) {
		fd = syscall_ctx();
		ck_load(fd, pid);
		ck_assert_ok(pfm_start(fd, 0));
		ck_assert_uint_eq(count(fd), 0);
		ck_assert_ok(pfm_stop(fd, 0));
		ck_assert_ok(pfm_unload_context(fd, 0));
		ck_load(fd, pid);
		ck_assert_ok(pfm_start(fd, 0));
		close(fd);
	}
	footprint(&after);
	ck_footprint_same(&before, &after, "load, start, read, stop, unload, load, close");
	ck_kill(pid);
}
END_TEST

/* An attach waiting for its thread takes a session and a context, as any attach. */
START_TEST(test_sleeper_pending_counted)
{
	struct footprint before, during, after;
	pid_t pid = ck_sleeper();
	int fd = syscall_ctx();

	footprint(&before);
	ck_load(fd, pid);
	footprint(&during);
	ck_assert_int_eq(during.contexts, before.contexts);
	ck_assert_int_eq(during.sessions, before.sessions + 1);
	ck_assert_int_eq(during.hooks, before.hooks + 1);
	close(fd);
	footprint(&after);
	ck_assert_int_eq(after.contexts, before.contexts - 1);
	ck_assert_int_eq(after.sessions, before.sessions);
	ck_assert_int_eq(after.hooks, before.hooks);
	ck_kill(pid);
}
END_TEST

/*
 * A thread that ran after the attach has put the hook on itself: closed while the
 * thread sleeps, the hook is taken off it at once, at every cycle.
 */
START_TEST(test_ran_then_sleeps_cycles)
{
	struct footprint before, after;
	struct kid k = KID_INIT;
	int i, fd;

	ck_kid_start(&k);
	footprint(&before);
	for (i = 0; i < SLEEPER_CYCLES / 10; i++) {
		fd = syscall_ctx();
		ck_load(fd, k.pid);
		ck_assert_ok(pfm_start(fd, 0));
		ck_kid_run(&k, 1);
		ck_assert_uint_eq(count(fd), 2);
		close(fd);
		footprint(&after);
		ck_assert_msg(after.hooks == before.hooks && after.contexts == before.contexts,
			      "cycle %d: hooks %ld -> %ld, contexts %ld -> %ld", i,
			      before.hooks, after.hooks, before.contexts, after.contexts);
	}
	ck_kid_run_exit(&k, 0);
	footprint(&after);
	ck_footprint_same(&before, &after, "after the thread exited");
}
END_TEST

/* "pfm_tests --attach-sleeper N" (main.c); no check assertions here. */
int attach_sleeper(long cycles)
{
	pid_t pid = fork();
	long i;
	int fd;

	if (pid < 0)
		return 1;
	if (!pid) {
		/* Not the caller's stdout: a shell's $(...) would wait for it. */
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		setsid();
		for (;;)
			pause();
	}
	for (i = 0; i < cycles; i++) {
		fd = pfm_create_context(0);
		if (fd < 0 || pfm_load_context(fd, 0, pid)) {
			perror("attach-sleeper");
			kill(pid, SIGKILL);
			return 1;
		}
		close(fd);
	}
	printf("%d\n", pid);
	return 0;
}

Suite *pfm_security_suite(void)
{
	Suite *s = suite_create("security");
	TCase *tc = pfm_tcase("security");

	tcase_add_test(tc, test_exec_suid_ends_nobody);
	tcase_add_test(tc, test_exec_suid_ends_perfmon);
	tcase_add_test(tc, test_exec_noread_ends);
	tcase_add_test(tc, test_exec_plain_keeps_nobody);
	tcase_add_test(tc, test_exec_suid_keeps_root);
	tcase_add_test(tc, test_exec_suid_keeps_ptrace);
	tcase_add_test(tc, test_lsm_refuses_attach);
	tcase_add_test(tc, test_sleeper_attach_close);
	tcase_add_test(tc, test_sleeper_calls);
	tcase_add_test(tc, test_sleeper_pending_counted);
	tcase_add_test(tc, test_ran_then_sleeps_cycles);
	suite_add_tcase(s, tc);
	return s;
}
