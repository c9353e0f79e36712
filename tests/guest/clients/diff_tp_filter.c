// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff: PERF_EVENT_IOC_SET_FILTER on tracepoint events, in the tracefs
 * filter language.
 *
 * tp-filter: syscalls:sys_enter_getpgid filtered on its argument ("pid == 4242"):
 * of N1 getpgid(4242) and N2 getpgid(0) calls, exactly N1 count; a second filter
 * on it (EEXIST).  syscalls:sys_enter_getppid, inherited, filtered on
 * "common_pid != <the test's pid>": a forked child's N3 calls count, the test's
 * own N4 do not.  Refusals: a field the event does not have, a filter that does
 * not parse, a filter on a software event (EINVAL), a string at a bad address
 * (EFAULT).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diff.h"

#define N1	50
#define N2	70
#define N3	30
#define N4	20

static void calls(long nr, long arg, int n)
{
	while (n--)
		syscall(nr, arg);
}

static void read_exact(struct trace *t, int fd, const char *what)
{
	unsigned long long v;

	if (do_read(t, fd, &v, sizeof(v), what) == sizeof(v))
		obs_val(t, v, 'e');
}

static void set_filter(struct trace *t, int fd, const char *filter)
{
	do_ioctl(t, fd, PERF_EVENT_IOC_SET_FILTER, (unsigned long)filter, filter);
}

/* Filtered on the system call's argument. */
static void filter_arg(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	int fd;

	attr_tp(&a, tp_id("syscalls", "sys_enter_getpgid"));
	fd = do_open(be, t, &a, 0, -1, -1, 0, "sys_enter_getpgid");
	if (fd < 0)
		return;
	set_filter(t, fd, "pid == 4242");
	set_filter(t, fd, "pid == 1");
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "enable");
	calls(SYS_getpgid, 4242, N1);
	calls(SYS_getpgid, 0, N2);
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "disable");
	read_exact(t, fd, "getpgid(4242) calls");
	close(fd);
}

/* Filtered on the common pid, inherited by a child that makes the calls. */
static void filter_pid_inherit(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	char filter[64];
	int fd, status = -1;
	pid_t pid;

	attr_tp(&a, tp_id("syscalls", "sys_enter_getppid"));
	a.inherit = 1;
	fd = do_open(be, t, &a, 0, -1, -1, 0, "sys_enter_getppid inherit");
	if (fd < 0)
		return;
	snprintf(filter, sizeof(filter), "common_pid != %d", (int)getpid());
	do_ioctl(t, fd, PERF_EVENT_IOC_SET_FILTER, (unsigned long)filter,
		 "common_pid != the test's pid");
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "enable");
	pid = fork();
	if (!pid) {
		calls(SYS_getppid, 0, N3);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	obs_call(t, status == 0 ? 0 : -1, 1, "child made %d calls", N3);
	calls(SYS_getppid, 0, N4);
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "disable");
	read_exact(t, fd, "the child's calls only");
	close(fd);
}

static void filter_bad(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	int fd;

	attr_tp(&a, tp_id("syscalls", "sys_enter_getpgid"));
	fd = do_open(be, t, &a, 0, -1, -1, 0, "sys_enter_getpgid");
	if (fd >= 0) {
		set_filter(t, fd, "nosuchfield == 1");
		set_filter(t, fd, "pid ==");
		do_ioctl(t, fd, PERF_EVENT_IOC_SET_FILTER, 8, "a filter at a bad address");
		close(fd);
	}
	attr_sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	fd = do_open(be, t, &a, 0, -1, -1, 0, "task-clock");
	if (fd >= 0) {
		set_filter(t, fd, "pid == 1");
		close(fd);
	}
}

void case_tp_filter(const struct backend *be, struct trace *t)
{
	filter_arg(be, t);
	filter_pid_inherit(be, t);
	filter_bad(be, t);
}
