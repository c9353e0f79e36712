/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: PFM_FL_INHERIT, a layer on the core (perfmon.h, INHERITANCE, says what
 * user space sees).
 *
 * A family is an opened context with the PFM_FL_INHERIT flag, loaded on a thread,
 * and the inheritors: the contexts the layer made, one per thread or child that a
 * thread of the family created, each attached to its own thread.  family.c keeps
 * the families and the map of their threads and serves the flag's ops (the core's
 * struct pfm_flag_ops); fork.c gives a new thread its inheritor before its first
 * user instruction; fold.c adds an inheritor's counts into the opened context when
 * its thread exits, or when the family ends; smpl.c puts the inheritors' samples
 * in the opened context's buffer.
 *
 * Locking: the opened context's mutex protects the family (members, dead,
 * started, made); an inheritor's mutex is taken under it (a nested lock of the same
 * class).  pfm_inh_lock (a raw spinlock, innermost) protects the map of threads,
 * which the fork and exit probes read in atomic context.
 */
#ifndef _PERFMON_INHERIT_H
#define _PERFMON_INHERIT_H

#include <linux/hashtable.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/task_work.h>

#include "layer.h"

struct pfm_inh_family {
	refcount_t ref;			/* the opened context's + pending works */
	struct pfm_context *ctx;	/* the opened context, referenced */
	struct list_head node;		/* in the families (pfm_inh_lock) */
	struct list_head members;	/* struct pfm_inh_thread of the inheritors */
	struct pfm_inh_thread *opened;	/* the opened thread's entry while mapped */
	bool dead;			/* unloaded or closed: no more inheritors */
	bool started;			/* inheritors start as they are made */
	unsigned int made;		/* inheritors started as made: their first sets */
	struct irq_work full_work;	/* tells the opened context its buffer filled */
	union pfarg_msg full_msg;	/* what it tells (smpl.c), under full_lock */
	raw_spinlock_t full_lock;
};

/* A thread of a family, in the map: the opened one's or an inheritor's. */
struct pfm_inh_thread {
	struct hlist_node node;		/* in the map (pfm_inh_lock) */
	struct task_struct *task;	/* referenced */
	struct pfm_inh_family *fam;
	struct pfm_context *ctx;	/* the inheritor's own; NULL: the opened thread */
	struct list_head entry;		/* in fam->members (inheritors only) */
};

/* family.c */
extern raw_spinlock_t pfm_inh_lock;
struct pfm_inh_thread *pfm_inh_lookup_locked(struct task_struct *task);
void pfm_inh_map(struct pfm_inh_thread *th);
void pfm_inh_unmap(struct pfm_inh_thread *th);
void pfm_inh_family_put(struct pfm_inh_family *fam);
struct pfm_inh_family *pfm_inh_family_find(struct pfm_context *ctx, bool take);
void pfm_inh_opened_exit_locked(struct pfm_inh_thread *th);
void pfm_inh_lost(void);
extern atomic_t pfm_inh_nr_threads;
extern atomic_t pfm_inh_nr_inheritors;
int pfm_inh_family_init(void);
void pfm_inh_family_exit(void);

/* fork.c */
int pfm_inh_fork_init(void);
void pfm_inh_fork_exit(void);

/* fold.c: opened ctx->mutex held */
void pfm_inh_fold(struct pfm_inh_family *fam, struct pfm_inh_thread *th);
void pfm_inh_exit(struct task_struct *task);
void pfm_inh_read(struct pfm_context *opened, struct pfm_pmd_read *rd, unsigned int n);
void pfm_inh_setinfo(struct pfm_context *opened, struct pfarg_setinfo *req, unsigned int n);

/* smpl.c: the opened context's shared sampling buffer */
extern const struct pfm_smpl_sink pfm_inh_sink;
void pfm_inh_smpl_init(struct pfm_inh_family *fam);
void pfm_inh_smpl_end(struct pfm_inh_family *fam);
bool pfm_inh_samples(struct pfm_context *ctx, u16 set_id, unsigned int num);
void pfm_inh_smpl_pmd(struct pfm_event_set *set, unsigned int i, struct pfarg_pmd *req);

#endif /* _PERFMON_INHERIT_H */
