// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: enable_on_exec and inherit for the perf_event_open layer.
 *
 * enable_on_exec: the exec of a thread with such an event (thread.c's exec
 * probe calls pfm_perf_exec()) queues a task_work item on it, which enables the events before the new image's first
 * instruction; it also removes the remove_on_exec events (sigtrap.c).
 *
 * inherit: the fork tracepoint of a thread whose target has inherit events queues
 * a task_work item on the child, which runs before the child's first user
 * instruction: it gives the child a target of its own (its own perfmon context,
 * attached to itself) with a copy of each inherit event, grouped and enabled as
 * the originals (an inherit_thread event only into the parent's threads).
 * Copies of copies are copies of the opened event.  Reading an
 * opened event adds its copies' counts and times (perf_events does the same).
 * When a copy's thread exits (thread.c's exit probe calls pfm_perf_exit()), a
 * task_work item of the exit folds the copy into its opened event and frees it,
 * with its target; a read that comes first folds it itself.  Enable, disable and reset reach the
 * copies too.
 *
 * pfm_perf_family_mutex protects the copies lists; it is taken before any
 * context's mutex, and copies' contexts are locked one at a time under it.
 */
#include <linux/task_work.h>
#include <linux/tracepoint.h>

#include "layer.h"
#include "event.h"
#include "file.h"
#include "inherit.h"
#include "perf.h"
#include "sideband.h"

DEFINE_MUTEX(pfm_perf_family_mutex);

/* Targets armed for an exec: the exec probe's fast exit. */
static atomic_t pfm_perf_exec_armed = ATOMIC_INIT(0);

/* ---- enable_on_exec --------------------------------------------------------- */

static int pfm_perf_copy_fold(struct pfm_perf_event *copy);

/* t's first inherited copy with remove_on_exec, or NULL; ctx->mutex held. */
static struct pfm_perf_event *pfm_perf_exec_copy(struct pfm_perf_target *t)
{
	struct pfm_perf_event *ev;

	list_for_each_entry(ev, &t->events, entry)
		if (ev->parent && ev->attr.remove_on_exec)
			return ev;
	return NULL;
}

/*
 * remove_on_exec (sigtrap.c): the copies are folded into their opened events
 * and freed, the opened events stop for good.  Family lock held.
 */
static void pfm_perf_exec_remove(struct pfm_perf_target *t)
{
	struct pfm_perf_event *ev;

	for (;;) {
		mutex_lock(pfm_ctx_mutex(t->ctx));
		ev = pfm_perf_exec_copy(t);
		mutex_unlock(pfm_ctx_mutex(t->ctx));
		if (!ev || pfm_perf_copy_fold(ev))
			break;
	}
	mutex_lock(pfm_ctx_mutex(t->ctx));
	list_for_each_entry(ev, &t->events, entry) {
		if (!ev->attr.remove_on_exec || ev->removed)
			continue;
		pfm_perf_event_mark(ev, false);
		ev->removed = true;
	}
	pfm_perf_target_sync(t);
	mutex_unlock(pfm_ctx_mutex(t->ctx));
}

static void pfm_perf_exec_work(struct callback_head *head)
{
	struct pfm_perf_target *t = container_of(head, struct pfm_perf_target, exec_work);
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_perf_targets_lock, flags);
	t->exec_queued = false;
	raw_spin_unlock_irqrestore(&pfm_perf_targets_lock, flags);
	mutex_lock(&pfm_perf_family_mutex);
	pfm_perf_exec_remove(t);
	mutex_lock(pfm_ctx_mutex(t->ctx));
	pfm_perf_target_exec(t);
	pfm_perf_sb_exec(t);	/* COMM and the new image's mappings */
	pfm_perf_exec_disarm(t);
	mutex_unlock(pfm_ctx_mutex(t->ctx));
	mutex_unlock(&pfm_perf_family_mutex);
	pfm_perf_target_put(t);
}

/* An event of t waits for t's thread to exec; ctx->mutex held. */
void pfm_perf_exec_arm(struct pfm_perf_target *t)
{
	if (t->exec_armed)
		return;
	WRITE_ONCE(t->exec_armed, true);
	atomic_inc(&pfm_perf_exec_armed);
}

