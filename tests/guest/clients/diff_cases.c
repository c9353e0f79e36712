// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff's cases (diff.h): the perf_event_open behaviour the shim must share
 * with the kernel, one sequence of calls each.  A case records every call it
 * makes, so that a shim that refuses where the kernel accepts (or the reverse)
 * shows up at the first call where they part.
 *
 * Counts come from workloads that fix them: a child that touches N fresh pages
 * after the events are enabled makes exactly the same faults every run.  Clocks
 * come from CPU-time spins and are compared within 5 %.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "diff.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* the kernel's struct perf_event_attr (6.1: VER7) */
#define ATTR_SIZE	PERF_ATTR_SIZE_VER7

int do_open(const struct backend *be, struct trace *t, struct perf_event_attr *a,
	    pid_t pid, int cpu, int group_fd, unsigned long flags, const char *what)
{
	int fd = be->open(a, pid, cpu, group_fd, flags);

	obs_call(t, fd, 0, "open %s", what);
	return fd;
}

static void close_fd(int fd)
{
	if (fd >= 0)
		close(fd);
}

long do_ioctl(struct trace *t, int fd, unsigned long cmd, unsigned long arg, const char *what)
{
	long ret = ioctl(fd, cmd, arg);

	obs_call(t, ret, 1, "ioctl %s", what);
	return ret;
}

/* read into a zeroed buffer: the size is exact, the values are the caller's to record */
long do_read(struct trace *t, int fd, unsigned long long *buf, size_t size, const char *what)
{
	long ret;

	memset(buf, 0, size);
	ret = read(fd, buf, size);
	obs_call(t, ret, 1, "read %zu %s", size, what);
	return ret;
}

/* one plain value (read_format 0) */
static void read_value(struct trace *t, int fd, char kind, const char *what)
{
	unsigned long long v;

	if (do_read(t, fd, &v, sizeof(v), what) == sizeof(v))
		obs_val(t, v, kind);
}

/* --- attr sizes --------------------------------------------------------------- */

/* 0 means VER0; 64 up to the kernel's own size are accepted as they are */
static void case_attr_size(const struct backend *be, struct trace *t)
{
	static const unsigned int ok_sizes[] = { 0, 64, 72, 80, 88, 96, 100, 104, 112,
						 120, 128 };
	static union {
		struct perf_event_attr a;
		unsigned char b[8192];
	} u;
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(ok_sizes); i++) {
		memset(&u, 0, sizeof(u));
		attr_sw(&u.a, PERF_COUNT_SW_TASK_CLOCK);
		u.a.size = ok_sizes[i];
		fd = do_open(be, t, &u.a, 0, -1, -1, 0, "size");
		obs_val(t, ok_sizes[i], 'e');
		close_fd(fd);
	}

	/* larger than the kernel's, zero tail: accepted */
	memset(&u, 0, sizeof(u));
	attr_sw(&u.a, PERF_COUNT_SW_TASK_CLOCK);
	u.a.size = ATTR_SIZE + 64;
	close_fd(do_open(be, t, &u.a, 0, -1, -1, 0, "size 192, zero tail"));

	/* a non-zero byte past what the kernel knows: E2BIG, its size written back */
	u.b[ATTR_SIZE + 3] = 1;
	close_fd(do_open(be, t, &u.a, 0, -1, -1, 0, "size 192, non-zero tail"));
	obs_val(t, u.a.size, 'e');

	/* smaller than VER0, and larger than a page: E2BIG, size written back */
	memset(&u, 0, sizeof(u));
	attr_sw(&u.a, PERF_COUNT_SW_TASK_CLOCK);
	u.a.size = 32;
	close_fd(do_open(be, t, &u.a, 0, -1, -1, 0, "size 32"));
	obs_val(t, u.a.size, 'e');
	attr_sw(&u.a, PERF_COUNT_SW_TASK_CLOCK);
	u.a.size = 8192;
	close_fd(do_open(be, t, &u.a, 0, -1, -1, 0, "size 8192"));
	obs_val(t, u.a.size, 'e');

	/* no attr at all */
	close_fd(do_open(be, t, NULL, 0, -1, -1, 0, "attr NULL"));
}

/* --- flags, group_fd, pid, event ----------------------------------------------- */

