/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the statistics file (stats.c); the counters themselves are in env.h,
 * which the portable core updates.
 */
#ifndef _PERFMON_STATS_H
#define _PERFMON_STATS_H

#include <linux/types.h>

void pfm_stats_init(void);
void pfm_stats_exit(void);
/* sw_hooks.c tells whether each probe that taxes every thread is attached now */
enum pfm_stats_hook { PFM_STATS_HOOK_SYSCALL, PFM_STATS_HOOK_FAULT, PFM_STATS_NR_HOOKS };
void pfm_stats_hook(enum pfm_stats_hook hook, bool on);

#endif /* _PERFMON_STATS_H */
