// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: attr.sigtrap and attr.remove_on_exec, for every event type, as
 * Linux 6.1 has them.
 *
 * sigtrap: each overflow of a sampling event that is not dropped (throttled,
 * excluded by its level) sends the thread the event is on a synchronous
 * SIGTRAP: si_code TRAP_PERF, si_perf_data the event's sig_data (as
 * MODIFY_ATTRIBUTES last set it), si_perf_type its type, si_addr the sample's
 * address (a breakpoint's bp_addr, a fault's address; 0 for other events and
 * for a kernel-level overflow of an event that excludes the kernel),
 * si_perf_flags TRAP_PERF_FLAG_ASYNC when the thread blocks SIGTRAP, as
 * send_sig_perf() fills them.  The overflow marks the event, and the thread
 * sends itself the signal before it returns to user mode (task_work), as
 * 6.1's irq_work does in the thread: overflows marked before then give one
 * signal, with the last one's address.  An overflow seen outside the thread
 * (a read from another one finding a carry) sends nothing, as 6.1 sends
 * nothing to a thread that is not current.
 *
 * remove_on_exec: at the exec of the thread an event is on, before the new
 * image runs, an inherited copy is folded into its opened event and freed,
 * and an opened event stops counting for good (6.1's EXIT state: ENABLE does
 * nothing, its count and times stay readable).  The exec's task_work does it
 * (inherit.c), with enable_on_exec's.
 */
#include <linux/sched/signal.h>
#include <linux/task_work.h>

#include "layer.h"
#include "event.h"
#include "overflow.h"
#include "sample.h"

static void pfm_perf_sigtrap_info(const struct pfm_perf_event *ev, struct kernel_siginfo *info)
{
	clear_siginfo(info);
	info->si_signo = SIGTRAP;
	info->si_errno = 0;
	info->si_code = TRAP_PERF;
	info->si_addr = (void __user *)(unsigned long)READ_ONCE(ev->sigtrap_addr);
	info->si_perf_data = READ_ONCE(ev->attr.sig_data);
	info->si_perf_type = ev->attr.type;
	info->si_perf_flags = sigismember(&current->blocked, SIGTRAP) ? TRAP_PERF_FLAG_ASYNC : 0;
}

/* Signals built per visit to the events, on the stack. */
#define PFM_PERF_SIGTRAP_BATCH	4

/*
 * In the thread, on its way to user mode: the signals its overflows marked.  The
 * events are walked under ctx->lock, the signals sent after it.
 */
static void pfm_perf_sigtrap_work(struct callback_head *head)
{
	struct pfm_perf_target *t = container_of(head, struct pfm_perf_target, sigtrap_work);
	struct kernel_siginfo info[PFM_PERF_SIGTRAP_BATCH];
	struct pfm_context *ctx = t->ctx;
	struct pfm_perf_event *ev;
	unsigned long flags;
	unsigned int i, n;

	clear_bit(0, &t->sigtrap_queued);
	do {
		n = 0;
		raw_spin_lock_irqsave(pfm_ctx_lock(ctx), flags);
		list_for_each_entry(ev, &t->events, entry) {
			if (n == PFM_PERF_SIGTRAP_BATCH)
				break;
			if (test_and_clear_bit(0, &ev->sigtrap_pending))
				pfm_perf_sigtrap_info(ev, &info[n++]);
		}
		raw_spin_unlock_irqrestore(pfm_ctx_lock(ctx), flags);
		for (i = 0; i < n && !(current->flags & PF_EXITING); i++)
			send_sig_info(SIGTRAP, &info[i], current);
	} while (n == PFM_PERF_SIGTRAP_BATCH);
	pfm_perf_target_put(t);
}

/*
 * An overflow of ev that is taken (overflow path, ctx->lock held): the address
 * 6.1 gives, only from a sample its level allows (sample_is_allowed()).
 */
void pfm_perf_sigtrap(struct pfm_perf_event *ev)
{
	const struct pfm_ovfl_where *at = pfm_overflow_where();
	struct pfm_perf_target *t = ev->target;
	bool valid = !(ev->attr.exclude_kernel && at && at->kernel);

	if (!ev->attr.sigtrap || t->task != current)
		return;
	WRITE_ONCE(ev->sigtrap_addr, valid ? pfm_perf_sample_addr(ev) : 0);
	set_bit(0, &ev->sigtrap_pending);
	if (pfm_perf_target_claim(t, &t->sigtrap_queued))
		pfm_perf_target_queue(t, &t->sigtrap_queued, &t->sigtrap_work,
				      pfm_perf_sigtrap_work);
}
