/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: sessions and per-user limits (res.c; what the core takes and gives back
 * is in env.h).
 */
#ifndef _PERFMON_RES_H
#define _PERFMON_RES_H

struct pfm_context;

extern unsigned long pfm_ctx_per_user_max;
struct pfm_context *pfm_res_cpu_ctx_get(int cpu);
unsigned int pfm_res_task_sessions(void);
unsigned int pfm_res_sys_sessions(void);
unsigned int pfm_res_contexts(void);

#endif /* _PERFMON_RES_H */
