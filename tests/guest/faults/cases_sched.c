// SPDX-License-Identifier: GPL-2.0
/*
 * The shim's event sets under faults: a pinned group is in every set, so a set
 * made for a flexible group that fits nowhere else must take every pinned event
 * (all of them or none), and an enable or disable brings every set's counters
 * in line (a set done must not be done again when a later one fails).  The
 * pinned events count page faults; after the call, with the sets taking turns,
 * each must count exactly the pages touched while it was on.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "faults.h"

/* The software counters of a set (kernel/perfmon/perf/counters.h). */
#define SW_COUNTERS	32
#define PAGES		256
#define CHUNKS		16
#define SPIN_NS		(6 * NSEC_PER_MSEC)	/* past a set's turn (4 ms) */

static int flex[SW_COUNTERS];

/* A page-fault event of this thread: pinned (enabled), or flexible sampling (disabled). */
static int open_pf(bool pinned, bool smpl)
{
	struct perf_event_attr a;

	fe_attr(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	a.pinned = pinned;
	a.disabled = !pinned;
	if (smpl)
		a.sample_period = 1ULL << 40;	/* a counter of its own, no sample */
	return pfm_perf_event_open(&a, 0, -1, -1, 0);
}

/*
 * n fresh pages touched in chunks, the thread spinning between them so that
 * the sets take turns.  The memory is unlocked meanwhile: locked, a mapping's
 * pages are there before they are touched.
 */
static int touch(long n)
{
	long i, chunk = n / CHUNKS;
	char *p;

	if (munlockall())
		return -1;
	p = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || madvise(p, n * 4096, MADV_NOHUGEPAGE))
		return -1;
	for (i = 0; i < n; i++) {
		p[i * 4096] = 1;
		if (i % chunk == chunk - 1)
			spin_until(thread_cpu_ns() + SPIN_NS);
	}
	munmap(p, n * 4096);
	return mlockall(MCL_CURRENT | MCL_FUTURE);
}

static long read_count(int fd)
{
	uint64_t v;

	return read(fd, &v, sizeof(v)) == sizeof(v) ? (long)v : -1;
}

/* The flexible sampling events that fill set 0 beside the two pinned ones. */
static int fill_set0(void)
{
	int i;

	for (i = 0; i < SW_COUNTERS - 2; i++) {
		flex[i] = open_pf(false, true);
		if (flex[i] < 0)
			return -1;
	}
	return 0;
}

/*
 * fd[0] a pinned counting event, fd[1] a pinned sampling one; set 0 then full.
 * In a new set the pinned events are placed in the order they were opened.
 */
static int setup_pinned(struct fenv *e, bool smpl_first)
{
	if (smpl_first)
		e->fd[1] = open_pf(true, true);
	e->fd[0] = open_pf(true, false);
	if (!smpl_first)
		e->fd[1] = open_pf(true, true);
	if (e->fd[0] < 0 || e->fd[1] < 0)
		return -1;
	return fill_set0();
}

static int setup_full(struct fenv *e)
{
	return setup_pinned(e, false);
}

/*
 * The sampling event first: a fault of the counting one after it undoes a set
 * whose row already has the sampling counters' array, and the call made again
 * reuses that row.
 */
static int setup_full_smpl_first(struct fenv *e)
{
	return setup_pinned(e, true);
}

/* One flexible sampling event more: it needs a new set. */
static long op_grow(struct fenv *e)
{
	(void)e;
	return open_pf(false, true);
}

/* The pinned events' counts, as read() gives them. */
static void state_pinned(struct fenv *e, char *buf, size_t len)
{
	snprintf(buf, len, "pinned counting %ld, pinned sampling %ld", read_count(e->fd[0]),
		 read_count(e->fd[1]));
}

static char why[128];

/* Both pinned events count every page touched now, in both sets' turns. */
static const char *check_pinned_count(struct fenv *e, long r)
{
	long c0 = read_count(e->fd[0]), s0 = read_count(e->fd[1]), c1, s1;

	(void)r;
	if (touch(PAGES))
		return "touch: no memory";
	c1 = read_count(e->fd[0]);
	s1 = read_count(e->fd[1]);
	if (c1 - c0 == PAGES && s1 - s0 == PAGES)
		return NULL;
	snprintf(why, sizeof(why), "%d pages touched: pinned events counted %ld and %ld",
		 PAGES, c1 - c0, s1 - s0);
	return why;
}

/* Two sets made: set 0 full, the flexible event made set 1. */
static int setup_two_sets(struct fenv *e)
{
	if (setup_full(e))
		return -1;
	flex[SW_COUNTERS - 2] = open_pf(false, true);
	return flex[SW_COUNTERS - 2] < 0 ? -1 : 0;
}

/* PAGES pages counted by the pinned events, which then are to be disabled. */
static int setup_counted(struct fenv *e)
{
	return setup_two_sets(e) ?: touch(PAGES);
}

static long op_disable(struct fenv *e)
{
	return ioctl(e->fd[0], PERF_EVENT_IOC_DISABLE, 0);
}

/* Disabled, the pinned counting event holds exactly the pages touched before. */
static const char *check_disabled(struct fenv *e, long r)
{
	long c = read_count(e->fd[0]);

	(void)r;
	if (c == PAGES)
		return NULL;
	snprintf(why, sizeof(why), "disabled after %d pages: counted %ld", PAGES, c);
	return why;
}

static int setup_disabled(struct fenv *e)
{
	return setup_two_sets(e) ?: ioctl(e->fd[0], PERF_EVENT_IOC_DISABLE, 0);
}

static long op_enable(struct fenv *e)
{
	return ioctl(e->fd[0], PERF_EVENT_IOC_ENABLE, 0);
}

const struct fcase fcases_sched[] = {
	FCASE("sched_new_set_pinned", 0, setup_full, op_grow, state_pinned,
	      check_pinned_count),
	FCASE("sched_new_set_pinned_smpl_first", FC_SHORT, setup_full_smpl_first, op_grow,
	      state_pinned, check_pinned_count),
	FCASE("sched_disable_pinned", FC_SHORT, setup_counted, op_disable, state_pinned,
	      check_disabled),
	FCASE("sched_enable_pinned", FC_SHORT, setup_disabled, op_enable, NULL, check_pinned_count),
	{ .name = NULL }
};
