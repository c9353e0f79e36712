/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: pfm_write_pmc_filter(), the trace layer's call (pmc_filter.c), for
 * tracepoint.c's init and exit.
 */
#ifndef _PERFMON_TRACE_PMC_FILTER_H
#define _PERFMON_TRACE_PMC_FILTER_H

int pfm_tp_pmc_filter_init(void);
void pfm_tp_pmc_filter_exit(void);

#endif /* _PERFMON_TRACE_PMC_FILTER_H */
