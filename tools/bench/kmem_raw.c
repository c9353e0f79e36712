// SPDX-License-Identifier: GPL-2.0
/*
 * The kmem and percpu tracepoints' binary events (kmem_raw.h).
 *
 * A page of trace_pipe_raw is the ring buffer's data page: a 64-bit time stamp,
 * a 64-bit commit (the bytes of events, and in bits 31 and 30 the flags that
 * events were lost), then the events, each a 32-bit header (type_len: 5 bits,
 * time_delta: 27) and its data: type_len 1..28 words of data; 0, a word that
 * holds the length and then the data; 29 padding (a delta of 0: the end of the
 * page); 30 a time extension and 31 an absolute time stamp, both one word more
 * (kernel/trace/ring_buffer.c).  An event's data starts with the common fields,
 * its type (the event's ID) first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "kmem_raw.h"

#define RB_MISSED	(3ull << 30)
#define TS_SHIFT	27

/* The fields read of each event: offset and size, from its format file. */
struct field {
	int off, size;
};

static struct kr_event {
	const char *name;
	enum kr_what what;
	const char *ptr, *bytes, *site;
	int id;
	struct field f_ptr, f_bytes, f_site;
} events[] = {
	{ .name = "kmem/kmalloc", .what = KR_ALLOC, .ptr = "ptr", .bytes = "bytes_alloc",
	  .site = "call_site" },
	{ .name = "kmem/kmem_cache_alloc", .what = KR_ALLOC, .ptr = "ptr",
	  .bytes = "bytes_alloc", .site = "call_site" },
	{ .name = "kmem/kfree", .what = KR_FREE, .ptr = "ptr" },
	{ .name = "kmem/kmem_cache_free", .what = KR_FREE, .ptr = "ptr" },
	{ .name = "kmem/mm_page_alloc", .what = KR_PAGE_ALLOC, .ptr = "pfn", .bytes = "order" },
	{ .name = "kmem/mm_page_free", .what = KR_PAGE_FREE, .ptr = "pfn" },
	{ .name = "kmem/mm_page_free_batched", .what = KR_PAGE_FREE, .ptr = "pfn" },
	{ .name = "percpu/percpu_alloc_percpu", .what = KR_PERCPU_ALLOC, .ptr = "ptr",
	  .bytes = "bytes_alloc", .site = "call_site" },
	{ .name = "percpu/percpu_free_percpu", .what = KR_PERCPU_FREE, .ptr = "ptr" },
};
#define NEVENTS	(int)(sizeof(events) / sizeof(events[0]))

struct sym {
	uint64_t addr;
	unsigned int name;		/* offset in names */
};

static struct sym *syms;
static char *names;
static int nsyms, ncpus;
static long page_size;
static struct kmem_raw_event *evs;
static size_t nevs, cap;

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(s, f) < 0 || fclose(f))
		die(path);
}

/* "\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;" */
static void read_format(struct kr_event *e)
{
	char path[256], line[512], name[128];
	struct field *f;
	const char *p;
	FILE *file;
	int off, size;
	size_t n;

	snprintf(path, sizeof(path), KMEM_TRACEFS "events/%s/format", e->name);
	file = fopen(path, "r");
	if (!file)
		die(path);
	e->id = -1;
	while (fgets(line, sizeof(line), file)) {
		if (sscanf(line, "ID: %d", &e->id) == 1)
			continue;
		p = strstr(line, "field:");
		if (!p || !strstr(line, "offset:") ||
		    sscanf(strstr(line, "offset:"), "offset:%d;\tsize:%d;", &off, &size) != 2)
			continue;
		n = strcspn(p, ";");
		while (n && p[n - 1] != ' ' && p[n - 1] != '*')
			n--;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(p + n, ";["), p + n);
		f = e->ptr && !strcmp(name, e->ptr) ? &e->f_ptr :
		    e->bytes && !strcmp(name, e->bytes) ? &e->f_bytes :
		    e->site && !strcmp(name, e->site) ? &e->f_site : NULL;
		if (f)
			*f = (struct field){ off, size };
	}
	fclose(file);
	if (e->id < 0 || !e->f_ptr.size || (e->bytes && !e->f_bytes.size) ||
	    (e->site && !e->f_site.size)) {
		fprintf(stderr, "kmem_raw: %s: not the fields looked for\n", path);
		exit(1);
	}
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void read_symbols(void)
{
	size_t nnames = 0, capn = 1 << 22, caps = 1 << 16, len;
	unsigned long long addr;
	char line[512], type, name[256];
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		die("/proc/kallsyms");
	syms = malloc(caps * sizeof(*syms));
	names = malloc(capn);
	while (syms && names && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    (type != 't' && type != 'T' && type != 'w' && type != 'W'))
			continue;
		len = strlen(name) + 1;
		if (nsyms == (int)caps)
			syms = realloc(syms, (caps *= 2) * sizeof(*syms));
		if (nnames + len > capn)
			names = realloc(names, capn *= 2);
		if (!syms || !names)
			break;
		memcpy(names + nnames, name, len);
		syms[nsyms++] = (struct sym){ addr, nnames };
		nnames += len;
	}
	fclose(f);
	if (!syms || !names)
		die("kmem_raw: the symbols");
	qsort(syms, nsyms, sizeof(*syms), cmp_sym);
}

