/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the perf_event_open compatibility layer (perf_open.c, perf_event.c,
 * perf_target.c, perf_file.c, perf_inherit.c; sampling: perf_sample.c,
 * perf_ring.c, perf_output.c, perf_async.c, perf_sideband.c, perf_task.c,
 * perf_callchain.c).
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
 * Sampling is a layer on perfmon's own: a sampling event (sample_period) takes a
 * counter of its own and makes its PMD a perfmon sampling PMD (PFM_PMDFL_SMPL,
 * reset to -period at each overflow by the core's overflow path, ovfl.c).  The
 * target's context then takes the "perf_ring" sampling format (perf_ring.c), the
 * second format of the core's registry beside "default": where perfmon has one
 * sampling buffer per context and perf one ring per event, the format's buffer
 * is a routing table from PMD to the perf event that owns it, and its handler
 * hands each overflow to that event (perf_sample.c), which writes its
 * PERF_RECORD_SAMPLE into the ring its output goes to: its own, mapped by
 * mmap() of 1 + 2^n pages or the one SET_OUTPUT named (perf_output.c), or, for
 * an inherited copy, the opened event's.  The
 * handler never masks the context: a record that does not fit is counted and
 * reported by PERF_RECORD_LOST.  The records that name what was sampled (COMM,
 * MMAP2) come from the sampled thread in process context (perf_sideband.c).
 * Task-clock counters reach their carry by a
 * timer of the software PMU (sw_pmu.c), so the clocks sample on time.
 *
 * Locking: target->ctx->mutex protects the target's events and everything in
 * them; pfm_perf_family_mutex the lists of inherited copies (perf_inherit.c).
 * Never two contexts' mutexes at once.
 */
#ifndef _PERFMON_PERF_H
#define _PERFMON_PERF_H

#include <linux/irq_work.h>
#include <linux/perf_event.h>
#include <linux/poll.h>
#include <linux/task_work.h>
#include <linux/workqueue.h>

#include "layer.h"
#include "counters.h"
#include "overflow.h"

#define PFM_PERF_SB_KNOWN	32

/*
 * An event's mapping (perf_ring.c): the user page, then 2^n data pages (none
 * for a one-page mapping) where records are written, whole, in order.
 */
struct pfm_perf_ring {
	struct pfm_smpl_buf buf;	/* the pages, charged as sampling memory */
	struct mm_struct *mm;		/* pinned_vm charged (perf_mmap()'s rule), or NULL */
	unsigned long pinned_pages;
	struct perf_event_mmap_page *page;
	void *data;
	u64 data_size;			/* 0 for a user page alone */
	bool writable;			/* mapped PROT_WRITE: data_tail is honoured */
	raw_spinlock_t lock;		/* writers, from any thread of the family */
	u64 head;			/* where the next record goes */
	u64 lost;			/* records dropped since the last LOST */
	u64 wakeup;			/* head at the last watermark wakeup */
	u64 watermark;			/* bytes between wakeups */
	unsigned int events;		/* samples since the last wakeup */
	bool paused;			/* PAUSE_OUTPUT: records are lost */
	atomic_t poll;			/* EPOLLIN once a wakeup came */
	struct irq_work wake_work;	/* wakes the readers from any context */
	/* its lifetime and readers (perf_output.c) */
	refcount_t ref;			/* the events attached */
	atomic_t mmap_count;		/* mappings of it, through any event */
	raw_spinlock_t evs_lock;	/* evs: changed under the output mutex too */
	struct list_head evs;		/* the events attached, woken at a wakeup */
	unsigned int nr_known;		/* mappings reported (perf_sideband.c), lock */
	struct { u64 start, end; } known[PFM_PERF_SB_KNOWN];
};

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
	struct task_struct *task;	/* held; NULL for a CPU target */
	int cpu;			/* a CPU target's CPU, else -1 */
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
	unsigned long sb_queued;	/* bit 0: sb_work queued (the thread's own) */
	u64 sb_time;			/* the time its records carry */
	struct callback_head sb_work;	/* reports mappings (perf_sideband.c) */
	unsigned long async_queued;	/* bit 0: async_work queued (the thread's own) */
	struct callback_head async_work; /* disables at REFRESH's limit (perf_async.c) */
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
	bool all_sets;			/* pinned group: in every set, on one counter index */
	bool in_set;			/* counted in its set's users (not pinned) */
	bool unsched;			/* pinned leader that fits in no set beside the others */
	bool error;			/* perf's ERROR state: unsched and enabled once */
	int counter;			/* its counter (perf_hw.h), or -1: counts nothing */
	u64 pmc;			/* its counter's PMC value, without the on switch */
	struct pfm_perf_enc enc;	/* what it may count on (pfm_perf_encode()) */
	bool enabled;			/* perf's state: not OFF */
	bool counting;			/* enabled and its leader too */
	bool exec_armed;		/* enable_on_exec not yet fired */
	u64 acc;			/* count of the closed intervals */
	u64 base[PFM_PERF_MAX_SETS];	/* counter value in each set when counting began */
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

	/* output (perf_output.c): ring, ring_entry under pfm_perf_output_mutex */
	struct pfm_perf_ring *ring;	/* its own mapping's, or SET_OUTPUT's; RCU */
	struct list_head ring_entry;	/* in ring->evs */
	atomic_t mmap_count;		/* its mappings */
	wait_queue_head_t wait;		/* poll()ers */

	/* signals and REFRESH (perf_async.c) */
	struct fasync_struct *fasync;	/* O_ASYNC's owner, F_SETSIG's signal */
	struct irq_work kill_work;	/* sends it from any context */
	int pending_kill;		/* its si_code: POLL_IN, POLL_HUP, or 0 */
	atomic_t event_limit;		/* REFRESH: overflows left, 0 for no limit */
	bool limit_hit;			/* the last one came: disabled at once */
	int cpu;			/* -1, or the one CPU whose samples it takes */
	struct pfm_perf_period per;	/* sampling: the period counting now */
	struct pfm_perf_throttle thr;	/* max sample rate: no samples until the next tick */
};

