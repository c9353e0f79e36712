/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the kernel's trace event filters on the trace source's counters
 * (filter.c), for tracepoint.c.
 */
#ifndef _PERFMON_TRACE_FILTER_H
#define _PERFMON_TRACE_FILTER_H

#include <linux/types.h>

struct perf_event;

void pfm_tp_filter_init(void);
int pfm_tp_filter_apply(struct perf_event *ev, u32 id, const char *filter);

#endif /* _PERFMON_TRACE_FILTER_H */
