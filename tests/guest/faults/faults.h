/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfm_faults: every fault point of perfmon's entry points, one after the other,
 * as syzkaller injects them: /proc/thread-self/fail-nth makes the N-th fault
 * site the calling thread passes (a slab or page allocation, a copy from or to
 * user space) fail, for N = 1, 2, ... until the operation no longer reaches
 * the N-th.  sweep.c runs one scenario; cases_*.c hold the scenarios.
 */
#ifndef PFM_FAULTS_H
#define PFM_FAULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "perfmon.h"
#include "util.h"

/* What a scenario's functions share: set up once per fault point, in a child. */
struct fenv {
	int fd[24];		/* contexts, events: as the scenario uses them */
	int nfd;
	void *map;		/* a mapping the scenario made */
	size_t map_len;
	struct kid kid;		/* a thread of another process, where one is needed */
	long aux;
};

/* The injected call may also fail with this errno (besides ENOMEM and EFAULT). */
#define FE_ERR_MAX		3

struct fcase {
	const char *name;
	unsigned int flags;
	int (*setup)(struct fenv *e);		/* 0, or -1 with errno */
	long (*op)(struct fenv *e);		/* the calls swept: >= 0, or -1 with errno */
	/*
	 * What of the state the operation may change, as text (the counts of a
	 * context, its sets ...): the same before and after an injected failure.
	 */
	void (*state)(struct fenv *e, char *buf, size_t len);
	/* After a success: the result is right; NULL, or what is wrong. */
	const char *(*check)(struct fenv *e, long ret);
	int errs[FE_ERR_MAX];			/* other errnos a fault may give */
};

#define FCASE(n, f, s, o, st, ck) \
	{ .name = (n), .flags = (f), .setup = (s), .op = (o), .state = (st), .check = (ck) }

/* In the short sweep that make check's debug guest runs. */
#define FC_SHORT	0x1
/* The operation cannot fail (close, munmap): an injected fault must change nothing visible. */
#define FC_NOFAIL	0x2
/* A retry after an injected failure is not the same operation (it consumed something). */
#define FC_NORETRY	0x4

extern const struct fcase fcases_core[];
extern const struct fcase fcases_perf[];
extern const struct fcase fcases_sched[];
extern const struct fcase fcases_compat[];

/* fail-nth of the calling thread (sweep.c) */
int fault_open(void);
void fault_arm(unsigned int n);
bool fault_disarm(void);

/* One scenario swept: the fault points it has, or -1 when one of them failed. */
long sweep(const struct fcase *c, int verbose);

/*
 * An inheritor's exit under each fault of its own (inherit_exit.c): the fault
 * points swept, or -1 when one of them failed.
 */
long sweep_inherit_exit(int verbose);

/* helpers of the scenarios (cases_util.c) */
int fe_ctx(int flags);
int fe_write_pmc(int fd, unsigned int num, uint64_t value);
int fe_write_pmd(int fd, unsigned int num, uint64_t value);
/* PMDs 0..n of the software PMU, as text */
void fe_pmds_state(int fd, unsigned int set, int n, char *buf, size_t len);
struct perf_event_attr;
/* a perf event of type and config, counting at every level but the hypervisor's */
void fe_attr(struct perf_event_attr *a, uint32_t type, uint64_t config);
int fe_kid(struct fenv *e);

#endif
