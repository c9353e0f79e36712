// SPDX-License-Identifier: GPL-2.0
/*
 * door: which way the calls reach the kernel.
 *
 * A kernel with perfmon built in publishes its first system call number in
 * /sys/kernel/perfmon/syscall, and libperfmon must then use the system calls;
 * with the module there is no such file and libperfmon uses /dev/perfmon.
 * On the in-tree kernel the tests below also make the system calls by hand,
 * with no library in between, so that the calls are known to be reached by
 * their numbers, each number reaching its own call.  On the module the tests
 * make the ioctls by hand: the door decodes each one from the call's row in
 * the entry table, and refuses what matches no row.  On both, the vector calls
 * are made by hand as ioctls of the context's own fd (PFM_IOC_VEC_CTX).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

#define PFM_SYSCALL_FILE	PFM_SYSFS "/syscall"

/* The x86_64 number of pfm_create_context (scripts/intree/core.patch). */
#define PFM_NR_CREATE_CONTEXT	451

static int have_syscalls(void)
{
	return access(PFM_SYSCALL_FILE, F_OK) == 0;
}

/* The published first number; the test fails if it cannot be read. */
static long sysbase(void)
{
	return ck_sysfs_read_long(PFM_SYSCALL_FILE);
}

/*
 * Call PFM_CALL_<NAME> by number, as the kernel's table has it.  The number is
 * read once, at the first call: reading it later, between a start and a stop,
 * would add system calls to the counts.
 */
static long raw(int call, long a0, long a1, long a2, long a3)
{
	static long base;

	if (!base)
		base = sysbase();
	return syscall(base + call, a0, a1, a2, a3);
}

START_TEST(test_door_is_syscall)
{
	ck_assert_int_eq(pfm_door(), PFM_DOOR_SYSCALL);
	ck_assert_int_eq(sysbase(), PFM_NR_CREATE_CONTEXT);
}
END_TEST

START_TEST(test_door_is_ioctl)
{
	ck_assert_int_eq(pfm_door(), PFM_DOOR_IOCTL);
}
END_TEST

