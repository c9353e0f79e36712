// SPDX-License-Identifier: GPL-2.0
/*
 * access: who may create which session and attach to which thread, the
 * knobs that say so, and the per-user limit.
 *
 * The refused cases run in a forked child that gives up root: "nobody"
 * (uid and gid 65534, no capability), optionally with the supplementary
 * group 1234, or uid 1000 keeping a single capability.  The child checks
 * with child_expect() and the test reads its verdict after putting the
 * knobs back, so that a failed test leaves them as they were.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "users.h"
#include "util.h"
#include "suites.h"

#define PFM_PARANOID		PFM_SYSFS "/paranoid"
#define PFM_PARANOID_LEVEL	PFM_SYSFS "/paranoid_level"
#define SYS_PARANOID		"/proc/sys/kernel/perf_event_paranoid"
#define PFM_TASK_GROUP		PFM_SYSFS "/task_group"
#define PFM_SYS_GROUP		PFM_SYSFS "/sys_group"
#define PFM_CTX_PER_USER_MAX	PFM_SYSFS "/ctx_per_user_max"
#define PFM_TASK_SESSIONS	PFM_SYSFS "/task_sessions_count"
#define PFM_SYS_SESSIONS	PFM_SYSFS "/sys_sessions_count"

/* The knobs the tests change, as they were before the test case. */
static struct knob knobs[] = {
	{ .path = PFM_PARANOID }, { .path = PFM_TASK_GROUP }, { .path = PFM_SYS_GROUP },
	{ .path = PFM_CTX_PER_USER_MAX }, { .path = SYS_PARANOID },
};

static void knobs_save(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		knob_save(&knobs[i]);
}

static void knobs_restore(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		knob_restore(&knobs[i]);
}

static void ck_knob(const char *path, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld\n", v);
	ck_assert_msg(!sysfs_write(path, buf), "write %ld to %s: %s", v, path,
		      strerror(errno));
	ck_assert_int_eq(ck_sysfs_read_long(path), v);
}

/* pfm_create_context(flags) must give err (0: a context). */
struct create_case {
	int flags;
	int err;
};

static const struct create_case task_ok = { 0, 0 };
static const struct create_case task_eperm = { 0, EPERM };
static const struct create_case sys_eperm = { PFM_FL_SYSTEM_WIDE, EPERM };

static void expect_create(void *arg)
{
	const struct create_case *c = arg;
	int fd, err;

	errno = 0;
	fd = pfm_create_context(c->flags);
	err = errno;
	if (c->err ? !(fd == -1 && err == c->err) : fd < 0)
		child_fail("pfm_create_context(%#x): %s; expected %s", c->flags,
			   fd < 0 ? strerror(err) : "a context",
			   c->err ? strerror(c->err) : "a context");
}

/* A CPU session on CPU 0: created, attached, detached. */
static void expect_sys_session(void *arg)
{
	int fd;

	(void)arg;
	child_expect(fd = pfm_create_context(PFM_FL_SYSTEM_WIDE), 0);
	child_expect(pfm_load_context(fd, 0, 0), 0);
	child_expect(pfm_start(fd, 0), 0);
	child_expect(pfm_stop(fd, 0), 0);
	child_expect(pfm_unload_context(fd, 0), 0);
	close(fd);
}

/* -2: the level in effect is the kernel's kernel.perf_event_paranoid, read live */
START_TEST(test_paranoid_default)
{
	static const long sys[] = { 3, 1, -1, 0, 2 };
	size_t i;

	ck_assert_int_eq(ck_sysfs_read_long(PFM_PARANOID), -2);
	for (i = 0; i < ARRAY_SIZE(sys); i++) {
		ck_knob(SYS_PARANOID, sys[i]);
		ck_assert_int_eq(ck_sysfs_read_long(PFM_PARANOID_LEVEL), sys[i]);
	}
	/* a level written stands whatever the kernel's */
	ck_knob(PFM_PARANOID, 1);
	ck_knob(SYS_PARANOID, 3);
	ck_assert_int_eq(ck_sysfs_read_long(PFM_PARANOID_LEVEL), 1);
	ck_knob(PFM_PARANOID, -2);
	ck_assert_int_eq(ck_sysfs_read_long(PFM_PARANOID_LEVEL), 3);
}
END_TEST

/*
 * Debian's kernel.perf_event_paranoid 3 closes perfmon too, until an
 * administrator writes perfmon's own level.
 */
