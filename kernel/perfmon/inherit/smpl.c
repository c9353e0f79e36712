// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: PFM_FL_INHERIT's samples.  An opened context with a sampling buffer
 * (the default format; perfmon_dfl_smpl.h) shares it with its inheritors: each
 * inheritor's sink (layer.h) writes its samples there, with its own thread's
 * pid and tid and its own PMD values, as perf_events' inherited events write
 * into their parent's ring.  Nobody is masked for a full buffer (an inheritor
 * has nobody to restart it): what does not fit is dropped and counted in the
 * header, and the opened context's reader gets one PFM_MSG_OVFL when it first
 * fills.  That message is queued from an irq_work: the sink runs under the
 * inheritor's ctx->lock, and the opened context's queue is under its own.
 *
 * A sampling PMD counts from its reset value and goes back to it at every
 * sample: its value is no count of the event, so the folds and reads of the
 * family leave an inheritor's out (a second PMD counts the event).
 */
#include "layer.h"
#include "inherit.h"

static void pfm_inh_sink_record(void *data, struct pfm_context *ctx,
				struct pfm_event_set *set, unsigned int pmd)
{
	struct pfm_inh_family *fam = data;
	union pfarg_msg msg = {};
	struct pfarg_ovfl_msg *m = &msg.pfm_ovfl_msg;
	unsigned long flags;

	if (!pfm_smpl_append(fam->ctx, ctx, set, pmd))
		return;
	/*
	 * The first fill since the reader's drain: one writer gets here, but the
	 * last fill's irq_work may still be copying its message on another CPU.
	 */
	m->msg_type = PFM_MSG_OVFL;
	m->msg_ovfl_pid = task_tgid_vnr(current);
	m->msg_ovfl_tid = task_pid_vnr(current);
	m->msg_active_set = set->id;
	m->msg_ovfl_cpu = smp_processor_id();
	m->msg_ovfl_ip = pfm_user_ip();
	m->msg_ovfl_pmds[pmd / 64] = 1ULL << (pmd % 64);
	raw_spin_lock_irqsave(&fam->full_lock, flags);
	fam->full_msg = msg;
	raw_spin_unlock_irqrestore(&fam->full_lock, flags);
	irq_work_queue(&fam->full_work);
}

const struct pfm_smpl_sink pfm_inh_sink = {
	.record = pfm_inh_sink_record,
};

static void pfm_inh_full_fn(struct irq_work *work)
{
	struct pfm_inh_family *fam = container_of(work, struct pfm_inh_family, full_work);
	union pfarg_msg msg;
	unsigned long flags;

	raw_spin_lock_irqsave(&fam->full_lock, flags);
	msg = fam->full_msg;
	raw_spin_unlock_irqrestore(&fam->full_lock, flags);
	pfm_msg_post(fam->ctx, &msg);
}

void pfm_inh_smpl_init(struct pfm_inh_family *fam)
{
	init_irq_work(&fam->full_work, pfm_inh_full_fn);
	raw_spin_lock_init(&fam->full_lock);
}

/* Every inheritor folded, its sink cleared: no message is to come. */
void pfm_inh_smpl_end(struct pfm_inh_family *fam)
{
	irq_work_sync(&fam->full_work);
}

/* An inheritor's sampling PMD, which the family's sums leave out; its mutex held. */
bool pfm_inh_samples(struct pfm_context *ctx, u16 set_id, unsigned int num)
{
	struct pfm_event_set *set = pfm_find_set(ctx, set_id);

	return set && pfm_set_uses_pmd(set, num) &&
	       (pfm_set_pmd(set, num)->flags & PFM_PMDFL_SMPL);
}

/*
 * The inheritor's copy of the opened context's sampling PMD p (number i of set):
 * its samples, resets and random mask, from its short reset on, without
 * notification (nobody would restart it).
 */
void pfm_inh_smpl_pmd(struct pfm_event_set *set, unsigned int i, struct pfarg_pmd *req)
{
	const struct pfm_pmd *p = pfm_set_pmd(set, i);
	const struct pfm_pmd_opts *o;

	if (!(p->flags & PFM_PMDFL_SMPL))
		return;
	req->reg_flags = p->flags & (PFM_PMDFL_SMPL | PFM_PMDFL_RANDOM);
	req->reg_long_reset = p->long_reset;
	req->reg_short_reset = p->short_reset;
	req->reg_value = p->short_reset;
	if (!set->opts)
		return;
	o = pfm_set_opts(set, i);
	memcpy(req->reg_reset_pmds, o->reset_pmds, sizeof(req->reg_reset_pmds));
	memcpy(req->reg_smpl_pmds, o->smpl_pmds, sizeof(req->reg_smpl_pmds));
	req->reg_random_mask = o->random_mask;
	req->reg_smpl_eventid = o->smpl_eventid;
}
