// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: sessions and per-user limits.
 *
 * A CPU (system-wide) session and a per-thread session would share the PMU of that
 * CPU, so the two kinds are exclusive machine-wide, as in perfmon2: a load of one
 * kind fails with EBUSY while a session of the other kind is attached.  A CPU has at
 * most one CPU session.
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
		if (pfm_sys_sessions)
			ret = -EBUSY;
		else
			pfm_task_sessions++;
	} else {
		if (pfm_task_sessions || per_cpu(pfm_cpu_ctx, cpu)) {
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
