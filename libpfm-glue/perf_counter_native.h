/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon, inside: the native counters of perf_counter_open() (perf_counter.c)
 * and their inheritance by forked children (perf_counter_inherit.c).
 */
#ifndef _LIBPERFMON_PERF_COUNTER_NATIVE_H
#define _LIBPERFMON_PERF_COUNTER_NATIVE_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "perfmon.h"

/*
 * A set of slots (software counters): bit i is slot i.  The interface uses the
 * software PMU's first 64 counters: one word of slots.
 */
#define PC_SLOT(i)	(UINT64_C(1) << (i))
#define PC_SLOTS	64

#define PC_EN		(1ULL << 22)	/* PFM_SW_PMC_EN */

/* A forked child's context: copies of the inherit counters of slots, counting it. */
struct pc_child {
	int fd;
	uint64_t slots;
	struct pc_child *next;
};

/* One perfmon context: the counters of one thread (cpu -1) or one CPU (tid -1). */
struct pc_ctx {
	int fd;
	pid_t tid;
	int cpu;
	uint64_t used;			/* software counters taken, bit i slot i */
	int mine;			/* counts the thread owner, in this process */
	pthread_t owner;
	struct pc_child *children;	/* forked by the owner since, that have not gone */
	int fork_fd;			/* the context made for the child being forked */
	uint64_t fork_slots;		/* and the slots in it */
	struct pc_ctx *next;
};

struct pc_counter {
	struct pc_ctx *ctx;
	int fd;				/* the handle */
	int slot;			/* software counter */
	uint64_t sel;			/* PMC value without EN */
	int enabled;			/* its own state */
	int on;				/* EN as written: enabled, and its leader too */
	struct pc_counter *leader;	/* itself for a leader */
	uint32_t read_format;
	uint64_t time;			/* ns enabled before on_since */
	uint64_t on_since;		/* set duration when EN was last set */
	int inherit;
	uint64_t inherited;		/* what the copies of gone children counted */
};

struct pc_state {
	pthread_mutex_t lock;
	struct pc_counter **tab;	/* by handle fd */
	int len;
	struct pc_ctx *ctxs;
	int atfork;
};

extern struct pc_state pc_lib;

/* perf_counter_inherit.c, under pc_lib.lock */
int pc_inherit_atfork(void);
int pc_inherit_sum(struct pc_counter *c, uint64_t *sum);
void pc_inherit_write(struct pc_ctx *x, const struct pfarg_pmc *pmc, int n);
void pc_inherit_drop(struct pc_ctx *x, int slot);
void pc_inherit_free(struct pc_ctx *x);

#endif
