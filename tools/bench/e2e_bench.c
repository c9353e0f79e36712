// SPDX-License-Identifier: GPL-2.0
/*
 * e2e_bench: the real tools end to end.  The whole guest time (from before the
 * fork to after the wait: exec, the tool's start, the workload, the tool's end)
 * of
 *
 *   perf stat -e task-clock,page-faults,context-switches -- W
 *   perf record -F 1000 -g -- W
 *   perf record -c 64 -e page-faults -- W
 *
 * through the perf_event_open shim against the same command natively, and of
 * pfmon -- W against perf stat -- W, for two workloads W: the demo workload
 * (system calls and fresh pages) and a shell script that runs 200 processes.
 * Both sides of a comparison run in the same boot, interleaved round by round
 * (which goes first alternates), after a warm-up run of perf stat and of perf
 * record that is not counted (the first of a boot costs more).  The ratios
 * are each round's a over the same round's b.  The last round's outputs are
 * compared: perf stat's counts, the samples perf record took and perf report's
 * top entry.
 *
 *   E2E_ROUNDS (3), E2E_W (the demo workload's arguments), E2E_FORK_N (200),
 *   E2E_WORKLOADS (demo,fork), E2E_SETTLE_MS (1500: the guest's sleep before each
 *   run, e2e.h)
 *
 * Output: a table, the goal lines, then "BENCH-E2E-JSON: {...}" for the host.
 * e2e_bench --time CMD [ARGS]: the guest time of one run of CMD, printed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_common.h"
#include "e2e.h"

#define DIR		"/tmp/e2e"
#define MAXARG		32
#define NPAIRS		4

enum kind { STAT, RECORD };

struct pair {
	const char *name, *a_name, *b_name, *goal;
	const char *why;		/* what is known to stand in the way, or NULL */
	const char *a_pre, *b_pre;	/* the tool's argv before -- W; @ is its output file */
	enum e2e_how a_how, b_how;
	enum kind kind;
	double tol;			/* perf record: samples within tol percent */
};

static const struct pair pairs[NPAIRS] = {
	{ "stat", "shim", "native", "perf stat through the shim against native", NULL,
	  "/usr/bin/perf stat -e task-clock,page-faults,context-switches -x, -o @",
	  "/usr/bin/perf stat -e task-clock,page-faults,context-switches -x, -o @",
	  E2E_SHIM, E2E_NATIVE, STAT, 0 },
	{ "record-F", "shim", "native", "perf record -F 1000 -g through the shim against native",
	  "some 23 ms more of guest time a run, not analysed; the ring's memory "
	  "and the gate probe's unregistering no longer wait for grace periods "
	  "in the closing thread (perf/output.c, perf/cgroup.c)",
	  "/usr/bin/perf record -F 1000 -g -o @", "/usr/bin/perf record -F 1000 -g -o @",
	  E2E_SHIM, E2E_NATIVE, RECORD, 10 },
	{ "record-c", "shim", "native",
	  "perf record -c 64 -e page-faults through the shim against native",
	  "some 23 ms more of guest time a run, not analysed; the ring's memory "
	  "and the gate probe's unregistering no longer wait for grace periods "
	  "in the closing thread (perf/output.c, perf/cgroup.c)",
	  "/usr/bin/perf record -c 64 -e page-faults -o @",
	  "/usr/bin/perf record -c 64 -e page-faults -o @",
	  E2E_SHIM, E2E_NATIVE, RECORD, 1 },
	{ "pfmon", "pfmon", "perf stat", "pfmon against perf stat", NULL,
	  "/bin/pfmon -x, -o @", "/usr/bin/perf stat -x, -o @",
	  E2E_PLAIN, E2E_PLAIN, STAT, 0 },
};

struct workload {
	const char *name, *words;
	char w[256];			/* its command line */
	double *bare;			/* W alone, per round */
	double *a[NPAIRS], *b[NPAIRS];	/* per round, ns */
	double warm_stat, warm_record;	/* the warm-up runs, ns */
	struct e2e_check chk[NPAIRS][E2E_MAX_CHECKS];
	int nchk[NPAIRS];
};

static struct workload wls[2] = {
	{ .name = "demo", .words = "the demo workload" },
	{ .name = "fork", .words = "a shell script running 200 processes" },
};

static int rounds;

