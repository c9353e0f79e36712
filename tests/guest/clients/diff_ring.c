// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff's rings (diff.h): perf's ring of an event, mapped and walked record
 * by record as a program following perf_event_open(2) reads it, and the fresh
 * pages whose faults the sampling cases count.
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diff.h"

int dring_map(struct trace *t, struct dring *r, int fd, int pages)
{
	r->len = (1 + pages) * sysconf(_SC_PAGESIZE);
	r->pg = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	obs_call(t, r->pg == MAP_FAILED ? -1 : 0, 1, "mmap 1+%d pages", pages);
	return r->pg == MAP_FAILED ? -1 : 0;
}

/*
 * The cases write far less than the ring holds: a walk from 0 to data_head
 * sees every record once.
 */
void dring_walk(const struct dring *r,
		void (*fn)(const struct perf_event_header *h,
			   const unsigned long long *w, void *arg), void *arg)
{
	unsigned long long head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	const char *data = (const char *)r->pg + r->pg->data_offset;
	unsigned long long pos, w[REC_WORDS];
	struct perf_event_header h;
	size_t n;

	for (pos = 0; pos + sizeof(h) <= head && pos < r->pg->data_size; pos += h.size) {
		memcpy(&h, data + pos, sizeof(h));
		if (!h.size)
			break;
		n = h.size - sizeof(h) < sizeof(w) ? h.size - sizeof(h) : sizeof(w);
		memcpy(w, data + pos + sizeof(h), n);
		fn(&h, w, arg);
	}
}

volatile char *fresh(long n)
{
	long psz = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, n * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, n * psz, MADV_NOHUGEPAGE);
	return p;
}

void touch(volatile char *p, long from, long n)
{
	long psz = sysconf(_SC_PAGESIZE), i;

	for (i = from; i < from + n; i++)
		p[i * psz] = 1;
}
