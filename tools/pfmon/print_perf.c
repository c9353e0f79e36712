// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: the counts as perf stat's CSV (-x SEP) and JSON (-j) (print.h).
 *
 * Byte for byte perf stat's, so that its scripts read pfmon's: one line per
 * event (per thread with --per-thread, per CPU with -A), its fields in order
 *
 *   [time] [CPUn | comm-tid] value unit event [rsd%] running_ns percent metric
 *   metric_unit
 *
 * value in msec ("%.2f") for the clocks, else a whole count, "<not counted>"
 * when its counters never ran; unit "msec" or empty; rsd (-r only) the
 * relative standard deviation of the mean; percent the share of time counted,
 * 100 * running / enabled in integers as perf computes it; the metric's value
 * and unit, both empty when the event has none.  The time of -I is "%6lu.%09lu".
 * JSON has perf's names: interval, cpu, thread, counter-value (a string),
 * unit, event, variance, event-runtime, pcnt-running, metric-value and
 * metric-unit, which is "(null)" when there is no metric, as perf prints it.
 *
 * --bounds adds pfmon's fields after perf's: the raw count, the enabled time
 * and the estimate's 95% bound (0: exact; empty or null: unknown), and, with
 * -j and without -I, a summary object {"elapsed_ns", "user_ns", "sys_ns",
 * "runs"}.  Without it, nothing pfmon adds breaks a parser of perf's output.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "print.h"

static void csv_metric(FILE *f, const char *s, const struct metric *m)
{
	char buf[64], *v, *end;

	if (!m->unit || !m->fmt) {
		fprintf(f, "%s%s", s, s);
		return;
	}
	/* perf's: the formatted value without its padding and what follows digits */
	snprintf(buf, sizeof(buf), m->fmt, m->v);
	for (v = buf; *v == ' '; v++)
		;
	for (end = v; isdigit((unsigned char)*end) || *end == '.'; end++)
		;
	*end = '\0';
	fprintf(f, "%s%s%s%s", s, v, s, m->unit);
}

static void csv_line(const struct where *w, int i, const struct shown *sh,
		     const struct pfmon_count *c, const struct metric *m)
{
	FILE *f = opts.out;
	const char *s = opts.sep;
	int clk = print_is_clock(i);

	/* --summary's totals after -I's intervals, marked as perf marks them */
	if (opts.summary == 1 && opts.interval_ms && !w->interval)
		fprintf(f, "%16s%s", "summary", s);
	if (w->interval)
		fprintf(f, "%6lu.%09lu%s", (unsigned long)(w->at_ns / 1000000000ULL),
			(unsigned long)(w->at_ns % 1000000000ULL), s);
	if (opts.aggr == AGGR_CPU)
		fprintf(f, "CPU%ld%s", w->g->id, s);
	else if (opts.aggr > AGGR_CPU)
		topo_print(f, w->g->id, s);
	else if (opts.aggr == AGGR_THREAD)
		fprintf(f, "%s-%ld%s", w->g->comm, w->g->id, s);
	if (sh->v < 0)
		fputs(print_not_counted(i), f);
	else if (clk)
		fprintf(f, "%.2f", sh->v / 1e6);
	else
		fprintf(f, "%.0f", sh->v);
	fprintf(f, "%s%s%s%s", s, clk ? "msec" : "", s, opts.ev[i].name);
	if (cgroup_mode())
		fprintf(f, "%s%s", s, cgroup_name(i));
	if (sh->rsd >= 0)
		fprintf(f, "%s%.2f%%", s, sh->rsd);
	fprintf(f, "%s%llu%s%.2f", s, sh->v < 0 ? 0ULL : (unsigned long long)c->running, s,
		print_pct(c));
	if (sh->v < 0)
		fprintf(f, "%s%s", s, s);
	else
		csv_metric(f, s, m);
	if (opts.bounds) {
		fprintf(f, "%s%llu%s%llu%s", s, (unsigned long long)c->raw, s,
			(unsigned long long)c->enabled, s);
		if (sh->v >= 0 && sh->bound >= 0)
			fprintf(f, "%.0f", sh->bound);
	}
	fputc('\n', f);
}

/* Event names are libpfm4's or perf's: letters, digits and ":=_.-", no quotes. */
static void json_line(const struct where *w, int i, const struct shown *sh,
		      const struct pfmon_count *c, const struct metric *m)
{
	FILE *f = opts.out;
	int clk = print_is_clock(i);

	fputc('{', f);
	if (w->interval)
		fprintf(f, "\"interval\" : %lu.%09lu, ",
			(unsigned long)(w->at_ns / 1000000000ULL),
			(unsigned long)(w->at_ns % 1000000000ULL));
	if (opts.aggr == AGGR_CPU)
		fprintf(f, "\"cpu\" : \"%ld\", ", w->g->id);
	else if (opts.aggr > AGGR_CPU)
		topo_print(f, w->g->id, NULL);
	else if (opts.aggr == AGGR_THREAD)
		fprintf(f, "\"thread\" : \"%s-%ld\", ", w->g->comm, w->g->id);
	if (sh->v < 0)
		fprintf(f, "\"counter-value\" : \"%s\", ", print_not_counted(i));
	else
		fprintf(f, "\"counter-value\" : \"%f\", ", clk ? sh->v / 1e6 : sh->v);
	fprintf(f, "\"unit\" : \"%s\", \"event\" : \"%s\", ", clk ? "msec" : "",
		opts.ev[i].name);
	if (cgroup_mode())
		fprintf(f, "\"cgroup\" : \"%s\", ", cgroup_name(i));
	if (sh->rsd >= 0)
		fprintf(f, "\"variance\" : %.2f, ", sh->rsd);
	fprintf(f, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ",
		sh->v < 0 ? 0ULL : (unsigned long long)c->running, print_pct(c));
	/* perf prints no value as 0 and no unit as (null), but "" when not counted */
	fprintf(f, "\"metric-value\" : %f, \"metric-unit\" : \"%s\"",
		sh->v >= 0 && m->fmt ? m->v : 0.0,
		sh->v < 0 ? "" : m->unit ? m->unit : "(null)");
	if (opts.bounds) {
		fprintf(f, ", \"raw\" : %llu, \"enabled-ns\" : %llu, ",
			(unsigned long long)c->raw, (unsigned long long)c->enabled);
		if (sh->v >= 0 && sh->bound >= 0)
			fprintf(f, "\"bound\" : %.0f", sh->bound);
		else
			fputs("\"bound\" : null", f);
	}
	fputs("}\n", f);
}

void print_perf_line(const struct where *w, int i, const struct shown *s,
		     const struct pfmon_count *c, const struct metric *m)
{
	if (opts.json)
		json_line(w, i, s, c, m);
	else
		csv_line(w, i, s, c, m);
}

void print_perf_summary(const struct pfmon_result *res, double elapsed, int nruns)
{
	FILE *f = opts.out;

	if (!opts.json)
		return;
	fprintf(f, "{\"elapsed_ns\" : %.0f", elapsed);
	if (res->have_ru)
		fprintf(f, ", \"user_ns\" : %llu, \"sys_ns\" : %llu",
			(unsigned long long)res->ru.ru_utime.tv_sec * 1000000000ULL +
			res->ru.ru_utime.tv_usec * 1000ULL,
			(unsigned long long)res->ru.ru_stime.tv_sec * 1000000000ULL +
			res->ru.ru_stime.tv_usec * 1000ULL);
	fprintf(f, ", \"runs\" : %d}\n", nruns);
}
