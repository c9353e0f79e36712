/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PERFMON_STATS_H
#define _PERFMON_STATS_H

#include <linux/percpu.h>

struct pfm_stats {
	u64 set_switches;		/* switches between two different sets */
	u64 set_switch_ns;		/* time spent in them */
	u64 set_switch_pmc_writes;	/* PMC writes they made */
	u64 set_switch_pmd_writes;	/* PMD writes they made */
	u64 overflows;			/* 64-bit overflows handled */
	u64 notifications;		/* overflows that masked monitoring */
};

DECLARE_PER_CPU(struct pfm_stats, pfm_stats);

/* Interrupts are off where these run, so a per-CPU add needs no atomic. */
#define pfm_stat_add(field, n)	__this_cpu_add(pfm_stats.field, (n))

void pfm_stats_init(void);
void pfm_stats_exit(void);

#endif
