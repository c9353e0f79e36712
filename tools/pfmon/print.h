/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfmon: what print.c (text) and print_perf.c (perf stat's CSV and JSON)
 * share: one printed line's parts.
 */
#ifndef PFMON_PRINT_H
#define PFMON_PRINT_H

#include "pfmon.h"

/* a derived metric as perf stat prints it: fmt NULL when it has no value */
struct metric {
	double v;
	const char *fmt;
	const char *unit;	/* NULL: no metric at all */
	char buf[8];		/* a scaled unit: "K/sec" */
};

/* what is printed of a count: its value (-1: not counted), -r's deviation (-1:
 * one run) and its bound (-1: unknown) */
struct shown {
	double v, rsd, bound;
};

/* where a line belongs: the interval's end (-1: none), the group */
struct where {
	uint64_t at_ns;
	int interval;
	const struct pfmon_group *g;
};

/* a clock event: counted in ns, printed in msec */
static inline int print_is_clock(int i)
{
	return opts.ev[i].soft && opts.ev[i].sw == PFM_SW_EV_TASK_CLOCK;
}

/* perf's word for a count there is not: the PMU lacks the event, or it never ran */
static inline const char *print_not_counted(int i)
{
	return opts.ev[i].unsupported ? "<not supported>" : "<not counted>";
}

double print_pct(const struct pfmon_count *c);
void print_perf_line(const struct where *w, int i, const struct shown *s,
		     const struct pfmon_count *c, const struct metric *m);
void print_perf_summary(const struct pfmon_result *res, double elapsed, int nruns);

#endif