static void case_bad_args(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	struct child c = { 0 };
	int fd, devnull;

	attr_sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	close_fd(do_open(be, t, &a, 0, -1, -1, 1UL << 4, "flags 1<<4"));
	close_fd(do_open(be, t, &a, 0, -1, -1, ~0UL, "flags ~0"));
	close_fd(do_open(be, t, &a, 0, -1, -1, PERF_FLAG_PID_CGROUP, "flags PID_CGROUP"));

	/* FD_CLOEXEC is honoured, and its absence too */
	fd = do_open(be, t, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, "flags FD_CLOEXEC");
	obs_val(t, fd >= 0 ? !!(fcntl(fd, F_GETFD) & FD_CLOEXEC) : 9, 'e');
	close_fd(fd);
	fd = do_open(be, t, &a, 0, -1, -1, 0, "flags 0");
	obs_val(t, fd >= 0 ? !!(fcntl(fd, F_GETFD) & FD_CLOEXEC) : 9, 'e');
	close_fd(fd);

	/* group_fd: not a perf fd, not an fd at all */
	devnull = open("/dev/null", O_RDONLY);
	close_fd(do_open(be, t, &a, 0, -1, devnull, 0, "group_fd /dev/null"));
	close(devnull);
	close_fd(do_open(be, t, &a, 0, -1, 999, 0, "group_fd 999 (closed)"));
	close_fd(do_open(be, t, &a, 0, -1, -2, 0, "group_fd -2"));

	/* pid: a reaped child, a pid out of range, pid -1 with cpu -1 */
	if (!child_start(&c, work_none, 0)) {
		child_go(&c);
		child_wait(&c);
		close_fd(do_open(be, t, &a, c.pid, -1, -1, 0, "pid of a reaped child"));
	}
	close_fd(do_open(be, t, &a, INT_MAX, -1, -1, 0, "pid INT_MAX"));
	close_fd(do_open(be, t, &a, -1, -1, -1, 0, "pid -1 cpu -1"));
	close_fd(do_open(be, t, &a, 0, -2, -1, 0, "cpu -2"));
	close_fd(do_open(be, t, &a, 0, INT_MAX, -1, 0, "cpu INT_MAX"));
}

/*
 * Without a hardware PMU every hardware type is ENOENT, whatever a PMU would
 * have said of the config: past the generic list, an impossible cache
 * operation, reserved raw bits, an extended type, precise_ip, exclude_host.
 */
static void case_no_pmu(const struct backend *be, struct trace *t)
{
	static const struct {
		__u32 type;
		__u64 config;
		const char *what;
	} cfg[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "hardware instructions" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, "hardware ref-cycles" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_MAX, "hardware past the list" },
		{ PERF_TYPE_HARDWARE, (4ULL << 32) | 1, "hardware, extended type 4" },
		{ PERF_TYPE_HARDWARE, (1ULL << 32) | 1, "hardware, extended type 1" },
		{ PERF_TYPE_HW_CACHE, 0x10000, "cache L1D read miss" },
		{ PERF_TYPE_HW_CACHE, 0x101, "cache L1I write access" },
		{ PERF_TYPE_HW_CACHE, 0xff, "cache past the list" },
		{ PERF_TYPE_RAW, 0x5300c0, "raw with USR OS INT EN" },
		{ PERF_TYPE_RAW, 0x800c0, "raw with pin control" },
		{ PERF_TYPE_RAW, 1ULL << 63, "raw bit 63" },
	};
	struct perf_event_attr a;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cfg); i++) {
		attr_sw(&a, 0);
		a.type = cfg[i].type;
		a.config = cfg[i].config;
		a.exclude_kernel = i & 1;
		close_fd(do_open(be, t, &a, 0, -1, -1, 0, cfg[i].what));
	}
	attr_sw(&a, 0);
	a.type = PERF_TYPE_HARDWARE;
	a.precise_ip = 2;
	close_fd(do_open(be, t, &a, 0, -1, -1, 0, "hardware precise_ip 2"));
	a.precise_ip = 0;
	a.exclude_host = 1;
	close_fd(do_open(be, t, &a, 0, -1, -1, 0, "hardware exclude_host"));
	a.exclude_host = 0;
	a.exclude_user = 1;
	a.exclude_kernel = 1;
	close_fd(do_open(be, t, &a, 0, -1, -1, 0, "hardware, both levels excluded"));
}

