/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the software-event unit (sw_pmu.c), fed by sw_hooks.c and thread.c.
 */
#ifndef _PERFMON_SW_PMU_H
#define _PERFMON_SW_PMU_H

extern const struct pfm_pmu_unit pfm_sw_unit;
void pfm_sw_count(unsigned int event, u64 n);
void pfm_sw_count_kernel(unsigned int event, u64 n);
void pfm_sw_count_cpu(unsigned int event, u64 n);
void pfm_sw_migration_to(int cpu);

#endif /* _PERFMON_SW_PMU_H */
