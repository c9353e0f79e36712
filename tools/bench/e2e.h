/* SPDX-License-Identifier: GPL-2.0 */
/*
 * e2e_bench: the real tools end to end (e2e_bench.c), how a command is run and
 * timed (e2e_run.c), and how two runs' outputs are compared (e2e_check.c).
 */
#ifndef _PFM_E2E_H
#define _PFM_E2E_H

#include <stddef.h>

/* how a command's process is set up before its exec */
enum e2e_how {
	E2E_PLAIN,	/* as it is: pfmon, perf stat -- W, W alone */
	E2E_NATIVE,	/* the kernel's perf_event_open, under a filter of the shim's cost */
	E2E_SHIM,	/* the preload, its fallback off, the kernel's perf_event_open blocked */
};

#define E2E_PRELOAD	"/lib/perfmon/libperfmon-perf.so"

/*
 * The guest sleeps this long before each run: perf_events and perfmon both keep
 * their hooks a second after their last event goes (perf_sched_events, the
 * software events' tracepoints), and a run that follows another within that
 * second pays less for its start than one that does not.  After the sleep every
 * run starts as a command run alone does.  Under instruction counting
 * (sleep=off) an idle guest's clock jumps to its next timer: the sleep takes no
 * host time.
 */
extern unsigned int e2e_settle_ms;

/*
 * Runs argv (stdout and stderr into log) set up as how says, waits for it and
 * returns the guest's time from before the fork to after the wait, in ns.  Dies
 * if it cannot be run or does not exit 0.
 */
double e2e_run(char *const argv[], enum e2e_how how, const char *log);

/* The first line that sh -c cmd prints, without its newline, into buf ("" if none). */
void e2e_sh_line(const char *cmd, char *buf, size_t len);

/* One comparison of two runs' outputs: what was compared, both sides, agreed? */
struct e2e_check {
	char what[48];
	char a[160], b[160];
	int same;
};

#define E2E_MAX_CHECKS	8

/*
 * perf stat -x, outputs (pfmon's is the same): task-clock within 10 %,
 * page-faults within 1 %, context-switches within twice the other's plus 10
 * (the scheduler's noise); events absent from either are skipped.  Returns the
 * number of checks written to c.
 */
int e2e_check_stat(const char *a, const char *b, struct e2e_check *c);

/*
 * Two perf.data files: the samples recorded (within tol percent) and perf
 * report's top entry (comm, dso, symbol).  Returns the number of checks.
 */
int e2e_check_record(const char *a, const char *b, double tol, struct e2e_check *c);

#endif /* _PFM_E2E_H */
