// SPDX-License-Identifier: GPL-2.0
/*
 * mux_bench: accuracy and cost of kernel set multiplexing, in the guest.
 *
 * Each set of 2, 4 or 8 counts system calls and page faults on a workload of known
 * phases (mux_work.h), switched by timeout with a random part (anti-aliasing), and
 * logged with the "mux" format.  libperfmon's estimates, linear scaling (perf's
 * method), time interpolation and the one of the two pfm_mux_choose() reports (and
 * pfmon prints), are held against the exact counts of an
 * unmultiplexed run of the same workload, with their 95% bounds.  Each
 * configuration is run REPS times (MUX_REPS in the environment): TCG timing is
 * noisy, so the table gives medians over the runs and the spread (the worst run).
 *
 *   mean err     relative error averaged over the sets and both events of a run
 *   worst        the worst of them in a run
 *   cover        estimates whose bound holds the exact count, over all runs
 *
 * After the table: the goals (mean error at most 2%, worst at most 5%, bounds
 * holding 95%) per number of sets and method, met or not, with the spread of the
 * mean error over the runs.
 *
 * The kernel's own statistics (/sys/kernel/debug/perfmon/stats) give the cost of
 * a switch.  Output: tables, then one line "BENCH-JSON: {...}" for the host.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfmon.h"
#include "mux_work.h"

#define STATS		"/sys/kernel/debug/perfmon/stats"
#define MAX_REPS	100

struct stats {
	unsigned long long switches, ns, pmc_writes, pmd_writes;
};

static void read_stats(struct stats *s)
{
	char name[64];
	unsigned long long v;
	FILE *f = fopen(STATS, "r");

	memset(s, 0, sizeof(*s));
	if (!f)
		return;
	while (fscanf(f, "%63s %llu", name, &v) == 2) {
		if (!strcmp(name, "set_switches"))
			s->switches = v;
		else if (!strcmp(name, "set_switch_ns"))
			s->ns = v;
		else if (!strcmp(name, "set_switch_pmc_writes"))
			s->pmc_writes = v;
		else if (!strcmp(name, "set_switch_pmd_writes"))
			s->pmd_writes = v;
	}
	fclose(f);
}

struct row {
	const char *workload;
	int sets, reps;
	unsigned long long timeout, mask;
	struct mux_figures m[MUX_METHODS];	/* linear, interpolated, chosen */
	double switches, ns_per_switch, pmc_per_switch, pmd_per_switch;
};

static int run_row(enum mux_workload w, int nsets, unsigned long long timeout, int reps,
		   struct row *row)
{
	static struct mux_result res[MAX_REPS];
	struct mux_exact ex;
	struct stats before, after;
	double sw, sum_sw = 0;
	int i;

	memset(row, 0, sizeof(*row));
	row->workload = w == MUX_PHASED ? "phased" : "ramp";
	row->sets = nsets;
	row->reps = reps;
	row->timeout = timeout;
	row->mask = getenv("MUX_MASK") ? strtoull(getenv("MUX_MASK"), NULL, 0) :
		    mux_mask_for(timeout);
	if (mux_exact(w, &ex))
		return -1;
	read_stats(&before);
	for (i = 0; i < reps; i++) {
		if (mux_measure(w, nsets, timeout, row->mask, &ex, &res[i]))
			return -1;
		sum_sw += res[i].switches;
	}
	read_stats(&after);
	for (i = 0; i < MUX_METHODS; i++)
		mux_summarise(res, reps, i, &row->m[i]);
	row->switches = sum_sw / reps;
	sw = after.switches - before.switches ? after.switches - before.switches : 1;
	row->ns_per_switch = (after.ns - before.ns) / sw;
	row->pmc_per_switch = (after.pmc_writes - before.pmc_writes) / sw;
	row->pmd_per_switch = (after.pmd_writes - before.pmd_writes) / sw;
	return 0;
}

static void print_head(void)
{
	printf("%-6s %4s %7s %4s | %-27s | %-27s | %-27s | %8s %7s %5s\n", "", "", "", "",
	       "linear scaling (perf)", "time interpolation", "reported (pfm_mux_choose)",
	       "", "", "");
	printf("%-6s %4s %7s %4s | %6s %6s %6s %6s | %6s %6s %6s %6s | %6s %6s %6s %6s |"
	       " %8s %7s %5s\n", "work", "sets", "timeout", "runs", "mean", "worst", "wmax",
	       "cover", "mean", "worst", "wmax", "cover", "mean", "worst", "wmax", "cover",
	       "switches", "ns/sw", "PMDw");
}

static void print_row(const struct row *r)
{
	int k;

	printf("%-6s %4d %5lluus %4d |", r->workload, r->sets, r->timeout / 1000, r->reps);
	for (k = 0; k < MUX_METHODS; k++)
		printf(" %5.2f%% %5.2f%% %5.1f%% %5.1f%% |", r->m[k].mean_med * 100,
		       r->m[k].worst_med * 100, r->m[k].worst_max * 100, r->m[k].cover * 100);
	printf(" %8.0f %7.0f %5.1f\n", r->switches, r->ns_per_switch, r->pmd_per_switch);
	fflush(stdout);
}

