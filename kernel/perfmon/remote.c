// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: running an operation where a context's state lives, the clock, and
 * where the current thread is in user mode.
 */
#include <asm/irq_regs.h>
#include <linux/ptrace.h>
#include <linux/sched/clock.h>
#include <linux/sched/task_stack.h>
#include <linux/smp.h>

#include "internal.h"
#include "ctx.h"
#include "env.h"

u64 pfm_clock_ns(void)
{
	return local_clock();
}

struct pfm_remote {
	struct pfm_context *ctx;
	pfm_state_fn fn;
	void *arg;
	bool done;
};

static void pfm_remote_fn(void *info)
{
	struct pfm_remote *r = info;

	raw_spin_lock(&r->ctx->lock);
	if (r->ctx->on_cpu == smp_processor_id()) {
		r->fn(r->ctx, r->arg);
		r->done = true;
	}
	raw_spin_unlock(&r->ctx->lock);
}

/*
 * Runs fn with ctx->lock held where the state is: on the CPU the monitored thread runs
 * on (by a cross-CPU call when that is not us), or on the saved copy when the thread
 * is not running.  The thread may move while we look, hence the loop.
 */
void pfm_run_on_state(struct pfm_context *ctx, pfm_state_fn fn, void *arg)
{
	struct pfm_remote r = { .ctx = ctx, .fn = fn, .arg = arg };
	unsigned long flags;
	int cpu;

	for (;;) {
		raw_spin_lock_irqsave(&ctx->lock, flags);
		cpu = ctx->on_cpu;
		if (pfm_state_here(ctx)) {
			fn(ctx, arg);
			raw_spin_unlock_irqrestore(&ctx->lock, flags);
			return;
		}
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		/* A CPU going offline detaches its session: the next look sees it. */
		if (smp_call_function_single(cpu, pfm_remote_fn, &r, 1))
			cpu_relax();
		if (r.done)
			return;
	}
}

bool pfm_irq_where(struct pfm_ovfl_where *at)
{
	struct pt_regs *regs = get_irq_regs();

	if (!regs)
		return false;
	at->ip = instruction_pointer(regs);
	at->kernel = !user_mode(regs);
	at->regs = regs;
	return true;
}

/* Where the current thread is in user mode: 0 for a kernel thread, which has none. */
u64 pfm_user_ip(void)
{
	if (current->flags & PF_KTHREAD)
		return 0;
	return instruction_pointer(task_pt_regs(current));
}
