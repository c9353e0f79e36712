// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: PFM_FL_INHERIT's new threads.  The fork tracepoint of a thread in a
 * family queues a task_work item on the child, which runs before the child's
 * first user instruction: it creates the child's inheritor, a context with the
 * opened context's sets, PMCs and used PMDs (at 0, without flags or reset
 * values, but for the sampling PMDs: smpl.c), attaches it to the child itself, starts it if the family is started,
 * and puts the child in the map so that its own children inherit in turn.
 *
 * The inheritors of a started family start in its sets in turn (the k-th made
 * in the k-th set, in id order, round robin): a thread that lives less than a
 * set's timeout counts in its first set only, and if that were always the same
 * set, the family's time in it would be made of short threads and in the
 * others of long ones, which biases every scaled count of a workload whose
 * short threads differ from its long ones (a make: the compilers and the shell
 * scripts).
 *
 * A child that cannot have one (no memory, the user's context limit, a context
 * of its own already) is not counted, nor are its descendants: the fork itself
 * never fails for it, and inherit_lost_count says how often that happened.
 */
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>

#include "layer.h"
#include "inherit.h"

struct pfm_inh_fork {
	struct callback_head work;
	struct pfm_inh_family *fam;
};

/*
 * The opened context's sets, set 0 too: every context has one, but its flags and
 * timeout are the opened one's to give (without them an inheritor would never
 * switch away from it).  Both mutexes held.
 */
static long pfm_inh_copy_sets(struct pfm_context *from, struct pfm_context *to)
{
	struct pfarg_setdesc d;
	struct pfm_event_set *set;
	long ret;

	pfm_for_each_set(from, set) {
		memset(&d, 0, sizeof(d));
		d.set_id = set->id;
		d.set_flags = set->flags;
		d.set_timeout = set->timeout_ns;
		d.set_timeout_mask = set->timeout_mask;
		ret = pfm_create_evtsets(to, &d, 1);
		if (ret)
			return ret;
	}
	return 0;
}

/* A set's PMCs as written, then its used PMDs at 0; both mutexes held. */
static long pfm_inh_copy_set(struct pfm_event_set *set, struct pfm_context *to)
{
	unsigned int npmc = bitmap_weight(set->used_pmcs, set->used_bits);
	unsigned int npmd = bitmap_weight(set->used_pmds, set->used_bits);
	struct pfarg_pmc *pmc;
	struct pfarg_pmd *pmd;
	unsigned int n = 0, i;
	long ret;

	/* a fork's cost: room for the registers in use, not for the whole PMU */
	pmc = kcalloc(npmc, sizeof(*pmc), GFP_KERNEL);
	pmd = kcalloc(npmd, sizeof(*pmd), GFP_KERNEL);
	ret = -ENOMEM;
	if ((npmc && !pmc) || (npmd && !pmd))
		goto out;
	for_each_set_bit(i, set->used_pmcs, set->used_bits) {
		pmc[n].reg_num = i;
		pmc[n].reg_set = set->id;
		pmc[n].reg_value = *pfm_set_pmc(set, i);
		n++;
	}
	ret = npmc ? pfm_write_pmcs(to, pmc, npmc) : 0;
	if (ret)
		goto out;
	n = 0;
	for_each_set_bit(i, set->used_pmds, set->used_bits) {
		pmd[n].reg_num = i;
		pmd[n].reg_set = set->id;
		pfm_inh_smpl_pmd(set, i, &pmd[n]);
		n++;
	}
	ret = npmd ? pfm_write_pmds(to, pmd, npmd) : 0;
out:
	kfree(pmc);
	kfree(pmd);
	return ret;
}

static long pfm_inh_copy_regs(struct pfm_context *from, struct pfm_context *to)
{
	struct pfm_event_set *set;
	long ret;

	pfm_for_each_set(from, set) {
		ret = pfm_inh_copy_set(set, to);
		if (ret)
			return ret;
	}
	return 0;
}

/* The id of the set the family's next inheritor starts in (see above). */
static u16 pfm_inh_first_set(struct pfm_inh_family *fam, struct pfm_context *ctx)
{
	struct pfm_event_set *set;
	unsigned int n = 0, k;

	pfm_for_each_set(ctx, set)
		n++;
	k = n ? fam->made++ % n : 0;
	pfm_for_each_set(ctx, set)
		if (!k--)
			return set->id;
	return 0;
}