/* ev has a counter row in set s (perf_sched.c): its group's set, or every set. */
static inline bool pfm_perf_in_set(const struct pfm_perf_event *ev, unsigned int s)
{
	return ev->all_sets ? s < ev->target->nr_sets : ev->set == s;
}

/* What reading an event gives: its count and time, its copies' included. */
struct pfm_perf_value {
	u64 count;
	u64 ena_ns;
	u64 run_ns;
};

/* perf_file.c: read_format's layout, for read() and PERF_SAMPLE_READ */
unsigned int pfm_perf_read_head(u64 rf, u64 first, u64 ena, u64 run, u64 *w);
unsigned int pfm_perf_read_tail(u64 rf, u64 id, u64 *w);

/* perf_open.c */
int pfm_perf_copy_attr(struct perf_event_attr __user *uattr, struct perf_event_attr *attr);
long pfm_perf_event_open(struct perf_event_attr __user *uattr, int pid, int cpu,
			 int group_fd, unsigned long flags);
/* the call's function in the core's entry table: before the door opens, after it closed */
int pfm_perf_open_init(void);
void pfm_perf_open_exit(void);

/* perf_target.c */
struct pfm_perf_target *pfm_perf_target_get(struct task_struct *task, int cpu);
void pfm_perf_target_put(struct pfm_perf_target *t);
unsigned int pfm_perf_targets_count(void);
unsigned int pfm_perf_events_count(void);
void pfm_perf_target_add(struct pfm_perf_event *ev);
void pfm_perf_target_del(struct pfm_perf_event *ev);
extern atomic_t pfm_perf_nr_inherit;
struct pfm_perf_target *pfm_perf_target_find_locked(struct task_struct *task);
extern raw_spinlock_t pfm_perf_targets_lock;
bool pfm_perf_target_claim(struct pfm_perf_target *t, unsigned long *queued);
void pfm_perf_target_queue(struct pfm_perf_target *t, unsigned long *queued,
			   struct callback_head *work, task_work_func_t fn);

/* perf_event.c: ctx->mutex held */
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

/* perf_sched.c: ctx->mutex held */
extern unsigned long pfm_perf_mux_interval_ms;
int pfm_perf_sched_place(struct pfm_perf_target *t, struct pfm_perf_event *ev,
			 struct pfm_perf_event *leader, const struct pfm_perf_enc *enc);
void pfm_perf_sched_leave(struct pfm_perf_event *ev);
int pfm_perf_sched_retry(struct pfm_perf_event *leader);
void pfm_perf_sched_orphan(struct pfm_perf_event *sib);
struct pfm_op_clock;
void pfm_perf_clock_op(struct pfm_perf_target *t, struct pfm_perf_clock *c,
		       struct pfm_op_clock *op);
void pfm_perf_clock_done(struct pfm_perf_target *t, struct pfm_perf_clock *c,
			 struct pfm_op_clock *op);

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

