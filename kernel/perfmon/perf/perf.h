/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the perf_event_open compatibility layer: perf events opened and
 * their files (open.c, file.c: file.h), on targets (event.c, target.c:
 * event.h), in groups placed in event sets (sched.c: sched.h) on counters
 * (counters.c: counters.h), inherited by new threads (inherit.c: inherit.h);
 * sampling: sample.c, callchain.c, async.c (sample.h), overflow.c (overflow.h),
 * ring.c, output.c (ring.h), sideband.c, task.c, mmap.c (sideband.h); prctl's
 * enable and disable of the caller's events: prctl.c (file.h); cgroup events:
 * cgroup.c (event.h).  This header is what perf.c, the layer's init and exit,
 * needs of them.
 *
 * perf's model on perfmon's: every perf event opened on one thread lives in that
 * thread's one perfmon context, owned by a "target" shared by those events.  The
 * context is attached to the thread and started for as long as the target lives;
 * group counts in one of the context's event sets (sched.c: groups that do
 * not fit together are multiplexed); each event that counts something uses one
 * counter of its set (counters.h: the software
 * PMU's, or for a hardware event a general-purpose or fixed counter of the
 * hardware PMU), shared with the target's other events that count the same event
 * at the same levels: the counter runs while any of them counts, and each event
 * keeps the intervals it counted.  Events that count nothing on this machine
 * (dummy, alignment faults, ...) use no counter.
 *
 * Sampling is a layer on perfmon's own: a sampling event (sample_period) takes a
 * counter of its own and makes its PMD a perfmon sampling PMD (PFM_PMDFL_SMPL,
 * reset to -period at each overflow by the core's overflow path, ovfl.c).  The
 * target's context then takes the "perf_ring" sampling format (ring.c), the
 * second format of the core's registry beside "default": where perfmon has one
 * sampling buffer per context and perf one ring per event, the format's buffer
 * is a routing table from PMD to the perf event that owns it, and its handler
 * hands each overflow to that event (sample.c), which writes its
 * PERF_RECORD_SAMPLE into the ring its output goes to: its own, mapped by
 * mmap() of 1 + 2^n pages or the one SET_OUTPUT named (output.c), or, for
 * an inherited copy, the opened event's.  The
 * handler never masks the context: a record that does not fit is counted and
 * reported by PERF_RECORD_LOST.  The side-band records (FORK, EXIT, COMM,
 * MMAP2, SWITCH) go to every event that asks for them, sampling or not, from
 * the kernel's hooks in atomic context through the target's side-band list
 * (task.c), or, for mappings, from the thread itself before it returns to
 * user mode (sideband.c, mmap.c).
 * Task-clock counters reach their carry by a
 * timer of the software PMU (sw_pmu.c), so the clocks sample on time.
 *
 * Locking: target->ctx->mutex protects the target's events and everything in
 * them; pfm_perf_family_mutex the lists of inherited copies (inherit.c).
 * Never two contexts' mutexes at once.
 */
#ifndef _PERFMON_PERF_H
#define _PERFMON_PERF_H

struct task_struct;

/* Each part's init and exit, in the order perf.c calls them. */
int pfm_perf_inherit_init(void);
void pfm_perf_inherit_exit(void);
int pfm_perf_smpl_init(void);			/* ring.c: the sampling format */
void pfm_perf_smpl_exit(void);
/* prctl.c: the kprobes on prctl's enable and disable; never fails */
void pfm_perf_prctl_init(void);
void pfm_perf_prctl_exit(void);
/* open.c: the call's function in the core's entry table: before the door opens, after it closed */
int pfm_perf_open_init(void);
void pfm_perf_open_exit(void);

/* cgroup.c: finds its tracepoint (none: cgroup events EOPNOTSUPP) */
void pfm_perf_cgroup_init(void);
void pfm_perf_cgroup_exit(void);

/* inherit.c: the thread ops perf.c registers */
void pfm_perf_exec(struct task_struct *task);
void pfm_perf_exit(struct task_struct *task);

/* The knobs in /sys/kernel/perfmon/, each defined by the file it tunes. */
extern unsigned long pfm_perf_max_sample_rate;	/* sample.c */
extern unsigned long pfm_perf_mlock_kb;		/* ring.c */
extern unsigned long pfm_perf_mux_interval_ms;	/* sched.c */

/* target.c: the counts in /sys/kernel/perfmon/ */
unsigned int pfm_perf_targets_count(void);
unsigned int pfm_perf_events_count(void);

#endif /* _PERFMON_PERF_H */
