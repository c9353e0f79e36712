/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the context, a monitoring session (internal.h says how it is locked),
 * and its lifetime (ctx.c).
 */
#ifndef _PERFMON_CTX_H
#define _PERFMON_CTX_H

#include "internal.h"
#include "smpl.h"

#define PFM_MSGS_COUNT		8	/* depth of a context's message queue */

enum pfm_state {
	PFM_CTX_UNLOADED,	/* not attached */
	PFM_CTX_LOADED,		/* attached to a thread (or a CPU) */
};

struct pfm_hook;
struct pfm_event_set;
struct pfm_smpl_sink;

/*
 * Small fields go in pairs and fours, so that the struct has no holes: a
 * monitored thread holds one, and so does each inheritor and perf target.
 */
struct pfm_context {
	refcount_t ref;			/* fd + attachment + in-flight users */
	kuid_t uid;			/* user charged for the context */
	struct mutex mutex;
	raw_spinlock_t lock;
	u32 flags;			/* PFM_FL_* */
	enum pfm_state state;
	bool started;
	bool timer_stale;		/* the timer (below) may be anywhere, does
					 * nothing (switch.c) */
	bool masked;			/* stopped by a notifying overflow until restart */
	bool restart_switch;		/* that overflow also completed a set switch */
	int on_cpu;			/* CPU the monitored thread (or the monitored CPU)
					 * runs on now, or -1: where the live state is */
	int last_cpu;			/* CPU the monitored thread last ran on */
	int cpu;			/* system-wide: the monitored CPU, or -1 */
	bool hw_wanted;			/* a register of a hardware unit was written */
	u8 pmu_type;			/* its type of CPU + 1, 0: none (pmu_type.h) */
	bool pmu_type_at_attach;	/* taken from the CPU attached to */
	bool hw_held;			/* the hardware, taken while attached (res.c;
					 * ctx->lock) */
	struct task_struct *task;	/* attached thread, or NULL */
	struct pfm_hook *hook;		/* its hook (thread.c), or NULL */
	struct list_head sets;		/* ordered by set id; set 0 always exists */
	struct pfm_event_set *active;	/* set on the PMU when started */
	u64 live_since_ns;		/* when the active set last became live */
	u64 live_ns;			/* live time of all sets together: the time
					 * base of the set switch log (smpl.h) */
	struct hrtimer timer;		/* the active set's switch timeout */
	u64 timer_at_ns;		/* its expiry on pfm_clock_ns()'s clock */
	u64 nr_switches;		/* set switches done by the kernel */

	struct pfm_smpl_buf smpl;	/* set at creation, freed at the last close */
	raw_spinlock_t smpl_lock;	/* a shared buffer's appends and drains (smpl.h);
					 * inside any context's lock */
	bool upage_hw;			/* the counts page shows hardware counters
					 * (upage.c) */
	bool keep_claims;		/* the next detach keeps what the attachment
					 * holds: a reattach (state.c; ctx->lock) */
	u8 msgq_head;			/* the message queue's (below), ctx->lock */
	u8 msgq_count;
	const struct pfm_smpl_sink *sink;	/* samples without a buffer (layer.h;
						 * ctx->lock) */
	void *sink_data;
	struct pfm_counts_page *upage;	/* the counts page, from its first mmap (ctx->lock
					 * to set; freed with the context) */
	u32 unit_wants[PFM_MAX_UNITS];	/* needs of every PMC value written (pmu.h) */
	u32 unit_held[PFM_MAX_UNITS];	/* taken while attached (ctx->lock) */
	struct irq_work wake_work;	/* wakes readers up from any context (msg.c) */
	wait_queue_head_t restart_wait;	/* PFM_FL_NOTIFY_BLOCK: the held thread */
	struct fasync_struct *fasync;	/* SIGIO owners */
	wait_queue_head_t msgq_wait;
	/*
	 * PFM_MSGS_COUNT messages for read(), or NULL for a context no fd reads
	 * (pfm_context_alloc_unread()): what would be queued there is dropped
	 */
	union pfarg_msg *msgq;
};

static inline bool pfm_ctx_system_wide(const struct pfm_context *ctx)
{
	return ctx->flags & PFM_FL_SYSTEM_WIDE;
}

static inline bool pfm_ctx_is_loaded(const struct pfm_context *ctx)
{
	return READ_ONCE(ctx->state) == PFM_CTX_LOADED;
}

int pfm_ctx_cache_init(void);
void pfm_ctx_cache_exit(void);
int pfm_check_create_flags(u32 flags);
struct pfm_context *pfm_context_alloc(u32 flags);
struct pfm_context *pfm_context_alloc_unread(u32 flags);
void pfm_context_put(struct pfm_context *ctx);

/* The caller already holds a reference (or a lock that keeps one alive). */
static inline void pfm_context_get(struct pfm_context *ctx)
{
	refcount_inc(&ctx->ref);
}

/*
 * The parts of a context that a layer on the core (layer.h) works with, for code
 * outside the core: its locks (internal.h says what each protects), its sampling
 * buffer, the wait queue of its readers, and its sets' live time together.
 */
static inline struct mutex *pfm_ctx_mutex(struct pfm_context *ctx)
{
	return &ctx->mutex;
}

static inline raw_spinlock_t *pfm_ctx_lock(struct pfm_context *ctx)
{
	return &ctx->lock;
}

static inline struct pfm_smpl_buf *pfm_ctx_smpl(struct pfm_context *ctx)
{
	return &ctx->smpl;
}

static inline wait_queue_head_t *pfm_ctx_msg_wait(struct pfm_context *ctx)
{
	return &ctx->msgq_wait;
}

/*
 * The thread it is attached to, with a reference for the caller to put, or NULL.
 * The thread's exit detaches it under ctx->lock alone, not ctx->mutex: a caller
 * holding the mutex, right after the attach, may find it gone already, and
 * only while ctx->lock is held does the attachment's own reference keep it.
 */
static inline struct task_struct *pfm_ctx_get_task(struct pfm_context *ctx)
{
	struct task_struct *task;
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	task = ctx->task;
	if (task)
		get_task_struct(task);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return task;
}

static inline u64 pfm_ctx_live_ns(const struct pfm_context *ctx)
{
	return ctx->live_ns;
}

#endif /* _PERFMON_CTX_H */
