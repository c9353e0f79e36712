// SPDX-License-Identifier: GPL-2.0
/*
 * memscale_bench's output (memscale.h): the table, the cost goals that
 * the curves measure, judged, and the JSON line for the host
 * (build/bench/memscale.json: the curves, "goals" and "ratios" as
 * tools/bench/goals.py reads them).
 */
#include <stdio.h>
#include <string.h>

#include "memscale.h"

#define FLAT_LIMIT	1.10
#define MAX_GOALS	8

const char *const ms_value_name[MS_NV] = {
	"kernel", "objects", "pages", "percpu", "vmalloc", "total", "slab",
};

struct goal {
	char goal[200], note[1024];
	double figure, limit;
	const char *cmp;
};

static struct goal goals[MAX_GOALS];
static int ngoals;

/* What the call sites that stand out in perfmon's figures allocate. */
static const struct {
	const char *site, *what;
} whys[] = {
	{ "pfm_set_alloc", "an event set's struct, most of it bitmaps of the 320 registers the "
	  "ABI numbers (used, overflowed, pending, to restart, raw)" },
	{ "pfm_sets_room", "an event set's register arrays, as long as the registers its writes "
	  "named reach (kernel/perfmon/set_room.c)" },
	{ "pfm_context_make", "a perfmon context (424 bytes) and, for one a file descriptor "
	  "reads, its message queue (8 messages, 512 bytes); the perf layer's and the "
	  "inheritors' have no queue" },
	{ "pfm_perf_target_get", "the perf layer's target (struct pfm_perf_target, 304 bytes) "
	  "and its first set's row of counters (912 bytes: 56 counters the layer numbers, "
	  "16 bytes each; a sampling counter's wrapped periods in 448 more, made with the "
	  "set's first)" },
	{ "pfm_perf_event_alloc", "the perf layer's struct pfm_perf_event of each event, "
	  "beside its target's perfmon context and set" },
};

/* The explanations of the sites named in top, appended to note. */
static void explain(char *note, size_t len, const char *top)
{
	size_t i, at = strlen(note);

	for (i = 0; i < sizeof(whys) / sizeof(whys[0]) && at < len; i++)
		if (strstr(top, whys[i].site))
			at += snprintf(note + at, len - at, "; %s: %s", whys[i].site, whys[i].what);
}

static const char *unit(const struct ms_point *p)
{
	return p->by_event ? "event" : "thread";
}

static int count(const struct ms_point *p)
{
	return p->by_event ? p->events : p->threads;
}

static void print_curve(const struct ms_curve_data *c, int by, int shim)
{
	const struct ms_point *p;
	char first[16];
	int i, k, m;

	printf("\nper %s (%s)\n", by ? "event" : "monitored thread",
	       by ? "one thread: one context / group of n events" :
		    "each thread: a context / a group of 4 events");
	printf("%-7s %-8s %8s %-15s %8s %6s %6s %7s %8s  %s\n", by ? "events" : "threads",
	       "", "kernel", " [p25-p75]", "objects", "pages", "percpu", "vmalloc", "total",
	       "kernel / perf [p25-p75]");
	for (i = 0; i < c->n; i++) {
		p = &c->p[i];
		snprintf(first, sizeof(first), "%d", count(p));
		for (k = 0; k < MS_NTOOLS; k++) {
			if (k == MS_SHIM && !shim)
				continue;
			printf("%-7s %-8s %8.0f [%5.0f-%5.0f]", k ? "" : first, ms_tool_name[k],
			       p->s[k][V_KERNEL].med, p->s[k][V_KERNEL].p25, p->s[k][V_KERNEL].p75);
			for (m = V_OBJECTS; m <= V_TOTAL; m++)
				printf(" %*.0f", m == V_OBJECTS ? 8 : m == V_VMALLOC ? 7 :
				       m == V_TOTAL ? 8 : 6, p->s[k][m].med);
			if (k == MS_PERFMON || k == MS_SHIM)
				printf("  %5.3f [%5.3f-%5.3f]", p->ratio[k].med, p->ratio[k].p25,
				       p->ratio[k].p75);
			printf("\n");
		}
	}
}

