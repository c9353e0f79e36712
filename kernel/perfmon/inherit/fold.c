// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: PFM_FL_INHERIT's folds.  When an inheritor's thread exits, its counts
 * are added into the opened context: each used PMD of each of its sets into the
 * opened context's PMD of the same set and number, 64-bit arithmetic, as a value
 * set in place (no overflow is taken for the sum).  The exit probe queues that on
 * the exiting thread itself as a task_work item, which the thread runs in its
 * exit once the core has detached its context and before its parent can reap it:
 * a parent that has waited for its child reads the child's counts in the sum.
 * The family's end folds the inheritors that are left in the same way.
 *
 * A sampling PMD is left out (smpl.c says why).
 *
 * The sets' live times are folded and read the same way (the setinfo op): an
 * inherit context's durations are its family's, as perf_events adds a child
 * event's enabled and running times into its parent's.
 *
 * A user's read of the opened context adds the live inheritors' current values
 * to its own and the folded ones (the flag's read op), which it reads again under
 * the opened context's mutex, as a fold takes it: each inheritor is in a read
 * once, folded or live, and a sum never goes down.
 */
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "layer.h"
#include "inherit.h"

/* A set's live time, added to the opened context's set of the same id. */
struct pfm_inh_time {
	u16 id;
	u64 ns;
};

struct pfm_inh_sum {
	struct pfarg_pmd *pmds;
	unsigned int n;
	struct pfm_inh_time *times;
	unsigned int ntimes;
};

/* Into the opened context where its state is: ctx->lock held. */
static void pfm_inh_add(struct pfm_context *ctx, void *arg)
{
	struct pfm_inh_sum *sum = arg;
	struct pfm_event_set *set;
	struct pfarg_pmd *p;
	unsigned int k;

	for (k = 0; k < sum->n; k++) {
		p = &sum->pmds[k];
		set = pfm_find_set(ctx, p->reg_set);
		/* a set or PMD the opened context no longer has is not counted */
		if (!set || !pfm_set_uses_pmd(set, p->reg_num))
			continue;
		pfm_pmd_set_value(ctx, set, p->reg_num,
				  pfm_pmd_value(ctx, set, p->reg_num) + p->reg_value);
	}
	for (k = 0; k < sum->ntimes; k++) {
		set = pfm_find_set(ctx, sum->times[k].id);
		if (set)
			pfm_set_add_duration(set, sum->times[k].ns);
	}
}

/*
 * The stopped inheritor's sets' live time, as perf_events adds a child event's
 * enabled and running times into its parent's: an inherit context's durations
 * are its family's, as its counts are.  Its mutex held.
 */
static int pfm_inh_times_read(struct pfm_context *ctx, struct pfm_inh_sum *sum)
{
	struct pfm_event_set *set;
	unsigned int n = 0;

	pfm_for_each_set(ctx, set)
		n++;
	sum->times = kcalloc(n, sizeof(*sum->times), GFP_KERNEL | __GFP_NOWARN);
	if (!sum->times)
		return -ENOMEM;
	pfm_for_each_set(ctx, set) {
		sum->times[sum->ntimes].id = set->id;
		sum->times[sum->ntimes].ns = set->duration_ns;
		sum->ntimes++;
	}
	return 0;
}

/* The inheritor's used PMDs, read; its mutex held. */
static int pfm_inh_sum_read(struct pfm_context *ctx, struct pfm_inh_sum *sum)
{
	struct pfm_event_set *set;
	unsigned int n = 0, i;

	pfm_for_each_set(ctx, set)
		n += bitmap_weight(set->used_pmds, set->used_bits);
	if (!n)
		return 0;
	sum->pmds = kcalloc(n, sizeof(*sum->pmds), GFP_KERNEL | __GFP_NOWARN);
	if (!sum->pmds)
		return -ENOMEM;
	pfm_for_each_set(ctx, set) {
		for_each_set_bit(i, set->used_pmds, set->used_bits) {
			if (pfm_inh_samples(ctx, set->id, i))
				continue;
			sum->pmds[sum->n].reg_num = i;
			sum->pmds[sum->n].reg_set = set->id;
			sum->n++;
		}
	}
	return sum->n ? pfm_read_pmds(ctx, sum->pmds, sum->n) : 0;
}

/*
 * No memory for the sums: the stopped inheritor's PMDs and set times go into the
 * opened context one at a time, from the stack.  A fold runs in the exit of the
 * inheritor's thread, which has nobody to tell of a failure: what it cannot
 * allocate it does without.  The inheritor's mutex held.
 */
static int pfm_inh_fold_each(struct pfm_context *opened, struct pfm_context *ctx)
{
	struct pfm_inh_time time;
	struct pfarg_pmd one;
	struct pfm_inh_sum sum = { .pmds = &one, .n = 1 };
	struct pfm_event_set *set;
	unsigned int i;
	int ret;

	pfm_for_each_set(ctx, set) {
		for_each_set_bit(i, set->used_pmds, set->used_bits) {
			if (pfm_inh_samples(ctx, set->id, i))
				continue;
			memset(&one, 0, sizeof(one));
			one.reg_num = i;
			one.reg_set = set->id;
			ret = pfm_read_pmds(ctx, &one, 1);
			if (ret)
				return ret;
			pfm_run_on_state(opened, pfm_inh_add, &sum);
		}
	}
	sum.n = 0;
	sum.times = &time;
	sum.ntimes = 1;
	pfm_for_each_set(ctx, set) {
		time.id = set->id;
		time.ns = set->duration_ns;
		pfm_run_on_state(opened, pfm_inh_add, &sum);
	}
	return 0;
}

/*
 * th's counts into the opened context, and th out of the family, detached and
 * freed; opened ctx->mutex held.  Only a read that fails for another reason than
 * memory loses th's counts; it is counted as a lost inheritor.
 */
void pfm_inh_fold(struct pfm_inh_family *fam, struct pfm_inh_thread *th)
{
	struct pfm_context *ctx = th->ctx;
	struct pfm_inh_sum sum = {};
	int ret;

	list_del(&th->entry);
	pfm_inh_unmap(th);
	mutex_lock_nested(pfm_ctx_mutex(ctx), SINGLE_DEPTH_NESTING);
	/* stopped first: what the sum holds is all it will count */
	if (pfm_ctx_is_loaded(ctx))
		pfm_unload(ctx, 0);
	/* no sample after this one: the buffer may go with the family */
	pfm_ctx_set_sink(ctx, NULL, NULL);
	ret = pfm_inh_sum_read(ctx, &sum) ?: pfm_inh_times_read(ctx, &sum);
	if (ret == -ENOMEM) {
		kfree(sum.pmds);
		kfree(sum.times);
		memset(&sum, 0, sizeof(sum));
		ret = pfm_inh_fold_each(fam->ctx, ctx);
	}
	mutex_unlock(pfm_ctx_mutex(ctx));
	if (ret)
		pfm_inh_lost();
	else if (sum.n || sum.ntimes)
		pfm_run_on_state(fam->ctx, pfm_inh_add, &sum);
	kfree(sum.pmds);
	kfree(sum.times);
	pfm_context_put(ctx);
	atomic_dec(&pfm_inh_nr_inheritors);
	put_task_struct(th->task);
	kfree(th);
}

/*
 * One inheritor's values of the requests in rd, added to them; its mutex held.
 * tmp has room for n, or is NULL (no memory): the requests one by one then.
 */
static void pfm_inh_read_live(struct pfm_context *ctx, struct pfm_pmd_read *rd,
			      struct pfm_pmd_read *tmp, unsigned int n)
{
	struct pfm_pmd_read one;
	unsigned int k;

	if (tmp) {
		for (k = 0; k < n; k++)
			tmp[k].h = rd[k].h;
		if (!pfm_read_pmd_vec(ctx, tmp, n)) {
			for (k = 0; k < n; k++)
				if (!pfm_inh_samples(ctx, rd[k].h.set_id, rd[k].h.num))
					rd[k].value += tmp[k].value;
			return;
		}
	}
	/* a set or PMD made after its fork fails the vector: the others one by one */
	for (k = 0; k < n; k++) {
		one.h = rd[k].h;
		if (!pfm_inh_samples(ctx, one.h.set_id, one.h.num) &&
		    !pfm_read_pmd_vec(ctx, &one, 1))
			rd[k].value += one.value;
	}
}

/*
 * The opened context's values of the requests in rd, in their place; its mutex
 * held.  tmp as pfm_inh_read_live()'s: without it, one by one.
 */
static void pfm_inh_read_own(struct pfm_context *opened, struct pfm_pmd_read *rd,
			     struct pfm_pmd_read *tmp, unsigned int n)
{
	struct pfm_pmd_read one;
	unsigned int k;

	if (tmp) {
		for (k = 0; k < n; k++)
			tmp[k].h = rd[k].h;
		if (pfm_read_pmd_vec(opened, tmp, n))
			return;
		for (k = 0; k < n; k++)
			rd[k].value = tmp[k].value;
		return;
	}
	for (k = 0; k < n; k++) {
		one.h = rd[k].h;
		if (!pfm_read_pmd_vec(opened, &one, 1))
			rd[k].value = one.value;
	}
}

/* The flag's read op (layer.h): the live inheritors' counts into rd. */
void pfm_inh_read(struct pfm_context *opened, struct pfm_pmd_read *rd, unsigned int n)
{
	struct pfm_inh_family *fam;
	struct pfm_inh_thread *th;
	struct pfm_pmd_read *tmp;

	tmp = kmalloc_array(n, sizeof(*tmp), GFP_KERNEL | __GFP_NOWARN);
	mutex_lock(pfm_ctx_mutex(opened));
	/*
	 * The opened context's own and folded counts again, under the mutex folds
	 * take: an inheritor folded after the core's read and before this one would
	 * be in neither, and the sum would go down for a read.
	 */
	pfm_inh_read_own(opened, rd, tmp, n);
	fam = pfm_inh_family_find(opened, false);
	if (!fam)
		goto out;
	list_for_each_entry(th, &fam->members, entry) {
		mutex_lock_nested(pfm_ctx_mutex(th->ctx), SINGLE_DEPTH_NESTING);
		pfm_inh_read_live(th->ctx, rd, tmp, n);
		mutex_unlock(pfm_ctx_mutex(th->ctx));
	}
out:
	mutex_unlock(pfm_ctx_mutex(opened));
	kfree(tmp);
}

/* The flag's setinfo op (layer.h): the live inheritors' set durations into req. */
void pfm_inh_setinfo(struct pfm_context *opened, struct pfarg_setinfo *req, unsigned int n)
{
	struct pfm_inh_family *fam;
	struct pfm_inh_thread *th;
	struct pfarg_setinfo one;
	unsigned int k;

	fam = pfm_inh_family_find(opened, false);
	if (!fam)
		return;
	list_for_each_entry(th, &fam->members, entry) {
		mutex_lock_nested(pfm_ctx_mutex(th->ctx), SINGLE_DEPTH_NESTING);
		for (k = 0; k < n; k++) {
			memset(&one, 0, sizeof(one));
			one.set_id = req[k].set_id;
			/* a set made after its fork is not the inheritor's */
			if (!pfm_getinfo_evtsets(th->ctx, &one, 1))
				req[k].set_act_duration += one.set_act_duration;
		}
		mutex_unlock(pfm_ctx_mutex(th->ctx));
	}
}

struct pfm_inh_exit {
	struct callback_head work;
	struct pfm_inh_family *fam;
};

/* In the exiting inheritor, after the core's exit probe detached its context. */
static void pfm_inh_exit_work(struct callback_head *head)
{
	struct pfm_inh_exit *e = container_of(head, struct pfm_inh_exit, work);
	struct pfm_inh_family *fam = e->fam;
	struct pfm_inh_thread *th, *found = NULL;

	kfree(e);
	mutex_lock(pfm_ctx_mutex(fam->ctx));
	/* the family's end may have folded it already */
	list_for_each_entry(th, &fam->members, entry) {
		if (th->task == current) {
			found = th;
			break;
		}
	}
	if (found)
		pfm_inh_fold(fam, found);
	mutex_unlock(pfm_ctx_mutex(fam->ctx));
	pfm_inh_family_put(fam);
}

/* task exits (the core's exit probe, layer.h): atomic context. */
void pfm_inh_exit(struct task_struct *task)
{
	struct pfm_inh_thread *th;
	struct pfm_inh_exit *e;
	unsigned long flags;

	if (!atomic_read(&pfm_inh_nr_threads))
		return;
	e = kmalloc(sizeof(*e), GFP_ATOMIC | __GFP_NOWARN);
	raw_spin_lock_irqsave(&pfm_inh_lock, flags);
	th = pfm_inh_lookup_locked(task);
	if (th && !th->ctx) {
		/* the opened thread: its inheritors live on until the family ends */
		pfm_inh_opened_exit_locked(th);
		raw_spin_unlock_irqrestore(&pfm_inh_lock, flags);
		put_task_struct(th->task);
		kfree(th);
		kfree(e);
		return;
	}
	if (th && e && refcount_inc_not_zero(&th->fam->ref)) {
		e->fam = th->fam;
		init_task_work(&e->work, pfm_inh_exit_work);
		/* the exit runs its task_work items after this probe */
		if (task_work_add(task, &e->work, TWA_NONE))
			refcount_dec(&th->fam->ref);	/* the opened one holds its own */
		else
			e = NULL;
	}
	raw_spin_unlock_irqrestore(&pfm_inh_lock, flags);
	/* not queued: the family's end folds it */
	kfree(e);
}
