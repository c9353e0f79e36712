// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff: tracepoint events (PERF_TYPE_TRACEPOINT, config the tracefs id).
 *
 * tp-count: syscalls:sys_enter_getppid over N getppid() calls, per thread, exact
 * (with exclude_kernel too: a system call event's registers are at user level, so
 * perf counts it all the same); sched:sched_switch over the thread's sleeps (a
 * scheduler count).  tp-inherit: the same event inherited, N calls made by a forked
 * child, read after it exited.  tp-cpu: the event on CPU 0 (pid -1), the test
 * pinned there.  tp-raw: samples of syscalls:sys_enter_getsid with
 * PERF_SAMPLE_RAW: per sample the raw size, common_type, common_pid (the tid),
 * the system call number and getsid's argument, exactly.  tp-raw-perm: who may
 * have RAW, as nobody: at perf_event_paranoid 2 a thread's own event on a system
 * call trace event (marked for any user), on any CPU or one, but not on
 * sched:sched_switch (EPERM; without RAW it opens), an id that names no trace
 * event EINVAL before the privilege; at 0 a CPU's event on a system call trace
 * event is EPERM (the mark is for a thread's events).  tp-bad: ids that name no
 * trace event.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diff.h"

#define N_CALLS		1000
#define N_SAMPLES	5

/* The tracefs id of system:event, or -1 (and the case records the failure). */
long long tp_id(const char *sys, const char *ev)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[256], buf[32];
	unsigned int i;
	ssize_t n;
	int fd;

	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", roots[i], sys, ev);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = 0;
		return atoll(buf);
	}
	return -1;
}

void attr_tp(struct perf_event_attr *a, long long id)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_TRACEPOINT;
	a->size = sizeof(*a);
	a->config = id;
	a->disabled = 1;
}

static void getppids(long n)
{
	while (n--)
		syscall(SYS_getppid);
}

static void read_count(struct trace *t, int fd, char kind, const char *what)
{
	unsigned long long v;

	if (do_read(t, fd, &v, sizeof(v), what) == sizeof(v))
		obs_val(t, v, kind);
}

void case_tp_count(const struct backend *be, struct trace *t)
{
	long long getppid_id = tp_id("syscalls", "sys_enter_getppid");
	long long switch_id = tp_id("sched", "sched_switch");
	struct perf_event_attr a;
	int fd, fu, fs;

	obs_call(t, getppid_id >= 0 && switch_id >= 0 ? 0 : -1, 1, "tracefs ids");
	attr_tp(&a, getppid_id);
	fd = do_open(be, t, &a, 0, -1, -1, 0, "sys_enter_getppid");
	a.exclude_kernel = 1;
	fu = do_open(be, t, &a, 0, -1, -1, 0, "sys_enter_getppid exclude_kernel");
	attr_tp(&a, switch_id);
	fs = do_open(be, t, &a, 0, -1, -1, 0, "sched_switch");
	if (fd < 0 || fu < 0 || fs < 0)
		goto out;
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "enable");
	do_ioctl(t, fu, PERF_EVENT_IOC_ENABLE, 0, "enable");
	do_ioctl(t, fs, PERF_EVENT_IOC_ENABLE, 0, "enable");
	getppids(N_CALLS);
	work_sleep(10);
	do_ioctl(t, fs, PERF_EVENT_IOC_DISABLE, 0, "disable");
	do_ioctl(t, fu, PERF_EVENT_IOC_DISABLE, 0, "disable");
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "disable");
	read_count(t, fd, 'e', "getppid calls");
	read_count(t, fu, 'e', "getppid calls, user level");
	read_count(t, fs, 's', "the thread's switches");
out:
	if (fd >= 0)
		close(fd);
	if (fu >= 0)
		close(fu);
	if (fs >= 0)
		close(fs);
}

void case_tp_inherit(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	int fd, status = -1;
	pid_t pid;

	attr_tp(&a, tp_id("syscalls", "sys_enter_getppid"));
	a.inherit = 1;
	fd = do_open(be, t, &a, 0, -1, -1, 0, "sys_enter_getppid inherit");
	if (fd < 0)
		return;
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "enable");
	pid = fork();
	if (!pid) {
		getppids(N_CALLS / 2);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	obs_call(t, status == 0 ? 0 : -1, 1, "child made %d calls", N_CALLS / 2);
	getppids(7);
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "disable");
	read_count(t, fd, 'e', "the child's calls and the parent's 7");
	close(fd);
}

