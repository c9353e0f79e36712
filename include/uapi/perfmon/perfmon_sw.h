/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perfmon: the software-event PMU.
 *
 * Present on every machine, beside any hardware PMU, at fixed register numbers:
 * PMC(PFM_SW_FIRST_PMC + i) controls PMD(PFM_SW_FIRST_PMD + i), for i in
 * 0..PFM_SW_NUM_COUNTERS-1 (PMC/PMD 64..1087).  Any counter can count any event.
 * A software event takes no hardware counter, so one event set counts up to 1024
 * of them at once, exactly, where a tool with fewer counters would multiplex them
 * (perf_events counts any number of them together).  A context that uses the
 * first 64 counters alone costs what it would if there were no more.
 *
 * The bit vectors of the ABI (perfmon.h: PFM_MAX_PMDS) name registers below 320:
 * the first PFM_SW_BV_COUNTERS counters (PMD 64..319).  The counters past them
 * (PMD 320..1087) count as the others do, are written and read by number, and
 * take no part in overflow handling: their pfarg_pmd has no flags, no reset
 * values, switch count, reset or sample vector, random mask or sample event id,
 * and their PMC no PFM_PMCFL_NO_EMUL64 (EINVAL); the counts page does not map
 * them (read them with pfm_read_pmds()), nor does the set switch log
 * (perfmon_mux_smpl.h) record them.  A carry of one is a plain 64-bit wrap,
 * told to nobody.
 * A PMC value is
 *
 *   bits  0-7   event (PFM_SW_EV_*; 0 counts nothing)
 *   bit  16     USR: count events at user level
 *   bit  17     OS: count events at kernel level; needs privilege (see perfmon.h,
 *               ACCESS: EPERM when refused)
 *   bit  22     EN: the counter counts while monitoring is started
 *   bits 32-63  KEY, for the keyed events below only (zero for the others)
 *   others      reserved, must be zero
 *
 * A counter with neither USR nor OS counts nothing.  Levels are those of the
 * instruction that causes the event:
 *
 *   PAGE_FAULTS     USR: faults of user-mode accesses; OS: faults the kernel takes
 *                   on user memory on the thread's behalf (copy to or from user
 *                   space in a system call), where it handles faults (not those
 *                   with page faults disabled, as perf_events)
 *   SYSCALLS        USR: the system call instruction runs at user level
 *   TASK_CLOCK, CTX_SWITCHES, CPU_MIGRATIONS
 *                   belong to no level: counted when USR or OS is set, as the
 *                   thread's CPU time, voluntary and involuntary switches are
 *                   (getrusage(2) reports them to any process)
 *
 * The counters are 64 bits wide and count, while monitoring is started, what the
 * monitored thread does (per-thread sessions) or what happens on the monitored CPU
 * (system-wide sessions: every thread, and TASK_CLOCK counts wall-clock time):
 *
 *   TASK_CLOCK      nanoseconds the thread ran on a CPU: across context switches
 *                   its runtime as the scheduler counts it (CLOCK_THREAD_CPUTIME_ID)
 *                   on kernels that do not take IRQ or steal time out of it
 *   CTX_SWITCHES    times the thread was switched out (preempted or blocked)
 *   CPU_MIGRATIONS  times the thread resumed on another CPU than it last ran on;
 *                   for a CPU session, threads moved onto the CPU
 *   PAGE_FAULTS     page faults on user addresses taken by the thread
 *   SYSCALLS        system calls entered by the thread; the pfm_stop() (or
 *                   pfm_read_pmds() while started) that observes the count is
 *                   itself counted: N calls between start and stop read as N + 1
 *
 * Keyed events are fed by a source outside the software PMU (a layer of the
 * module, which registers with the core) and name what they count with KEY:
 *
 *   TRACEPOINT      hits of the kernel trace event whose tracefs id is KEY
 *                   (/sys/kernel/tracing/events/<system>/<event>/id), each hit
 *                   counting by the amount the event gives (1 for most); USR:
 *                   hits whose registers are at user level (the system call
 *                   events), OS: the others.  Keys from PFM_SW_TP_FILTERED up
 *                   are no tracefs id (those are below 2^16): the source gives
 *                   them out for the hits of one id that pass a trace event
 *                   filter (pfm_write_pmc_filter(), the perf layer's
 *                   PERF_EVENT_IOC_SET_FILTER); one that no filter holds now
 *                   is EINVAL, as an unknown id
 *   BREAKPOINT      hits of the breakpoint whose id the source gave out as KEY
 *
 * A counter counts only the hits of its own KEY.  Writing a PMC with a keyed event
 * asks its source for KEY: ENOENT when no source is there or the source knows no
 * such key, or the source's own errno; the source is held from that write until
 * the value is replaced, its set deleted or its context closed.  A KEY with an
 * event that is not keyed is EINVAL.
 */
#ifndef _UAPI_PERFMON_PERFMON_SW_H
#define _UAPI_PERFMON_PERFMON_SW_H

#define PFM_SW_FIRST_PMC	64
#define PFM_SW_FIRST_PMD	64
#define PFM_SW_NUM_COUNTERS	1024
/* the counters the bit vectors name (PMD 64..319): those that may sample */
#define PFM_SW_BV_COUNTERS	256

#define PFM_SW_EV_NONE		0
#define PFM_SW_EV_TASK_CLOCK	1
#define PFM_SW_EV_CTX_SWITCHES	2
#define PFM_SW_EV_CPU_MIGRATIONS 3
#define PFM_SW_EV_PAGE_FAULTS	4
#define PFM_SW_EV_SYSCALLS	5
#define PFM_SW_EV_TRACEPOINT	6	/* keyed */
#define PFM_SW_EV_BREAKPOINT	7	/* keyed */
#define PFM_SW_EV_MAX		7	/* non-ABI: grows with new events */

#define PFM_SW_PMC_EVENT_MASK	0xffULL
#define PFM_SW_PMC_USR		(1ULL << 16)
#define PFM_SW_PMC_OS		(1ULL << 17)
#define PFM_SW_PMC_EN		(1ULL << 22)
#define PFM_SW_PMC_KEY_SHIFT	32
#define PFM_SW_PMC_KEY_MASK	(0xffffffffULL << PFM_SW_PMC_KEY_SHIFT)
#define PFM_SW_TP_FILTERED	(1U << 31)	/* TRACEPOINT keys of filtered hits */

/* Counts ev at user level, the level any user may count at. */
#define PFM_SW_PMC(ev)		((__u64)(ev) | PFM_SW_PMC_USR | PFM_SW_PMC_EN)
/* The KEY of a PMC value, and a keyed event's value at user level. */
#define PFM_SW_PMC_KEY(pmc)	((__u32)((pmc) >> PFM_SW_PMC_KEY_SHIFT))
#define PFM_SW_PMC_KEYED(ev, key) \
	(PFM_SW_PMC(ev) | ((__u64)(__u32)(key) << PFM_SW_PMC_KEY_SHIFT))

#endif /* _UAPI_PERFMON_PERFMON_SW_H */
