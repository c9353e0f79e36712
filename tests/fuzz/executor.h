/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfm_fuzz: the executor that runs program after program (executor.c).
 */
#ifndef PFM_FUZZ_EXECUTOR_H
#define PFM_FUZZ_EXECUTOR_H

#include <stdio.h>
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
#define FZ_DONE_LEFT		'l'	/* perfmon still counted something once none ran */

/*
 * Executors that run programs side by side, as syzkaller's procs do: what one
 * waits for (a target's turn, a fork, the kernel's teardown) the other fills
 * with work.  Each has its own process group, shared memory and coverage.
 */
#define FZ_PROCS_MAX		4

/* how many run side by side (1 unless told) */
void fz_exec_procs(int n);

/* what fz_exec_give() and fz_exec_wait() say */
enum {
	FZ_EXEC_KEPT,		/* done; the executor is clean and runs the next one */
	FZ_EXEC_RETIRED,	/* done, or dead: kill its group, fz_exec_forget() */
	FZ_EXEC_TIMEOUT,	/* still running after timeout_s: the same */
	FZ_EXEC_FAILED,		/* no executor could be forked */
};

/*
 * Hands p to executor e (0 .. FZ_PROCS_MAX - 1; forked first if there is
 * none); 0, or FZ_EXEC_FAILED.  fresh: the executor retires after the
 * program (one process per program).
 */
int fz_exec_give(int e, const struct fz_prog *p, int verbose, int fresh);
/*
 * Waits for the first busy executor to answer, or to have run its program
 * timeout_s seconds: which one (*e), what it says (FZ_EXEC_*; -1 if none is
 * busy) and its answer (*why, FZ_DONE_*).
 */
int fz_exec_wait(int timeout_s, int *e, char *why);
/* 1 while executor e runs a program */
int fz_exec_busy(int e);
/* the executor's pid, which is its process group's id; 0 if none */
pid_t fz_exec_pid(int e);
/*
 * The time the executors spent putting themselves back after programs: in
 * all (step -1, named "put-back"), or in one step of it (0, 1 ... until NULL).
 */
const char *fz_exec_putback(int step, unsigned long *ms);
/* how many programs left the executor's size changed, so that its mappings were listed */
unsigned long fz_exec_maps_listed(void);
/* 1 if executor e maps or holds a file of perfmon's (each logged) */
int fz_exec_holds(int e, FILE *log);
/* the manager reaped pid (status): if an executor's, how it ended */
void fz_exec_reaped(pid_t pid, int status);
/* how a dead executor ended (a wait status), once; -1 if not known */
int fz_exec_status(int e);
/* after its group is gone: the next program given to e forks a new executor */
void fz_exec_forget(int e);

#endif /* PFM_FUZZ_EXECUTOR_H */
