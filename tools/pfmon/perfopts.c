// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: perf stat's options of the output and of the run (pfmon.h), read by
 * options.c's loop: --all-user, --all-kernel, --quiet, -o with --append,
 * --log-fd, -B / --no-big-num, --scale / --no-scale, --interval-count,
 * --timeout, -n, --pre, --post, --summary, --no-csv-summary, -v,
 * --interval-clear, -S and --table (-D and --control are control.c's).  Their
 * combinations are checked once every option is read, and the output is
 * opened then (--append must be known before -o's file is).
 * A bad value or combination is one line on stderr and exit 2, where perf
 * sometimes ignores the option.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pfmon.h"

static int all_user, all_kernel, summary_opts;

/* a value the int or unsigned int it goes to holds */
static unsigned int small(const char *arg, const char *what)
{
	uint64_t v = options_number(arg, what);

	if (v > INT_MAX) {
		fprintf(stderr, "pfmon: bad %s '%s'\n", what, arg);
		exit(2);
	}
	return v;
}

/* 1 when opt is one of this file's */
int perfopts_option(int opt, const char *arg)
{
	switch (opt) {
	case OPT_ALL_USER:
		all_user = 1;
		break;
	case OPT_ALL_KERNEL:
		all_kernel = 1;
		break;
	case OPT_QUIET:
		opts.quiet = 1;
		break;
	case OPT_APPEND:
		opts.append = 1;
		break;
	case OPT_LOG_FD:
		opts.log_fd = small(arg, "--log-fd descriptor");
		break;
	case 'B':
		opts.big_num = 1;
		break;
	case OPT_NO_BIG_NUM:
		opts.big_num = 0;
		break;
	case OPT_SCALE:
		opts.no_scale = 0;
		break;
	case OPT_NO_SCALE:
		opts.no_scale = 1;
		break;
	case OPT_INTERVAL_COUNT:
		opts.interval_count = small(arg, "interval count");
		break;
	case OPT_TIMEOUT:
		opts.timeout_ms = small(arg, "timeout");
		break;
	case 'n':
		opts.null_run = 1;
		break;
	case OPT_PRE:
		opts.pre = arg;
		break;
	case OPT_POST:
		opts.post = arg;
		break;
	case 'v':
		opts.verbose = 1;
		break;
	case OPT_INTERVAL_CLEAR:
		opts.interval_clear = 1;
		break;
	case OPT_PER_SOCKET:
	case OPT_PER_DIE:
	case OPT_PER_CORE:
	case OPT_PER_NODE:
		if (opts.aggr != AGGR_ALL)
			options_refuse("--per-thread, -A, --per-socket, --per-die, --per-core, "
				       "--per-node: choose one");
		opts.aggr = AGGR_SOCKET + opt - OPT_PER_SOCKET;
		break;
	case OPT_SUMMARY:
		summary_opts |= 1;
		break;
	case OPT_NO_CSV_SUMMARY:
		summary_opts |= 2;
		break;
	case 'S':
		opts.sync = 1;
		break;
	case OPT_TABLE:
		opts.table = 1;
		break;
	default:
		return control_option(opt, arg);
	}
	return 1;
}

static void open_output(void)
{
	const char *mode = opts.append ? "a" : "w";

	if (opts.out_name) {
		opts.out = fopen(opts.out_name, mode);
		if (!opts.out) {
			fprintf(stderr, "pfmon: %s: %s\n", opts.out_name, strerror(errno));
			exit(2);
		}
		/* perf's first line in a file, then a blank one (ctime()'s newline) */
		if (!opts.quiet) {
			time_t now = time(NULL);

			fprintf(opts.out, "# started on %s\n", ctime(&now));
		}
	} else if (opts.log_fd) {
		/* the descriptor must be open: fdopen() would take any number */
		if (fcntl(opts.log_fd, F_GETFD) < 0 ||
		    !(opts.out = fdopen(opts.log_fd, mode))) {
			fprintf(stderr, "pfmon: --log-fd %d: %s\n", opts.log_fd, strerror(errno));
			exit(2);
		}
	}
}

/* sampling: -P or -F was given */
void perfopts_check(int sampling)
{
	if (all_user && all_kernel)
		options_refuse("--all-user and --all-kernel: choose one");
	if (all_user || all_kernel)
		opts.all_levels = all_user ? PFM_SW_PMC_USR : PFM_SW_PMC_OS;
	if (opts.out_name && opts.log_fd)
		options_refuse("-o and --log-fd: choose one");
	if (opts.append && !opts.out_name && !opts.log_fd)
		options_refuse("--append appends to -o's file or --log-fd's: give one");
	if (opts.big_num == 1 && opts.sep)
		options_refuse("-B: CSV (-x) has no thousands separators");
	if (opts.interval_count && !opts.interval_ms)
		options_refuse("--interval-count counts the intervals of -I: give -I");
	if (opts.timeout_ms && opts.timeout_ms < 10)
		options_refuse("--timeout: at least 10 ms, as perf stat");
	if (opts.timeout_ms && opts.interval_ms)
		options_refuse("--timeout and -I: choose one, as perf stat");
	if (summary_opts && !(summary_opts & 1))
		options_refuse("--no-csv-summary goes with --summary and -x");
	if (summary_opts && !opts.interval_ms)
		options_refuse("--summary prints -I's totals at the end: give -I");
	if (summary_opts == 3 && !opts.sep)
		options_refuse("--no-csv-summary goes with --summary and -x");
	opts.summary = summary_opts == 3 ? 2 : summary_opts;
	if (opts.null_run && (opts.nev || opts.npids || opts.ncpus || opts.interval_ms ||
			      opts.timeout_ms || sampling || opts.aggr != AGGR_ALL))
		options_refuse("-n times the command only: not with -e, -p, -t, -a, -C, -I, "
			       "--timeout, -P, -F, --per-thread or -A");
	if (opts.table && opts.repeat < 2)
		options_refuse("--table prints each of -r's runs: give -r 2 or more");
	control_check(sampling);
	if (opts.aggr > AGGR_CPU && !opts.ncpus)
		options_refuse("--per-socket, --per-die, --per-core and --per-node sum CPUs' "
			       "counts: give -a or -C");
	open_output();
	if (opts.interval_clear && !opts.interval_ms)
		options_refuse("--interval-clear clears the screen between -I's intervals: give -I");
	if (opts.interval_clear && !isatty(fileno(opts.out ? opts.out : stdout)))
		options_refuse("--interval-clear clears a terminal: the output is not one");
}

static const char *level_name(uint64_t lv)
{
	if (lv == (PFM_SW_PMC_USR | PFM_SW_PMC_OS))
		return "user and kernel";
	return lv == PFM_SW_PMC_OS ? "kernel" : "user";
}

/* -v: on stderr, each event as counted: its code, its levels, its set and PMD */
void perfopts_verbose(void)
{
	const struct pfmon_event *e;
	int i;

	for (i = 0; i < opts.nev; i++) {
		e = &opts.ev[i];
		if (e->soft)
			fprintf(stderr, "pfmon: %s: software event %d at %s level, set %u PMD %u%s\n",
				e->name, e->sw, level_name(e->sw_levels), e->set, e->pmd,
				e->hidden ? " (not printed)" : "");
		else
			fprintf(stderr, "pfmon: %s: hardware event 0x%llx (%s counter) at %s "
				"level, set %u PMD %u%s\n", e->name, (unsigned long long)e->hw.code,
				e->hw.fixed >= 0 ? "fixed" : "general-purpose",
				level_name(opts.levels), e->set, e->pmd,
				e->hidden ? " (not printed)" : "");
	}
	fprintf(stderr, "pfmon: %d event%s in %d set%s\n", opts.nev, opts.nev == 1 ? "" : "s",
		opts.nsets, opts.nsets == 1 ? "" : "s");
}

void perfopts_usage(FILE *f)
{
	fprintf(f,
"  --all-user, --all-kernel  every event at user level, at kernel level only\n"
"                      (the events' u/k modifiers included)\n"
"  --quiet             print no counts (errors still go to stderr)\n"
"  --append            with -o or --log-fd: append to the file\n"
"  --log-fd FD         write the counts to descriptor FD (not with -o)\n"
"  -B, --no-big-num    thousands separators in text (the default), none\n"
"  --scale, --no-scale multiplexed counts scaled (the default), the raw counts\n"
"  --interval-count N  with -I: print N intervals, then no more\n"
"  --timeout MS        end the measurement after MS ms (>= 10): SIGTERM to the\n"
"                      command, and the counts up to then\n"
"  -n, --null          run the command without counting: its times only\n"
"  --pre CMD, --post CMD  run the shell command CMD before, after each run\n"
"                      (-r); pfmon stops with exit 1 if CMD fails\n"
"  --summary           with -I: the totals at the end too (CSV: 'summary' first,\n"
"                      unless --no-csv-summary)\n"
"  --interval-clear    with -I on a terminal: clear the screen before each\n"
"  -v, --verbose       on stderr: each event's code, level, set and PMD\n"
"  --per-socket, --per-die, --per-core, --per-node  with -a or -C: the CPUs'\n"
"                      counts summed by socket, die, core, NUMA node\n"
"  -G, --cgroup NAME[,NAME]  with -a or -C: the n-th event before it counted only\n"
"                      while a task of the n-th cgroup runs (one name: every event)\n"
"  --for-each-cgroup NAME[,NAME]  with -a or -C: every event for each cgroup\n"
"  -S, --sync          sync() before each run\n"
"  --table             with -r: each run's elapsed time, in perf's table\n"
"  -D MS, --delay MS   count from MS ms after the command starts (-1: only\n"
"                      once --control says enable); the time from then on\n"
"  --control fd:CTL[,ACK] or fifo:CTL[,ACK]  perf's commands from CTL (enable,\n"
"                      disable, evlist, ping, stop), its acks to ACK\n");
}