START_TEST(test_paranoid_system_3)
{
	struct run r[4];

	ck_knob(SYS_PARANOID, 3);
	as_user(&r[0], USER_NOBODY, expect_create, (void *)&task_eperm);
	as_user(&r[1], USER_PERFMON, expect_create, (void *)&task_ok);
	ck_knob(PFM_PARANOID, 2);
	as_user(&r[2], USER_NOBODY, expect_create, (void *)&task_ok);
	as_user(&r[3], USER_NOBODY, expect_create, (void *)&sys_eperm);
	knobs_restore();
	ck_run(&r[0]);
	ck_run(&r[1]);
	ck_run(&r[2]);
	ck_run(&r[3]);
}
END_TEST

START_TEST(test_paranoid_values)
{
	static const char *const bad[] = { "4\n", "-3\n", "100\n", "two\n", "2x\n" };
	size_t i;
	long v;
	int r, err;

	for (v = -2; v <= 3; v++)
		ck_knob(PFM_PARANOID, v);
	ck_knob(PFM_PARANOID, 2);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		errno = 0;
		r = sysfs_write(PFM_PARANOID, bad[i]);
		err = errno;
		ck_assert_msg(r == -1 && err == EINVAL, "writing '%.*s' to paranoid: %s",
			      (int)strcspn(bad[i], "\n"), bad[i],
			      r ? strerror(err) : "accepted");
		ck_assert_int_eq(ck_sysfs_read_long(PFM_PARANOID), 2);
	}
}
END_TEST

/* The default (2): per-thread sessions for all, CPU sessions for CAP_PERFMON. */
START_TEST(test_default_policy)
{
	struct run r;

	as_user(&r, USER_NOBODY, expect_create, (void *)&task_ok);
	ck_run(&r);
	as_user(&r, USER_NOBODY, expect_create, (void *)&sys_eperm);
	ck_run(&r);
	as_user(&r, USER_PERFMON, expect_sys_session, NULL);
	ck_run(&r);
	as_user(&r, USER_PERFMON, expect_create, (void *)&task_ok);
	ck_run(&r);
	/* CAP_SYS_ADMIN still counts as CAP_PERFMON; CAP_SYS_PTRACE does not */
	as_user(&r, USER_ADMIN, expect_sys_session, NULL);
	ck_run(&r);
	as_user(&r, USER_PTRACE, expect_create, (void *)&sys_eperm);
	ck_run(&r);
}
END_TEST

/* 3: every session needs CAP_PERFMON */
START_TEST(test_paranoid_3)
{
	struct run r[4];

	ck_knob(PFM_PARANOID, 3);
	as_user(&r[0], USER_NOBODY, expect_create, (void *)&task_eperm);
	as_user(&r[1], USER_NOBODY, expect_create, (void *)&sys_eperm);
	as_user(&r[2], USER_PERFMON, expect_create, (void *)&task_ok);
	as_user(&r[3], ROOT, expect_create, (void *)&task_ok);
	knobs_restore();
	ck_run(&r[0]);
	ck_run(&r[1]);
	ck_run(&r[2]);
	ck_run(&r[3]);
}
END_TEST

/* 1: CPU sessions need CAP_PERFMON, per-thread ones do not */
START_TEST(test_paranoid_1)
{
	struct run r[3];

	ck_knob(PFM_PARANOID, 1);
	as_user(&r[0], USER_NOBODY, expect_create, (void *)&sys_eperm);
	as_user(&r[1], USER_NOBODY, expect_create, (void *)&task_ok);
	as_user(&r[2], USER_PERFMON, expect_sys_session, NULL);
	knobs_restore();
	ck_run(&r[0]);
	ck_run(&r[1]);
	ck_run(&r[2]);
}
END_TEST

/* 0 and -1: CPU sessions for everyone */
START_TEST(test_paranoid_0)
{
	struct run r[2];
	long v = _i ? -1 : 0;

	ck_knob(PFM_PARANOID, v);
	as_user(&r[0], USER_NOBODY, expect_sys_session, NULL);
	as_user(&r[1], USER_NOBODY, expect_create, (void *)&task_ok);
	knobs_restore();
	ck_run(&r[0]);
	ck_run(&r[1]);
}
END_TEST

/* Attaching to another process takes what ptrace's read mode takes. */
static void expect_attach(pid_t tid, int err)
{
	int fd;

	child_expect(fd = pfm_create_context(0), 0);
	if (err) {
		child_expect(pfm_load_context(fd, 0, tid), err);
		/* and nothing was attached */
		child_expect(pfm_start(fd, 0), EINVAL);
	} else {
		child_expect(pfm_load_context(fd, 0, tid), 0);
		child_expect(pfm_unload_context(fd, 0), 0);
	}
	close(fd);
}

