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

#endif /* _PERFMON_FLAG_OPS_H */
