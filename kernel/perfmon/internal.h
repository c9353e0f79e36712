/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon core: types shared by the core files.
 *
 * This is the only header the core files include, and the list of kernel headers
 * below is the whole of what the core needs from the kernel: the host unit tests
 * (tests/host/) provide a small replacement for each of them.
 *
 * Locking, outermost first:
 *   ctx->mutex   serialises the calls made on one context (they may sleep);
 *   ctx->lock    (raw, irq-safe) protects the state that the monitored thread's
 *                context-switch hooks, the exit hook and cross-CPU calls also touch:
 *                state, live_cpu, the active set and the saved register values.
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
	u64 smpl_eventid;
	u64 random_mask;
	u64 reset_pmds[PFM_PMD_BV];
	u64 smpl_pmds[PFM_PMD_BV];
};

/* An event set: the whole software image of the PMU. */
struct pfm_event_set {
	struct list_head list;		/* in ctx->sets, ordered by id */
	u16 id;
	u32 flags;			/* PFM_SETFL_* */
	u64 timeout_ns;			/* effective switch timeout */
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
	struct pfm_pmd *pmds;		/* [pfm_pmu.num_pmd_slots] */
};

struct pfm_hook;
struct pfm_smpl_fmt;
struct user_struct;

/* A context's sampling buffer (smpl.h); addr is NULL without a format. */
struct pfm_smpl_buf {
	const struct pfm_smpl_fmt *fmt;	/* holds a reference on the format's module */
	void *addr;			/* vmalloc_user() memory */
	size_t size;			/* a page multiple */
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
	struct hrtimer timer;		/* the active set's switch timeout */
	u64 nr_switches;		/* set switches done by the kernel */

