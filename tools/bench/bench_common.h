/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest's benchmarks against perf_events share: the four software events
 * both tools count, and the summary of repeated measures.
 */
#ifndef _PFM_BENCH_COMMON_H
#define _PFM_BENCH_COMMON_H

/* task-clock, context switches, page faults, CPU migrations: perfmon's and perf's */
#define BENCH_NEV	4
extern const int bench_pfm_ev[BENCH_NEV];
extern const int bench_perf_ev[BENCH_NEV];

/*
 * A perfmon context of the four events, PMC i and PMD i of the software PMU
 * counting event i at both levels, written from 0 and not attached: its fd, or -1.
 */
int bench_pfm_four(void);

/*
 * Programs n PMCs and PMDs of set in the context fd as bench_pfm_four() does, PMC i
 * counting event i modulo 4: 0, or -1 (n above BENCH_PFM_MAX, a call failed).
 */
#define BENCH_PFM_MAX	16
int bench_pfm_program(int fd, unsigned int set, int n);

struct stat3 {
	double p25, med, p75;
};

/* The median and the quartiles of n values (sorted in place). */
struct stat3 stat3(double *v, int n);

/* perror(what), exit 1 */
void die(const char *what);

/* The calling thread on CPU cpu alone; dies on failure. */
void bench_pin(int cpu);

/*
 * The kernel's own perf_event_open of a software event of pid, in group (a
 * leader, -1, starts disabled), read as a group; sampling IP and TID every
 * period if not 0.  Dies on failure.
 */
int bench_perf_open(int pid, int config, int group, unsigned long long period);
/* bench_perf_open()'s attributes, for another opener (the shim's) */
struct perf_event_attr;
void bench_perf_attr(struct perf_event_attr *a, int config, int group,
		     unsigned long long period);
/* bench-inherit's event i of the four: on its own, enabled, attr.inherit */
void bench_inherit_attr(struct perf_event_attr *a, int i);

#include <sys/types.h>

/*
 * A second process that sends back each byte written to ping[1] on pong[0], until
 * the caller closes ping[1] (then waitpid() the pid returned); the caller keeps
 * ping[1] and pong[0].  bench_round_trip(): one byte there and back, 0 or -1.
 */
pid_t bench_start_ponger(int ping[2], int pong[2]);
int bench_round_trip(const int ping[2], const int pong[2]);

/*
 * Programs that time their own work, so that a tool's start and end are not in
 * the figure: bench_now_ns() is CLOCK_MONOTONIC in ns; bench_put_ns() writes a
 * time to path; bench_run_timed() runs argv (output to /dev/null, with the
 * NAME=VALUE strings of env added to its environment, env may be NULL), dies
 * unless it exits 0, and returns the time it wrote to path.
 */
double bench_now_ns(void);
void bench_put_ns(const char *path, double ns);
double bench_run_timed(char *const argv[], char *const env[], const char *path);

/*
 * perfmon's probes stay attached 1 s after their last user: the system call
 * probe sends every thread down the slow system call path, the page fault
 * probes put every fault through them.  A batch that makes such events first
 * waits for the probe "syscall" or "fault" to go (debugfs statistics), so
 * that no tool, nor the unmonitored batch, is measured under the previous
 * batch's probe; dies if it stays.
 */
void bench_hook_wait_off(const char *name);

#endif /* _PFM_BENCH_COMMON_H */
