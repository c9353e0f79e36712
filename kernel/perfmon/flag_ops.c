// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: context flags served by a layer (layer.h: struct pfm_flag_ops).
 *
 * pfm_create_context() accepts such a flag only while a layer serves it, so a
 * core built without that layer refuses it with EINVAL as it refuses any unknown
 * flag.  The ops of a context's flags then run beside the core's own load, unload,
 * start, stop and close of it, under ctx->mutex.  Layers register before the door
 * opens and unregister after it closed and every context is gone (each pins the
 * module), so the table needs no lock.
 */
#include "internal.h"
#include "ctx.h"
#include "flag_ops.h"

#define PFM_FLAG_OPS_MAX	4

static const struct pfm_flag_ops *pfm_flag_ops[PFM_FLAG_OPS_MAX];
u32 pfm_flags_read;

#define pfm_for_each_flag_ops(i, ops, ctx_flags)				\
	for (i = 0; i < PFM_FLAG_OPS_MAX; i++)					\
		if (((ops) = pfm_flag_ops[i]) && ((ctx_flags) & (ops)->flag))

/* The core's own flags: a layer may not take one. */
#define PFM_FL_CORE	(PFM_FL_NOTIFY_BLOCK | PFM_FL_SYSTEM_WIDE | PFM_FL_SMPL_FMT | \
			 PFM_FL_OVFL_NO_MSG | PFM_FL_CLOEXEC)

int pfm_flag_ops_register(const struct pfm_flag_ops *ops)
{
	int i, free = -1;

	if (!ops->flag || (ops->flag & (ops->flag - 1)) || (ops->flag & PFM_FL_CORE))
		return -EINVAL;
	for (i = 0; i < PFM_FLAG_OPS_MAX; i++) {
		if (pfm_flag_ops[i] && pfm_flag_ops[i]->flag == ops->flag)
			return -EBUSY;
		if (free < 0 && !pfm_flag_ops[i])
			free = i;
	}
	if (free < 0)
		return -EBUSY;
	pfm_flag_ops[free] = ops;
	if (ops->read)
		WRITE_ONCE(pfm_flags_read, pfm_flags_read | ops->flag);
	return 0;
}

void pfm_flag_ops_unregister(const struct pfm_flag_ops *ops)
{
	int i;

	for (i = 0; i < PFM_FLAG_OPS_MAX; i++) {
		if (pfm_flag_ops[i] != ops)
			continue;
		pfm_flag_ops[i] = NULL;
		WRITE_ONCE(pfm_flags_read, pfm_flags_read & ~ops->flag);
	}
}

u32 pfm_flags_served(void)
{
	u32 served = 0;
	int i;

	for (i = 0; i < PFM_FLAG_OPS_MAX; i++)
		if (pfm_flag_ops[i])
			served |= pfm_flag_ops[i]->flag;
	return served;
}

/* The served flags' own rules on a create's flags: 0 or the first refusal. */
int pfm_flag_ops_check(u32 flags)
{
	const struct pfm_flag_ops *ops;
	int i, ret;

	pfm_for_each_flag_ops(i, ops, flags) {
		ret = ops->check ? ops->check(flags) : 0;
		if (ret)
			return ret;
	}
	return 0;
}

int pfm_flag_ops_loaded(struct pfm_context *ctx)
{
	const struct pfm_flag_ops *ops;
	int i, ret;

	pfm_for_each_flag_ops(i, ops, ctx->flags) {
		ret = ops->loaded ? ops->loaded(ctx) : 0;
		if (ret)
			return ret;
	}
	return 0;
}

void pfm_flag_ops_unload(struct pfm_context *ctx)
{
	const struct pfm_flag_ops *ops;
	int i;

	pfm_for_each_flag_ops(i, ops, ctx->flags)
		if (ops->unload)
			ops->unload(ctx);
}

void pfm_flag_ops_start(struct pfm_context *ctx, u32 flags, u64 arg)
{
	const struct pfm_flag_ops *ops;
	int i;

	pfm_for_each_flag_ops(i, ops, ctx->flags)
		if (ops->start)
			ops->start(ctx, flags, arg);
}

void pfm_flag_ops_stop(struct pfm_context *ctx)
{
	const struct pfm_flag_ops *ops;
	int i;

	pfm_for_each_flag_ops(i, ops, ctx->flags)
		if (ops->stop)
			ops->stop(ctx);
}

void pfm_flag_ops_close(struct pfm_context *ctx)
{
	const struct pfm_flag_ops *ops;
	int i;

	pfm_for_each_flag_ops(i, ops, ctx->flags)
		if (ops->close)
			ops->close(ctx);
}

void pfm_flag_ops_read(struct pfm_context *ctx, struct pfm_pmd_read *rd, unsigned int n)
{
	const struct pfm_flag_ops *ops;
	int i;

	pfm_for_each_flag_ops(i, ops, ctx->flags)
		if (ops->read)
			ops->read(ctx, rd, n);
}

void pfm_flag_ops_setinfo(struct pfm_context *ctx, struct pfarg_setinfo *req, unsigned int n)
{
	const struct pfm_flag_ops *ops;
	int i;

	pfm_for_each_flag_ops(i, ops, ctx->flags)
		if (ops->setinfo)
			ops->setinfo(ctx, req, n);
}

void pfm_flag_ops_pmcs(struct pfm_context *ctx, const struct pfarg_pmc *vec, unsigned int n)
{
	const struct pfm_flag_ops *ops;
	int i;

	pfm_for_each_flag_ops(i, ops, ctx->flags)
		if (ops->pmcs)
			ops->pmcs(ctx, vec, n);
}
