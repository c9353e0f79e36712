// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: the groups of a run (pfmon.h), what is printed apart: every context
 * together (by default), a thread (--per-thread) or a CPU (-A).  A group holds
 * the counts of its closed contexts; target.c adds its open ones' at each read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pfmon.h"

struct tgroup {
	struct pfmon_group out;		/* the counts given to the caller */
	struct pfmon_count *retired;	/* of its closed contexts */
};
static struct tgroup *groups;
static struct pfmon_group *out_groups;
static int ngroups;

/* The thread's name, kept when the thread is gone already. */
void group_comm(int g)
{
	struct pfmon_group *out = &groups[g].out;
	char path[64], buf[16];
	FILE *f;

	if (opts.aggr != AGGR_THREAD)
		return;
	snprintf(path, sizeof(path), "/proc/%ld/comm", out->id);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(out->comm, sizeof(out->comm), "%s", buf);
	}
	fclose(f);
}

/*
 * The name the kernel gives a thread at the exec of path: its last component,
 * as long as a comm holds.
 */
void group_name(int g, const char *path)
{
	const char *base = strrchr(path, '/');

	if (opts.aggr != AGGR_THREAD)
		return;
	snprintf(groups[g].out.comm, sizeof(groups[g].out.comm), "%.15s",
		 base ? base + 1 : path);
}

/* The group of a thread or CPU, made on first use. */
int group_of(long target)
{
	long id = opts.aggr == AGGR_ALL ? -1 : opts.aggr > AGGR_CPU ? topo_key(target) : target;
	struct tgroup *g;
	int i;

	for (i = 0; i < ngroups; i++)
		if (groups[i].out.id == id)
			return i;
	groups = pfmon_grow(groups, ngroups, sizeof(*groups));
	g = &groups[ngroups];
	memset(g, 0, sizeof(*g));
	g->out.id = id;
	g->retired = calloc(opts.nev, sizeof(*g->retired));
	g->out.count = calloc(opts.nev, sizeof(*g->out.count));
	if (!g->retired || !g->out.count)
		pfmon_fail("calloc", ENOMEM, -1);
	group_comm(ngroups);
	return ngroups++;
}

void groups_free(void)
{
	int i;

	for (i = 0; i < ngroups; i++) {
		free(groups[i].retired);
		free(groups[i].out.count);
	}
	free(groups);
	free(out_groups);
	groups = NULL;
	out_groups = NULL;
	ngroups = 0;
}

struct pfmon_count *group_retired(int g)
{
	return groups[g].retired;
}

struct pfmon_count *group_counts(int g)
{
	return groups[g].out.count;
}

/* Each group's counts start from its closed contexts'. */
void groups_from_retired(int final)
{
	struct pfmon_count *gc;
	int g, i;

	for (g = 0; g < ngroups; g++) {
		gc = groups[g].out.count;
		memcpy(gc, groups[g].retired, opts.nev * sizeof(*gc));
		for (i = 0; i < opts.nev; i++)
			gc[i].final = final;
	}
}

/* The sum of the groups' counts in c. */
void groups_sum(struct pfmon_count *c, int final)
{
	struct pfmon_count *gc;
	int g, i;

	memset(c, 0, opts.nev * sizeof(*c));
	for (i = 0; i < opts.nev; i++)
		c[i].final = final;
	for (g = 0; g < ngroups; g++) {
		gc = groups[g].out.count;
		for (i = 0; i < opts.nev; i++) {
			c[i].raw += gc[i].raw;
			c[i].running += gc[i].running;
			c[i].enabled += gc[i].enabled;
			c[i].est += gc[i].est;
			c[i].bound2 += gc[i].bound2;
			c[i].unbounded += gc[i].unbounded;
		}
	}
}

/* The groups as the caller sees them (their counts as the last read left them). */
const struct pfmon_group *groups_view(int *n)
{
	int g;

	out_groups = pfmon_grow(out_groups, ngroups, sizeof(*out_groups));
	for (g = 0; g < ngroups; g++)
		out_groups[g] = groups[g].out;
	*n = ngroups;
	return out_groups;
}