static void case_unknown_event(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;

	attr_sw(&a, PERF_COUNT_SW_MAX);
	close_fd(do_open(be, t, &a, 0, -1, -1, 0, "software config SW_MAX"));
	attr_sw(&a, 1000);
	close_fd(do_open(be, t, &a, 0, -1, -1, 0, "software config 1000"));
	attr_sw(&a, 0);
	a.type = 1000;
	close_fd(do_open(be, t, &a, 0, -1, -1, 0, "type 1000"));
	/* the guest has no hardware PMU for either */
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	close_fd(do_open(be, t, &a, 0, -1, -1, 0, "hardware cycles"));
	a.type = PERF_TYPE_RAW;
	a.config = 0x76;
	close_fd(do_open(be, t, &a, 0, -1, -1, 0, "raw 0x76"));
	case_no_pmu(be, t);
}

/* CPU time a child spins around its faults and sleeps */
#define SPIN_MS		60
/*
 * CPU time a child only spins when clocks are compared: what the two runs do
 * around the spin (start, exit) is the host's to stretch under TCG, by a few
 * milliseconds, which must stay well inside 5 %.
 */
#define CLOCK_SPIN_MS	250

/* --- every software event, on a child that faults, sleeps and spins --------------- */

static void work_mix(long pages)
{
	work_touch(pages);
	work_sleep(2);
	work_spin(SPIN_MS);
}

static const char sw_kind[PERF_COUNT_SW_MAX] = {
	[PERF_COUNT_SW_CPU_CLOCK]	= 'r',
	[PERF_COUNT_SW_TASK_CLOCK]	= 'r',
	[PERF_COUNT_SW_PAGE_FAULTS]	= 'f',
	[PERF_COUNT_SW_CONTEXT_SWITCHES] = 's',
	[PERF_COUNT_SW_CPU_MIGRATIONS]	= 's',
	[PERF_COUNT_SW_PAGE_FAULTS_MIN]	= 'f',
	[PERF_COUNT_SW_PAGE_FAULTS_MAJ]	= 'e',
	[PERF_COUNT_SW_ALIGNMENT_FAULTS] = 'e',
	[PERF_COUNT_SW_EMULATION_FAULTS] = 'e',
	[PERF_COUNT_SW_DUMMY]		= 'e',
	[PERF_COUNT_SW_BPF_OUTPUT]	= 'e',
	[PERF_COUNT_SW_CGROUP_SWITCHES]	= 's',
};

static void case_sw_events(const struct backend *be, struct trace *t)
{
	unsigned long long buf[3];
	struct perf_event_attr a;
	struct child c = { 0 };
	unsigned int cfg;
	int fd;

	for (cfg = 0; cfg < PERF_COUNT_SW_MAX; cfg++) {
		/*
		 * The clocks on a child that only spins: the time it takes to
		 * fault, sleep and exit is the host's to stretch (TCG).
		 */
		c.no_lock = sw_kind[cfg] == 'r';
		if (c.no_lock ? child_start(&c, work_spin, CLOCK_SPIN_MS) :
					  child_start(&c, work_mix, 64))
			return;
		attr_sw(&a, cfg);
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		fd = do_open(be, t, &a, c.pid, -1, -1, 0, "software config");
		obs_val(t, cfg, 'e');
		if (fd >= 0)
			do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
		child_go(&c);
		child_wait(&c);
		if (fd < 0)
			continue;
		/* read after the child exited: the counts stay */
		if (do_read(t, fd, buf, sizeof(buf), "value,ena,run") == sizeof(buf)) {
			obs_val(t, buf[0], sw_kind[cfg]);
			obs_vals(t, buf + 1, 2, sw_kind[cfg] == 'r' ? "rr" : "xx");
			obs_val(t, buf[1] == buf[2], 'e');
			/*
			 * A clock covers the spin, and fits in the time enabled,
			 * each within 3 %: with the host busy, the kernel's own
			 * clocks and the shim's alike read a little short of the
			 * child's thread CPU time, and a little over their time
			 * enabled.  What this catches is a clock that does not
			 * count the child,
			 * or counts beside it; clock-sample (diff_sample.c) holds
			 * a clock to 0.1 %, with tries again.
			 */
			if (sw_kind[cfg] == 'r')
				obs_val(t, buf[0] >= CLOCK_SPIN_MS * 970000ULL &&
					   buf[0] <= buf[1] + buf[1] / 33, 'e');
		}
		close_fd(fd);
	}
}

