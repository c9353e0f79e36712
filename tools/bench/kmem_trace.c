// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel memory by the kmem and percpu tracepoints (kmem_trace.h).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "kmem_trace.h"

#define TRACEFS		"/sys/kernel/tracing/"
#define TABLE_BITS	20
#define TABLE_SIZE	(1u << TABLE_BITS)
#define MAX_SITES	1024
#define DIRECT_MAP_SPAN	(1ull << 30)

const char *const kmem_trace_name[KT_N] = { "objects", "pages", "percpu" };

static const char *const events[] = {
	"kmem/kmalloc", "kmem/kmem_cache_alloc", "kmem/kfree", "kmem/kmem_cache_free",
	"kmem/mm_page_alloc", "kmem/mm_page_free", "kmem/mm_page_free_batched",
	"percpu/percpu_alloc_percpu", "percpu/percpu_free_percpu",
};

/* What a key of the table is (an object's address, a page's frame number ...): an entry is a key and its kind */
enum kind { K_FREE, K_GONE, K_OBJ, K_PERCPU, K_PAGE, K_OBJ_PAGE };

struct entry {
	uint64_t key;
	long long bytes;
	short site;
	unsigned char kind;
};

static struct entry *table;
static char (*site_name)[64];
static long long site_bytes[MAX_SITES];
static int nsites;
static uint64_t direct_map;
static long page_size;
static int on_fd;		/* tracing_on, open throughout: no file taken in the stretch */

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(s, f) < 0 || fclose(f))
		die(path);
}

void kmem_trace_init(unsigned int buffer_kb)
{
	char path[256], kb[32];
	size_t i;

	page_size = sysconf(_SC_PAGESIZE);
	table = calloc(TABLE_SIZE, sizeof(*table));
	site_name = calloc(MAX_SITES, sizeof(*site_name));
	if (!table || !site_name)
		die("kmem_trace: calloc");
	/* its pages taken now, not while the next stretch is measured */
	memset(table, 0, TABLE_SIZE * sizeof(*table));
	on_fd = open(TRACEFS "tracing_on", O_WRONLY);
	if (on_fd < 0 || pwrite(on_fd, "0", 1, 0) != 1)
		die(TRACEFS "tracing_on");
	/* raw addresses: an object's page is found from its address */
	write_file(TRACEFS "options/hash-ptr", "0");
	snprintf(kb, sizeof(kb), "%u", buffer_kb);
	write_file(TRACEFS "buffer_size_kb", kb);
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		snprintf(path, sizeof(path), TRACEFS "events/%s/enable", events[i]);
		write_file(path, "1");
	}
}

void kmem_trace_start(void)
{
	write_file(TRACEFS "trace", "");
	if (pwrite(on_fd, "1", 1, 0) != 1)
		die(TRACEFS "tracing_on");
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
	fprintf(stderr, "kmem_trace: more than %u live keys\n", TABLE_SIZE);
	exit(1);
}

static int field(const char *line, const char *name, int base, unsigned long long *v)
{
	const char *p = strstr(line, name);

	if (!p)
		return 0;
	*v = strtoull(p + strlen(name), NULL, base);
	return 1;
}

/*
 * The function of "call_site=fn+0x1a/0x40 [mod]", or for a page (no call site)
 * its flags: "gfp_flags=GFP_KERNEL|__GFP_ZERO".
 */
static int site_of(const char *line, const char *key)
{
	const char *p = strstr(line, key);
	size_t n;
	int i;

	if (!p)
		return -1;
	p += key[0] == 'c' ? strlen(key) : 0;
	n = strcspn(p, "+ \n");
	if (n >= sizeof(site_name[0]))
		n = sizeof(site_name[0]) - 1;
	for (i = 0; i < nsites; i++)
		if (!strncmp(site_name[i], p, n) && !site_name[i][n])
			return i;
	if (nsites == MAX_SITES)
		return -1;
	memcpy(site_name[nsites], p, n);
	site_name[nsites][n] = 0;
	return nsites++;
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
	struct entry *e;

	if (!direct_map)
		direct_map = ptr & ~(DIRECT_MAP_SPAN - 1);
	if ((ptr & ~(DIRECT_MAP_SPAN - 1)) != direct_map) {
		fprintf(stderr, "kmem_trace: objects at %llx and in the GiB at %llx: "
			"not one direct map of 1 GiB\n", (unsigned long long)ptr,
			(unsigned long long)direct_map);
		exit(1);
	}
	pfn = (ptr - direct_map) / page_size;
	e = lookup(pfn, K_OBJ_PAGE, 1);
	*e = (struct entry){ .key = pfn, .kind = K_OBJ_PAGE };
}

