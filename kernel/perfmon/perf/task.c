// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: PERF_RECORD_FORK, PERF_RECORD_EXIT, PERF_RECORD_COMM at a rename
 * and PERF_RECORD_SWITCH, for the events of the thread that forks, exits,
 * renames a thread or is switched; and the list of a target's events that ask
 * for side-band records, which every side-band record walks.
 *
 * As perf_events writes them (perf_iterate_sb() over the current thread's
 * context): to every event of the current thread that is enabled (perf's
 * state not OFF, not ERROR), on this CPU (or on every CPU), and asks for the
 * record, whether it samples or only counts (a DUMMY tracking event has no
 * counter at all), in the ring its output goes to (an inherited copy's: the
 * opened event's; an event without a ring has nowhere to write).  FORK and
 * EXIT: attr.task, comm, mmap, mmap2 or mmap_data; COMM: attr.comm; SWITCH:
 * attr.context_switch.  FORK is written in the parent at the fork, {pid,
 * ppid, tid, ptid} of the child and the parent; EXIT in the exiting thread,
 * before its context ends (so before poll() says POLLHUP), with its real
 * parent's pid as ppid and ptid, as 6.1 has it; COMM at prctl(PR_SET_NAME) or
 * a write of /proc/PID/comm, by the thread that renames, named after the
 * thread renamed (6.1's perf_event_comm() walks the current thread's events),
 * and at an exec (with the exec flag) for the events enabled then; SWITCH
 * out of a thread (PERF_RECORD_MISC_SWITCH_OUT, and SWITCH_OUT_PREEMPT when
 * the thread stays runnable) and into it, as 6.1's perf_event_switch().
 *
 * The hooks are tracepoints (sched_process_fork, sched_process_exit,
 * task_rename, sched_switch) in atomic context, where a target's event list
 * (ctx->mutex) cannot be walked: the events that ask for records are also on
 * the target's side-band list, changed under ctx->mutex and ctx->lock both,
 * and walked under ctx->lock.  A target is freed only after its context is
 * detached (target.c), which takes ctx->lock: under that lock, a context still
 * attached means its target is there.
 */
#include <linux/sched/clock.h>
#include <linux/tracepoint.h>

#include "layer.h"
#include "probes.h"
#include "event.h"
#include "inherit.h"
#include "perf.h"
#include "ring.h"
#include "sample.h"
#include "sideband.h"

/* Events that ask for mappings: the hooks' fast exit. */
atomic_t pfm_perf_nr_sb_mmap = ATOMIC_INIT(0);

static void pfm_perf_probe_switch(void *data, bool preempt, struct task_struct *prev,
				  struct task_struct *next, unsigned int prev_state);

static struct pfm_probe pfm_perf_switch_probe = {
	.name = "sched_switch", .func = pfm_perf_probe_switch,
};

/*
 * The sched_switch probe is on while some event asks for SWITCH records, and a
 * second after the last goes (probes.h), its users those events: a probe runs
 * at every context switch of the machine.  Without it no SWITCH is written.
 */
static struct pfm_probe_set pfm_perf_switch_probes = {
	.probes = &pfm_perf_switch_probe, .count = 1,
};

bool pfm_perf_sb_mmap_attr(const struct perf_event_attr *a)
{
	return a->mmap || a->mmap2 || a->mmap_data;
}

/* What makes 6.1 hand an event side-band records (the records written here). */
bool pfm_perf_sb_attr(const struct perf_event_attr *a)
{
	return a->task || a->comm || pfm_perf_sb_mmap_attr(a) || a->context_switch;
}

/* ev joins its target's side-band list, if it asks for records; ctx->mutex held. */
void pfm_perf_sb_add(struct pfm_perf_event *ev)
{
	struct pfm_context *ctx = ev->target->ctx;
	unsigned long flags;

	if (!pfm_perf_sb_attr(&ev->attr))
		return;
	raw_spin_lock_irqsave(pfm_ctx_lock(ctx), flags);
	list_add_tail(&ev->sb_entry, &ev->target->sb_events);
	raw_spin_unlock_irqrestore(pfm_ctx_lock(ctx), flags);
	/* the probe before the open returns; an event it could not have writes none */
	if (ev->attr.context_switch)
		pfm_probe_set_get(&pfm_perf_switch_probes);
	if (pfm_perf_sb_mmap_attr(&ev->attr))
		atomic_inc(&pfm_perf_nr_sb_mmap);
}

void pfm_perf_sb_del(struct pfm_perf_event *ev)
{
	struct pfm_context *ctx = ev->target->ctx;
	unsigned long flags;

	if (list_empty(&ev->sb_entry))
		return;
	raw_spin_lock_irqsave(pfm_ctx_lock(ctx), flags);
	list_del_init(&ev->sb_entry);
	raw_spin_unlock_irqrestore(pfm_ctx_lock(ctx), flags);
	if (ev->attr.context_switch)
		pfm_probe_set_put(&pfm_perf_switch_probes);
	if (pfm_perf_sb_mmap_attr(&ev->attr))
		atomic_dec(&pfm_perf_nr_sb_mmap);
}

/* perf_iterate_ctx()'s filter: enabled (not OFF, not ERROR), and on cpu or every CPU. */
bool pfm_perf_sb_on(const struct pfm_perf_event *ev, int cpu)
{
	return READ_ONCE(ev->enabled) && !READ_ONCE(ev->error) &&
	       (ev->cpu < 0 || ev->cpu == cpu);
}

/* fn on every event of t's side-band list; ctx->lock held, t's context attached. */
void pfm_perf_sb_each_locked(struct pfm_perf_target *t,
			     void (*fn)(struct pfm_perf_event *ev, void *arg), void *arg)
{
	struct pfm_perf_event *ev;

	list_for_each_entry(ev, &t->sb_events, sb_entry)
		fn(ev, arg);
}

/*
 * fn on task's target (cpu -1), or cpu's (task NULL), under its context's
 * lock, if it has one attached; any context.  A context reference, not the
 * target's: the last put of a target needs a mutex.
 */
static struct pfm_context *pfm_perf_sb_hold(struct pfm_perf_target *t)
{
	if (!t)
		return NULL;
	pfm_context_get(t->ctx);
	return t->ctx;
}

/* fn on t, held by ctx (pfm_perf_sb_hold()), if its context is attached. */
static void pfm_perf_sb_run(struct pfm_perf_target *t, struct pfm_context *ctx,
			    void (*fn)(struct pfm_perf_target *t, void *arg), void *arg)
{
	unsigned long flags;

	if (!ctx)
		return;
	/* the context's lock outside pfm_perf_targets_lock, as the overflow path */
	raw_spin_lock_irqsave(pfm_ctx_lock(ctx), flags);
	if (pfm_ctx_is_loaded(ctx))
		fn(t, arg);
	raw_spin_unlock_irqrestore(pfm_ctx_lock(ctx), flags);
	pfm_context_put(ctx);
}

void pfm_perf_sb_visit(struct task_struct *task, int cpu,
		       void (*fn)(struct pfm_perf_target *t, void *arg), void *arg)
{
	struct pfm_perf_target *t;
	struct pfm_context *ctx;
	unsigned long flags;

	if (!pfm_perf_targets_count())
		return;
	raw_spin_lock_irqsave(&pfm_perf_targets_lock, flags);
	t = pfm_perf_target_find_locked(task, cpu);
	ctx = pfm_perf_sb_hold(t);
	raw_spin_unlock_irqrestore(&pfm_perf_targets_lock, flags);
	pfm_perf_sb_run(t, ctx, fn, arg);
}

/*
 * fn on the target of task's parent, if task is a new child whose inherited
 * copies do not exist yet (inherit.c); false if it is no such child.
 */
static bool pfm_perf_sb_visit_fork(struct task_struct *task,
				   void (*fn)(struct pfm_perf_target *t, void *arg), void *arg)
{
	struct pfm_perf_target *t;
	struct pfm_context *ctx;
	unsigned long flags;

	if (!pfm_perf_forks_pending())
		return false;
	raw_spin_lock_irqsave(&pfm_perf_targets_lock, flags);
	t = pfm_perf_fork_parent_locked(task);
	ctx = pfm_perf_sb_hold(t);
	raw_spin_unlock_irqrestore(&pfm_perf_targets_lock, flags);
	pfm_perf_sb_run(t, ctx, fn, arg);
	return t != NULL;
}

/* tr into ev's ring, whether or not ev asked (interrupts off or ctx->mutex held). */
void pfm_perf_task_record(struct pfm_perf_event *ev, const struct pfm_perf_task_rec *tr)
{
	u64 w[1 + 1 + TASK_COMM_LEN / sizeof(u64) + 6];
	struct perf_event_header *h = (struct perf_event_header *)w;
	unsigned int n = 1;
	ssize_t len;

	switch (tr->type) {
	case PERF_RECORD_COMM:
		w[n++] = tr->pid | (u64)tr->tid << 32;
		memset(w + n, 0, TASK_COMM_LEN);
		len = strscpy((char *)(w + n), tr->comm, TASK_COMM_LEN);
		/* the name and its NUL, to 8 bytes, as perf_event_comm_event() */
		n += ALIGN((len < 0 ? TASK_COMM_LEN - 1 : len) + 1, sizeof(u64)) / sizeof(u64);
		break;
	case PERF_RECORD_SWITCH:	/* the header alone, for a thread's event */
		if (ev->target->task)
			break;
		/* a CPU event's: the thread switched to or from */
		w[n++] = tr->np_pid | (u64)tr->np_tid << 32;
		break;
	default:
		w[n++] = tr->pid | (u64)tr->ppid << 32;
		w[n++] = tr->tid | (u64)tr->ptid << 32;
		w[n++] = tr->time;
	}
	n += pfm_perf_id_trailer_task(ev, w + n, tr->time, tr->task ?: current);
	h->type = tr->type == PERF_RECORD_SWITCH && !ev->target->task ?
		  PERF_RECORD_SWITCH_CPU_WIDE : tr->type;
	/* as perf_events: attr.comm_exec only tells that the kernel knows the flag */
	h->misc = tr->misc;
	h->size = n * sizeof(u64);
	pfm_perf_ring_write(ev, w);
}

static bool pfm_perf_task_wants(const struct pfm_perf_event *ev, u32 type)
{
	const struct perf_event_attr *a = &ev->attr;

	if (!pfm_perf_sb_on(ev, smp_processor_id()))
		return false;
	switch (type) {
	case PERF_RECORD_COMM:
		return a->comm;
	case PERF_RECORD_SWITCH:
		return a->context_switch;
	}
	return a->task || a->comm || pfm_perf_sb_mmap_attr(a);
}

/* One record for ev, if it asks for it (ctx->lock held, interrupts off). */
static void pfm_perf_task_write(struct pfm_perf_event *ev, void *arg)
{
	const struct pfm_perf_task_rec *tr = arg;

	if (pfm_perf_task_wants(ev, tr->type))
		pfm_perf_task_record(ev, tr);
}

static void pfm_perf_task_each(struct pfm_perf_target *t, void *arg)
{
	pfm_perf_sb_each_locked(t, pfm_perf_task_write, arg);
}

/* An inherit event's record of a child that has no copy of it yet. */
static void pfm_perf_task_write_inherited(struct pfm_perf_event *ev, void *arg)
{
	if (ev->attr.inherit)
		pfm_perf_task_write(ev, arg);
}

static void pfm_perf_task_inherited(struct pfm_perf_target *t, void *arg)
{
	pfm_perf_sb_each_locked(t, pfm_perf_task_write_inherited, arg);
}

/*
 * The record to the events that ask for it of task's target and of the CPU's
 * where it happens, as perf_iterate_sb() writes to the task's and the CPU's
 * contexts; in a tracepoint's probe (preemption off: the CPU stays).
 */
static void pfm_perf_task_emit(struct task_struct *task, struct pfm_perf_task_rec *tr)
{
	tr->time = local_clock();
	pfm_perf_sb_visit(task, -1, pfm_perf_task_each, tr);
	pfm_perf_sb_visit(NULL, smp_processor_id(), pfm_perf_task_each, tr);
}

/* In the parent, at the fork (sched_process_fork). */
void pfm_perf_task_fork(struct task_struct *parent, struct task_struct *child)
{
	struct pfm_perf_task_rec tr = {
		.type = PERF_RECORD_FORK,
		.pid = task_tgid_vnr(child), .tid = task_pid_vnr(child),
		.ppid = task_tgid_vnr(parent), .ptid = task_pid_vnr(parent),
	};

	pfm_perf_task_emit(parent, &tr);
}

/* In the exiting thread, still attached (sched_process_exit). */
void pfm_perf_task_exit(struct task_struct *task)
{
	struct pfm_perf_task_rec tr = {
		.type = PERF_RECORD_EXIT,
		.pid = task_tgid_vnr(task), .tid = task_pid_vnr(task),
	};

	rcu_read_lock();
	tr.ppid = task_tgid_vnr(rcu_dereference(task->real_parent));
	rcu_read_unlock();
	tr.ptid = tr.ppid;
	pfm_perf_task_emit(task, &tr);
}

/*
 * task is switched out (in: false) or in, on this CPU, with the runqueue lock
 * held: PERF_RECORD_SWITCH to its thread's events, the trailer task's.  A
 * switch in is written before the thread runs, at the switch, with its
 * trailer.  The CPU's events get SWITCH_CPU_WIDE, with other's ids.
 */
void pfm_perf_task_switch(struct task_struct *task, struct task_struct *other, bool in,
			  bool preempt)
{
	/* in task's pid namespace: current may be a reaped thread (sample.c) */
	u64 np = pfm_perf_pid_tid(other, task);
	struct pfm_perf_task_rec tr = {
		.type = PERF_RECORD_SWITCH, .task = task,
		.misc = in ? 0 : PERF_RECORD_MISC_SWITCH_OUT |
				 (preempt ? PERF_RECORD_MISC_SWITCH_OUT_PREEMPT : 0),
		.np_pid = (u32)np, .np_tid = np >> 32,
	};

	tr.time = local_clock();
	/*
	 * 6.1 gives a child its copies in copy_process(), so its first switch
	 * in is written; here they come at its first return to user mode, and
	 * until then its switches go to what its copies will write into: its
	 * parent's inherit events that ask for them.
	 */
	if (!pfm_perf_sb_visit_fork(task, pfm_perf_task_inherited, &tr))
		pfm_perf_sb_visit(task, -1, pfm_perf_task_each, &tr);
	pfm_perf_sb_visit(NULL, smp_processor_id(), pfm_perf_task_each, &tr);
}

/*
 * sched_switch, before the switch: prev out, next in.  6.1 calls a switch out
 * preempted when the thread is still on its runqueue (it did not block),
 * which __schedule() has settled by now.
 */
static void pfm_perf_probe_switch(void *data, bool preempt, struct task_struct *prev,
				  struct task_struct *next, unsigned int prev_state)
{
	if (!pfm_probe_set_users(&pfm_perf_switch_probes))
		return;
	/*
	 * A thread past exit_notify() has no events in 6.1 (perf_event_exit_task()
	 * came before): its switches (a preemptible kernel may switch it out and
	 * in again) are nobody's, and its parent may have reaped its pid already.
	 */
	if (!READ_ONCE(prev->exit_state))
		pfm_perf_task_switch(prev, next, false, READ_ONCE(prev->on_rq));
	if (!READ_ONCE(next->exit_state))
		pfm_perf_task_switch(next, prev, true, false);
}

/*
 * task_rename: the name is not yet the task's.  6.1 writes the COMM to the
 * renaming thread's events (perf_event_comm() walks current's context), with
 * the renamed thread's pid and tid: a write of another thread's
 * /proc/PID/comm is the writer's record.  An exec renames too: events enabled
 * then get COMM with the exec flag (those that enable_on_exec enables get
 * theirs after, from sideband.c).
 */
static void pfm_perf_probe_rename(void *data, struct task_struct *task, const char *comm)
{
	struct pfm_perf_task_rec tr = {
		.type = PERF_RECORD_COMM,
		.pid = task_tgid_vnr(task), .tid = task_pid_vnr(task),
		.comm = comm, .misc = task->in_execve ? PERF_RECORD_MISC_COMM_EXEC : 0,
	};

	pfm_perf_task_emit(current, &tr);
}

static struct tracepoint *pfm_perf_rename_tp;

/* Hooked by name (a module cannot link to a tracepoint); without one, say so in the uapi header. */
static struct tracepoint *pfm_perf_task_hook(const char *name, void *probe)
{
	struct tracepoint *tp = pfm_tracepoint(name);

	if (tp && tracepoint_probe_register(tp, probe, NULL))
		tp = NULL;
	return tp;
}

/*
 * Without task_rename a rename writes no COMM, without sched_switch no SWITCH
 * is written, without the mmap kprobe mappings are reported at exec and after
 * samples only (the uapi header says so).
 */
void pfm_perf_task_init(void)
{
	pfm_perf_rename_tp = pfm_perf_task_hook("task_rename", pfm_perf_probe_rename);
	pfm_probe_set_init(&pfm_perf_switch_probes);
	pfm_perf_mmap_init();
}

void pfm_perf_task_exit_hooks(void)
{
	pfm_perf_mmap_exit();
	/* no event is left: a probe still lingering goes now */
	pfm_probe_set_exit(&pfm_perf_switch_probes);
	if (pfm_perf_rename_tp)
		tracepoint_probe_unregister(pfm_perf_rename_tp, pfm_perf_probe_rename, NULL);
}
