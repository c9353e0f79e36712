/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the software-event unit (sw_pmu.c), fed by sw_hooks.c and thread.c.
 */
#ifndef _PERFMON_SW_PMU_H
#define _PERFMON_SW_PMU_H

#include "layer.h"

extern const struct pfm_pmu_unit pfm_sw_unit;
void pfm_sw_count(unsigned int event, u64 n);
void pfm_sw_count_thread(unsigned int event, u64 n);
void pfm_sw_count_cpu(unsigned int event, u64 n);
void pfm_sw_count_switch_out(void);
void pfm_sw_migration_to(int cpu);
void pfm_sw_count_fault(unsigned long addr, const struct pfm_ovfl_where *at);
void pfm_sw_timers_exit(void);

#endif /* _PERFMON_SW_PMU_H */
