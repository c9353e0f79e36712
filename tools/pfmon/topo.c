// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: --per-socket, --per-die, --per-core, --per-node (pfmon.h).  A CPU's
 * group is its socket, die, core or NUMA node, read from
 * /sys/devices/system/cpu/cpuN (topology/ and the nodeM link); a group is
 * printed as perf stat labels it (S0, S0-D0, S0-D0-C1, N0) with the number
 * of the counted CPUs it holds.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pfmon.h"

static long sysfs_num(int cpu, const char *file)
{
	char path[128];
	long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
	f = fopen(path, "r");
	if (!f)
		return 0;	/* no such level here: one of it, as perf takes it */
	if (fscanf(f, "%ld", &v) != 1 || v < 0)
		v = 0;
	fclose(f);
	return v;
}

/* A CPU no node lists (a kernel without NUMA has none) is perf's node -1. */
static long node_of(int cpu)
{
	char path[64];
	struct dirent *d;
	long node = -1;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	dir = opendir(path);
	while (dir && (d = readdir(dir)))
		if (!strncmp(d->d_name, "node", 4) && d->d_name[4] >= '0' && d->d_name[4] <= '9')
			node = atol(d->d_name + 4);
	if (dir)
		closedir(dir);
	return node;
}

/* cpu's group: socket, die and core in 20 bits each (what the level keeps) */
long topo_key(int cpu)
{
	long s = sysfs_num(cpu, "physical_package_id") & 0xfffff;
	long d = sysfs_num(cpu, "die_id") & 0xfffff;
	long c = sysfs_num(cpu, "core_id") & 0xfffff;

	switch (opts.aggr) {
	case AGGR_NODE:
		return node_of(cpu);
	case AGGR_SOCKET:
		return s << 40;
	case AGGR_DIE:
		return s << 40 | d << 20;
	default:
		return s << 40 | d << 20 | c;
	}
}

/*
 * The group's label and its number of counted CPUs before a count, as perf
 * prints them: padded in text, then sep (CSV), or JSON's fields.
 */
void topo_print(FILE *f, long key, const char *sep)
{
	long s = key >> 40, d = (key >> 20) & 0xfffff, c = key & 0xfffff;
	const char *field = opts.aggr == AGGR_NODE ? "node" : opts.aggr == AGGR_SOCKET ?
			    "socket" : opts.aggr == AGGR_DIE ? "die" : "core";
	int i, n = 0, text = !sep && !opts.json;
	char label[64];

	for (i = 0; i < opts.ncpus; i++)
		n += topo_key(opts.cpus[i]) == key;
	if (opts.aggr == AGGR_NODE || opts.aggr == AGGR_SOCKET)
		snprintf(label, sizeof(label), "%c%-*ld", opts.aggr == AGGR_NODE ? 'N' : 'S',
			 text ? 5 : 0, opts.aggr == AGGR_NODE ? key : s);
	else if (opts.aggr == AGGR_DIE)
		snprintf(label, sizeof(label), "S%ld-D%-*ld", s, text ? 8 : 0, d);
	else
		snprintf(label, sizeof(label), "S%ld-D%ld-C%-*ld", s, d, text ? 8 : 0, c);
	if (opts.json)
		fprintf(f, "\"%s\" : \"%s\", \"aggregate-number\" : %d, ", field, label, n);
	else
		fprintf(f, "%s%s%*d%s", label, sep ? sep : " ", text ? 4 : 0, n, sep ? sep : " ");
}
