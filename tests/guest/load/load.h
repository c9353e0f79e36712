/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfm_load: sustained load on perfmon with nothing lost (README.md beside it).
 *
 * 64 monitored threads at all times, in slots of four kinds; each thread runs a
 * few rounds of a workload whose counts it knows exactly, checks them, exits, and
 * the main thread starts a new one in its slot.  Nothing is printed or asserted
 * inside a counting window: a write is a system call, and the windows count them.
 */
#ifndef PFM_LOAD_H
#define PFM_LOAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "perfmon.h"

#define LOAD_CTX_SLOTS		40	/* perfmon contexts, event sets on timeout */
#define LOAD_SMPL_SLOTS		12	/* shim page-fault samplers into rings */
#define LOAD_INH_SLOTS		6	/* PFM_FL_INHERIT families */
#define LOAD_PINH_SLOTS		6	/* shim inherit families */
#define LOAD_SLOTS		(LOAD_CTX_SLOTS + LOAD_SMPL_SLOTS + LOAD_INH_SLOTS + \
				 LOAD_PINH_SLOTS)

#define SW_PMC(i)		(PFM_SW_FIRST_PMC + (i))
#define SW_PMD(i)		(PFM_SW_FIRST_PMD + (i))

/* What every worker sees. */
struct load {
	volatile int stop;		/* workers end after their round */
	int ncpus;
	long tp_getppid;		/* tracefs id of syscalls:sys_enter_getppid */
	unsigned int scale;		/* rounds this many times smaller (PFM_LOAD_SCALE) */
};

/* attributes of a worker or poller thread: SCHED_OTHER, not the main thread's policy */
void load_thread_attr(pthread_attr_t *attr);
/* the main thread first in line: it keeps the slots full however busy the CPUs */
void load_main_first(void);

/* a round's size: lo..hi scaled down, at least min */
unsigned int load_size(unsigned int *seed, unsigned int lo, unsigned int hi, unsigned int min);

extern struct load load;

/* Totals over the run, for the summary and the CPU-wide lower bounds. */
struct load_stats {
	uint64_t threads, rounds, processes;
	uint64_t ctx_syscalls, set_runs;
	uint64_t smpl_faults, samples, lost;
	uint64_t inh_syscalls, pinh_hits;
	uint64_t page_reads, page_switches;
	uint64_t cpu0_syscalls_min;	/* made by threads pinned to CPU 0 */
	uint64_t cpu1_faults_min;	/* made by threads pinned to CPU 1 */
};

extern struct load_stats stats;

#define STAT_ADD(f, v)	__atomic_add_fetch(&stats.f, (v), __ATOMIC_RELAXED)

/* report.c: a failed check (printed, at most a few dozen lines), and the count. */
void load_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
long load_failures(void);
void load_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* util.c: small helpers */
pid_t load_tid(void);
void load_getppid(long n);
long load_page_size(void);
char *load_fresh_pages(long n);
void load_touch(char *p, long n, long psz);
void load_pin(int cpu);
unsigned int load_rand(unsigned int *seed, unsigned int lo, unsigned int hi);
long load_read_long(const char *path);
int load_write(const char *path, const char *s);
void load_msleep(long ms);
pid_t load_raw_fork(void);
void load_raw_wait(pid_t pid);
void __attribute__((noreturn)) load_raw_exit(void);
double load_now(void);

/* The workers: one thread each; arg is its struct slot. */
struct slot {
	int index;			/* in its kind */
	int cpu;			/* pinned to it, or -1 */
	unsigned int seed;
	pthread_t thread;
	volatile int done;		/* the thread has finished */
	int running;
	char *stack;			/* its own, or NULL: pthread's */
};

void *ctx_worker(void *arg);		/* ctx_worker.c */
void *smpl_worker(void *arg);		/* smpl_worker.c */
void *inh_worker(void *arg);		/* family.c */
void *pinh_worker(void *arg);		/* family.c */

/* util.c: a thread that runs pass() every pause_us until stopped */
struct poller {
	void (*pass)(void);
	long pause_us;
	volatile int stop;
	pthread_t thread;
};

int poller_start(struct poller *p);
void poller_stop(struct poller *p);

/* pages_reader.c: the counts pages of the live contexts, polled by one thread. */
void pages_publish(int key, const struct pfm_counts_page *pg);
void pages_withdraw(int key);
extern struct poller pages_reader;

/* smpl_worker.c: the one consumer of every sampler's ring. */
extern struct poller consumer;

/* cpu_wide.c: a perfmon CPU session on CPU 0, a shim CPU event on CPU 1. */
int cpu_wide_start(void);
void cpu_wide_poll(void);		/* counts must not go back */
void cpu_wide_stop(void);		/* checks the lower bounds, closes */

/* leak.c: perfmon's counts and the slab caches, before and after. */
struct leak_snap;
struct leak_snap *leak_snapshot(void);
int leak_quiesce(const struct leak_snap *base);	/* perfmon's counts back */
/* after, or a new snapshot once kfree_rcu()'s late batches are freed (leak.c) */
struct leak_snap *leak_settle(const struct leak_snap *before, struct leak_snap *after);
void leak_compare(const struct leak_snap *before, const struct leak_snap *after);

#endif
