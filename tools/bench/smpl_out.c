// SPDX-License-Identifier: GPL-2.0
/*
 * smpl_bench's output (smpl_bench.h): a table per phase, the goals judged on the
 * last phase, and the JSON line the host collects.
 */
#include <stdio.h>
#include <string.h>

#include "smpl_bench.h"

static const enum sampler pfm_samplers[] = { SMP_SHIM, SMP_DFL };
static const enum sampler all_samplers[] = { SMP_PERF, SMP_SHIM, SMP_DFL };

static void point_name(const struct curve *cv, int pt, char *buf, size_t n)
{
	if (cv->wl == WL_CLOCK)
		snprintf(buf, n, "%lu kHz", cv->x[pt] / 1000);
	else
		snprintf(buf, n, "every %lu", cv->x[pt]);
}

/* "median [p25-p75]" in a field of its own */
static const char *fmt3(char *buf, size_t n, struct stat3 v, double scale, const char *f)
{
	char a[16], b[16], c[16];

	snprintf(a, sizeof(a), f, scale * v.med);
	snprintf(b, sizeof(b), f, scale * v.p25);
	snprintf(c, sizeof(c), f, scale * v.p75);
	snprintf(buf, n, "%s [%s,%s]", a, b, c);
	return buf;
}

/* Where each sampler throttled or lost samples in the phase (medians of the rounds). */
static void smpl_print_throttled(const struct phase *ph)
{
	const struct curve *cv;
	const struct smp_res *x;
	char pn[32];
	int c, pt, k, n;

	for (k = 0; k < 3; k++) {
		printf("%s throttled or lost samples:", smp_name[all_samplers[k]]);
		n = 0;
		for (c = 0; c < NWL * NSCOPES; c++) {
			cv = &ph->c[c];
			for (pt = 0; pt < cv->npts; pt++) {
				x = &cv->r[pt][all_samplers[k]];
				if (!x->throttle && !x->lost && !x->dropped)
					continue;
				point_name(cv, pt, pn, sizeof(pn));
				printf("%s %s %s %s (%.0f THROTTLE, %.0f lost, %.0f samples%s)",
				       n++ ? ";" : "", wl_name[cv->wl], scope_name[cv->scope], pn,
				       x->throttle, x->lost, x->samples,
				       x->dropped ? ", the buffer full" : "");
			}
		}
		printf("%s\n", n ? "" : " nowhere");
	}
}

void smpl_print_phase(const struct phase *ph)
{
	char pn[32], over[80], per[80], net[80], rat[80], nrat[80];
	const struct curve *cv;
	const struct smp_res *x;
	int c, pt, k;

	printf("\nphase %s: perf_event_max_sample_rate %ld, perf_cpu_time_max_percent %ld, "
	       "perfmon's perf_max_sample_rate %ld\n", ph->name, ph->perf_max_rate,
	       ph->perf_cpu_pct, ph->pfm_max_rate);
	printf("unmonitored: clock %s ns (%.0f ms), %s ns (%.0f ms); faults %s ns; medians "
	       "[25th,75th percentile]; thr: THROTTLE records\n",
	       fmt3(per, sizeof(per), ph->c[WL_CLOCK * NSCOPES].none_ns[0], 1, "%.0f"), clock_ms(0),
	       fmt3(over, sizeof(over), ph->c[WL_CLOCK * NSCOPES].none_ns[1], 1, "%.0f"),
	       clock_ms(1), fmt3(net, sizeof(net), ph->c[WL_FAULTS * NSCOPES].none_ns[0], 1,
				 "%.0f"));
	printf("%-13s %-9s %-5s %7s %4s %4s  %-26s %-19s %-19s %-20s %s\n", "curve", "point",
	       "smplr", "samples", "thr", "lost", "overhead %", "ns/sample", "net ns/sample",
	       "/perf per sample", "/perf net");
	for (c = 0; c < NWL * NSCOPES; c++) {
		cv = &ph->c[c];
		for (pt = 0; pt < cv->npts; pt++) {
			point_name(cv, pt, pn, sizeof(pn));
			for (k = 0; k < 3; k++) {
				enum sampler how = all_samplers[k];

				x = &cv->r[pt][how];
				fmt3(over, sizeof(over), x->over, 100, "%+.3f");
				fmt3(per, sizeof(per), x->per_sample, 1, "%.0f");
				fmt3(net, sizeof(net), x->net, 1, "%.0f");
				fmt3(rat, sizeof(rat), x->ratio, 1, "%.3f");
				fmt3(nrat, sizeof(nrat), x->net_ratio, 1, "%.3f");
				printf("%-6s %-6s %-9s %-5s %7.0f %4.0f %4.0f  %-26s %-19s %-19s "
				       "%-20s %s%s\n", wl_name[cv->wl], scope_name[cv->scope], pn,
				       smp_name[how], x->samples, x->throttle, x->lost, over, per,
				       cv->wl == WL_FAULTS ? net : "", how != SMP_PERF ? rat : "",
				       how != SMP_PERF && cv->wl == WL_FAULTS ? nrat : "",
				       x->dropped ? "  (buffer full: samples dropped)" : "");
			}
		}
	}
	smpl_print_throttled(ph);
	fflush(stdout);
}

