// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: event names (pfmon.h).
 *
 * perf's names of the software events are taken as perf stat takes them,
 * aliases included, and so are libpfm4's "perf::" names for them (libpfm4 would
 * otherwise encode those as perf_event_open() configs, which perfmon's PMU does
 * not understand).  alignment-faults and emulation-faults are counted as zero:
 * x86 Linux never raises either.  Minor and major faults are not apart in
 * perfmon's software PMU, so those two names are refused as counters perfmon
 * lacks.  A hardware name is perf's generic one or libpfm4's for a core PMU:
 * libpfm4's other PMUs (its "perf" and tracepoint tables, uncore) are not ones
 * perfmon drives, so their names are neither taken nor suggested nor listed.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <perfmon/pfmlib.h>

#include "pfmon.h"

static const struct sw_name {
	const char *name;
	int code;		/* PFM_SW_EV_*; PFM_SW_EV_NONE counts nothing */
	const char *desc;	/* NULL: an alias, listed beside its event */
} sw_names[] = {
	{ "task-clock",		PFM_SW_EV_TASK_CLOCK,	"the threads' time on a CPU (ns)" },
	{ "cpu-clock",		PFM_SW_EV_TASK_CLOCK,	NULL },
	{ "context-switches",	PFM_SW_EV_CTX_SWITCHES,	"context switches" },
	{ "cs",			PFM_SW_EV_CTX_SWITCHES,	NULL },
	{ "cpu-migrations",	PFM_SW_EV_CPU_MIGRATIONS, "moves to another CPU" },
	{ "migrations",		PFM_SW_EV_CPU_MIGRATIONS, NULL },
	{ "page-faults",	PFM_SW_EV_PAGE_FAULTS,	"page faults, minor and major" },
	{ "faults",		PFM_SW_EV_PAGE_FAULTS,	NULL },
	{ "syscalls",		PFM_SW_EV_SYSCALLS,	"system calls (pfmon's own event)" },
	{ "alignment-faults",	PFM_SW_EV_NONE,		"always 0 on x86 (perf's name)" },
	{ "emulation-faults",	PFM_SW_EV_NONE,		"always 0 on x86 (perf's name)" },
};
#define NUM_SW_NAMES (sizeof(sw_names) / sizeof(sw_names[0]))

/* the default events: perf stat's software ones, and pfmon's system calls */
const char *const evnames_default[] = { "task-clock", "context-switches",
	"cpu-migrations", "page-faults", "syscalls", NULL };

/* perf's names that perfmon's software PMU cannot count */
static const char *const sw_lacking[] = { "minor-faults", "major-faults", NULL };

/*
 * perf's generic hardware and cache names, and libpfm4's names for them, tried in
 * order (Intel's, then AMD's; model-specific ones newest first) until one is this
 * PMU's: the cache events of perf stat -d, -dd, -ddd (evopts.c) are counted as
 * perf's tables count them on those models; L1-dcache-prefetch-misses has none.
 */
const struct hw_alias hw_aliases[] = {
	{ "cycles",		{ "UNHALTED_CORE_CYCLES", "CYCLES_NOT_IN_HALT" } },
	{ "instructions",	{ "INSTRUCTION_RETIRED", "RETIRED_INSTRUCTIONS" } },
	{ "branches",		{ "BRANCH_INSTRUCTIONS_RETIRED", "RETIRED_BRANCH_INSTRUCTIONS" } },
	{ "branch-misses",	{ "MISPREDICTED_BRANCH_RETIRED",
				  "RETIRED_MISPREDICTED_BRANCH_INSTRUCTIONS" } },
	{ "L1-dcache-loads",	{ "MEM_INST_RETIRED:ALL_LOADS", "MEM_UOPS_RETIRED:ALL_LOADS",
				  "DATA_CACHE_ACCESSES", "LS_DISPATCH:LD_DISPATCH" } },
	{ "L1-dcache-load-misses", { "L1D:REPLACEMENT", "DATA_CACHE_MISSES" } },
	{ "LLC-loads",		{ "LONGEST_LAT_CACHE:REFERENCE", "LLC_REFERENCES" } },
	{ "LLC-load-misses",	{ "LONGEST_LAT_CACHE:MISS", "LLC_MISSES" } },
	{ "L1-icache-loads",	{ "INSTRUCTION_CACHE_FETCHES" } },
	{ "L1-icache-load-misses", { "ICACHE_64B:IFTAG_MISS", "ICACHE:MISSES",
				     "INSTRUCTION_CACHE_MISSES" } },
	{ "dTLB-loads",		{ "MEM_INST_RETIRED:ALL_LOADS", "MEM_UOPS_RETIRED:ALL_LOADS",
				  "DATA_CACHE_ACCESSES", "LS_DISPATCH:LD_DISPATCH" } },
	{ "dTLB-load-misses",	{ "DTLB_LOAD_MISSES:MISS_CAUSES_A_WALK",
				  "DTLB_LOAD_MISSES:WALK_COMPLETED", "L1_DTLB_AND_L2_DTLB_MISS" } },
	{ "iTLB-loads",		{ "ITLB_MISSES:STLB_HIT", "L1_ITLB_MISS_AND_L2_ITLB_HIT",
				  "L1_ITLB_MISS_L2_ITLB_HIT" } },
	{ "iTLB-load-misses",	{ "ITLB_MISSES:MISS_CAUSES_A_WALK", "ITLB_MISSES:WALK_COMPLETED",
				  "L1_ITLB_MISS_AND_L2_ITLB_MISS" } },
	{ "L1-dcache-prefetches", { "DATA_PREFETCHES" } },
	{ "L1-dcache-prefetch-misses", { NULL } },
	{ NULL, { NULL } }
};

