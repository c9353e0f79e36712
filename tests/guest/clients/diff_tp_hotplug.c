// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff: a tracepoint event counts on a CPU brought online after the event
 * was opened, as perf_events counts it there.
 *
 * tp-hotplug: CPU 1 offline, a thread event on syscalls:sys_enter_getpgid (an id
 * no other case uses, so that the shim's source is made now, while CPU 1 is
 * offline), CPU 1 back online, the thread pinned there: N getpgid calls exactly;
 * then a CPU event on CPU 1 opened after it came back, the same.  The shim makes
 * a returning CPU's counters from a work item (kernel/perfmon/trace/): the case
 * waits half a second after the CPU comes back.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "diff.h"

#define N_CALLS		300
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

/* CPU 1 on or off line; 0 or -1 */
static int cpu1_online(int on)
{
	int fd = open(CPU1_ONLINE, O_WRONLY);
	int ret;

	if (fd < 0)
		return -1;
	ret = write(fd, on ? "1" : "0", 1) == 1 ? 0 : -1;
	close(fd);
	return ret;
}

static void getpgids(long n)
{
	while (n--)
		syscall(SYS_getpgid, 0);
}

/* N calls pinned on CPU 1, counted by fd */
static void count_on_cpu1(struct trace *t, int fd, const char *what)
{
	unsigned long long v;

	pin(1);
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "enable");
	getpgids(N_CALLS);
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "disable");
	pin(-1);
	if (do_read(t, fd, &v, sizeof(v), what) == sizeof(v))
		obs_val(t, v, 'e');
}

void case_tp_hotplug(const struct backend *be, struct trace *t)
{
	struct timespec settle = { 0, 500 * 1000 * 1000 };
	struct perf_event_attr a;
	int fd, fc;

	obs_call(t, cpu1_online(0), 1, "CPU 1 offline");
	attr_tp(&a, tp_id("syscalls", "sys_enter_getpgid"));
	fd = do_open(be, t, &a, 0, -1, -1, 0, "sys_enter_getpgid, CPU 1 offline");
	obs_call(t, cpu1_online(1), 1, "CPU 1 online");
	nanosleep(&settle, NULL);
	if (fd >= 0) {
		count_on_cpu1(t, fd, "getpgid calls on CPU 1, onlined after the open");
		close(fd);
	}
	fc = do_open(be, t, &a, -1, 1, -1, 0, "sys_enter_getpgid on CPU 1");
	if (fc >= 0) {
		count_on_cpu1(t, fc, "getpgid calls, CPU 1's event");
		close(fc);
	}
}
