// SPDX-License-Identifier: GPL-2.0
/*
 * ctx: creating contexts, and what the calls say about fds that are not one.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

/* create answers with an ordinary fd, which close() destroys */
START_TEST(test_create_close)
{
	int fd = pfm_create_context(0);

	ck_assert_msg(fd >= 0, "pfm_create_context(0): %s", strerror(errno));
	ck_assert_int_eq(fcntl(fd, F_GETFD), 0);
	ck_assert_ok(close(fd));
	ck_assert_errno(fcntl(fd, F_GETFD), EBADF);
}
END_TEST

/* PFM_FL_CLOEXEC gives a close-on-exec fd, as O_CLOEXEC does for open() */
START_TEST(test_create_cloexec)
{
	int fd = pfm_create_context(PFM_FL_CLOEXEC);

	ck_assert_msg(fd >= 0, "pfm_create_context(CLOEXEC): %s", strerror(errno));
	ck_assert_int_eq(fcntl(fd, F_GETFD), FD_CLOEXEC);
	ck_assert_ok(close(fd));
}
END_TEST

/*
 * 0x20 is PFM_FL_INHERIT where its layer is built: inherit.c tests it; bits
 * 8-15 name a type of CPU (below)
 */
static const int unknown_create_flags[] = { 0x40, 0x80, 0x10000, (int)0x80000000u };

START_TEST(test_create_unknown_flags)
{
	ck_assert_errno(pfm_create_context(unknown_create_flags[_i]), EINVAL);
}
END_TEST

/*
 * A type of CPU the machine has not: ENODEV.  The test guest's CPUs are all
 * alike (the unit names no types): every id but 0, perf's cpu_core and
 * cpu_atom included.
 */
START_TEST(test_create_unknown_pmu_type)
{
	static const unsigned int ids[] = { 0x40, 0x20, 1, 0xff };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		ck_assert_errno(pfm_create_context(PFM_FL_PMU_TYPE(ids[i])), ENODEV);
		ck_assert_errno(pfm_create_context(PFM_FL_PMU_TYPE(ids[i]) |
						   PFM_FL_SYSTEM_WIDE), ENODEV);
	}
}
END_TEST

/* a system-wide session has no thread to block */
START_TEST(test_create_block_system_wide)
{
	ck_assert_errno(pfm_create_context(PFM_FL_NOTIFY_BLOCK |
					   PFM_FL_SYSTEM_WIDE), EINVAL);
}
END_TEST

/* the CPU is only named at load time */
START_TEST(test_create_system_wide)
{
	int fd = pfm_create_context(PFM_FL_SYSTEM_WIDE);

	ck_assert_msg(fd >= 0, "pfm_create_context(SYSTEM_WIDE): %s",
		      strerror(errno));
	ck_assert_ok(close(fd));
}
END_TEST

START_TEST(test_create_smpl_fmt_unknown)
{
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, "no-such-format",
					   NULL, (size_t)0), EINVAL);
}
END_TEST

START_TEST(test_create_smpl_fmt_null_name)
{
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, (char *)NULL,
					   NULL, (size_t)0), EFAULT);
}
END_TEST

#define MANY_CONTEXTS	100

START_TEST(test_create_many)
{
	int fds[MANY_CONTEXTS];
	int i;

	for (i = 0; i < MANY_CONTEXTS; i++) {
		fds[i] = pfm_create_context(0);
		ck_assert_msg(fds[i] >= 0, "context %d: %s", i,
			      strerror(errno));
	}
	for (i = 0; i < MANY_CONTEXTS; i++)
		ck_assert_ok(close(fds[i]));
}
END_TEST

/* Every call taking a context, with valid arguments but 'fd'. */
static void all_calls_ebadf(int fd)
{
	struct pfarg_pmc pc;
	struct pfarg_pmd pd;

	pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	pmd_init(&pd, SW_PMD(0), 0);

	ck_assert_errno(pfm_write_pmcs(fd, &pc, sizeof(pc)), EBADF);
	ck_assert_errno(pfm_write_pmds(fd, &pd, sizeof(pd)), EBADF);
	ck_assert_errno(pfm_read_pmds(fd, &pd, sizeof(pd)), EBADF);
	ck_assert_errno(pfm_load_context(fd, 0, self_tid()), EBADF);
	ck_assert_errno(pfm_start(fd, 0), EBADF);
	ck_assert_errno(pfm_stop(fd, 0), EBADF);
	ck_assert_errno(pfm_unload_context(fd, 0), EBADF);
}

static const int bad_fds[] = { -1, 10000, INT_MAX };

START_TEST(test_bad_fd)
{
	all_calls_ebadf(bad_fds[_i]);
}
END_TEST

/* an open fd that is not a context is as bad as a closed one */
START_TEST(test_not_a_context)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	all_calls_ebadf(fd);
	close(fd);
}
END_TEST

/* a context that was closed is gone, even if its number is reused later */
START_TEST(test_closed_context)
{
	int fd = ck_ctx_create();

	ck_assert_ok(close(fd));
	all_calls_ebadf(fd);
}
END_TEST

/* the module gives the ioctl door; the syscall door needs its sysfs file */
START_TEST(test_door)
{
	int expect = access(PFM_SYSFS "/syscall", F_OK) ? PFM_DOOR_IOCTL
							: PFM_DOOR_SYSCALL;

	ck_assert_int_eq(pfm_door(), expect);
}
END_TEST

Suite *pfm_ctx_suite(void)
{
	Suite *s = suite_create("ctx");
	TCase *tc = pfm_tcase("ctx");

	tcase_add_test(tc, test_door);
	tcase_add_test(tc, test_create_close);
	tcase_add_test(tc, test_create_cloexec);
	tcase_add_loop_test(tc, test_create_unknown_flags, 0,
			    ARRAY_SIZE(unknown_create_flags));
	tcase_add_test(tc, test_create_unknown_pmu_type);
	tcase_add_test(tc, test_create_block_system_wide);
	tcase_add_test(tc, test_create_system_wide);
	tcase_add_test(tc, test_create_smpl_fmt_unknown);
	tcase_add_test(tc, test_create_smpl_fmt_null_name);
	tcase_add_test(tc, test_create_many);
	tcase_add_loop_test(tc, test_bad_fd, 0, ARRAY_SIZE(bad_fds));
	tcase_add_test(tc, test_not_a_context);
	tcase_add_test(tc, test_closed_context);
	suite_add_tcase(s, tc);
	return s;
}
