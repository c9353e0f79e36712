// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: the command line (pfmon.h).
 *
 * perf stat's options where pfmon has the feature (-e, -p, -t, -a, -C, -A,
 * --per-thread, -i, -r, -I, -x, -j, -o; those of the output and the run are
 * perfopts.c's), pfmon's own for the rest.  A bad option, value or
 * combination is one line on stderr and exit 2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pfmon.h"

struct pfmon_opts opts = {
	.inherit = 1,
	.repeat = 1,
	.switch_ns = 10000000,	/* 10 ms, as perf's default multiplexing interval */
	.big_num = -1,
};

enum { OPT_SWITCH = 256, OPT_SMPL_OUT, OPT_VERSION, OPT_PER_THREAD, OPT_BOUNDS,
       OPT_PFM_EVENTS };

static const struct option long_opts[] = {
	{ "event",		required_argument,	NULL, 'e' },
	{ "pfm-events",		required_argument,	NULL, OPT_PFM_EVENTS },
	{ "group",		no_argument,		NULL, 'g' },
	{ "pid",		required_argument,	NULL, 'p' },
	{ "tid",		required_argument,	NULL, 't' },
	{ "all-cpus",		no_argument,		NULL, 'a' },
	{ "cpu",		required_argument,	NULL, 'C' },
	{ "repeat",		required_argument,	NULL, 'r' },
	{ "interval-print",	required_argument,	NULL, 'I' },
	{ "field-separator",	required_argument,	NULL, 'x' },
	{ "json",		no_argument,		NULL, 'j' },
	{ "json-output",	no_argument,		NULL, 'j' },
	{ "output",		required_argument,	NULL, 'o' },
	{ "period",		required_argument,	NULL, 'P' },
	{ "freq",		required_argument,	NULL, 'F' },
	{ "switch-timeout",	required_argument,	NULL, OPT_SWITCH },
	{ "smpl-out",		required_argument,	NULL, OPT_SMPL_OUT },
	{ "no-inherit",		no_argument,		NULL, 'i' },
	{ "per-thread",		no_argument,		NULL, OPT_PER_THREAD },
	{ "no-aggr",		no_argument,		NULL, 'A' },
	{ "bounds",		no_argument,		NULL, OPT_BOUNDS },
	{ "list",		no_argument,		NULL, 'l' },
	{ "version",		no_argument,		NULL, OPT_VERSION },
	{ "help",		no_argument,		NULL, 'h' },
	PERFOPTS_LONG,
	EVOPTS_LONG,
	{ NULL, 0, NULL, 0 }
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: pfmon [options] [--] COMMAND [ARGS]\n"
"       pfmon [options] -p PID[,PID] | -t TID[,TID] | -a | -C CPUS [COMMAND]\n"
"       pfmon [options]     every CPU, as -a, until ^C or --timeout\n"
"       pfmon -l [PATTERN]    list the events (those whose name or description\n"
"                             holds PATTERN, or matches it as a glob)\n"
"  -e EV[,EV|{EV,EV}]  events (groups in braces share an event set); also\n"
"                      --pfm-events, as perf's\n"
"  -g, --group         every event in one group\n"
"  -u, -k              count at user level (the default), at kernel level\n"
"  -p PID, -t TID      count running processes (all their threads, new ones\n"
"                      too), threads (and what they create)\n"
"  -a, -C 0,2-3        count whole CPUs (until the command ends, or ^C)\n"
"  -i, --no-inherit    not the new threads and processes (of a command, -p, -t)\n"
"  --per-thread        each thread's counts apart, with what it creates\n"
"                      (a command's first thread, -p's threads, -t's)\n"
"  -A, --no-aggr       each CPU's counts apart (-a, -C)\n"
"  -r N                run N times: mean and relative standard deviation\n"
"  -I MS               print the counts every MS milliseconds\n"
"  -x SEP, -j          perf stat's CSV with separator SEP, its JSON lines\n"
"                      (--json, --json-output):\n"
"                      [time] [CPU|thread] value unit event [rsd%%] running_ns\n"
"                      percent metric metric_unit (pfmon(1))\n"
"  --bounds            with -x or -j, pfmon's fields after perf's: raw enabled_ns\n"
"                      bound, and (-j) a summary object\n"
"  -o FILE             write the counts to FILE\n"
"  --switch-timeout MS event sets' switch interval when events outnumber counters:\n"
"                      counts are estimates, printed [+- 95%% bound] (%% of time)\n"
"  -P PERIOD           sample the first event every PERIOD occurrences\n"
"  -F HZ               sample the first event about HZ times a second of the\n"
"                      threads' time (its period adapted every 10 ms)\n"
"  --smpl-out FILE     every sample: time cpu pid tid ip\n"
"  --version, -h\n");
	perfopts_usage(f);
	evopts_usage(f);
	evsel_usage(f);
}

uint64_t options_number(const char *s, const char *what)
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

void options_refuse(const char *why)
{
	fprintf(stderr, "pfmon: %s\n", why);
	exit(2);
}