/* Fired, or the target goes: ctx->mutex held, or the last reference. */
void pfm_perf_exec_disarm(struct pfm_perf_target *t)
{
	if (!t->exec_armed)
		return;
	WRITE_ONCE(t->exec_armed, false);
	atomic_dec(&pfm_perf_exec_armed);
}

/* task has exec'd, before its first instruction (thread.c's exec probe). */
void pfm_perf_exec(struct task_struct *task)
{
	struct pfm_perf_target *t;
	unsigned long flags;

	if (!atomic_read(&pfm_perf_exec_armed))
		return;
	raw_spin_lock_irqsave(&pfm_perf_targets_lock, flags);
	t = pfm_perf_target_find_locked(task, -1);
	if (t && READ_ONCE(t->exec_armed) && !t->exec_queued &&
	    refcount_inc_not_zero(&t->ref)) {
		init_task_work(&t->exec_work, pfm_perf_exec_work);
		if (task_work_add(task, &t->exec_work, TWA_RESUME))
			refcount_dec(&t->ref);	/* its events hold theirs */
		else
			t->exec_queued = true;
	}
	raw_spin_unlock_irqrestore(&pfm_perf_targets_lock, flags);
}

/* ---- inherit ---------------------------------------------------------------- */

struct pfm_perf_fork {
	struct callback_head work;
	struct pfm_perf_target *parent;
	struct task_struct *child;
	struct list_head entry;		/* in pfm_perf_forks */
};

/*
 * Children whose copies are still to be made, for their switch records
 * (task.c): pfm_perf_targets_lock.
 */
static LIST_HEAD(pfm_perf_forks);
static atomic_t pfm_perf_nr_forks = ATOMIC_INIT(0);

bool pfm_perf_forks_pending(void)
{
	return atomic_read(&pfm_perf_nr_forks);
}

/* The target whose inherit events task's copies will be of, or NULL; locked. */
struct pfm_perf_target *pfm_perf_fork_parent_locked(struct task_struct *task)
{
	struct pfm_perf_fork *f;

	lockdep_assert_held(&pfm_perf_targets_lock);
	list_for_each_entry(f, &pfm_perf_forks, entry)
		if (f->child == task)
			return f->parent;
	return NULL;
}

/*
 * Takes back the copies on list (child_entry) that pfm_perf_copy_events()
 * attached, the last first (members before their leaders); child's ctx->mutex
 * held.
 */
static void pfm_perf_copies_undo(struct pfm_perf_target *child, struct list_head *list)
{
	struct pfm_perf_event *copy, *c;
	unsigned int s;

	list_for_each_entry_safe_reverse(copy, c, list, child_entry) {
		list_del_init(&copy->child_entry);
		pfm_perf_event_unlink(copy);
		pfm_perf_event_dealloc(copy);
		pfm_perf_target_put(child);	/* not the last: the caller's */
	}
	/* their counters went quiescent as they left */
	for (s = 0; s < child->nr_sets; s++)
		child->sets[s]->unwritten = 0;
}

/*
 * Copies the inherit events of parent onto child, in parent's order (a leader
 * comes before its members), and links each copy to its opened event.  The
 * copies are attached first and child's counters put in line with them at
 * once: one sync programs and starts them all.  A child whose counters cannot
 * be programmed gets none.  Family lock held; the two contexts are locked in
 * turn.
 */
static void pfm_perf_copy_events(struct pfm_perf_target *parent,
				 struct pfm_perf_target *child)
{
	struct pfm_perf_event *ev, *copy, *leader, *c;
	LIST_HEAD(copies);
	LIST_HEAD(attached);

	/* Snapshot: the opened events cannot go while the family lock is held. */
	mutex_lock(pfm_ctx_mutex(parent->ctx));
	list_for_each_entry(ev, &parent->events, entry) {
		/* inherit_thread: only into threads of the parent's process (CLONE_THREAD) */
		if (!ev->attr.inherit ||
		    (ev->attr.inherit_thread && !same_thread_group(current, parent->task)))
			continue;
		copy = pfm_perf_event_alloc(&ev->attr);
		if (!copy)
			break;
		copy->parent = ev->parent ?: ev;
		copy->enabled = ev->enabled;
		copy->cpu = ev->cpu;
		copy->exec_armed = ev->exec_armed;
		/* its leader's copy, made before it; found below */
		copy->leader = ev->leader == ev ? copy : (void *)ev->leader;
		copy->id = ev->id;	/* perf reports the opened event's id */
		list_add_tail(&copy->child_entry, &copies);
	}
	mutex_unlock(pfm_ctx_mutex(parent->ctx));

