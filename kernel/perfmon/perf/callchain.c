// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: PERF_SAMPLE_CALLCHAIN: a kernel part for a sample taken in the
 * kernel, then the user part, by frame pointers.
 *
 * The kernel part (misc KERNEL samples: a clock's timer or a PMU interrupt
 * that hit the kernel, a fault the kernel took on user memory) is
 * PERF_CONTEXT_KERNEL, the sample's IP, then its callers, as
 * perf_callchain_kernel() gives them.  A module has the kernel's unwinder
 * through stack_trace_save() only, which starts where it is called: the
 * overflow path's own frames and the interrupt's come first and are skipped
 * up to the sample's IP (the unwinder passes the interrupted context at its
 * IP); if the unwinder does not reach it, the chain is the IP alone.
 * exclude_callchain_kernel leaves the part out.
 *
 * The user part is what perf_callchain_user() gives on x86-64 for the
 * thread's user registers: PERF_CONTEXT_USER, the user IP, then the return
 * address of each frame, from the frame pointer (rbp) through the saved {next
 * frame, return address} pairs, read without faulting (interrupts are off: a
 * frame not in memory ends the chain), until sample_max_stack addresses or a
 * frame outside user space.  A kernel thread has none;
 * exclude_callchain_user leaves it out.  Code built without frame pointers
 * gives chains that stop or skip callers, as it does with perf_events (perf's
 * --call-graph dwarf unwinds from REGS_USER and STACK_USER instead:
 * sample_tail.c).
 *
 * sample_max_stack (0 is perf_event_max_stack, 127) bounds the addresses of
 * both parts together, not the marks; more than 127 is EOVERFLOW at open, as
 * get_callchain_buffers() answers.
 */
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
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

/* The overflow path's and the interrupt's frames, above the sample's. */
#define PFM_PERF_KSTACK		(PFM_PERF_MAX_STACK + 64)

/* One chain per CPU at a time: it is built with interrupts off. */
static DEFINE_PER_CPU(unsigned long [PFM_PERF_KSTACK], pfm_perf_kstack);

/* The kernel frames from kip up, into ip: at most left of them. */
static unsigned int pfm_perf_callchain_kernel(u64 kip, u64 *ip, unsigned int left)
{
	unsigned long *e = this_cpu_ptr(pfm_perf_kstack);
	unsigned int n, i, nr = 0;

	n = stack_trace_save(e, PFM_PERF_KSTACK, 0);
	for (i = 0; i < n && e[i] != kip; i++)
		;
	if (i == n)
		i = 0, n = 0;	/* not reached: the IP alone */
	if (left)
		ip[nr++] = kip;
	for (i++; i < n && nr < left; i++)
		ip[nr++] = e[i];
	return nr;
}

/* The thread's user frames, into ip: at most left addresses after the mark. */
static unsigned int pfm_perf_callchain_user(u64 *ip, unsigned int left)
{
	struct pt_regs *regs = task_pt_regs(current);
	unsigned long fp, frame[2];
	unsigned int nr = 0;

	ip[nr++] = PERF_CONTEXT_USER;
	if (!left--)
		return nr;
	ip[nr++] = instruction_pointer(regs);
	fp = regs->bp;
	while (left--) {
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
	return nr;
}

/*
 * The chain of the sample, in w: nr, then nr entries: each part's context mark
 * and its addresses.  kip: the sample's IP if it was taken in the kernel, else 0.
 */
unsigned int pfm_perf_callchain(const struct pfm_perf_event *ev, u64 *w, u64 kip)
{
	unsigned int left = ev->attr.sample_max_stack ?: PFM_PERF_MAX_STACK, nr = 0, k;
	u64 *ip = w + 1;

	if (kip && !ev->attr.exclude_callchain_kernel) {
		ip[nr++] = PERF_CONTEXT_KERNEL;
		k = pfm_perf_callchain_kernel(kip, ip + nr, left);
		nr += k;
		left -= k;
	}
	if (!ev->attr.exclude_callchain_user && !(current->flags & PF_KTHREAD) && current->mm)
		nr += pfm_perf_callchain_user(ip + nr, left);
	w[0] = nr;
	return 1 + nr;
}
