// SPDX-License-Identifier: GPL-2.0
/*
 * The perf_event_open shim: an open of each type it serves (software,
 * tracepoint, breakpoint; a group member, inherited, sampling, CPU-wide), the
 * ring's mapping, the ioctls, read() and close.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include "faults.h"

#define RING_PAGES	(1 + 4)

static struct perf_event_attr attr;
static volatile int bp_target;

static void attr_init(__u32 type, __u64 config)
{
	fe_attr(&attr, type, config);
	attr.disabled = 1;
}

static long op_open(struct fenv *e)
{
	(void)e;
	return pfm_perf_event_open(&attr, 0, -1, -1, 0);
}

static long op_open_cpu(struct fenv *e)
{
	(void)e;
	return pfm_perf_event_open(&attr, -1, 0, -1, 0);
}

static long op_open_member(struct fenv *e)
{
	return pfm_perf_event_open(&attr, 0, -1, e->fd[0], 0);
}

static const char *check_fd(struct fenv *e, long r)
{
	(void)e;
	return r >= 0 ? NULL : "no fd";
}

static int setup_sw(struct fenv *e)
{
	(void)e;
	attr_init(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	return 0;
}

static int setup_tp(struct fenv *e)
{
	long id = tracefs_syscall_id("sys_enter_getppid");

	(void)e;
	if (id < 0)
		return -1;
	attr_init(PERF_TYPE_TRACEPOINT, id);
	return 0;
}

static int setup_bp(struct fenv *e)
{
	(void)e;
	attr_init(PERF_TYPE_BREAKPOINT, 0);
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = (unsigned long)&bp_target;
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	attr.exclude_kernel = 1;
	return 0;
}

static int setup_inherit(struct fenv *e)
{
	setup_sw(e);
	attr.inherit = 1;
	return 0;
}

static int setup_smpl(struct fenv *e)
{
	setup_sw(e);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR;
	return 0;
}

static int setup_leader(struct fenv *e)
{
	setup_sw(e);
	e->fd[0] = pfm_perf_event_open(&attr, 0, -1, -1, 0);
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	return e->fd[0] < 0 ? -1 : 0;
}

/* An event open (fd[0]): sampling if asked, with its ring mapped if asked. */
static int open_one(struct fenv *e, bool smpl, bool ring)
{
	if (smpl)
		setup_smpl(e);
	else
		setup_sw(e);
	e->fd[0] = pfm_perf_event_open(&attr, 0, -1, -1, 0);
	if (e->fd[0] < 0)
		return -1;
	if (!ring)
		return 0;
	e->map_len = RING_PAGES * 4096;
	e->map = mmap(NULL, e->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, e->fd[0], 0);
	return e->map == MAP_FAILED ? -1 : 0;
}

static int setup_event(struct fenv *e)
{
	return open_one(e, false, false);
}

static int setup_smpl_event(struct fenv *e)
{
	return open_one(e, true, false);
}

static int setup_enabled(struct fenv *e)
{
	return open_one(e, false, false) ?: ioctl(e->fd[0], PERF_EVENT_IOC_ENABLE, 0);
}

static int setup_two_rings(struct fenv *e)
{
	if (open_one(e, true, true))
		return -1;
	e->fd[1] = pfm_perf_event_open(&attr, 0, -1, -1, 0);
	return e->fd[1] < 0 ? -1 : 0;
}

static int setup_tp_event(struct fenv *e)
{
	if (setup_tp(e))
		return -1;
	e->fd[0] = pfm_perf_event_open(&attr, 0, -1, -1, 0);
	return e->fd[0] < 0 ? -1 : 0;
}

static long op_mmap_ring(struct fenv *e)
{
	e->map = mmap(NULL, RING_PAGES * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, e->fd[0], 0);
	return e->map == MAP_FAILED ? -1 : 0;
}