/* What flatness is judged on: per sample for the clock, net of counting for faults. */
static double flat_cost(const struct curve *cv, int pt, enum sampler how)
{
	const struct smp_res *x = &cv->r[pt][how];

	return cv->wl == WL_CLOCK ? x->per_sample.med : x->net.med;
}

/* max / min - 1 of a sampler's cost over the curve's points */
static double growth(const struct curve *cv, enum sampler how)
{
	double lo = flat_cost(cv, 0, how), hi = lo, v;
	int pt;

	for (pt = 1; pt < cv->npts; pt++) {
		v = flat_cost(cv, pt, how);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	return lo > 0 ? hi / lo - 1 : 99;
}

static void curve_name(const struct curve *cv, char *buf, size_t n)
{
	snprintf(buf, n, "%s %s", cv->wl == WL_CLOCK ? "task-clock" : "page-fault",
		 cv->scope == SC_THREAD ? "per-thread" : "CPU-wide");
}

/*
 * What stands in the way of a sampler at a point where it costs more than perf's
 * sample.  The shim and the default format share the path from the event to
 * the core's overflow (the task clock's timer, or the fault's probe): their
 * difference is the perf layer's record against the default format's entry.
 */
static void ratio_note(const struct curve *cv, int pt, enum sampler how, char *buf, size_t n)
{
	const struct smp_res *x = &cv->r[pt][how], *p = &cv->r[pt][SMP_PERF];
	const struct smp_res *d = &cv->r[pt][SMP_DFL];
	const char *path = cv->wl == WL_CLOCK ?
		"perfmon's task-clock timer (sw_clock.c: the clocks folded and the next "
		"expiry set in the interrupt) and the core's overflow path (ovfl.c)" :
		"perfmon's fault probe (sw_hooks.c) and the core's overflow path (ovfl.c)";
	int k;

	k = snprintf(buf, n, "%.0f ns a sample against perf's %.0f", x->per_sample.med,
		     p->per_sample.med);
	if (cv->wl == WL_FAULTS && cv->x[pt] > 1)
		k += snprintf(buf + k, n - k, " (with the %lu faults counted between samples)",
			      cv->x[pt] - 1);
	if (how == SMP_SHIM)
		snprintf(buf + k, n - k, "; the default format's sample, by the same path from "
			 "the event to the overflow, costs %.0f: the perf layer's sample record "
			 "and ring (kernel/perfmon/perf/sample.c, ring.c) take %.0f ns more than "
			 "the default format's entry", d->per_sample.med,
			 x->per_sample.med - d->per_sample.med);
	else
		snprintf(buf + k, n - k, ": %s with the default format's entry (dfl_smpl.c) "
			 "cost more than perf's whole sample", path);
}

/* every point of the curve: the sampler's cost per sample against perf's */
static void ratio_goal(const struct curve *cv, enum sampler how, struct goal *g)
{
	char cn[32], pn[32];
	int pt, worst = 0;

	for (pt = 1; pt < cv->npts; pt++)
		if (cv->r[pt][how].ratio.med > cv->r[worst][how].ratio.med)
			worst = pt;
	curve_name(cv, cn, sizeof(cn));
	point_name(cv, worst, pn, sizeof(pn));
	snprintf(g->text, sizeof(g->text), "smpl %s, %s/perf cost per sample at every point "
		 "(the worst: %s)", cn, smp_name[how], pn);
	g->figure = cv->r[worst][how].ratio.med;
	g->limit = 1.0;
	g->note[0] = '\0';
	if (g->figure > g->limit)
		ratio_note(cv, worst, how, g->note, sizeof(g->note));
}

/*
 * Why a sampler's cost per sample is not flat: on the clock, a cost per batch
 * that the samples do not bring (the first and the last point tell it apart);
 * on faults, the faults between samples, dearer in a sampling context than in
 * a counting one.
 */
static void flat_note(const struct curve *cv, enum sampler how, char *buf, size_t n)
{
	int last = cv->npts - 1, k = 0, pt;
	const struct smp_res *lo = &cv->r[0][how], *hi = &cv->r[last][how];
	const struct smp_res *plo = &cv->r[0][SMP_PERF], *phi = &cv->r[last][SMP_PERF];

	k += snprintf(buf + k, n - k, "ns per sample");
	for (pt = 0; pt <= last; pt++)
		k += snprintf(buf + k, n - k, "%s %.0f", pt ? "," : "", flat_cost(cv, pt, how));
	if (cv->wl == WL_CLOCK)
		k += snprintf(buf + k, n - k, ": about %.0f ns a batch that the samples do not "
			      "bring (perf's %.0f), spread over the %.0f samples of the slowest "
			      "rate", (lo->per_sample.med - hi->per_sample.med) * lo->samples,
			      (plo->per_sample.med - phi->per_sample.med) * plo->samples,
			      lo->samples);
	else
		k += snprintf(buf + k, n - k, ": each of the faults between samples costs "
			      "%.1f ns more in a sampling context than counting alone (perf's "
			      "%.1f), %lu of them a sample at every %lu",
			      (hi->net.med - lo->net.med) / (cv->x[last] - cv->x[0]),
			      (phi->net.med - plo->net.med) / (cv->x[last] - cv->x[0]),
			      cv->x[last] - 1, cv->x[last]);
	if (growth(cv, SMP_PERF) <= 0.10)
		snprintf(buf + k, n - k, "; perf's is flat too (the goal holds where perf's "
			 "grows)");
}

/* the sampler's cost per sample flat within 10% across the curve */
static void flat_goal(const struct curve *cv, enum sampler how, struct goal *g)
{
	char cn[32], lo[32], hi[32];

	curve_name(cv, cn, sizeof(cn));
	point_name(cv, 0, lo, sizeof(lo));
	point_name(cv, cv->npts - 1, hi, sizeof(hi));
	snprintf(g->text, sizeof(g->text), "smpl %s, %s cost per sample%s flat within 10%% "
		 "from %s to %s (max/min - 1; perf's %.3f)", cn, smp_name[how],
		 cv->wl == WL_FAULTS ? " net of counting" : "", lo, hi, growth(cv, SMP_PERF));
	g->figure = growth(cv, how);
	g->limit = 0.10;
	g->note[0] = '\0';
	if (g->figure > g->limit)
		flat_note(cv, how, g->note, sizeof(g->note));
}

int smpl_make_goals(const struct phase *ph, struct goal *g)
{
	int n = 0, c, k;

	for (c = 0; c < NWL * NSCOPES; c++)
		for (k = 0; k < 2; k++)
			ratio_goal(&ph->c[c], pfm_samplers[k], &g[n++]);
	for (c = 0; c < NWL * NSCOPES; c++)
		for (k = 0; k < 2; k++)
			flat_goal(&ph->c[c], pfm_samplers[k], &g[n++]);
	return n;
}

/*
 * Under the limits the guest booted with: each perfmon sampler throttles where
 * perf_events does and nowhere else (the points where one side throttled and
 * the other did not are the figure).
 */
void smpl_throttle_goal(const struct phase *ph, enum sampler how, struct goal *g)
{
	const struct curve *cv;
	char pn[32];
	int c, pt, n = 0, k = 0;

	snprintf(g->text, sizeof(g->text), "smpl %s limits, %s throttles where perf_events "
		 "throttles and nowhere else (points that differ)", ph->name, smp_name[how]);
	g->note[0] = '\0';
	for (c = 0; c < NWL * NSCOPES; c++) {
		cv = &ph->c[c];
		for (pt = 0; pt < cv->npts; pt++) {
			const struct smp_res *x = &cv->r[pt][how], *p = &cv->r[pt][SMP_PERF];

			if (!x->throttle == !p->throttle)
				continue;
			point_name(cv, pt, pn, sizeof(pn));
			if (k < (int)sizeof(g->note) - 1)
				k += snprintf(g->note + k, sizeof(g->note) - k, "%s%s %s %s: %s %.0f "
					      "THROTTLE, %.0f samples, perf %.0f, %.0f", n ? "; " : "",
					      wl_name[cv->wl], scope_name[cv->scope], pn,
					      smp_name[how], x->throttle, x->samples, p->throttle,
					      p->samples);
			n++;
		}
	}
	g->figure = n;
	g->limit = 0;
	if (n && how == SMP_SHIM && k < (int)sizeof(g->note) - 1)
		snprintf(g->note + k, sizeof(g->note) - k, "; the perf layer throttles a "
			 "software event past perf_max_sample_rate / HZ overflows a tick "
			 "(kernel/perfmon/perf/sample.c, pfm_perf_throttled()), where 6.1 "
			 "throttles no page-fault sample (perf_swevent_overflow() passes "
			 "throttle 0 for an occurrence's overflow), only the clocks' hrtimer "
			 "and hardware events");
}

void smpl_print_goals(const struct phase *ph, const struct goal *g, int n)
{
	int i;

	printf("\ngoals (phase %s, medians):\n", ph->name);
	for (i = 0; i < n; i++) {
		printf("%-7s %s: %.3f (goal <= %g)\n", g[i].figure <= g[i].limit ? "met" :
		       "NOT MET", g[i].text, g[i].figure, g[i].limit);
		if (g[i].figure > g[i].limit && g[i].note[0])
			printf("        in the way: %s\n", g[i].note);
	}
	fflush(stdout);
}

static void js(const char *name, struct stat3 s, int digits, const char *sep)
{
	printf("\"%s\": [%.*f, %.*f, %.*f]%s", name, digits, s.p25, digits, s.med, digits,
	       s.p75, sep);
}

static void json_smp(const struct curve *cv, const struct smp_res *x, enum sampler how)
{
	printf("\"%s\": {", smp_name[how]);
	js("ns", x->ns, 0, ", ");
	js("overhead", x->over, 6, ", ");
	js("per_sample", x->per_sample, 1, ", ");
	if (cv->wl == WL_FAULTS)
		js("net_per_sample", x->net, 1, ", ");
	if (how != SMP_PERF) {
		js("per_sample_over_perf", x->ratio, 4, ", ");
		if (cv->wl == WL_FAULTS)
			js("net_over_perf", x->net_ratio, 4, ", ");
	}
	printf("\"samples\": %.0f, \"throttle\": %.0f, \"lost\": %.0f, \"dropped\": %s}",
	       x->samples, x->throttle, x->lost, x->dropped ? "true" : "false");
}

static void json_phase(const struct phase *ph)
{
	const struct curve *cv;
	int c, pt, k;

	printf("{\"name\": \"%s\", \"limits\": {\"perf_event_max_sample_rate\": %ld, "
	       "\"perf_cpu_time_max_percent\": %ld, \"perfmon_perf_max_sample_rate\": %ld}, "
	       "\"curves\": [", ph->name, ph->perf_max_rate, ph->perf_cpu_pct,
	       ph->pfm_max_rate);
	for (c = 0; c < NWL * NSCOPES; c++) {
		cv = &ph->c[c];
		printf("%s{\"workload\": \"%s\", \"scope\": \"%s\", \"x\": \"%s\", ", c ? ", " : "",
		       wl_name[cv->wl], scope_name[cv->scope],
		       cv->wl == WL_CLOCK ? "Hz" : "every x faults");
		if (cv->wl == WL_FAULTS) {
			printf("\"counting_ns\": {");
			for (k = 0; k < 3; k++)
				js(smp_name[all_samplers[k]], cv->count_ns[all_samplers[k]], 0,
				   k < 2 ? ", " : "}, ");
		}
		printf("\"points\": [");
		for (pt = 0; pt < cv->npts; pt++) {
			printf("%s{\"x\": %lu, ", pt ? ", " : "", cv->x[pt]);
			if (cv->wl == WL_CLOCK)
				printf("\"ms\": %.0f, ", clock_ms(pt));
			js("none_ns", cv->none_ns[pt], 0, ", ");
			for (k = 0; k < 3; k++) {
				json_smp(cv, &cv->r[pt][all_samplers[k]], all_samplers[k]);
				printf(k < 2 ? ", " : "}");
			}
		}
		printf("]}");
	}
	printf("]}");
}

/*
 * "ratios": every perfmon / perf median ratio of the cost per sample, by a name
 * that stays.  The ratios net of counting are left to the points: each is the
 * difference of two batches of the same size over their few samples (46 at
 * every 64 faults), and moves by a few percent from boot to boot.
 */
static void json_ratios(const struct phase *ph, int nph)
{
	const struct curve *cv;
	const char *sep = "";
	int i, c, pt, k;

	for (i = 0; i < nph; i++)
		for (c = 0; c < NWL * NSCOPES; c++) {
			cv = &ph[i].c[c];
			for (pt = 0; pt < cv->npts; pt++)
				for (k = 0; k < 2; k++) {
					printf("%s\"smpl.%s.%s.%s.%lu.%s.per_sample\": %.4f", sep,
					       ph[i].name, wl_name[cv->wl], scope_name[cv->scope],
					       cv->x[pt], smp_name[pfm_samplers[k]],
					       cv->r[pt][pfm_samplers[k]].ratio.med);
					sep = ", ";
				}
		}
}

void smpl_json(const struct smpl_cfg *cfg, const struct phase *ph, int nph,
	       const struct goal *g, int ng)
{
	int i;

	printf("\nBENCH-SMPL-JSON: {\"unit\": \"ns\", \"rounds\": %d, \"stat\": "
	       "\"[p25, median, p75]\", \"cpu_ms\": %.0f, \"clock_samples\": %ld, "
	       "\"faults\": %ld, \"goals_phase\": \"%s\", \"phases\": [", cfg->rounds,
	       cfg->cpu_ms, cfg->clock_samples, cfg->faults, ph[nph - 1].name);
	for (i = 0; i < nph; i++) {
		printf(i ? ", " : "");
		json_phase(&ph[i]);
	}
	printf("], \"goals\": [");
	for (i = 0; i < ng; i++)
		printf("%s{\"goal\": \"%s\", \"figure\": %.4f, \"limit\": %g, \"cmp\": \"<=\", "
		       "\"note\": \"%s\"}", i ? ", " : "", g[i].text, g[i].figure, g[i].limit,
		       g[i].note);
	printf("], \"ratios\": {");
	json_ratios(ph, nph);
	printf("}}\n");
	fflush(stdout);
}
