// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: PERF_RECORD_FORK, PERF_RECORD_EXIT, and PERF_RECORD_COMM at a
 * rename, for the events of the thread that forks, exits or renames itself.
 *
 * As perf_events writes them (perf_event_task(), perf_event_comm()): to the
 * events of the current thread that are enabled, on this CPU (or on every
 * CPU), and to the CPU events of the CPU it runs on, that ask for side-band records (FORK and EXIT: attr.task, comm, mmap,
 * mmap2 or mmap_data; COMM: attr.comm), in the ring their output goes to (an
 * inherited copy's: the opened event's).  FORK is written in the parent at
 * the fork, {pid, ppid, tid, ptid} of the child and the parent; EXIT in the
 * exiting thread, before its context ends (so before poll() says POLLHUP),
 * with its real parent's pid as ppid and ptid, as 6.1 has it; COMM at
 * prctl(PR_SET_NAME) or a write of /proc/self/comm, and at an exec (with the
 * exec flag) for the events enabled then.
 *
 * The hooks are tracepoints (sched_process_fork, sched_process_exit,
 * task_rename) in atomic context, where a target's event list (ctx->mutex)
 * cannot be walked: the records go to the events the context's "perf_ring"
 * format routes overflows to (ring.c), under the context's lock, that is
 * to the sampling events.  A counting event asks for no record and gets none.
 */
#include <linux/sched/clock.h>
#include <linux/tracepoint.h>

#include "layer.h"
#include "event.h"
#include "perf.h"
#include "ring.h"
#include "sample.h"
#include "sideband.h"

static bool pfm_perf_task_wants(const struct pfm_perf_event *ev, u32 type)
{
	const struct perf_event_attr *a = &ev->attr;

	if (!READ_ONCE(ev->enabled) || (ev->cpu >= 0 && ev->cpu != smp_processor_id()))
		return false;
	if (type == PERF_RECORD_COMM)
		return a->comm;
	return a->task || a->comm || a->mmap || a->mmap2 || a->mmap_data;
}

/* tr into ev's ring, whether or not ev asked (interrupts off or ctx->mutex held). */
void pfm_perf_task_record(struct pfm_perf_event *ev, const struct pfm_perf_task_rec *tr)
{
	u64 w[1 + 3 + 6];
	struct perf_event_header *h = (struct perf_event_header *)w;
	unsigned int n = 1;

	w[n++] = tr->pid | (u64)tr->ppid << 32;
	if (tr->type == PERF_RECORD_COMM) {
		w[n - 1] = tr->pid | (u64)tr->tid << 32;
		memset(w + n, 0, TASK_COMM_LEN);
		strscpy((char *)(w + n), tr->comm, TASK_COMM_LEN);
		n += TASK_COMM_LEN / sizeof(u64);
	} else {
		w[n++] = tr->tid | (u64)tr->ptid << 32;
		w[n++] = tr->time;
	}
	n += pfm_perf_id_trailer_at(ev, w + n, tr->time);
	h->type = tr->type;
	/* as perf_events: attr.comm_exec only tells that the kernel knows the flag */
	h->misc = tr->exec ? PERF_RECORD_MISC_COMM_EXEC : 0;
	h->size = n * sizeof(u64);
	pfm_perf_ring_write(ev, w, false);
}

/* One record for ev, if it asks for it (ctx->lock held, interrupts off). */
static void pfm_perf_task_write(struct pfm_perf_event *ev, void *arg)
{
	const struct pfm_perf_task_rec *tr = arg;

	if (pfm_perf_task_wants(ev, tr->type))
		pfm_perf_task_record(ev, tr);
}

/*
 * The record to every routed event of task's target (cpu -1) or of cpu's; any
 * context.  A context reference, not the target's: the last put of a target
 * needs a mutex.
 */
static void pfm_perf_task_emit_to(struct task_struct *task, int cpu,
				  struct pfm_perf_task_rec *tr)
{
	struct pfm_perf_target *t;
	struct pfm_context *ctx = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_perf_targets_lock, flags);
	t = pfm_perf_target_find_locked(task, cpu);
	if (t) {
		ctx = t->ctx;
		pfm_context_get(ctx);
	}
	raw_spin_unlock_irqrestore(&pfm_perf_targets_lock, flags);
	if (!ctx)
		return;
	/* the context's lock outside pfm_perf_targets_lock, as the overflow path */
	pfm_perf_route_each(ctx, pfm_perf_task_write, tr);
	pfm_context_put(ctx);
}

/*
 * The record to the events of the thread it is about and to those of the CPU
 * it happens on, as perf_iterate_sb() writes to the task's and the CPU's
 * contexts.  task is the current thread, in a tracepoint's probe (preemption
 * off: the CPU stays).
 */
static void pfm_perf_task_emit(struct task_struct *task, struct pfm_perf_task_rec *tr)
{
	if (!pfm_perf_targets_count())
		return;
	tr->time = local_clock();
	pfm_perf_task_emit_to(task, -1, tr);
	pfm_perf_task_emit_to(NULL, smp_processor_id(), tr);
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
 * task_rename: the name is not yet the task's; the thread's own renames only.
 * An exec renames too: events enabled then get COMM with the exec flag (those
 * that enable_on_exec enables get theirs after, from sideband.c).
 */
static void pfm_perf_probe_rename(void *data, struct task_struct *task, const char *comm)
{
	struct pfm_perf_task_rec tr = {
		.type = PERF_RECORD_COMM,
		.pid = task_tgid_vnr(task), .tid = task_pid_vnr(task),
		.comm = comm, .exec = task->in_execve,
	};

	if (task == current)
		pfm_perf_task_emit(task, &tr);
}

static struct tracepoint *pfm_perf_rename_tp;

/* Without the tracepoint a rename writes no COMM (the uapi header says so). */
void pfm_perf_task_init(void)
{
	pfm_perf_rename_tp = pfm_tracepoint("task_rename");
	if (pfm_perf_rename_tp &&
	    tracepoint_probe_register(pfm_perf_rename_tp, pfm_perf_probe_rename, NULL))
		pfm_perf_rename_tp = NULL;
}

void pfm_perf_task_exit_hooks(void)
{
	if (pfm_perf_rename_tp)
		tracepoint_probe_unregister(pfm_perf_rename_tp, pfm_perf_probe_rename, NULL);
}
