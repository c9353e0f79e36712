// SPDX-License-Identifier: GPL-2.0
/*
 * inherit_bench's report (inherit_bench.h): a table per workload, the goals
 * judged on the medians, and the JSON line the host turns into
 * build/bench/inherit.json.
 */
#include <stdio.h>

#include "inherit_bench.h"

#define RATIO_LIMIT	1.0
#define FLAT_LIMIT	1.10

/* the monitored modes of each comparison: perfmon's, then perf_events' */
static const int cmp_mode[INH_NCMP][2] = {
	[INH_CMP_SHIM] = { INH_SHIM, INH_PERF },
	[INH_CMP_PFMON] = { INH_PFMON, INH_PERF_STAT },
};

static const char *const cmp_name[INH_NCMP] = { "shim", "pfmon" };

static const char *const cmp_words[INH_NCMP] = {
	"the shim's attr.inherit / perf_events'",
	"pfmon (PFM_FL_INHERIT) / perf stat",
};

static const char *unit(int kind)
{
	return kind == INH_THREADS ? "thread" : "child";
}

static void print_table(const struct inh_curve *c, int kind)
{
	const struct inh_point *p;
	int i, j;

	printf("\ninherit_bench: %s; ns per %s monitored less unmonitored, "
	       "median [25th 75th]; ratios within rounds\n", inh_kind_name[kind], unit(kind));
	printf("%6s %2s %9s %20s %20s %20s %20s %20s %20s\n", "n", "r", "none/n", "shim",
	       "perf", "shim/perf", "pfmon", "perf-stat", "pfmon/perf-stat");
	for (i = 0; i < c->npts; i++) {
		p = &c->pt[i];
		printf("%6ld %2d %9.0f", p->n, p->rounds, p->ns[INH_NONE].med / p->tasks);
		for (j = 0; j < INH_NCMP; j++)
			printf(" %8.0f [%5.0f %5.0f] %8.0f [%5.0f %5.0f] %6.3f [%.3f %.3f]",
			       p->cost[cmp_mode[j][0]].med, p->cost[cmp_mode[j][0]].p25,
			       p->cost[cmp_mode[j][0]].p75, p->cost[cmp_mode[j][1]].med,
			       p->cost[cmp_mode[j][1]].p25, p->cost[cmp_mode[j][1]].p75,
			       p->ratio[j].med, p->ratio[j].p25, p->ratio[j].p75);
		printf("\n");
	}
}

/* The largest / smallest median cost of mode over the curve's points. */
static double spread(const struct inh_curve *c, int mode, int *lo, int *hi)
{
	int i;

	*lo = *hi = 0;
	for (i = 1; i < c->npts; i++) {
		if (c->pt[i].cost[mode].med < c->pt[*lo].cost[mode].med)
			*lo = i;
		if (c->pt[i].cost[mode].med > c->pt[*hi].cost[mode].med)
			*hi = i;
	}
	return c->pt[*hi].cost[mode].med / c->pt[*lo].cost[mode].med;
}

struct goal {
	char goal[256], note[512];
	double figure, limit;
};

/* What stands in the way of the ratio goal, after the worst point's figures. */
static const char *const cmp_cause[INH_NCMP] = {
	[INH_CMP_SHIM] = "the perf layer gives each new task a target of its own "
		"(perf/inherit.c: a context and a copy of every inherit event, made by a "
		"task_work, folded by one in its exit): a fixed cost and one per event, both "
		"above perf_events' copies (INHERIT_NEV=1 shows the fixed part)",
	[INH_CMP_PFMON] = "PFM_FL_INHERIT gives each new task a whole context "
		"(inherit/fork.c: created, sets and PMCs copied, attached, started by a "
		"task_work, folded at exit): a fixed cost above perf_events', which "
		"copies its two events alone",
};

