// SPDX-License-Identifier: GPL-2.0
/*
 * The compatibility doors libperfmon builds on perfmon's calls: NetBSD's
 * pmc_control(2) and the perf_counter_open() of 2.6.31.  Their state in user
 * space must survive a failed call: the call then succeeds when made again.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "faults.h"
#include "pmc.h"
#include "perf_counter.h"

static struct pmc_counter_cfg cfg = { .event_id = PMC_EV_SW_SYSCALLS };
static int ncounters;

/*
 * The library's first call opens the process's context, attached and started:
 * a failure there leaves none open.
 */
static long op_pmc_first(struct fenv *e)
{
	(void)e;
	return pmc_get_info(0, PMC_INFO_NCOUNTERS, &ncounters);
}

static const char *check_ncounters(struct fenv *e, long r)
{
	(void)e;
	(void)r;
	return ncounters > 0 ? NULL : "no counters";
}

/* Once open, the process's context stays, whatever a later call does. */
static int setup_pmc_ready(struct fenv *e)
{
	return op_pmc_first(e);
}

static long op_pmc_configure(struct fenv *e)
{
	(void)e;
	return pmc_control(0, PMC_OP_CONFIGURE, &cfg);
}

static int setup_pmc(struct fenv *e)
{
	return op_pmc_configure(e);
}

static long op_pmc_start(struct fenv *e)
{
	(void)e;
	return pmc_control(0, PMC_OP_START, NULL);
}

static struct perf_counter_hw_event hw = {
	.config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, PERF_COUNT_PAGE_FAULTS),
	.disabled = 1,
};

/* The library's first call looks for its door: done here, not under a fault. */
static int setup_perf_counter(struct fenv *e)
{
	(void)e;
	return close(perf_counter_open(&hw, 0, -1, -1, 0));
}

static long op_perf_counter_open(struct fenv *e)
{
	(void)e;
	return perf_counter_open(&hw, 0, -1, -1, 0);
}

static const char *check_fd(struct fenv *e, long r)
{
	(void)e;
	return r >= 0 ? NULL : "no fd";
}

const struct fcase fcases_compat[] = {
	FCASE("pmc_first_call", 0, NULL, op_pmc_first, NULL, check_ncounters),
	FCASE("pmc_configure", 0, setup_pmc_ready, op_pmc_configure, NULL, NULL),
	FCASE("pmc_start", 0, setup_pmc, op_pmc_start, NULL, NULL),
	FCASE("perf_counter_open", 0, setup_perf_counter, op_perf_counter_open, NULL,
	      check_fd),
	{ .name = NULL }
};
