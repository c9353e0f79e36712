// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: count (or sample) events of a command, of running threads, or of CPUs.
 *
 *   pfmon [options] [--] COMMAND [ARGS]
 *   pfmon [options] -p PID[,PID...] | -t TID[,TID...]
 *   pfmon [options] -a | -C LIST [COMMAND [ARGS]]
 *
 * The options are listed by usage() and described in pfmon(1).  This file reads
 * them and runs the measurement once or -r times; target.c attaches the
 * contexts, evsel.c programs them, print.c prints what they counted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pfmon.h"
#include "smpl.h"

struct pfmon_opts opts = {
	.inherit = 1,
	.repeat = 1,
	.switch_ns = 10000000,	/* 10 ms, as perf's default multiplexing interval */
};

enum { OPT_SWITCH = 256, OPT_SMPL_OUT, OPT_NO_INHERIT, OPT_VERSION };

static const struct option long_opts[] = {
	{ "event",		required_argument,	NULL, 'e' },
	{ "pid",		required_argument,	NULL, 'p' },
	{ "tid",		required_argument,	NULL, 't' },
	{ "all-cpus",		no_argument,		NULL, 'a' },
	{ "cpu",		required_argument,	NULL, 'C' },
	{ "repeat",		required_argument,	NULL, 'r' },
	{ "interval-print",	required_argument,	NULL, 'I' },
	{ "field-separator",	required_argument,	NULL, 'x' },
	{ "json",		no_argument,		NULL, 'j' },
	{ "output",		required_argument,	NULL, 'o' },
	{ "period",		required_argument,	NULL, 'P' },
	{ "freq",		required_argument,	NULL, 'F' },
	{ "switch-timeout",	required_argument,	NULL, OPT_SWITCH },
	{ "smpl-out",		required_argument,	NULL, OPT_SMPL_OUT },
	{ "no-inherit",		no_argument,		NULL, OPT_NO_INHERIT },
	{ "version",		no_argument,		NULL, OPT_VERSION },
	{ "help",		no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: pfmon [options] [--] COMMAND [ARGS]\n"
"       pfmon [options] -p PID[,PID] | -t TID[,TID] | -a | -C CPUS [COMMAND]\n"
"  -e EV[,EV|{EV,EV}]  events (groups in braces share an event set)\n"
"  -u, -k              count at user level (the default), at kernel level\n"
"  -p PID, -t TID      count running processes (all their threads, new ones\n"
"                      too), threads\n"
"  -a, -C 0,2-3        count whole CPUs (until the command ends, or ^C)\n"
"  --no-inherit        not the new threads and processes (of a command, of -p)\n"
"  -r N                run N times: mean and relative standard deviation\n"
"  -I MS               print the counts every MS milliseconds\n"
"  -x SEP, -j          CSV with separator SEP, JSON lines; per event, in order:\n"
"                      [time] value unit event raw running_ns enabled_ns percent\n"
"                      rsd_percent metric metric_unit bound (pfmon(1))\n"
"  -o FILE             write the counts to FILE\n"
"  --switch-timeout MS event sets' switch interval when events outnumber counters:\n"
"                      counts are estimates, printed [+- 95%% bound] (%% of time)\n"
"  -P PERIOD           sample the first event every PERIOD occurrences\n"
"  -F HZ               sample the first event about HZ times a second of the\n"
"                      threads' time (its period adapted every 10 ms)\n"
"  --smpl-out FILE     every sample: time cpu pid tid ip\n"
"  --version, -h\n");
	evsel_usage(f);
}