	struct pfm_smpl_buf smpl;	/* set at creation, freed at the last close */
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

/* ctx.c */
struct pfm_context *pfm_context_alloc(u32 flags);
void pfm_context_get(struct pfm_context *ctx);
void pfm_context_put(struct pfm_context *ctx);
int pfm_check_create_flags(u32 flags);

/* access.c: who may do what */
extern int pfm_paranoid;
extern int pfm_sys_group;
extern int pfm_task_group;
int pfm_access_create(u32 flags);
int pfm_access_task(struct task_struct *task);
int pfm_access_pmc(const struct pfm_regdesc *desc, u64 value);

/* res.c: sessions and per-user limits */
extern unsigned long pfm_ctx_per_user_max;
int pfm_res_ctx_charge(struct pfm_context *ctx);
void pfm_res_ctx_uncharge(struct pfm_context *ctx);
int pfm_res_session_get(struct pfm_context *ctx, int cpu);
void pfm_res_session_put(struct pfm_context *ctx, int cpu);
struct pfm_context *pfm_res_cpu_ctx_get(int cpu);
unsigned int pfm_res_task_sessions(void);
unsigned int pfm_res_sys_sessions(void);

/* smpl_fmt.c: the context's sampling format at an overflow and at a restart */
bool pfm_smpl_record_locked(struct pfm_context *ctx, struct pfm_event_set *set,
			    unsigned int pmd);
void pfm_smpl_restart_locked(struct pfm_context *ctx);

/* msg.c */
u64 pfm_user_ip(void);
void pfm_msg_init(struct pfm_context *ctx);
void pfm_msg_end(struct pfm_context *ctx, struct task_struct *task);
void pfm_msg_ovfl_locked(struct pfm_context *ctx, const unsigned long *ovfl);

/* sets.c */
struct pfm_event_set *pfm_set_alloc(u16 id);
void pfm_set_free(struct pfm_event_set *set);
struct pfm_event_set *pfm_find_set(struct pfm_context *ctx, u16 id);
struct pfm_event_set *pfm_first_set(struct pfm_context *ctx);
struct pfm_event_set *pfm_next_set(struct pfm_context *ctx, struct pfm_event_set *set);
void pfm_free_sets(struct pfm_context *ctx);
/* vectors of n struct pfarg_setdesc (create, delete) / pfarg_setinfo (getinfo) */
long pfm_create_evtsets(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_delete_evtsets(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_getinfo_evtsets(struct pfm_context *ctx, void *vec, unsigned int n);

/* switch.c: going live, leaving, switching sets */
void pfm_live_in(struct pfm_context *ctx);
void pfm_live_out(struct pfm_context *ctx);
bool pfm_sched_in_locked(struct pfm_context *ctx, int cpu);
void pfm_sched_out_locked(struct pfm_context *ctx);
void pfm_set_activate(struct pfm_context *ctx, struct pfm_event_set *set);
void pfm_switch_locked(struct pfm_context *ctx, struct pfm_event_set *next);
void pfm_timer_init(struct pfm_context *ctx);
u64 pfm_timer_resolution_ns(void);

/* ovfl.c */
void pfm_overflow_locked(struct pfm_context *ctx, const struct pfm_pmu_unit *unit, u64 bits);
void pfm_overflow_pending_locked(struct pfm_context *ctx);
struct pfm_event_set *pfm_overflow_restart_locked(struct pfm_context *ctx);
void pfm_overflow_unmask_locked(struct pfm_context *ctx);

/* args.c: vector arguments */
extern unsigned long pfm_arg_mem_max;
void *pfm_vec_copy_in(const void __user *uptr, u64 size, size_t elem);
int pfm_vec_copy_out(void __user *uptr, const void *kbuf, u64 size);

/* rw.c: vectors of n struct pfarg_pmc / pfarg_pmd */
long pfm_write_pmcs(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_write_pmds(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_read_pmds(struct pfm_context *ctx, void *vec, unsigned int n);

/* state.c: attach, detach, start, stop */
long pfm_load(struct pfm_context *ctx, u32 flags, u64 target);
long pfm_unload(struct pfm_context *ctx, u32 flags);
long pfm_start(struct pfm_context *ctx, u32 flags, u64 arg);
long pfm_stop(struct pfm_context *ctx, u32 flags);
void pfm_unload_locked(struct pfm_context *ctx);
void pfm_detach_release(struct pfm_context *ctx);
void pfm_detach_cpu(struct pfm_context *ctx);

/* pmu_state.c: moving a set between memory and the PMU */
void pfm_set_restore(struct pfm_event_set *set);
void pfm_set_save(struct pfm_event_set *set);
void pfm_set_swap(struct pfm_event_set *from, struct pfm_event_set *to);
bool pfm_pmd_sync(struct pfm_event_set *set, unsigned int i);
void pfm_pmd_load(struct pfm_event_set *set, unsigned int i);
DECLARE_PER_CPU(struct pfm_context *, pfm_pmu_owner);
void pfm_pmu_enable(struct pfm_context *ctx);
void pfm_pmu_disable(void);
u64 pfm_pmd_value(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int i);
void pfm_pmd_set_value(struct pfm_context *ctx, struct pfm_event_set *set,
		       unsigned int i, u64 value);
void pfm_pmc_update(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int i);

/*
 * Environment (thread.c and remote.c in the kernel, a recording stub in the host
 * tests): attaching to a thread, running an operation where the state lives, and the
 * clock.
 */
struct task_struct *pfm_find_task(pid_t tid);
int pfm_env_attach(struct pfm_context *ctx, struct task_struct *task);
long pfm_env_detach(struct pfm_context *ctx);
void pfm_env_block(struct pfm_context *ctx);
void pfm_env_unblock(struct pfm_context *ctx);
typedef void (*pfm_state_fn)(struct pfm_context *ctx, void *arg);
void pfm_run_on_state(struct pfm_context *ctx, pfm_state_fn fn, void *arg);
u64 pfm_clock_ns(void);

/* sw_pmu.c, sw_hooks.c */
extern const struct pfm_pmu_unit pfm_sw_unit;
void pfm_sw_count(unsigned int event, u64 n);
void pfm_sw_count_kernel(unsigned int event, u64 n);
void pfm_sw_count_cpu(unsigned int event, u64 n);
void pfm_sw_migration_to(int cpu);
int pfm_sw_hooks_get(bool system_wide);
void pfm_sw_hooks_put(bool system_wide);
#define PFM_SW_NEED_SYSCALLS	0x1	/* the system call tracepoint */
int pfm_sw_needs_get(u32 bits);
void pfm_sw_needs_put(u32 bits);
bool pfm_sw_syscall_hook_on(void);
int pfm_sw_hooks_init(void);
void pfm_sw_hooks_exit(void);

static inline bool pfm_ctx_system_wide(const struct pfm_context *ctx)
{
	return ctx->flags & PFM_FL_SYSTEM_WIDE;
}

static inline bool pfm_ctx_is_loaded(const struct pfm_context *ctx)
{
	return ctx->state == PFM_CTX_LOADED;
}

#endif /* _PERFMON_INTERNAL_H */