/* A context made by the raw call is a perfmon fd that the library can use. */
START_TEST(test_raw_create_context)
{
	char path[64], link[64];
	ssize_t n;
	long fd;

	errno = 0;
	fd = raw(PFM_CALL_CREATE_CONTEXT, 0, 0, 0, 0);
	ck_assert_msg(fd >= 0, "syscall(pfm_create_context): %s", strerror(errno));

	snprintf(path, sizeof(path), "/proc/self/fd/%ld", fd);
	n = readlink(path, link, sizeof(link) - 1);
	ck_assert_int_gt(n, 0);
	link[n] = '\0';
	ck_assert_str_eq(link, "anon_inode:[pfmfd]");

	ck_write_pmc((int)fd, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_assert_ok(close((int)fd));
}
END_TEST

/* Every call that takes a context checks it first. */
static const int fd_calls[] = {
	PFM_CALL_WRITE_PMCS, PFM_CALL_WRITE_PMDS, PFM_CALL_READ_PMDS,
	PFM_CALL_LOAD_CONTEXT, PFM_CALL_START, PFM_CALL_STOP,
	PFM_CALL_UNLOAD_CONTEXT,
};

START_TEST(test_raw_bad_fd)
{
	int call = fd_calls[_i];
	int devnull;

	ck_assert_errno(raw(call, -1, 0, 0, 0), EBADF);
	ck_assert_errno(raw(call, INT_MAX, 0, 0, 0), EBADF);
	/* an open fd that is not a context */
	devnull = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(devnull, 0);
	ck_assert_errno(raw(call, devnull, 0, 0, 0), EBADF);
	close(devnull);
}
END_TEST

/* A negative target: the same errno as the ioctl door gives (state.c). */
START_TEST(test_raw_load_negative_target)
{
	int fd = ck_ctx_create();

	ck_assert_errno(raw(PFM_CALL_LOAD_CONTEXT, fd, 0, -1, 0), ESRCH);
	ck_assert_errno(pfm_load_context(fd, 0, -1), ESRCH);
	close(fd);
}
END_TEST

/*
 * A whole session by number: a call wired to the wrong number would fail
 * here or count wrongly.  The stop is a system call and counts itself.
 */
START_TEST(test_raw_session)
{
	struct pfarg_pmc pc;
	struct pfarg_pmd pd;
	long fd, rs, rt;

	fd = raw(PFM_CALL_CREATE_CONTEXT, 0, 0, 0, 0);
	ck_assert_msg(fd >= 0, "create: %s", strerror(errno));
	pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_assert_ok(raw(PFM_CALL_WRITE_PMCS, fd, (long)&pc, sizeof(pc), 0));
	pmd_init(&pd, SW_PMD(0), 0);
	ck_assert_ok(raw(PFM_CALL_WRITE_PMDS, fd, (long)&pd, sizeof(pd), 0));
	ck_assert_ok(raw(PFM_CALL_LOAD_CONTEXT, fd, 0, self_tid(), 0));

	rs = raw(PFM_CALL_START, fd, 0, 0, 0);
	do_getppid(100);
	rt = raw(PFM_CALL_STOP, fd, 0, 0, 0);
	ck_assert_msg(rs == 0 && rt == 0, "start %ld, stop %ld: %s", rs, rt,
		      strerror(errno));

	pmd_init(&pd, SW_PMD(0), 0);
	ck_assert_ok(raw(PFM_CALL_READ_PMDS, fd, (long)&pd, sizeof(pd), 0));
	ck_assert_uint_eq(pd.reg_value, 100 + 1);
	ck_assert_ok(raw(PFM_CALL_UNLOAD_CONTEXT, fd, 0, 0, 0));
	/* unloaded: stop is refused, by the stop call */
	ck_assert_errno(raw(PFM_CALL_STOP, fd, 0, 0, 0), EINVAL);
	ck_assert_ok(close((int)fd));
}
END_TEST

static int dev_open(void)
{
	int dev = open("/dev/perfmon", O_RDWR);

	ck_assert_msg(dev >= 0, "/dev/perfmon: %s", strerror(errno));
	return dev;
}

/* An ioctl that is no call's: its number, size, direction or type is wrong. */
START_TEST(test_ioctl_unknown)
{
	struct pfarg_ioc_ctl ctl = { .fd = -1 };
	int dev = dev_open();

	ck_assert_errno(ioctl(dev, _IOW(PFM_IOC_MAGIC, PFM_CALL_NR, struct pfarg_ioc_ctl),
				   &ctl), ENOTTY);
	ck_assert_errno(ioctl(dev, _IOW(PFM_IOC_MAGIC, 255, struct pfarg_ioc_ctl), &ctl),
			ENOTTY);
	/* the stop call with the vector structure's size */
	ck_assert_errno(ioctl(dev, _IOW(PFM_IOC_MAGIC, PFM_CALL_STOP, struct pfarg_ioc_vec),
				   &ctl), ENOTTY);
	ck_assert_errno(ioctl(dev, _IOR(PFM_IOC_MAGIC, PFM_CALL_STOP, struct pfarg_ioc_ctl),
				   &ctl), ENOTTY);
	ck_assert_errno(ioctl(dev, _IOW('K', PFM_CALL_STOP, struct pfarg_ioc_ctl), &ctl),
			ENOTTY);
	/* the right ioctl reaches the call, which checks the fd */
	ck_assert_errno(ioctl(dev, PFM_IOC_STOP, &ctl), EBADF);
	close(dev);
}
END_TEST

/*
 * Reserved fields, and an argument the call does not take, are refused before
 * anything else (the fd is not even looked at); a structure that cannot be
 * read is EFAULT.
 */
START_TEST(test_ioctl_bad_fields)
{
	struct pfarg_ioc_create create = { .reserved1 = 1 };
	struct pfarg_ioc_vec vec = { .fd = -1, .reserved1 = 1 };
	struct pfarg_ioc_ctl ctl = { .fd = -1, .arg = 1 };
	int dev = dev_open();

	ck_assert_errno(ioctl(dev, PFM_IOC_CREATE_CONTEXT, &create), EINVAL);
	ck_assert_errno(ioctl(dev, PFM_IOC_WRITE_PMCS, &vec), EINVAL);
	ck_assert_errno(ioctl(dev, PFM_IOC_GETINFO_EVTSETS, &vec), EINVAL);
	ck_assert_errno(ioctl(dev, PFM_IOC_STOP, &ctl), EINVAL);
	ck_assert_errno(ioctl(dev, PFM_IOC_UNLOAD_CONTEXT, &ctl), EINVAL);
	ck_assert_errno(ioctl(dev, PFM_IOC_STOP, NULL), EFAULT);
	vec.reserved1 = 0;
	ck_assert_errno(ioctl(dev, PFM_IOC_WRITE_PMCS, &vec), EBADF);
	ctl.arg = 0;
	ck_assert_errno(ioctl(dev, PFM_IOC_UNLOAD_CONTEXT, &ctl), EBADF);
	close(dev);
}
END_TEST

/* A context set up by hand-made ioctls; a vector of no whole element is refused. */
START_TEST(test_ioctl_session)
{
	struct pfarg_ioc_ctl ctl = {};
	struct pfarg_pmc pc;
	struct pfarg_ioc_vec vec = { .req = (unsigned long)&pc, .size = sizeof(pc) };
	struct pfarg_ioc_create create = {};
	int dev = dev_open(), fd;

	fd = ioctl(dev, PFM_IOC_CREATE_CONTEXT, &create);
	ck_assert_msg(fd >= 0, "create: %s", strerror(errno));
	pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	vec.fd = fd;
	ck_assert_ok(ioctl(dev, PFM_IOC_WRITE_PMCS, &vec));
	/* a vector of no whole element */
	vec.size = sizeof(pc) - 1;
	ck_assert_errno(ioctl(dev, PFM_IOC_WRITE_PMCS, &vec), EINVAL);
	ctl.fd = fd;
	ctl.arg = self_tid();
	ck_assert_ok(ioctl(dev, PFM_IOC_LOAD_CONTEXT, &ctl));
	ctl.arg = 0;
	ck_assert_ok(ioctl(dev, PFM_IOC_UNLOAD_CONTEXT, &ctl));
	close(fd);
	close(dev);
}
END_TEST

/* --- the context's own ioctl ------------------------------------------- */

static long ctx_vec(int fd, int call, void *req, size_t size)
{
	return ioctl(fd, PFM_IOC_VEC_CTX(call, size), req);
}

/*
 * A session programmed and read by the context's ioctls counts as one through
 * the library: the stop, a system call, counts itself.
 */
START_TEST(test_ctx_ioctl_session)
{
	struct pfarg_pmc pc;
	struct pfarg_pmd pd[2];
	int fd = ck_ctx_create(), rs, rt;

	pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_assert_ok(ctx_vec(fd, PFM_CALL_WRITE_PMCS, &pc, sizeof(pc)));
	pmd_init(&pd[0], SW_PMD(0), 0);
	ck_assert_ok(ctx_vec(fd, PFM_CALL_WRITE_PMDS, &pd[0], sizeof(pd[0])));
	ck_assert_ok(pfm_load_context(fd, 0, self_tid()));
	/* no assertion in the window: each is a system call of check's */
	rs = pfm_start(fd, 0);
	do_getppid(100);
	rt = pfm_stop(fd, 0);
	ck_assert_msg(rs == 0 && rt == 0, "start %d, stop %d: %s", rs, rt, strerror(errno));

	pmd_init(&pd[0], SW_PMD(0), 0);
	pmd_init(&pd[1], SW_PMD(0), 0);
	pd[0].reg_value = pd[1].reg_value = 77;
	ck_assert_ok(ctx_vec(fd, PFM_CALL_READ_PMDS, pd, sizeof(pd)));
	ck_assert_uint_eq(pd[0].reg_value, 100 + 1);
	ck_assert_uint_eq(pd[1].reg_value, 100 + 1);
	/* the other door reads the same */
	pmd_init(&pd[1], SW_PMD(0), 0);
	ck_assert_ok(pfm_door() == PFM_DOOR_SYSCALL ?
		     raw(PFM_CALL_READ_PMDS, fd, (long)&pd[1], sizeof(pd[1]), 0) :
		     pfm_read_pmds(fd, &pd[1], sizeof(pd[1])));
	ck_assert_uint_eq(pd[1].reg_value, 100 + 1);
	close(fd);
}
END_TEST

/*
 * Only the vector calls' commands: another number, direction or type, or a call
 * that takes no vector, is ENOTTY and changes nothing.  From the size on, the
 * call's own rules.
 */
START_TEST(test_ctx_ioctl_rules)
{
	struct pfarg_pmd pd;
	struct pfarg_pmc pc;
	int fd = ck_ctx_create();

	pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_assert_errno(ctx_vec(fd, PFM_CALL_START, &pc, sizeof(pc)), ENOTTY);
	ck_assert_errno(ctx_vec(fd, PFM_CALL_CREATE_CONTEXT, &pc, sizeof(pc)), ENOTTY);
	ck_assert_errno(ctx_vec(fd, PFM_CALL_PERF_EVENT_OPEN, &pc, sizeof(pc)), ENOTTY);
	ck_assert_errno(ctx_vec(fd, PFM_CALL_NR, &pc, sizeof(pc)), ENOTTY);
	ck_assert_errno(ioctl(fd, _IOC(_IOC_WRITE, PFM_IOC_MAGIC, PFM_CALL_WRITE_PMCS,
				       sizeof(pc)), &pc), ENOTTY);
	ck_assert_errno(ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, 'K', PFM_CALL_WRITE_PMCS,
				       sizeof(pc)), &pc), ENOTTY);
	/* the /dev/perfmon ioctl is not the context's */
	ck_assert_errno(ioctl(fd, PFM_IOC_WRITE_PMCS, &pc), ENOTTY);
	/* none of them wrote the PMC: reading its PMD finds it unused, 0 */
	pmd_init(&pd, SW_PMD(0), 0);
	pd.reg_value = 5;
	ck_assert_ok(ctx_vec(fd, PFM_CALL_READ_PMDS, &pd, sizeof(pd)));
	ck_assert_uint_eq(pd.reg_value, 0);

	ck_assert_errno(ctx_vec(fd, PFM_CALL_READ_PMDS, &pd, 0), EINVAL);
	ck_assert_errno(ctx_vec(fd, PFM_CALL_READ_PMDS, &pd, sizeof(pd) - 1), EINVAL);
	ck_assert_errno(ctx_vec(fd, PFM_CALL_WRITE_PMCS, &pc, sizeof(pc) + 1), EINVAL);
	ck_assert_errno(ctx_vec(fd, PFM_CALL_READ_PMDS, NULL, sizeof(pd)), EFAULT);
	ck_assert_errno(ctx_vec(fd, PFM_CALL_WRITE_PMCS, NULL, sizeof(pc)), EFAULT);
	pd.reg_num = SW_PMD(PFM_SW_NUM_COUNTERS);	/* past the last register */
	ck_assert_errno(ctx_vec(fd, PFM_CALL_READ_PMDS, &pd, sizeof(pd)), EINVAL);
	close(fd);
}
END_TEST

