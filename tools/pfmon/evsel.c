// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: the events (pfmon.h).
 *
 * An event is a software one (the software PMU's, present everywhere) or a
 * libpfm4 name counted on the hardware PMU.  Events are placed in order into
 * event sets: a set takes events while it has counters for them (8 software
 * counters; the general-purpose and fixed counters pmu_desc lists), an -e group
 * '{a,b}' goes whole into one set, and the kernel switches the sets round-robin
 * every --switch-timeout of the monitored thread's time (wall-clock time for a
 * CPU).  The counts of an event are then scaled by the share of time its set was
 * live (print.c), as perf stat scales multiplexed events.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <perfmon/pfmlib.h>
#include <perfmon/perfmon_x86.h>

#include "pfmon.h"

static const struct {
	const char *name;
	int code;
} sw_events[] = {
	{ "task-clock",		PFM_SW_EV_TASK_CLOCK },
	{ "context-switches",	PFM_SW_EV_CTX_SWITCHES },
	{ "cpu-migrations",	PFM_SW_EV_CPU_MIGRATIONS },
	{ "page-faults",	PFM_SW_EV_PAGE_FAULTS },
	{ "syscalls",		PFM_SW_EV_SYSCALLS },
};
#define NUM_SW (sizeof(sw_events) / sizeof(sw_events[0]))

/* perf's generic names, as libpfm4 names them on Intel and on AMD */
static const struct {
	const char *name;
	const char *lib[2];
} hw_aliases[] = {
	{ "cycles",		{ "UNHALTED_CORE_CYCLES", "CYCLES_NOT_IN_HALT" } },
	{ "instructions",	{ "INSTRUCTION_RETIRED", "RETIRED_INSTRUCTIONS" } },
	{ "branches",		{ "BRANCH_INSTRUCTIONS_RETIRED", "RETIRED_BRANCH_INSTRUCTIONS" } },
	{ "branch-misses",	{ "MISPREDICTED_BRANCH_RETIRED",
				  "RETIRED_MISPREDICTED_BRANCH_INSTRUCTIONS" } },
};
#define NUM_ALIASES (sizeof(hw_aliases) / sizeof(hw_aliases[0]))

/* the registers of every set, built once by evsel_place() */
static struct pfarg_pmc pmcs[2 * PFMON_MAX_EVENTS];
static struct pfarg_pmd pmds[PFMON_MAX_EVENTS];
static unsigned int npmcs;
static int ngroups;

void evsel_usage(FILE *f)
{
	size_t i;

	fprintf(f, "software events (default: all):");
	for (i = 0; i < NUM_SW; i++)
		fprintf(f, " %s", sw_events[i].name);
	fprintf(f, "\n  with :u or :k for one level (-u, -k set it for all)\n"
		   "hardware events: libpfm4's names (INST_RETIRED:ANY_P, ...) and");
	for (i = 0; i < NUM_ALIASES; i++)
		fprintf(f, " %s", hw_aliases[i].name);
	fprintf(f, ",\n  with a hardware PMU; -e '{a,b}' keeps a group in one event set\n");
}

static void add_event(const char *tok, int group)
{
	struct pfmon_event *e;

	if (opts.nev == PFMON_MAX_EVENTS) {
		fprintf(stderr, "pfmon: at most %d events\n", PFMON_MAX_EVENTS);
		exit(2);
	}
	if (!*tok || strlen(tok) >= sizeof(e->name)) {
		fprintf(stderr, "pfmon: bad event name '%s'\n", tok);
		exit(2);
	}
	e = &opts.ev[opts.nev++];
	strcpy(e->name, tok);
	e->group = group;
}

