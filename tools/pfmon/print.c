// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: the counts as text, CSV or JSON (pfmon.h).
 *
 * Text is perf stat's layout: counts with thousands separators, a derived
 * metric after '#', and, when events were multiplexed, the estimate's 95%
 * bound "[+- N]" ("[+- ?]" when unknown: muxlog.c) and the share of time the
 * event's set was live "(P%)"; then elapsed, user and system time.
 *
 * CSV (-x SEP), one line per event, always these fields:
 *   [time,] value, unit, event, raw, running_ns, enabled_ns, percent,
 *   rsd_percent, metric, metric_unit, bound
 * JSON (-j), one object per line with the same names ("time" with -I), then,
 * without -I, one summary object:
 *   {"elapsed_ns":N,"user_ns":N,"sys_ns":N,"runs":N}
 * value is the count, or the estimate of a multiplexed one; raw what the
 * counters counted; bound the half-width of value's 95% interval (0: exact;
 * empty and null when unknown, as for -I's intervals, which are scaled
 * linearly); percent is 100 * running / enabled; rsd_percent (-r) the relative
 * standard deviation of the mean over the runs; an event that never ran has an
 * empty value and null.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pfmon.h"

struct metric {
	double v;
	const char *unit;	/* NULL: none */
};

/*
 * The count of an event: exact with one set; with several, the estimate muxlog.c
 * made at the end of the run, or, for an interval (-I), the count scaled by the
 * share of time its set was live, as perf stat scales.  -1 when not counted.
 */
static double estimate(const struct pfmon_count *c)
{
	if (!c->enabled || c->running == c->enabled)
		return (double)c->raw;
	if (!c->running)
		return -1;
	if (c->final)
		return c->est;
	return (double)c->raw * c->enabled / c->running;
}

/* Half-width of the estimate's 95% interval: 0 when exact, -1 when unknown. */
static double bound(const struct pfmon_count *c)
{
	if (!c->enabled || c->running == c->enabled)
		return 0;
	if (!c->final || c->unbounded || !c->running)
		return -1;
	return sqrt(c->bound2);
}

static double percent(const struct pfmon_count *c)
{
	return c->enabled ? 100.0 * c->running / c->enabled : 100.0;
}

static const char *base_is(const char *name, const char *const *list)
{
	size_t n;

	for (; *list; list++) {
		n = strlen(*list);
		if (!strncmp(name, *list, n) && (!name[n] || name[n] == ':'))
			return *list;
	}
	return NULL;
}

static const char *const cycles_names[] = { "cycles", "UNHALTED_CORE_CYCLES",
	"CPU_CLK_UNHALTED", "CYCLES_NOT_IN_HALT", NULL };
static const char *const insn_names[] = { "instructions", "INSTRUCTION_RETIRED",
	"INST_RETIRED", "RETIRED_INSTRUCTIONS", NULL };
static const char *const branch_names[] = { "branches", "BRANCH_INSTRUCTIONS_RETIRED",
	"BR_INST_RETIRED", "RETIRED_BRANCH_INSTRUCTIONS", NULL };
static const char *const miss_names[] = { "branch-misses", "MISPREDICTED_BRANCH_RETIRED",
	"BR_MISP_RETIRED", "RETIRED_MISPREDICTED_BRANCH_INSTRUCTIONS", NULL };

static int find(const double *v, const char *const *names)
{
	int i;

	for (i = 0; i < opts.nev; i++)
		if (v[i] >= 0 && !opts.ev[i].hidden && base_is(opts.ev[i].name, names))
			return i;
	return -1;
}

/* What an event means beside the others: perf stat's shadow metrics. */
static struct metric metric(int i, const double *v, double elapsed_ns)
{
	struct metric m = { 0, NULL };
	int clk = -1, k, j;

	for (k = 0; k < opts.nev; k++)
		if (opts.ev[k].sw == PFM_SW_EV_TASK_CLOCK && v[k] > 0)
			clk = k;
	if (v[i] < 0)
		return m;
	if (opts.ev[i].sw == PFM_SW_EV_TASK_CLOCK) {
		if (elapsed_ns > 0)
			m = (struct metric){ v[i] / elapsed_ns, "CPUs utilized" };
	} else if (opts.ev[i].sw && clk >= 0) {
		m = (struct metric){ v[i] / (v[clk] / 1e9), "/sec" };
	} else if (base_is(opts.ev[i].name, insn_names) && (j = find(v, cycles_names)) >= 0 &&
		   v[j] > 0) {
		m = (struct metric){ v[i] / v[j], "insn per cycle" };
	} else if (base_is(opts.ev[i].name, miss_names) && (j = find(v, branch_names)) >= 0 &&
		   v[j] > 0) {
		m = (struct metric){ 100.0 * v[i] / v[j], "% of all branches" };
	}
	return m;
}

