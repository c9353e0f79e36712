// SPDX-License-Identifier: GPL-2.0
/*
 * fork_bench: what counting a fork-heavy program costs, pfmon (its context with
 * PFM_FL_INHERIT: the kernel gives each child its context) against perf stat
 * natively (perf_events' inherit), in the same guest boot, interleaved round by
 * round.
 *
 * The program is this one with --loop N: N times fork(), _exit() in the child,
 * waitpid() in the parent, timed by itself (CLOCK_MONOTONIC around the loop, so
 * the tools' own start and end are not in it) and written to FORK_BENCH_OUT.
 * Each round runs it alone, under pfmon -e task-clock,syscalls, under
 * perf stat -e task-clock,raw_syscalls:sys_enter (perf's name for the same
 * count), and under pfmon --per-thread (pfmon following the children with
 * ptrace, as it did for every command before the kernel's inheritance).  The
 * ratios are each round's time over the same round's perf stat time.
 *
 * Output: a table, then one line "BENCH-FORK-JSON: {...}" for the host.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "inherit_work.h"

#define OUT	"/tmp/fork_bench.ns"
#define NMODES	4

static const char *const mode_name[NMODES] = { "none", "pfmon", "perf", "pfmon-ptrace" };

static int loop(long n)
{
	double t0 = bench_now_ns();

	work_children(n, NULL);
	bench_put_ns(OUT, bench_now_ns() - t0);
	return 0;
}

/* The loop's own time under mode, in ns. */
static double run(int mode, const char *n)
{
	char *const argv[NMODES][16] = {
		{ "/bin/fork_bench", "--loop", (char *)n, NULL },
		{ "/bin/pfmon", "-e", "task-clock,syscalls", "--", "/bin/fork_bench",
		  "--loop", (char *)n, NULL },
		{ "/usr/bin/perf", "stat", "-e", "task-clock,raw_syscalls:sys_enter", "--",
		  "/bin/fork_bench", "--loop", (char *)n, NULL },
		{ "/bin/pfmon", "--per-thread", "-e", "task-clock,syscalls", "--",
		  "/bin/fork_bench", "--loop", (char *)n, NULL },
	};

	return bench_run_timed(argv[mode], NULL, OUT);
}

int main(int argc, char **argv)
{
	const char *n = getenv("FORK_BENCH_N") ?: "1000";
	int rounds = atoi(getenv("FORK_BENCH_ROUNDS") ?: "7");
	double *ns[NMODES], *ratio[NMODES];
	struct stat3 s[NMODES], r[NMODES];
	int m, i;

	if (argc == 3 && !strcmp(argv[1], "--loop"))
		return loop(atol(argv[2]));
	if (rounds < 1)
		rounds = 1;
	for (m = 0; m < NMODES; m++) {
		ns[m] = calloc(rounds, sizeof(double));
		ratio[m] = calloc(rounds, sizeof(double));
		if (!ns[m] || !ratio[m])
			die("calloc");
	}
	run(0, n);	/* warm the page cache and the module's probes */
	for (i = 0; i < rounds; i++) {
		for (m = 0; m < NMODES; m++)
			ns[m][i] = run(m, n);
		for (m = 0; m < NMODES; m++)
			ratio[m][i] = ns[m][i] / ns[2][i];
	}
	printf("fork_bench: %s forks, %d rounds: ms (median, quartiles); ratio to perf stat\n",
	       n, rounds);
	for (m = 0; m < NMODES; m++) {
		s[m] = stat3(ns[m], rounds);
		r[m] = stat3(ratio[m], rounds);
		printf("  %-13s %8.2f [%8.2f %8.2f]   %.3f [%.3f %.3f]\n", mode_name[m],
		       s[m].med / 1e6, s[m].p25 / 1e6, s[m].p75 / 1e6, r[m].med, r[m].p25,
		       r[m].p75);
	}
	printf("\nBENCH-FORK-JSON: {\"unit\": \"ms\", \"forks\": %s, \"rounds\": %d, "
	       "\"against\": \"perf\", \"modes\": {", n, rounds);
	for (m = 0; m < NMODES; m++)
		printf("%s\"%s\": {\"ms\": [%.3f, %.3f, %.3f], \"ratio\": [%.4f, %.4f, %.4f]}",
		       m ? ", " : "", mode_name[m], s[m].p25 / 1e6, s[m].med / 1e6,
		       s[m].p75 / 1e6, r[m].p25, r[m].med, r[m].p75);
	printf("}}\n");
	return 0;
}
