// SPDX-License-Identifier: LGPL-2.1
/*
 * The preload's choice between perfmon and the kernel's perf_event_open
 * (libpfm-glue/preload/fallback.c), on scripted answers of both: which one
 * opens the event, which errno the client sees, and that the kernel is not
 * asked where it must not be.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "preload/fallback.h"

#define PFM_FD		5	/* what perfmon opens */
#define KERNEL_FD	7	/* what the kernel opens */
#define KERNEL_LEADER	9	/* a kernel event, as group_fd */
#define PFM_LEADER	11	/* a perfmon event, as group_fd */

static struct {
	int shim_err;		/* perfmon's errno, 0: it opens */
	long probe;		/* the kernel's answer to a NULL attr */
	long kernel;		/* the kernel's answer to the event */
	int shim_calls, probes, kernel_calls;
	struct perf_event_attr *kernel_attr;
	pid_t kernel_pid;
	int kernel_cpu, kernel_group;
	unsigned long kernel_flags;
	pid_t pid;
	int said;
	char line[256];
} w;

static int fake_shim_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			  int group_fd, unsigned long flags)
{
	(void)attr; (void)pid; (void)cpu; (void)group_fd; (void)flags;
	w.shim_calls++;
	if (!w.shim_err)
		return PFM_FD;
	errno = w.shim_err;
	return -1;
}

static long fake_kernel_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			     int group_fd, unsigned long flags)
{
	if (!attr) {
		w.probes++;
		return w.probe;
	}
	w.kernel_calls++;
	w.kernel_attr = attr;
	w.kernel_pid = pid;
	w.kernel_cpu = cpu;
	w.kernel_group = group_fd;
	w.kernel_flags = flags;
	return w.kernel;
}

static int fake_kernel_event(int fd)
{
	return fd == KERNEL_LEADER;
}

static pid_t fake_getpid(void)
{
	return w.pid;
}

static void fake_say(const char *line)
{
	w.said++;
	strncpy(w.line, line, sizeof(w.line) - 1);
}

static const struct pfm_fallback_ops fake_ops = {
	.shim_open = fake_shim_open,
	.kernel_open = fake_kernel_open,
	.kernel_event = fake_kernel_event,
	.getpid = fake_getpid,
	.say = fake_say,
};

static struct pfm_fallback f;
static struct perf_event_attr tp;

/* perfmon refuses with ENOENT, the kernel is there and opens */
static void setup(void)
{
	memset(&w, 0, sizeof(w));
	w.shim_err = ENOENT;
	w.probe = -EFAULT;
	w.kernel = KERNEL_FD;
	w.pid = 100;
	unsetenv(PFM_PERF_FALLBACK_ENV);
	unsetenv(PFM_PERF_FALLBACK_NOTE_ENV);
	pfm_fallback_init(&f, &fake_ops);
	memset(&tp, 0, sizeof(tp));
	tp.type = PERF_TYPE_TRACEPOINT;
	tp.size = sizeof(tp);
	tp.config = 0x15;
}

