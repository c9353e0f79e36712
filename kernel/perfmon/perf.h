/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the perf_event_open compatibility layer (perf_open.c, perf_event.c,
 * perf_target.c, perf_file.c, perf_inherit.c).
 *
 * perf's model on perfmon's: every perf event opened on one thread lives in that
 * thread's one perfmon context, owned by a "target" shared by those events.  The
 * context is attached to the thread and started for as long as the target lives;
 * group counts in one of the context's event sets (perf_sched.c: groups that do
 * not fit together are multiplexed); each event that counts something uses one
 * counter of its set (perf_hw.h: the software
 * PMU's, or for a hardware event a general-purpose or fixed counter of the
 * hardware PMU), shared with the target's other events that count the same event
 * at the same levels: the counter runs while any of them counts, and each event
 * keeps the intervals it counted.  Events that count nothing on this machine
 * (dummy, alignment faults, ...) use no counter.
 *
 * Locking: target->ctx->mutex protects the target's events and everything in
 * them; pfm_perf_family_mutex the lists of inherited copies (perf_inherit.c).
 * Never two contexts' mutexes at once.
 */
#ifndef _PERFMON_PERF_H
#define _PERFMON_PERF_H

#include <linux/perf_event.h>
#include <linux/workqueue.h>

#include "perf_hw.h"

/* Event sets a target's groups are spread over (perf_sched.c). */
#define PFM_PERF_MAX_SETS	8

struct pfm_perf_set {
	struct pfm_perf_counter counters[PFM_PERF_NUM_COUNTERS];
	unsigned int users;		/* events in it */
	bool exclusive;			/* an exclusive group's own */
};

/* The live durations of a target's sets, and their sum. */
struct pfm_perf_clock {
	u64 total;
	u64 set[PFM_PERF_MAX_SETS];
};

struct pfm_perf_target {
	refcount_t ref;			/* events + in-flight users */
	struct list_head node;		/* in the list of targets */
	struct task_struct *task;	/* held */
	struct pfm_context *ctx;	/* attached to task and started while it lives */
	struct list_head events;	/* ctx->mutex */
	struct pfm_perf_set sets[PFM_PERF_MAX_SETS];	/* ctx->mutex */
	unsigned int nr_sets;		/* in the context, 1 until a group does not fit */
	atomic_t nr_inherit;		/* events with attr.inherit */
	bool exec_armed;		/* an event waits for an exec */
	bool exec_queued;		/* exec_work queued (pfm_perf_targets_lock) */
	bool exit_queued;		/* exit_work queued (pfm_perf_targets_lock) */
	struct callback_head exec_work;
	struct work_struct exit_work;	/* folds the copies at the thread's exit */
};

struct pfm_perf_event {
	struct perf_event_attr attr;
	struct pfm_perf_target *target;	/* holds a reference */
	struct pfm_perf_event *leader;	/* itself for a leader */
	struct list_head siblings;	/* leader: its members, in opening order */
	struct list_head sibling_entry;	/* member: in the leader's siblings */
	struct list_head entry;		/* in target->events */
	unsigned int nr_siblings;	/* leader: members */
	u64 id;
	u16 set;			/* its group's event set (perf_sched.c) */
	int counter;			/* its counter (perf_hw.h), or -1: counts nothing */
	u64 pmc;			/* its counter's PMC value, without the on switch */
	bool enabled;			/* perf's state: not OFF */
	bool counting;			/* enabled and its leader too */
	bool exec_armed;		/* enable_on_exec not yet fired */
	u64 acc;			/* count of the closed intervals */
	u64 base;			/* counter value when counting began */
	u64 ena_ns;			/* time enabled, closed intervals */
	u64 run_ns;			/* time its set ran, closed intervals */
	u64 since_ns;			/* all sets' duration when counting began */
	u64 run_since_ns;		/* its set's duration then */