static void parse(const char *l)
{
	unsigned long long ptr, bytes, pfn, order;

	if ((strstr(l, " kmalloc: ") || strstr(l, " kmem_cache_alloc: ")) &&
	    field(l, " ptr=", 16, &ptr) && field(l, " bytes_alloc=", 10, &bytes)) {
		add(ptr, K_OBJ, bytes, site_of(l, "call_site="));
		mark_page(ptr);
	} else if ((strstr(l, " kfree: ") || strstr(l, " kmem_cache_free: ")) &&
		   field(l, " ptr=", 16, &ptr)) {
		drop(ptr, K_OBJ);
	} else if (strstr(l, " percpu_alloc_percpu: ") && field(l, " ptr=", 16, &ptr) &&
		   field(l, " bytes_alloc=", 10, &bytes)) {
		add(ptr, K_PERCPU, bytes, site_of(l, "call_site="));
	} else if (strstr(l, " percpu_free_percpu: ") && field(l, " ptr=", 16, &ptr)) {
		drop(ptr, K_PERCPU);
	} else if (strstr(l, " mm_page_alloc: ") && field(l, " pfn=", 16, &pfn) &&
		   field(l, " order=", 10, &order)) {
		add(pfn, K_PAGE, order, site_of(l, "gfp_flags="));
	} else if ((strstr(l, " mm_page_free: ") || strstr(l, " mm_page_free_batched: ")) &&
		   field(l, " pfn=", 16, &pfn)) {
		drop(pfn, K_PAGE);
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

void kmem_trace_print_sites(long long per)
{
	int i;

	for (i = 0; i < nsites; i++)
		if (site_bytes[i] >= per)
			printf("    %-40s %10.0f\n", site_name[i], (double)site_bytes[i] / per);
}

void kmem_trace_top(char *buf, size_t len, long long per, int n)
{
	int i, best, done[MAX_SITES] = { 0 };
	size_t at = 0;

	buf[0] = 0;
	while (n-- > 0 && at < len) {
		best = -1;
		for (i = 0; i < nsites; i++)
			if (!done[i] && site_bytes[i] >= per &&
			    (best < 0 || site_bytes[i] > site_bytes[best]))
				best = i;
		if (best < 0)
			break;
		done[best] = 1;
		at += snprintf(buf + at, len - at, "%s%s %.0f", at ? ", " : "", site_name[best],
			       (double)site_bytes[best] / per);
	}
}

void kmem_trace_stop(long long *bytes)
{
	static char line[4096];
	unsigned long in_buf, written;
	int lost = -1;
	unsigned int i;
	FILE *f;

	if (pwrite(on_fd, "0", 1, 0) != 1)
		die(TRACEFS "tracing_on");
	memset(table, 0, TABLE_SIZE * sizeof(*table));
	memset(site_bytes, 0, sizeof(site_bytes));
	memset(bytes, 0, KT_N * sizeof(*bytes));
	f = fopen(TRACEFS "trace", "r");
	if (!f)
		die(TRACEFS "trace");
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			if (sscanf(line, "# entries-in-buffer/entries-written: %lu/%lu",
				   &in_buf, &written) == 2)
				lost = written != in_buf;
			continue;
		}
		parse(line);
	}
	fclose(f);
	if (lost) {
		fprintf(stderr, "kmem_trace: the ring buffer lost events (%s)\n",
			lost < 0 ? "no header" : "raise its size");
		exit(1);
	}
	for (i = 0; i < TABLE_SIZE; i++) {
		struct entry *e = &table[i];

		if (e->kind == K_OBJ || e->kind == K_PERCPU) {
			bytes[e->kind == K_OBJ ? KT_OBJECTS : KT_PERCPU] += e->bytes;
			if (e->site >= 0)
				site_bytes[e->site] += e->bytes;
		} else if (e->kind == K_PAGE && !slab_page(e->key, e->bytes)) {
			bytes[KT_PAGES] += page_size << e->bytes;
			if (e->site >= 0)
				site_bytes[e->site] += page_size << e->bytes;
		}
	}
}
