/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: 64-bit overflows, and the restart that follows a notification (ovfl.c;
 * pfm_pmu_overflow() is in pmu.h).  ctx->lock held.
 */
#ifndef _PERFMON_OVFL_H
#define _PERFMON_OVFL_H

#include "ctx.h"
#include "sets.h"
#include "layer.h"

void pfm_overflow_locked(struct pfm_context *ctx, const struct pfm_pmu_unit *unit, u64 bits);
void pfm_overflow_act_locked(struct pfm_context *ctx);

/*
 * Acts on the pending 64-bit overflows of the live active set.  Asked at every
 * switch-in, where there are almost never any: one flag is looked at, inline,
 * without the stack frame of acting on them (a scan of the bitmap would look at
 * a word per 64 PMDs).
 */
static inline void pfm_overflow_pending_locked(struct pfm_context *ctx)
{
	if (unlikely(ctx->active->ovfl_pending_any))
		pfm_overflow_act_locked(ctx);
}
struct pfm_event_set *pfm_overflow_restart_locked(struct pfm_context *ctx);
void pfm_overflow_unmask_locked(struct pfm_context *ctx);

#endif /* _PERFMON_OVFL_H */
