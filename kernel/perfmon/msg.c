// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the message queue of a context.
 */
#include <linux/pid.h>

#include "internal.h"

/*
 * Queues msg; false when the queue is full.  Called with ctx->lock held: the caller
 * wakes readers up once it has dropped the lock (see internal.h on locking).
 */
static bool pfm_msg_queue_locked(struct pfm_context *ctx, const union pfarg_msg *msg)
{
	if (ctx->msgq_count == PFM_MSGS_COUNT)
		return false;
	ctx->msgq[(ctx->msgq_head + ctx->msgq_count) % PFM_MSGS_COUNT] = *msg;
	ctx->msgq_count++;
	return true;
}

/* The monitored thread exited: tell whoever reads the context. */
void pfm_msg_end(struct pfm_context *ctx, struct task_struct *task)
{
	union pfarg_msg msg = {};
	unsigned long flags;
	bool queued;

	msg.pfm_end_msg.msg_type = PFM_MSG_END;
	msg.pfm_end_msg.msg_end_pid = task_tgid_vnr(task);
	msg.pfm_end_msg.msg_end_tid = task_pid_vnr(task);
	raw_spin_lock_irqsave(&ctx->lock, flags);
	queued = pfm_msg_queue_locked(ctx, &msg);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	if (queued)
		wake_up_interruptible(&ctx->msgq_wait);
}
