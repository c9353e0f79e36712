// SPDX-License-Identifier: GPL-2.0
/*
 * Nothing left behind: perfmon's own counts (/sys/kernel/perfmon/) back to what
 * they were before the load, and the slab caches back to where they were after a
 * warm-up round of the same load (which made what the kernel keeps once made:
 * per-CPU and lazily allocated structures, the trace layer's first sources).
 *
 * A slab snapshot first frees what the kernel frees on demand: the dentry and
 * inode caches (drop_caches), then every cache shrunk (/sys/kernel/slab/NAME/
 * shrink: the CPUs' slabs and partial lists flushed, and KASAN's quarantine of
 * that cache emptied), so that /proc/slabinfo's active objects are the objects
 * allocated, not the free ones on a CPU's slab.
 *
 * perfmon has no cache of its own: its objects are kmalloc()'s.  A kmalloc cache
 * may end one slab per CPU above its start: a slab a CPU takes again between the
 * shrink and the read (this process's own reads, a kworker on the other CPU) is
 * active to slabinfo, free objects and all (seen: kmalloc-192 +42 on two CPUs,
 * two slabs of 21 exactly, after a second shrink too).  And an object more for
 * each task alive after the load and not before: the kworkers it made the
 * workqueues spawn stay idle for minutes (the short runs end with 3 tasks more,
 * and 3 objects more in several kmalloc caches).  What perfmon holds is counted
 * exactly by its own counts above, and kmemleak watches the debug kernel's run.
 * The other caches, which only the kernel's own work uses (tasks, files,
 * mappings, the kernel log, RCU's late frees), may together end SLACK_OTHER
 * bytes above.
 *
 * vmap_area is not one of them: vmalloc() keeps freed areas on a lazy list
 * until enough have gathered, and describes the free holes between areas with
 * objects of that cache, so a load that vmallocs (sampling buffers, rings)
 * leaves it a few hundred kB higher or lower by how the space fragmented.
 * What perfmon holds there is read instead: /proc/vmallocinfo's areas whose
 * caller is perfmon's (a "[perfmon]" module symbol, or a pfm_ function of the
 * in-tree kernel) must be as many, and as large, as before.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load.h"

#define SLACK_OTHER	(256 * 1024L)
#define MAX_CACHES	512
#define QUIESCE_MS	10000
/*
 * kfree_rcu() frees in batches, and a batch waits for the one before: a batch
 * made while two are in flight stays up to 5 s (6.1's KFREE_DRAIN_JIFFIES), which
 * the drop_caches shrink does not hurry.  perfmon frees its task hooks so.
 */
#define RCU_BATCH_MS	6000

static const char *const pfm_counts[] = {
	"contexts_count", "task_sessions_count", "sys_sessions_count",
	"task_hooks_count", "smpl_buffer_mem_cur", "inherit_contexts_count",
	"inherit_lost_count", "perf_targets_count", "perf_events_count",
};
#define NCOUNTS		(sizeof(pfm_counts) / sizeof(pfm_counts[0]))

struct cache {
	char name[64];
	long active, objsize, perslab;
};

struct leak_snap {
	long counts[NCOUNTS];
	long slab_kb, sunreclaim_kb;
	long vm_areas, vm_bytes;	/* perfmon's in /proc/vmallocinfo, -1: unread */
	int ncaches;
	struct cache caches[MAX_CACHES];
};

static void read_counts(long *v)
{
	char path[128];
	unsigned int i;

	for (i = 0; i < NCOUNTS; i++) {
		snprintf(path, sizeof(path), "/sys/kernel/perfmon/%s", pfm_counts[i]);
		v[i] = load_read_long(path);
	}
}

static long meminfo_kb(const char *key)
{
	char line[256];
	long v = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

static void shrink_all(void)
{
	char path[512];
	struct dirent *d;
	DIR *dir = opendir("/sys/kernel/slab");

	if (!dir) {
		load_note("no /sys/kernel/slab: the caches are compared unshrunk");
		return;
	}
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.') {
			snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", d->d_name);
			load_write(path, "1");
		}
	closedir(dir);
}

static void read_slabinfo(struct leak_snap *s)
{
	char line[512];
	struct cache *c;
	FILE *f = fopen("/proc/slabinfo", "r");

	s->ncaches = 0;
	if (!f) {
		load_fail("/proc/slabinfo: cannot open");
		return;
	}
	while (fgets(line, sizeof(line), f) && s->ncaches < MAX_CACHES) {
		c = &s->caches[s->ncaches];
		if (line[0] == '#' || !strncmp(line, "slabinfo", 8))
			continue;
		if (sscanf(line, "%63s %ld %*d %ld %ld", c->name, &c->active, &c->objsize,
			   &c->perslab) == 4)
			s->ncaches++;
	}
	fclose(f);
}

static void read_vmallocinfo(struct leak_snap *s)
{
	char line[512];
	long bytes;
	FILE *f = fopen("/proc/vmallocinfo", "r");

	s->vm_areas = s->vm_bytes = -1;
	if (!f) {
		load_note("no /proc/vmallocinfo: perfmon's vmalloc areas are not compared");
		return;
	}
	s->vm_areas = s->vm_bytes = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "[perfmon]") && !strstr(line, " pfm_"))
			continue;
		if (sscanf(line, "%*s %ld", &bytes) != 1)
			continue;
		s->vm_areas++;
		s->vm_bytes += bytes;
	}
	fclose(f);
}

