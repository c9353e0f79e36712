// SPDX-License-Identifier: GPL-2.0
/*
 * Reading tests/sim/cpuid/ (sim_dump.h): one processor a file, a keyword a line.
 * Anything not understood is an error naming the file and line, so that a typo
 * in the data fails the suite rather than weakening it.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_dump.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum { EXP_PMU = 1, EXP_GP = 2, EXP_FIXED = 4, EXP_GLOBAL = 8, EXP_REFUSED = 16 };

/* A value longer than its field is an error, not a silently shorter value. */
static int copy(char *dst, size_t size, const char *src)
{
	size_t l = strlen(src);

	if (l >= size)
		return -1;
	memcpy(dst, src, l + 1);
	return 0;
}

static bool yes_no(const char *s, bool *v)
{
	*v = !strcmp(s, "yes");
	return *v || !strcmp(s, "no");
}

static int parse_expect(struct sim_expect *e, const char *s)
{
	char kind[16], rest[96];
	int n;

	if (sscanf(s, "%15s %95[^\n]", kind, rest) != 2)
		return -1;
	if (!strcmp(kind, "refused")) {
		e->given |= EXP_REFUSED;
		return copy(e->refused, sizeof(e->refused), rest);
	} else if (!strcmp(kind, "pmu")) {
		e->given |= EXP_PMU;
		return copy(e->pmu, sizeof(e->pmu), rest);
	} else if (!strcmp(kind, "gp")) {
		n = sscanf(rest, "%u %u %x %x %x", &e->gp, &e->gp_width, &e->sel0, &e->ctr0,
			   &e->stride);
		if (n != 5)
			return -1;
		e->given |= EXP_GP;
	} else if (!strcmp(kind, "fixed")) {
		if (strcmp(rest, "none") &&
		    sscanf(rest, "%x %u", &e->fixed, &e->fixed_width) != 2)
			return -1;
		e->given |= EXP_FIXED;
	} else if (!strcmp(kind, "global")) {
		if (strcmp(rest, "none") &&
		    sscanf(rest, "%x %x %x", &e->gctrl, &e->gstatus, &e->gack) != 3)
			return -1;
		e->given |= EXP_GLOBAL;
	} else {
		return -1;
	}
	return 0;
}

static int parse_cpuid(struct sim_dump *d, const char *s)
{
	struct sim_dump_core *c;
	struct sim_leaf *l;

	if (!d->ncores)
		d->ncores = 1;		/* one core type: no core line */
	c = &d->core[d->ncores - 1];
	if (c->nleaves == SIM_DUMP_MAX_LEAVES)
		return -1;
	l = &c->leaves[c->nleaves];
	if (sscanf(s, "%x %x %x %x %x %x", &l->leaf, &l->sub, &l->r[0], &l->r[1], &l->r[2],
		   &l->r[3]) != 6)
		return -1;
	c->nleaves++;
	return 0;
}

static int parse_core(struct sim_dump *d, const char *s)
{
	struct sim_dump_core *c;

	if (d->ncores == SIM_DUMP_MAX_CORES || (d->ncores && !d->core[0].label[0]))
		return -1;
	c = &d->core[d->ncores++];
	return sscanf(s, "%7s %x", c->label, &c->type) == 2 ? 0 : -1;
}

static int parse_line(struct sim_dump *d, const char *key, const char *val)
{
	unsigned int msr;
	char what[16], v[8];
	bool b;

	if (!strcmp(key, "name"))
		return copy(d->name, sizeof(d->name), val);
	else if (!strcmp(key, "cpu"))
		return copy(d->cpu, sizeof(d->cpu), val);
	else if (!strcmp(key, "source"))
		return copy(d->source, sizeof(d->source), val);
	else if (!strcmp(key, "uarch") || !strcmp(key, "note"))
		;			/* for the reader */
	else if (!strcmp(key, "has")) {
		if (sscanf(val, "%15s %7s", what, v) != 2 || !yes_no(v, &b))
			return -1;
		if (!strcmp(what, "hybrid"))
			d->hybrid = b;
		else if (!strcmp(what, "leaf23"))
			d->leaf23 = b;
		else
			return -1;
	} else if (!strcmp(key, "msr")) {
		if (sscanf(val, "%x %" SCNx64, &msr, &d->caps) != 2 || msr != 0x345)
			return -1;
		d->has_caps = true;
	} else if (!strcmp(key, "fixed_hw")) {
		return sscanf(val, "%x %u", &d->fixed_hw, &d->fixed_hw_width) == 2 ? 0 : -1;
	} else if (!strcmp(key, "expect")) {
		/* after a core line: that core type's */
		if (d->ncores && d->core[0].label[0])
			return parse_expect(&d->core[d->ncores - 1].expect, val);
		return parse_expect(&d->expect, val);
	} else if (!strcmp(key, "core")) {
		return parse_core(d, val);
	} else if (!strcmp(key, "core_hw")) {
		if (!d->ncores || !d->core[0].label[0])
			return -1;
		return sscanf(val, "%u %x", &d->core[d->ncores - 1].gp_hw,
			      &d->core[d->ncores - 1].fixed_hw) == 2 ? 0 : -1;
	} else if (!strcmp(key, "cpuid")) {
		return parse_cpuid(d, val);
	} else {
		return -1;
	}
	return 0;
}