/* "a,{b,c},d": a group is a brace pair; its events share a set */
void evsel_parse(char *list)
{
	char *p = list, *end;
	int in_group = 0;

	while (*p) {
		if (*p == '{') {
			if (in_group++)
				goto bad;
			ngroups++;
			p++;
			continue;
		}
		end = p + strcspn(p, ",}");
		if (*end == '}' && !in_group)
			goto bad;
		if (end > p) {
			char save = *end;

			*end = '\0';
			add_event(p, in_group ? ngroups : ++ngroups);
			*end = save;
		}
		p = end;
		if (*p == '}') {
			in_group = 0;
			p++;
		}
		if (*p == ',')
			p++;
	}
	if (in_group)
		goto bad;
	return;
bad:
	fprintf(stderr, "pfmon: unbalanced braces in '%s'\n", list);
	exit(2);
}

void evsel_default(void)
{
	size_t i;

	for (i = 0; i < NUM_SW; i++)
		add_event(sw_events[i].name, ++ngroups);
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

/* The names nearest the unknown one, among every event this machine has. */
static void nearest(const char *want, char *buf, size_t len)
{
	struct near best[3];
	pfm_pmu_info_t pinfo;
	pfm_event_info_t info;
	char base[64];
	size_t i, n = 0;
	int pmu, idx;

	snprintf(base, sizeof(base), "%s", want);
	base[strcspn(base, ":")] = '\0';
	for (i = 0; i < 3; i++)
		best[i] = (struct near){ "", 99 };
	for (i = 0; i < NUM_SW; i++)
		consider(best, base, sw_events[i].name);
	for (i = 0; i < NUM_ALIASES; i++)
		consider(best, base, hw_aliases[i].name);
	if (pfm_initialize() == PFM_SUCCESS) {
		pfm_for_all_pmus(pmu) {
			memset(&pinfo, 0, sizeof(pinfo));
			pinfo.size = sizeof(pinfo);
			if (pfm_get_pmu_info(pmu, &pinfo) != PFM_SUCCESS || !pinfo.is_present)
				continue;
			for (idx = pinfo.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
				memset(&info, 0, sizeof(info));
				info.size = sizeof(info);
				if (pfm_get_event_info(idx, PFM_OS_NONE, &info) == PFM_SUCCESS)
					consider(best, base, info.name);
			}
		}
	}
	buf[0] = '\0';
	for (i = 0; i < 3; i++)
		if (best[i].d <= 2 + strlen(base) / 3)
			n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "", best[i].name);
}

static int read_model(char *buf, size_t len)
{
	FILE *f = fopen("/sys/kernel/perfmon/pmu_desc/model", "r");

	buf[0] = '\0';
	if (!f)
		return -1;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return 0;
}

static void unknown_event(const struct pfmon_event *e, int err)
{
	char near[256], model[64];

	if (err != ENOENT) {
		fprintf(stderr, "pfmon: event '%s': %s\n", e->name, err == ENODEV ?
			"libpfm4 found no hardware PMU on this machine" : strerror(err));
		exit(2);
	}
	nearest(e->name, near, sizeof(near));
	read_model(model, sizeof(model));
	fprintf(stderr, "pfmon: event '%s': unknown (not a software event, and not one "
		"libpfm4 knows on this machine's PMU%s)%s%s\n", e->name,
		!strcmp(model, "software") ? "; perfmon drives no hardware PMU here" : "",
		*near ? "; closest: " : "", near);
	exit(2);
}

