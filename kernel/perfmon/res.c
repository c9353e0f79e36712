// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: sessions and per-user limits.
 *
 * A CPU has at most one CPU (system-wide) session.  Per-thread sessions and CPU
 * sessions coexist: the software unit has a bank of counters for each kind on
 * every CPU (sw_pmu.c).  The hardware counters are one set per CPU, which a CPU
 * session and the session of a thread running there would share, so for them
 * perfmon2's rule holds: a session holds the hardware while attached if it ever
 * wrote a register of a hardware unit, and sessions of the two kinds never hold
 * it at once, machine-wide (a thread may run on any CPU).  Taking it fails with
 * EBUSY: at the load of a context that wrote such a register, or at the write
 * of the first such register to a loaded one.
 *
 * Each user may hold at most /sys/kernel/perfmon/ctx_per_user_max contexts (EMFILE
 * beyond); perfmon-capable users are not limited.
 */
#include <linux/cred.h>
#include <linux/hashtable.h>
#include <linux/percpu.h>

#include "internal.h"
#include "ctx.h"
#include "env.h"
#include "res.h"

unsigned long pfm_ctx_per_user_max = 1024;

static DEFINE_RAW_SPINLOCK(pfm_res_lock);
static unsigned int pfm_task_sessions;
static unsigned int pfm_sys_sessions;
static unsigned int pfm_hw_sessions[2];	/* holding the hardware: [system_wide] */
static unsigned int pfm_contexts;	/* of every user */
static DEFINE_PER_CPU(struct pfm_context *, pfm_cpu_ctx);

struct pfm_user_count {
	struct hlist_node node;
	kuid_t uid;
	unsigned int count;
};

static DEFINE_HASHTABLE(pfm_users, 6);

static struct pfm_user_count *pfm_user_find(kuid_t uid)
{
	struct pfm_user_count *u;

	hash_for_each_possible(pfm_users, u, node, __kuid_val(uid))
		if (uid_eq(u->uid, uid))
			return u;
	return NULL;
}

int pfm_res_ctx_charge(struct pfm_context *ctx)
{
	struct pfm_user_count *u, *fresh;
	unsigned long flags;
	int ret = 0;

	ctx->uid = current_uid();
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return -ENOMEM;
	raw_spin_lock_irqsave(&pfm_res_lock, flags);
	u = pfm_user_find(ctx->uid);
	if (!u) {
		u = fresh;
		fresh = NULL;
		u->uid = ctx->uid;
		hash_add(pfm_users, &u->node, __kuid_val(u->uid));
	}
	if (u->count >= READ_ONCE(pfm_ctx_per_user_max) && !perfmon_capable())
		ret = -EMFILE;
	else
		u->count++, pfm_contexts++;
	if (!u->count) {
		hash_del(&u->node);
		fresh = u;
	}
	raw_spin_unlock_irqrestore(&pfm_res_lock, flags);
	kfree(fresh);
	return ret;
}

/* May run in atomic context (the last reference can go in the exit hook). */
void pfm_res_ctx_uncharge(struct pfm_context *ctx)
{
	struct pfm_user_count *u, *dead = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_res_lock, flags);
	u = pfm_user_find(ctx->uid);
	pfm_contexts--;
	if (!WARN_ON_ONCE(!u) && !--u->count) {
		hash_del(&u->node);
		dead = u;
	}
	raw_spin_unlock_irqrestore(&pfm_res_lock, flags);
	kfree(dead);
}

/* cpu < 0: a per-thread session. */
int pfm_res_session_get(struct pfm_context *ctx, int cpu)
{
	unsigned long flags;
	int ret = 0;

	raw_spin_lock_irqsave(&pfm_res_lock, flags);
	if (cpu < 0) {
		pfm_task_sessions++;
	} else {
		if (per_cpu(pfm_cpu_ctx, cpu)) {
			ret = -EBUSY;
		} else {
			per_cpu(pfm_cpu_ctx, cpu) = ctx;
			pfm_sys_sessions++;
		}
	}
	raw_spin_unlock_irqrestore(&pfm_res_lock, flags);
	return ret;
}

void pfm_res_session_put(struct pfm_context *ctx, int cpu)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_res_lock, flags);
	if (cpu < 0) {
		pfm_task_sessions--;
	} else {
		WARN_ON_ONCE(per_cpu(pfm_cpu_ctx, cpu) != ctx);
		per_cpu(pfm_cpu_ctx, cpu) = NULL;
		pfm_sys_sessions--;
	}
	raw_spin_unlock_irqrestore(&pfm_res_lock, flags);
}

/* The hardware for ctx, of the kind it is, while no session of the other kind has it. */
int pfm_res_hw_get(struct pfm_context *ctx)
{
	bool system_wide = pfm_ctx_system_wide(ctx);
	unsigned long flags;
	int ret = 0;

	raw_spin_lock_irqsave(&pfm_res_lock, flags);
	if (pfm_hw_sessions[!system_wide])
		ret = -EBUSY;
	else
		pfm_hw_sessions[system_wide]++;
	raw_spin_unlock_irqrestore(&pfm_res_lock, flags);
	return ret;
}

/* Atomic context allowed (a thread's exit). */
void pfm_res_hw_put(struct pfm_context *ctx)
{
	bool system_wide = pfm_ctx_system_wide(ctx);
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_res_lock, flags);
	if (!WARN_ON_ONCE(!pfm_hw_sessions[system_wide]))
		pfm_hw_sessions[system_wide]--;
	raw_spin_unlock_irqrestore(&pfm_res_lock, flags);
}

/* The CPU session of cpu, referenced, or NULL. */
struct pfm_context *pfm_res_cpu_ctx_get(int cpu)
{
	struct pfm_context *ctx;
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_res_lock, flags);
	ctx = per_cpu(pfm_cpu_ctx, cpu);
	if (ctx)
		pfm_context_get(ctx);
	raw_spin_unlock_irqrestore(&pfm_res_lock, flags);
	return ctx;
}

unsigned int pfm_res_task_sessions(void)
{
	return READ_ONCE(pfm_task_sessions);
}

unsigned int pfm_res_sys_sessions(void)
{
	return READ_ONCE(pfm_sys_sessions);
}

unsigned int pfm_res_contexts(void)
{
	return READ_ONCE(pfm_contexts);
}