int kmem_raw_init(unsigned int buffer_kb)
{
	char path[256], kb[32];
	int i;

	page_size = sysconf(_SC_PAGESIZE);
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	write_file(KMEM_TRACEFS "tracing_on", "0");
	/* raw addresses: an object's page is found from its address */
	write_file(KMEM_TRACEFS "options/hash-ptr", "0");
	snprintf(kb, sizeof(kb), "%u", buffer_kb);
	write_file(KMEM_TRACEFS "buffer_size_kb", kb);
	for (i = 0; i < NEVENTS; i++) {
		read_format(&events[i]);
		snprintf(path, sizeof(path), KMEM_TRACEFS "events/%s/enable", events[i].name);
		write_file(path, "1");
	}
	read_symbols();
	return nsyms;
}

void kmem_raw_clear(void)
{
	write_file(KMEM_TRACEFS "trace", "");
}

static uint64_t get(const unsigned char *data, struct field f)
{
	uint64_t v = 0;
	uint32_t v32;

	if (f.size == 8) {
		memcpy(&v, data + f.off, 8);
	} else if (f.size == 4) {
		memcpy(&v32, data + f.off, 4);
		v = v32;
	}
	return v;
}

static void record(const unsigned char *data, uint64_t ts)
{
	struct kr_event *e;
	uint16_t id;
	int i;

	memcpy(&id, data, sizeof(id));
	for (i = 0; i < NEVENTS && events[i].id != id; i++)
		;
	if (i == NEVENTS)
		return;
	e = &events[i];
	if (nevs == cap) {
		cap = cap ? 2 * cap : 1 << 16;
		evs = realloc(evs, cap * sizeof(*evs));
		if (!evs)
			die("kmem_raw: realloc");
	}
	evs[nevs] = (struct kmem_raw_event){
		.ts = ts, .seq = nevs, .what = e->what, .ptr = get(data, e->f_ptr),
		.bytes = e->bytes ? (long long)get(data, e->f_bytes) : 0,
		.call_site = e->site ? get(data, e->f_site) : 0,
	};
	/* a page allocation that failed */
	if (e->what == KR_PAGE_ALLOC && evs[nevs].ptr == ~0ull)
		return;
	nevs++;
}

/* One page's events; its last time stamp, never going back. */
static uint64_t read_page(const unsigned char *page, uint64_t last)
{
	uint64_t ts, commit, len, off = 0;
	uint32_t hdr, word, type, delta;

	memcpy(&ts, page, 8);
	memcpy(&commit, page + 8, 8);
	if (commit & RB_MISSED) {
		fprintf(stderr, "kmem_raw: the ring buffer lost events: raise its size\n");
		exit(1);
	}
	len = commit & ((1ull << 30) - 1);
	page += 16;
	while (off + 4 <= len) {
		memcpy(&hdr, page + off, 4);
		memcpy(&word, page + off + 4, 4);
		type = hdr & 31;
		delta = hdr >> 5;
		if (type == 29) {
			if (!delta)
				break;
			off += 4 + word;
		} else if (type == 30) {
			ts += ((uint64_t)word << TS_SHIFT) | delta;
			off += 8;
		} else if (type == 31) {
			ts = ((uint64_t)word << TS_SHIFT) | delta;
			off += 8;
		} else {
			ts += delta;
			record(page + off + (type ? 4 : 8), ts > last ? ts : last);
			off += 4 + (type ? type * 4 : word);
		}
		if (ts > last)
			last = ts;
	}
	return last;
}

static int cmp_ev(const void *a, const void *b)
{
	const struct kmem_raw_event *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void kmem_raw_read(void (*fn)(const struct kmem_raw_event *ev))
{
	unsigned char *page = malloc(page_size);
	char path[256];
	uint64_t last;
	size_t i;
	ssize_t n;
	int cpu, fd;

	if (!page)
		die("kmem_raw: malloc");
	nevs = 0;
	for (cpu = 0; cpu < ncpus; cpu++) {
		snprintf(path, sizeof(path), KMEM_TRACEFS "per_cpu/cpu%d/trace_pipe_raw", cpu);
		fd = open(path, O_RDONLY | O_NONBLOCK);
		if (fd < 0 && errno == ENOENT)
			continue;
		if (fd < 0)
			die(path);
		last = 0;
		while ((n = read(fd, page, page_size)) > 0)
			last = read_page(page, last);
		if (n < 0 && errno != EAGAIN)
			die(path);
		close(fd);
	}
	free(page);
	qsort(evs, nevs, sizeof(*evs), cmp_ev);
	for (i = 0; i < nevs; i++)
		fn(&evs[i]);
}

int kmem_raw_symbol(uint64_t addr)
{
	int lo = 0, hi = nsyms - 1, mid;

	if (!nsyms || addr < syms[0].addr)
		return -1;
	while (lo < hi) {
		mid = (lo + hi + 1) / 2;
		if (syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

const char *kmem_raw_symbol_name(int i)
{
	return i >= 0 && i < nsyms ? names + syms[i].name : "?";
}