static void encode(struct pfmon_event *e)
{
	unsigned int plm = 0, i, j;
	char *colon, base[64];
	uint64_t lv = opts.levels;

	snprintf(base, sizeof(base), "%s", e->name);
	colon = strchr(base, ':');
	if (colon)
		*colon++ = '\0';
	for (i = 0; i < NUM_SW; i++) {
		if (strcmp(base, sw_events[i].name))
			continue;
		if (colon) {
			lv = 0;
			for (j = 0; colon[j]; j++) {
				if (colon[j] == 'u')
					lv |= PFM_SW_PMC_USR;
				else if (colon[j] == 'k')
					lv |= PFM_SW_PMC_OS;
				else
					lv = ~0ULL;
			}
			if (!lv || lv == ~0ULL) {
				fprintf(stderr, "pfmon: event '%s': the modifier is u, k or uk\n",
					e->name);
				exit(2);
			}
		}
		e->sw = sw_events[i].code;
		e->sw_levels = lv;
		return;
	}
	if (opts.levels & PFM_SW_PMC_USR)
		plm |= PFMG_PLM_USR;
	if (opts.levels & PFM_SW_PMC_OS)
		plm |= PFMG_PLM_OS;
	for (i = 0; i < NUM_ALIASES; i++) {
		if (strcmp(base, hw_aliases[i].name))
			continue;
		for (j = 0; j < 2; j++) {
			char name[96];

			snprintf(name, sizeof(name), "%s%s%s", hw_aliases[i].lib[j],
				 colon ? ":" : "", colon ? colon : "");
			if (!pfmg_encode(name, plm, &e->hw))
				return;
		}
		unknown_event(e, ENOENT);
	}
	if (pfmg_encode(e->name, plm, &e->hw))
		unknown_event(e, errno);
}

/* Counters of the hardware PMU, as /sys/kernel/perfmon/pmu_desc lists them. */
static unsigned int count_regs(const char *kind, unsigned int first, unsigned int max)
{
	char path[96];
	unsigned int n = 0;

	while (n < max) {
		snprintf(path, sizeof(path), "/sys/kernel/perfmon/pmu_desc/%s%u", kind, first + n);
		if (access(path, F_OK))
			break;
		n++;
	}
	return n;
}

/*
 * The registers of set 'set' for events [first, last): appends its PMC writes,
 * sets each event's PMD.  -1 when they do not fit.
 */
static int fill_set(int set, int first, int last, unsigned int ngp, unsigned int nfixed)
{
	struct pfmg_event hw[PFMON_MAX_EVENTS];
	uint16_t hw_pmd[PFMON_MAX_EVENTS];
	struct pfarg_pmc pc[PFMON_MAX_EVENTS + 1];
	unsigned int nhw = 0, nsw = 0, k, n;
	int i;

	for (i = first; i < last; i++) {
		struct pfmon_event *e = &opts.ev[i];

		if (!e->sw) {
			hw[nhw++] = e->hw;
			continue;
		}
		if (nsw == PFM_SW_NUM_COUNTERS)
			return -1;
		pmcs[npmcs].reg_num = PFM_SW_FIRST_PMC + nsw;
		pmcs[npmcs].reg_set = set;
		pmcs[npmcs++].reg_value = e->sw | PFM_SW_PMC_EN | e->sw_levels;
		e->pmd = PFM_SW_FIRST_PMD + nsw++;
		e->set = set;
	}
	if (!nhw)
		return 0;
	if (pfmg_assign(hw, nhw, ngp, nfixed, pc, &n, hw_pmd))
		return -1;
	for (k = 0; k < n; k++) {
		pc[k].reg_set = set;
		pmcs[npmcs++] = pc[k];
	}
	for (i = first, k = 0; i < last; i++) {
		if (!opts.ev[i].sw) {
			opts.ev[i].pmd = hw_pmd[k++];
			opts.ev[i].set = set;
		}
	}
	return 0;
}

/*
 * Encodes the events at their levels and places them: each set takes whole
 * groups while they fit.  Trying a set again with one more group is cheap: a
 * set has at most a few dozen events.
 */
