// SPDX-License-Identifier: GPL-2.0
/*
 * Shim samplers: each thread opens a page-fault event on itself through
 * pfm_perf_event_open() with a small period, into a ring of one or two data
 * pages, and touches fresh pages in windows (exactly one fault each).  One
 * consumer thread reads every ring, slower than they fill: every overflow must be
 * a PERF_RECORD_SAMPLE in the ring or counted in a PERF_RECORD_LOST, so at the end
 * samples + lost == count / period, and count is the pages touched, exactly.  A
 * LOST record is written before the next record once there is room again: the
 * last window (one period, after the consumer caught up) brings the last LOST out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "load.h"

#define SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR)
#define SAMPLE_SIZE	(8 + 3 * 8)
#define LOST_SIZE	(8 + 2 * 8)
#define DRAIN_MS	20000

struct sring {
	struct perf_event_mmap_page *pg;
	char *data;
	uint64_t size;
	size_t map_len;
	pid_t pid, tid;
	int slot;
	uint64_t pos;			/* the consumer's: what it has read */
	uint64_t samples, lost;		/* the consumer's tallies */
};

static struct sring *rings[LOAD_SMPL_SLOTS];
static pthread_mutex_t rings_lock = PTHREAD_MUTEX_INITIALIZER;

static void copy_out(const struct sring *r, uint64_t pos, void *dst, size_t len)
{
	size_t off = pos % r->size, first = len < r->size - off ? len : r->size - off;

	memcpy(dst, r->data + off, first);
	memcpy((char *)dst + first, r->data, len - first);
}

/* Every record up to the head, then the tail moves there. */
static void consume(struct sring *r)
{
	uint64_t hd = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	struct {
		struct perf_event_header h;
		uint64_t w[3];
	} rec;

	while (r->pos < hd) {
		copy_out(r, r->pos, &rec.h, sizeof(rec.h));
		if (rec.h.size < sizeof(rec.h) || r->pos + rec.h.size > hd ||
		    rec.h.size > sizeof(rec)) {
			load_fail("ring %d: record of %u bytes at %llu, head %llu", r->slot,
				  rec.h.size, (unsigned long long)r->pos,
				  (unsigned long long)hd);
			r->pos = hd;
			break;
		}
		copy_out(r, r->pos, &rec, rec.h.size);
		if (rec.h.type == PERF_RECORD_SAMPLE && rec.h.size == SAMPLE_SIZE) {
			/* IP, then pid and tid, then ADDR: a page the thread touched */
			if ((uint32_t)rec.w[1] != (uint32_t)r->pid ||
			    (uint32_t)(rec.w[1] >> 32) != (uint32_t)r->tid ||
			    rec.w[2] % load_page_size())
				load_fail("ring %d: sample pid %u tid %u addr %#llx, of %d/%d",
					  r->slot, (uint32_t)rec.w[1],
					  (uint32_t)(rec.w[1] >> 32),
					  (unsigned long long)rec.w[2], r->pid, r->tid);
			r->samples++;
		} else if (rec.h.type == PERF_RECORD_LOST && rec.h.size == LOST_SIZE) {
			r->lost += rec.w[1];
		} else if (rec.h.type == PERF_RECORD_THROTTLE ||
			   rec.h.type == PERF_RECORD_UNTHROTTLE) {
			load_fail("ring %d: throttled (record %u): overflows neither sampled nor lost",
				  r->slot, rec.h.type);
		} else {
			load_fail("ring %d: record type %u of %u bytes", r->slot, rec.h.type,
				  rec.h.size);
		}
		r->pos += rec.h.size;
	}
	__atomic_store_n(&r->pg->data_tail, r->pos, __ATOMIC_RELEASE);
}

static void consumer_pass(void)
{
	int i;

	pthread_mutex_lock(&rings_lock);
	for (i = 0; i < LOAD_SMPL_SLOTS; i++)
		if (rings[i])
			consume(rings[i]);
	pthread_mutex_unlock(&rings_lock);
}

/* slower than the samplers: the rings fill and lose records */
struct poller consumer = { .pass = consumer_pass, .pause_us = 1000 };