void parse(int argc, char **argv)
{
	uint64_t freq = 0;
	char *end;
	int opt, i, n, list = 0, group_all = 0;

	/* '+': options end at the command, whose own options are its own */
	while ((opt = getopt_long(argc, argv, "+e:ghkuP:F:p:t:aC:r:I:x:jo:iAlBnvdG:SD:", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'e':
		case OPT_PFM_EVENTS:	/* pfmon's -e takes libpfm4's names already */
			evsel_parse(optarg);
			break;
		case 'g':
			group_all = 1;
			break;
		case 'k':
			opts.levels |= PFM_SW_PMC_OS;
			break;
		case 'u':
			opts.levels |= PFM_SW_PMC_USR;
			break;
		case 'P':
			opts.smpl_period = options_number(optarg, "period");
			break;
		case 'F':
			freq = options_number(optarg, "frequency");
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
			/* 0 (in any base, as perf reads it) is perf's "forever" */
			opts.forever = *optarg && *optarg != '-' && !strtoull(optarg, &end, 0) &&
				       !*end;
			opts.repeat = opts.forever ? 1 : options_number(optarg, "repeat count");
			break;
		case 'I':
			opts.interval_ms = options_number(optarg, "interval");
			break;
		case 'x':
			opts.sep = optarg;
			break;
		case 'j':
			opts.json = 1;
			break;
		case 'o':
			opts.out_name = optarg;
			break;
		case OPT_SWITCH:
			opts.switch_ns = options_number(optarg, "switch timeout") * 1000000ULL;
			break;
		case OPT_SMPL_OUT:
			opts.smpl_out = optarg;
			break;
		case 'i':
			opts.inherit = 0;
			break;
		case OPT_PER_THREAD:
			if (opts.aggr != AGGR_ALL && opts.aggr != AGGR_THREAD)
				options_refuse("--per-thread, -A, --per-socket, --per-die, --per-core, "
					       "--per-node: choose one");
			opts.aggr = AGGR_THREAD;
			break;
		case 'A':
			if (opts.aggr != AGGR_ALL && opts.aggr != AGGR_CPU)
				options_refuse("--per-thread, -A, --per-socket, --per-die, --per-core, "
					       "--per-node: choose one");
			opts.aggr = AGGR_CPU;
			break;
		case OPT_BOUNDS:
			opts.bounds = 1;
			break;
		case 'l':
			list = 1;
			break;
		case OPT_VERSION:
			printf("pfmon %s (perfmon interface %u.%u)\n", PFMON_VERSION,
			       PFM_VERSION_MAJ, PFM_VERSION_MIN);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		default:
			if (perfopts_option(opt, optarg) || evopts_option(opt, optarg) ||
			    cgroup_option(opt, optarg))
				break;
			usage(stderr);
			exit(2);
		}
	}
	if (optind < argc)
		opts.argv = argv + optind;
	if (list) {
		if (optind + 1 < argc)
			options_refuse("-l takes one pattern");
		if (!evnames_list(stdout, opts.argv ? opts.argv[0] : NULL) && opts.argv) {
			fprintf(stderr, "pfmon: no event matches '%s'\n", opts.argv[0]);
			exit(2);
		}
		exit(0);
	}
	/* nothing to count named: every CPU until ^C or --timeout, as perf stat */
	if (!opts.argv && !opts.npids && !opts.ncpus)
		opts.ncpus = -1;
	if (!!opts.argv + !!opts.npids > 1 || (opts.npids && opts.ncpus)) {
		fprintf(stderr, "pfmon: give one of a command, -p/-t, or -a/-C (with or "
			"without a command)\n");
		usage(stderr);
		exit(2);
	}
	if (opts.sep && opts.json) {
		fprintf(stderr, "pfmon: -x and -j: choose one output format\n");
		exit(2);
	}
	if (opts.bounds && !opts.sep && !opts.json)
		options_refuse("--bounds adds pfmon's fields to -x or -j output: give one");
	if (opts.aggr == AGGR_CPU && !opts.ncpus)
		options_refuse("-A (--no-aggr) prints each CPU apart: it needs -a or -C");
	if (opts.aggr == AGGR_THREAD && opts.ncpus)
		options_refuse("--per-thread prints each thread apart: not with -a or -C, whose "
		       "sessions count CPUs");
	if (opts.aggr != AGGR_ALL && opts.repeat > 1)
		options_refuse("--per-thread and -A print one run: not with -r");
	/* a run of -r 0 must end by itself: ^C and SIGTERM end pfmon then */
	if (opts.forever && !opts.argv && !opts.timeout_ms && !opts.interval_count)
		options_refuse("-r 0 repeats runs that end by themselves: give a command, "
			       "--timeout or --interval-count");
	if (opts.forever && (freq || opts.smpl_period))
		options_refuse("-r 0 runs until killed: sampling (-P, -F) reports at the end, "
			       "give -r 1 or more");
	if (freq && opts.smpl_period) {
		fprintf(stderr, "pfmon: -P and -F: choose one\n");
		exit(2);
	}
	perfopts_check(freq || opts.smpl_period);
	opts.levels_given = opts.levels != 0;
	if (opts.all_levels)
		opts.levels = opts.all_levels;
	if (!opts.levels)
		opts.levels = PFM_SW_PMC_USR;
	evopts_events();
	if (!opts.nev && !opts.null_run)
		evsel_default();
	/* -g: every event in one group, as perf's, so in one event set */
	for (i = 1; group_all && i < opts.nev; i++)
		opts.ev[i].group = opts.ev[0].group;
	cgroup_check();
	if (freq)
		freq_setup(freq);
	/* -P on a command or -p, inherited in the kernel (target.c) */
	else if (opts.smpl_period && opts.inherit && !opts.ncpus && (opts.argv || opts.npids))
		smpl_shadow_setup("-P");
	if (opts.ncpus < 0) {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

		for (i = 0; i < ncpu && i < 1024; i++)
			opts.cpus[i] = i;
		opts.ncpus = i;
	}
	if (!opts.out)
		opts.out = stdout;
}
