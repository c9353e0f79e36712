// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: context allocation, reference counting and creation flags.
 */
#include "internal.h"
#include "ctx.h"
#include "env.h"
#include "flag_ops.h"
#include "pmu_type.h"
#include "sets.h"
#include "switch.h"

#define PFM_FL_ALL	(PFM_FL_NOTIFY_BLOCK | PFM_FL_SYSTEM_WIDE | PFM_FL_SMPL_FMT | \
			 PFM_FL_OVFL_NO_MSG | PFM_FL_CLOEXEC | PFM_FL_PMU_TYPE_MASK)

/* a context is some 430 bytes, which kmalloc would round up to 512 */
PFM_DEFINE_CACHE(pfm_ctx_cache, pfm_context)

int pfm_check_create_flags(u32 flags)
{
	u8 type;
	int ret;

	/* a layer's flag only while the layer serves it (flag_ops.c) */
	if (flags & ~(PFM_FL_ALL | pfm_flags_served()))
		return -EINVAL;
	/* A CPU has no single thread to block. */
	if ((flags & PFM_FL_SYSTEM_WIDE) && (flags & PFM_FL_NOTIFY_BLOCK))
		return -EINVAL;
	ret = pfm_flag_ops_check(flags);
	if (ret)
		return ret;
	return pfm_pmu_type_of_flags(flags, &type);
}

/* A new context, charged to the calling user, or an ERR_PTR; msgs: its message queue. */
static struct pfm_context *pfm_context_make(u32 flags, bool msgs)
{
	struct pfm_context *ctx;
	struct pfm_event_set *set0;
	int ret = -ENOMEM;

	/* Every context pins the module: its hooks may outlive the fd. */
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-ENODEV);
	ctx = kmem_cache_zalloc(pfm_ctx_cache, GFP_KERNEL);
	if (!ctx)
		goto err_module;
	if (msgs) {
		ctx->msgq = kmalloc_array(PFM_MSGS_COUNT, sizeof(*ctx->msgq), GFP_KERNEL);
		if (!ctx->msgq)
			goto err_ctx;
	}
	set0 = pfm_set_alloc(0, flags & PFM_FL_SYSTEM_WIDE);
	if (!set0)
		goto err_ctx;
	ret = pfm_res_ctx_charge(ctx);
	if (ret)
		goto err_set;
	refcount_set(&ctx->ref, 1);
	mutex_init(&ctx->mutex);
	raw_spin_lock_init(&ctx->lock);
	raw_spin_lock_init(&ctx->smpl_lock);
	init_waitqueue_head(&ctx->msgq_wait);
	init_waitqueue_head(&ctx->restart_wait);
	pfm_msg_init(ctx);
	INIT_LIST_HEAD(&ctx->sets);
	list_add(&set0->list, &ctx->sets);
	ctx->flags = flags & ~PFM_FL_CLOEXEC;
	ctx->state = PFM_CTX_UNLOADED;
	ctx->on_cpu = -1;
	ctx->last_cpu = -1;
	ctx->cpu = -1;
	/* the flags were checked: the type is one the machine has */
	pfm_pmu_type_of_flags(flags, &ctx->pmu_type);
	pfm_timer_init(ctx);
	return ctx;

err_set:
	pfm_set_free(set0);
err_ctx:
	kfree(ctx->msgq);
	kmem_cache_free(pfm_ctx_cache, ctx);
err_module:
	module_put(THIS_MODULE);
	return ERR_PTR(ret);
}

/* A context for a file descriptor of pfm_create_context(2): read() takes its messages. */
struct pfm_context *pfm_context_alloc(u32 flags)
{
	return pfm_context_make(flags, true);
}

/*
 * A context that no file descriptor will read (a layer's own, layer.h): without
 * the message queue, which is half of what it would otherwise take.
 */
struct pfm_context *pfm_context_alloc_unread(u32 flags)
{
	return pfm_context_make(flags, false);
}

/* The last reference can go from atomic context (the exit hook): only memory is freed. */
void pfm_context_put(struct pfm_context *ctx)
{
	if (!refcount_dec_and_test(&ctx->ref))
		return;
	WARN_ON_ONCE(ctx->state == PFM_CTX_LOADED);
	pfm_timer_exit(ctx);
	pfm_free_sets(ctx);
	if (ctx->upage)
		pfm_upage_free(ctx->upage);
	pfm_res_ctx_uncharge(ctx);
	mutex_destroy(&ctx->mutex);
	kfree(ctx->msgq);
	kmem_cache_free(pfm_ctx_cache, ctx);
	module_put(THIS_MODULE);
}