/* Both goals of one comparison on one curve. */
static int judge(const struct inh_curve *c, int kind, int cmp, struct goal *g)
{
	const int pm = cmp_mode[cmp][0], pe = cmp_mode[cmp][1];
	const struct inh_point *w;
	int i, worst = 0, lo, hi, plo, phi;
	char pf[64] = "";
	double pflat;

	for (i = 1; i < c->npts; i++)
		if (c->pt[i].ratio[cmp].med > c->pt[worst].ratio[cmp].med)
			worst = i;
	w = &c->pt[worst];
	snprintf(g[0].goal, sizeof(g[0].goal), "inherit %s: %s per %s, the worst of n=%ld..%ld",
		 inh_kind_name[kind], cmp_words[cmp], unit(kind), c->pt[0].n,
		 c->pt[c->npts - 1].n);
	g[0].figure = w->ratio[cmp].med;
	g[0].limit = RATIO_LIMIT;
	/* the shim's against the kernel's own inheritance too */
	if (cmp == INH_CMP_SHIM)
		snprintf(pf, sizeof(pf), ", pfmon's PFM_FL_INHERIT %.0f", w->cost[INH_PFMON].med);
	snprintf(g[0].note, sizeof(g[0].note), "at n=%ld %s costs %.0f ns per %s, %s %.0f%s: %s",
		 w->n, inh_mode_name[pm], w->cost[pm].med, unit(kind), inh_mode_name[pe],
		 w->cost[pe].med, pf, cmp_cause[cmp]);

	g[1].figure = spread(c, pm, &lo, &hi);
	pflat = spread(c, pe, &plo, &phi);
	snprintf(g[1].goal, sizeof(g[1].goal),
		 "inherit %s: %s's cost per %s flat over n=%ld..%ld, largest / smallest "
		 "(%s's: %.3f)", inh_kind_name[kind], inh_mode_name[pm], unit(kind),
		 c->pt[0].n, c->pt[c->npts - 1].n, inh_mode_name[pe], pflat);
	g[1].limit = FLAT_LIMIT;
	snprintf(g[1].note, sizeof(g[1].note), "%.0f ns per %s at n=%ld, %.0f at n=%ld: %s",
		 c->pt[hi].cost[pm].med, unit(kind), c->pt[hi].n, c->pt[lo].cost[pm].med,
		 c->pt[lo].n, hi < lo ? "the first tasks of a family cost more than the "
		 "later ones (not profiled)" : "not profiled");
	return 2;
}

static void print_stat(const char *name, struct stat3 s, double scale)
{
	printf("\"%s\": [%.4f, %.4f, %.4f]", name, s.p25 / scale, s.med / scale,
	       s.p75 / scale);
}

static void print_json(const struct inh_curve curve[INH_NKINDS], const struct goal *g,
		       int ng)
{
	const struct inh_point *p;
	int k, i, m, j;

	printf("\nBENCH-INHERIT-JSON: {\"unit\": \"ns per child or thread (guest "
	       "instructions)\", \"stat\": \"[25th, median, 75th]\", \"curves\": {");
	for (k = 0; k < INH_NKINDS; k++) {
		printf("%s\"%s\": [", k ? ", " : "", inh_kind_name[k]);
		for (i = 0; i < curve[k].npts; i++) {
			p = &curve[k].pt[i];
			printf("%s{\"n\": %ld, \"tasks\": %ld, \"rounds\": %d, \"ns\": {",
			       i ? ", " : "", p->n, p->tasks, p->rounds);
			for (m = 0; m < INH_NMODES; m++) {
				printf(m ? ", " : "");
				print_stat(inh_mode_name[m], p->ns[m], 1);
			}
			printf("}, \"cost\": {");
			for (m = INH_SHIM; m < INH_NMODES; m++) {
				printf(m > INH_SHIM ? ", " : "");
				print_stat(inh_mode_name[m], p->cost[m], 1);
			}
			printf("}, \"ratio\": {");
			for (j = 0; j < INH_NCMP; j++) {
				printf(j ? ", " : "");
				print_stat(cmp_name[j], p->ratio[j], 1);
			}
			printf("}}");
		}
		printf("]");
	}
	printf("}, \"goals\": [");
	for (i = 0; i < ng; i++)
		printf("%s{\"goal\": \"%s\", \"figure\": %.4f, \"limit\": %g, \"cmp\": \"<=\"%s%s%s}",
		       i ? ", " : "", g[i].goal, g[i].figure, g[i].limit,
		       g[i].figure > g[i].limit ? ", \"note\": \"" : "",
		       g[i].figure > g[i].limit ? g[i].note : "",
		       g[i].figure > g[i].limit ? "\"" : "");
	printf("], \"ratios\": {");
	for (k = 0, m = 0; k < INH_NKINDS; k++)
		for (i = 0; i < curve[k].npts; i++)
			for (j = 0; j < INH_NCMP; j++)
				printf("%s\"inherit.%s.%ld.%s\": %.4f", m++ ? ", " : "",
				       inh_kind_name[k], curve[k].pt[i].n, cmp_name[j],
				       curve[k].pt[i].ratio[j].med);
	printf("}}\n");
}

void inh_report(const struct inh_curve curve[INH_NKINDS])
{
	struct goal g[INH_NKINDS * INH_NCMP * 2];
	int k, j, i, ng = 0;

	for (k = 0; k < INH_NKINDS; k++)
		print_table(&curve[k], k);
	for (k = 0; k < INH_NKINDS; k++)
		for (j = 0; j < INH_NCMP; j++)
			if (curve[k].npts)
				ng += judge(&curve[k], k, j, &g[ng]);
	printf("\ngoals, medians:\n");
	for (i = 0; i < ng; i++) {
		printf("  %-8s %s: %.3f (goal <= %g)\n", g[i].figure <= g[i].limit ?
		       "met" : "NOT MET", g[i].goal, g[i].figure, g[i].limit);
		if (g[i].figure > g[i].limit)
			printf("           %s\n", g[i].note);
	}
	print_json(curve, g, ng);
}
