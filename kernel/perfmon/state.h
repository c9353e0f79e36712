/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: attach, detach, start, stop (state.c).
 */
#ifndef _PERFMON_STATE_H
#define _PERFMON_STATE_H

long pfm_load(struct pfm_context *ctx, u32 flags, u64 target);
long pfm_reload_task(struct pfm_context *ctx, struct task_struct *task);
long pfm_unload(struct pfm_context *ctx, u32 flags);
long pfm_start(struct pfm_context *ctx, u32 flags, u64 arg);
long pfm_stop(struct pfm_context *ctx, u32 flags);
void pfm_unload_locked(struct pfm_context *ctx);
void pfm_detach_release(struct pfm_context *ctx);
void pfm_detach_cpu(struct pfm_context *ctx);

#endif /* _PERFMON_STATE_H */
