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
int pfm_sw_banks_init(void);
void pfm_sw_banks_exit(void);

/* Events whose PMC carries a key, fed by a source that a layer registers. */
static inline bool pfm_sw_keyed(unsigned int event)
{
	return event == PFM_SW_EV_TRACEPOINT || event == PFM_SW_EV_BREAKPOINT;
}

/*
 * sw_keyed.c: the sources' hold on the keys that PMC values name, taken by a write
 * before it changes anything and given back once the values are gone.
 */
struct pfarg_pmc;
int pfm_sw_keyed_write_get(const struct pfarg_pmc *req, unsigned int n);
void pfm_sw_keyed_write_undo(const struct pfarg_pmc *req, unsigned int n);
void pfm_sw_keyed_write_replace(struct pfm_context *ctx, const struct pfarg_pmc *req,
				unsigned int n);
void pfm_sw_keyed_set_free(const struct pfm_event_set *set);
/* whether a value in place of old on reg_num names the same keyed event and key */
bool pfm_sw_keyed_same(unsigned int reg_num, u64 old, u64 value);
void pfm_sw_set_moved(struct pfm_event_set *set);

#endif /* _PERFMON_SW_PMU_H */
