// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: the events (pfmon.h).
 *
 * An event is a software one (the software PMU's, present everywhere) or a
 * libpfm4 name counted on the hardware PMU.  Events are placed in order into
 * event sets: a set takes events while it has counters for them (1024 software
 * counters, PFM_SW_NUM_COUNTERS, as many as pfmon takes events, so software
 * events alone are counted exactly in one set; the general-purpose and fixed
 * counters pmu_desc lists), an -e group
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

/* the registers of every set, built once by evsel_place() */
static struct pfarg_pmc pmcs[2 * PFMON_MAX_EVENTS];
static struct pfarg_pmd pmds[PFMON_MAX_EVENTS];
static unsigned int npmcs;
static int npmds;		/* the events counted: those not <not supported> */
static int ngroups;

void evsel_usage(FILE *f)
{
	int i;

	fprintf(f, "software events (default:");
	for (i = 0; evnames_default[i]; i++)
		fprintf(f, " %s", evnames_default[i]);
	fprintf(f, "), perf's names (cs, faults, cpu-clock ...) and libpfm4's perf::\n"
		   "  names for them, with :u or :k for one level (-u, -k set it for all)\n"
		   "hardware events: libpfm4's names (INST_RETIRED:ANY_P, ...) and");
	for (i = 0; hw_aliases[i].name; i++)
		fprintf(f, " %s", hw_aliases[i].name);
	fprintf(f, ",\n  with a hardware PMU; -e '{a,b}' keeps a group in one event set;\n"
		   "  pfmon -l [PATTERN] lists them\n");
}

/* an event of group (0: a group of its own) */
struct pfmon_event *evsel_add(const char *tok, int group)
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
	e->group = group ? group : ++ngroups;
	return e;
}

static void syntax(const char *list, const char *at, const char *what)
{
	fprintf(stderr, "pfmon: event syntax error in '%s' at offset %d: %s\n", list,
		(int)(at - list), what);
	exit(2);
}

/*
 * "a,{b,c},d": a group is a brace pair, whose events share a set.  Refused as
 * perf refuses them: an empty list, event or group, a comma with nothing on one
 * side, braces unbalanced or nested.
 */
void evsel_parse(char *list)
{
	char *p = list, *end, save;
	int in_group = 0;

	opts.last_list = opts.nev + 1;
	if (!*p)
		syntax(list, p, "no event");
	for (;;) {
		if (*p == '{') {
			if (in_group)
				syntax(list, p, "a group inside a group");
			in_group = 1;
			ngroups++;
			p++;
		}
		end = p + strcspn(p, ",{}");
		if (end == p)
			syntax(list, p, *p == '}' && p[-1] == '{' ? "an empty group" :
			       *p == '{' ? "a group inside a group" : "an empty event name");
		save = *end;
		*end = '\0';
		if (!tp_add(p, in_group ? ngroups : 0))
			evsel_add(p, in_group ? ngroups : 0);
		*end = save;
		p = end;
		if (*p == '}') {
			if (!in_group)
				syntax(list, p, "a '}' without its '{'");
			in_group = 0;
			p++;
			if (*p && *p != ',')
				syntax(list, p, *p == ':' ? "a modifier on a group (put it on "
				       "each event)" : "a ',' expected after '}'");
		}
		if (*p == '{')
			syntax(list, p, "a ',' expected before '{'");
		if (!*p)
			break;
		p++;	/* the ',' */
		if (!*p)
			syntax(list, p, "an empty event name after the last ','");
	}
	if (in_group)
		syntax(list, p, "a '{' without its '}'");
}

void evsel_default(void)
{
	int i;

	for (i = 0; evnames_default[i]; i++)
		evsel_add(evnames_default[i], 0);
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
	evnames_nearest(e->name, near, sizeof(near));
	read_model(model, sizeof(model));
	fprintf(stderr, "pfmon: event '%s': unknown (not a software event, and not one "
		"libpfm4 knows on this machine's PMU%s)%s%s; pfmon -l lists them\n", e->name,
		!strcmp(model, "software") ? "; perfmon drives no hardware PMU here" : "",
		*near ? "; closest: " : "", near);
	exit(2);
}

/* a software event's levels from its modifier: "u", "k", "uk" */
static uint64_t sw_levels(const struct pfmon_event *e, const char *mod)
{
	uint64_t lv = 0;
	int j;

	if (!mod)
		return opts.levels;
	for (j = 0; mod[j]; j++) {
		if (mod[j] == 'u')
			lv |= PFM_SW_PMC_USR;
		else if (mod[j] == 'k')
			lv |= PFM_SW_PMC_OS;
		else
			lv = ~0ULL;
	}
	if (!lv || lv == ~0ULL) {
		fprintf(stderr, "pfmon: event '%s': the modifier is u, k or uk\n", e->name);
		exit(2);
	}
	/* --all-user and --all-kernel win over the modifier, as in perf */
	return opts.all_levels ? opts.all_levels : lv;
}

