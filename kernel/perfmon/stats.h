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
/* sw_hooks.c tells whether the system call probe is attached now */
void pfm_stats_syscall_hook(bool on);

#endif /* _PERFMON_STATS_H */