/* open alone (group_fd -1); the fd, or -errno */
static int open_alone(void)
{
	int fd = pfm_fallback_open(&f, &tp, 123, -1, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int open_in(int group_fd, unsigned long flags)
{
	int fd = pfm_fallback_open(&f, &tp, 0, -1, group_fd, flags);

	return fd < 0 ? -errno : fd;
}

START_TEST(perfmon_serves)
{
	w.shim_err = 0;
	ck_assert_int_eq(open_alone(), PFM_FD);
	ck_assert_int_eq(w.probes + w.kernel_calls, 0);
}
END_TEST

START_TEST(kernel_serves_alone)
{
	ck_assert_int_eq(open_alone(), KERNEL_FD);
	ck_assert_int_eq(w.shim_calls, 1);
	ck_assert_int_eq(w.probes, 1);
	ck_assert_int_eq(w.kernel_calls, 1);
	/* the same arguments, untouched */
	ck_assert_ptr_eq(w.kernel_attr, &tp);
	ck_assert_int_eq(w.kernel_pid, 123);
	ck_assert_int_eq(w.kernel_cpu, -1);
	ck_assert_int_eq(w.kernel_group, -1);
	ck_assert_uint_eq(w.kernel_flags, PERF_FLAG_FD_CLOEXEC);
	ck_assert_int_eq(w.said, 0);
	/* the kernel is asked once per process whether it is there */
	ck_assert_int_eq(open_alone(), KERNEL_FD);
	ck_assert_int_eq(w.probes, 1);
	ck_assert_int_eq(w.kernel_calls, 2);
}
END_TEST

START_TEST(eopnotsupp_to_kernel)
{
	w.shim_err = EOPNOTSUPP;
	tp.type = PERF_TYPE_SOFTWARE;
	tp.sample_type = PERF_SAMPLE_REGS_USER;
	ck_assert_int_eq(open_alone(), KERNEL_FD);
}
END_TEST

/* perf lowers precise_ip after each EOPNOTSUPP: it must see them */
START_TEST(precise_ip_stays)
{
	w.shim_err = EOPNOTSUPP;
	tp.type = PERF_TYPE_HARDWARE;
	tp.precise_ip = 2;
	ck_assert_int_eq(open_alone(), -EOPNOTSUPP);
	ck_assert_int_eq(w.probes + w.kernel_calls, 0);
}
END_TEST

/* privilege, a bad attr, a gone thread: rules the kernel applies too */
START_TEST(other_errno_stays)
{
	static const int errs[] = { EINVAL, EACCES, EPERM, ESRCH, E2BIG, EFAULT,
				    EBUSY, EMFILE, ENODEV, EOVERFLOW };
	size_t i;

	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		w.shim_err = errs[i];
		ck_assert_int_eq(open_alone(), -errs[i]);
	}
	ck_assert_int_eq(w.probes + w.kernel_calls, 0);
}
END_TEST

START_TEST(kernel_missing)
{
	w.probe = -ENOSYS;
	ck_assert_int_eq(open_alone(), -ENOENT);
	ck_assert_int_eq(w.kernel_calls, 0);
	w.shim_err = EOPNOTSUPP;
	ck_assert_int_eq(open_alone(), -EOPNOTSUPP);
	ck_assert_int_eq(w.probes, 1);
	ck_assert_int_eq(w.kernel_calls, 0);
}
END_TEST

/* a seccomp filter's errno, whichever it chose */
START_TEST(kernel_blocked)
{
	static const long blocks[] = { -EPERM, -ENOSYS, -EACCES, -EINVAL };
	size_t i;

	for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		pfm_fallback_init(&f, &fake_ops);
		w.probe = blocks[i];
		ck_assert_int_eq(open_alone(), -ENOENT);
	}
	ck_assert_int_eq(w.kernel_calls, 0);
}
END_TEST

/* there, the kernel's refusal is perf's answer for the event */
START_TEST(kernel_refuses)
{
	w.kernel = -EINVAL;
	ck_assert_int_eq(open_alone(), -EINVAL);
	w.kernel = -ENOENT;
	ck_assert_int_eq(open_alone(), -ENOENT);
	ck_assert_int_eq(w.said, 0);
}
END_TEST

START_TEST(switched_off)
{
	setenv(PFM_PERF_FALLBACK_ENV, "0", 1);
	pfm_fallback_init(&f, &fake_ops);
	ck_assert_int_eq(open_alone(), -ENOENT);
	/* perfmon's answers alone, for groups too */
	w.shim_err = EBADF;
	ck_assert_int_eq(open_in(KERNEL_LEADER, 0), -EBADF);
	w.shim_err = ENOENT;
	ck_assert_int_eq(open_in(PFM_LEADER, 0), -ENOENT);
	ck_assert_int_eq(w.probes + w.kernel_calls, 0);
	/* anything but 0 leaves it on */
	setenv(PFM_PERF_FALLBACK_ENV, "1", 1);
	pfm_fallback_init(&f, &fake_ops);
	ck_assert_int_eq(open_alone(), KERNEL_FD);
}
END_TEST

START_TEST(note_once_per_process)
{
	setenv(PFM_PERF_FALLBACK_NOTE_ENV, "1", 1);
	pfm_fallback_init(&f, &fake_ops);
	ck_assert_int_eq(open_alone(), KERNEL_FD);
	ck_assert_int_eq(w.said, 1);
	ck_assert_ptr_nonnull(strstr(w.line, "type 2 (tracepoint) config 0x15"));
	ck_assert_ptr_nonnull(strstr(w.line, "ENOENT"));
	ck_assert_int_eq(w.line[strlen(w.line) - 1], '\n');
	tp.type = PERF_TYPE_BREAKPOINT;
	ck_assert_int_eq(open_alone(), KERNEL_FD);
	ck_assert_int_eq(w.said, 1);
	/* a forked child is another process */
	w.pid = 101;
	ck_assert_int_eq(open_alone(), KERNEL_FD);
	ck_assert_int_eq(w.said, 2);
	ck_assert_ptr_nonnull(strstr(w.line, "type 5 (breakpoint) config 0x15"));
	/* said only when the kernel opened it */
	w.pid = 102;
	w.kernel = -EINVAL;
	ck_assert_int_eq(open_alone(), -EINVAL);
	ck_assert_int_eq(w.said, 2);
}
END_TEST

