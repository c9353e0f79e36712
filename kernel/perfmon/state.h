/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: attach, detach, start, stop (state.c).
 */
#ifndef _PERFMON_STATE_H
#define _PERFMON_STATE_H

#include "layer.h"


bool pfm_unload_locked(struct pfm_context *ctx);
void pfm_detach_release(struct pfm_context *ctx);
void pfm_detach_cpu(struct pfm_context *ctx);
int pfm_hw_claim(struct pfm_context *ctx);

#endif /* _PERFMON_STATE_H */
