// SPDX-License-Identifier: GPL-2.0
/*
 * The guest tests' reader of perf's ring: see perf_ring_util.h.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"
#include "perf_ring_util.h"

void attr_sw(struct perf_event_attr *a, unsigned long long config)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = config;
	a->disabled = 1;
	a->exclude_kernel = 1;
}

void attr_smpl(struct perf_event_attr *a, unsigned long long config,
	       uint64_t period, uint64_t sample_type)
{
	attr_sw(a, config);
	a->sample_period = period;
	a->sample_type = sample_type;
}

uint64_t ck_read1(int fd)
{
	uint64_t v = ~0ULL;

	ck_assert_int_eq(read(fd, &v, sizeof(v)), sizeof(v));
	return v;
}

int ck_open(struct perf_event_attr *a, pid_t pid)
{
	int fd = pfm_perf_event_open(a, pid, -1, -1, 0);

	ck_assert_msg(fd >= 0, "open: %s", strerror(errno));
	return fd;
}

void ck_map(struct ring *r, int fd, int data_pages, int prot)
{
	long psz = page_size();

	r->fd = fd;
	r->map_len = (1 + data_pages) * psz;
	r->pg = mmap(NULL, r->map_len, prot, MAP_SHARED, fd, 0);
	ck_assert_msg(r->pg != MAP_FAILED, "mmap: %s", strerror(errno));
	r->data = (char *)r->pg + psz;
	r->size = (uint64_t)data_pages * psz;
	ck_assert_uint_eq(r->pg->data_offset, psz);
	ck_assert_uint_eq(r->pg->data_size, r->size);
	ck_assert_uint_eq(r->pg->aux_size, 0);
	ck_assert_uint_eq(r->pg->lock % 2, 0);
}

void unmap(struct ring *r)
{
	munmap(r->pg, r->map_len);
}

uint64_t head(const struct ring *r)
{
	return __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
}

static void copy_out(const struct ring *r, uint64_t pos, void *dst, size_t len)
{
	size_t off = pos % r->size, first = len < r->size - off ? len : r->size - off;

	memcpy(dst, r->data + off, first);
	memcpy((char *)dst + first, r->data, len - first);
}

/*
 * The next record at *pos (< head), into *out; false at the head.  Records are
 * whole: a header size that runs past the head is a torn record.
 */
bool next_rec(const struct ring *r, uint64_t *pos, uint64_t hd, struct rec *out)
{
	if (*pos == hd)
		return false;
	copy_out(r, *pos, &out->h, sizeof(out->h));
	ck_assert_uint_ge(out->h.size, sizeof(out->h));
	ck_assert_uint_le(out->h.size, sizeof(*out));
	ck_assert_uint_eq(out->h.size % 8, 0);
	ck_assert_uint_le(*pos + out->h.size, hd);
	copy_out(r, *pos, out, out->h.size);
	*pos += out->h.size;
	return true;
}

/* Everything up to the head is taken: data_tail moves there. */
void consume(struct ring *r)
{
	__atomic_store_n(&r->pg->data_tail, head(r), __ATOMIC_RELEASE);
}

uint64_t ck_id(int fd)
{
	uint64_t id = 0;

	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	return id;
}

/* n pages touched with fd enabled: n faults. */
void fault_all(const int *fds, int nr, char *p, long n)
{
	int ret = 0, i;

	/*
	 * No check between the ioctls: a passing ck_assert() records its place
	 * (the check library's stdio), which may fault on a page of its own.
	 */
	for (i = 0; i < nr; i++)
		ret |= ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0);
	touch_pages(p, n);
	for (i = 0; i < nr; i++)
		ret |= ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0);
	ck_assert_msg(!ret, "enable or disable: %s", strerror(errno));
}

void fault_on(int fd, char *p, long n)
{
	fault_all(&fd, 1, p, n);
}

long samples_of(const struct ring *r, uint64_t id, const char *p, long n)
{
	uint64_t pos = 0, hd = head(r);
	struct rec rec;
	long i = 0;

	while (next_rec(r, &pos, hd, &rec)) {
		if (rec.h.type != PERF_RECORD_SAMPLE || (id != ANY_ID && rec.w[1] != id))
			continue;
		if (rec.w[0] < (uintptr_t)p || rec.w[0] >= (uintptr_t)(p + n * page_size()))
			continue;
		ck_assert_uint_eq(rec.w[0], (uintptr_t)(p + i * page_size()));
		i++;
	}
	return i;
}

long samples_from(const struct ring *r, uint64_t pos)
{
	uint64_t hd = head(r);
	struct rec rec;
	long k = 0;

	while (next_rec(r, &pos, hd, &rec))
		k += rec.h.type == PERF_RECORD_SAMPLE;
	return k;
}

short poll_now(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	ck_assert_int_ge(poll(&pfd, 1, 0), 0);
	return pfd.revents;
}