static const char *expect_incomplete(const struct sim_expect *e)
{
	if (e->given == EXP_REFUSED)
		return NULL;
	if (e->given != (EXP_PMU | EXP_GP | EXP_FIXED | EXP_GLOBAL))
		return "expect: either refused, or all of pmu, gp, fixed and global";
	return NULL;
}

/*
 * What every file must say: the expect lines of the processor, or, on a hybrid
 * one with a PMU, each core type's after its core line.
 */
static const char *incomplete(const struct sim_dump *d)
{
	const struct sim_expect *e = &d->expect;
	const char *why;
	unsigned int c;

	if (!d->name[0] || !d->source[0])
		return "no name or no source";
	if (!d->ncores)
		return "no CPUID leaves";
	for (c = 0; c < d->ncores; c++)
		if (!d->core[c].nleaves)
			return "a core type without leaves";
	if (d->core[0].label[0] && !e->given) {
		for (c = 0; c < d->ncores; c++) {
			why = expect_incomplete(&d->core[c].expect);
			if (why || d->core[c].expect.refused[0])
				return why ? why : "a core type refused alone";
		}
		return NULL;
	}
	return expect_incomplete(e);
}

int sim_dump_read(const char *path, struct sim_dump *d, char *err, size_t len)
{
	char line[512], key[16], val[480];
	const char *base = strrchr(path, '/'), *why;
	unsigned int no = 0;
	FILE *f;

	memset(d, 0, sizeof(*d));
	snprintf(d->file, sizeof(d->file), "%.63s", base ? base + 1 : path);
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		no++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%15s %479[^\n]", key, val) != 2 || parse_line(d, key, val)) {
			snprintf(err, len, "%s:%u: not understood: %s", d->file, no, line);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	why = incomplete(d);
	if (why) {
		snprintf(err, len, "%s: %s", d->file, why);
		return -1;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sim_dumps_read_dir(const char *dir, struct sim_dump **out, char *err, size_t len)
{
	char *names[256], path[512];
	struct dirent *e;
	unsigned int n = 0, i;
	int ret = -1;
	DIR *dp;

	*out = NULL;
	dp = opendir(dir);
	if (!dp) {
		snprintf(err, len, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(dp)) && n < ARRAY_SIZE(names)) {
		size_t l = strlen(e->d_name);

		if (l > 6 && !strcmp(e->d_name + l - 6, ".cpuid"))
			names[n++] = strdup(e->d_name);
	}
	closedir(dp);
	qsort(names, n, sizeof(names[0]), by_name);
	*out = calloc(n ? n : 1, sizeof(**out));
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (sim_dump_read(path, &(*out)[i], err, len))
			goto out;
	}
	ret = n;
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	return ret;
}

void sim_dump_model(const struct sim_dump *d, unsigned int c, struct sim_model *m)
{
	const struct sim_dump_core *core = &d->core[c];

	sim_model_from_cpuid(m, core->leaves, core->nleaves);
	m->name = d->name;
	m->driver_model = core->expect.pmu[0] ? core->expect.pmu :
			  d->expect.pmu[0] ? d->expect.pmu : "software";
	if (d->has_caps) {
		m->fw_write = d->caps & (1ULL << 13);
		m->perf_caps = d->caps & ~(1ULL << 13);
	}
	if (core->gp_hw) {
		m->num_gp = core->gp_hw;
		m->num_fixed = 32 - __builtin_clz(core->fixed_hw);
	}
	if (d->fixed_hw) {
		/* counters from 0 up, which is how the processors concerned have them */
		m->num_fixed = 32 - __builtin_clz(d->fixed_hw);
		m->fixed_width = d->fixed_hw_width;
	}
}