/* --- read_format: every combination, exact sizes, ENOSPC below ------------------- */

static size_t read_size(unsigned long long rf)
{
	size_t n = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

	n += !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	if (rf & PERF_FORMAT_GROUP)
		n++;			/* nr; one event, so one value block */
	return n * sizeof(unsigned long long);
}

/*
 * Record a read by its layout: counts exactly, the id as "equals PERF_EVENT_IOC_ID's",
 * times as "enabled == running" (the in-line workload is too short to compare them,
 * and may even read 0 in the guest).
 */
static void record_layout(struct trace *t, const unsigned long long *v,
			  unsigned long long rf, unsigned long long id)
{
	unsigned long long ena = 0;
	int i = 0;

	if (rf & PERF_FORMAT_GROUP)
		obs_val(t, v[i++], 'e');		/* nr */
	else
		obs_val(t, v[i++], 'e');		/* value */
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		ena = v[i++];
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) {
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			obs_val(t, v[i] == ena, 'e');
		i++;
	}
	if (rf & PERF_FORMAT_GROUP)
		obs_val(t, v[i++], 'e');		/* the one value */
	if (rf & PERF_FORMAT_ID)
		obs_val(t, v[i++] == id, 'e');
	if (rf & PERF_FORMAT_LOST)
		obs_val(t, v[i++], 'e');
}

static void case_read_format(const struct backend *be, struct trace *t)
{
	unsigned long long rf, buf[16], id;
	struct perf_event_attr a;
	size_t size;
	int fd;

	for (rf = 0; rf < PERF_FORMAT_MAX; rf++) {
		attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
		a.read_format = rf;
		fd = do_open(be, t, &a, 0, -1, -1, 0, "page-faults read_format");
		obs_val(t, rf, 'e');
		if (fd < 0)
			continue;
		id = 0;
		do_ioctl(t, fd, PERF_EVENT_IOC_ID, (unsigned long)&id, "ID");
		obs_val(t, id != 0, 'e');
		do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
		work_touch(32);
		do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "DISABLE");

		size = read_size(rf);
		if (do_read(t, fd, buf, sizeof(buf), "big buffer") == (long)size)
			record_layout(t, buf, rf, id);
		do_read(t, fd, buf, size, "exact");
		do_read(t, fd, buf, size - 1, "one byte short");
		do_read(t, fd, buf, sizeof(unsigned long long) - 1, "less than a value");
		close_fd(fd);
	}
}

/* --- ioctls: ENABLE/DISABLE/RESET with and without the group flag, ID, unknown --- */