static void print_goals(const struct row *rows, int n)
{
	static const char *const name[MUX_METHODS] = { "linear", "interpolated", "reported" };
	int i, k;

	printf("\ngoals (phased, 1 ms): mean error <= 2%%, worst event <= 5%% in every run, "
	       "95%% bounds hold >= 95%%\n");
	for (i = 0; i < n; i++)
		for (k = 0; k < MUX_METHODS; k++)
			printf("  %d sets %-12s mean %5.2f%% (sd %4.2f%%, max %5.2f%%) worst "
			       "%5.2f%% cover %5.1f%% over %d runs: %s\n", rows[i].sets, name[k],
			       rows[i].m[k].mean_avg * 100, rows[i].m[k].mean_sd * 100,
			       rows[i].m[k].mean_max * 100, rows[i].m[k].worst_max * 100,
			       rows[i].m[k].cover * 100, rows[i].reps,
			       mux_goals_met(&rows[i].m[k]) ? "met" : "NOT met");
	fflush(stdout);
}

static size_t json_row(char *buf, size_t len, const struct row *r, int first)
{
	static const char *const name[MUX_METHODS] = { "linear", "interp", "chosen" };
	size_t n;
	int k;

	n = snprintf(buf, len, "%s{\"workload\":\"%s\",\"sets\":%d,\"timeout_ns\":%llu,"
		     "\"random_mask\":%llu,\"reps\":%d,\"switches_per_run\":%.0f,"
		     "\"ns_per_switch\":%.0f,\"pmc_writes_per_switch\":%.2f,"
		     "\"pmd_writes_per_switch\":%.2f", first ? "" : ",", r->workload,
		     r->sets, r->timeout, r->mask, r->reps, r->switches, r->ns_per_switch,
		     r->pmc_per_switch, r->pmd_per_switch);
	for (k = 0; k < MUX_METHODS; k++)
		n += snprintf(buf + n, len - n, ",\"%s\":{\"mean_err_median\":%.5f,"
			      "\"mean_err_avg\":%.5f,\"mean_err_sd\":%.5f,"
			      "\"mean_err_max\":%.5f,\"worst_err_median\":%.5f,"
			      "\"worst_err_max\":%.5f,\"coverage\":%.4f}", name[k],
			      r->m[k].mean_med, r->m[k].mean_avg, r->m[k].mean_sd,
			      r->m[k].mean_max, r->m[k].worst_med, r->m[k].worst_max,
			      r->m[k].cover);
	return n + snprintf(buf + n, len - n, "}");
}

static int env_int(const char *name, int dfl)
{
	const char *v = getenv(name);
	int n = v ? atoi(v) : dfl;

	return n < 1 ? 1 : n > MAX_REPS ? MAX_REPS : n;
}

int main(void)
{
	static const int nsets[] = { 2, 4, 8 };
	/* the timeout sweep for the plot; 1 ms is the main table's */
	static const unsigned long long sweep[] = { 250000, 500000, 2000000, 4000000 };
	int reps = env_int("MUX_REPS", 20), sweep_reps = env_int("MUX_SWEEP_REPS", 5);
	static char json[65536];
	size_t len = 0;
	unsigned int i, j;
	struct row row, phased[3];
	int first = 1, dump = getenv("MUX_DUMP") != NULL, np = 0;
	/* MUX_SETS=n: the main table for n sets alone */
	int only = getenv("MUX_SETS") ? atoi(getenv("MUX_SETS")) : 0;

	printf("perfmon set multiplexing: estimates against exact counts (mux_work.h)\n");
	printf("medians over the runs; wmax: the worst run; cover: 95%% bounds that hold\n\n");
	len += snprintf(json + len, sizeof(json) - len, "{\"mux\":[");
	print_head();
	for (j = 0; j < 2; j++) {
		for (i = 0; i < sizeof(nsets) / sizeof(nsets[0]); i++) {
			if (only && nsets[i] != only)
				continue;
			if (run_row(j ? MUX_RAMP : MUX_PHASED, nsets[i], 1000000, reps, &row))
				return 1;
			print_row(&row);
			len += json_row(json + len, sizeof(json) - len, &row, first);
			first = 0;
			if (!j)
				phased[np++] = row;
		}
	}
	print_goals(phased, np);
	/* MUX_DUMP (mux_work.c), MUX_SETS: the main table alone */
	if (dump || only) {
		printf("\nBENCH-JSON: %s]}\n", json);
		return 0;
	}
	printf("\ntimeout sweep (phased)\n");
	print_head();
	for (i = 0; i < sizeof(nsets) / sizeof(nsets[0]); i++) {
		for (j = 0; j < sizeof(sweep) / sizeof(sweep[0]); j++) {
			if (run_row(MUX_PHASED, nsets[i], sweep[j], sweep_reps, &row))
				return 1;
			print_row(&row);
			len += json_row(json + len, sizeof(json) - len, &row, 0);
		}
	}
	len += snprintf(json + len, sizeof(json) - len, "]}");
	printf("\nBENCH-JSON: %s\n", json);
	return 0;
}