/* Over arg_mem_max: E2BIG, as through the other door. */
START_TEST(test_ctx_ioctl_e2big)
{
	long max = ck_sysfs_read_long(PFM_ARG_MEM_MAX);
	size_t n = (size_t)max / sizeof(struct pfarg_pmd) + 1, i;
	struct pfarg_pmd *pd = calloc(n, sizeof(*pd));
	int fd = ck_ctx_create();

	ck_assert_ptr_nonnull(pd);
	ck_assert_uint_le(n * sizeof(*pd), PFM_IOC_VEC_CTX_MAX);
	for (i = 0; i < n; i++)
		pmd_init(&pd[i], SW_PMD(i % PFM_SW_NUM_COUNTERS), 0);
	ck_assert_errno(ctx_vec(fd, PFM_CALL_READ_PMDS, pd, n * sizeof(*pd)), E2BIG);
	ck_assert_ok(ctx_vec(fd, PFM_CALL_READ_PMDS, pd, (n - 1) * sizeof(*pd)));
	free(pd);
	close(fd);
}
END_TEST

/*
 * A vector longer than the command can say goes through the other door: the
 * library's read of one is answered, E2BIG at the default limit, done when the
 * limit allows it.
 */
START_TEST(test_ctx_ioctl_longer_vector)
{
	size_t n = PFM_IOC_VEC_CTX_MAX / sizeof(struct pfarg_pmd) + 1, i;
	struct pfarg_pmd *pd = calloc(n, sizeof(*pd));
	int fd = ck_ctx_create();
	char buf[32];

	ck_assert_ptr_nonnull(pd);
	for (i = 0; i < n; i++)
		pmd_init(&pd[i], SW_PMD(i % PFM_SW_NUM_COUNTERS), 0);
	ck_assert_int_gt(n * sizeof(*pd), PFM_IOC_VEC_CTX_MAX);
	ck_assert_errno(pfm_read_pmds(fd, pd, n * sizeof(*pd)), E2BIG);
	snprintf(buf, sizeof(buf), "%zu\n", n * sizeof(*pd));
	ck_assert_msg(!sysfs_write(PFM_ARG_MEM_MAX, buf), "arg_mem_max: %s", strerror(errno));
	pd[n - 1].reg_value = 9;
	ck_assert_ok(pfm_read_pmds(fd, pd, n * sizeof(*pd)));
	ck_assert_uint_eq(pd[n - 1].reg_value, 0);
	arg_mem_max_restore();
	free(pd);
	close(fd);
}
END_TEST