/* libpfm4's names in its perf table for perf's, PERF_COUNT_{SW,HW}_ dropped */
static const struct {
	const char *lib, *perf;
} perf_table[] = {
	{ "CPU_CYCLES", "cycles" },
	{ "CPU-CYCLES", "cycles" },
	{ "BRANCH_INSTRUCTIONS", "branches" },
	{ "PAGE_FAULTS_MIN", "minor-faults" },
	{ "PAGE_FAULTS_MAJ", "major-faults" },
};

/*
 * perf's name for base (a name without modifiers), "perf::" names included, in
 * out; 0 when base is none of perf's or libpfm4's perf table's.
 */
static int perf_name(const char *base, char *out, size_t len)
{
	const char *p = base;
	size_t i;

	if (strncasecmp(p, "perf::", 6)) {
		snprintf(out, len, "%s", base);
		return 1;
	}
	p += 6;
	if (!strncasecmp(p, "PERF_COUNT_SW_", 14) || !strncasecmp(p, "PERF_COUNT_HW_", 14))
		p += 14;
	for (i = 0; i < sizeof(perf_table) / sizeof(perf_table[0]); i++)
		if (!strcasecmp(p, perf_table[i].lib))
			p = perf_table[i].perf;
	for (i = 0; p[i] && i + 1 < len; i++)
		out[i] = p[i] == '_' ? '-' : tolower((unsigned char)p[i]);
	out[i] = '\0';
	return 1;
}

/* perf's name for name (libpfm4's "perf::" ones translated), modifiers kept */
void evnames_perf_name(const char *name, char *out, size_t len)
{
	perf_name(name, out, len);
}

int evnames_sw(const char *base, int *code)
{
	char n[64];
	size_t i;

	perf_name(base, n, sizeof(n));
	for (i = 0; i < NUM_SW_NAMES; i++) {
		if (!strcmp(n, sw_names[i].name)) {
			*code = sw_names[i].code;
			return 1;
		}
	}
	return 0;
}

int evnames_lacking(const char *base)
{
	char n[64];
	int i;

	perf_name(base, n, sizeof(n));
	for (i = 0; sw_lacking[i]; i++)
		if (!strcmp(n, sw_lacking[i]))
			return 1;
	return 0;
}

const struct hw_alias *evnames_hw_alias(const char *base)
{
	char n[64];
	int i;

	perf_name(base, n, sizeof(n));
	for (i = 0; hw_aliases[i].name; i++)
		if (!strcmp(n, hw_aliases[i].name))
			return &hw_aliases[i];
	return NULL;
}

int evnames_is_perf_table(const char *base)
{
	return !strncasecmp(base, "perf::", 6);
}

/* libpfm4's core PMUs present here, one at a time: 0 when no more */
static int next_core_pmu(int *pmu, pfm_pmu_info_t *pinfo)
{
	if (*pmu < 0) {
		if (pfm_initialize() != PFM_SUCCESS)
			return 0;
		*pmu = PFM_PMU_NONE;
	}
	for ((*pmu)++; *pmu < PFM_PMU_MAX; (*pmu)++) {
		memset(pinfo, 0, sizeof(*pinfo));
		pinfo->size = sizeof(*pinfo);
		if (pfm_get_pmu_info(*pmu, pinfo) == PFM_SUCCESS && pinfo->is_present &&
		    pinfo->type == PFM_PMU_TYPE_CORE)
			return 1;
	}
	return 0;
}

int evnames_core_pmu_event(const char *name)
{
	pfm_event_info_t info;
	pfm_pmu_info_t pinfo;
	int idx;

	if (pfm_initialize() != PFM_SUCCESS)
		return -1;
	idx = pfm_find_event(name);
	if (idx < 0)
		return -1;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	memset(&pinfo, 0, sizeof(pinfo));
	pinfo.size = sizeof(pinfo);
	if (pfm_get_event_info(idx, PFM_OS_NONE, &info) != PFM_SUCCESS ||
	    pfm_get_pmu_info(info.pmu, &pinfo) != PFM_SUCCESS)
		return -1;
	return pinfo.type == PFM_PMU_TYPE_CORE;
}

