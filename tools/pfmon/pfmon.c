// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: count (or sample) events of a command, of running threads, or of CPUs.
 *
 *   pfmon [options] [--] COMMAND [ARGS]
 *   pfmon [options] -p PID[,PID...] | -t TID[,TID...]
 *   pfmon [options] -a | -C LIST [COMMAND [ARGS]]
 *
 * The options are listed by usage() and described in pfmon(1); options.c reads
 * them.  This file runs the measurement once or -r times; target.c attaches
 * the contexts, evsel.c programs them, print.c prints what they counted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pfmon.h"
#include "smpl.h"

/* -I: each group's counts at the last interval, to print what the next added */
static struct pfmon_count *prev;
static int nprev;

static void tick(const struct pfmon_group *now, int n, uint64_t at_ns)
{
	struct pfmon_group *d;
	int g, i;

	if (n > nprev) {
		prev = realloc(prev, n * opts.nev * sizeof(*prev));
		if (!prev)
			pfmon_fail("realloc", ENOMEM, -1);
		memset(prev + nprev * opts.nev, 0, (n - nprev) * opts.nev * sizeof(*prev));
		nprev = n;
	}
	d = calloc(n, sizeof(*d));
	for (g = 0; d && g < n; g++) {
		struct pfmon_count *p = prev + g * opts.nev;

		d[g] = now[g];
		d[g].count = calloc(opts.nev, sizeof(*d[g].count));
		if (!d[g].count)
			break;
		for (i = 0; i < opts.nev; i++) {
			d[g].count[i].raw = now[g].count[i].raw - p[i].raw;
			d[g].count[i].running = now[g].count[i].running - p[i].running;
			d[g].count[i].enabled = now[g].count[i].enabled - p[i].enabled;
		}
		memcpy(p, now[g].count, opts.nev * sizeof(*p));
	}
	if (!d || g < n)
		pfmon_fail("calloc", ENOMEM, -1);
	print_interval(d, n, at_ns);
	for (g = 0; g < n; g++)
		free(d[g].count);
	free(d);
}

/* --pre, --post: a failed command ends pfmon, as it would spoil the runs' mean */
static void hook(const char *cmd, const char *what)
{
	int st;

	if (!cmd)
		return;
	fflush(opts.out);
	st = system(cmd);
	if (st == -1) {
		fprintf(stderr, "pfmon: %s '%s': %s\n", what, cmd, strerror(errno));
		exit(1);
	}
	if (WIFSIGNALED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "pfmon: %s '%s': %s %d\n", what, cmd,
			WIFSIGNALED(st) ? "killed by signal" : "exit status",
			WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		exit(1);
	}
}

/*
 * -r 0, perf stat's "forever": each run is printed as a run of its own (its
 * intervals alone with -I, as perf), then forgotten, until pfmon is killed.
 * Returns 1 to run again.
 */
static int forever_print(struct pfmon_result *res, uint64_t elapsed)
{
	const struct pfmon_count *one = res->count;

	if (!opts.interval_ms)
		print_counts(&one, 1, res, &elapsed);
	if (fflush(opts.out)) {
		perror("pfmon: output");
		exit(1);
	}
	free(res->count);
	return 1;
}

int main(int argc, char **argv)
{
	struct pfmon_count **runs;
	struct pfmon_result res;
	uint64_t *elapsed;
	FILE *smpl_out = NULL;
	int r;

	parse(argc, argv);
	if (!opts.null_run)
		evsel_place();
	if (opts.verbose)
		perfopts_verbose();
	if (opts.smpl_period && opts.nsets > 1) {
		fprintf(stderr, "pfmon: sampling needs every event in one set: %d events "
			"need %d sets\n", opts.nev, opts.nsets);
		return 2;
	}
	if (opts.smpl_out) {
		smpl_out = fopen(opts.smpl_out, "w");
		if (!smpl_out) {
			fprintf(stderr, "pfmon: %s: %s\n", opts.smpl_out, strerror(errno));
			return 2;
		}
		smpl_set_out(smpl_out);
	}
	runs = calloc(opts.repeat, sizeof(*runs));
	elapsed = calloc(opts.repeat, sizeof(*elapsed));
	if (!runs || !elapsed)
		pfmon_fail("calloc", ENOMEM, -1);
	for (r = 0; r < opts.repeat; r++) {
		memset(&res, 0, sizeof(res));
		nprev = 0;
		hook(opts.pre, "--pre");
		/* -S: as perf, after --pre, so that the run does not pay for earlier writes */
		if (opts.sync)
			sync();
		if (opts.null_run)
			null_run(&res);
		else
			target_run(&res, tick);
		if (res.exec_failed)
			return 127;
		hook(opts.post, "--post");
		runs[r] = res.count;
		elapsed[r] = res.elapsed_ns;
		if (opts.forever && forever_print(&res, elapsed[r])) {
			r--;
			continue;
		}
	}
	print_counts((const struct pfmon_count *const *)runs, opts.repeat, &res, elapsed);
	if (opts.smpl_period && !opts.quiet)
		smpl_report(opts.out, opts.smpl_freq ? 0 : opts.smpl_period, opts.ev[0].name,
			    opts.smpl_freq ? res.count[0].running : 0);
	if (smpl_out)
		fclose(smpl_out);
	if (fflush(opts.out) || (opts.out != stdout && fclose(opts.out))) {
		perror("pfmon: output");
		return 1;
	}
	if (!opts.argv || !res.have_ru)
		return 0;
	/* the end --timeout asked for is no failure, as in perf stat */
	if (WIFSIGNALED(res.status) && !res.timed_out)
		return 128 + WTERMSIG(res.status);
	if (WIFSIGNALED(res.status))
		return 0;
	return WEXITSTATUS(res.status);
}
