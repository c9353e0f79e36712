/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: what a layer on the core may use of it, and all it may use.
 *
 * A layer (the perf_event_open one is kernel/perfmon/perf/) is built with the core
 * or not at all, and the core never calls into it: the layer registers what it
 * offers through the core's hooks from its init, and takes them back in its exit:
 *   - a row of the entry table (entry.h: pfm_entry_register());
 *   - a sampling format, and how its buffers are charged (smpl.h);
 *   - a thread's exit and exec (struct pfm_task_ops below);
 *   - a context flag it serves (struct pfm_flag_ops below);
 *   - knobs and counts in /sys/kernel/perfmon/, as an attribute group of its own
 *     (sysfs.h).
 * The build lists the layers it links (Kbuild: PFM_LAYERS), and main.c runs their
 * init after the core's own and before the door opens, their exit in reverse.
 *
 * Beside the hooks, a layer works on contexts as a user of the calls would, with
 * the same functions the doors call (vectors in kernel memory), and reads what the
 * overflow path gives it: the types of ctx.h (through its accessors), sets.h,
 * smpl.h and pmu.h.  The functions declared here are defined in the core files
 * named; each core header that owns one includes this file in its stead.
 */
#ifndef _PERFMON_LAYER_H
#define _PERFMON_LAYER_H

#include <linux/file.h>

#include "ctx.h"
#include "entry.h"
#include "pmu.h"
#include "sets.h"
#include "smpl.h"
#include "sysfs.h"

/* A layer's init and exit: what init did, exit undoes; init undoes its own failures. */
struct pfm_layer {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
};

/* state.c: attaching and starting (ctx->mutex held) */
long pfm_load(struct pfm_context *ctx, u32 flags, u64 target);
long pfm_reattach_task(struct pfm_context *ctx, struct task_struct *task,
		       void (*fn)(struct pfm_context *ctx, void *arg), void *arg);
long pfm_unload(struct pfm_context *ctx, u32 flags);
long pfm_start(struct pfm_context *ctx, u32 flags, u64 arg);

/*
 * pmu_type.c: a per-thread context, not yet attached, counts on every type of
 * CPU (uapi perfmon.h, CPU TYPES) rather than its default type: every type's
 * registers are its own, and it goes live on every CPU.  The layer keeps
 * each counter off on the CPUs whose type it is not for (a counter the CPU
 * lacks stays off there whatever it is given).
 */
void pfm_ctx_every_type(struct pfm_context *ctx);

/* rw.c: writing and reading registers; ctx->mutex held but for a read */

/* A request's number, set and flags, laid out as in it: one word to fetch */
union pfm_pmd_head {
	struct {
		u16 num;	/* reg_num */
		u16 set_id;	/* reg_set */
		u32 flags;	/* reg_flags */
	};
	u64 word;
};

/*
 * What a read takes of a struct pfarg_pmd and gives back: the door copies these
 * fields only (rw_user.c), not the whole request.  Whoever fills one in has
 * checked that the request's reserved field is zero.
 */
struct pfm_pmd_read {
	union pfm_pmd_head h;
	u64 value;			/* out: reg_value */
	u64 last_reset_val;		/* out: reg_last_reset_val */
	u64 ovfl_switch_cnt;		/* out: reg_ovfl_switch_cnt */
};

