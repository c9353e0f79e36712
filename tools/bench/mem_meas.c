// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's memory counters (mem_meas.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "mem_meas.h"

const char *const mem_meas_name[NMEAS] = { "slab", "vmalloc", "total" };

long long meminfo_kb(const char *field)
{
	char line[256];
	long long v = -1;
	size_t n = strlen(field);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n) && line[n] == ':')
			v = atoll(line + n + 1);
	fclose(f);
	return v;
}

/*
 * Free pages, with those the per-CPU lists hold: MemFree leaves these out, and a
 * page freed by one round and taken by the next goes through them unseen.
 */
static long long free_pages(void)
{
	char line[256];
	long long v, sum = 0;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		die("/proc/zoneinfo");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " pages free %lld", &v) == 1 || sscanf(line, " count: %lld", &v) == 1)
			sum += v;
	fclose(f);
	return sum;
}

static long long slab_bytes(void)
{
	char line[512], name[128];
	long long active, num, size, sum = 0;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		die("/proc/slabinfo");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %lld %lld %lld", name, &active, &num, &size) == 4)
			sum += active * size;
	fclose(f);
	return sum;
}

/* Folds the per-CPU deltas of the memory counters into /proc/meminfo's figures. */
static void stat_refresh(void)
{
	FILE *f = fopen("/proc/sys/vm/stat_refresh", "w");

	if (!f || fputs("1\n", f) < 0 || fclose(f))
		die("/proc/sys/vm/stat_refresh");
}

void mem_now(long long *m)
{
	/* let RCU and deferred frees of the last case settle first */
	usleep(300 * 1000);
	stat_refresh();
	m[M_SLAB] = slab_bytes();
	m[M_VMALLOC] = meminfo_kb("VmallocUsed") * 1024;
	m[M_TOTAL] = -free_pages() * sysconf(_SC_PAGESIZE);
}