static void add_goal(double figure, double limit, const char *cmp, const char *goal,
		     const char *note)
{
	struct goal *g = &goals[ngoals++];

	snprintf(g->goal, sizeof(g->goal), "%s", goal);
	snprintf(g->note, sizeof(g->note), "%s", figure <= limit ? "" : note);
	g->figure = figure;
	g->limit = limit;
	g->cmp = cmp;
}

/* Every point of curve c for tool at most perf's: the worst point's ratio. */
static void goal_points(const struct ms_curve_data *c, enum ms_tool tool, const char *what)
{
	const struct ms_point *w = &c->p[0];
	char goal[200], note[1024];
	int i;

	for (i = 1; i < c->n; i++)
		if (c->p[i].ratio[tool].med > w->ratio[tool].med)
			w = &c->p[i];
	snprintf(goal, sizeof(goal), "memscale: %s / perf_events' memory per %s, %s: the "
		 "worst point (%d)", ms_tool_name[tool], unit(w), what, count(w));
	snprintf(note, sizeof(note), "at %d %ss %s takes %.0f bytes per %s, perf_events %.0f; "
		 "the largest by call site: %s; perf_events': %s", count(w), unit(w),
		 ms_tool_name[tool], w->s[tool][V_KERNEL].med, unit(w),
		 w->s[MS_PERF][V_KERNEL].med, w->top[tool], w->top[MS_PERF]);
	explain(note, sizeof(note), w->top[tool]);
	add_goal(w->ratio[tool].med, 1.0, "<=", goal, note);
}

/* tool's memory per thread flat over the thread counts: largest / smallest. */
static void goal_flat(const struct ms_curve_data *c, enum ms_tool tool)
{
	const struct ms_point *lo = &c->p[0], *hi = &c->p[0];
	const struct ms_point *plo = &c->p[0], *phi = &c->p[0];
	char goal[200], note[1024];
	int i;

	for (i = 1; i < c->n; i++) {
		if (c->p[i].s[tool][V_KERNEL].med < lo->s[tool][V_KERNEL].med)
			lo = &c->p[i];
		if (c->p[i].s[tool][V_KERNEL].med > hi->s[tool][V_KERNEL].med)
			hi = &c->p[i];
		if (c->p[i].s[MS_PERF][V_KERNEL].med < plo->s[MS_PERF][V_KERNEL].med)
			plo = &c->p[i];
		if (c->p[i].s[MS_PERF][V_KERNEL].med > phi->s[MS_PERF][V_KERNEL].med)
			phi = &c->p[i];
	}
	snprintf(goal, sizeof(goal), "memscale: %s's memory per monitored thread flat from "
		 "%d to %d threads: largest / smallest point (perf_events' %.3f)",
		 ms_tool_name[tool], c->p[0].threads, c->p[c->n - 1].threads,
		 phi->s[MS_PERF][V_KERNEL].med / plo->s[MS_PERF][V_KERNEL].med);
	snprintf(note, sizeof(note), "%.0f bytes per thread at %d threads (%s), %.0f at %d (%s)",
		 hi->s[tool][V_KERNEL].med, hi->threads, hi->top[tool], lo->s[tool][V_KERNEL].med,
		 lo->threads, lo->top[tool]);
	explain(note, sizeof(note), hi->top[tool]);
	add_goal(hi->s[tool][V_KERNEL].med / lo->s[tool][V_KERNEL].med, FLAT_LIMIT, "<=", goal,
		 note);
}

static void json_stat(const char *name, struct stat3 s, int digits, const char *sep)
{
	printf("\"%s\": [%.*f, %.*f, %.*f]%s", name, digits, s.p25, digits, s.med, digits,
	       s.p75, sep);
}

