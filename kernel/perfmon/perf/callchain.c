// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: PERF_SAMPLE_CALLCHAIN, the user part, by frame pointers.
 *
 * This layer's samples are the sampled thread's user-mode state (misc USER: a
 * fault the kernel took for the thread is the thread's, at its user IP), so a
 * chain is what perf_callchain_user() gives on x86-64 for user registers:
 * PERF_CONTEXT_USER, the user IP, then the return address of each frame, from
 * the frame pointer (rbp) through the saved {next frame, return address}
 * pairs, read without faulting (interrupts are off: a frame not in memory ends
 * the chain), until sample_max_stack addresses or a frame outside user space.
 * There is no kernel part (no sample is a kernel-mode one here), so
 * exclude_callchain_kernel changes nothing; exclude_callchain_user leaves the
 * chain empty (nr 0).  Code built without frame pointers gives chains that
 * stop or skip callers, as it does with perf_events (perf's --call-graph dwarf
 * needs STACK_USER, not offered).
 *
 * sample_max_stack 0 is perf_event_max_stack (127); more than that is
 * EOVERFLOW at open, as get_callchain_buffers() answers.
 */
#include <linux/perf_event.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>

#include "layer.h"
#include "event.h"
#include "sample.h"

/* get_callchain_buffers()'s check, at open. */
int pfm_perf_callchain_check(const struct perf_event_attr *attr)
{
	if (!(attr->sample_type & PERF_SAMPLE_CALLCHAIN))
		return 0;
	if (attr->sample_max_stack > PFM_PERF_MAX_STACK)
		return -EOVERFLOW;
	return 0;
}

/*
 * The chain of the current thread's user state, in w: nr, then nr entries: the
 * context mark and at most sample_max_stack addresses (perf's
 * perf_callchain_store() bounds the addresses; the marks are not counted).
 */
unsigned int pfm_perf_callchain(const struct pfm_perf_event *ev, u64 *w)
{
	unsigned int max = (ev->attr.sample_max_stack ?: PFM_PERF_MAX_STACK) + 1, nr = 0;
	struct pt_regs *regs = task_pt_regs(current);
	unsigned long fp, frame[2];
	u64 *ip = w + 1;

	if (ev->attr.exclude_callchain_user || (current->flags & PF_KTHREAD) || !current->mm)
		goto out;
	ip[nr++] = PERF_CONTEXT_USER;
	if (nr < max)
		ip[nr++] = instruction_pointer(regs);
	fp = regs->bp;
	while (nr < max) {
		if (fp & (sizeof(long) - 1) || fp + sizeof(frame) < fp ||
		    fp + sizeof(frame) > TASK_SIZE_MAX)
			break;
		if (copy_from_user_nofault(frame, (const void __user *)fp, sizeof(frame)))
			break;
		ip[nr++] = frame[1];
		/* a caller's frame is above its callee's: no loop */
		if (frame[0] <= fp)
			break;
		fp = frame[0];
	}
out:
	w[0] = nr;
	return 1 + nr;
}
