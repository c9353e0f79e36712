// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_faults [--short] [-v] [CASE ...]: every scenario (or those named), or the
 * short list make check's debug guest runs; one line per scenario with the fault
 * points swept.  Exit status 0 when every scenario passed.
 *
 * The fault attributes are set as syzkaller's executor sets them (fail_nth.c).
 * Their reports are off (verbose 0): each would print a stack, which the guest's
 * scan of the kernel log would take for a kernel problem.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "faults.h"
#include "fail_nth.h"

static int setup_faults(void)
{
	const char *bad;

	if (fail_nth_setup(&bad)) {
		printf("pfm_faults: %s: %s\n", bad, strerror(errno));
		return -1;
	}
	if (fault_open()) {
		printf("pfm_faults: /proc/thread-self/fail-nth: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static const struct fcase *const tables[] = {
	fcases_core, fcases_perf, fcases_sched, fcases_compat,
};

/* The sweeps of their own (not of the calling thread's faults), as scenarios. */
static const struct fcase inherit_exit = { .name = "inherit_exit", .flags = FC_SHORT };

static bool wanted(const struct fcase *c, bool short_only, int argc, char **argv)
{
	int i;

	if (!argc)
		return !short_only || (c->flags & FC_SHORT);
	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], c->name))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	bool short_only = false;
	int verbose = 0, failed = 0, run = 0;
	long points = 0, n;
	unsigned int t;
	const struct fcase *c;
	struct timespec t0, t1;

	for (argc--, argv++; argc && argv[0][0] == '-'; argc--, argv++) {
		if (!strcmp(argv[0], "--short"))
			short_only = true;
		else if (!strcmp(argv[0], "-v"))
			verbose = 1;
		else {
			fprintf(stderr, "usage: pfm_faults [--short] [-v] [CASE ...]\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* libperfmon finds its door once, with allocations of its own: not under a fault */
	if (pfm_door() < 0) {
		printf("pfm_faults: no perfmon door: %s\n", strerror(errno));
		return 1;
	}
	if (setup_faults())
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (t = 0; t < ARRAY_SIZE(tables); t++)
		for (c = tables[t]; c->name; c++) {
			if (!wanted(c, short_only, argc, argv))
				continue;
			run++;
			n = sweep(c, verbose);
			if (n < 0)
				failed++;
			else
				points += n;
		}
	if (wanted(&inherit_exit, short_only, argc, argv)) {
		run++;
		n = sweep_inherit_exit(verbose);
		if (n < 0)
			failed++;
		else
			points += n;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* the guest's time: the short list must stay well within make check's budget */
	printf("pfm_faults: %d scenarios, %d failed, %ld fault points, %ld s\n", run, failed,
	       points, (long)(t1.tv_sec - t0.tv_sec));
	return failed || !run;
}