/* argv of "pre -- w" into v (words split on spaces, @ made file); its count */
static int build_argv(char *buf, size_t len, const char *pre, const char *w,
		      const char *file, char **v)
{
	char *s, *save;
	int n = 0;

	snprintf(buf, len, "%s%s%s", pre, *pre ? " -- " : "", w);
	for (s = strtok_r(buf, " ", &save); s && n < MAXARG - 1;
	     s = strtok_r(NULL, " ", &save))
		v[n++] = strcmp(s, "@") ? s : (char *)file;
	v[n] = NULL;
	return n;
}

static void out_file(char *buf, size_t len, const struct workload *wl, int p, char side)
{
	snprintf(buf, len, DIR "/%s.%s.%c.%s", wl->name, pairs[p].name, side,
		 pairs[p].kind == RECORD ? "data" : "csv");
}

static double run_side(const struct workload *wl, int p, char side)
{
	char buf[1024], file[128], log[140], *v[MAXARG];

	out_file(file, sizeof(file), wl, p, side);
	snprintf(log, sizeof(log), "%s.log", file);
	build_argv(buf, sizeof(buf), side == 'a' ? pairs[p].a_pre : pairs[p].b_pre,
		   wl->w, file, v);
	return e2e_run(v, side == 'a' ? pairs[p].a_how : pairs[p].b_how, log);
}

static double run_bare(const struct workload *wl)
{
	char buf[1024], *v[MAXARG];

	build_argv(buf, sizeof(buf), "", wl->w, NULL, v);
	return e2e_run(v, E2E_PLAIN, DIR "/bare.log");
}

static double *alloc_rounds(void)
{
	double *v = calloc(rounds, sizeof(double));

	if (!v)
		die("calloc");
	return v;
}

static void measure(struct workload *wl)
{
	int p, i;

	wl->bare = alloc_rounds();
	run_bare(wl);
	/*
	 * The first perf stat and the first perf record of a boot cost more (perf's
	 * pages, its build-id cache): one of each, natively, not counted
	 */
	wl->warm_stat = run_side(wl, 0, 'b');
	wl->warm_record = run_side(wl, 1, 'b');
	for (p = 0; p < NPAIRS; p++) {
		wl->a[p] = alloc_rounds();
		wl->b[p] = alloc_rounds();
	}
	for (i = 0; i < rounds; i++) {
		wl->bare[i] = run_bare(wl);
		for (p = 0; p < NPAIRS; p++) {
			if (i & 1) {
				wl->b[p][i] = run_side(wl, p, 'b');
				wl->a[p][i] = run_side(wl, p, 'a');
			} else {
				wl->a[p][i] = run_side(wl, p, 'a');
				wl->b[p][i] = run_side(wl, p, 'b');
			}
		}
	}
	for (p = 0; p < NPAIRS; p++) {
		char fa[128], fb[128];

		out_file(fa, sizeof(fa), wl, p, 'a');
		out_file(fb, sizeof(fb), wl, p, 'b');
		wl->nchk[p] = pairs[p].kind == STAT ?
			e2e_check_stat(fa, fb, wl->chk[p]) :
			e2e_check_record(fa, fb, pairs[p].tol, wl->chk[p]);
	}
}

/* stat3 of a copy (stat3() sorts what it is given) */
static struct stat3 st(const double *v)
{
	double c[rounds];

	memcpy(c, v, sizeof(c));
	return stat3(c, rounds);
}

static struct stat3 ratio(const double *a, const double *b)
{
	double r[rounds];
	int i;

	for (i = 0; i < rounds; i++)
		r[i] = a[i] / b[i];
	return stat3(r, rounds);
}

static int mismatches(const struct workload *wl)
{
	int p, i, n = 0;

	for (p = 0; p < NPAIRS; p++)
		for (i = 0; i < wl->nchk[p]; i++)
			n += !wl->chk[p][i].same;
	return n;
}

/* What differs, for the goal's note */
static void diff_note(char *buf, size_t len, const struct workload *wl)
{
	size_t n = 0;
	int p, i;

	buf[0] = '\0';
	for (p = 0; p < NPAIRS; p++)
		for (i = 0; i < wl->nchk[p] && n < len; i++) {
			const struct e2e_check *c = &wl->chk[p][i];

			if (c->same)
				continue;
			n += snprintf(buf + n, len - n, "%s%s %s: %s %s, %s %s", n ? "; " : "",
				      pairs[p].name, c->what, pairs[p].a_name, c->a,
				      pairs[p].b_name, c->b);
		}
}

