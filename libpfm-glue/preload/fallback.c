// SPDX-License-Identifier: LGPL-2.1
/*
 * No silent loss: an event perfmon cannot serve goes to the kernel's own
 * perf_event_open, where there is one.
 *
 * A client that asks for a tracepoint or a breakpoint through the preload would
 * otherwise be told ENOENT by perfmon, and perf stat prints <not supported> and
 * exits 0: nothing measured, nobody told.  So when perfmon answers ENOENT or
 * EOPNOTSUPP (its refusals of a type, a config or a feature), the event stands
 * alone (group_fd -1) and the kernel's perf_event_open is there, the event is
 * opened there and the kernel's fd returned.  Every later call on that fd is a
 * read, ioctl, mmap, poll, fcntl or close of the kernel's own file: the preload
 * interposes none of them (syscall.c), so they reach the kernel untouched.
 *
 * Groups cannot span the two: perfmon's events are not the kernel's, and a
 * leader of one cannot lead an event of the other.  perf_event_open says
 * EINVAL for a leader it cannot group with, so that is the answer both ways:
 * a kernel event as the group_fd of any event perfmon would open (perfmon,
 * checking group_fd first, says EBADF: not one of its fds), and a perfmon
 * event as the group_fd of an event that would have gone to the kernel.
 *
 * Where the kernel's call is missing (ENOSYS) or kept from the program (a
 * seccomp filter: EPERM, ENOSYS or any errno it likes), the client sees
 * perfmon's errno, as without the fallback.  The kernel is asked once, with a
 * NULL attr: its perf_event_open says EFAULT for that before anything else
 * (after the flags, which are 0), so EFAULT means it is there and anything
 * else that it is not, whatever errno a filter chose.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "fallback.h"

void pfm_fallback_init(struct pfm_fallback *f, const struct pfm_fallback_ops *ops)
{
	const char *off = getenv(PFM_PERF_FALLBACK_ENV);
	const char *note = getenv(PFM_PERF_FALLBACK_NOTE_ENV);

	memset(f, 0, sizeof(*f));
	f->ops = ops;
	f->off = off && !strcmp(off, "0");
	f->note = note && *note && strcmp(note, "0");
	f->kernel = -1;
}

static int kernel_there(struct pfm_fallback *f)
{
	int k = __atomic_load_n(&f->kernel, __ATOMIC_RELAXED);

	/* two threads asking at once both get the same answer */
	if (k < 0) {
		k = f->ops->kernel_open(NULL, 0, -1, -1, 0) == -EFAULT;
		__atomic_store_n(&f->kernel, k, __ATOMIC_RELAXED);
	}
	return k;
}

static const char *type_name(unsigned int type)
{
	switch (type) {
	case PERF_TYPE_HARDWARE:	return "hardware";
	case PERF_TYPE_SOFTWARE:	return "software";
	case PERF_TYPE_TRACEPOINT:	return "tracepoint";
	case PERF_TYPE_HW_CACHE:	return "hw_cache";
	case PERF_TYPE_RAW:		return "raw";
	case PERF_TYPE_BREAKPOINT:	return "breakpoint";
	}
	return "dynamic PMU";
}

/* Once per process: a forked child that falls back says so again. */
static void say_once(struct pfm_fallback *f, const struct perf_event_attr *attr,
		     int err)
{
	pid_t me = f->ops->getpid();
	pid_t was = __atomic_load_n(&f->noted, __ATOMIC_RELAXED);
	char line[256];

	if (!f->note || was == me ||
	    !__atomic_compare_exchange_n(&f->noted, &was, me, 0, __ATOMIC_RELAXED,
					 __ATOMIC_RELAXED))
		return;
	snprintf(line, sizeof(line),
		 "libperfmon-perf: perf event type %u (%s) config %#llx: perfmon "
		 "cannot serve it (%s), the kernel's perf_event_open does "
		 "(said once per process)\n",
		 attr->type, type_name(attr->type), (unsigned long long)attr->config,
		 err == ENOENT ? "ENOENT" : "EOPNOTSUPP");
	f->ops->say(line);
}

/*
 * May the kernel have this event?  ENOENT and EOPNOTSUPP are perfmon's
 * refusals of what it does not serve; any other errno is a rule that the
 * kernel applies too (privilege, a bad attr, a thread that is gone), and
 * perfmon's answer stands.  EOPNOTSUPP with precise_ip is left to the client:
 * perf lowers precise_ip after each one until the event opens, on perfmon,
 * whose hardware counters the kernel could not use meanwhile.
 */
static int kernel_may_serve(const struct perf_event_attr *attr, int err)
{
	if (err == ENOENT)
		return 1;
	return err == EOPNOTSUPP && !attr->precise_ip;
}

int pfm_fallback_open(struct pfm_fallback *f, struct perf_event_attr *attr,
		      pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	int fd, err;
	long kfd;

	fd = f->ops->shim_open(attr, pid, cpu, group_fd, flags);
	if (fd >= 0 || f->off)
		return fd;
	err = errno;

	if (group_fd != -1) {
		/*
		 * A kernel event cannot lead one of perfmon's.  With
		 * PERF_FLAG_PID_CGROUP, EBADF may be perfmon's answer to the
		 * cgroup's fd (pid), checked after group_fd: it stands, since
		 * kernel_event() cannot tell the kernel's events from perfmon's
		 * (both are anonymous inodes answering PERF_EVENT_IOC_ID).
		 */
		if (err == EBADF && !(flags & PERF_FLAG_PID_CGROUP) &&
		    f->ops->kernel_event(group_fd)) {
			errno = EINVAL;
			return -1;
		}
		/* nor can perfmon's lead one the kernel would have served */
		if (kernel_may_serve(attr, err) && kernel_there(f)) {
			errno = EINVAL;
			return -1;
		}
		errno = err;
		return -1;
	}
	if (!kernel_may_serve(attr, err) || !kernel_there(f)) {
		errno = err;
		return -1;
	}
	kfd = f->ops->kernel_open(attr, pid, cpu, group_fd, flags);
	if (kfd < 0) {
		/* the kernel's refusal is perf's own answer for the event */
		errno = (int)-kfd;
		return -1;
	}
	say_once(f, attr, err);
	return (int)kfd;
}
