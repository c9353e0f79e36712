/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the active set going live and leaving, and switching sets (switch.c).
 * All but the timer's setup run with ctx->lock held.
 */
#ifndef _PERFMON_SWITCH_H
#define _PERFMON_SWITCH_H

#include "env.h"
#include "ctx.h"

void pfm_live_in(struct pfm_context *ctx);
void pfm_live_out(struct pfm_context *ctx);
bool pfm_sched_in_locked(struct pfm_context *ctx, int cpu, u64 now);
void pfm_sched_out_locked(struct pfm_context *ctx, u64 now);
void pfm_set_activate(struct pfm_context *ctx, struct pfm_event_set *set);
void pfm_switch_locked(struct pfm_context *ctx, struct pfm_event_set *next);
void pfm_timer_init(struct pfm_context *ctx);
void pfm_timer_stop(struct pfm_context *ctx);
void pfm_timer_exit(struct pfm_context *ctx);
void pfm_timer_resync_exit(void);

#endif /* _PERFMON_SWITCH_H */