	mutex_lock(pfm_ctx_mutex(child->ctx));
	child->copying = true;
	list_for_each_entry_safe(copy, c, &copies, child_entry) {
		leader = NULL;
		if (copy->leader != copy) {
			/* the copy whose parent is the member's leader's opened event */
			ev = copy->leader;
			list_for_each_entry(leader, &child->events, entry)
				if (leader->parent == (ev->parent ?: ev))
					break;
			if (&leader->entry == &child->events)
				leader = NULL;
			copy->leader = copy;
		}
		list_del_init(&copy->child_entry);
		copy->target = child;
		refcount_inc(&child->ref);
		if (pfm_perf_event_attach(copy, leader)) {
			pfm_perf_target_put(child);	/* not the last: the caller's */
			pfm_perf_event_dealloc(copy);
			continue;
		}
		pfm_perf_event_mark(copy, copy->enabled);
		list_add_tail(&copy->child_entry, &attached);
	}
	child->copying = false;
	if (pfm_perf_target_sync(child)) {
		pfm_perf_copies_undo(child, &attached);
	} else {
		list_for_each_entry_safe(copy, c, &attached, child_entry)
			list_move_tail(&copy->child_entry, &copy->parent->children);
	}
	mutex_unlock(pfm_ctx_mutex(child->ctx));
}

static void pfm_perf_fork_work(struct callback_head *head)
{
	struct pfm_perf_fork *f = container_of(head, struct pfm_perf_fork, work);
	struct pfm_perf_target *parent = f->parent, *child;
	unsigned long flags;

	mutex_lock(&pfm_perf_family_mutex);
	/* The events may have been closed since the fork: nothing to copy then. */
	child = atomic_read(&parent->nr_inherit) ? pfm_perf_target_get(current, -1) : NULL;
	if (!IS_ERR_OR_NULL(child)) {
		pfm_perf_copy_events(parent, child);
		pfm_perf_target_put(child);
	}
	/* the copies write the child's switches from now on */
	raw_spin_lock_irqsave(&pfm_perf_targets_lock, flags);
	list_del(&f->entry);
	atomic_dec(&pfm_perf_nr_forks);
	raw_spin_unlock_irqrestore(&pfm_perf_targets_lock, flags);
	mutex_unlock(&pfm_perf_family_mutex);
	kfree(f);
	pfm_perf_target_put(parent);
}

/*
 * In the parent, the child not yet running: atomic context.  A child that cannot
 * be given its copies (no memory) is not counted.
 */
static void pfm_perf_probe_fork(void *data, struct task_struct *parent,
				struct task_struct *child)
{
	struct pfm_perf_target *t;
	struct pfm_perf_fork *f;
	unsigned long flags;

	if (child->flags & PF_KTHREAD)
		return;
	pfm_perf_task_fork(parent, child);	/* PERF_RECORD_FORK */
	if (!atomic_read(&pfm_perf_nr_inherit))
		return;
	f = kmalloc(sizeof(*f), GFP_ATOMIC);
	if (!f)
		return;
	raw_spin_lock_irqsave(&pfm_perf_targets_lock, flags);
	t = pfm_perf_target_find_locked(parent, -1);
	/* a target whose last reference is going is no longer anyone's */
	if (t && atomic_read(&t->nr_inherit) && refcount_inc_not_zero(&t->ref)) {
		f->parent = t;
		f->child = child;
		init_task_work(&f->work, pfm_perf_fork_work);
		/* A child that has not run cannot be past its exit: this succeeds. */
		if (!task_work_add(child, &f->work, TWA_RESUME)) {
			list_add(&f->entry, &pfm_perf_forks);
			atomic_inc(&pfm_perf_nr_forks);
			f = NULL;
		} else {
			refcount_dec(&t->ref);	/* the events hold theirs */
		}
	}
	raw_spin_unlock_irqrestore(&pfm_perf_targets_lock, flags);
	kfree(f);
}

