// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: perf stat's options of the event list (pfmon.h), read by options.c's
 * loop: --filter, -d / --detailed (repeatable) and --cputype.
 *
 * --filter takes a trace event filter for every event of the -e before it (a
 * glob's trace events all), joined to one given before as perf joins them:
 * "(first) && (second)".  Refused as perf refuses it: with no -e before it,
 * after an -e whose events are not all trace events.  The filter is the
 * kernel's: pfm_write_pmc_filter() writes a trace event's PMC through it, and
 * the kernel's parser refuses a bad one then, as perf's SET_FILTER.
 *
 * -d appends perf stat 6.1's detailed events (its add_default_attrs()), -dd
 * and -ddd more; with no -e, perf's default events come first, its hardware
 * ones included.  Those a PMU lacks, or all of them with no hardware PMU, are
 * printed "<not supported>" as perf prints them; they are counted where
 * libpfm4 has names for them (evnames.c's hw_aliases).
 *
 * --cputype core|atom counts on one type of CPU of a hybrid machine
 * (PFM_FL_PMU_TYPE: the id of cpu_core or cpu_atom in pmu_desc/types); it must
 * come before the events, and a machine with one type refuses it, as perf's
 * parse_hybrid_type() does.  A bad use is one line and exit 2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pfmon.h"

static int detailed;

/* perf stat 6.1's default events, then its detailed ones of levels 1, 2, 3 */
static const char *const perf_default[] = { "task-clock", "context-switches",
	"cpu-migrations", "page-faults", "cycles", "instructions", "branches",
	"branch-misses", NULL };
static const char *const perf_detailed[3][7] = {
	{ "L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses", NULL },
	{ "L1-icache-loads", "L1-icache-load-misses", "dTLB-loads", "dTLB-load-misses",
	  "iTLB-loads", "iTLB-load-misses", NULL },
	{ "L1-dcache-prefetches", "L1-dcache-prefetch-misses", NULL },
};

static void add_optional(const char *const *names)
{
	for (; *names; names++)
		evsel_add(*names, 0)->optional = 1;
}

static void set_filter(const char *filter)
{
	struct pfmon_event *e;
	char *f;
	int i;

	if (!opts.last_list)
		options_refuse("--filter option should follow a -e tracepoint or HW tracer "
			       "option");
	for (i = opts.last_list - 1; i < opts.nev; i++)
		if (!opts.ev[i].tp)
			options_refuse("--filter: the -e before it has events that are not "
				       "tracepoints (perf: This CPU does not support address "
				       "filtering)");
	for (i = opts.last_list - 1; i < opts.nev; i++) {
		e = &opts.ev[i];
		if (e->filter) {
			if (asprintf(&f, "(%s) && (%s)", e->filter, filter) < 0)
				pfmon_fail("asprintf", ENOMEM, -1);
			free(e->filter);
		} else {
			f = strdup(filter);
			if (!f)
				pfmon_fail("strdup", ENOMEM, -1);
		}
		e->filter = f;
	}
}

/* the id of CPU type name in pmu_desc/types, or -1 */
static int type_id(const char *name)
{
	FILE *f = fopen("/sys/kernel/perfmon/pmu_desc/types", "r");
	char line[512], n[64];
	int id, found = -1;

	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%d %63s", &id, n) == 2 && !strcmp(n, name))
			found = id;
	fclose(f);
	return found;
}

static void set_cputype(const char *type)
{
	char name[64], why[128];
	int id;

	if (opts.nev)
		options_refuse("Must define cputype before events/metrics");
	snprintf(name, sizeof(name), "cpu_%s", type);
	id = type_id(name);
	if (id < 0) {
		snprintf(why, sizeof(why), "--cputype %s is not supported!", type);
		options_refuse(why);
	}
	opts.pmu_type = id;
}

/* 1 when opt is one of this file's */
int evopts_option(int opt, const char *arg)
{
	switch (opt) {
	case 'd':
		detailed++;
		break;
	case OPT_FILTER:
		set_filter(arg);
		break;
	case OPT_CPUTYPE:
		set_cputype(arg);
		break;
	default:
		return 0;
	}
	return 1;
}

/* The event list done: perf's default events with -d and no -e, then -d's. */
void evopts_events(void)
{
	int l;

	if (!detailed || opts.null_run)
		return;
	if (!opts.nev)
		add_optional(perf_default);
	for (l = 0; l < detailed && l < 3; l++)
		add_optional(perf_detailed[l]);
}

/* A filter the kernel refused (errno): perf stat's line, exit 1. */
void evopts_filter_refused(const struct pfmon_event *e)
{
	fprintf(stderr, "pfmon: failed to set filter \"%s\" on event %s with %d (%s)\n",
		e->filter, e->name, errno, strerror(errno));
	exit(1);
}

/*
 * The filters, on the unloaded context fd whose PMCs evsel_program() wrote: each
 * filtered event's PMC written again through its filter.  A filter the kernel
 * refuses ends pfmon with perf stat's line (exit 1).
 */
void evopts_program(int fd)
{
	struct pfarg_pmc pmc;
	int i;

	for (i = 0; i < opts.nev; i++) {
		const struct pfmon_event *e = &opts.ev[i];

		if (!e->filter)
			continue;
		memset(&pmc, 0, sizeof(pmc));
		pmc.reg_num = PFM_SW_FIRST_PMC + e->pmd - PFM_SW_FIRST_PMD;
		pmc.reg_set = e->set;
		pmc.reg_value = PFM_SW_PMC_KEYED(e->sw, e->tp_id) | e->sw_levels;
		if (pfm_write_pmc_filter(fd, &pmc, e->filter))
			evopts_filter_refused(e);
	}
}

void evopts_usage(FILE *f)
{
	fprintf(f,
"  --filter FILTER     trace event filter of the -e tracepoints before it\n"
"  -d, --detailed      perf's detailed events too (-dd, -ddd: more)\n"
"  --cputype TYPE      core or atom: count on that type of CPU (hybrid PMUs)\n");
}
