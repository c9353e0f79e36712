/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfm_fuzz: the executor that runs program after program (executor.c).
 */
#ifndef PFM_FUZZ_EXECUTOR_H
#define PFM_FUZZ_EXECUTOR_H

#include <sys/types.h>

#include "fuzz.h"

/* an executor runs at most this many programs, then the next one is forked */
#define FZ_EXEC_RUNS_MAX	1000

/* the executor's answer on the done pipe: kept, or why it retires */
#define FZ_DONE_KEPT		'k'
#define FZ_DONE_FRESH		'f'	/* one process per program (--fresh) */
#define FZ_DONE_RUNS		'n'	/* FZ_EXEC_RUNS_MAX programs run */
#define FZ_DONE_ASYNC		'a'	/* an async thread still runs */
#define FZ_DONE_CHILD		'c'	/* a child nobody waited for lives */
#define FZ_DONE_THREAD		't'	/* a thread is left */
#define FZ_DONE_FDS		'd'	/* an fd it started with was closed or replaced */
#define FZ_DONE_DIED		'x'	/* no answer: it died (or timed out) */

/* what fz_exec_run() says */
enum {
	FZ_EXEC_KEPT,		/* done; the executor is clean and runs the next one */
	FZ_EXEC_RETIRED,	/* done, or dead: kill its group, fz_exec_forget() */
	FZ_EXEC_TIMEOUT,	/* still running after timeout_s: the same */
	FZ_EXEC_FAILED,		/* no executor could be forked */
};

/*
 * Runs p in the executor (forked first if there is none: *started = 1) and
 * waits for its answer at most timeout_s seconds.  fresh: the executor retires
 * after the program (one process per program).  *why: its answer (FZ_DONE_*).
 */
int fz_exec_run(const struct fz_prog *p, int timeout_s, int verbose, int fresh, int *started,
		char *why);
/* the executor's pid, which is its process group's id; 0 if none */
pid_t fz_exec_pid(void);
/*
 * The time the executors spent putting themselves back after programs: in
 * all (step -1, named "put-back"), or in one step of it (0, 1 ... until NULL).
 */
const char *fz_exec_putback(int step, unsigned long *ms);
/* how many programs left the executor's size changed, so that its mappings were listed */
unsigned long fz_exec_maps_listed(void);
/* how a dead executor ended (a wait status), once; -1 if not known */
int fz_exec_status(void);
/* after its group is gone: the next run forks a new executor */
void fz_exec_forget(void);

#endif /* PFM_FUZZ_EXECUTOR_H */