static void encode(struct pfmon_event *e)
{
	const struct hw_alias *alias;
	unsigned int plm = 0, j;
	char *colon, base[64];
	int code;

	snprintf(base, sizeof(base), "%s", e->name);
	/* libpfm4's "perf::" prefix is no modifier */
	colon = strchr(base + (evnames_is_perf_table(base) ? 6 : 0), ':');
	if (colon)
		*colon++ = '\0';
	if (e->tp) {
		tp_encode(e);
		return;
	}
	if (evnames_sw(base, &code)) {
		e->soft = 1;
		e->sw = code;
		e->sw_levels = sw_levels(e, colon);
		return;
	}
	if (evnames_lacking(base)) {
		fprintf(stderr, "pfmon: event '%s': no counter for it: perfmon's software PMU "
			"counts page faults minor and major together (page-faults)\n", e->name);
		exit(1);
	}
	if (opts.levels & PFM_SW_PMC_USR)
		plm |= PFMG_PLM_USR;
	if (opts.levels & PFM_SW_PMC_OS)
		plm |= PFMG_PLM_OS;
	alias = evnames_hw_alias(base);
	if (alias) {
		for (j = 0; j < 4 && alias->lib[j]; j++) {
			char name[96];

			snprintf(name, sizeof(name), "%s%s%s", alias->lib[j],
				 colon ? ":" : "", colon ? colon : "");
			if (!pfmg_encode(name, plm, &e->hw))
				return;
		}
		if (e->optional) {
			e->unsupported = 1;
			e->set = UINT16_MAX;
			return;
		}
		unknown_event(e, ENOENT);
	}
	/* perf:: names left are libpfm4's perf table's: perf_event_open() configs */
	if (evnames_is_perf_table(base) || evnames_core_pmu_event(e->name) == 0)
		unknown_event(e, ENOENT);
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
 * The software counters a set takes: all of them, or fewer where
 * PFMON_SW_COUNTERS says so (pfmon(1), ENVIRONMENT), so that multiplexing can be
 * tried on software events where there is no hardware PMU to try it on.
 */
static unsigned int sw_counters(void)
{
	static unsigned int n;
	unsigned long v;
	const char *s;
	char *end;

	if (n)
		return n;
	n = PFM_SW_NUM_COUNTERS;
	s = getenv("PFMON_SW_COUNTERS");
	if (s && *s) {
		errno = 0;
		v = strtoul(s, &end, 10);

		if (errno || *end || !isdigit((unsigned char)*s) || !v || v > PFM_SW_NUM_COUNTERS) {
			fprintf(stderr, "pfmon: PFMON_SW_COUNTERS '%s': not a number of "
				"software counters (1..%d)\n", s, PFM_SW_NUM_COUNTERS);
			exit(2);
		}
		n = v;
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

		if (e->unsupported)
			continue;
		if (!e->soft) {
			hw[nhw++] = e->hw;
			continue;
		}
		if (nsw == sw_counters())
			return -1;
		pmcs[npmcs].reg_num = PFM_SW_FIRST_PMC + nsw;
		pmcs[npmcs].reg_set = set;
		pmcs[npmcs++].reg_value = e->sw | PFM_SW_PMC_EN | e->sw_levels |
					  (uint64_t)e->tp_id << PFM_SW_PMC_KEY_SHIFT;
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
		if (!opts.ev[i].soft && !opts.ev[i].unsupported) {
			opts.ev[i].pmd = hw_pmd[k++];
			opts.ev[i].set = set;
		}
	}
	return 0;
}

/*
 * Software events take no hardware counter, and up to PFM_SW_NUM_COUNTERS of them
 * (sw_counters()) are counted exactly: past that they are multiplexed like
 * hardware events, which a reader of the estimates is told once, on stderr.
 */
static void mux_note(void)
{
	int i, nsw = 0;

	for (i = 0; i < opts.nev; i++)
		nsw += opts.ev[i].soft;
	if (opts.nsets > 1 && nsw > (int)sw_counters())
		fprintf(stderr, "pfmon: %d software events, more than the %u software "
			"counters: multiplexed in %d event sets, counts are estimates\n",
			nsw, sw_counters(), opts.nsets);
}

/*
 * Encodes the events at their levels and places them: each set takes whole
 * groups while they fit.  Trying a set again with one more group is cheap: a
 * set has at most a few hundred events.
 */
void evsel_place(void)
{
	unsigned int ngp = count_regs("pmc", PFM_X86_FIRST_GP_PMC, PFM_X86_MAX_GP);
	unsigned int nfixed = count_regs("pmd", PFM_X86_FIRST_FIXED_PMD, PFM_X86_MAX_FIXED);
	unsigned int set_start = 0;
	int i, g, first = 0, set = 0;

	for (i = 0; i < opts.nev; i++) {
		encode(&opts.ev[i]);
		/* perf's default and detailed events: <not supported> without a counter */
		npmcs = 0;
		if (opts.ev[i].optional && !opts.ev[i].unsupported &&
		    fill_set(0, i, i + 1, ngp, nfixed)) {
			opts.ev[i].unsupported = 1;
			opts.ev[i].set = UINT16_MAX;
		}
	}
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
		/* no counter for the group, even alone in a set: perfmon's limit */
		if (opts.ev[i].soft && opts.ev[g - 1].soft)
			fprintf(stderr, "pfmon: group of '%s': more than %u software events\n",
				opts.ev[i].name, sw_counters());
		else
			fprintf(stderr, "pfmon: %d hardware event%s from '%s': not enough "
				"counters (pmu_desc/model says which PMU perfmon drives)\n",
				g - i, g - i > 1 ? "s" : "", opts.ev[i].name);
		exit(1);
	}
	opts.nsets = set + 1;
	for (i = 0, npmds = 0; i < opts.nev; i++) {
		if (opts.ev[i].unsupported)
			continue;
		pmds[npmds].reg_num = opts.ev[i].pmd;
		pmds[npmds++].reg_set = opts.ev[i].set;
	}
	mux_note();
}

