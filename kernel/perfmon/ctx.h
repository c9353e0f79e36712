/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: a context's lifetime (ctx.c).
 */
#ifndef _PERFMON_CTX_H
#define _PERFMON_CTX_H

#include "internal.h"

int pfm_check_create_flags(u32 flags);
struct pfm_context *pfm_context_alloc(u32 flags);
void pfm_context_put(struct pfm_context *ctx);

/* The caller already holds a reference (or a lock that keeps one alive). */
static inline void pfm_context_get(struct pfm_context *ctx)
{
	refcount_inc(&ctx->ref);
}

#endif /* _PERFMON_CTX_H */