/* The current thread's inheritor, configured, attached and started as the family. */
static long pfm_inh_make(struct pfm_inh_family *fam, struct pfm_context *ctx)
{
	long ret;

	mutex_lock_nested(pfm_ctx_mutex(ctx), SINGLE_DEPTH_NESTING);
	/* before its sampling PMDs are written: they need somewhere to sample to */
	if (pfm_ctx_smpl(fam->ctx)->shared)
		pfm_ctx_set_sink(ctx, &pfm_inh_sink, fam);
	ret = pfm_inh_copy_sets(fam->ctx, ctx);
	if (!ret)
		ret = pfm_inh_copy_regs(fam->ctx, ctx);
	if (!ret)
		ret = pfm_load(ctx, 0, task_pid_vnr(current));
	if (!ret && fam->started) {
		ret = pfm_start(ctx, PFM_STARTFL_SET, pfm_inh_first_set(fam, ctx));
		if (ret)
			pfm_unload(ctx, 0);
	}
	mutex_unlock(pfm_ctx_mutex(ctx));
	return ret;
}

static void pfm_inh_fork_work(struct callback_head *head)
{
	struct pfm_inh_fork *f = container_of(head, struct pfm_inh_fork, work);
	struct pfm_inh_family *fam = f->fam;
	struct pfm_context *opened = fam->ctx, *ctx;
	struct pfm_inh_thread *th;

	kfree(f);
	mutex_lock(pfm_ctx_mutex(opened));
	/*
	 * Ended since the fork: nothing to count into.  Or the child is killed
	 * before its first instruction, and its exit runs this item: nothing to
	 * count, and nothing lost.
	 */
	if (fam->dead || (current->flags & PF_EXITING))
		goto out;
	th = kzalloc(sizeof(*th), GFP_KERNEL);
	ctx = th ? pfm_context_alloc_unread(0) : ERR_PTR(-ENOMEM);
	if (IS_ERR(ctx))
		goto err_th;
	if (pfm_inh_make(fam, ctx))
		goto err_ctx;
	get_task_struct(current);
	th->task = current;
	th->fam = fam;
	th->ctx = ctx;
	list_add_tail(&th->entry, &fam->members);
	atomic_inc(&pfm_inh_nr_inheritors);
	pfm_inh_map(th);
	goto out;

err_ctx:
	pfm_context_put(ctx);
err_th:
	kfree(th);
	pfm_inh_lost();
out:
	mutex_unlock(pfm_ctx_mutex(opened));
	pfm_inh_family_put(fam);
}

/* In the parent, the child not yet running: atomic context. */
static void pfm_inh_probe_fork(void *data, struct task_struct *parent,
			       struct task_struct *child)
{
	struct pfm_inh_thread *th;
	struct pfm_inh_fork *f;
	unsigned long flags;
	bool lost = false;

	if (!atomic_read(&pfm_inh_nr_threads) || (child->flags & PF_KTHREAD))
		return;
	f = kmalloc(sizeof(*f), GFP_ATOMIC);
	raw_spin_lock_irqsave(&pfm_inh_lock, flags);
	th = pfm_inh_lookup_locked(parent);
	if (th && !READ_ONCE(th->fam->dead)) {
		lost = !f || !refcount_inc_not_zero(&th->fam->ref);
		if (!lost) {
			f->fam = th->fam;
			init_task_work(&f->work, pfm_inh_fork_work);
			/* A child that has not run cannot be past its exit: this succeeds. */
			if (task_work_add(child, &f->work, TWA_RESUME)) {
				refcount_dec(&th->fam->ref);	/* the opened one holds its own */
				lost = true;
			} else {
				f = NULL;
			}
		}
	}
	raw_spin_unlock_irqrestore(&pfm_inh_lock, flags);
	kfree(f);
	if (lost)
		pfm_inh_lost();
}

static struct tracepoint *pfm_inh_fork_tp;

int pfm_inh_fork_init(void)
{
	pfm_inh_fork_tp = pfm_tracepoint("sched_process_fork");
	if (!pfm_inh_fork_tp)
		return -ENOENT;
	return tracepoint_probe_register(pfm_inh_fork_tp, pfm_inh_probe_fork, NULL);
}

void pfm_inh_fork_exit(void)
{
	tracepoint_probe_unregister(pfm_inh_fork_tp, pfm_inh_probe_fork, NULL);
	tracepoint_synchronize_unregister();
}
