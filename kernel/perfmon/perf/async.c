// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: signals at overflows and PERF_EVENT_IOC_REFRESH, as Linux 6.1 has
 * them, for self-monitoring programs (the "overflow signal" pattern, PAPI's
 * overflow handlers).
 *
 * O_ASYNC (fcntl F_SETFL, with F_SETOWN or F_SETOWN_EX and F_SETSIG, all the
 * kernel's own fcntl code) registers the file's owner here.  Then every
 * overflow of a sampling event sends the owner SIGIO, or F_SETSIG's signal with
 * si_code POLL_IN, si_fd the event's fd, as perf_events does: not only at the
 * ring's wakeups.  The signal goes from an irq_work, as the overflow path has
 * interrupts off and the context's lock; for a page fault or a clock tick of
 * the monitored thread it is pending before the thread returns to user mode.
 * An inherited copy's overflows signal the opened event's owner.
 *
 * REFRESH(n) (sampling events without inherit, else EINVAL) adds n to the
 * event's limit and enables it: each overflow takes one off, and the one that
 * takes it to 0 is still recorded, then the event is disabled and the signal's
 * si_code is POLL_HUP.  The disable needs the context's mutex, so the overflow
 * marks the event (no further sample is taken) and the monitored thread
 * disables it before it returns to user mode (task_work): a handler of the
 * signal finds it disabled, its count where the limit stopped it, and may
 * REFRESH again.
 */
#include <linux/fs.h>
#include <linux/task_work.h>

#include "layer.h"
#include "breakpoint.h"
#include "event.h"
#include "sample.h"

static void pfm_perf_kill(struct irq_work *w)
{
	struct pfm_perf_event *ev = container_of(w, struct pfm_perf_event, kill_work);
	int kill = xchg(&ev->pending_kill, 0);

	if (kill)
		kill_fasync(&ev->fasync, SIGIO, kill);
}

void pfm_perf_async_init(struct pfm_perf_event *ev)
{
	init_irq_work(&ev->kill_work, pfm_perf_kill);
	atomic_set(&ev->event_limit, 0);
}

/* The event is being freed: its copies and its routes are gone, no signal comes. */
void pfm_perf_async_release(struct pfm_perf_event *ev)
{
	irq_work_sync(&ev->kill_work);
}

int pfm_perf_fasync(int fd, struct file *file, int on)
{
	struct pfm_perf_event *ev = file->private_data;
	struct inode *inode = file_inode(file);
	int ret;

	/* the kernel's perf_fasync serialises on the inode too */
	inode_lock(inode);
	ret = fasync_helper(fd, file, on, &ev->fasync);
	inode_unlock(inode);
	return ret < 0 ? ret : 0;
}

/*
 * Queued by the thread's overflow at a REFRESH limit: the events marked are
 * disabled, under the context's mutex, before the thread returns to user mode.
 */
static void pfm_perf_async_work(struct callback_head *head)
{
	struct pfm_perf_target *t = container_of(head, struct pfm_perf_target, async_work);
	struct pfm_perf_event *ev;
	bool changed = false;

	clear_bit(0, &t->async_queued);
	mutex_lock(pfm_ctx_mutex(t->ctx));
	list_for_each_entry(ev, &t->events, entry) {
		if (!READ_ONCE(ev->limit_hit))
			continue;
		/* done: a later ENABLE samples again, without a limit */
		WRITE_ONCE(ev->limit_hit, false);
		changed |= ev->enabled;
		ev->enabled = false;
		pfm_perf_bp_arm(ev, false);
	}
	if (changed)
		pfm_perf_target_sync(t);
	mutex_unlock(pfm_ctx_mutex(t->ctx));
	pfm_perf_target_put(t);
}

/* The monitored thread disables ev before it returns to user mode. */
static void pfm_perf_async_disable(struct pfm_perf_event *ev)
{
	struct pfm_perf_target *t = ev->target;

	/* software events overflow in their thread; elsewhere only the mark holds */
	if (pfm_perf_target_claim(t, &t->async_queued))
		pfm_perf_target_queue(t, &t->async_queued, &t->async_work, pfm_perf_async_work);
}

/*
 * An overflow of ev that is recorded (overflow path, ctx->lock held): counts
 * REFRESH's limit down; the si_code its signal will carry.
 */
int pfm_perf_async_overflow(struct pfm_perf_event *ev)
{
	if (atomic_read(&ev->event_limit) && atomic_dec_and_test(&ev->event_limit)) {
		WRITE_ONCE(ev->limit_hit, true);
		pfm_perf_async_disable(ev);
		return POLL_HUP;
	}
	return POLL_IN;
}

/* The owner of ev's output (the opened event's) gets its signal, if it asked. */
void pfm_perf_async_signal(struct pfm_perf_event *ev, int kill)
{
	struct pfm_perf_event *o = ev->parent ? ev->parent : ev;

	if (!READ_ONCE(o->fasync))
		return;
	/* a POLL_HUP not yet sent is not turned into a POLL_IN */
	if (cmpxchg(&o->pending_kill, 0, kill) && kill == POLL_HUP)
		WRITE_ONCE(o->pending_kill, POLL_HUP);
	irq_work_queue(&o->kill_work);
}

/*
 * PERF_EVENT_IOC_REFRESH: n more overflows before the event disables itself.
 * The caller enables it.  ctx->mutex not held.
 */
int pfm_perf_refresh(struct pfm_perf_event *ev, int refresh)
{
	struct pfm_context *ctx = ev->target->ctx;

	if (ev->attr.inherit || !pfm_perf_sampling(&ev->attr))
		return -EINVAL;
	mutex_lock(pfm_ctx_mutex(ctx));
	atomic_add(refresh, &ev->event_limit);
	WRITE_ONCE(ev->limit_hit, false);
	mutex_unlock(pfm_ctx_mutex(ctx));
	return 0;
}
