// SPDX-License-Identifier: GPL-2.0
/*
 * e2e_bench: do two runs of a comparison print the same thing (e2e.h)?
 *
 * perf stat's counts of a fixed workload, and, of two perf.data files, the
 * samples recorded and the entry perf report puts on top.  What cannot be the
 * same has a tolerance: the task clock includes the tool's own cost in the
 * workload's threads, context switches follow the timer, a frequency-driven
 * record takes as many samples as the run has time.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

/* The value of event in a perf stat -x, file, or -1 if it is not there. */
static double stat_value(const char *file, const char *event)
{
	char line[512], *rest, *val, *ev;
	double v = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		/* value,unit,event,...: strsep() keeps the empty unit of a count */
		rest = line;
		val = strsep(&rest, ",");
		strsep(&rest, ",");
		ev = strsep(&rest, ",");
		if (ev && !strcmp(ev, event)) {
			v = strtod(val, NULL);
			break;
		}
	}
	fclose(f);
	return v;
}

static void put(struct e2e_check *c, const char *what, double a, double b, int same)
{
	snprintf(c->what, sizeof(c->what), "%s", what);
	snprintf(c->a, sizeof(c->a), "%.2f", a);
	snprintf(c->b, sizeof(c->b), "%.2f", b);
	c->same = same;
}

int e2e_check_stat(const char *a, const char *b, struct e2e_check *c)
{
	static const char *const ev[] = { "task-clock", "page-faults", "context-switches" };
	double va, vb;
	int i, n = 0;

	for (i = 0; i < 3; i++) {
		va = stat_value(a, ev[i]);
		vb = stat_value(b, ev[i]);
		if (va < 0 && vb < 0)
			continue;
		if (va < 0 || vb < 0) {
			put(&c[n++], ev[i], va, vb, 0);
			continue;
		}
		switch (i) {
		case 0:
			put(&c[n++], ev[i], va, vb, va <= vb * 1.1 && va >= vb * 0.9);
			break;
		case 1:
			put(&c[n++], ev[i], va, vb, va <= vb * 1.01 && va >= vb * 0.99);
			break;
		default:
			put(&c[n++], ev[i], va, vb, va <= vb * 2 + 10 && vb <= va * 2 + 10);
		}
	}
	return n;
}

static long samples(const char *data)
{
	char cmd[512], line[64];

	snprintf(cmd, sizeof(cmd), "perf script -i %s -G -F ip 2>/dev/null | wc -l", data);
	e2e_sh_line(cmd, line, sizeof(line));
	return atol(line);
}

/*
 * "comm dso sym" of perf report's top entry, without its percentages (two
 * columns, Children and Self, when the data has call chains)
 */
static void top(const char *data, char *buf, size_t len)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "perf report -i %s --stdio -g none --sort comm,dso,sym "
		 "2>/dev/null | awk '/^ *[0-9.]+%%/ { sub(/^( *[0-9.]+%%)+ +/, \"\"); "
		 "print; exit }'", data);
	e2e_sh_line(cmd, buf, len);
}

int e2e_check_record(const char *a, const char *b, double tol, struct e2e_check *c)
{
	long sa = samples(a), sb = samples(b);

	put(&c[0], "samples", sa, sb, sa > 0 && sb > 0 &&
	    labs(sa - sb) <= sb * tol / 100);
	snprintf(c[0].a, sizeof(c[0].a), "%ld", sa);
	snprintf(c[0].b, sizeof(c[0].b), "%ld", sb);
	snprintf(c[1].what, sizeof(c[1].what), "top entry");
	top(a, c[1].a, sizeof(c[1].a));
	top(b, c[1].b, sizeof(c[1].b));
	c[1].same = c[1].a[0] && !strcmp(c[1].a, c[1].b);
	return 2;
}