	/* inheritance (perf_inherit.c), pfm_perf_family_mutex */
	struct pfm_perf_event *parent;	/* the event copied, NULL for an opened one */
	struct list_head children;	/* opened event: its copies in other threads */
	struct list_head child_entry;
	u64 child_count;		/* folded in from copies whose thread exited */
	u64 child_ns;
	u64 child_run_ns;

	void *user_page;		/* mmap()ed perf_event_mmap_page, or NULL */
};

/* What reading an event gives: its count and time, its copies' included. */
struct pfm_perf_value {
	u64 count;
	u64 ena_ns;
	u64 run_ns;
};

/* perf_open.c */
int pfm_perf_copy_attr(struct perf_event_attr __user *uattr, struct perf_event_attr *attr);
long pfm_perf_event_open(struct perf_event_attr __user *uattr, int pid, int cpu,
			 int group_fd, unsigned long flags);

/* perf_target.c */
struct pfm_perf_target *pfm_perf_target_get(struct task_struct *task);
void pfm_perf_target_put(struct pfm_perf_target *t);
unsigned int pfm_perf_targets_count(void);
unsigned int pfm_perf_events_count(void);
void pfm_perf_target_add(struct pfm_perf_event *ev);
void pfm_perf_target_del(struct pfm_perf_event *ev);
extern atomic_t pfm_perf_nr_inherit;
struct pfm_perf_target *pfm_perf_target_find_locked(struct task_struct *task);
extern raw_spinlock_t pfm_perf_targets_lock;

/* perf_event.c: ctx->mutex held */
int pfm_perf_event_setup(struct pfm_perf_target *t, struct pfm_perf_event *ev,
			 struct pfm_perf_event *leader);
void pfm_perf_event_teardown(struct pfm_perf_event *ev);
int pfm_perf_event_set_enabled(struct pfm_perf_event *ev, bool on);
int pfm_perf_target_exec(struct pfm_perf_target *t);
int pfm_perf_target_sync(struct pfm_perf_target *t);
int pfm_perf_event_reset(struct pfm_perf_event *ev);
int pfm_perf_event_value(struct pfm_perf_event *ev, struct pfm_perf_value *v);
u64 pfm_perf_new_id(void);

/* perf_sched.c: ctx->mutex held */
extern unsigned long pfm_perf_mux_interval_ms;
int pfm_perf_sched_place(struct pfm_perf_target *t, struct pfm_perf_event *ev,
			 struct pfm_perf_event *leader, const struct pfm_perf_enc *enc);
void pfm_perf_sched_leave(struct pfm_perf_event *ev);
int pfm_perf_sched_clock(struct pfm_perf_target *t, struct pfm_perf_clock *c);

/* perf_open.c: a new event, not yet on a target */
struct pfm_perf_event *pfm_perf_event_alloc(const struct perf_event_attr *attr);
int pfm_perf_event_link(struct pfm_perf_event *ev, struct pfm_perf_event *leader);

/* perf_file.c */
int pfm_perf_install_fd(struct pfm_perf_event *ev, int fd);
struct pfm_perf_event *pfm_perf_event_from_file(struct file *file);
void pfm_perf_event_free(struct pfm_perf_event *ev);
void pfm_perf_event_unlink(struct pfm_perf_event *ev);

/* perf_inherit.c */
extern struct mutex pfm_perf_family_mutex;
int pfm_perf_inherit_init(void);
void pfm_perf_inherit_exit(void);
typedef int (*pfm_perf_op)(struct pfm_perf_event *ev, bool on);
void pfm_perf_children_value(struct pfm_perf_event *ev, struct pfm_perf_value *v);
void pfm_perf_children_apply(struct pfm_perf_event *ev, pfm_perf_op fn, bool on);
void pfm_perf_children_drop(struct pfm_perf_event *ev);
void pfm_perf_exec_arm(struct pfm_perf_target *t);
void pfm_perf_exec_disarm(struct pfm_perf_target *t);
void pfm_perf_exec(struct task_struct *task);
void pfm_perf_exit(struct task_struct *task);

#endif
