// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff: a backward ring (attr.write_backward), as perf record --overwrite
 * maps it: read-only, records written from data_head downwards (data_head goes
 * down from 0), read from data_head up, newest first.  The test thread samples
 * its own faults on fresh pages, one per sample, so every record is fixed:
 * each one's type, misc, size and fault page, in ring order, and data_head
 * itself are compared exactly.
 *
 * backward-ring: 16 samples; PAUSE_OUTPUT with 8 faults (lost, data_head
 * still); resumed, 4 more, the first after a PERF_RECORD_LOST of 8; SET_OUTPUT
 * of another backward event into the ring, and of a forward one (EINVAL).
 * backward-wrap: 150 samples of 40 bytes in one data page: the ring overwrites its oldest
 * records, and what a reader finds from data_head up to a ring's size (perf's
 * overwrite_rb_find_range()) is compared.
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diff.h"

struct bring {
	struct perf_event_mmap_page *pg;
	size_t len;
	unsigned long long base;	/* the fresh pages' address */
	long psz;
};

static int bring_map(struct trace *t, struct bring *r, int fd, int data_pages)
{
	r->psz = sysconf(_SC_PAGESIZE);
	r->len = (1 + data_pages) * r->psz;
	r->pg = mmap(NULL, r->len, PROT_READ, MAP_SHARED, fd, 0);
	obs_call(t, r->pg == MAP_FAILED ? -1 : 0, 1, "mmap 1+%d pages read-only", data_pages);
	return r->pg == MAP_FAILED ? -1 : 0;
}

static unsigned long long head_of(const struct bring *r)
{
	return __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
}

/* len bytes at ring position pos, across the end if need be */
static void bring_copy(const struct bring *r, unsigned long long pos, void *dst, size_t len)
{
	const char *data = (const char *)r->pg + r->pg->data_offset;
	unsigned long long size = r->pg->data_size;
	size_t off = pos & (size - 1), first = len < size - off ? len : size - off;

	memcpy(dst, data + off, first);
	memcpy((char *)dst + first, data, len - first);
}

/*
 * Each whole record from data_head up to where writing began (a header of
 * size 0 there) or to a ring's size above data_head, newest first: its type,
 * misc, size, and for a sample its fault's page, for a LOST its count.
 */
static void bring_walk(struct trace *t, const struct bring *r)
{
	unsigned long long size = r->pg->data_size, head = head_of(r), pos, w[4];
	struct perf_event_header h;
	unsigned long long n = 0;

	for (pos = head; pos - head + sizeof(h) <= size; pos += h.size) {
		bring_copy(r, pos, &h, sizeof(h));
		if (!h.size || pos - head + h.size > size)
			break;
		bring_copy(r, pos + sizeof(h), w, sizeof(w));
		obs_call(t, 0, 1, "record %llu", n++);
		obs_vals(t, (unsigned long long[]){ h.type, h.misc, h.size }, 3, "eee");
		/* IP, TID, ADDR, PERIOD; LOST: id, lost */
		if (h.type == PERF_RECORD_SAMPLE)
			obs_val(t, w[2] >= r->base ? (w[2] - r->base) / r->psz : ~0ULL, 'e');
		else if (h.type == PERF_RECORD_LOST)
			obs_val(t, w[1], 'e');
	}
	obs_call(t, 0, 1, "records from data_head");
	obs_val(t, n, 'e');
}

/* the test thread's user page faults, every one sampled, disabled */
static int open_backward(const struct backend *be, struct trace *t, int backward,
			 const char *what)
{
	struct perf_event_attr a;
	int fd;

	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_PERIOD;
	a.sample_id_all = 1;
	a.write_backward = backward;
	fd = be->open(&a, 0, -1, -1, 0);
	obs_call(t, fd, 0, "open %s", what);
	return fd;
}

static void read_count(struct trace *t, int fd)
{
	unsigned long long v = 0;

	obs_call(t, read(fd, &v, sizeof(v)), 1, "read");
	obs_val(t, v, 'e');
}

void case_backward_ring(const struct backend *be, struct trace *t)
{
	int fd, other = -1, fwd = -1;
	volatile char *p = fresh(28);
	struct bring r = { 0 };
	unsigned long long head;

	if (!p)
		return;
	r.base = (unsigned long)p;
	fd = open_backward(be, t, 1, "page-faults, period 1, write_backward");
	if (fd < 0 || bring_map(t, &r, fd, 8))
		goto out;
	obs_val(t, head_of(&r), 'e');
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 1, "ENABLE");
	touch(p, 0, 16);
	obs_val(t, -head_of(&r), 'e');
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), 1, "PAUSE_OUTPUT 1");
	head = head_of(&r);
	touch(p, 16, 8);
	obs_val(t, head_of(&r) == head, 'e');
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0), 1, "PAUSE_OUTPUT 0");
	touch(p, 24, 4);
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE");
	obs_val(t, -head_of(&r), 'e');
	read_count(t, fd);
	bring_walk(t, &r);

	/* one direction per ring */
	other = open_backward(be, t, 1, "another write_backward");
	fwd = open_backward(be, t, 0, "a forward one");
	if (other >= 0)
		obs_call(t, ioctl(other, PERF_EVENT_IOC_SET_OUTPUT, fd), 1,
			 "SET_OUTPUT backward into backward");
	if (fwd >= 0)
		obs_call(t, ioctl(fwd, PERF_EVENT_IOC_SET_OUTPUT, fd), 1,
			 "SET_OUTPUT forward into backward");
	munmap(r.pg, r.len);
out:
	if (fwd >= 0)
		close(fwd);
	if (other >= 0)
		close(other);
	if (fd >= 0)
		close(fd);
	munmap((void *)p, 28 * sysconf(_SC_PAGESIZE));
}

#define WRAP_FAULTS	150

void case_backward_wrap(const struct backend *be, struct trace *t)
{
	volatile char *p = fresh(WRAP_FAULTS);
	struct bring r = { 0 };
	int fd;

	if (!p)
		return;
	r.base = (unsigned long)p;
	fd = open_backward(be, t, 1, "page-faults, period 1, write_backward");
	if (fd < 0 || bring_map(t, &r, fd, 1))
		goto out;
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 1, "ENABLE");
	touch(p, 0, WRAP_FAULTS);
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE");
	obs_val(t, -head_of(&r), 'e');
	read_count(t, fd);
	bring_walk(t, &r);
	munmap(r.pg, r.len);
out:
	if (fd >= 0)
		close(fd);
	munmap((void *)p, WRAP_FAULTS * sysconf(_SC_PAGESIZE));
}