START_TEST(note_names_type)
{
	setenv(PFM_PERF_FALLBACK_NOTE_ENV, "yes", 1);
	pfm_fallback_init(&f, &fake_ops);
	w.shim_err = EOPNOTSUPP;
	tp.type = PERF_TYPE_MAX + 3;
	tp.config = 0;
	ck_assert_int_eq(open_alone(), KERNEL_FD);
	ck_assert_int_eq(w.said, 1);
	ck_assert_ptr_nonnull(strstr(w.line, "type 9 (dynamic PMU) config 0:"));
	ck_assert_ptr_nonnull(strstr(w.line, "EOPNOTSUPP"));
}
END_TEST

START_TEST(note_off)
{
	setenv(PFM_PERF_FALLBACK_NOTE_ENV, "0", 1);
	pfm_fallback_init(&f, &fake_ops);
	ck_assert_int_eq(open_alone(), KERNEL_FD);
	setenv(PFM_PERF_FALLBACK_NOTE_ENV, "", 1);
	pfm_fallback_init(&f, &fake_ops);
	ck_assert_int_eq(open_alone(), KERNEL_FD);
	ck_assert_int_eq(w.said, 0);
}
END_TEST

/* perfmon checks group_fd first: a kernel leader is EBADF there */
START_TEST(kernel_leads_perfmon)
{
	w.shim_err = EBADF;
	tp.type = PERF_TYPE_SOFTWARE;
	ck_assert_int_eq(open_in(KERNEL_LEADER, 0), -EINVAL);
	ck_assert_int_eq(w.kernel_calls, 0);
	/* no event at all: perfmon's EBADF, as perf's */
	ck_assert_int_eq(open_in(3, 0), -EBADF);
	/* the cgroup's fd may be what perfmon refused */
	ck_assert_int_eq(open_in(KERNEL_LEADER, PERF_FLAG_PID_CGROUP), -EBADF);
}
END_TEST

START_TEST(perfmon_leads_kernel)
{
	ck_assert_int_eq(open_in(PFM_LEADER, 0), -EINVAL);
	ck_assert_int_eq(w.kernel_calls, 0);
	w.shim_err = EOPNOTSUPP;
	ck_assert_int_eq(open_in(PFM_LEADER, 0), -EINVAL);
	/* FD_OUTPUT into a perfmon ring is a tie too */
	ck_assert_int_eq(open_in(PFM_LEADER, PERF_FLAG_FD_OUTPUT), -EINVAL);
	ck_assert_int_eq(w.kernel_calls, 0);
	/* not an event the kernel would have had: perfmon's errno */
	w.shim_err = EINVAL;
	ck_assert_int_eq(open_in(PFM_LEADER, 0), -EINVAL);
	w.shim_err = ESRCH;
	ck_assert_int_eq(open_in(PFM_LEADER, 0), -ESRCH);
}
END_TEST

/* with no kernel to serve it, the event's errno is perfmon's, as alone */
START_TEST(perfmon_leads_no_kernel)
{
	w.probe = -ENOSYS;
	ck_assert_int_eq(open_in(PFM_LEADER, 0), -ENOENT);
	ck_assert_int_eq(w.kernel_calls, 0);
}
END_TEST

static Suite *fallback_suite(void)
{
	Suite *s = suite_create("fallback");
	TCase *tc = tcase_create("fallback");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, perfmon_serves);
	tcase_add_test(tc, kernel_serves_alone);
	tcase_add_test(tc, eopnotsupp_to_kernel);
	tcase_add_test(tc, precise_ip_stays);
	tcase_add_test(tc, other_errno_stays);
	tcase_add_test(tc, kernel_missing);
	tcase_add_test(tc, kernel_blocked);
	tcase_add_test(tc, kernel_refuses);
	tcase_add_test(tc, switched_off);
	tcase_add_test(tc, note_once_per_process);
	tcase_add_test(tc, note_names_type);
	tcase_add_test(tc, note_off);
	tcase_add_test(tc, kernel_leads_perfmon);
	tcase_add_test(tc, perfmon_leads_kernel);
	tcase_add_test(tc, perfmon_leads_no_kernel);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fallback_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
