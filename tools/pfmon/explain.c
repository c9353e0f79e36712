// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: a refusal in one sentence (pfmon.h).
 *
 * The kernel answers with an errno; which rule said no depends on the call and
 * on the knobs in /sys/kernel/perfmon (perfmon.h, ACCESS), which are read here to
 * name the one that applies.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pfmon.h"

static long knob(const char *name)
{
	char path[96];
	long v = -99;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/perfmon/%s", name);
	f = fopen(path, "r");
	if (!f)
		return v;
	if (fscanf(f, "%ld", &v) != 1)
		v = -99;
	fclose(f);
	return v;
}

/* The reason, or NULL when strerror() says it well enough. */
static const char *why(const char *what, int err, long target, char *buf, size_t len)
{
	int cpu = opts.ncpus > 0;
	long paranoid = knob("paranoid_level");
	/* the level is the kernel's unless an administrator set perfmon's own */
	const char *from = knob("paranoid") == -2 ? "kernel.perf_event_paranoid" :
			   "/sys/kernel/perfmon/paranoid";

	if (pfm_door() < 0)
		return "perfmon is not available: load the module (insmod perfmon.ko) "
		       "or boot a kernel with perfmon built in";
	if (!strcmp(what, "pfm_create_context")) {
		if (err == EPERM && cpu && knob("sys_group") >= 0 && paranoid < 1)
			return "CPU sessions are reserved to the group in "
			       "/sys/kernel/perfmon/sys_group";
		if (err == EPERM && cpu) {
			snprintf(buf, len, "CPU sessions (-a, -C) need CAP_PERFMON while "
				 "the paranoid level is 1 or more (it is %ld, from %s)",
				 paranoid, from);
			return buf;
		}
		if (err == EPERM && paranoid >= 3) {
			snprintf(buf, len, "every session needs CAP_PERFMON while "
				 "the paranoid level is 3 (it is %ld, from %s)", paranoid, from);
			return buf;
		}
		if (err == EPERM)
			return "per-thread sessions are reserved to the group in "
			       "/sys/kernel/perfmon/task_group";
		if (err == EMFILE) {
			snprintf(buf, len, "this user holds /sys/kernel/perfmon/ctx_per_user_max "
				 "(%ld) contexts already", knob("ctx_per_user_max"));
			return buf;
		}
		if (err == ENOMEM && opts.smpl_period)
			return "the sampling buffer is over RLIMIT_MEMLOCK (ulimit -l) or "
			       "/sys/kernel/perfmon/smpl_buffer_mem_max";
	}
	if (!strcmp(what, "pfm_write_pmcs") && err == EPERM) {
		snprintf(buf, len, "kernel-level counting (-k, :k) needs CAP_PERFMON while "
			 "the paranoid level is 2 or more (it is %ld, from %s)", paranoid, from);
		return buf;
	}
	if (!strcmp(what, "pfm_load_context")) {
		if (cpu && err == EINVAL) {
			snprintf(buf, len, "CPU %ld does not exist or is offline", target);
			return buf;
		}
		if (err == EBUSY)
			return cpu ? "the CPU has a perfmon session already, or per-thread "
				     "sessions hold the hardware counters (per-thread and CPU "
				     "sessions share only software events)" :
				     "CPU sessions hold the hardware counters (per-thread and "
				     "CPU sessions share only software events)";
		if (err == EEXIST)
			return "the thread has a perfmon context attached already";
		if (err == ESRCH) {
			snprintf(buf, len, "no thread %ld", target);
			return buf;
		}
		if (err == EACCES)
			return "you may not read that process as ptrace would: another user's "
			       "or not dumpable (root or CAP_SYS_PTRACE may), or a security "
			       "module (AppArmor, SELinux, Yama) refused";
		if (err == EPERM)
			return "it is a kernel thread";
	}
	return NULL;
}

static void say(const char *level, const char *what, int err, long target)
{
	char buf[256];
	const char *reason = why(what, err, target, buf, sizeof(buf));

	if (pfm_door() < 0) {
		fprintf(stderr, "pfmon: %s\n", reason);
		return;
	}
	if (target >= 0)
		fprintf(stderr, "pfmon: %s%s %s %ld: %s%s%s\n", level, what,
			opts.ncpus ? "CPU" : "thread", target, strerror(err),
			reason ? ": " : "", reason ? reason : "");
	else
		fprintf(stderr, "pfmon: %s%s: %s%s%s\n", level, what, strerror(err),
			reason ? ": " : "", reason ? reason : "");
}

void pfmon_fail(const char *what, int err, long target)
{
	say("", what, err, target);
	exit(1);
}

void pfmon_warn(const char *what, int err, long target)
{
	say("not counted: ", what, err, target);
}