/*
 * A vector call takes up to /sys/kernel/perfmon/arg_mem_max bytes, a page by
 * default: 16 PMDs (176 bytes each) or 64 PMCs go in one call, more in several.
 */
#define PMDS_PER_CALL	16
#define PMCS_PER_CALL	64

static int pmds_call(int (*call)(int, struct pfarg_pmd *, size_t), int fd,
		     struct pfarg_pmd *pd, int n)
{
	int k, m;

	for (k = 0; k < n; k += m) {
		m = n - k < PMDS_PER_CALL ? n - k : PMDS_PER_CALL;
		if (call(fd, pd + k, m * sizeof(pd[0])))
			return -1;
	}
	return 0;
}

static int pmcs_write(int fd, struct pfarg_pmc *pc, int n)
{
	int k, m;

	for (k = 0; k < n; k += m) {
		m = n - k < PMCS_PER_CALL ? n - k : PMCS_PER_CALL;
		if (pfm_write_pmcs(fd, pc + k, m * sizeof(pc[0])))
			return -1;
	}
	return 0;
}

/*
 * The PMC of software event ev as evsel_place() made it, its enable bit on or
 * off, for --control's "enable NAME": 0, or -1 for an event whose PMC pfmon
 * cannot write again as it stands (a hardware event, whose fixed counters share
 * a control; a filtered trace event, whose key the kernel gave).
 */
int evsel_event_pmc(int ev, int on, struct pfarg_pmc *pc)
{
	const struct pfmon_event *e = &opts.ev[ev];
	unsigned int i;

	if (!e->soft || e->filter || e->unsupported)
		return -1;
	for (i = 0; i < npmcs; i++) {
		if (pmcs[i].reg_set != e->set ||
		    pmcs[i].reg_num != PFM_SW_FIRST_PMC + (e->pmd - PFM_SW_FIRST_PMD))
			continue;
		*pc = pmcs[i];
		if (on)
			pc->reg_value |= PFM_SW_PMC_EN;
		else
			pc->reg_value &= ~PFM_SW_PMC_EN;
		return 0;
	}
	return -1;
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
	memcpy(pd, pmds, npmds * sizeof(pd[0]));
	if (opts.smpl_period) {
		pd[0].reg_flags = PFM_PMDFL_SMPL;
		pd[0].reg_value = -opts.smpl_period;
		pd[0].reg_short_reset = -opts.smpl_period;
		pd[0].reg_long_reset = -opts.smpl_period;
	}
	if (pmcs_write(fd, pmcs, npmcs))
		return -1;
	evopts_program(fd);
	return pmds_call(pfm_write_pmds, fd, pd, npmds);
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
	int i, k;

	memcpy(pd, pmds, npmds * sizeof(pd[0]));
	if (pmds_call(pfm_read_pmds, fd, pd, npmds))
		return -1;
	memset(si, 0, opts.nsets * sizeof(si[0]));
	for (i = 0; i < opts.nsets; i++)
		si[i].set_id = i;
	if (pfm_getinfo_evtsets(fd, si, opts.nsets * sizeof(si[0])))
		return -1;
	for (i = 0; i < opts.nsets; i++)
		enabled += si[i].set_act_duration;
	for (i = 0, k = 0; i < opts.nev; i++) {
		/* an event perf could not open: no time, as perf has none for it */
		if (opts.ev[i].unsupported)
			continue;
		c[i].raw += pd[k++].reg_value;
		c[i].running += si[opts.ev[i].set].set_act_duration;
		c[i].enabled += enabled;
	}
	return 0;
}