static uint64_t number(const char *s, const char *what)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (!*s || *end || errno || !v || *s == '-') {
		fprintf(stderr, "pfmon: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

/* "1,3,5-7" into list[], at most max entries */
static int parse_list(const char *s, int *list, int max, const char *what)
{
	char *copy = strdup(s), *tok, *save = NULL, *dash;
	long a, b;
	int n = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash++ = '\0';
		a = strtol(tok, NULL, 10);
		b = dash ? strtol(dash, NULL, 10) : a;
		if (!*tok || strspn(tok, "0123456789") != strlen(tok) ||
		    (dash && (!*dash || strspn(dash, "0123456789") != strlen(dash))) || b < a)
			goto bad;
		for (; a <= b; a++) {
			if (n == max)
				goto bad;
			list[n++] = a;
		}
	}
	free(copy);
	if (n)
		return n;
bad:
	fprintf(stderr, "pfmon: bad %s '%s'\n", what, s);
	exit(2);
}

static void parse(int argc, char **argv)
{
	uint64_t freq = 0;
	int opt, i, n;

	/* '+': options end at the command, whose own options are its own */
	while ((opt = getopt_long(argc, argv, "+e:hkuP:F:p:t:aC:r:I:x:jo:", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'e':
			evsel_parse(optarg);
			break;
		case 'k':
			opts.levels |= PFM_SW_PMC_OS;
			break;
		case 'u':
			opts.levels |= PFM_SW_PMC_USR;
			break;
		case 'P':
			opts.smpl_period = number(optarg, "period");
			break;
		case 'F':
			freq = number(optarg, "frequency");
			break;
		case 'p':
		case 't':
			n = parse_list(optarg, opts.pids + opts.npids,
				       64 - opts.npids, opt == 'p' ? "process id" : "thread id");
			for (i = 0; i < n; i++)
				opts.pid_is_tid[opts.npids + i] = opt == 't';
			opts.npids += n;
			break;
		case 'a':
			opts.ncpus = -1;
			break;
		case 'C':
			opts.ncpus = parse_list(optarg, opts.cpus, 1024, "CPU list");
			break;
		case 'r':
			opts.repeat = number(optarg, "repeat count");
			break;
		case 'I':
			opts.interval_ms = number(optarg, "interval");
			break;
		case 'x':
			opts.sep = optarg;
			break;
		case 'j':
			opts.json = 1;
			break;
		case 'o':
			opts.out = fopen(optarg, "w");
			if (!opts.out) {
				fprintf(stderr, "pfmon: %s: %s\n", optarg, strerror(errno));
				exit(2);
			}
			break;
		case OPT_SWITCH:
			opts.switch_ns = number(optarg, "switch timeout") * 1000000ULL;
			break;
		case OPT_SMPL_OUT:
			opts.smpl_out = optarg;
			break;
		case OPT_NO_INHERIT:
			opts.inherit = 0;
			break;
		case OPT_VERSION:
			printf("pfmon %s (perfmon interface %u.%u)\n", PFMON_VERSION,
			       PFM_VERSION_MAJ, PFM_VERSION_MIN);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind < argc)
		opts.argv = argv + optind;
	if (!!opts.argv + !!opts.npids > 1 || (opts.npids && opts.ncpus) ||
	    (!opts.argv && !opts.npids && !opts.ncpus)) {
		fprintf(stderr, "pfmon: give one of a command, -p/-t, or -a/-C (with or "
			"without a command)\n");
		usage(stderr);
		exit(2);
	}
	if (opts.sep && opts.json) {
		fprintf(stderr, "pfmon: -x and -j: choose one output format\n");
		exit(2);
	}
	if (freq && opts.smpl_period) {
		fprintf(stderr, "pfmon: -P and -F: choose one\n");
		exit(2);
	}
	if (!opts.levels)
		opts.levels = PFM_SW_PMC_USR;
	if (!opts.nev)
		evsel_default();
	if (freq)
		freq_setup(freq);
	if (opts.ncpus < 0) {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

		for (i = 0; i < ncpu && i < 1024; i++)
			opts.cpus[i] = i;
		opts.ncpus = i;
	}
	if (!opts.out)
		opts.out = stdout;
}

static struct pfmon_count *prev;

/* -I: what each interval added */
static void tick(const struct pfmon_count *now, uint64_t at_ns)
{
	struct pfmon_count d[PFMON_MAX_EVENTS];
	int i;

	memset(d, 0, opts.nev * sizeof(d[0]));
	for (i = 0; i < opts.nev; i++) {
		d[i].raw = now[i].raw - prev[i].raw;
		d[i].running = now[i].running - prev[i].running;
		d[i].enabled = now[i].enabled - prev[i].enabled;
	}
	memcpy(prev, now, opts.nev * sizeof(*prev));
	print_interval(d, at_ns);
}

int main(int argc, char **argv)
{
	struct pfmon_count **runs;
	struct pfmon_result res;
	uint64_t *elapsed;
	FILE *smpl_out = NULL;
	int r;

	parse(argc, argv);
	evsel_place();
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
	prev = calloc(opts.nev, sizeof(*prev));
	if (!runs || !elapsed || !prev)
		pfmon_fail("calloc", ENOMEM, -1);
	for (r = 0; r < opts.repeat; r++) {
		memset(&res, 0, sizeof(res));
		memset(prev, 0, opts.nev * sizeof(*prev));
		target_run(&res, tick);
		if (res.exec_failed)
			return 127;
		runs[r] = res.count;
		elapsed[r] = res.elapsed_ns;
	}
	print_counts((const struct pfmon_count *const *)runs, opts.repeat, &res, elapsed);
	if (opts.smpl_period)
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
	if (WIFSIGNALED(res.status))
		return 128 + WTERMSIG(res.status);
	return WEXITSTATUS(res.status);
}