/*
 * "pfm_tests --first-read FD V": the process's first call of libperfmon, which
 * chooses the door, is a read of PMD SW_PMD(0) of set 0 of FD; exit status 0
 * when it gives V, or, V being "EBADF", when it fails with EBADF (FD not a
 * context: the context's ioctl refused, the call made again through the door).
 */
int first_read(int fd, const char *want)
{
	struct pfarg_pmd pd;
	long ret;

	memset(&pd, 0, sizeof(pd));
	pd.reg_num = SW_PMD(0);
	ret = pfm_read_pmds(fd, &pd, sizeof(pd));
	if (!strcmp(want, "EBADF"))
		return !(ret == -1 && errno == EBADF);
	return !(ret == 0 && pd.reg_value == strtoull(want, NULL, 0));
}

/* A first read by fd in a new program, what it asks for; what it should find. */
static void exec_first_read(int fd, const char *want)
{
	char num[16], *argv[] = { "pfm_tests", "--first-read", num, (char *)want, NULL };
	int status;
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		/* open across the exec */
		if (fcntl(fd, F_SETFD, 0))
			_exit(2);
		snprintf(num, sizeof(num), "%d", fd);
		execv("/proc/self/exe", argv);
		_exit(3);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "first read of %s in a new program: status 0x%x", want, status);
}