static void attach_parent_eacces(void *arg)
{
	(void)arg;
	/* the test process, root's */
	expect_attach(getppid(), EACCES);
}

START_TEST(test_nobody_attach_root)
{
	struct run r;

	as_user(&r, USER_NOBODY, attach_parent_eacces, NULL);
	ck_run(&r);
}
END_TEST

/* The dentries in the kernel's dcache (fs.dentry-state's first field). */
static long nr_dentry(void)
{
	FILE *f = fopen("/proc/sys/fs/dentry-state", "r");
	long n = -1;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%ld", &n), 1);
	fclose(f);
	return n;
}

#define DCACHE_KIDS	32

struct kids {
	struct kid k[DCACHE_KIDS];
};

static void attach_kids_eacces(void *arg)
{
	struct kids *t = arg;
	int i;

	for (i = 0; i < DCACHE_KIDS; i++)
		expect_attach(t->k[i].pid, EACCES);
}

/*
 * The access check of an attach, granted or refused, leaves nothing in the
 * dcache: the module's opens /proc/PID/maps on its own mount of proc, which
 * would keep two dentries (and inodes) for each thread checked.  The kids are
 * root's, attached by root, then refused to nobody.
 */
START_TEST(test_attach_check_leaves_no_dentries)
{
	static struct kids t;
	struct run r;
	long before, after;
	int i, fd;

	for (i = 0; i < DCACHE_KIDS; i++) {
		t.k[i] = (struct kid)KID_INIT;
		ck_kid_start(&t.k[i]);
	}
	/* once before, so that what the test itself reads is in the dcache */
	before = nr_dentry();
	before = nr_dentry();
	for (i = 0; i < DCACHE_KIDS; i++) {
		fd = pfm_create_context(0);
		ck_assert_int_ge(fd, 0);
		ck_assert_ok(pfm_load_context(fd, 0, t.k[i].pid));
		ck_assert_ok(pfm_unload_context(fd, 0));
		close(fd);
	}
	as_user(&r, USER_NOBODY, attach_kids_eacces, &t);
	ck_run(&r);
	after = nr_dentry();
	for (i = 0; i < DCACHE_KIDS; i++)
		kid_kill(&t.k[i]);
	/* two a thread checked would be 2 * DCACHE_KIDS; a few may come and go meanwhile */
	ck_assert_msg(after - before < DCACHE_KIDS / 2,
		      "%ld dentries more after %d attaches and %d refusals", after - before,
		      DCACHE_KIDS, DCACHE_KIDS);
	printf("access: dentries after %d attaches and %d refusals: %+ld\n", DCACHE_KIDS,
	       DCACHE_KIDS, after - before);
}
END_TEST

/* CAP_PERFMON is not CAP_SYS_PTRACE */
START_TEST(test_perfmon_cap_attach_root)
{
	struct run r;

	as_user(&r, USER_PERFMON, attach_parent_eacces, NULL);
	ck_run(&r);
}
END_TEST

/* One's own child: counted exactly, as root's would be. */
static void attach_own_child(void *arg)
{
	struct kid k = KID_INIT;
	struct pfarg_pmc pc;
	struct pfarg_pmd pd;
	int fd, status;

	(void)arg;
	child_expect(kid_start(&k), 0);
	child_expect(fd = pfm_create_context(0), 0);
	pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	pmd_init(&pd, SW_PMD(0), 0);
	child_expect(pfm_write_pmcs(fd, &pc, sizeof(pc)), 0);
	child_expect(pfm_write_pmds(fd, &pd, sizeof(pd)), 0);
	child_expect(pfm_load_context(fd, 0, k.pid), 0);
	child_expect(pfm_start(fd, 0), 0);
	status = kid_run_exit(&k, 100);
	if (status)
		child_fail("child: wait status %#x", status);
	child_expect(pfm_read_pmds(fd, &pd, sizeof(pd)), 0);
	if (pd.reg_value != 100 + 1)
		child_fail("own child: counted %llu, expected 101",
			   (unsigned long long)pd.reg_value);
	close(fd);
}

START_TEST(test_nobody_attach_own_child)
{
	struct run r;

	as_user(&r, USER_NOBODY, attach_own_child, NULL);
	ck_run(&r);
}
END_TEST

