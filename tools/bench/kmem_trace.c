// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel memory by the kmem and percpu tracepoints (kmem_trace.h), read in the
 * ring buffer's own binary form (per_cpu/cpuN/trace_pipe_raw): formatting the
 * text of every event, with its call site's symbol, cost the guest some 25,000
 * instructions an event.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "kmem_trace.h"
#include "kmem_raw.h"

#define TABLE_BITS	19
#define TABLE_SIZE	(1u << TABLE_BITS)
#define DIRECT_MAP_SPAN	(1ull << 30)

const char *const kmem_trace_name[KT_N] = { "objects", "pages", "percpu" };

/*
 * An entry of the table is a key and what it is: an object's address, a page's
 * frame number ...
 */
enum kind { K_FREE, K_GONE, K_OBJ, K_PERCPU, K_PAGE, K_OBJ_PAGE };

struct entry {
	uint64_t key;
	long long bytes;
	int site;
	unsigned char kind;
};

static struct entry *table;
static long long *site_bytes;		/* by symbol (kmem_raw_symbol()), and pages last */
static int nsyms;
static uint64_t direct_map;
static long page_size;
static int on_fd;		/* tracing_on, open throughout: no file taken in the stretch */

void kmem_trace_init(unsigned int buffer_kb)
{
	page_size = sysconf(_SC_PAGESIZE);
	table = calloc(TABLE_SIZE, sizeof(*table));
	if (!table)
		die("kmem_trace: calloc");
	/* its pages taken now, not while the next stretch is measured */
	memset(table, 0, TABLE_SIZE * sizeof(*table));
	nsyms = kmem_raw_init(buffer_kb);
	site_bytes = calloc(nsyms + 1, sizeof(*site_bytes));
	if (!site_bytes)
		die("kmem_trace: calloc");
	on_fd = open(KMEM_TRACEFS "tracing_on", O_WRONLY);
	if (on_fd < 0 || pwrite(on_fd, "0", 1, 0) != 1)
		die(KMEM_TRACEFS "tracing_on");
}

void kmem_trace_start(void)
{
	kmem_raw_clear();
	if (pwrite(on_fd, "1", 1, 0) != 1)
		die(KMEM_TRACEFS "tracing_on");
}

static struct entry *lookup(uint64_t key, enum kind kind, int insert)
{
	uint64_t h = ((key + kind) * 0x9e3779b97f4a7c15ull) >> (64 - TABLE_BITS);
	struct entry *gone = NULL;
	unsigned int n;

	for (n = 0; n < TABLE_SIZE; n++, h = (h + 1) & (TABLE_SIZE - 1)) {
		struct entry *e = &table[h];

		if (e->kind == K_FREE)
			return insert ? (gone ? gone : e) : NULL;
		if (e->kind == K_GONE) {
			if (!gone)
				gone = e;
		} else if (e->key == key && e->kind == kind) {
			return e;
		}
	}
	if (insert && gone)
		return gone;
	if (!insert)
		return NULL;
	fprintf(stderr, "kmem_trace: more than %u keys\n", TABLE_SIZE);
	exit(1);
}

static void add(uint64_t key, enum kind kind, long long bytes, int site)
{
	struct entry *e = lookup(key, kind, 1);

	*e = (struct entry){ .key = key, .bytes = bytes, .site = site, .kind = kind };
}

static void drop(uint64_t key, enum kind kind)
{
	struct entry *e = lookup(key, kind, 0);

	if (e)
		e->kind = K_GONE;
}

/*
 * An object's page, marked as holding slab objects of the stretch (freed or not):
 * a page taken in the stretch that holds one is a slab, counted by its objects.
 */
static void mark_page(uint64_t ptr)
{
	uint64_t pfn;

	if (!direct_map)
		direct_map = ptr & ~(DIRECT_MAP_SPAN - 1);
	if ((ptr & ~(DIRECT_MAP_SPAN - 1)) != direct_map) {
		fprintf(stderr, "kmem_trace: objects at %llx and in the GiB at %llx: "
			"not one direct map of 1 GiB\n", (unsigned long long)ptr,
			(unsigned long long)direct_map);
		exit(1);
	}
	pfn = (ptr - direct_map) / page_size;
	add(pfn, K_OBJ_PAGE, 0, -1);
}

static void event(const struct kmem_raw_event *ev)
{
	switch (ev->what) {
	case KR_ALLOC:
		add(ev->ptr, K_OBJ, ev->bytes, kmem_raw_symbol(ev->call_site));
		mark_page(ev->ptr);
		break;
	case KR_FREE:
		drop(ev->ptr, K_OBJ);
		break;
	case KR_PERCPU_ALLOC:
		add(ev->ptr, K_PERCPU, ev->bytes, kmem_raw_symbol(ev->call_site));
		break;
	case KR_PERCPU_FREE:
		drop(ev->ptr, K_PERCPU);
		break;
	case KR_PAGE_ALLOC:
		add(ev->ptr, K_PAGE, ev->bytes, nsyms);
		break;
	case KR_PAGE_FREE:
		drop(ev->ptr, K_PAGE);
		break;
	}
}

static int slab_page(uint64_t pfn, unsigned int order)
{
	uint64_t i;

	for (i = 0; i < (1ull << order); i++)
		if (lookup(pfn + i, K_OBJ_PAGE, 0))
			return 1;
	return 0;
}

static const char *site_name(int i)
{
	return i == nsyms ? "(pages outside slabs)" : kmem_raw_symbol_name(i);
}

void kmem_trace_print_sites(long long per)
{
	int i;

	for (i = 0; i <= nsyms; i++)
		if (site_bytes[i] >= per)
			printf("    %-40s %10.0f\n", site_name(i), (double)site_bytes[i] / per);
}

void kmem_trace_top(char *buf, size_t len, long long per, int n)
{
	int i, k, best, taken[8];
	size_t at = 0;

	buf[0] = 0;
	for (k = 0; k < n && k < 8 && at < len; k++) {
		best = -1;
		for (i = 0; i <= nsyms; i++) {
			int j, dup = 0;

			for (j = 0; j < k; j++)
				dup |= taken[j] == i;
			if (!dup && site_bytes[i] >= per &&
			    (best < 0 || site_bytes[i] > site_bytes[best]))
				best = i;
		}
		if (best < 0)
			break;
		taken[k] = best;
		at += snprintf(buf + at, len - at, "%s%s %.0f", at ? ", " : "", site_name(best),
			       (double)site_bytes[best] / per);
	}
}

void kmem_trace_stop(long long *bytes)
{
	unsigned int i;

	if (pwrite(on_fd, "0", 1, 0) != 1)
		die(KMEM_TRACEFS "tracing_on");
	memset(table, 0, TABLE_SIZE * sizeof(*table));
	memset(site_bytes, 0, (nsyms + 1) * sizeof(*site_bytes));
	memset(bytes, 0, KT_N * sizeof(*bytes));
	direct_map = 0;
	kmem_raw_read(event);
	for (i = 0; i < TABLE_SIZE; i++) {
		struct entry *e = &table[i];

		if (e->kind == K_OBJ || e->kind == K_PERCPU) {
			bytes[e->kind == K_OBJ ? KT_OBJECTS : KT_PERCPU] += e->bytes;
			if (e->site >= 0)
				site_bytes[e->site] += e->bytes;
		} else if (e->kind == K_PAGE && !slab_page(e->key, e->bytes)) {
			bytes[KT_PAGES] += page_size << e->bytes;
			site_bytes[nsyms] += page_size << e->bytes;
		}
	}
}