/* v with 'decimals' decimals and a comma between thousands, whatever the locale */
static const char *grouped(double v, int decimals, char *buf, size_t len)
{
	char tmp[64], *dot;
	size_t n, i, o = 0, digits;

	snprintf(tmp, sizeof(tmp), "%.*f", decimals, v);
	dot = strchr(tmp, '.');
	digits = dot ? (size_t)(dot - tmp) : strlen(tmp);
	for (i = 0, n = strlen(tmp); i < n && o + 2 < len; i++) {
		if (i && i < digits && (digits - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

/* What is printed of a count: its value, -r's deviation and its bound (or -1). */
struct shown {
	double v, rsd, bound;
};

static void text_line(const char *prefix, int i, const struct shown *w,
		      const struct pfmon_count *c, struct metric m)
{
	FILE *f = opts.out;
	const char *scale = "";
	double mv = m.v, clk = opts.ev[i].sw == PFM_SW_EV_TASK_CLOCK ? 1e6 : 1;
	char num[64];

	fputs(prefix, f);
	if (w->v < 0)
		fprintf(f, "%18s      %-24s", "<not counted>", opts.ev[i].name);
	else
		fprintf(f, "%18s %s %-24s", grouped(w->v / clk, clk > 1 ? 2 : 0, num, sizeof(num)),
			clk > 1 ? "msec" : "    ", opts.ev[i].name);
	if (m.unit && !strcmp(m.unit, "/sec")) {
		if (mv >= 1e6) {
			mv /= 1e6;
			scale = "M";
		} else if (mv >= 1e3) {
			mv /= 1e3;
			scale = "K";
		}
		fprintf(f, " # %8.3f %s%s", mv, scale, m.unit);
	} else if (m.unit) {
		fprintf(f, " # %8.3f %s", mv, m.unit);
	}
	if (w->rsd >= 0)
		fprintf(f, "  ( +- %5.2f%% )", w->rsd);
	if (w->v >= 0 && c->running < c->enabled) {
		/* the estimate's 95% bound, then the share of time counted (perf's) */
		if (w->bound >= 0)
			fprintf(f, "  [+- %s]", grouped(w->bound / clk, clk > 1 ? 2 : 0, num,
							 sizeof(num)));
		else if (c->final)
			fputs("  [+- ?]", f);
		fprintf(f, "  (%.2f%%)", percent(c));
	}
	fputc('\n', f);
}

static void csv_line(double t, int i, const struct shown *w, const struct pfmon_count *c,
		     struct metric m)
{
	FILE *f = opts.out;
	const char *s = opts.sep;

	if (t >= 0)
		fprintf(f, "%.9f%s", t, s);
	if (w->v >= 0)
		fprintf(f, "%.0f", w->v);
	fprintf(f, "%s%s%s%s%s%llu%s%llu%s%llu%s%.2f%s", s,
		opts.ev[i].sw == PFM_SW_EV_TASK_CLOCK ? "ns" : "", s, opts.ev[i].name, s,
		(unsigned long long)c->raw, s, (unsigned long long)c->running, s,
		(unsigned long long)c->enabled, s, percent(c), s);
	if (w->rsd >= 0)
		fprintf(f, "%.2f", w->rsd);
	fputs(s, f);
	if (m.unit)
		fprintf(f, "%.6f%s%s", m.v, s, m.unit);
	else
		fputs(s, f);
	fputs(s, f);
	if (w->v >= 0 && w->bound >= 0)
		fprintf(f, "%.0f", w->bound);
	fputc('\n', f);
}

/* Event names are libpfm4's or ours: letters, digits and ":=_.-{}", no quotes. */
static void json_line(double t, int i, const struct shown *w, const struct pfmon_count *c,
		      struct metric m)
{
	FILE *f = opts.out;

	fputc('{', f);
	if (t >= 0)
		fprintf(f, "\"time\":%.9f,", t);
	fprintf(f, "\"event\":\"%s\",\"unit\":\"%s\",", opts.ev[i].name,
		opts.ev[i].sw == PFM_SW_EV_TASK_CLOCK ? "ns" : "");
	if (w->v >= 0)
		fprintf(f, "\"value\":%.0f,", w->v);
	else
		fputs("\"value\":null,", f);
	if (w->v >= 0 && w->bound >= 0)
		fprintf(f, "\"bound\":%.0f,", w->bound);
	else
		fputs("\"bound\":null,", f);
	fprintf(f, "\"raw\":%llu,\"running_ns\":%llu,\"enabled_ns\":%llu,\"percent\":%.2f",
		(unsigned long long)c->raw, (unsigned long long)c->running,
		(unsigned long long)c->enabled, percent(c));
	if (w->rsd >= 0)
		fprintf(f, ",\"rsd_percent\":%.2f", w->rsd);
	if (m.unit)
		fprintf(f, ",\"metric\":%.6f,\"metric_unit\":\"%s\"", m.v, m.unit);
	fputs("}\n", f);
}

static void line(double t, int i, const struct shown *w, const struct pfmon_count *c,
		 struct metric m)
{
	char prefix[32] = "";

	if (opts.json)
		json_line(t, i, w, c, m);
	else if (opts.sep)
		csv_line(t, i, w, c, m);
	else {
		if (t >= 0)
			snprintf(prefix, sizeof(prefix), "%16.9f", t);
		text_line(prefix, i, w, c, m);
	}
}

void print_interval(const struct pfmon_count *delta, uint64_t at_ns)
{
	double v[PFMON_MAX_EVENTS];
	struct shown w;
	int i;

	for (i = 0; i < opts.nev; i++)
		v[i] = estimate(&delta[i]);
	for (i = 0; i < opts.nev; i++) {
		if (opts.ev[i].hidden)
			continue;
		w = (struct shown){ v[i], -1, bound(&delta[i]) };
		line(at_ns / 1e9, i, &w, &delta[i], metric(i, v, opts.interval_ms * 1e6));
	}
	fflush(opts.out);
}

static double mean_rsd(const double *x, int n, double *rsd)
{
	double mean = 0, var = 0;
	int i;

	for (i = 0; i < n; i++)
		mean += x[i] / n;
	for (i = 0; i < n; i++)
		var += (x[i] - mean) * (x[i] - mean);
	/* the standard deviation of the mean, relative to it, as perf stat -r */
	*rsd = n > 1 && mean > 0 ? 100.0 * sqrt(var / (n - 1) / n) / mean : -1;
	return mean;
}

void print_counts(const struct pfmon_count *const *runs, int nruns,
		  const struct pfmon_result *res, const uint64_t *elapsed)
{
	double v[PFMON_MAX_EVENTS], rsd[PFMON_MAX_EVENTS], bnd[PFMON_MAX_EVENTS], x[1024];
	const struct pfmon_count *last = runs[nruns - 1];
	double el, el_rsd, b2, b;
	FILE *f = opts.out;
	int i, r, n = nruns < 1024 ? nruns : 1024;
	struct shown w;
	char **a;

	for (r = 0; r < n; r++)
		x[r] = elapsed[r];
	el = mean_rsd(x, n, &el_rsd);
	for (i = 0; i < opts.nev; i++) {
		b2 = 0;
		for (r = 0; r < n; r++) {
			x[r] = estimate(&runs[r][i]);
			b = bound(&runs[r][i]);
			b2 = b < 0 || b2 < 0 ? -1 : b2 + b * b;
		}
		v[i] = mean_rsd(x, n, &rsd[i]);
		/* the runs' errors taken as independent: the mean's bound */
		bnd[i] = b2 < 0 ? -1 : sqrt(b2) / n;
		if (estimate(&last[i]) < 0)
			v[i] = -1;
	}
	if (opts.interval_ms) {
		/* the intervals said it all, save what the last one did not cover */
		return;
	}
	if (!opts.sep && !opts.json) {
		fprintf(f, "\n Performance counter stats for ");
		if (opts.argv) {
			fputc('\'', f);
			for (a = opts.argv; *a; a++)
				fprintf(f, "%s%s", a == opts.argv ? "" : " ", *a);
			fputc('\'', f);
		} else if (opts.npids) {
			fprintf(f, "%s %d%s", opts.pid_is_tid[0] ? "thread" : "process",
				opts.pids[0], opts.npids > 1 ? " and others" : "");
		}
		if (opts.ncpus)
			fprintf(f, "%s%d CPU%s", opts.argv ? " on " : "", opts.ncpus,
				opts.ncpus > 1 ? "s" : "");
		if (nruns > 1)
			fprintf(f, " (%d runs)", nruns);
		fprintf(f, ":\n\n");
	}
	for (i = 0; i < opts.nev; i++) {
		if (opts.ev[i].hidden)
			continue;
		w = (struct shown){ v[i], rsd[i], bnd[i] };
		line(-1, i, &w, &last[i], metric(i, v, el));
	}
	if (opts.sep)
		return;
	if (opts.json) {
		fprintf(f, "{\"elapsed_ns\":%.0f", el);
		if (res->have_ru)
			fprintf(f, ",\"user_ns\":%llu,\"sys_ns\":%llu",
				(unsigned long long)res->ru.ru_utime.tv_sec * 1000000000ULL +
				res->ru.ru_utime.tv_usec * 1000ULL,
				(unsigned long long)res->ru.ru_stime.tv_sec * 1000000000ULL +
				res->ru.ru_stime.tv_usec * 1000ULL);
		fprintf(f, ",\"runs\":%d}\n", nruns);
		return;
	}
	fprintf(f, "\n%18.9f seconds time elapsed", el / 1e9);
	if (el_rsd >= 0)
		fprintf(f, "  ( +- %5.2f%% )", el_rsd);
	fputc('\n', f);
	if (res->have_ru)
		fprintf(f, "\n%18.9f seconds user\n%18.9f seconds sys\n",
			res->ru.ru_utime.tv_sec + res->ru.ru_utime.tv_usec / 1e6,
			res->ru.ru_stime.tv_sec + res->ru.ru_stime.tv_usec / 1e6);
	fputc('\n', f);
}