static void print_table(const struct workload *wl)
{
	struct stat3 s, a, b, r;
	int p, i;

	s = st(wl->bare);
	printf("\ne2e_bench: %s (%s), %d rounds: ms (median, quartiles); ratio a/b\n",
	       wl->words, wl->w, rounds);
	printf("  %-21s %8.2f [%8.2f %8.2f]   (warm-up, not counted: perf stat %.2f, "
	       "perf record %.2f)\n", "W alone", s.med / 1e6, s.p25 / 1e6, s.p75 / 1e6,
	       wl->warm_stat / 1e6, wl->warm_record / 1e6);
	for (p = 0; p < NPAIRS; p++) {
		a = st(wl->a[p]);
		b = st(wl->b[p]);
		r = ratio(wl->a[p], wl->b[p]);
		printf("  %-9s a %-9s %8.2f [%8.2f %8.2f]  b %-9s %8.2f [%8.2f %8.2f]"
		       "  %.3f [%.3f %.3f]\n",
		       pairs[p].name, pairs[p].a_name, a.med / 1e6, a.p25 / 1e6, a.p75 / 1e6,
		       pairs[p].b_name, b.med / 1e6, b.p25 / 1e6, b.p75 / 1e6, r.med, r.p25,
		       r.p75);
		for (i = 0; i < wl->nchk[p]; i++)
			printf("      %-4s %-16s a: %s  b: %s\n",
			       wl->chk[p][i].same ? "same" : "DIFF", wl->chk[p][i].what,
			       wl->chk[p][i].a, wl->chk[p][i].b);
	}
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		if ((unsigned char)*s >= 0x20)
			putchar(*s);
	}
	putchar('"');
}

static void json_stat(const char *key, struct stat3 s, double scale)
{
	printf("\"%s\": [%.4f, %.4f, %.4f]", key, s.p25 / scale, s.med / scale,
	       s.p75 / scale);
}

/*
 * The goal's note when it is not met: how much longer a is, against W alone, and
 * what is known to cost it
 */
static void gap_note(char *buf, size_t len, const struct workload *wl, int p)
{
	struct stat3 a = st(wl->a[p]), b = st(wl->b[p]), w = st(wl->bare);

	snprintf(buf, len, "%s: %s %.2f ms against %s %.2f ms (%.2f ms more; W alone "
		 "%.2f ms)%s%s", wl->name, pairs[p].a_name, a.med / 1e6, pairs[p].b_name,
		 b.med / 1e6, (a.med - b.med) / 1e6, w.med / 1e6,
		 pairs[p].why ? "; " : "", pairs[p].why ?: "");
}

static void goal_line(const char *goal, double fig, double limit, const char *note)
{
	int met = fig <= limit;

	printf("E2E-GOAL: %-7s %s: %.3f (goal <= %g)%s%s\n", met ? "met" : "NOT MET",
	       goal, fig, limit, met ? "" : "; ", met ? "" : note);
}

static void goals(int nwl)
{
	char g[256], note[1024];
	int k, p;

	printf("\n");
	for (k = 0; k < nwl; k++) {
		for (p = 0; p < NPAIRS; p++) {
			snprintf(g, sizeof(g), "%s, %s", pairs[p].goal, wls[k].words);
			gap_note(note, sizeof(note), &wls[k], p);
			goal_line(g, ratio(wls[k].a[p], wls[k].b[p]).med, 1.0, note);
		}
		snprintf(g, sizeof(g), "the same output through the shim and natively, "
			 "pfmon and perf stat, %s (checks that differ)", wls[k].words);
		diff_note(note, sizeof(note), &wls[k]);
		goal_line(g, mismatches(&wls[k]), 0, note);
	}
}

static void json_checks(const struct workload *wl, int p)
{
	int i;

	printf(", \"checks\": [");
	for (i = 0; i < wl->nchk[p]; i++) {
		printf("%s{\"what\": ", i ? ", " : "");
		json_str(wl->chk[p][i].what);
		printf(", \"a\": ");
		json_str(wl->chk[p][i].a);
		printf(", \"b\": ");
		json_str(wl->chk[p][i].b);
		printf(", \"same\": %s}", wl->chk[p][i].same ? "true" : "false");
	}
	printf("]");
}

