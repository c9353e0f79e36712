/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memscale_bench: what memscale_bench.c measures and memscale_out.c prints.
 */
#ifndef _PFM_BENCH_MEMSCALE_H
#define _PFM_BENCH_MEMSCALE_H

#include "bench_common.h"

#define MS_MAX_POINTS	8
#define MS_MAX_ROUNDS	15

/* perf_events last: the others' ratios are to it; none opens nothing (the floor) */
enum ms_tool { MS_PERFMON, MS_SHIM, MS_PERF, MS_NONE, MS_NTOOLS };

/*
 * The figures of one measure, per monitored thread (threads curve) or per event
 * (events curve): kernel, the sum of the traced objects, pages, per-CPU memory
 * and the rise of vmalloc; then the counters' own rises (mem_meas.h), whole slabs.
 */
enum { V_KERNEL, V_OBJECTS, V_PAGES, V_PERCPU, V_VMALLOC, V_TOTAL, V_SLAB, MS_NV };

enum ms_curve { MS_THREADS, MS_EVENTS, MS_NCURVES };

struct ms_point {
	int threads, events;
	int by_event;				/* figures per event, not per thread */
	double v[MS_NTOOLS][MS_NV][MS_MAX_ROUNDS];
	double r[MS_NTOOLS][MS_MAX_ROUNDS];	/* tool / perf, kernel */
	struct stat3 s[MS_NTOOLS][MS_NV];
	struct stat3 ratio[MS_NTOOLS];
	char top[MS_NTOOLS][200];		/* the largest call sites, first round */
};

struct ms_curve_data {
	int n;
	struct ms_point p[MS_MAX_POINTS];
};

extern const char *const ms_tool_name[MS_NTOOLS];
extern const char *const ms_curve_name[MS_NCURVES];
extern const char *const ms_value_name[MS_NV];

/* memscale_out.c: the table, the goals (lines and JSON), the JSON line */
void ms_print(struct ms_curve_data *c, int rounds, int shim);

#endif /* _PFM_BENCH_MEMSCALE_H */
