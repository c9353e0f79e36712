/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: a perf event and the target it is opened on (event.c, target.c).
 *
 * Every perf event opened on one thread (or one CPU) shares a target, which
 * holds that thread's one perfmon context; the event counts on a counter of one
 * of the context's event sets (counters.h, sched.h).  target->ctx->mutex
 * protects the target's events and everything in them, unless a field says
 * otherwise.
 */
#ifndef _PERFMON_PERF_EVENT_H
#define _PERFMON_PERF_EVENT_H

#include <linux/irq_work.h>
#include <linux/perf_event.h>
#include <linux/task_work.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "layer.h"
#include "counters.h"
#include "overflow.h"

struct fasync_struct;
struct file;
struct pfm_perf_owner;
struct pfm_perf_ring;

/*
 * A mapping the kernel reported to perf_event_mmap() (mmap.c), as it was then:
 * its record is written before the thread returns to user mode, with that time.
 */
struct pfm_perf_mmap_ent {
	u64 start, end, pgoff, time;
	unsigned long vm_flags;
	struct file *file;		/* held, or NULL: name says what it is */
	const char *name;		/* an anonymous mapping's ("[heap]", ...), or a path made before */
	int cpu;
};

#define PFM_PERF_MMAP_QUEUE	16

/* The thread's own: filled by its kprobe, emptied by its sb_work. */
struct pfm_perf_mmap_queue {
	unsigned int nr;
	bool overflow;			/* some were dropped: report what is unknown */
	u64 overflow_time;		/* the first dropped one's */
	struct pfm_perf_mmap_ent ent[PFM_PERF_MMAP_QUEUE];
};

/* One event set's row of counters. */
struct pfm_perf_set {
	struct pfm_perf_counter counters[PFM_PERF_NUM_COUNTERS];
	/*
	 * wrapped[i]: the periods the resets took off sampling counter i's PMD
	 * (ctx->lock), added back when read; made with the set's first sampling
	 * counter (sample.c, ctx->mutex), else NULL, and kept with the row
	 */
	u64 *wrapped;
	u64 unwritten;			/* new counters the next sync programs first */
	unsigned int users;		/* events in it */
	bool exclusive;			/* an exclusive group's own */
};

struct pfm_perf_target {
	refcount_t ref;			/* events + in-flight users */
	int cpu;			/* a CPU target's CPU, else -1 */
	struct list_head node;		/* in the list of targets */
	struct task_struct *task;	/* held; NULL for a CPU target */
	struct pfm_context *ctx;	/* attached to task and started while it lives */
	struct list_head events;	/* changed under ctx->mutex and ctx->lock */
	/*
	 * ctx->mutex: set 0's row made with the target, a further set's when
	 * nr_sets first reaches it (sched.c), each kept until the target goes
	 */
	struct pfm_perf_set *sets[PFM_PERF_MAX_SETS];
	unsigned int nr_sets;		/* in the context, 1 until a group does not fit */
	atomic_t nr_inherit;		/* events with attr.inherit */
	struct list_head gated;		/* cgroup events (cgroup.c): ctx->mutex and ctx->lock */
	bool exec_armed;		/* an event waits for an exec */
	bool exec_queued;		/* exec_work queued (pfm_perf_targets_lock) */
	bool exit_queued;		/* exit_cb or exit_work queued (pfm_perf_targets_lock) */
	bool copying;			/* inherited copies being attached (inherit.c) */
	bool folding;			/* its copies, all its events, folded at its exit */
	struct callback_head exec_work;
	/* folds the copies at the thread's exit: in the exit itself, else by a worker */
	union {
		struct callback_head exit_cb;
		struct work_struct exit_work;
	};
	struct list_head sb_events;	/* events that want side-band records (task.c):
					 * changed under ctx->mutex and ctx->lock */
	unsigned long sb_queued;	/* bit 0: sb_work queued (the thread's own),
					 * bit 1: a sample found an unknown mapping */
	u64 sb_time;			/* the time its records carry */
	struct callback_head sb_work;	/* reports mappings (sideband.c) */
	/* mappings made, to report (mmap.c): made with the first event that asks */
	struct pfm_perf_mmap_queue *mq;
	unsigned long async_queued;	/* bit 0: async_work queued (the thread's own) */
	struct callback_head async_work; /* disables at REFRESH's limit (async.c) */
	unsigned long sigtrap_queued;	/* bit 0: sigtrap_work queued (the thread's own) */
	struct callback_head sigtrap_work; /* sends the SIGTRAPs marked (sigtrap.c) */
};

