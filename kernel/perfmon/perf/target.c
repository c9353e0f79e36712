// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the perf_event_open layer's targets: one per monitored thread, shared by
 * every perf event opened on it, holding the thread's one perfmon context; and one
 * per monitored CPU (perf's pid -1, cpu N events), holding that CPU's one perfmon
 * CPU session (PFM_FL_SYSTEM_WIDE).
 *
 * A target is made by the first event opened on a thread: a context is created,
 * attached to the thread with pfm_load() (the core's access checks, its one
 * context per thread rule, its session rules) and started at once; the events
 * then switch their own counters on and off.  The last event to go detaches and
 * frees it.  When the thread exits the core detaches the context and its counts
 * stay readable; a target whose context is no longer attached is never handed to
 * a new event.
 *
 * A CPU target is the same on a CPU session: created, loaded on its CPU and
 * started by the first event opened on that CPU, with the core's rules for CPU
 * sessions (privilege, one per CPU).  Its software PMU bank (the CPU bank, beside
 * the one of the thread running there) then counts every thread's events on that
 * CPU, its task clock and its set durations advance with wall-clock time.  Thread
 * targets and CPU targets coexist as the core's sessions do: only their hardware
 * counters exclude each other (the core refuses the write of a hardware event's
 * PMC with EBUSY while sessions of the other kind hold the hardware).  If the CPU goes offline the
 * core detaches the session; the counts stay readable and the next event opened on
 * the CPU makes a new target.
 */
#include <linux/task_work.h>

#include "layer.h"
#include "event.h"
#include "inherit.h"
#include "perf.h"
#include "sideband.h"

static LIST_HEAD(pfm_perf_targets);
DEFINE_RAW_SPINLOCK(pfm_perf_targets_lock);	/* the list; the fork probe reads it */
static DEFINE_MUTEX(pfm_perf_targets_mutex);	/* a target's birth and death */
static atomic_t pfm_perf_nr_targets = ATOMIC_INIT(0);
static atomic_t pfm_perf_nr_events = ATOMIC_INIT(0);
atomic_t pfm_perf_nr_inherit = ATOMIC_INIT(0);

/* Targets alive: /sys/kernel/perfmon/perf_targets_count. */
unsigned int pfm_perf_targets_count(void)
{
	return atomic_read(&pfm_perf_nr_targets);
}

/* Events on targets, inherited copies included: perf_events_count. */
unsigned int pfm_perf_events_count(void)
{
	return atomic_read(&pfm_perf_nr_events);
}

/*
 * ev joins (or leaves) its target's events; ctx->mutex held.  The list changes
 * under ctx->lock too, so that the thread's own signal path (sigtrap.c) walks it
 * under that lock alone, without waiting for a mutex that a thread enabling or
 * disabling the events holds across its cross-CPU calls.
 */
void pfm_perf_target_add(struct pfm_perf_event *ev)
{
	struct pfm_context *ctx = ev->target->ctx;
	unsigned long flags;

	raw_spin_lock_irqsave(pfm_ctx_lock(ctx), flags);
	list_add_tail(&ev->entry, &ev->target->events);
	raw_spin_unlock_irqrestore(pfm_ctx_lock(ctx), flags);
	atomic_inc(&pfm_perf_nr_events);
	pfm_perf_sb_add(ev);
	if (!ev->attr.inherit)
		return;
	atomic_inc(&ev->target->nr_inherit);
	atomic_inc(&pfm_perf_nr_inherit);
}

void pfm_perf_target_del(struct pfm_perf_event *ev)
{
	struct pfm_context *ctx = ev->target->ctx;
	unsigned long flags;

	if (list_empty(&ev->entry))
		return;
	raw_spin_lock_irqsave(pfm_ctx_lock(ctx), flags);
	list_del_init(&ev->entry);
	raw_spin_unlock_irqrestore(pfm_ctx_lock(ctx), flags);
	atomic_dec(&pfm_perf_nr_events);
	pfm_perf_sb_del(ev);
	if (!ev->attr.inherit)
		return;
	atomic_dec(&ev->target->nr_inherit);
	atomic_dec(&pfm_perf_nr_inherit);
}

/* The live target of task, or of cpu when task is NULL; pfm_perf_targets_lock held. */
static struct pfm_perf_target *pfm_perf_target_lookup(struct task_struct *task, int cpu)
{
	struct pfm_perf_target *t;

	list_for_each_entry(t, &pfm_perf_targets, node)
		if (t->task == task && (task || t->cpu == cpu) &&
		    pfm_ctx_is_loaded(t->ctx))
			return t;
	return NULL;
}

/* The live target of a thread, or of cpu for NULL, with pfm_perf_targets_lock held. */
struct pfm_perf_target *pfm_perf_target_find_locked(struct task_struct *task, int cpu)
{
	return pfm_perf_target_lookup(task, cpu);
}

/*
 * The core's refusals, as perf_event_open(2) gives them: privilege is EACCES
 * (perf falls back on EACCES only), and a thread that already has a perfmon
 * context of its own (EEXIST) is EBUSY.  For a CPU event, a session the CPU
 * already has (someone's own pfm_create_context one: the core's only EBUSY for
 * a fresh context, which holds no hardware yet) is EACCES, so that perf falls
 * back to per-thread events as it does where CPU events are not allowed; a CPU
 * gone offline meanwhile is ENODEV, as 6.1 says of an offline CPU.
 */
static int pfm_perf_load_errno(int err, bool cpu)
{
	switch (err) {
	case -EPERM:
		return -EACCES;
	case -EEXIST:
		return -EBUSY;
	case -EBUSY:
		return cpu ? -EACCES : err;
	case -EINVAL:
		return cpu ? -ENODEV : err;
	}
	return err;
}

/* a set's row of counters is some 1800 bytes, which kmalloc would round up to 2048 */
PFM_DEFINE_CACHE(pfm_perf_row_cache, pfm_perf_set)
/* a target is some 300 bytes, one per monitored thread: kmalloc would make it 512 */
PFM_DEFINE_CACHE(pfm_perf_target_cache, pfm_perf_target)

/* A clean row for a set of a target (ctx->mutex), or NULL. */
struct pfm_perf_set *pfm_perf_set_row_alloc(void)
{
	return kmem_cache_zalloc(pfm_perf_row_cache, GFP_KERNEL);
}

static void pfm_perf_target_free(struct pfm_perf_target *t)
{
	unsigned int s;

	for (s = 0; s < PFM_PERF_MAX_SETS; s++)
		if (t->sets[s]) {
			kfree(t->sets[s]->wrapped);
			kmem_cache_free(pfm_perf_row_cache, t->sets[s]);
		}
	kfree(t->mq);
	kmem_cache_free(pfm_perf_target_cache, t);
}

static struct pfm_perf_target *pfm_perf_target_new(struct task_struct *task, int cpu)
{
	struct pfm_perf_target *t;
	struct pfm_context *ctx;
	long ret;

	t = kmem_cache_zalloc(pfm_perf_target_cache, GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	t->sets[0] = pfm_perf_set_row_alloc();
	if (!t->sets[0]) {
		ret = -ENOMEM;
		goto err_free;
	}
	ctx = pfm_context_alloc_unread(task ? 0 : PFM_FL_SYSTEM_WIDE);
	if (IS_ERR(ctx)) {
		ret = PTR_ERR(ctx);
		goto err_free;
	}
	mutex_lock(pfm_ctx_mutex(ctx));
	/* a thread's events of each type of CPU share it, each gated (cgroup.c) */
	if (task)
		pfm_ctx_every_type(ctx);
	ret = pfm_load(ctx, 0, task ? task_pid_vnr(task) : cpu);
	if (!ret) {
		ret = pfm_start(ctx, 0, 0);
		if (ret)
			pfm_unload(ctx, 0);
	}
	mutex_unlock(pfm_ctx_mutex(ctx));
	if (ret) {
		pfm_context_put(ctx);
		ret = pfm_perf_load_errno(ret, !task);
		goto err_free;
	}
	refcount_set(&t->ref, 1);
	INIT_LIST_HEAD(&t->events);
	INIT_LIST_HEAD(&t->gated);
	INIT_LIST_HEAD(&t->sb_events);
	if (task)
		get_task_struct(task);
	t->task = task;
	t->cpu = task ? -1 : cpu;
	t->ctx = ctx;
	return t;

err_free:
	pfm_perf_target_free(t);
	return ERR_PTR(ret);
}

/* task's target, or cpu's if task is NULL, made if none; a reference for the caller. */
struct pfm_perf_target *pfm_perf_target_get(struct task_struct *task, int cpu)
{
	struct pfm_perf_target *t;
	unsigned long flags;

	mutex_lock(&pfm_perf_targets_mutex);
	raw_spin_lock_irqsave(&pfm_perf_targets_lock, flags);
	t = pfm_perf_target_lookup(task, cpu);
	if (t)
		refcount_inc(&t->ref);
	raw_spin_unlock_irqrestore(&pfm_perf_targets_lock, flags);
	if (!t) {
		t = pfm_perf_target_new(task, cpu);
		if (!IS_ERR(t)) {
			raw_spin_lock_irqsave(&pfm_perf_targets_lock, flags);
			list_add(&t->node, &pfm_perf_targets);
			raw_spin_unlock_irqrestore(&pfm_perf_targets_lock, flags);
			atomic_inc(&pfm_perf_nr_targets);
		}
	}
	mutex_unlock(&pfm_perf_targets_mutex);
	return t;
}

/* Process context: the last reference detaches the context and frees it. */
void pfm_perf_target_put(struct pfm_perf_target *t)
{
	struct task_struct *task = t->task;
	struct pfm_context *ctx = t->ctx;
	unsigned long flags;

	if (!refcount_dec_and_mutex_lock(&t->ref, &pfm_perf_targets_mutex))
		return;
	raw_spin_lock_irqsave(&pfm_perf_targets_lock, flags);
	list_del(&t->node);
	raw_spin_unlock_irqrestore(&pfm_perf_targets_lock, flags);
	atomic_dec(&pfm_perf_nr_targets);
	mutex_unlock(&pfm_perf_targets_mutex);
	pfm_perf_exec_disarm(t);

	mutex_lock(pfm_ctx_mutex(ctx));
	if (pfm_ctx_is_loaded(ctx))
		pfm_unload(ctx, 0);
	mutex_unlock(pfm_ctx_mutex(ctx));
	/* detached: no overflow can reach the format's routes any more */
	pfm_smpl_release(pfm_ctx_smpl(ctx));
	/* before the context: its put may give back the module's last reference */
	pfm_perf_target_free(t);
	pfm_context_put(ctx);
	if (task)
		put_task_struct(task);
}

/*
 * Work for t's own thread to run before it returns to user mode (overflow
 * path): bit 0 of *queued is claimed first, so each work is queued once, and
 * only by that thread, which needs no lock against the overflow interrupt of
 * the same thread.  Claimed, the caller fills in what the work reads, then
 * queues it; the work clears the bit and drops the reference.
 */
bool pfm_perf_target_claim(struct pfm_perf_target *t, unsigned long *queued)
{
	if (t->task != current || test_and_set_bit(0, queued))
		return false;
	if (refcount_inc_not_zero(&t->ref))
		return true;
	clear_bit(0, queued);
	return false;
}

void pfm_perf_target_queue(struct pfm_perf_target *t, unsigned long *queued,
			   struct callback_head *work, task_work_func_t fn)
{
	init_task_work(work, fn);
	if (!task_work_add(current, work, TWA_RESUME))
		return;
	refcount_dec(&t->ref);		/* exiting: its events hold theirs */
	clear_bit(0, queued);
}
