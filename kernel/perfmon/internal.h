/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon core: the kernel headers every core file uses, and the locking rules.
 *
 * Every core file includes it, with the header of each core file it calls or whose
 * types it uses: each type lives in its owner's header (the context in ctx.h, sets
 * and their PMDs in sets.h, sampling buffers in smpl.h).  The portable core (the
 * files the host tests compile, see env.h) needs nothing else from the kernel than
 * the headers listed below, for which the host tests give small replacements
 * (tests/host/shim/), and the functions env.h declares.  The kernel-only files
 * include the kernel headers they need themselves.
 *
 * Locking, outermost first:
 *   ctx->mutex   serialises the calls made on one context (they may sleep), but
 *                for pfm_read_pmds(), which takes ctx->lock alone;
 *   ctx->lock    (raw, irq-safe) protects the state that the monitored thread's
 *                context-switch hooks, the exit hook and cross-CPU calls also touch:
 *                state, on_cpu, the active set and the saved register values;
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

/*
 * A slab cache of its own for a struct that many threads hold one of, where
 * kmalloc would round its size up: name, name##_init() (0 or -ENOMEM) and
 * name##_exit(), run when no object is left (each holds the module, directly
 * or through its context).
 */
#define PFM_DEFINE_CACHE(name, type)						\
	static struct kmem_cache *name;						\
	int name##_init(void)							\
	{									\
		name = KMEM_CACHE(type, 0);					\
		return name ? 0 : -ENOMEM;					\
	}									\
	void name##_exit(void)							\
	{									\
		kmem_cache_destroy(name);					\
		name = NULL;							\
	}

#endif /* _PERFMON_INTERNAL_H */