/* edit distance, for "did you mean" */
static unsigned int distance(const char *a, const char *b)
{
	unsigned int d[65], i, j, prev, tmp, la = strlen(a), lb = strlen(b);

	if (la > 64 || lb > 64)
		return 99;
	for (j = 0; j <= lb; j++)
		d[j] = j;
	for (i = 1; i <= la; i++) {
		prev = d[0];
		d[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = d[j];
			d[j] = tolower(a[i - 1]) == tolower(b[j - 1]) ? prev :
			       1 + (prev < d[j] ? (prev < d[j - 1] ? prev : d[j - 1]) :
				    (d[j] < d[j - 1] ? d[j] : d[j - 1]));
			prev = tmp;
		}
	}
	return d[lb];
}

struct near {
	char name[64];
	unsigned int d;
};

static void consider(struct near *best, const char *want, const char *name)
{
	unsigned int d = distance(want, name), i;

	for (i = 0; i < 3; i++) {
		if (!strcasecmp(best[i].name, name))
			return;
		if (d < best[i].d) {
			memmove(&best[i + 1], &best[i], (2 - i) * sizeof(*best));
			snprintf(best[i].name, sizeof(best[i].name), "%s", name);
			best[i].d = d;
			return;
		}
	}
}

void evnames_nearest(const char *want, char *buf, size_t len)
{
	struct near best[3];
	pfm_pmu_info_t pinfo;
	pfm_event_info_t info;
	char base[64];
	size_t i, n = 0;
	int pmu = -1, idx;

	snprintf(base, sizeof(base), "%s", want);
	base[strcspn(base, ":")] = '\0';
	for (i = 0; i < 3; i++)
		best[i] = (struct near){ "", 99 };
	for (i = 0; i < NUM_SW_NAMES; i++)
		consider(best, base, sw_names[i].name);
	while (next_core_pmu(&pmu, &pinfo)) {
		for (i = 0; hw_aliases[i].name; i++)
			consider(best, base, hw_aliases[i].name);
		for (idx = pinfo.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
			memset(&info, 0, sizeof(info));
			info.size = sizeof(info);
			if (pfm_get_event_info(idx, PFM_OS_NONE, &info) == PFM_SUCCESS)
				consider(best, base, info.name);
		}
	}
	buf[0] = '\0';
	for (i = 0; i < 3; i++)
		if (best[i].d <= 2 + strlen(base) / 3)
			n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "", best[i].name);
}

/* a pattern with a wildcard is a glob, any other a part of the name, in any case */
static int matches(const char *pattern, const char *name, const char *desc)
{
	if (!pattern)
		return 1;
	if (strpbrk(pattern, "*?["))
		return !fnmatch(pattern, name, FNM_CASEFOLD);
	return strcasestr(name, pattern) || (desc && strcasestr(desc, pattern));
}

int evnames_list(FILE *f, const char *pattern)
{
	pfm_pmu_info_t pinfo;
	pfm_event_info_t info;
	char names[128];
	size_t i, j;
	int pmu = -1, idx, n = 0, hdr;

	for (i = 0; i < NUM_SW_NAMES; i++) {
		if (!sw_names[i].desc)
			continue;
		/* an event and its aliases on one line, as perf list shows them */
		snprintf(names, sizeof(names), "%s", sw_names[i].name);
		for (j = i + 1; j < NUM_SW_NAMES && !sw_names[j].desc; j++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names),
				 " OR %s", sw_names[j].name);
		if (!matches(pattern, names, sw_names[i].desc))
			continue;
		if (!n++)
			fprintf(f, "software events (perfmon's software PMU):\n");
		fprintf(f, "  %-40s %s\n", names, sw_names[i].desc);
	}
	n += tp_list(f, matches, pattern);
	while (next_core_pmu(&pmu, &pinfo)) {
		hdr = 0;
		for (i = 0; hw_aliases[i].name; i++) {
			if (!matches(pattern, hw_aliases[i].name, NULL))
				continue;
			if (!hdr++)
				fprintf(f, "hardware events (%s, perf's generic names):\n",
					pinfo.desc);
			fprintf(f, "  %s\n", hw_aliases[i].name);
			n++;
		}
		hdr = 0;
		for (idx = pinfo.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
			memset(&info, 0, sizeof(info));
			info.size = sizeof(info);
			if (pfm_get_event_info(idx, PFM_OS_NONE, &info) != PFM_SUCCESS ||
			    !matches(pattern, info.name, info.desc))
				continue;
			if (!hdr++)
				fprintf(f, "hardware events (%s, libpfm4's names):\n", pinfo.desc);
			fprintf(f, "  %-40s %s\n", info.name, info.desc ? info.desc : "");
			n++;
		}
	}
	return n;
}
