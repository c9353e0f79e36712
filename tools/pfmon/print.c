// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: the counts as text, and what every format shares (pfmon.h, print.h).
 *
 * Text is perf stat's layout: counts with thousands separators, a derived
 * metric after '#', and, when events were multiplexed, the estimate's 95%
 * bound "[+- N]" ("[+- ?]" when unknown: muxlog.c) and the share of time the
 * event's set was live "(P%)"; then elapsed, user and system time.  -I prints
 * perf's "#  time counts unit events" header every 25 intervals, as perf does.
 * CSV and JSON are perf stat's (print_perf.c).
 *
 * The metrics are perf stat's: a clock's CPUs utilized (over the elapsed time,
 * the interval's with -I), instructions per cycle, the share of branches
 * missed, cycles per ns of the clock (GHz), and for every other event its
 * rate per second of the clock's time, when a clock event was counted.  With
 * --per-thread or -A, a thread's or CPU's rates are over its own clock.  An
 * event whose counters never ran is "<not counted>", as in perf.  --no-scale
 * prints the raw counts of multiplexed events, without a bound; --quiet
 * prints nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"

/*
 * The count of an event: exact with one set; with several, the estimate muxlog.c
 * made at the end of the run, or, for an interval (-I), the count scaled by the
 * share of time its set was live, as perf stat scales.  -1 when not counted.
 * An interval may have counts and no time: a live thread's set duration, read
 * from another CPU, can run ahead of its counts at one read and stand still at
 * the next (seen in a guest whose CPUs' clocks differ); with one set the count
 * is exact all the same.
 */
static double estimate(const struct pfmon_count *c)
{
	if (!c->running && (!c->raw || c->enabled))
		return -1;
	if (c->running == c->enabled || opts.no_scale)
		return (double)c->raw;
	if (c->final)
		return c->est;
	return (double)c->raw * c->enabled / c->running;
}

/* Half-width of the estimate's 95% interval: 0 when exact, -1 when unknown. */
static double bound(const struct pfmon_count *c)
{
	if (!c->enabled || c->running == c->enabled)
		return 0;
	if (opts.no_scale || !c->final || c->unbounded || !c->running)
		return -1;
	return sqrt(c->bound2);
}

/* perf's share of time counted: 100 * run / ena in integers, as perf computes it */
double print_pct(const struct pfmon_count *c)
{
	if (!c->enabled || c->running == c->enabled)
		return 100.0;
	return (double)(100 * c->running / c->enabled);
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

/* The first of names counted in event of's cgroup (perf's shadow stats are per cgroup) */
static int find(const double *v, const char *const *names, int of)
{
	int i;

	for (i = 0; i < opts.nev; i++)
		if (v[i] >= 0 && !opts.ev[i].hidden && opts.ev[i].cgroup == opts.ev[of].cgroup &&
		    base_is(opts.ev[i].name, names))
			return i;
	return -1;
}

/* What an event means beside the others: perf stat's shadow metrics. */
static struct metric metric(int i, const double *v, double elapsed_ns)
{
	struct metric m = { 0, NULL, NULL, "" };
	double clk = 0, r;
	int have_clk = 0, k, j;
	const char *scale = "KMG";

	for (k = 0; k < opts.nev; k++) {
		if (print_is_clock(k) && v[k] >= 0 && opts.ev[k].cgroup == opts.ev[i].cgroup) {
			have_clk = 1;
			clk += v[k];
		}
	}
	if (print_is_clock(i)) {
		m.unit = "CPUs utilized";
		if (elapsed_ns > 0) {
			m.fmt = "%8.3f";
			m.v = v[i] / elapsed_ns;
		}
	} else if (!opts.ev[i].soft && base_is(opts.ev[i].name, insn_names)) {
		m.unit = "insn per cycle";
		j = find(v, cycles_names, i);
		if (j >= 0 && v[j] > 0) {
			m.fmt = "%7.2f";
			m.v = v[i] / v[j];
		}
	} else if (!opts.ev[i].soft && base_is(opts.ev[i].name, miss_names)) {
		m.unit = "of all branches";
		j = find(v, branch_names, i);
		if (j >= 0 && v[j] > 0) {
			m.fmt = "%7.2f%%";
			m.v = 100.0 * v[i] / v[j];
		}
	} else if (!opts.ev[i].soft && base_is(opts.ev[i].name, cycles_names)) {
		m.unit = have_clk ? "GHz" : "Ghz";
		if (have_clk && clk > 0) {
			m.fmt = "%8.3f";
			m.v = v[i] / clk;
		}
	} else if (have_clk) {
		/* perf's convert_unit_double(): K, M, G above each thousand */
		r = clk > 0 ? 1e9 * v[i] / clk : 0;
		for (k = 0; k < 3 && r > 1000.0; k++)
			r /= 1000.0;
		snprintf(m.buf, sizeof(m.buf), "%.*s/sec", k ? 1 : 0, k ? scale + k - 1 : "");
		m.unit = m.buf;
		m.fmt = "%8.3f";
		m.v = v[i] < 0 ? 0 : r;
	}
	return m;
}

/*
 * v with 'decimals' decimals and a comma between thousands, whatever the locale
 * (none with --no-big-num)
 */
static const char *grouped(double v, int decimals, char *buf, size_t len)
{
	char tmp[64], *dot;
	size_t n, i, o = 0, digits;

	snprintf(tmp, sizeof(tmp), "%.*f", decimals, v);
	dot = strchr(tmp, '.');
	digits = dot ? (size_t)(dot - tmp) : strlen(tmp);
	for (i = 0, n = strlen(tmp); i < n && o + 2 < len; i++) {
		if (i && i < digits && (digits - i) % 3 == 0 && opts.big_num)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

static void text_line(const struct where *w, int i, const struct shown *s,
		      const struct pfmon_count *c, const struct metric *m)
{
	FILE *f = opts.out;
	double clk = print_is_clock(i) ? 1e6 : 1;
	char num[64];

	if (w->interval)
		fprintf(f, "%6lu.%09lu ", (unsigned long)(w->at_ns / 1000000000ULL),
			(unsigned long)(w->at_ns % 1000000000ULL));
	if (opts.aggr == AGGR_CPU)
		fprintf(f, "CPU%-7ld ", w->g->id);
	else if (opts.aggr > AGGR_CPU)
		topo_print(f, w->g->id, NULL);
	else if (opts.aggr == AGGR_THREAD)
		fprintf(f, "%16s-%-8ld ", w->g->comm, w->g->id);
	if (s->v < 0)
		fprintf(f, "%18s %-4s %-24s", print_not_counted(i), clk > 1 ? "msec" : "",
			opts.ev[i].name);
	else
		fprintf(f, "%18s %-4s %-24s", grouped(s->v / clk, clk > 1 ? 2 : 0, num,
						      sizeof(num)),
			clk > 1 ? "msec" : "", opts.ev[i].name);
	if (cgroup_mode())
		fprintf(f, " %s", cgroup_name(i));
	if (m->unit && m->fmt && s->v >= 0) {
		fputs(" # ", f);
		fprintf(f, m->fmt, m->v);
		fprintf(f, " %s", m->unit);
	}
	if (s->rsd > 0)
		fprintf(f, "  ( +- %5.2f%% )", s->rsd);
	if (s->v >= 0 && c->running < c->enabled) {
		/* the estimate's 95% bound, then the share of time counted (perf's) */
		if (opts.no_scale)
			;	/* a raw count is no estimate: it has no bound */
		else if (s->bound >= 0)
			fprintf(f, "  [+- %s]", grouped(s->bound / clk, clk > 1 ? 2 : 0, num,
							 sizeof(num)));
		else if (c->final)
			fputs("  [+- ?]", f);
		fprintf(f, "  (%.2f%%)", 100.0 * c->running / c->enabled);
	}
	fputc('\n', f);
}

static void line(const struct where *w, int i, const struct shown *s,
		 const struct pfmon_count *c, const struct metric *m)
{
	if (opts.json || opts.sep)
		print_perf_line(w, i, s, c, m);
	else
		text_line(w, i, s, c, m);
}

static const struct pfmon_group *sort_groups;
static int sort_ev;

/* perf's --per-thread order: the highest count first */
static int by_count(const void *a, const void *b)
{
	double va = estimate(&sort_groups[*(const int *)a].count[sort_ev]);
	double vb = estimate(&sort_groups[*(const int *)b].count[sort_ev]);

	if (va != vb)
		return va < vb ? 1 : -1;
	return *(const int *)a - *(const int *)b;
}

/* Event i's line for group gi; rsd, bnd and mean as lines() has them. */
static void group_line(struct where *w, const struct pfmon_group *gi, int i, double elapsed,
		       const double *rsd, const double *bnd, const double *mean)
{
	double v[PFMON_MAX_EVENTS];
	const struct pfmon_count *c = gi->count;
	struct metric m;
	struct shown s;
	int e;

	for (e = 0; e < opts.nev; e++)
		v[e] = mean ? mean[e] : estimate(&c[e]);
	w->g = gi;
	m = metric(i, v, elapsed);
	s = (struct shown){ v[i], rsd ? rsd[i] : -1, bnd ? bnd[i] : bound(&c[i]) };
	line(w, i, &s, &c[i], &m);
}

/*
 * Each event's line, per group: perf prints an event's threads or CPUs
 * together, and a socket's, die's, core's or node's events together
 * (--per-socket and the like: its print_aggr()).  rsd and bnd (per event, or
 * NULL) are -r's and the runs' bound.
 */
static void lines(struct where *w, const struct pfmon_group *g, int n, double elapsed,
		  const double *rsd, const double *bnd, const double *mean)
{
	int *order = calloc(n, sizeof(*order)), i, k;

	if (!order)
		pfmon_fail("calloc", ENOMEM, -1);
	if (opts.aggr > AGGR_CPU) {
		for (k = 0; k < n; k++)
			for (i = 0; i < opts.nev; i++)
				if (!opts.ev[i].hidden)
					group_line(w, &g[k], i, elapsed, rsd, bnd, mean);
		free(order);
		return;
	}
	for (i = 0; i < opts.nev; i++) {
		if (opts.ev[i].hidden)
			continue;
		for (k = 0; k < n; k++)
			order[k] = k;
		if (opts.aggr == AGGR_THREAD) {
			sort_groups = g;
			sort_ev = i;
			qsort(order, n, sizeof(*order), by_count);
		}
		for (k = 0; k < n; k++)
			group_line(w, &g[order[k]], i, elapsed, rsd, bnd, mean);
	}
	free(order);
}

/* perf's "process id '1,2'" or "thread id '3'": the ids -p (tid 0) or -t (1) named */
static void print_ids(FILE *f, int tid)
{
	const char *sep = "";
	int i, any = 0;

	for (i = 0; i < opts.npids; i++)
		any |= opts.pid_is_tid[i] == tid;
	if (!any)
		return;
	for (i = 0; i < opts.npids; i++)
		any &= opts.pid_is_tid[i] == tid;
	fprintf(f, "%s%s id '", tid && !any ? " and " : "", tid ? "thread" : "process");
	for (i = 0; i < opts.npids; i++) {
		if (opts.pid_is_tid[i] != tid)
			continue;
		fprintf(f, "%s%d", sep, opts.pids[i]);
		sep = ",";
	}
	fputc('\'', f);
}

/* perf's -I headers for --per-socket, --per-die, --per-core, --per-node */
static const char *const topo_header[] = {
	"#           time socket cpus             counts unit events",
	"#           time die          cpus             counts unit events",
	"#           time core            cpus             counts unit events",
	"#           time node   cpus             counts unit events",
};

void print_interval(const struct pfmon_group *g, int n, uint64_t at_ns)
{
	static int printed;
	struct where w = { at_ns, 1, NULL };

	if (opts.quiet)
		return;
	/* perf's: the screen cleared, the header again, each interval */
	if (opts.interval_clear)
		fputs("\033[H\033[2J", opts.out);
	if (!opts.json && !opts.sep && (printed++ % 25 == 0 || opts.interval_clear))
		fprintf(opts.out, "%s\n", opts.aggr == AGGR_THREAD ?
			"#           time             comm-pid                  counts unit events" :
			opts.aggr == AGGR_CPU ?
			"#           time CPU                    counts unit events" :
			opts.aggr > AGGR_CPU ? topo_header[opts.aggr - AGGR_SOCKET] :
			"#           time             counts unit events");
	lines(&w, g, n, opts.interval_ms * 1e6, NULL, NULL, NULL);
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
	*rsd = n < 2 ? -1 : mean > 0 ? 100.0 * sqrt(var / (n - 1) / n) / mean : 0;
	return mean;
}

/* perf's precision of -r's times: two digits past the first of their deviation */
static int precision(double sd)
{
	if (sd > 1)
		return 2;
	/* no deviation: perf's lround() of infinity comes out as 0 */
	if (sd <= 0)
		return 2;
	return (int)lround(ceil(-log10(sd))) + 2;
}

/*
 * --table: each run's elapsed time, its distance to the mean, and a '#' for
 * every 5% of it, indented as the mean is, as perf prints it
 */
static void table(const uint64_t *elapsed, int nruns, int prec, double avg)
{
	FILE *f = opts.out;
	char tmp[64];
	int r, h, n, indent = 0;
	double run;

	snprintf(tmp, sizeof(tmp), " %17.*f", prec, avg);
	while (tmp[indent] == ' ')
		indent++;
	fprintf(f, "%*s# Table of individual measurements:\n", indent, "");
	for (r = 0; r < nruns; r++) {
		run = elapsed[r] / 1e9;
		n = 1 + abs((int)(100.0 * (run - avg) / run) / 5);
		fprintf(f, " %17.*f (%+.*f) ", prec, run, prec, run - avg);
		for (h = 0; h < n; h++)
			fputc('#', f);
		fputc('\n', f);
	}
	fprintf(f, "\n%*s# Final result:\n", indent, "");
}

/*
 * The text's last lines, perf's: the elapsed time, and the command's user and
 * system times; with -r the runs' mean and the deviation of the mean instead
 * (after --table's table), and no user and system times.  el is the mean in
 * ns, rsd the deviation of the mean in % of it.
 */
static void footer(const struct pfmon_result *res, const uint64_t *elapsed, int nruns,
		   double el, double rsd)
{
	FILE *f = opts.out;
	double sd;
	int prec;

	/* -n: no counts, and no blank line for them */
	if (!opts.null_run)
		fputc('\n', f);
	if (nruns == 1) {
		fprintf(f, " %17.9f seconds time elapsed", el / 1e9);
		if (res->have_ru)
			fprintf(f, "\n\n %17.9f seconds user\n %17.9f seconds sys\n",
				res->ru.ru_utime.tv_sec + res->ru.ru_utime.tv_usec / 1e6,
				res->ru.ru_stime.tv_sec + res->ru.ru_stime.tv_usec / 1e6);
	} else {
		sd = rsd > 0 ? rsd * el / 100 / 1e9 : 0;
		prec = precision(sd);
		if (opts.table)
			table(elapsed, nruns, prec, el / 1e9);
		fprintf(f, " %17.*f +- %.*f seconds time elapsed", prec, el / 1e9, prec, sd);
		if (rsd > 0)
			fprintf(f, "  ( +-%6.2f%% )", rsd);
	}
	fputs("\n\n", f);
}

void print_counts(const struct pfmon_count *const *runs, int nruns,
		  const struct pfmon_result *res, const uint64_t *elapsed)
{
	double v[PFMON_MAX_EVENTS], rsd[PFMON_MAX_EVENTS], bnd[PFMON_MAX_EVENTS], x[1024];
	const struct pfmon_count *last = runs[nruns - 1];
	struct where w = { 0, 0, NULL };
	struct pfmon_group all = { -1, "", (struct pfmon_count *)last };
	double el, el_rsd, b2, b;
	FILE *f = opts.out;
	int i, r, n = nruns < 1024 ? nruns : 1024;
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
	if ((opts.interval_ms && !opts.summary) || opts.quiet) {
		/* the intervals said it all, the last one, partial, included */
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
			print_ids(f, 0);
			print_ids(f, 1);
		}
		if (opts.ncpus)
			fprintf(f, "%s%d CPU%s", opts.argv ? " on " : "", opts.ncpus,
				opts.ncpus > 1 ? "s" : "");
		if (nruns > 1)
			fprintf(f, " (%d runs)", nruns);
		fprintf(f, ":\n\n");
	}
	if (opts.aggr == AGGR_ALL)
		lines(&w, &all, 1, el, rsd, bnd, v);
	else
		lines(&w, res->groups, res->ngroups, el, NULL, NULL, NULL);
	if (opts.sep || opts.json) {
		if (opts.bounds)
			print_perf_summary(res, el, nruns);
		return;
	}
	footer(res, elapsed, nruns, el, el_rsd);
}