struct leak_snap *leak_snapshot(void)
{
	struct leak_snap *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	read_counts(s->counts);
	sync();
	load_write("/proc/sys/vm/drop_caches", "3");
	/* RCU's frees and the exit work items */
	load_msleep(1000);
	shrink_all();
	read_slabinfo(s);
	read_vmallocinfo(s);
	s->slab_kb = meminfo_kb("Slab");
	s->sunreclaim_kb = meminfo_kb("SUnreclaim");
	return s;
}

int leak_quiesce(const struct leak_snap *base)
{
	long now[NCOUNTS];
	unsigned int i;
	int ms, same = 0;

	/* a perf target's exit work may hold a context a moment after its thread */
	for (ms = 0; ms < QUIESCE_MS && !same; ms += 10) {
		read_counts(now);
		same = !memcmp(now, base->counts, sizeof(now));
		if (!same)
			load_msleep(10);
	}
	for (i = 0; i < NCOUNTS; i++)
		if (now[i] != base->counts[i])
			load_fail("/sys/kernel/perfmon/%s: %ld after the load, %ld before",
				  pfm_counts[i], now[i], base->counts[i]);
	return same ? 0 : -1;
}

static const struct cache *find(const struct leak_snap *s, const char *name)
{
	int i;

	for (i = 0; i < s->ncaches; i++)
		if (!strcmp(s->caches[i].name, name))
			return &s->caches[i];
	return NULL;
}

/* Tasks alive after and not before: kworkers the load made the workqueues spawn. */
static long new_tasks(const struct leak_snap *before, const struct leak_snap *after)
{
	const struct cache *b = find(before, "task_struct"), *a = find(after, "task_struct");

	return a && b && a->active > b->active ? a->active - b->active : 0;
}

/* A kmalloc cache's slack: a slab per CPU, and an object per new task. */
static long kmalloc_slack(const struct cache *c, long tasks)
{
	return c->perslab * (load.ncpus > 0 ? load.ncpus : 1) + tasks;
}

/* Whether a kmalloc cache of after is more than its slack above before. */
static int kmalloc_above(const struct leak_snap *before, const struct leak_snap *after)
{
	long tasks = new_tasks(before, after);
	const struct cache *b, *a;
	int i;

	for (i = 0; i < after->ncaches; i++) {
		a = &after->caches[i];
		b = find(before, a->name);
		if (!strncmp(a->name, "kmalloc-", 8) &&
		    a->active - (b ? b->active : 0) > kmalloc_slack(a, tasks))
			return 1;
	}
	return 0;
}

struct leak_snap *leak_settle(const struct leak_snap *before, struct leak_snap *after)
{
	if (!kmalloc_above(before, after))
		return after;
	load_note("a kmalloc cache is above: looked at again after kfree_rcu()'s batches");
	free(after);
	load_msleep(RCU_BATCH_MS);
	return leak_snapshot();
}

void leak_compare(const struct leak_snap *before, const struct leak_snap *after)
{
	long other = 0, grew, objs, tasks = new_tasks(before, after);
	const struct cache *b, *a;
	int i;

	load_note("meminfo: Slab %ld kB -> %ld kB, SUnreclaim %ld kB -> %ld kB",
		  before->slab_kb, after->slab_kb, before->sunreclaim_kb,
		  after->sunreclaim_kb);
	for (i = 0; i < after->ncaches; i++) {
		a = &after->caches[i];
		b = find(before, a->name);
		objs = a->active - (b ? b->active : 0);
		if (objs <= 0)
			continue;
		grew = objs * a->objsize;
		load_note("slab %s: +%ld objects (%ld bytes)", a->name, objs, grew);
		if (!strcmp(a->name, "vmap_area")) {
			continue;
		} else if (!strncmp(a->name, "kmalloc-", 8)) {
			if (objs > kmalloc_slack(a, tasks))
				load_fail("slab %s: %ld objects more than before, above a slab per CPU and one per new task (%ld)",
					  a->name, objs, kmalloc_slack(a, tasks));
		} else {
			other += grew;
		}
	}
	if (before->vm_areas >= 0 && after->vm_areas >= 0) {
		load_note("vmalloc: perfmon's areas %ld (%ld bytes) -> %ld (%ld bytes)",
			  before->vm_areas, before->vm_bytes, after->vm_areas, after->vm_bytes);
		if (after->vm_areas != before->vm_areas || after->vm_bytes != before->vm_bytes)
			load_fail("vmalloc: perfmon holds %ld areas (%ld bytes), %ld (%ld bytes) before",
				  after->vm_areas, after->vm_bytes, before->vm_areas,
				  before->vm_bytes);
	}
	load_note("slab: the other caches %+ld bytes together (slack %ld)", other, SLACK_OTHER);
	if (other > SLACK_OTHER)
		load_fail("slab: the caches other than kmalloc's grew by %ld bytes, above %ld",
			  other, SLACK_OTHER);
}