/* A child of the same user that made itself undumpable is refused. */
static void attach_undumpable_child(void *arg)
{
	int ready[2], hold[2];
	pid_t pid;
	char c;

	(void)arg;
	child_expect(pipe(ready), 0);
	child_expect(pipe(hold), 0);
	child_expect(pid = fork(), 0);
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(hold[1]);
		if (prctl(PR_SET_DUMPABLE, 0))
			_exit(1);
		c = 1;
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		/* until the parent closes hold (or dies) */
		if (read(hold[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(hold[0]);
	child_expect(read(ready[0], &c, 1), 0);
	expect_attach(pid, EACCES);
	close(hold[1]);
	waitpid(pid, NULL, 0);
}

START_TEST(test_nobody_attach_undumpable)
{
	struct run r;

	as_user(&r, USER_NOBODY, attach_undumpable_child, NULL);
	ck_run(&r);
}
END_TEST

/*
 * The real gid must match the target's: a kid of uid 65534 but gid 0 is
 * refused to nobody, one of gid 65534 is not.
 */
struct two_kids {
	pid_t other_gid;
	pid_t same_ids;
};

static void attach_by_gid(void *arg)
{
	struct two_kids *t = arg;

	expect_attach(t->other_gid, EACCES);
	expect_attach(t->same_ids, 0);
}

START_TEST(test_nobody_attach_gid)
{
	struct kid a = KID_INIT, b = KID_INIT;
	struct two_kids t;
	struct run r;

	a.uid = NOBODY;
	a.gid = 0;
	b.uid = NOBODY;
	b.gid = NOBODY;
	ck_kid_start(&a);
	ck_kid_start(&b);
	t.other_gid = a.pid;
	t.same_ids = b.pid;
	as_user(&r, USER_NOBODY, attach_by_gid, &t);
	ck_run(&r);
	ck_kid_run_exit(&a, 0);
	ck_kid_run_exit(&b, 0);
}
END_TEST

/* CAP_SYS_PTRACE reaches other users' threads. */
static void attach_with_ptrace_cap(void *arg)
{
	expect_attach(*(pid_t *)arg, 0);
}

START_TEST(test_ptrace_cap_attach_root)
{
	struct kid k = KID_INIT;
	struct run r;

	ck_kid_start(&k);
	as_user(&r, USER_PTRACE, attach_with_ptrace_cap, &k.pid);
	ck_run(&r);
	ck_kid_run_exit(&k, 0);
}
END_TEST

START_TEST(test_groups_default)
{
	ck_assert_int_eq(ck_sysfs_read_long(PFM_TASK_GROUP), -1);
	ck_assert_int_eq(ck_sysfs_read_long(PFM_SYS_GROUP), -1);
}
END_TEST

START_TEST(test_task_group)
{
	struct run r[4];

	ck_knob(PFM_TASK_GROUP, GROUP);
	as_user(&r[0], USER_NOBODY, expect_create, (void *)&task_eperm);
	as_user(&r[1], USER_NOBODY_GROUP, expect_create, (void *)&task_ok);
	as_user(&r[2], ROOT, expect_create, (void *)&task_ok);
	as_user(&r[3], USER_PERFMON, expect_create, (void *)&task_ok);
	knobs_restore();
	ck_run(&r[0]);
	ck_run(&r[1]);
	ck_run(&r[2]);
	ck_run(&r[3]);
	ck_assert_int_eq(ck_sysfs_read_long(PFM_TASK_GROUP), -1);
}
END_TEST

/* With CPU sessions open to all (paranoid 0), sys_group narrows them. */
START_TEST(test_sys_group)
{
	struct run r[3];

	ck_knob(PFM_PARANOID, 0);
	ck_knob(PFM_SYS_GROUP, GROUP);
	as_user(&r[0], USER_NOBODY, expect_create, (void *)&sys_eperm);
	as_user(&r[1], USER_NOBODY_GROUP, expect_sys_session, NULL);
	as_user(&r[2], USER_NOBODY, expect_create, (void *)&task_ok);
	knobs_restore();
	ck_run(&r[0]);
	ck_run(&r[1]);
	ck_run(&r[2]);
}
END_TEST

#define MANY	5

/* At most 3 contexts (ctx_per_user_max) for a user without CAP_PERFMON. */
static void per_user_limit(void *arg)
{
	int fd[MANY], i;

	(void)arg;
	for (i = 0; i < 3; i++)
		child_expect(fd[i] = pfm_create_context(0), 0);
	child_expect(pfm_create_context(0), EMFILE);
	/* a closed context no longer counts */
	close(fd[1]);
	child_expect(fd[1] = pfm_create_context(0), 0);
	child_expect(pfm_create_context(0), EMFILE);
	for (i = 0; i < 3; i++)
		close(fd[i]);
	for (i = 0; i < 3; i++)
		child_expect(fd[i] = pfm_create_context(0), 0);
}

static void no_limit(void *arg)
{
	int fd[MANY], i;

	(void)arg;
	for (i = 0; i < MANY; i++)
		child_expect(fd[i] = pfm_create_context(0), 0);
}

START_TEST(test_ctx_per_user_max)
{
	struct run r[3];

	ck_knob(PFM_CTX_PER_USER_MAX, 3);
	as_user(&r[0], USER_NOBODY, per_user_limit, NULL);
	as_user(&r[1], ROOT, no_limit, NULL);
	as_user(&r[2], USER_PERFMON, no_limit, NULL);
	knobs_restore();
	ck_run(&r[0]);
	ck_run(&r[1]);
	ck_run(&r[2]);
}
END_TEST

/* The session counts follow the attachments. */
START_TEST(test_task_sessions_count)
{
	struct kid k = KID_INIT;
	int fd = ck_ctx_create();

	ck_assert_int_eq(ck_sysfs_read_long(PFM_TASK_SESSIONS), 0);
	ck_load_self(fd);
	ck_assert_int_eq(ck_sysfs_read_long(PFM_TASK_SESSIONS), 1);
	ck_assert_int_eq(ck_sysfs_read_long(PFM_SYS_SESSIONS), 0);
	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_assert_int_eq(ck_sysfs_read_long(PFM_TASK_SESSIONS), 0);

	/* on another process, until it exits */
	ck_kid_start(&k);
	ck_assert_ok(pfm_load_context(fd, 0, k.pid));
	ck_assert_int_eq(ck_sysfs_read_long(PFM_TASK_SESSIONS), 1);
	ck_kid_run_exit(&k, 0);
	ck_assert_int_eq(ck_sysfs_read_long(PFM_TASK_SESSIONS), 0);
	close(fd);
}
END_TEST

START_TEST(test_sys_sessions_count)
{
	int fd = pfm_create_context(PFM_FL_SYSTEM_WIDE);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ck_sysfs_read_long(PFM_SYS_SESSIONS), 0);
	ck_assert_ok(pfm_load_context(fd, 0, 0));
	ck_assert_int_eq(ck_sysfs_read_long(PFM_SYS_SESSIONS), 1);
	ck_assert_int_eq(ck_sysfs_read_long(PFM_TASK_SESSIONS), 0);
	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_assert_int_eq(ck_sysfs_read_long(PFM_SYS_SESSIONS), 0);
	/* a close detaches too */
	ck_assert_ok(pfm_load_context(fd, 0, 0));
	close(fd);
	ck_assert_int_eq(ck_sysfs_read_long(PFM_SYS_SESSIONS), 0);
}
END_TEST

Suite *pfm_access_suite(void)
{
	Suite *s = suite_create("access");
	TCase *tc;

	tc = pfm_tcase("attach_access");
	tcase_add_test(tc, test_default_policy);
	tcase_add_test(tc, test_nobody_attach_root);
	tcase_add_test(tc, test_perfmon_cap_attach_root);
	tcase_add_test(tc, test_nobody_attach_own_child);
	tcase_add_test(tc, test_nobody_attach_undumpable);
	tcase_add_test(tc, test_nobody_attach_gid);
	tcase_add_test(tc, test_ptrace_cap_attach_root);
	tcase_add_test(tc, test_attach_check_leaves_no_dentries);
	suite_add_tcase(s, tc);

	/* these change the knobs: the runner puts them back whatever happens */
	tc = pfm_tcase("knobs");
	tcase_add_unchecked_fixture(tc, knobs_save, knobs_restore);
	/* and each test starts from them, whatever the one before did */
	tcase_add_checked_fixture(tc, knobs_restore, NULL);
	tcase_add_test(tc, test_paranoid_default);
	tcase_add_test(tc, test_paranoid_values);
	tcase_add_test(tc, test_paranoid_system_3);
	tcase_add_test(tc, test_paranoid_3);
	tcase_add_test(tc, test_paranoid_1);
	tcase_add_loop_test(tc, test_paranoid_0, 0, 2);
	tcase_add_test(tc, test_groups_default);
	tcase_add_test(tc, test_task_group);
	tcase_add_test(tc, test_sys_group);
	tcase_add_test(tc, test_ctx_per_user_max);
	tcase_add_test(tc, test_task_sessions_count);
	tcase_add_test(tc, test_sys_sessions_count);
	suite_add_tcase(s, tc);
	return s;
}