static void json_goal(int first, const char *goal, double fig, double limit,
		      const char *note)
{
	printf("%s{\"goal\": ", first ? "" : ", ");
	json_str(goal);
	printf(", \"figure\": %.4f, \"limit\": %g, \"cmp\": \"<=\"", fig, limit);
	if (fig > limit) {
		printf(", \"note\": ");
		json_str(note);
	}
	printf("}");
}

static void json(int nwl)
{
	char g[256], note[1024];
	int k, p;

	printf("\nBENCH-E2E-JSON: {\"unit\": \"ms\", \"rounds\": %d, \"workloads\": {", rounds);
	for (k = 0; k < nwl; k++) {
		const struct workload *wl = &wls[k];

		printf("%s\"%s\": {\"command\": ", k ? ", " : "", wl->name);
		json_str(wl->w);
		printf(", ");
		json_stat("alone_ms", st(wl->bare), 1e6);
		printf(", \"warm_up_ms\": {\"perf stat\": %.4f, \"perf record\": %.4f}",
		       wl->warm_stat / 1e6, wl->warm_record / 1e6);
		printf(", \"pairs\": {");
		for (p = 0; p < NPAIRS; p++) {
			printf("%s\"%s\": {\"a\": \"%s\", \"b\": \"%s\", ", p ? ", " : "",
			       pairs[p].name, pairs[p].a_name, pairs[p].b_name);
			json_stat("a_ms", st(wl->a[p]), 1e6);
			printf(", ");
			json_stat("b_ms", st(wl->b[p]), 1e6);
			printf(", ");
			json_stat("ratio", ratio(wl->a[p], wl->b[p]), 1);
			json_checks(wl, p);
			printf("}");
		}
		printf("}}");
	}
	printf("}, \"goals\": [");
	for (k = 0; k < nwl; k++) {
		for (p = 0; p < NPAIRS; p++) {
			snprintf(g, sizeof(g), "e2e: %s, %s", pairs[p].goal, wls[k].words);
			gap_note(note, sizeof(note), &wls[k], p);
			json_goal(!k && !p, g, ratio(wls[k].a[p], wls[k].b[p]).med, 1.0, note);
		}
		snprintf(g, sizeof(g), "e2e: the same output, %s (checks that differ)",
			 wls[k].words);
		diff_note(note, sizeof(note), &wls[k]);
		json_goal(0, g, mismatches(&wls[k]), 0, note);
	}
	printf("], \"ratios\": {");
	for (k = 0; k < nwl; k++)
		for (p = 0; p < NPAIRS; p++)
			printf("%s\"e2e.%s.%s\": %.4f", k || p ? ", " : "", wls[k].name,
			       pairs[p].name, ratio(wls[k].a[p], wls[k].b[p]).med);
	printf("}}\n");
}

int main(int argc, char **argv)
{
	const char *w = getenv("E2E_W") ?: "-s 100000 -p 2048";
	const char *forks = getenv("E2E_FORK_N") ?: "200";
	const char *only = getenv("E2E_WORKLOADS") ?: "demo,fork";
	int k, nwl = 0;

	e2e_settle_ms = atoi(getenv("E2E_SETTLE_MS") ?: "1500");
	/* one command timed, its output on /dev/null: for finding where time goes */
	if (argc > 2 && !strcmp(argv[1], "--time")) {
		printf("%.3f ms: %s\n", e2e_run(argv + 2, E2E_PLAIN, "/dev/null") / 1e6,
		       argv[2]);
		return 0;
	}
	rounds = atoi(getenv("E2E_ROUNDS") ?: "3");
	if (rounds < 1)
		rounds = 1;
	mkdir(DIR, 0755);
	/* perf record writes its build-id cache under $HOME */
	setenv("HOME", DIR, 1);
	snprintf(wls[0].w, sizeof(wls[0].w), "/bin/workload %s", w);
	snprintf(wls[1].w, sizeof(wls[1].w), "/bin/sh /bin/e2e-fork.sh %s", forks);
	for (k = 0; k < 2; k++)
		if (strstr(only, wls[k].name))
			wls[nwl++] = wls[k];
	for (k = 0; k < nwl; k++) {
		measure(&wls[k]);
		print_table(&wls[k]);
		fflush(stdout);
	}
	goals(nwl);
	json(nwl);
	return 0;
}
