// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: PFM_FL_INHERIT's families and the map of their threads, and the
 * flag's ops, which the core runs on an opened context (inherit.h).
 *
 * A family is made when its context is loaded and ends when it is unloaded or
 * closed: the inheritors are then folded into it, detached and freed at once.
 * The opened thread's exit ends only its own part: the inheritors go on, are
 * folded as they exit, and the family ends at the close.
 */
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "layer.h"
#include "inherit.h"

DEFINE_RAW_SPINLOCK(pfm_inh_lock);
static DEFINE_HASHTABLE(pfm_inh_threads, 7);
static LIST_HEAD(pfm_inh_families);
/* threads in the map: the probes' fast exit */
atomic_t pfm_inh_nr_threads = ATOMIC_INIT(0);

struct pfm_inh_thread *pfm_inh_lookup_locked(struct task_struct *task)
{
	struct pfm_inh_thread *th;

	lockdep_assert_held(&pfm_inh_lock);
	hash_for_each_possible(pfm_inh_threads, th, node, (unsigned long)task)
		if (th->task == task)
			return th;
	return NULL;
}

void pfm_inh_map(struct pfm_inh_thread *th)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_inh_lock, flags);
	hash_add(pfm_inh_threads, &th->node, (unsigned long)th->task);
	atomic_inc(&pfm_inh_nr_threads);
	raw_spin_unlock_irqrestore(&pfm_inh_lock, flags);
}

void pfm_inh_unmap(struct pfm_inh_thread *th)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_inh_lock, flags);
	hash_del(&th->node);
	atomic_dec(&pfm_inh_nr_threads);
	raw_spin_unlock_irqrestore(&pfm_inh_lock, flags);
}

void pfm_inh_family_put(struct pfm_inh_family *fam)
{
	if (!refcount_dec_and_test(&fam->ref))
		return;
	pfm_context_put(fam->ctx);
	kfree(fam);
}

/* ctx's live family, or NULL, taken out of the list if take; ctx->mutex held. */
struct pfm_inh_family *pfm_inh_family_find(struct pfm_context *ctx, bool take)
{
	struct pfm_inh_family *fam, *found = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_inh_lock, flags);
	list_for_each_entry(fam, &pfm_inh_families, node) {
		if (fam->ctx == ctx) {
			found = fam;
			if (take)
				list_del(&fam->node);
			break;
		}
	}
	raw_spin_unlock_irqrestore(&pfm_inh_lock, flags);
	return found;
}

/* The opened thread's entry out of the map, if still there; atomic context allowed. */
static void pfm_inh_opened_drop(struct pfm_inh_family *fam)
{
	struct pfm_inh_thread *th;
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_inh_lock, flags);
	th = fam->opened;
	fam->opened = NULL;
	if (th) {
		hash_del(&th->node);
		atomic_dec(&pfm_inh_nr_threads);
	}
	raw_spin_unlock_irqrestore(&pfm_inh_lock, flags);
	if (th) {
		put_task_struct(th->task);
		kfree(th);
	}
}

/*
 * The opened thread exits (fold.c's exit op), pfm_inh_lock held: its entry leaves
 * the map for the caller to free; its inheritors live on until the family ends.
 */
void pfm_inh_opened_exit_locked(struct pfm_inh_thread *th)
{
	lockdep_assert_held(&pfm_inh_lock);
	th->fam->opened = NULL;
	hash_del(&th->node);
	atomic_dec(&pfm_inh_nr_threads);
}

/*
 * The family ends (unload, close, a new load): every inheritor is folded into the
 * opened context, detached and freed now, whether its thread runs or sleeps.
 */
static void pfm_inh_family_end(struct pfm_context *ctx)
{
	struct pfm_inh_family *fam = pfm_inh_family_find(ctx, true);
	struct pfm_inh_thread *th, *tmp;

	if (!fam)
		return;
	fam->dead = true;
	pfm_inh_opened_drop(fam);
	list_for_each_entry_safe(th, tmp, &fam->members, entry)
		pfm_inh_fold(fam, th);
	pfm_inh_smpl_end(fam);
	pfm_inh_family_put(fam);
}

/* ---- the flag's ops, ctx->mutex held ------------------------------------------ */

/*
 * A family needs threads: not a CPU session.  No inheritor can hold its thread
 * (nobody may restart it), so blocking is refused rather than honoured for the
 * opened thread alone.  A sampling buffer is shared (smpl.c); the core refuses
 * the formats that cannot be.
 */
static int pfm_inh_check(u32 flags)
{
	if (flags & (PFM_FL_SYSTEM_WIDE | PFM_FL_NOTIFY_BLOCK))
		return -EINVAL;
	return 0;
}