/*
 * Small fields go in pairs and fours, so that the struct has no holes: a
 * thread counted through the shim holds one per event.
 */
struct pfm_perf_event {
	struct perf_event_attr attr;
	struct pfm_perf_target *target;	/* holds a reference */
	struct pfm_perf_event *leader;	/* itself for a leader */
	struct list_head siblings;	/* leader: its members, in opening order */
	struct list_head sibling_entry;	/* member: in the leader's siblings */
	struct list_head entry;		/* in target->events */
	unsigned int nr_siblings;	/* leader: members */
	int counter;			/* its counter (counters.h), or -1: counts nothing */
	u64 id;
	u16 set;			/* its group's event set (sched.c) */
	u8 open_sets;			/* sets whose count interval is open (base[] holds) */
	bool all_sets;			/* pinned group: in every set, on one counter index */
	bool in_set;			/* counted in its set's users (not pinned) */
	bool unsched;			/* pinned leader that fits in no set beside the others */
	bool error;			/* perf's ERROR state: unsched and enabled once */
	bool enabled;			/* perf's state: not OFF */
	bool counting;			/* enabled and its leader too */
	bool exec_armed;		/* enable_on_exec not yet fired */
	bool exec_fired;		/* enabled by the exec whose records are due */
	bool removed;			/* remove_on_exec fired: never counts again */
	u32 tp_fkey;			/* SET_FILTER's key (filter.c), held; else 0 */
	u64 pmc;			/* its counter's PMC value, without the on switch */
	struct pfm_perf_enc enc;	/* what it may count on (pfm_perf_encode()) */
	u64 on_since;			/* local_clock() when last enabled */
	struct list_head sb_entry;	/* in target->sb_events, if it wants records */
	u64 acc;			/* count of the closed intervals */
	u64 base[PFM_PERF_MAX_SETS];	/* counter value in each set when counting began */
	u64 ena_ns;			/* time enabled, closed intervals */
	u64 run_ns;			/* time its set ran, closed intervals */
	u64 since_ns;			/* all sets' duration when counting began */
	u64 run_since_ns;		/* its set's duration then */

	/* inheritance (inherit.c), pfm_perf_family_mutex */
	struct pfm_perf_event *parent;	/* the event copied, NULL for an opened one */
	struct list_head children;	/* opened event: its copies in other threads */
	struct list_head child_entry;
	u64 child_count;		/* folded in from copies whose thread exited */
	u64 child_ns;
	u64 child_run_ns;

	/* the thread that opened it (prctl.c), pfm_perf_owner_mutex */
	struct pfm_perf_owner *owner;	/* NULL for an inherited copy */
	struct list_head owner_entry;	/* in its owner's events */

	/* output (output.c): ring, ring_entry under pfm_perf_output_mutex */
	struct pfm_perf_ring *ring;	/* its own mapping's, or SET_OUTPUT's; RCU */
	struct list_head ring_entry;	/* in ring->evs */
	wait_queue_head_t wait;		/* poll()ers */
	atomic_t mmap_count;		/* its mappings */

	/* signals and REFRESH (async.c) */
	int pending_kill;		/* its si_code: POLL_IN, POLL_HUP, or 0 */
	struct fasync_struct *fasync;	/* O_ASYNC's owner, F_SETSIG's signal */
	struct irq_work kill_work;	/* sends it from any context */
	atomic_t event_limit;		/* REFRESH: overflows left, 0 for no limit */
	bool limit_hit;			/* the last one came: disabled at once */
	u8 pmu_type;			/* hybrid: its group's type of CPU + 1, else 0 */
	bool bp_armed;			/* its breakpoint (bp, below) is on (ctx->mutex) */
	bool gate_in;			/* its gate is open (gate_base, below) */
	int cpu;			/* -1, or the one CPU whose samples it takes */
	u32 bp_key;			/* the key its breakpoint's hits count under */
	struct cgroup *cgrp;		/* a cgroup event's (held), else NULL */
	struct list_head gate_entry;	/* in target->gated */
	unsigned long sigtrap_pending;	/* bit 0: a SIGTRAP is due (sigtrap.c) */
	u64 sigtrap_addr;		/* its si_addr */
	struct perf_event *bp;		/* a BREAKPOINT event's breakpoint (breakpoint.c) */
	/*
	 * its gate's time (cgroup.c), in the terms of the durations its times
	 * come from, ctx->lock: open since gate_base, closed intervals gate_ns;
	 * gate_snap_ns, its value at the last clock taken (ctx->mutex)
	 */
	u64 gate_base;
	u64 gate_ns;
	u64 gate_snap_ns;
	struct pfm_perf_period per;	/* sampling: the period counting now */
	struct pfm_perf_throttle thr;	/* max sample rate: no samples until the next tick */
};


