/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the context flags a layer serves (flag_ops.c): where the core runs a
 * layer's ops on the contexts created with such a flag (layer.h says what each
 * op may do).
 */
#ifndef _PERFMON_FLAG_OPS_H
#define _PERFMON_FLAG_OPS_H

#include "layer.h"

u32 pfm_flags_served(void);
int pfm_flag_ops_check(u32 flags);
int pfm_flag_ops_loaded(struct pfm_context *ctx);
void pfm_flag_ops_unload(struct pfm_context *ctx);
void pfm_flag_ops_start(struct pfm_context *ctx, u32 flags, u64 arg);
void pfm_flag_ops_stop(struct pfm_context *ctx);
void pfm_flag_ops_close(struct pfm_context *ctx);
void pfm_flag_ops_read(struct pfm_context *ctx, struct pfm_pmd_read *rd, unsigned int n);
void pfm_flag_ops_setinfo(struct pfm_context *ctx, struct pfarg_setinfo *req, unsigned int n);
void pfm_flag_ops_pmcs(struct pfm_context *ctx, const struct pfarg_pmc *vec, unsigned int n);

/* The flags whose layer adds to a user's reads: such a context is read the long way. */
extern u32 pfm_flags_read;

static inline bool pfm_flag_ops_reads(const struct pfm_context *ctx)
{
	return ctx->flags & READ_ONCE(pfm_flags_read);
}

#endif /* _PERFMON_FLAG_OPS_H */
