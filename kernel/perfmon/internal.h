/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon core: types shared by the core files.
 *
 * Every core file includes it, with the header of each core file it calls (ctx.h,
 * sets.h, ...).  The portable core (the files the host tests compile, see env.h)
 * needs nothing else from the kernel than the headers listed below, for which the
 * host tests give small replacements (tests/host/shim/), and the functions env.h
 * declares.  The kernel-only files include the kernel headers they need themselves.
 *
 * Locking, outermost first:
 *   ctx->mutex   serialises the calls made on one context (they may sleep), but
 *                for pfm_read_pmds(), which takes ctx->lock alone;
 *   ctx->lock    (raw, irq-safe) protects the state that the monitored thread's
 *                context-switch hooks, the exit hook and cross-CPU calls also touch:
 *                state, live_cpu, the active set and the saved register values;
 *                and, with ctx->mutex, the set list (changed holding both).
 * Nothing that can wake a task up is called with ctx->lock held: the scheduler calls
 * our switch-out hook with its runqueue lock held.
 */
#ifndef _PERFMON_INTERNAL_H
#define _PERFMON_INTERNAL_H

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/cpu.h>
#include <linux/hrtimer.h>
#include <linux/errno.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include <uapi/perfmon/perfmon.h>
#include <uapi/perfmon/perfmon_sw.h>

#include "pmu.h"

#define PFM_MSGS_COUNT		8	/* depth of a context's message queue */

enum pfm_state {
	PFM_CTX_UNLOADED,	/* not attached */
	PFM_CTX_LOADED,		/* attached to a thread (or a CPU) */
};

/* What a set keeps for each PMD. */
struct pfm_pmd {
	u64 value;		/* 64-bit virtual value; while live, its low bits are
				 * the hardware value at the last sync */
	u32 flags;		/* PFM_PMDFL_* */
	u64 long_reset;
	u64 short_reset;
	u64 last_reset_val;
	u64 ovfl_switch_cnt;		/* overflows before a switch, as written */
	u64 switch_left;		/* overflows left before the switch */
};

/*
 * What few PMDs are given, apart from struct pfm_pmd, in an array of a set's own
 * made at the first write that gives any of it (pfm_write_pmds()): the PMDs it
 * resets with it and records in its samples, its random mask, its sample event
 * id.  Most sets have none, and without it a set's PMDs fit a quarter of the
 * memory (4 KB, not 16, for the software PMU's 72 slots).
 */
struct pfm_pmd_opts {
	u64 reset_pmds[PFM_PMD_BV];
	u64 smpl_pmds[PFM_PMD_BV];
	u64 random_mask;
	u64 smpl_eventid;
};

/* An event set: the whole software image of the PMU. */
struct pfm_event_set {
	struct list_head list;		/* in ctx->sets, ordered by id */
	u16 id;
	u32 flags;			/* PFM_SETFL_* */
	u64 timeout_ns;			/* effective switch timeout */
	u64 timeout_mask;		/* PFM_SETFL_RANDOM_TIMEOUT: range taken off it */
	u64 timeout_left_ns;		/* left of it while switched out or stopped */
	u64 runs;			/* activations */
	u64 duration_ns;		/* time live: on the CPU, started, active */
	DECLARE_BITMAP(ovfl_pmds, PFM_MAX_PMDS);	/* overflowed last */
	DECLARE_BITMAP(ovfl_pending, PFM_MAX_PMDS);	/* carried, not yet acted on */
	DECLARE_BITMAP(restart_pmds, PFM_MAX_PMDS);	/* notified: long reset at restart */
	DECLARE_BITMAP(used_pmcs, PFM_MAX_PMCS);	/* written by the user */
	DECLARE_BITMAP(used_pmds, PFM_MAX_PMDS);
	DECLARE_BITMAP(no_emul64, PFM_MAX_PMDS);	/* PMDs exported raw */
	u64 *pmcs;			/* [pfm_pmu.num_pmc_slots] */
	u64 pmcs_gen;			/* names these PMC values (pfm_set_pmcs_changed()) */
	struct pfm_pmd *pmds;		/* [pfm_pmu.num_pmd_slots] */
	struct pfm_pmd_opts *opts;	/* [pfm_pmu.num_pmd_slots], or NULL: none */
};

struct pfm_hook;
struct pfm_smpl_fmt;
struct pfm_smpl_charge;
struct user_struct;

/* A context's sampling buffer (smpl.h); addr is NULL without a format. */
struct pfm_smpl_buf {
	const struct pfm_smpl_fmt *fmt;	/* holds a reference on the format's module */
	void *addr;			/* vmalloc_user() memory */
	size_t size;			/* a page multiple */
	const struct pfm_smpl_charge *charge;	/* how it was charged, or NULL */
	struct user_struct *user;	/* charged with the pages, or NULL */
	unsigned long charged_pages;
};

struct pfm_context {
	refcount_t ref;			/* fd + attachment + in-flight users */
	struct mutex mutex;
	raw_spinlock_t lock;
	u32 flags;			/* PFM_FL_* */
	enum pfm_state state;
	bool started;
	int on_cpu;			/* CPU the monitored thread (or the monitored CPU)
					 * runs on now, or -1: where the live state is */
	int last_cpu;			/* CPU the monitored thread last ran on */
	int cpu;			/* system-wide: the monitored CPU, or -1 */
	struct task_struct *task;	/* attached thread, or NULL */
	struct pfm_hook *hook;		/* its hook (thread.c), or NULL */
	kuid_t uid;			/* user charged for the context */
	struct list_head sets;		/* ordered by set id; set 0 always exists */
	struct pfm_event_set *active;	/* set on the PMU when started */
	u64 live_since_ns;		/* when the active set last became live */
	u64 live_ns;			/* live time of all sets together: the time
					 * base of the set switch log (smpl.h) */
	struct hrtimer timer;		/* the active set's switch timeout */
	u64 nr_switches;		/* set switches done by the kernel */

	struct pfm_smpl_buf smpl;	/* set at creation, freed at the last close */
	struct pfm_counts_page *upage;	/* the counts page, from its first mmap (ctx->lock
					 * to set; freed with the context) */
	bool upage_hw;			/* it shows hardware counters (upage.c) */
	u32 unit_wants[PFM_MAX_UNITS];	/* needs of every PMC value written (pmu.h) */
	u32 unit_held[PFM_MAX_UNITS];	/* taken while attached (ctx->lock) */

	bool masked;			/* stopped by a notifying overflow until restart */
	bool restart_switch;		/* that overflow also completed a set switch */
	struct irq_work wake_work;	/* wakes readers up from any context (msg.c) */
	wait_queue_head_t restart_wait;	/* PFM_FL_NOTIFY_BLOCK: the held thread */
	struct fasync_struct *fasync;	/* SIGIO owners */
	wait_queue_head_t msgq_wait;
	union pfarg_msg msgq[PFM_MSGS_COUNT];
	unsigned int msgq_head;
	unsigned int msgq_count;
};

static inline bool pfm_ctx_system_wide(const struct pfm_context *ctx)
{
	return ctx->flags & PFM_FL_SYSTEM_WIDE;
}

static inline bool pfm_ctx_is_loaded(const struct pfm_context *ctx)
{
	return ctx->state == PFM_CTX_LOADED;
}

#endif /* _PERFMON_INTERNAL_H */