/* perf_sample.c */
extern unsigned long pfm_perf_max_sample_rate;
bool pfm_perf_sampling(const struct perf_event_attr *attr);
int pfm_perf_sample_check(const struct perf_event_attr *attr);
/* members of a group whose samples read it (the sample buffer's room) */
#define PFM_PERF_READ_GROUP_MAX	64
int pfm_perf_group_read_check(const struct pfm_perf_event *ev,
			      const struct pfm_perf_event *leader);
int pfm_perf_sample_setup(struct pfm_perf_event *ev, unsigned int s);
void pfm_perf_sample_teardown(struct pfm_perf_event *ev, unsigned int s);
int pfm_perf_sample_period(struct pfm_perf_event *ev, u64 value);
unsigned int pfm_perf_id_trailer(const struct pfm_perf_event *ev, u64 *w);
unsigned int pfm_perf_id_trailer_at(const struct pfm_perf_event *ev, u64 *w, u64 time);
void pfm_perf_throttle_record(struct pfm_perf_event *ev, u32 type);
void pfm_perf_sample_overflow(struct pfm_perf_event *ev, struct pfm_context *ctx,
			      struct pfm_event_set *set, unsigned int pmd);

/* ring.c: the layer's sampling format, and its rings' memory */
int pfm_perf_smpl_init(void);
void pfm_perf_smpl_exit(void);
extern unsigned long pfm_perf_mlock_kb;
struct pfm_perf_ring *pfm_perf_ring_alloc(const struct pfm_perf_event *ev,
					  unsigned long data_pages, bool writable);
void pfm_perf_ring_destroy(struct pfm_perf_ring *r);
void pfm_perf_ring_write(struct pfm_perf_event *ev, const u64 *rec, bool sample);
int pfm_perf_route(struct pfm_perf_event *ev, unsigned int s, bool on);
struct pfm_perf_ring *pfm_perf_out_ring(const struct pfm_perf_event *ev);
int pfm_perf_ring_pause(struct pfm_perf_event *ev, unsigned long arg);
void pfm_perf_route_each(struct pfm_context *ctx, void (*fn)(struct pfm_perf_event *, void *),
			 void *arg);

/* perf_callchain.c */
#define PFM_PERF_MAX_STACK	127	/* perf_event_max_stack's default */
int pfm_perf_callchain_check(const struct perf_event_attr *attr);
unsigned int pfm_perf_callchain(const struct pfm_perf_event *ev, u64 *w);

/* perf_task.c: a FORK, EXIT or COMM record's contents */
struct pfm_perf_task_rec {
	u32 type;
	u32 pid, ppid, tid, ptid;
	const char *comm;		/* COMM: the new name */
	bool exec;			/* COMM: the rename of an exec */
	u64 time;
};

void pfm_perf_task_record(struct pfm_perf_event *ev, const struct pfm_perf_task_rec *tr);
void pfm_perf_task_fork(struct task_struct *parent, struct task_struct *child);
void pfm_perf_task_exit(struct task_struct *task);
void pfm_perf_task_init(void);
void pfm_perf_task_exit_hooks(void);

/* perf_output.c */
void pfm_perf_output_init(struct pfm_perf_event *ev);
int pfm_perf_output_mmap(struct pfm_perf_event *ev, struct vm_area_struct *vma);
long pfm_perf_set_output(struct pfm_perf_event *ev, struct pfm_perf_event *out);
void pfm_perf_output_release(struct pfm_perf_event *ev);
struct pfm_perf_ring *pfm_perf_ring_get(const struct pfm_perf_event *ev);
void pfm_perf_ring_put(struct pfm_perf_ring *r);
__poll_t pfm_perf_ring_poll(struct pfm_perf_event *ev, struct file *file, poll_table *wait);
void pfm_perf_update_page(struct pfm_perf_event *ev, const struct pfm_perf_value *v);

/* perf_async.c */
void pfm_perf_async_init(struct pfm_perf_event *ev);
void pfm_perf_async_release(struct pfm_perf_event *ev);
int pfm_perf_fasync(int fd, struct file *file, int on);
int pfm_perf_refresh(struct pfm_perf_event *ev, int refresh);
int pfm_perf_async_overflow(struct pfm_perf_event *ev);
void pfm_perf_async_signal(struct pfm_perf_event *ev, int kill);

/* perf_sideband.c */
void pfm_perf_sb_sample(struct pfm_perf_event *ev, u64 ip, u64 time);
void pfm_perf_sb_exec(struct pfm_perf_target *t);

#endif