/* vectors of n struct pfarg_pmc / pfarg_pmd in kernel memory */
long pfm_write_pmcs(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_write_pmds(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_read_pmds(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_read_pmd_vec(struct pfm_context *ctx, struct pfm_pmd_read *rd, unsigned int n);
/* A write or a read that takes clock (sets.h), if any, after it and in the same visit. */
long pfm_read_pmd_vec_clocked(struct pfm_context *ctx, struct pfm_pmd_read *rd,
			      unsigned int n, struct pfm_op_clock *clock);
long pfm_write_pmcs_clocked(struct pfm_context *ctx, void *vec, unsigned int n,
			    struct pfm_op_clock *clock);

/*
 * pmu_state.c: a PMD's 64-bit value, where the state is (ctx->lock held).  A value
 * set goes on from the old one (a carry of the old one is still acted on); a value
 * replaced starts afresh.
 */
u64 pfm_pmd_value(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int i);
void pfm_pmd_set_value(struct pfm_context *ctx, struct pfm_event_set *set,
		       unsigned int i, u64 value);
void pfm_pmd_replace_value(struct pfm_context *ctx, struct pfm_event_set *set,
			   unsigned int i, u64 value);
/* the same for a PMC the context wrote: its value changed, no checks */
void pfm_pmc_set_value(struct pfm_context *ctx, struct pfm_event_set *set,
		       unsigned int i, u64 value);

/* remote.c: running an operation where the state lives, and the clock */
typedef void (*pfm_state_fn)(struct pfm_context *ctx, void *arg);
void pfm_run_on_state(struct pfm_context *ctx, pfm_state_fn fn, void *arg);
u64 pfm_clock_ns(void);
/*
 * The time from since to now, 0 if now is the earlier: a context switch's stamps
 * are the scheduler's (thread.c), which may be a little older or newer than a
 * reading of ours, and no interval may count backwards.
 */
static inline u64 pfm_ns_since(u64 since, u64 now)
{
	return (s64)(now - since) > 0 ? now - since : 0;
}
/* How long the active set has been live, now (ctx->lock held, on the live CPU). */
static inline u64 pfm_live_elapsed(const struct pfm_context *ctx)
{
	return pfm_ns_since(ctx->live_since_ns, pfm_clock_ns());
}
/* where the current thread is in user mode, for messages and samples */
u64 pfm_user_ip(void);

/* ovfl.c: the PMU interrupt of the overflow being handled here, or NULL (pmu.h) */
const struct pfm_ovfl_where *pfm_overflow_where(void);

/* sw_pmu.c: the address of the software event being counted now (a fault's) */
u64 pfm_sw_event_addr(void);

/*
 * sw_pmu.c: a hit of a keyed software event (perfmon_sw.h: TRACEPOINT, BREAKPOINT)
 * in the current thread, from its source: n more for the counters of event whose
 * PMC has key, at level (PFM_SW_PMC_USR or PFM_SW_PMC_OS), in the thread's session
 * and the CPU's, as the core's own events count; at: where it happened, for the
 * overflow message and sample (NULL: the current thread's user state).  Preemption
 * off, no context's lock held.
 */
void pfm_sw_count_keyed(unsigned int event, u32 key, u64 n, u64 level,
			const struct pfm_ovfl_where *at);

/*
 * sw_keyed.c: what a source hands a sampling format with the hit it counts (a trace
 * event's record, for perf's PERF_SAMPLE_RAW), on this CPU: the source swaps its
 * own in before pfm_sw_count_keyed() and swaps the saved one back after, so that a
 * hit inside another (an interrupt) leaves the outer one's in place.  A format reads
 * it during the overflow: NULL and size 0 when the event has none.
 */
struct pfm_sw_payload {
	const void *data;
	u32 size;
};
void pfm_sw_payload_swap(struct pfm_sw_payload *p);
const void *pfm_sw_event_payload(u32 *size);

/*
 * sw_keyed.c: the source of a keyed event.  get() is called by a PMC write whose
 * value has event and key (process context, ctx->mutex held; it may sleep), before
 * the write changes anything: 0, or the errno the write returns (ENOENT: no such
 * key).  put() gives one back when that value is gone from its set (replaced,
 * the set deleted, the context closed), in any context: it must not sleep.  Each
 * value holds one; a source attaches to what it watches at its first hold and
 * lets go after the last.  A PMC value that pfm_pmc_set_value() changes keeps its
 * event and key.  One source per event: a second is -EBUSY.
 */
struct pfm_sw_keyed_ops {
	int (*get)(unsigned int event, u32 key);
	void (*put)(unsigned int event, u32 key);
	/* optional: a key for key's hits that pass filter, held once (may sleep) */
	int (*filter)(unsigned int event, u32 key, const char *filter, u32 *fkey);
	/*
	 * optional: 1 if any user may have key's payloads of their own threads'
	 * hits, 0 if only the privileged may, or the errno of a key that names
	 * nothing (may sleep)
	 */
	int (*any_user)(unsigned int event, u32 key);
};
int pfm_sw_keyed_register(unsigned int event, const struct pfm_sw_keyed_ops *ops);
void pfm_sw_keyed_unregister(unsigned int event, const struct pfm_sw_keyed_ops *ops);

/*
 * sw_keyed.c: for a layer that narrows what a keyed event counts (the perf layer's
 * PERF_EVENT_IOC_SET_FILTER): *fkey, a key whose hits are key's that pass filter,
 * in the source's language (a trace event's filter for TRACEPOINT), held once
 * until pfm_sw_keyed_put(); a PMC value may name it as any key.  0, ENOENT with
 * no source, EOPNOTSUPP with a source that does not filter, or the source's errno
 * (a bad filter).  Process context.
 */
int pfm_sw_keyed_filter(unsigned int event, u32 key, const char *filter, u32 *fkey);
void pfm_sw_keyed_put(unsigned int event, u32 key);

/*
 * sw_keyed.c: for a layer that hands payloads to users (the perf layer's
 * PERF_SAMPLE_RAW): the source's any_user() (1, 0 or the errno of a key that
 * names nothing); 0 with no source or a source that does not say.  Process
 * context.
 */
int pfm_sw_keyed_any_user(unsigned int event, u32 key);

/* sw_hooks.c: the kernel's tracepoint of that name, or NULL (a module cannot take its symbol) */
struct tracepoint;
struct tracepoint *pfm_tracepoint(const char *name);

/* paranoid.c: the paranoid level in effect, -1..3 (perf_event_paranoid's levels) */
int pfm_paranoid_level(void);

/* access.c: who may do what */
int pfm_access_create(u32 flags);
int pfm_access_pmc(const struct pfm_regdesc *desc, u64 value);

/* file.c: the context of fd, its file held in *f (fdput()), or ERR_PTR(-EBADF) */
struct pfm_context *pfm_ctx_fdget(int fd, struct fd *f);

/* thread.c: the thread of that id, held, or NULL */
struct task_struct *pfm_find_task(pid_t tid);

/*
 * thread.c: what a layer learns of a thread's life, from the core's own exit and
 * exec probes, in that thread and in atomic context: exit before the core ends the
 * thread's attachments (their counts are still there to fold), exec after it has
 * applied the attach rule again (an attachment that stands is the new image's).
 * Several layers may follow threads, each with its ops (either may be NULL), run in
 * the order they were set; the same ops twice, or more layers than the core has
 * room for (four), is -EBUSY.
 */
struct pfm_task_ops {
	void (*exit)(struct task_struct *task);
	void (*exec)(struct task_struct *task);
};
int pfm_thread_ops_set(const struct pfm_task_ops *ops);
void pfm_thread_ops_clear(const struct pfm_task_ops *ops);

/*
 * flag_ops.c: a pfm_create_context() flag a layer serves (one bit that is none of
 * the core's): the core accepts it while the layer is registered and runs its ops
 * on each context created with it, with ctx->mutex held:
 *   check   a create's flags that include it: 0 or the errno the create returns,
 *           before anything is made;
 *   loaded  after a load succeeded: an error undoes the load and is the load's;
 *   unload  before an unload (a close's too) detaches;
 *   start   after a start (not a restart) succeeded, with its flags and set;
 *   stop    after a stop succeeded;
 *   close   at the fd's last close, after its unload, loaded or not (the
 *           monitored thread's exit detaches without an unload);
 *   read    after a user's pfm_read_pmds() read the context's n values into rd,
 *           before they go back, with no lock held (process context): it may
 *           add to the values.  A context whose flag has a read op is always
 *           read the long way (rw_user.c).
 *   setinfo after pfm_getinfo_evtsets() filled its n entries: it may add to
 *           their set_act_duration.
 *   pmcs    after a pfm_write_pmcs() of n requests in vec (kernel memory, as
 *           applied) succeeded, whoever called it.
 * Each op may be NULL.  A second layer for the same flag is -EBUSY.
 */
struct pfm_flag_ops {
	u32 flag;
	int (*check)(u32 flags);
	int (*loaded)(struct pfm_context *ctx);
	void (*unload)(struct pfm_context *ctx);
	void (*start)(struct pfm_context *ctx, u32 flags, u64 arg);
	void (*stop)(struct pfm_context *ctx);
	void (*close)(struct pfm_context *ctx);
	void (*read)(struct pfm_context *ctx, struct pfm_pmd_read *rd, unsigned int n);
	void (*setinfo)(struct pfm_context *ctx, struct pfarg_setinfo *req, unsigned int n);
	void (*pmcs)(struct pfm_context *ctx, const struct pfarg_pmc *vec, unsigned int n);
};
int pfm_flag_ops_register(const struct pfm_flag_ops *ops);
void pfm_flag_ops_unregister(const struct pfm_flag_ops *ops);

/*
 * smpl_fmt.c: a sample sink, where a context without a buffer of its own puts
 * the samples of its PFM_PMDFL_SMPL PMDs (which it then accepts): record() runs
 * at each such overflow, with ctx->lock held and interrupts off, in the thread
 * that overflowed; the PMD takes its short reset after it, never masked.  Set
 * (or cleared, NULL) under ctx->mutex while ctx is not loaded, or cleared while
 * it is: the core takes ctx->lock for it, so no record() runs after.
 */
struct pfm_smpl_sink {
	void (*record)(void *data, struct pfm_context *ctx, struct pfm_event_set *set,
		       unsigned int pmd);
};
void pfm_ctx_set_sink(struct pfm_context *ctx, const struct pfm_smpl_sink *sink, void *data);

/*
 * smpl_fmt.c: a sample of ctx's (set, pmd) into owner's shared buffer (smpl.h),
 * from a sink (ctx->lock held): true the first time since the reader's last
 * drain that it is full, when the layer tells owner's reader (pfm_msg_post()).
 */
bool pfm_smpl_append(struct pfm_context *owner, struct pfm_context *ctx,
		     struct pfm_event_set *set, unsigned int pmd);

/*
 * msg.c: an overflow message msg queued on ctx and its readers woken, as a
 * notification of ctx's own queues it but without masking ctx (dropped with
 * PFM_FL_OVFL_NO_MSG or a full queue); no context's lock held, any context.
 */
void pfm_msg_post(struct pfm_context *ctx, const union pfarg_msg *msg);

/* state.c: stop monitoring (ctx->mutex held) */
long pfm_stop(struct pfm_context *ctx, u32 flags);

#endif /* _PERFMON_LAYER_H */
