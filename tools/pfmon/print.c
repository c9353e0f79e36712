// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: the counts as text, CSV or JSON (pfmon.h).
 *
 * Text is perf stat's layout: counts with thousands separators, a derived
 * metric after '#', the share of time an event's set was live when events were
 * multiplexed, elapsed, user and system time.
 *
 * CSV (-x SEP), one line per event, always these fields:
 *   [time,] value, unit, event, raw, running_ns, enabled_ns, percent,
 *   rsd_percent, metric, metric_unit
 * JSON (-j), one object per line with the same names ("time" with -I), then,
 * without -I, one summary object:
 *   {"elapsed_ns":N,"user_ns":N,"sys_ns":N,"runs":N}
 * value is the scaled estimate, raw what the counters counted; percent is
 * 100 * running / enabled; rsd_percent (-r) the relative standard deviation of
 * the mean over the runs; an event that never ran has an empty value and null.
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
 * The estimate of a multiplexed count.  A hook: the scaled value, as perf stat
 * has it; an estimator with error bounds would go here.  -1 when not counted.
 */
static double estimate(const struct pfmon_count *c)
{
	if (!c->enabled || c->running == c->enabled)
		return (double)c->raw;
	if (!c->running)
		return -1;
	return (double)c->raw * c->enabled / c->running;
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
		if (v[i] >= 0 && base_is(opts.ev[i].name, names))
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

static void text_line(const char *prefix, int i, double v, const struct pfmon_count *c,
		      double rsd, struct metric m)
{
	FILE *f = opts.out;
	const char *scale = "";
	double mv = m.v;
	char num[64];

	fputs(prefix, f);
	if (v < 0)
		fprintf(f, "%18s      %-24s", "<not counted>", opts.ev[i].name);
	else if (opts.ev[i].sw == PFM_SW_EV_TASK_CLOCK)
		fprintf(f, "%18s msec %-24s", grouped(v / 1e6, 2, num, sizeof(num)),
			opts.ev[i].name);
	else
		fprintf(f, "%18s      %-24s", grouped(v, 0, num, sizeof(num)), opts.ev[i].name);
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
	if (rsd >= 0)
		fprintf(f, "  ( +- %5.2f%% )", rsd);
	if (v >= 0 && c->running < c->enabled)
		fprintf(f, "  (%.2f%%)", percent(c));
	fputc('\n', f);
}

static void csv_line(double t, int i, double v, const struct pfmon_count *c, double rsd,
		     struct metric m)
{
	FILE *f = opts.out;
	const char *s = opts.sep;

	if (t >= 0)
		fprintf(f, "%.9f%s", t, s);
	if (v >= 0)
		fprintf(f, "%.0f", v);
	fprintf(f, "%s%s%s%s%s%llu%s%llu%s%llu%s%.2f%s", s,
		opts.ev[i].sw == PFM_SW_EV_TASK_CLOCK ? "ns" : "", s, opts.ev[i].name, s,
		(unsigned long long)c->raw, s, (unsigned long long)c->running, s,
		(unsigned long long)c->enabled, s, percent(c), s);
	if (rsd >= 0)
		fprintf(f, "%.2f", rsd);
	fputs(s, f);
	if (m.unit)
		fprintf(f, "%.6f%s%s", m.v, s, m.unit);
	else
		fputs(s, f);
	fputc('\n', f);
}

/* Event names are libpfm4's or ours: letters, digits and ":=_.-{}", no quotes. */
static void json_line(double t, int i, double v, const struct pfmon_count *c, double rsd,
		      struct metric m)
{
	FILE *f = opts.out;

	fputc('{', f);
	if (t >= 0)
		fprintf(f, "\"time\":%.9f,", t);
	fprintf(f, "\"event\":\"%s\",\"unit\":\"%s\",", opts.ev[i].name,
		opts.ev[i].sw == PFM_SW_EV_TASK_CLOCK ? "ns" : "");
	if (v >= 0)
		fprintf(f, "\"value\":%.0f,", v);
	else
		fputs("\"value\":null,", f);
	fprintf(f, "\"raw\":%llu,\"running_ns\":%llu,\"enabled_ns\":%llu,\"percent\":%.2f",
		(unsigned long long)c->raw, (unsigned long long)c->running,
		(unsigned long long)c->enabled, percent(c));
	if (rsd >= 0)
		fprintf(f, ",\"rsd_percent\":%.2f", rsd);
	if (m.unit)
		fprintf(f, ",\"metric\":%.6f,\"metric_unit\":\"%s\"", m.v, m.unit);
	fputs("}\n", f);
}

static void line(double t, int i, double v, const struct pfmon_count *c, double rsd,
		 struct metric m)
{
	char prefix[32] = "";

	if (opts.json)
		json_line(t, i, v, c, rsd, m);
	else if (opts.sep)
		csv_line(t, i, v, c, rsd, m);
	else {
		if (t >= 0)
			snprintf(prefix, sizeof(prefix), "%16.9f", t);
		text_line(prefix, i, v, c, rsd, m);
	}
}

void print_interval(const struct pfmon_count *delta, uint64_t at_ns)
{
	double v[PFMON_MAX_EVENTS];
	int i;

	for (i = 0; i < opts.nev; i++)
		v[i] = estimate(&delta[i]);
	for (i = 0; i < opts.nev; i++)
		line(at_ns / 1e9, i, v[i], &delta[i], -1,
		     metric(i, v, opts.interval_ms * 1e6));
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
	double v[PFMON_MAX_EVENTS], rsd[PFMON_MAX_EVENTS], x[1024], el, el_rsd;
	const struct pfmon_count *last = runs[nruns - 1];
	FILE *f = opts.out;
	int i, r, n = nruns < 1024 ? nruns : 1024;
	char **a;

	for (r = 0; r < n; r++)
		x[r] = elapsed[r];
	el = mean_rsd(x, n, &el_rsd);
	for (i = 0; i < opts.nev; i++) {
		for (r = 0; r < n; r++)
			x[r] = estimate(&runs[r][i]);
		v[i] = mean_rsd(x, n, &rsd[i]);
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
	for (i = 0; i < opts.nev; i++)
		line(-1, i, v[i], &last[i], rsd[i], metric(i, v, el));
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