/*
 * A thread's event on one CPU or on one type of CPU (hybrid), or a cgroup
 * event: its counter is switched at context switches (cgroup.c), and so is its
 * time_running (and a cgroup event's time_enabled).
 */
static inline bool pfm_perf_gated(const struct pfm_perf_event *ev)
{
	return ev->cgrp || (ev->target->task && (ev->cpu >= 0 || ev->pmu_type));
}

/* ev has a counter row in set s (sched.c): its group's set, or every set. */
static inline bool pfm_perf_in_set(const struct pfm_perf_event *ev, unsigned int s)
{
	return ev->all_sets ? s < ev->target->nr_sets : ev->set == s;
}

/*
 * Whether ev's count interval in set s is open: a sync that stops in a later set
 * leaves the earlier ones done, and the next one must not do them again.
 */
static inline bool pfm_perf_open_in(const struct pfm_perf_event *ev, unsigned int s)
{
	return ev->open_sets & BIT(s);
}

/* What row's counter i has had taken off by its resets (pfm_perf_set.wrapped). */
static inline u64 pfm_perf_wrapped(const struct pfm_perf_set *row, unsigned int i)
{
	const u64 *w = READ_ONCE(row->wrapped);

	return w ? READ_ONCE(w[i]) : 0;
}

/* What reading an event gives: its count and time, its copies' included. */
struct pfm_perf_value {
	u64 count;
	u64 ena_ns;
	u64 run_ns;
};

/* cgroup.c: cgroup events, counted while their cgroup runs on the CPU */
struct cgroup *pfm_perf_cgroup_get(int fd, const struct pfm_perf_event *leader);
void pfm_perf_cgroup_put(struct pfm_perf_event *ev);
int pfm_perf_cgroup_link(struct pfm_perf_event *ev);
void pfm_perf_cgroup_unlink(struct pfm_perf_event *ev);
void pfm_perf_cgroup_sync(struct pfm_perf_target *t);
u64 pfm_perf_gate_ns(const struct pfm_perf_event *ev, u64 run);
void pfm_perf_gate_snap(struct pfm_context *ctx, struct pfm_op_clock *op);

/* target.c */
int pfm_perf_row_cache_init(void);
void pfm_perf_row_cache_exit(void);
int pfm_perf_target_cache_init(void);
void pfm_perf_target_cache_exit(void);
struct pfm_perf_set *pfm_perf_set_row_alloc(void);
struct pfm_perf_target *pfm_perf_target_get(struct task_struct *task, int cpu);
void pfm_perf_target_put(struct pfm_perf_target *t);
void pfm_perf_target_add(struct pfm_perf_event *ev);
void pfm_perf_target_del(struct pfm_perf_event *ev);
extern atomic_t pfm_perf_nr_inherit;
struct pfm_perf_target *pfm_perf_target_find_locked(struct task_struct *task, int cpu);
extern raw_spinlock_t pfm_perf_targets_lock;
bool pfm_perf_target_claim(struct pfm_perf_target *t, unsigned long *queued);
void pfm_perf_target_queue(struct pfm_perf_target *t, unsigned long *queued,
			   struct callback_head *work, task_work_func_t fn);

/* event.c: ctx->mutex held */
int pfm_perf_event_setup(struct pfm_perf_target *t, struct pfm_perf_event *ev,
			 struct pfm_perf_event *leader);
void pfm_perf_event_teardown(struct pfm_perf_event *ev);
void pfm_perf_event_mark(struct pfm_perf_event *ev, bool on);
int pfm_perf_event_set_enabled(struct pfm_perf_event *ev, bool on);
int pfm_perf_target_exec(struct pfm_perf_target *t);
int pfm_perf_target_sync(struct pfm_perf_target *t);
int pfm_perf_event_reset(struct pfm_perf_event *ev);
int pfm_perf_event_value(struct pfm_perf_event *ev, struct pfm_perf_value *v);
u64 pfm_perf_new_id(void);

/* filter.c: PERF_EVENT_IOC_SET_FILTER on tracepoint events */
long pfm_perf_ioc_set_filter(struct pfm_perf_event *ev, const char __user *arg);
void pfm_perf_filter_inherit(struct pfm_perf_event *copy);
void pfm_perf_filter_release(struct pfm_perf_event *ev);

#endif /* _PERFMON_PERF_EVENT_H */
