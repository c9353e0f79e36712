// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the message queue of a context: queueing, waking its readers, and
 * taking messages off for read() and poll() on the context fd (file.c).
 *
 * Messages are queued where the event happens, often with ctx->lock held and
 * sometimes under the scheduler's runqueue lock (an overflow seen at a context
 * switch): nothing there may wake a task up.  So readers and SIGIO owners are woken
 * from an irq_work, which holds a reference on the context until it has run.
 */
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/pid.h>

#include "internal.h"
#include "sets.h"
#include "ctx.h"
#include "env.h"
#include "msg.h"

static void pfm_wake_fn(struct irq_work *work)
{
	struct pfm_context *ctx = container_of(work, struct pfm_context, wake_work);

	wake_up_interruptible(&ctx->msgq_wait);
	kill_fasync(&ctx->fasync, SIGIO, POLL_IN);
	pfm_context_put(ctx);
}

void pfm_msg_init(struct pfm_context *ctx)
{
	init_irq_work(&ctx->wake_work, pfm_wake_fn);
}

/* Any context, any lock held. */
static void pfm_wake_readers(struct pfm_context *ctx)
{
	pfm_context_get(ctx);
	/* Already queued: that one holds its own reference, and ours is not the last. */
	if (!irq_work_queue(&ctx->wake_work))
		pfm_context_put(ctx);
}

/*
 * Queues msg; false when the queue is full or the context has none.  Called with ctx->lock held: the caller
 * wakes readers up once it has dropped the lock (see internal.h on locking).
 */
static bool pfm_msg_queue_locked(struct pfm_context *ctx, const union pfarg_msg *msg)
{
	if (!ctx->msgq || ctx->msgq_count == PFM_MSGS_COUNT)
		return false;
	ctx->msgq[(ctx->msgq_head + ctx->msgq_count) % PFM_MSGS_COUNT] = *msg;
	ctx->msgq_count++;
	return true;
}

/* The attachment to task ended (PFM_END_*): tell whoever reads the context. */
void pfm_msg_end(struct pfm_context *ctx, struct task_struct *task, u32 reason)
{
	union pfarg_msg msg = {};
	unsigned long flags;
	bool queued;

	msg.pfm_end_msg.msg_type = PFM_MSG_END;
	msg.pfm_end_msg.msg_end_pid = task_tgid_vnr(task);
	msg.pfm_end_msg.msg_end_tid = task_pid_vnr(task);
	msg.pfm_end_msg.msg_end_reason = reason;
	raw_spin_lock_irqsave(&ctx->lock, flags);
	queued = pfm_msg_queue_locked(ctx, &msg);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	if (queued)
		pfm_wake_readers(ctx);
}

/*
 * PMDs ovfl overflowed and asked for notification; current is the thread that
 * caused it (per-thread sessions) or whatever ran on the CPU (CPU sessions).  A full
 * queue drops the message: the context is masked all the same, and the reader learns
 * of it from the counts.
 */
void pfm_msg_ovfl_locked(struct pfm_context *ctx, const unsigned long *ovfl)
{
	struct pfarg_ovfl_msg *m;
	union pfarg_msg msg = {};

	lockdep_assert_held(&ctx->lock);
	if (!(ctx->flags & PFM_FL_OVFL_NO_MSG)) {
		m = &msg.pfm_ovfl_msg;
		m->msg_type = PFM_MSG_OVFL;
		m->msg_ovfl_pid = task_tgid_vnr(current);
		m->msg_ovfl_tid = task_pid_vnr(current);
		m->msg_active_set = ctx->active->id;
		m->msg_ovfl_cpu = smp_processor_id();
		m->msg_ovfl_ip = pfm_user_ip();
		bitmap_to_arr64(m->msg_ovfl_pmds, ovfl, PFM_MAX_PMDS);
		pfm_msg_queue_locked(ctx, &msg);
	}
	pfm_wake_readers(ctx);
}

void pfm_msg_post(struct pfm_context *ctx, const union pfarg_msg *msg)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	if (!(ctx->flags & PFM_FL_OVFL_NO_MSG))
		pfm_msg_queue_locked(ctx, msg);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	pfm_wake_readers(ctx);
}

/* For poll() and a blocking read(): whether a message waits. */
bool pfm_msg_pending(struct pfm_context *ctx)
{
	return READ_ONCE(ctx->msgq_count);
}

/* Takes the oldest message off the queue into *msg; false if there is none. */
bool pfm_msg_pop(struct pfm_context *ctx, union pfarg_msg *msg)
{
	unsigned long flags;
	bool got = false;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	if (ctx->msgq_count) {
		*msg = ctx->msgq[ctx->msgq_head];
		ctx->msgq_head = (ctx->msgq_head + 1) % PFM_MSGS_COUNT;
		ctx->msgq_count--;
		got = true;
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return got;
}

/*
 * A message pop() took that read() could not copy out goes back at the head, so
 * that the failed read loses nothing.  A queue that filled up meanwhile drops it,
 * as it drops any message that comes when it is full.
 */
void pfm_msg_unpop(struct pfm_context *ctx, const union pfarg_msg *msg)
{
	unsigned long flags;
	bool back = false;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	if (ctx->msgq && ctx->msgq_count < PFM_MSGS_COUNT) {
		ctx->msgq_head = (ctx->msgq_head + PFM_MSGS_COUNT - 1) % PFM_MSGS_COUNT;
		ctx->msgq[ctx->msgq_head] = *msg;
		ctx->msgq_count++;
		back = true;
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	/* a reader that found the queue empty meanwhile waits for it */
	if (back)
		pfm_wake_readers(ctx);
}
