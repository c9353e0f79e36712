/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon: NetBSD's pmc_control(2) and pmc_get_info(2) on perfmon.
 *
 *   #include <pmc.h>              (libpfm-glue/pmc.h; link with libperfmon.a)
 *
 * Programs written for NetBSD's <sys/pmc.h> build unchanged against this header:
 * the names, the operation numbers and struct pmc_counter_cfg are NetBSD's.  The
 * calls return 0, or -1 with errno set, as the manual page says.
 *
 * HOW IT MAPS
 *
 * The process has one perfmon context, created at the first call (with a
 * "default" format sampling buffer of PMC_PROF_BUF_SIZE bytes for the profiling
 * operations; without it when the locked-memory limit refuses the buffer),
 * attached to the thread that made that call and started at once.  Its counters
 * are the manual's "ctr" numbers:
 *
 *   ctr 0..7     the software PMU's first 8 counters (<perfmon/perfmon_sw.h>): present on
 *                every machine, so these numbers are the same everywhere
 *   ctr 8..      the x86 general-purpose counters perfmon may use on this machine
 *                (none under QEMU TCG or a hypervisor without a virtual PMU, none
 *                while perf_events holds them)
 *
 * Each counter is a PMC/PMD pair.  PMC_OP_START and PMC_OP_STOP set and clear the
 * counter's enable bit (EN, bit 22 of the PMC on both kinds), so that counters start
 * and stop one by one as NetBSD's do; the value lives in the PMD and is kept across
 * stop and start (PMC_OP_CONFIGURE sets it back to zero).  Counting is at user level
 * (the USR bit), the level any user may count at.
 *
 * The counter, like any perfmon context, counts the thread it is attached to, not
 * the other threads of the process; every thread of the process may use the calls.
 * A thread has at most one perfmon context: native perfmon calls, perf_counter_open()
 * or pfm_perf_event_open() counting the same thread refuse to attach beside this one
 * (and pmc_control() beside them: EBUSY).
 *
 * EVENT IDS (struct pmc_counter_cfg.event_id)
 *
 * NetBSD's event ids are machine-dependent: the event selects of the CPU types it
 * drives (i586, i686, K7 and later AMD families on x86; XScale/i80200 on ARM, ...).
 * Here the counter's type (PMC_INFO_CPUCTR_TYPE) says which ids it takes:
 *
 *   PMC_TYPE_PERFMON_SW   the software events, PMC_EV_SW_* below (perfmon's
 *                         PFM_SW_EV_* numbers); NetBSD's hardware event ids have no
 *                         software meaning (no CPU type of NetBSD counts system
 *                         calls or page faults) and are refused, ENODEV
 *   PMC_TYPE_PERFMON_X86  an x86 event select as NetBSD's i686, K7 and family-10h
 *                         ids spell it: event in bits 0-7, unit mask in bits 8-15,
 *                         and optionally edge (18), invert (23), counter mask
 *                         (24-31) and AMD's event bits 8-11 (32-35); any other bit
 *                         is ENODEV.  The i586 (P5 CESR) and non-x86 encodings have
 *                         no x86 equivalent: they are taken as event selects, which
 *                         they are not, so they count something else or are refused.
 *
 * OPERATIONS AND ERRORS (the manual's errno first)
 *
 * pmc_get_info(ctr, op, argp):
 *   PMC_INFO_NCOUNTERS        ctr ignored; *(int *)argp = counters (8 + x86 ones)
 *   PMC_INFO_CPUCTR_TYPE      *(int *)argp = PMC_TYPE_PERFMON_*; ctr -1: the
 *                             machine's, PMC_TYPE_PERFMON_X86 if it has x86
 *                             counters, else PMC_TYPE_PERFMON_SW
 *   PMC_INFO_COUNTER_VALUE    *(uint64_t *)argp = the count; ENXIO if the counter
 *                             is not configured, EBUSY while it profiles.  Read
 *                             while the counter runs, the read's own system call
 *                             is counted (as perfmon_sw.h says of pfm_read_pmds)
 *   PMC_INFO_ACCUMULATED_COUNTER_VALUE
 *                             *(uint64_t *)argp = the sum of what counter ctr
 *                             counted in the exited children of this process: at
 *                             fork() the library attaches a context to the child,
 *                             with the parent's configuration and running counters
 *                             (from the child's first instruction after fork to
 *                             its exit, exec included), and adds the child's counts
 *                             to the parent's sum once it has exited.  Children
 *                             forked while no counter was configured, and
 *                             grandchildren, are not summed.
 * pmc_control(ctr, op, argp):
 *   PMC_OP_CONFIGURE          argp is a struct pmc_counter_cfg *; stops the counter
 *                             if it runs (as NetBSD does), programs the event,
 *                             zeroes the value.  reset_value and flags are unused
 *                             (there is no overflow of a 64-bit count to reload at)
 *   PMC_OP_START              ENXIO unless configured; EINPROGRESS if it runs
 *   PMC_OP_STOP               ENXIO unless configured; a stopped counter: 0
 *   PMC_OP_PROFSTART          argp is a struct pmc_counter_cfg *: the counter
 *                             records a sample (perfmon's default format:
 *                             thread, instruction pointer, time) every reset_value
 *                             events, into the process's sampling buffer; EBUSY if
 *                             the counter is configured or profiling already,
 *                             EINVAL for a reset_value of 0, ENOMEM if the process
 *                             has no buffer (locked-memory limit).  When the buffer
 *                             is full, every counter of the process stops until
 *                             PMC_OP_PROFSTOP
 *   PMC_OP_PROFSTOP           ENXIO unless the counter profiles; the samples stay
 *                             readable with pmc_prof_samples()
 *
 *   EINVAL   ctr out of range (except ctr -1 with PMC_INFO_CPUCTR_TYPE), unknown op
 *   EFAULT   argp NULL where the operation reads or writes through it (other bad
 *            addresses fault in the caller, as in any library function)
 *   ENODEV   an event id the counter cannot count (CONFIGURE, PROFSTART)
 *   EBUSY    the counter is in use (see above); the thread has another perfmon
 *            context
 *   ENXIO    no perfmon in this kernel (as NetBSD without "options PERFCTRS")
 *   ENOMEM, EMFILE, EPERM: perfmon's, at the creation of the context
 *
 * The library's own calls are system calls: a counter of PMC_EV_SW_SYSCALLS that runs
 * counts the PMC_OP_STOP that stops it (N calls between start and stop read N + 1),
 * and a fork() while it runs counts the library's set-up of the child's context.
 */
#ifndef _LIBPERFMON_PMC_H
#define _LIBPERFMON_PMC_H

#include <stdint.h>
#include <perfmon/perfmon_sw.h>
#include <perfmon/perfmon_dfl_smpl.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t pmc_evid_t;	/* an event id (above) */
typedef uint64_t pmc_ctr_t;	/* a count */

struct pmc_counter_cfg {
	pmc_evid_t	event_id;	/* the event to count */
	pmc_ctr_t	reset_value;	/* PROFSTART: events between samples */
	uint32_t	flags;		/* unused */
};

#define PMC_OP_START		1
#define PMC_OP_STOP		2
#define PMC_OP_CONFIGURE	3
#define PMC_OP_PROFSTART	4
#define PMC_OP_PROFSTOP		5

#define PMC_INFO_NCOUNTERS			1
#define PMC_INFO_CPUCTR_TYPE			2
#define PMC_INFO_COUNTER_VALUE			3
#define PMC_INFO_ACCUMULATED_COUNTER_VALUE	4

/* Counter and machine types, outside NetBSD's own numbers. */
#define PMC_TYPE_NONE		0
#define PMC_TYPE_PERFMON_SW	0x7001	/* perfmon's software counter */
#define PMC_TYPE_PERFMON_X86	0x7002	/* an x86 general-purpose counter */

/*
 * ctr 0..7: the first software counters.  The interface numbers the x86 counters
 * after them and keeps a counter set in a 32-bit mask: it stays at the 8 it was
 * made with, fewer than the software PMU has (PFM_SW_NUM_COUNTERS).
 */
#define PMC_NCOUNTERS_SW	8

/* Event ids of PMC_TYPE_PERFMON_SW counters (<perfmon/perfmon_sw.h>). */
#define PMC_EV_SW_TASK_CLOCK	PFM_SW_EV_TASK_CLOCK	 /* ns on a CPU */
#define PMC_EV_SW_CTX_SWITCHES	PFM_SW_EV_CTX_SWITCHES
#define PMC_EV_SW_CPU_MIGRATIONS PFM_SW_EV_CPU_MIGRATIONS
#define PMC_EV_SW_PAGE_FAULTS	PFM_SW_EV_PAGE_FAULTS
#define PMC_EV_SW_SYSCALLS	PFM_SW_EV_SYSCALLS

/* Bits a PMC_TYPE_PERFMON_X86 event id may have. */
#define PMC_X86_EVID_MASK	0x0000000fff84ffffULL

/* The process's sampling buffer, in bytes (locked memory). */
#define PMC_PROF_BUF_SIZE	(64 * 1024)

int pmc_control(int ctr, int op, void *argp);
int pmc_get_info(int ctr, int op, void *argp);

/*
 * perfmon's addition: the samples counter ctr recorded while it profiled (since the
 * process started; the buffer is never emptied), at most n of them into e; returns
 * how many there are (which may be more than n), or -1 with EINVAL for a bad ctr,
 * ENXIO if the process has no buffer.
 */
long pmc_prof_samples(int ctr, struct pfm_dfl_smpl_entry *e, long n);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPERFMON_PMC_H */