static void case_ioctl(const struct backend *be, struct trace *t)
{
	unsigned long long id_l = 0, id_m = 0;
	struct perf_event_attr a;
	int l, m;

	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	l = do_open(be, t, &a, 0, -1, -1, 0, "leader page-faults");
	a.disabled = 0;
	m = do_open(be, t, &a, 0, -1, l, 0, "member page-faults");
	if (l < 0 || m < 0)
		goto out;

	do_ioctl(t, l, PERF_EVENT_IOC_ENABLE, 0, "ENABLE leader");
	work_touch(8);
	do_ioctl(t, l, PERF_EVENT_IOC_DISABLE, 0, "DISABLE leader");
	read_value(t, l, 'e', "leader");
	read_value(t, m, 'e', "member");

	do_ioctl(t, m, PERF_EVENT_IOC_RESET, 0, "RESET member");
	read_value(t, l, 'e', "leader");
	read_value(t, m, 'e', "member");
	do_ioctl(t, m, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP, "RESET member GROUP");
	read_value(t, l, 'e', "leader");
	read_value(t, m, 'e', "member");

	/* the group flag on a member acts on the whole group */
	do_ioctl(t, m, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP, "ENABLE member GROUP");
	work_touch(4);
	do_ioctl(t, m, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP, "DISABLE member GROUP");
	read_value(t, l, 'e', "leader");
	read_value(t, m, 'e', "member");
	/* a member alone: the leader is off, so it does not count */
	do_ioctl(t, m, PERF_EVENT_IOC_ENABLE, 0, "ENABLE member");
	work_touch(4);
	do_ioctl(t, m, PERF_EVENT_IOC_DISABLE, 0, "DISABLE member");
	read_value(t, m, 'e', "member");
	do_ioctl(t, l, PERF_EVENT_IOC_RESET, 0, "RESET leader");
	read_value(t, l, 'e', "leader");
	read_value(t, m, 'e', "member");

	do_ioctl(t, l, PERF_EVENT_IOC_ID, (unsigned long)&id_l, "ID leader");
	do_ioctl(t, m, PERF_EVENT_IOC_ID, (unsigned long)&id_m, "ID member");
	obs_val(t, id_l && id_m && id_l != id_m, 'e');
	do_ioctl(t, l, PERF_EVENT_IOC_ID, 0, "ID to NULL");

	do_ioctl(t, l, _IO('$', 0x7f), 0, "_IO('$', 0x7f)");
	do_ioctl(t, l, _IOW('$', 99, unsigned long long), 0, "_IOW('$', 99)");
	do_ioctl(t, l, _IO('J', 3), 0, "_IO('J', 3)");
out:
	close_fd(m);
	close_fd(l);
}

/* --- a group read, on a child ------------------------------------------------------ */

static void work_group(long pages)
{
	work_touch(pages);
	work_sleep(2);
	work_spin(SPIN_MS);
}

static void case_group_read(const struct backend *be, struct trace *t)
{
	static const unsigned long long cfg[3] = {
		PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CONTEXT_SWITCHES,
		PERF_COUNT_SW_TASK_CLOCK,
	};
	/*
	 * The task clock is not compared here: under TCG a loaded host stretches
	 * the faults and wake-ups around the spin by more than 5 %.  sw-events
	 * compares the clocks on a child that only spins.
	 */
	static const char kind[3] = { 'f', 's', 'x' };	/* faults of a forked child: diff.h */
	unsigned long long id[3] = { 0 }, buf[16];
	struct perf_event_attr a;
	struct child c = { 0 };
	int fd[3] = { -1, -1, -1 }, i;
	long n;

	c.no_lock = 1;		/* a task-clock member */
	if (child_start(&c, work_group, 16))
		return;
	for (i = 0; i < 3; i++) {
		attr_sw(&a, cfg[i]);
		a.disabled = !i;
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
				PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		fd[i] = do_open(be, t, &a, c.pid, -1, i ? fd[0] : -1, 0, "group event");
		if (fd[i] >= 0)
			do_ioctl(t, fd[i], PERF_EVENT_IOC_ID, (unsigned long)&id[i], "ID");
	}
	if (fd[0] >= 0)
		do_ioctl(t, fd[0], PERF_EVENT_IOC_ENABLE, 0, "ENABLE leader");
	child_go(&c);
	child_wait(&c);
	if (fd[0] < 0)
		goto out;

	/* {nr, ena, run, {value, id} x 3} = 9 values */
	n = do_read(t, fd[0], buf, sizeof(buf), "group, big buffer");
	if (n == 9 * sizeof(unsigned long long)) {
		obs_val(t, buf[0], 'e');
		obs_vals(t, buf + 1, 2, "xx");
		obs_val(t, buf[1] == buf[2], 'e');
		for (i = 0; i < 3; i++) {
			obs_val(t, buf[3 + 2 * i], kind[i]);
			obs_val(t, buf[4 + 2 * i] == id[i], 'e');
		}
	}
	do_read(t, fd[0], buf, 9 * sizeof(unsigned long long) - 1, "group, one byte short");
	/* read on a member: the whole group, the member's format */
	n = do_read(t, fd[1], buf, sizeof(buf), "group through a member");
	if (n == 9 * sizeof(unsigned long long))
		obs_val(t, buf[0], 'e');
out:
	for (i = 2; i >= 0; i--)
		close_fd(fd[i]);
}

/* --- exclusive: perf_events never keeps a software group exclusive ---------------- */

