/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: everything the portable core asks of its kernel environment.
 *
 * The portable core is the files tests/host/host.mk compiles on the host (ctx.c,
 * args.c, rw.c, rw_user.c, sets.c, pmu.c, pmu_state.c, state.c, sw_pmu.c,
 * switch.c, ovfl.c, upage.c, and the perf layer's perf/counters.c and
 * perf/overflow.c).  Besides the kernel headers internal.h lists, this and the
 * functions of layer.h that the kernel-only files define are all they use from
 * outside themselves: the kernel-only files named below implement it in the
 * kernel, and tests/host/env.c implements it on the host, as stubs that record
 * what the core asked for.
 */
#ifndef _PERFMON_ENV_H
#define _PERFMON_ENV_H

#include "internal.h"
#include "ctx.h"
#include "layer.h"

/* thread.c: attaching to a thread, and a thread held at a notification */
int pfm_env_attach(struct pfm_context *ctx, struct task_struct *task);
long pfm_env_detach(struct pfm_context *ctx);
/* a reattach (state.c): the hook made before the detach, then attached or given up */
struct pfm_hook *pfm_env_reattach_prepare(struct pfm_context *ctx, struct task_struct *task);
int pfm_env_reattach(struct pfm_context *ctx, struct task_struct *task, struct pfm_hook *hook);
void pfm_env_reattach_abort(struct pfm_hook *hook);
void pfm_env_block(struct pfm_context *ctx);
void pfm_env_unblock(struct pfm_context *ctx);

/* remote.c: where the state lives (running there and the clock: layer.h) */

/*
 * The context a hard interrupt being handled here interrupted (a software unit's
 * timer), for the sampling formats: false outside one.
 */
bool pfm_irq_where(struct pfm_ovfl_where *at);

/*
 * With ctx->lock held: whether the state can be worked on from here (saved, or on
 * this CPU), as pfm_run_on_state() would; a caller that finds it so spares the
 * indirect call (the read, rw.c).
 */
static inline bool pfm_state_here(const struct pfm_context *ctx)
{
	int cpu = READ_ONCE(ctx->on_cpu);

	return cpu < 0 || cpu == smp_processor_id();
}

/* upage_map.c: the counts page's memory (any context: the last put may be atomic) */
void pfm_upage_free(struct pfm_counts_page *pg);

/* access.c: who may do what */
int pfm_access_task(struct task_struct *task);

/* res.c: the user charged for a context, and sessions */
int pfm_res_ctx_charge(struct pfm_context *ctx);
void pfm_res_ctx_uncharge(struct pfm_context *ctx);
int pfm_res_session_get(struct pfm_context *ctx, int cpu);
void pfm_res_session_put(struct pfm_context *ctx, int cpu);
int pfm_res_hw_get(struct pfm_context *ctx);
void pfm_res_hw_put(struct pfm_context *ctx);

/* msg.c: the message queue */
void pfm_msg_init(struct pfm_context *ctx);
void pfm_msg_ovfl_locked(struct pfm_context *ctx, const unsigned long *ovfl);

/*
 * smpl_fmt.c: the context's sampling format at an overflow, at a restart, and when
 * next becomes the active set after prev (NULL before the first start), every set's
 * values in memory
 */
bool pfm_smpl_record_locked(struct pfm_context *ctx, struct pfm_event_set *set,
			    unsigned int pmd);
void pfm_smpl_restart_locked(struct pfm_context *ctx);
/* ctx's shared buffer without the reader's first n samples (PFM_STARTFL_RESTART) */
int pfm_smpl_drain(struct pfm_context *ctx, u64 n);
void pfm_smpl_switch_locked(struct pfm_context *ctx, struct pfm_event_set *prev,
			    struct pfm_event_set *next);

/* sw_hooks.c: the tracepoints the software unit needs while attached */
int pfm_sw_hooks_get(bool system_wide);
void pfm_sw_hooks_put(bool system_wide);
#define PFM_SW_NEED_SYSCALLS	0x1	/* the system call tracepoint */
#define PFM_SW_NEED_FAULTS	0x2	/* the page fault tracepoints */
int pfm_sw_needs_get(u32 bits);
void pfm_sw_needs_put(u32 bits);

/* stats.c: per-CPU statistics of the kernel's own work */
struct pfm_stats {
	u64 set_switches;		/* switches between two different sets */
	u64 set_switch_ns;		/* time spent in them */
	u64 set_switch_pmc_writes;	/* PMC writes they made */
	u64 set_switch_pmd_writes;	/* PMD writes they made */
	u64 overflows;			/* 64-bit overflows handled */
	u64 notifications;		/* overflows that masked monitoring */
};

DECLARE_PER_CPU(struct pfm_stats, pfm_stats);

/* Interrupts are off where these run, so a per-CPU add needs no atomic. */
#define pfm_stat_add(field, n)	__this_cpu_add(pfm_stats.field, (n))

#endif /* _PERFMON_ENV_H */