static const char *check_ring(struct fenv *e, long r)
{
	const struct perf_event_mmap_page *pg = e->map;

	(void)r;
	return pg->data_size == (RING_PAGES - 1) * 4096 ? NULL : "bad data_size";
}

static long op_enable(struct fenv *e)
{
	return ioctl(e->fd[0], PERF_EVENT_IOC_ENABLE, 0);
}

static long op_disable(struct fenv *e)
{
	return ioctl(e->fd[0], PERF_EVENT_IOC_DISABLE, 0);
}

static long op_reset(struct fenv *e)
{
	return ioctl(e->fd[0], PERF_EVENT_IOC_RESET, 0);
}

static __u64 new_period = 7;

static long op_period(struct fenv *e)
{
	return ioctl(e->fd[0], PERF_EVENT_IOC_PERIOD, &new_period);
}

static long op_set_output(struct fenv *e)
{
	return ioctl(e->fd[1], PERF_EVENT_IOC_SET_OUTPUT, e->fd[0]);
}

static long op_set_filter(struct fenv *e)
{
	return ioctl(e->fd[0], PERF_EVENT_IOC_SET_FILTER, "common_pid != 0");
}

static struct perf_event_attr modify;

/* The opened attributes with another address: all the rest must match. */
static long op_modify(struct fenv *e)
{
	(void)e;
	modify = attr;
	modify.bp_addr = (unsigned long)&bp_target;
	return ioctl(e->fd[0], PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &modify);
}

static int setup_bp_event(struct fenv *e)
{
	setup_bp(e);
	attr.bp_addr = (unsigned long)&e->aux;
	e->fd[0] = pfm_perf_event_open(&attr, 0, -1, -1, 0);
	return e->fd[0] < 0 ? -1 : 0;
}

static __u64 rd[4];

static long op_read(struct fenv *e)
{
	return read(e->fd[0], rd, sizeof(rd));
}

static const char *check_read(struct fenv *e, long r)
{
	(void)e;
	return r == sizeof(__u64) ? NULL : "not one count";
}

static long op_close(struct fenv *e)
{
	return close(e->fd[0]);
}

static int setup_cpu(struct fenv *e)
{
	setup_sw(e);
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	return 0;
}

const struct fcase fcases_perf[] = {
	FCASE("perf_open_sw", FC_SHORT, setup_sw, op_open, NULL, check_fd),
	FCASE("perf_open_tracepoint", 0, setup_tp, op_open, NULL, check_fd),
	FCASE("perf_open_breakpoint", 0, setup_bp, op_open, NULL, check_fd),
	FCASE("perf_open_member", 0, setup_leader, op_open_member, NULL, check_fd),
	FCASE("perf_open_inherit", 0, setup_inherit, op_open, NULL, check_fd),
	FCASE("perf_open_sampling", 0, setup_smpl, op_open, NULL, check_fd),
	FCASE("perf_open_cpu", 0, setup_cpu, op_open_cpu, NULL, check_fd),
	FCASE("perf_mmap_ring", 0, setup_smpl_event, op_mmap_ring, NULL, check_ring),
	FCASE("perf_enable", 0, setup_event, op_enable, NULL, NULL),
	FCASE("perf_disable", 0, setup_enabled, op_disable, NULL, NULL),
	FCASE("perf_reset", 0, setup_enabled, op_reset, NULL, NULL),
	FCASE("perf_period", 0, setup_smpl_event, op_period, NULL, NULL),
	FCASE("perf_set_output", 0, setup_two_rings, op_set_output, NULL, NULL),
	FCASE("perf_set_filter", 0, setup_tp_event, op_set_filter, NULL, NULL),
	FCASE("perf_modify_attributes", 0, setup_bp_event, op_modify, NULL, NULL),
	FCASE("perf_read", 0, setup_enabled, op_read, NULL, check_read),
	FCASE("perf_close", FC_NOFAIL, setup_enabled, op_close, NULL, NULL),
	{ .name = NULL }
};