/* Waits until the consumer has read everything in the ring: 0, or -1 after DRAIN_MS. */
static int drained(struct sring *r)
{
	int i;

	for (i = 0; i < DRAIN_MS; i++) {
		pthread_mutex_lock(&rings_lock);
		if (r->pos == __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE)) {
			pthread_mutex_unlock(&rings_lock);
			return 0;
		}
		pthread_mutex_unlock(&rings_lock);
		load_msleep(1);
	}
	load_fail("ring %d: the consumer did not catch up in %d ms", r->slot, DRAIN_MS);
	return -1;
}

/* n fresh pages touched with the event enabled: n faults, or -1 */
static int window(int fd, long n)
{
	char *p = load_fresh_pages(n);
	long psz = load_page_size();
	int e, d;

	if (!p) {
		load_fail("sampler: fresh pages: %s", strerror(errno));
		return -1;
	}
	e = ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	load_touch(p, n, psz);
	d = ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	munmap(p, n * psz);
	if (e || d) {
		load_fail("sampler: enable %d, disable %d: %s", e, d, strerror(errno));
		return -1;
	}
	return 0;
}

static int open_ring(struct sring *r, int fd, int data_pages)
{
	r->map_len = (1 + data_pages) * load_page_size();
	r->pg = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->pg == MAP_FAILED)
		return -1;
	r->data = (char *)r->pg + load_page_size();
	r->size = (uint64_t)data_pages * load_page_size();
	return 0;
}

static void check_totals(struct sring *r, int fd, uint64_t faults, uint64_t period)
{
	uint64_t count = ~0ULL;

	if (read(fd, &count, sizeof(count)) != sizeof(count)) {
		load_fail("sampler %d: read: %s", r->slot, strerror(errno));
		return;
	}
	if (count != faults)
		load_fail("sampler %d: %llu faults counted, %llu pages touched", r->slot,
			  (unsigned long long)count, (unsigned long long)faults);
	if (r->samples + r->lost != count / period)
		load_fail("sampler %d: %llu samples + %llu lost, %llu overflows (%llu / %llu)",
			  r->slot, (unsigned long long)r->samples,
			  (unsigned long long)r->lost, (unsigned long long)(count / period),
			  (unsigned long long)count, (unsigned long long)period);
	STAT_ADD(samples, r->samples);
	STAT_ADD(lost, r->lost);
	STAT_ADD(smpl_faults, count);
}

void *smpl_worker(void *arg)
{
	static const uint64_t periods[] = { 1, 2, 3, 5, 8 };
	struct slot *s = arg;
	struct sring ring = { .slot = s->index, .pid = getpid(), .tid = load_tid() };
	uint64_t period = periods[load_rand(&s->seed, 0, 4)], faults = 0, m;
	int rounds = load_rand(&s->seed, 3, 20), r, fd;
	struct perf_event_attr a;

	if (s->cpu >= 0)
		load_pin(s->cpu);
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.sample_period = period;
	a.sample_type = SAMPLE_TYPE;
	fd = getenv("PFM_LOAD_NATIVE") ? syscall(SYS_perf_event_open, &a, 0, -1, -1, 0) :
		pfm_perf_event_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		load_fail("sampler %d: pfm_perf_event_open: %s", s->index, strerror(errno));
		goto out;
	}
	if (open_ring(&ring, fd, load_rand(&s->seed, 1, 2))) {
		load_fail("sampler %d: mmap: %s", s->index, strerror(errno));
		goto out_close;
	}
	pthread_mutex_lock(&rings_lock);
	rings[s->index] = &ring;
	pthread_mutex_unlock(&rings_lock);
	for (r = 0; r < rounds && !load.stop; r++) {
		m = load_size(&s->seed, 32, 256, 8);
		if (window(fd, m))
			break;
		faults += m;
		STAT_ADD(rounds, 1);
		if (s->cpu == 1)
			STAT_ADD(cpu1_faults_min, m);
	}
	/* the last LOST comes out before the last window's sample */
	if (r == rounds || load.stop) {
		if (!drained(&ring) && !window(fd, period) && !drained(&ring)) {
			faults += period;
			if (s->cpu == 1)
				STAT_ADD(cpu1_faults_min, period);
			check_totals(&ring, fd, faults, period);
		}
	}
	pthread_mutex_lock(&rings_lock);
	rings[s->index] = NULL;
	pthread_mutex_unlock(&rings_lock);
	munmap(ring.pg, ring.map_len);
out_close:
	close(fd);
out:
	s->done = 1;
	return NULL;
}