static int pfm_inh_loaded(struct pfm_context *ctx)
{
	struct pfm_inh_family *fam;
	struct pfm_inh_thread *th;
	struct task_struct *task;
	unsigned long flags;

	pfm_inh_family_end(ctx);	/* a reload after the opened thread exited */
	/*
	 * The thread may have exited since the attach, which its exit undid: as
	 * for an exit after this, the context is left unloaded, with nothing to
	 * inherit.
	 */
	task = pfm_ctx_get_task(ctx);
	if (!task)
		return 0;
	fam = kzalloc(sizeof(*fam), GFP_KERNEL);
	th = kzalloc(sizeof(*th), GFP_KERNEL);
	if (!fam || !th) {
		kfree(fam);
		kfree(th);
		put_task_struct(task);
		return -ENOMEM;
	}
	refcount_set(&fam->ref, 1);
	INIT_LIST_HEAD(&fam->members);
	pfm_inh_smpl_init(fam);
	pfm_context_get(ctx);
	fam->ctx = ctx;
	th->fam = fam;
	th->task = task;
	INIT_LIST_HEAD(&th->entry);
	fam->opened = th;
	raw_spin_lock_irqsave(&pfm_inh_lock, flags);
	list_add(&fam->node, &pfm_inh_families);
	raw_spin_unlock_irqrestore(&pfm_inh_lock, flags);
	pfm_inh_map(th);
	return 0;
}

static void pfm_inh_start(struct pfm_context *ctx, u32 flags, u64 arg)
{
	struct pfm_inh_family *fam = pfm_inh_family_find(ctx, false);
	struct pfm_inh_thread *th;

	if (!fam)
		return;
	fam->started = true;
	list_for_each_entry(th, &fam->members, entry) {
		mutex_lock_nested(pfm_ctx_mutex(th->ctx), SINGLE_DEPTH_NESTING);
		/* a set the inheritor lacks (made after its fork) leaves it as it was */
		pfm_start(th->ctx, flags, arg);
		mutex_unlock(pfm_ctx_mutex(th->ctx));
	}
}

static void pfm_inh_stop(struct pfm_context *ctx)
{
	struct pfm_inh_family *fam = pfm_inh_family_find(ctx, false);
	struct pfm_inh_thread *th;

	if (!fam)
		return;
	fam->started = false;
	list_for_each_entry(th, &fam->members, entry) {
		mutex_lock_nested(pfm_ctx_mutex(th->ctx), SINGLE_DEPTH_NESTING);
		pfm_stop(th->ctx, 0);
		mutex_unlock(pfm_ctx_mutex(th->ctx));
	}
}

/*
 * A PMC write on the opened context reaches the live inheritors, as perf_events'
 * PERF_EVENT_IOC_MODIFY_ATTRIBUTES reaches an event's inherited copies: a family
 * counts one thing.  Their sets are the opened context's (sets change only while
 * it is unloaded, which ends the family), so what it took they take; one that
 * cannot (the hardware counters held elsewhere) keeps the PMCs it had.
 */
static void pfm_inh_pmcs(struct pfm_context *ctx, const struct pfarg_pmc *vec, unsigned int n)
{
	struct pfm_inh_family *fam = pfm_inh_family_find(ctx, false);
	struct pfarg_pmc *tmp, one;
	struct pfm_inh_thread *th;
	unsigned int k;

	if (!fam || list_empty(&fam->members))
		return;
	/* the core's writes take a vector they may write into: a copy each time */
	tmp = kmalloc_array(n, sizeof(*tmp), GFP_KERNEL | __GFP_NOWARN);
	list_for_each_entry(th, &fam->members, entry) {
		mutex_lock_nested(pfm_ctx_mutex(th->ctx), SINGLE_DEPTH_NESTING);
		if (tmp) {
			memcpy(tmp, vec, n * sizeof(*tmp));
			pfm_write_pmcs(th->ctx, tmp, n);
		} else {
			/* no memory for a copy: one request at a time, from the stack */
			for (k = 0; k < n; k++) {
				one = vec[k];
				pfm_write_pmcs(th->ctx, &one, 1);
			}
		}
		mutex_unlock(pfm_ctx_mutex(th->ctx));
	}
	kfree(tmp);
}

static const struct pfm_flag_ops pfm_inh_flag_ops = {
	.flag = PFM_FL_INHERIT,
	.check = pfm_inh_check,
	.loaded = pfm_inh_loaded,
	.unload = pfm_inh_family_end,
	.start = pfm_inh_start,
	.stop = pfm_inh_stop,
	.close = pfm_inh_family_end,
	.read = pfm_inh_read,
	.setinfo = pfm_inh_setinfo,
	.pmcs = pfm_inh_pmcs,
};

int pfm_inh_family_init(void)
{
	return pfm_flag_ops_register(&pfm_inh_flag_ops);
}

void pfm_inh_family_exit(void)
{
	pfm_flag_ops_unregister(&pfm_inh_flag_ops);
}