/* ---- the copies of an opened event, family lock held ------------------------ */

/* Frees a copy: out of its target and of its opened event's list. */
static void pfm_perf_copy_free(struct pfm_perf_event *copy)
{
	struct pfm_perf_target *t = copy->target;

	list_del_init(&copy->child_entry);
	mutex_lock(pfm_ctx_mutex(t->ctx));
	pfm_perf_event_unlink(copy);
	mutex_unlock(pfm_ctx_mutex(t->ctx));
	pfm_perf_event_dealloc(copy);
	pfm_perf_target_put(t);
}

/* A copy whose thread has exited: its count and time go to its opened event. */
static int pfm_perf_copy_fold(struct pfm_perf_event *copy)
{
	struct pfm_context *ctx = copy->target->ctx;
	struct pfm_perf_value cv;
	int ret;

	mutex_lock(pfm_ctx_mutex(ctx));
	ret = pfm_perf_event_value(copy, &cv);
	mutex_unlock(pfm_ctx_mutex(ctx));
	if (ret)
		return ret;
	copy->parent->child_count += cv.count;
	copy->parent->child_ns += cv.ena_ns;
	copy->parent->child_run_ns += cv.run_ns;
	pfm_perf_copy_free(copy);
	return 0;
}

/*
 * Adds the copies' counts and times to v; a copy whose thread has exited (and
 * whose exit work has not folded it yet) is folded now.
 */
void pfm_perf_children_value(struct pfm_perf_event *ev, struct pfm_perf_value *v)
{
	struct pfm_perf_event *copy, *tmp;
	struct pfm_perf_value cv;
	struct pfm_context *ctx;
	int ret;

	lockdep_assert_held(&pfm_perf_family_mutex);
	list_for_each_entry_safe(copy, tmp, &ev->children, child_entry) {
		ctx = copy->target->ctx;
		mutex_lock(pfm_ctx_mutex(ctx));
		if (!pfm_ctx_is_loaded(ctx)) {
			mutex_unlock(pfm_ctx_mutex(ctx));
			pfm_perf_copy_fold(copy);
			continue;
		}
		ret = pfm_perf_event_value(copy, &cv);
		mutex_unlock(pfm_ctx_mutex(ctx));
		if (ret)
			continue;
		v->count += cv.count;
		v->ena_ns += cv.ena_ns;
		v->run_ns += cv.run_ns;
	}
	v->count += ev->child_count;
	v->ena_ns += ev->child_ns;
	v->run_ns += ev->child_run_ns;
}

/*
 * The thread of t has exited: its copies are folded into their opened events
 * and freed, and the target with them, so that a program that forks many
 * children holds one context per live child, not per child ever forked.  All
 * in one hold of the context's lock, the last copy first: a member goes before
 * its leader, which then has no members to hand on (and sync) as it leaves.  A
 * copy whose count cannot be read stays, for a read of its opened event to fold
 * it or its close to drop it.  When every event of t is a copy, the context
 * goes with them: their counters are left as they are, not stopped one PMC
 * write at a time.
 */
static void pfm_perf_exit_fold(struct pfm_perf_target *t)
{
	struct pfm_perf_event *copy, *tmp;
	struct pfm_perf_value cv;
	bool all = true;

	mutex_lock(&pfm_perf_family_mutex);
	mutex_lock(pfm_ctx_mutex(t->ctx));
	list_for_each_entry(copy, &t->events, entry)
		all &= !!copy->parent;
	t->folding = all;
	list_for_each_entry_safe_reverse(copy, tmp, &t->events, entry) {
		if (!copy->parent || pfm_perf_event_value(copy, &cv))
			continue;
		copy->parent->child_count += cv.count;
		copy->parent->child_ns += cv.ena_ns;
		copy->parent->child_run_ns += cv.run_ns;
		list_del_init(&copy->child_entry);
		pfm_perf_event_unlink(copy);
		pfm_perf_event_dealloc(copy);
		pfm_perf_target_put(t);		/* not the last: this fold's */
	}
	t->folding = false;
	mutex_unlock(pfm_ctx_mutex(t->ctx));
	mutex_unlock(&pfm_perf_family_mutex);
	pfm_perf_target_put(t);
}