/*
 * The first call of a program may be a read of an inherited context: the door
 * is chosen then, and the read made through it (the context's ioctl with the
 * module), or refused with EBADF for an fd that is no context.
 */
START_TEST(test_first_call_read)
{
	int fd = ck_ctx_create(), null = open("/dev/null", O_RDONLY);
	struct pfarg_pmd pd;

	ck_assert_int_ge(null, 0);
	pmd_init(&pd, SW_PMD(0), 0x1234567890ULL);
	ck_assert_ok(pfm_write_pmds(fd, &pd, sizeof(pd)));
	exec_first_read(fd, "0x1234567890");
	exec_first_read(null, "EBADF");
	close(null);
	close(fd);
}
END_TEST

Suite *pfm_door_suite(void)
{
	Suite *s = suite_create("door");
	TCase *tc;

	/* the kernel under test decides which half applies */
	if (have_syscalls()) {
		tc = pfm_tcase("syscall");
		tcase_add_test(tc, test_door_is_syscall);
		tcase_add_test(tc, test_raw_create_context);
		tcase_add_loop_test(tc, test_raw_bad_fd, 0, ARRAY_SIZE(fd_calls));
		tcase_add_test(tc, test_raw_load_negative_target);
		tcase_add_test(tc, test_raw_session);
	} else {
		tc = pfm_tcase("ioctl");
		tcase_add_test(tc, test_door_is_ioctl);
		tcase_add_test(tc, test_ioctl_unknown);
		tcase_add_test(tc, test_ioctl_bad_fields);
		tcase_add_test(tc, test_ioctl_session);
	}
	suite_add_tcase(s, tc);

	tc = pfm_tcase("ctx-ioctl");
	tcase_add_unchecked_fixture(tc, arg_mem_max_save, arg_mem_max_restore);
	tcase_add_test(tc, test_ctx_ioctl_session);
	tcase_add_test(tc, test_ctx_ioctl_rules);
	tcase_add_test(tc, test_ctx_ioctl_e2big);
	tcase_add_test(tc, test_ctx_ioctl_longer_vector);
	tcase_add_test(tc, test_first_call_read);
	suite_add_tcase(s, tc);
	return s;
}