/*
 * Two groups {page-faults, context-switches} on a child, the first one
 * exclusive: 6.1 runs a software group whatever its exclusive bit, so both run
 * all the time (running == enabled) and count every fault.  No clock in the
 * groups: the child locks its pages.  Its faults are still a child's ('f'): two
 * native runs on the debug kernel read 16 and 22.
 */
static void case_exclusive_sw(const struct backend *be, struct trace *t)
{
	unsigned long long buf[8];
	struct perf_event_attr a;
	struct child c = { 0 };
	int fd[2][2] = { { -1, -1 }, { -1, -1 } }, g, i;

	if (child_start(&c, work_group, 16))
		return;
	for (g = 0; g < 2; g++) {
		for (i = 0; i < 2; i++) {
			attr_sw(&a, i ? PERF_COUNT_SW_CONTEXT_SWITCHES :
					 PERF_COUNT_SW_PAGE_FAULTS);
			a.disabled = !i;
			a.exclusive = !g && !i;
			a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
					PERF_FORMAT_TOTAL_TIME_RUNNING;
			fd[g][i] = do_open(be, t, &a, c.pid, -1, i ? fd[g][0] : -1, 0,
					   g ? "group" : "exclusive group");
		}
		if (fd[g][0] >= 0)
			do_ioctl(t, fd[g][0], PERF_EVENT_IOC_ENABLE, 0, "ENABLE leader");
	}
	child_go(&c);
	child_wait(&c);
	for (g = 0; g < 2; g++) {
		/* {nr, ena, run, faults, switches} */
		if (fd[g][0] >= 0 &&
		    do_read(t, fd[g][0], buf, sizeof(buf), "group") == 5 * sizeof(buf[0])) {
			obs_val(t, buf[0], 'e');
			obs_val(t, buf[1] == buf[2], 'e');
			obs_val(t, buf[3], 'f');
		}
		for (i = 1; i >= 0; i--)
			close_fd(fd[g][i]);
	}
}

/* --- levels: kernel perf counts context switches at kernel level only -------------- */

static void case_exclude_kernel(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	struct child c = { 0 };
	int k, u;

	if (child_start(&c, work_sleep, 3))
		return;
	attr_sw(&a, PERF_COUNT_SW_CONTEXT_SWITCHES);
	a.disabled = 0;
	k = do_open(be, t, &a, c.pid, -1, -1, 0, "context-switches");
	a.exclude_kernel = 1;
	u = do_open(be, t, &a, c.pid, -1, -1, 0, "context-switches exclude_kernel");
	child_go(&c);
	child_wait(&c);
	if (k >= 0)
		read_value(t, k, 's', "context-switches");
	if (u >= 0)
		read_value(t, u, 'e', "context-switches exclude_kernel");
	close_fd(u);
	close_fd(k);
}

/* --- after the monitored child exited: readable, resettable ------------------------ */

static void case_after_exit(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	struct child c = { 0 };
	int fd;

	if (child_start(&c, work_touch, 64))
		return;
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	fd = do_open(be, t, &a, c.pid, -1, -1, PERF_FLAG_FD_CLOEXEC, "page-faults");
	if (fd >= 0)
		do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	child_go(&c);
	child_wait(&c);
	if (fd < 0)
		return;
	read_value(t, fd, 'f', "after exit");
	read_value(t, fd, 'f', "again");
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE after exit");
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "DISABLE after exit");
	read_value(t, fd, 'f', "after ENABLE/DISABLE");
	do_ioctl(t, fd, PERF_EVENT_IOC_RESET, 0, "RESET after exit");
	read_value(t, fd, 'e', "after RESET");
	close_fd(fd);
}

/* --- inherit: a grandchild's faults are counted with inherit=1 only ---------------- */