static void pfm_perf_exit_cb(struct callback_head *head)
{
	pfm_perf_exit_fold(container_of(head, struct pfm_perf_target, exit_cb));
}

static void pfm_perf_exit_work(struct work_struct *work)
{
	pfm_perf_exit_fold(container_of(work, struct pfm_perf_target, exit_work));
}

/* task exits, still attached (thread.c's exit probe): atomic context. */
void pfm_perf_exit(struct task_struct *task)
{
	struct pfm_perf_target *t;
	unsigned long flags;
	bool queue = false;

	pfm_perf_task_exit(task);		/* PERF_RECORD_EXIT */
	if (!atomic_read(&pfm_perf_nr_inherit))
		return;
	raw_spin_lock_irqsave(&pfm_perf_targets_lock, flags);
	t = pfm_perf_target_find_locked(task, -1);
	if (t && !t->exit_queued && atomic_read(&t->nr_inherit) &&
	    refcount_inc_not_zero(&t->ref)) {
		t->exit_queued = true;
		queue = true;
	}
	raw_spin_unlock_irqrestore(&pfm_perf_targets_lock, flags);
	if (!queue)
		return;
	/*
	 * The exit runs its task_work items after this probe, before the parent
	 * can reap the thread: the fold costs no worker's wake-up and switch, and
	 * a parent that waited reads the child's counts in its events', as in
	 * perf_events.  A task past its task_work (the probe's caller says when
	 * that can be) gets a worker, queued outside the lock: the overflow path
	 * takes the lock under a context's lock (sideband.c), which the scheduler
	 * takes under the runqueue lock, which the workqueue's pool lock leads to
	 * (lockdep).  The reference taken above keeps t.
	 */
	init_task_work(&t->exit_cb, pfm_perf_exit_cb);
	if (!task_work_add(task, &t->exit_cb, TWA_NONE))
		return;
	INIT_WORK(&t->exit_work, pfm_perf_exit_work);
	schedule_work(&t->exit_work);
}

/* fn on each copy of ev, then the copy's counters; family lock held. */
void pfm_perf_children_apply(struct pfm_perf_event *ev, pfm_perf_op fn, bool on)
{
	struct pfm_perf_event *copy;
	struct pfm_context *ctx;

	lockdep_assert_held(&pfm_perf_family_mutex);
	list_for_each_entry(copy, &ev->children, child_entry) {
		ctx = copy->target->ctx;
		mutex_lock(pfm_ctx_mutex(ctx));
		if (!fn(copy, on))
			pfm_perf_target_sync(copy->target);
		mutex_unlock(pfm_ctx_mutex(ctx));
	}
}

void pfm_perf_children_drop(struct pfm_perf_event *ev)
{
	struct pfm_perf_event *copy, *tmp;

	lockdep_assert_held(&pfm_perf_family_mutex);
	list_for_each_entry_safe(copy, tmp, &ev->children, child_entry)
		pfm_perf_copy_free(copy);
}

/* ---- the fork probe ----------------------------------------------------------- */

static struct tracepoint *pfm_perf_fork_tp;

int pfm_perf_inherit_init(void)
{
	int ret;

	pfm_perf_fork_tp = pfm_tracepoint("sched_process_fork");
	if (!pfm_perf_fork_tp)
		return -ENOENT;
	pfm_perf_task_init();	/* the rename hook beside the fork's */
	ret = tracepoint_probe_register(pfm_perf_fork_tp, pfm_perf_probe_fork, NULL);
	if (ret) {
		/* no probe may be left behind into a module whose load fails */
		pfm_perf_task_exit_hooks();
		tracepoint_synchronize_unregister();
	}
	return ret;
}

void pfm_perf_inherit_exit(void)
{
	pfm_perf_task_exit_hooks();
	tracepoint_probe_unregister(pfm_perf_fork_tp, pfm_perf_probe_fork, NULL);
	tracepoint_synchronize_unregister();
}