void case_tp_cpu(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	int fd;

	pin(0);
	attr_tp(&a, tp_id("syscalls", "sys_enter_getppid"));
	fd = do_open(be, t, &a, -1, 0, -1, 0, "sys_enter_getppid on CPU 0");
	if (fd >= 0) {
		do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "enable");
		getppids(N_CALLS);
		do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "disable");
		read_count(t, fd, 'e', "getppid calls on CPU 0");
		close(fd);
	}
	pin(-1);
}

/* The fields of a sys_enter_getsid record that the calls fix. */
static void raw_fields(const struct perf_event_header *h, const unsigned long long *w,
		       void *arg)
{
	struct trace *t = arg;
	const unsigned char *raw = (const unsigned char *)&w[2];	/* after IP, TID */
	unsigned long long v[6];
	unsigned int size;
	unsigned short type;
	int pid, nr;
	long long sid_arg;

	if (h->type != PERF_RECORD_SAMPLE)
		return;
	memcpy(&size, raw, 4);
	memcpy(&type, raw + 4, 2);		/* common_type, offset 0 */
	memcpy(&pid, raw + 4 + 4, 4);		/* common_pid, offset 4 */
	memcpy(&nr, raw + 4 + 8, 4);		/* __syscall_nr, offset 8 */
	memcpy(&sid_arg, raw + 4 + 16, 8);	/* pid, offset 16 */
	v[0] = h->size;
	v[1] = size;
	v[2] = pid == (int)(w[1] >> 32);	/* the sampled thread's */
	v[3] = nr;
	v[4] = sid_arg;
	v[5] = type;
	obs_vals(t, v, 6, "eeeeex");
	obs_val(t, type == (unsigned short)tp_id("syscalls", "sys_enter_getsid"), 'e');
}

void case_tp_raw(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	struct dring r;
	int fd, i;

	attr_tp(&a, tp_id("syscalls", "sys_enter_getsid"));
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	a.exclude_kernel = 1;
	fd = do_open(be, t, &a, 0, -1, -1, 0, "sys_enter_getsid sampling RAW");
	if (fd < 0)
		return;
	if (!dring_map(t, &r, fd, 8)) {
		do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "enable");
		for (i = 0; i < N_SAMPLES; i++)
			syscall(SYS_getsid, 1000 + i);
		do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "disable");
		dring_walk(&r, raw_fields, t);
		munmap(r.pg, r.len);
	}
	close(fd);
}

/* a RAW-sampling (or, raw 0, plain sampling) open as nobody: its errno */
static void raw_as_nobody(const struct backend *be, struct trace *t, long long id, int raw,
			  int pid, int cpu, const char *level, const char *what)
{
	struct perf_event_attr a;
	int err;

	attr_tp(&a, id);
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | (raw ? PERF_SAMPLE_RAW : 0);
	a.exclude_kernel = 1;
	err = open_as_nobody(be, &a, pid, cpu, level);
	obs_call(t, err < 0 ? -1 : 0, 1, "child as nobody");
	errno = err;
	obs_call(t, err ? -1 : 0, 1, "%s", what);
}

void case_tp_raw_perm(const struct backend *be, struct trace *t)
{
	long long sys = tp_id("syscalls", "sys_enter_getppid");
	long long sw = tp_id("sched", "sched_switch");

	raw_as_nobody(be, t, sys, 1, 0, -1, "2\n", "RAW, a thread's syscall event, paranoid 2");
	raw_as_nobody(be, t, sys, 1, 0, 0, "2\n", "RAW, a thread's syscall event on CPU 0");
	raw_as_nobody(be, t, sw, 1, 0, -1, "2\n", "RAW, a thread's sched_switch event");
	raw_as_nobody(be, t, sw, 0, 0, -1, "2\n", "no RAW, a thread's sched_switch event");
	raw_as_nobody(be, t, 0xfffff, 1, 0, -1, "2\n", "RAW, an id no trace event has");
	raw_as_nobody(be, t, sys, 1, -1, 0, "0\n", "RAW, CPU 0's syscall event, paranoid 0");
	raw_as_nobody(be, t, sys, 0, -1, 0, "0\n", "no RAW, CPU 0's syscall event, paranoid 0");
}

void case_tp_bad(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	int fd;

	attr_tp(&a, 0xfffff);
	fd = do_open(be, t, &a, 0, -1, -1, 0, "an id no trace event has");
	if (fd >= 0)
		close(fd);
	attr_tp(&a, (1ULL << 40) | tp_id("syscalls", "sys_enter_getppid"));
	fd = do_open(be, t, &a, 0, -1, -1, 0, "a config above 32 bits");
	if (fd >= 0)
		close(fd);
}