static void json_curve(const struct ms_curve_data *c, int by, int shim)
{
	const struct ms_point *p;
	int i, k, m;

	printf(", \"%s\": [", ms_curve_name[by]);
	for (i = 0; i < c->n; i++) {
		p = &c->p[i];
		printf("%s{\"threads\": %d, \"events\": %d, \"per\": \"%s\"", i ? ", " : "",
		       p->threads, p->events, unit(p));
		for (k = 0; k < MS_NTOOLS; k++) {
			if (k == MS_SHIM && !shim)
				continue;
			printf(", \"%s\": {", ms_tool_name[k]);
			for (m = 0; m < MS_NV; m++)
				json_stat(ms_value_name[m], p->s[k][m], 0, m < MS_NV - 1 ? ", " : "}");
			if (k == MS_PERFMON || k == MS_SHIM) {
				printf(", \"%s_over_perf\": ", ms_tool_name[k]);
				printf("[%.4f, %.4f, %.4f]", p->ratio[k].p25, p->ratio[k].med,
				       p->ratio[k].p75);
			}
		}
		printf("}");
	}
	printf("]");
}

static void json_goals_ratios(const struct ms_curve_data *curve, int shim)
{
	const char *sep = "";
	int c, i, k;

	printf(", \"goals\": [");
	for (i = 0; i < ngoals; i++)
		printf("%s{\"goal\": \"%s\", \"figure\": %.4f, \"limit\": %g, \"cmp\": \"%s\", "
		       "\"note\": \"%s\"}", i ? ", " : "", goals[i].goal, goals[i].figure,
		       goals[i].limit, goals[i].cmp, goals[i].note);
	printf("], \"ratios\": {");
	for (c = 0; c < MS_NCURVES; c++)
		for (i = 0; i < curve[c].n; i++)
			for (k = MS_PERFMON; k <= MS_SHIM; k++) {
				if (k == MS_SHIM && !shim)
					continue;
				printf("%s\"memscale.%s.%d.%s\": %.4f", sep, ms_curve_name[c],
				       count(&curve[c].p[i]), ms_tool_name[k],
				       curve[c].p[i].ratio[k].med);
				sep = ", ";
			}
	printf("}");
}

void ms_print(struct ms_curve_data *curve, int rounds, int shim)
{
	int c, i;

	printf("\nmemscale: kernel memory of monitoring, bytes, medians [25th-75th percentile] "
	       "over %d rounds\nkernel: slab objects + pages + per-CPU memory taken and kept "
	       "(traced) + vmalloc; total: the fall of free pages (whole slabs)\n", rounds);
	for (c = 0; c < MS_NCURVES; c++)
		print_curve(&curve[c], c, shim);

	ngoals = 0;
	goal_points(&curve[MS_THREADS], MS_PERFMON, "a context of 4 events per thread");
	goal_points(&curve[MS_EVENTS], MS_PERFMON, "events in one context on one thread");
	if (shim) {
		goal_points(&curve[MS_THREADS], MS_SHIM, "a group of 4 per thread");
		goal_points(&curve[MS_EVENTS], MS_SHIM, "events in one group on one thread");
	}
	if (curve[MS_THREADS].n > 1)
		goal_flat(&curve[MS_THREADS], MS_PERFMON);
	printf("\n");
	for (i = 0; i < ngoals; i++) {
		printf("goal %-8s %s: %.3f (goal %s %g)\n",
		       goals[i].note[0] ? "NOT MET" : "met", goals[i].goal, goals[i].figure,
		       goals[i].cmp, goals[i].limit);
		if (goals[i].note[0])
			printf("     in the way: %s\n", goals[i].note);
	}

	printf("\nBENCH-MEMSCALE-JSON: {\"unit\": \"bytes per thread (threads) or per event "
	       "(events)\", \"rounds\": %d, \"stat\": \"[p25, median, p75]\"", rounds);
	for (c = 0; c < MS_NCURVES; c++)
		json_curve(&curve[c], c, shim);
	json_goals_ratios(curve, shim);
	printf("}\n");
}