static void case_inherit(const struct backend *be, struct trace *t)
{
	unsigned long long v[2] = { 0, 0 };
	struct perf_event_attr a;
	struct child c = { 0 };
	int inherit, fd;

	for (inherit = 0; inherit < 2; inherit++) {
		if (child_start(&c, work_fork_touch, 128))
			return;
		attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
		a.disabled = 0;
		a.inherit = inherit;
		fd = do_open(be, t, &a, c.pid, -1, -1, 0, "page-faults inherit");
		obs_val(t, inherit, 'e');
		child_go(&c);
		child_wait(&c);
		if (fd < 0)
			continue;
		if (read(fd, &v[inherit], sizeof(v[0])) != sizeof(v[0]))
			v[inherit] = ~0ULL;
		/*
		 * The fork's own faults are not fixed (how many pages the two
		 * processes share and copy, in which order): the grandchild's
		 * 128 are, below.
		 */
		obs_call(t, 0, 0, "read inherit");
		obs_val(t, v[inherit], 'x');
		close_fd(fd);
	}
	obs_call(t, 0, 0, "inherit=1 counts the grandchild's 128 faults");
	obs_val(t, v[1] >= v[0] + 128, 'e');

	/* a group read cannot sum inherited counts */
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.inherit = 1;
	a.read_format = PERF_FORMAT_GROUP;
	close_fd(do_open(be, t, &a, 0, -1, -1, 0, "inherit with read_format GROUP"));
}

const char *const diff_clock_cases[] = {
	"clock-switches", "thread-on-cpu-times", "cgroup-times", "sw-events", "group-read",
	NULL
};

const struct diff_case diff_cases[] = {
	{ "attr-size", case_attr_size },
	{ "bad-args", case_bad_args },
	{ "unknown-event", case_unknown_event },
	{ "sw-events", case_sw_events },
	{ "read-format", case_read_format },
	{ "ioctl", case_ioctl },
	{ "group-read", case_group_read },
	{ "exclusive-sw", case_exclusive_sw },
	{ "exclude-kernel", case_exclude_kernel },
	{ "after-exit", case_after_exit },
	{ "inherit", case_inherit },
	{ "sample-ring", case_sample_ring },
	{ "sample-group", case_sample_group },
	{ "throttle-sw", case_throttle_sw },
	{ "sample-tail", case_sample_tail },
	{ "sample-tail-bad", case_sample_tail_bad },
	{ "refresh", case_refresh },
	{ "ioc-period", case_ioc_period },
	{ "set-output", case_set_output },
	{ "fork-record", case_fork_record },
	{ "exec-record", case_exec_record },
	{ "clock-sample", case_clock_sample },
	{ "ring-memlock", case_ring_memlock },
	{ "cpu-events", case_cpu_events },
	{ "clock-switches", case_clock_switches },
	{ "prctl", case_prctl },
	{ "prctl-inherit", case_prctl_inherit },
	{ "backward-ring", case_backward_ring },
	{ "backward-wrap", case_backward_wrap },
	{ "cpu-sample", case_cpu_sample },
	{ "cpu-clock-sample", case_cpu_clock_sample },
	{ "cpu-switches", case_cpu_switches },
	{ "thread-on-cpu", case_thread_on_cpu },
	{ "kernel-fault-ip", case_kernel_fault_ip },
	{ "cgroup", case_cgroup },
	{ "thread-on-cpu-times", case_thread_on_cpu_times },
	{ "cgroup-times", case_cgroup_times },
	{ "track-sampling", case_track_sampling },
	{ "track-counting", case_track_counting },
	{ "track-exec", case_track_exec },
	{ "coexist-count", case_coexist_count },
	{ "coexist-sample", case_coexist_sample },
	{ "tp-count", case_tp_count },
	{ "tp-inherit", case_tp_inherit },
	{ "tp-cpu", case_tp_cpu },
	{ "tp-raw", case_tp_raw },
	{ "tp-raw-perm", case_tp_raw_perm },
	{ "tp-bad", case_tp_bad },
	{ "bp-count", case_bp_count },
	{ "bp-slots", case_bp_slots },
	{ "bp-sample", case_bp_sample },
	{ "bp-modify", case_bp_modify },
	{ "bp-sigtrap", case_bp_sigtrap },
	{ "bp-inherit", case_bp_inherit },
	{ "remove-on-exec", case_remove_on_exec },
	{ "bp-kernel", case_bp_kernel },
	{ "bp-cpu", case_bp_cpu },
	{ "tp-hotplug", case_tp_hotplug },
	{ "tp-filter", case_tp_filter },
};
const size_t diff_ncases = ARRAY_SIZE(diff_cases);