void evsel_place(void)
{
	unsigned int ngp = count_regs("pmc", PFM_X86_FIRST_GP_PMC, PFM_X86_MAX_GP);
	unsigned int nfixed = count_regs("pmd", PFM_X86_FIRST_FIXED_PMD, PFM_X86_MAX_FIXED);
	unsigned int set_start = 0;
	int i, g, first = 0, set = 0;

	for (i = 0; i < opts.nev; i++)
		encode(&opts.ev[i]);
	npmcs = 0;
	for (i = 0; i < opts.nev; i = g) {
		for (g = i; g < opts.nev && opts.ev[g].group == opts.ev[i].group; g++)
			;
		npmcs = set_start;
		if (!fill_set(set, first, g, ngp, nfixed))
			continue;
		if (i > first) {
			/* the group does not fit beside the set's events: close the set */
			npmcs = set_start;
			if (fill_set(set, first, i, ngp, nfixed))
				abort();
			set++;
			first = i;
			set_start = npmcs;
			if (!fill_set(set, first, g, ngp, nfixed))
				continue;
		}
		if (opts.ev[i].sw && opts.ev[g - 1].sw)
			fprintf(stderr, "pfmon: group of '%s': more than %d software events\n",
				opts.ev[i].name, PFM_SW_NUM_COUNTERS);
		else
			fprintf(stderr, "pfmon: %d hardware event%s from '%s': not enough "
				"counters (pmu_desc/model says which PMU perfmon drives)\n",
				g - i, g - i > 1 ? "s" : "", opts.ev[i].name);
		exit(2);
	}
	opts.nsets = set + 1;
	for (i = 0; i < opts.nev; i++) {
		pmds[i].reg_num = opts.ev[i].pmd;
		pmds[i].reg_set = opts.ev[i].set;
	}
}

/* Writes the sets and registers into the (unloaded) context fd. */
int evsel_program(int fd)
{
	struct pfarg_setdesc sd[PFMON_MAX_EVENTS];
	struct pfarg_pmd pd[PFMON_MAX_EVENTS];
	int i;

	if (opts.nsets > 1) {
		memset(sd, 0, opts.nsets * sizeof(sd[0]));
		for (i = 0; i < opts.nsets; i++) {
			sd[i].set_id = i;
			sd[i].set_flags = PFM_SETFL_TIME_SWITCH;
			sd[i].set_timeout = opts.switch_ns;
		}
		if (pfm_create_evtsets(fd, sd, opts.nsets * sizeof(sd[0])))
			return -1;
	}
	memcpy(pd, pmds, opts.nev * sizeof(pd[0]));
	if (opts.smpl_period) {
		pd[0].reg_flags = PFM_PMDFL_SMPL;
		pd[0].reg_value = -opts.smpl_period;
		pd[0].reg_short_reset = -opts.smpl_period;
		pd[0].reg_long_reset = -opts.smpl_period;
	}
	if (npmcs && pfm_write_pmcs(fd, pmcs, npmcs * sizeof(pmcs[0])))
		return -1;
	return pfm_write_pmds(fd, pd, opts.nev * sizeof(pd[0]));
}

/*
 * Adds the context's counts to c[]: each event's value, the time its set was
 * live and the time all sets were.
 */
int evsel_read(int fd, struct pfmon_count *c)
{
	struct pfarg_pmd pd[PFMON_MAX_EVENTS];
	struct pfarg_setinfo si[PFMON_MAX_EVENTS];
	uint64_t enabled = 0;
	int i;

	memcpy(pd, pmds, opts.nev * sizeof(pd[0]));
	if (pfm_read_pmds(fd, pd, opts.nev * sizeof(pd[0])))
		return -1;
	memset(si, 0, opts.nsets * sizeof(si[0]));
	for (i = 0; i < opts.nsets; i++)
		si[i].set_id = i;
	if (pfm_getinfo_evtsets(fd, si, opts.nsets * sizeof(si[0])))
		return -1;
	for (i = 0; i < opts.nsets; i++)
		enabled += si[i].set_act_duration;
	for (i = 0; i < opts.nev; i++) {
		c[i].raw += pd[i].reg_value;
		c[i].running += si[opts.ev[i].set].set_act_duration;
		c[i].enabled += enabled;
	}
	return 0;
}
