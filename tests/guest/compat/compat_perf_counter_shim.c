// SPDX-License-Identifier: GPL-2.0
/*
 * compat_perf_counter_shim: the 2008 proposal's sampling counters, records,
 * ring buffer and inherit, as its text describes them (perf_counter.h), on
 * perfmon's perf_event layer, with exact page-fault counts: each first write to a
 * fresh private page is one fault, and the window around it faults nothing else.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf_counter.h"
#include "util.h"
#include "suites.h"

#define SW(id)		PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, id)
#define FAULTS		SW(PERF_COUNT_PAGE_FAULTS)
#define NPAGES		256
#define ALL_RECORDS	(PERF_RECORD_IP | PERF_RECORD_TID | PERF_RECORD_TIME | PERF_RECORD_ADDR)

/* A mapped ring of the proposal: meta page, then data of size bytes. */
struct ring08 {
	struct perf_counter_mmap_page *pg;
	char *data;
	uint32_t size;
	size_t len;
	uint32_t tail;			/* the reader's own */
};

struct rec08 {
	struct perf_event_header h;
	uint64_t w[512];
};

static int sampler(uint64_t period, uint32_t record_type, int mmap_bit, uint32_t wakeup)
{
	struct perf_counter_hw_event hw = {
		.config = FAULTS, .disabled = 1, .irq_period = period,
		.record_type = record_type, .mmap = mmap_bit, .wakeup_events = wakeup,
	};
	int fd = perf_counter_open(&hw, 0, -1, -1, 0);

	ck_assert_msg(fd >= 0, "perf_counter_open(sampling): %s", strerror(errno));
	return fd;
}

static void ck_map08(struct ring08 *r, int fd, int data_pages)
{
	r->len = (1 + data_pages) * page_size();
	r->pg = perf_counter_mmap(NULL, r->len, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_msg(r->pg != MAP_FAILED, "perf_counter_mmap: %s", strerror(errno));
	r->data = (char *)r->pg + page_size();
	r->size = data_pages * page_size();
	r->tail = 0;
	ck_assert_uint_eq(r->pg->version, 1);
	ck_assert_uint_eq(r->pg->index, 0);
}

static uint32_t head08(const struct ring08 *r)
{
	return __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
}

static void out08(const struct ring08 *r, uint32_t pos, void *dst, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		((char *)dst)[i] = r->data[(pos + i) % r->size];
}

/* The record at the reader's tail, if a whole one is before the head. */
static int next08(struct ring08 *r, struct rec08 *out)
{
	uint32_t hd = head08(r);

	if (hd - r->tail < sizeof(out->h))
		return 0;
	out08(r, r->tail, &out->h, sizeof(out->h));
	ck_assert_msg(out->h.size >= sizeof(out->h) && out->h.size <= sizeof(*out) &&
		      out->h.size <= hd - r->tail, "record size %u at %u, head %u",
		      out->h.size, r->tail, hd);
	out08(r, r->tail, out, out->h.size);
	r->tail += out->h.size;
	return 1;
}

static uint64_t value(int fd)
{
	uint64_t v = ~0ULL;

	ck_assert_int_eq(perf_counter_read(fd, &v, sizeof(v)), sizeof(v));
	return v;
}

/* ENABLE, the first write to n fresh pages, DISABLE: n page faults */
static void fault_window(int fd, char *p, long n)
{
	int re, rd;

	re = perf_counter_ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0);
	touch_pages(p, n);
	rd = perf_counter_ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0);
	ck_assert_msg(re == 0 && rd == 0, "enable %d, disable %d: %s", re, rd, strerror(errno));
}

/* what the window runs besides the pages, faulted in beforehand */
static void warm(int fd)
{
	fault_window(fd, ck_fresh_pages(1), 1);
}

static int shim_here(void)
{
	return pfm_perf_event_open(NULL, 0, -1, -1, 0) == -1 && errno == EFAULT;
}

START_TEST(test_sampling_errors)
{
	struct perf_counter_hw_event hw;
	const uint32_t bad_records[] = { 1U << 6, PERF_RECORD_CALLCHAIN | 1U << 6,
					 PERF_RECORD_IP | PERF_RECORD_GROUP | 1U << 31 };
	size_t psz = page_size();
	const size_t bad_len[] = { 0, psz, 4 * psz, 6 * psz, 2 * psz + 1 };
	unsigned int i;
	void *m;
	int fd, native;

	/* every kernel of this project has pfm_perf_event_open */
	ck_assert(shim_here());
#define RESET(cfg) do { memset(&hw, 0, sizeof(hw)); hw.config = (cfg); hw.irq_period = 1; \
			hw.disabled = 1; } while (0)
	for (i = 0; i < ARRAY_SIZE(bad_records); i++) {
		RESET(FAULTS);
		hw.record_type = bad_records[i];
		ck_assert_errno(perf_counter_open(&hw, 0, -1, -1, 0), EINVAL);
	}
	RESET(FAULTS);
	hw.munmap = 1;
	ck_assert_errno(perf_counter_open(&hw, 0, -1, -1, 0), EINVAL);
	/* COMM records go to sampling counters' rings only */
	RESET(FAULTS);
	hw.irq_period = 0;
	hw.comm = 1;
	ck_assert_errno(perf_counter_open(&hw, 0, -1, -1, 0), EINVAL);
	/* perfmon's raw events are native: no sampling, nor mmap records */
	RESET(PERF_COUNTER_RAW_PFM_SW(PFM_SW_EV_PAGE_FAULTS));
	ck_assert_errno(perf_counter_open(&hw, 0, -1, -1, 0), EINVAL);
	RESET(PERF_COUNTER_RAW_PFM_SW(PFM_SW_EV_PAGE_FAULTS));
	hw.irq_period = 0;
	hw.mmap = 1;
	ck_assert_errno(perf_counter_open(&hw, 0, -1, -1, 0), EINVAL);

	/* the ring: 1 + 2^n pages, offset 0, shared, readable; once */
	fd = sampler(1, ALL_RECORDS, 0, 0);
	for (i = 0; i < ARRAY_SIZE(bad_len); i++)
		ck_assert_msg(perf_counter_mmap(NULL, bad_len[i], PROT_READ, MAP_SHARED, fd, 0) ==
			      MAP_FAILED && errno == EINVAL, "length %zu: %s", bad_len[i],
			      strerror(errno));
	ck_assert(perf_counter_mmap(NULL, 3 * psz, PROT_READ, MAP_SHARED, fd, psz) ==
		  MAP_FAILED && errno == EINVAL);
	ck_assert(perf_counter_mmap(NULL, 3 * psz, PROT_READ, MAP_PRIVATE, fd, 0) ==
		  MAP_FAILED && errno == EINVAL);
	ck_assert(perf_counter_mmap(NULL, 3 * psz, PROT_WRITE, MAP_SHARED, fd, 0) ==
		  MAP_FAILED && errno == EINVAL);
	ck_assert(perf_counter_mmap(NULL, 3 * psz, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0) ==
		  MAP_FAILED && errno == EINVAL);
	m = perf_counter_mmap(NULL, 3 * psz, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_msg(m != MAP_FAILED, "perf_counter_mmap: %s", strerror(errno));
	ck_assert(perf_counter_mmap(NULL, 3 * psz, PROT_READ, MAP_SHARED, fd, 0) ==
		  MAP_FAILED && errno == EBUSY);
	ck_assert_errno(perf_counter_munmap(m, 2 * psz), EINVAL);
	ck_assert_ok(perf_counter_munmap(m, 3 * psz));
	/* unmapped, it maps again */
	m = perf_counter_mmap(NULL, 3 * psz, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert(m != MAP_FAILED);
	ck_assert_ok(perf_counter_close(fd));

	/* a native counter has no ring */
	RESET(PERF_COUNTER_RAW_PFM_SW(PFM_SW_EV_SYSCALLS));
	hw.irq_period = 0;
	native = perf_counter_open(&hw, 0, -1, -1, 0);
	ck_assert_int_ge(native, 0);
	ck_assert(perf_counter_mmap(NULL, 3 * psz, PROT_READ, MAP_SHARED, native, 0) ==
		  MAP_FAILED && errno == ENODEV);
	ck_assert_ok(perf_counter_close(native));
#undef RESET
}
END_TEST

static const struct {
	uint32_t record_type;
	uint64_t period;
} smpl_case[] = {
	{ ALL_RECORDS, 1 },
	{ PERF_RECORD_IP, 1 },
	{ PERF_RECORD_TID, 1 },
	{ PERF_RECORD_TIME, 1 },
	{ PERF_RECORD_ADDR, 1 },
	{ PERF_RECORD_IP | PERF_RECORD_ADDR, 16 },
	{ ALL_RECORDS, 100 },
	{ 0, 8 },
};

/*
 * NPAGES faults, one overflow every period: NPAGES / period records, each with
 * the record_type's fields in the proposal's order, ADDR the page whose fault
 * overflowed the counter.
 */
START_TEST(test_overflow_records)
{
	uint32_t rt = smpl_case[_i].record_type;
	uint64_t period = smpl_case[_i].period, n = NPAGES / period, k, t = 0;
	uint32_t size = sizeof(struct perf_event_header) + 8 * __builtin_popcount(rt);
	int fd = sampler(period, rt, 0, 0);
	char *p = ck_fresh_pages(NPAGES);
	struct ring08 r;
	struct rec08 rec;

	ck_map08(&r, fd, 4);
	warm(fd);
	/* the warm-up's page is an overflow of period 1 */
	while (next08(&r, &rec))
		;
	ck_assert_uint_eq(value(fd), 1);
	fault_window(fd, p, NPAGES);
	ck_assert_uint_eq(value(fd), 1 + NPAGES);
	ck_assert_uint_eq(head08(&r) - r.tail, n * size);
	for (k = 0; k < n; k++) {
		uint64_t *w = rec.w;

		ck_assert(next08(&r, &rec));
		ck_assert_uint_eq(rec.h.type, rt);
		ck_assert_uint_eq(rec.h.misc, PERF_EVENT_MISC_OVERFLOW | PERF_EVENT_MISC_USER);
		ck_assert_uint_eq(rec.h.size, size);
		if (rt & PERF_RECORD_IP)
			ck_assert_uint_ne(*w++, 0);
		if (rt & PERF_RECORD_TID) {
			ck_assert_uint_eq((uint32_t)*w, getpid());
			ck_assert_uint_eq((uint32_t)(*w++ >> 32), self_tid());
		}
		if (rt & PERF_RECORD_TIME) {
			/*
			 * local_clock() never goes back, but without a stable TSC
			 * (TCG) two faults can read the same nanosecond.
			 */
			ck_assert_uint_ge(*w, t);
			ck_assert_uint_ne(*w, 0);
			t = *w++;
		}
		if (rt & PERF_RECORD_ADDR) {
			/* the warm-up took one fault off the first period */
			uint64_t page = (k + 1) * period - 1 - (period > 1);

			ck_assert_uint_eq(*w++, (uintptr_t)p + page * page_size());
		}
	}
	ck_assert(!next08(&r, &rec));
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

/*
 * Records run across the end of the ring: two windows of 128 records of 24 bytes
 * in a page, read after each.
 */
START_TEST(test_ring_wraps)
{
	int fd = sampler(1, PERF_RECORD_IP | PERF_RECORD_ADDR, 0, 0);
	char *p = ck_fresh_pages(NPAGES);
	struct ring08 r;
	struct rec08 rec;
	long k;

	ck_map08(&r, fd, 1);
	warm(fd);
	value(fd);
	r.tail = head08(&r);
	fault_window(fd, p, NPAGES / 2);
	ck_assert_uint_eq(value(fd), 1 + NPAGES / 2);
	for (k = 0; k < NPAGES / 2; k++) {
		ck_assert(next08(&r, &rec));
		ck_assert_uint_eq(rec.w[1], (uintptr_t)p + k * page_size());
	}
	fault_window(fd, p + NPAGES / 2 * page_size(), NPAGES / 2);
	ck_assert_uint_eq(value(fd), 1 + NPAGES);
	ck_assert_uint_gt(r.tail % r.size + NPAGES / 2 * 24, r.size);	/* it wraps */
	for (; k < NPAGES; k++) {
		ck_assert(next08(&r, &rec));
		ck_assert_uint_eq(rec.h.size, 24);
		ck_assert_uint_eq(rec.w[1], (uintptr_t)p + k * page_size());
	}
	ck_assert(!next08(&r, &rec));
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

static short poll_in(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	ck_assert_int_ge(perf_counter_poll(&pfd, 1, 0), 0);
	return pfd.revents & POLLIN;
}

/* wakeup_events: POLLIN at the tenth overflow, not before; and again at the 20th */
START_TEST(test_wakeup_events)
{
	int fd = sampler(1, PERF_RECORD_ADDR, 0, 10);
	char *p = ck_fresh_pages(NPAGES);
	struct ring08 r;

	ck_map08(&r, fd, 2);
	warm(fd);
	ck_assert(!poll_in(fd));
	fault_window(fd, p, 8);		/* 9 with the warm-up */
	ck_assert(!poll_in(fd));
	ck_assert_uint_eq(head08(&r), 9 * 16);
	fault_window(fd, p + 8 * page_size(), 1);
	ck_assert(poll_in(fd));
	ck_assert(!poll_in(fd));
	fault_window(fd, p + 9 * page_size(), 9);
	ck_assert(!poll_in(fd));
	fault_window(fd, p + 18 * page_size(), 1);
	ck_assert(poll_in(fd));
	ck_assert_uint_eq(head08(&r), 20 * 16);
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

/* wakeup_events 0: POLLIN when a page of records is filled (40-byte records: 103) */
START_TEST(test_wakeup_page)
{
	int fd = sampler(1, ALL_RECORDS, 0, 0);
	char *p = ck_fresh_pages(NPAGES);
	long full = page_size() / 40 + 1;
	struct ring08 r;

	ck_map08(&r, fd, 2);
	warm(fd);
	fault_window(fd, p, full - 2);
	ck_assert(!poll_in(fd));
	ck_assert_uint_eq(head08(&r), (full - 1) * 40);
	fault_window(fd, p + (full - 2) * page_size(), 1);
	ck_assert(poll_in(fd));
	ck_assert_uint_eq(head08(&r), full * 40);
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

/* [*lo, *hi): the mapping of this program's text that holds fn, from /proc/self/maps */
static void text_range(const void *fn, uint64_t *lo, uint64_t *hi)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long a, b;
	char line[512];

	ck_assert(f);
	*lo = *hi = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &a, &b) == 2 && a <= (uintptr_t)fn &&
		    (uintptr_t)fn < b) {
			*lo = a;
			*hi = b;
		}
	fclose(f);
	ck_assert(*hi > *lo);
}

/*
 * mmap: an executable mapping made while the counter is enabled comes as a
 * PERF_EVENT_MMAP record (pid, tid, addr, len, pgoff, filename); those made
 * before (the program's text) are the tool's to find, as the kernel's hook
 * reports mappings as they are made.  Every sampled IP is in the program's text.
 */
START_TEST(test_mmap_records)
{
	int fd = sampler(1, PERF_RECORD_IP | PERF_RECORD_TID | PERF_RECORD_ADDR, 1, 0);
	char *p = ck_fresh_pages(NPAGES), self[256];
	uint64_t lo, hi, ips[NPAGES];
	int n_ip = 0, n_mmap = 0, n_page = 0, i, efd;
	struct ring08 r;
	struct rec08 rec;
	ssize_t len;
	void *m;

	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	ck_assert_int_gt(len, 0);
	self[len] = 0;
	efd = open(self, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(efd, 0);
	text_range((const void *)touch_pages, &lo, &hi);
	ck_map08(&r, fd, 4);
	ck_assert_ok(perf_counter_ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	m = mmap(NULL, page_size(), PROT_READ | PROT_EXEC, MAP_PRIVATE, efd, 0);
	touch_pages(p, 64);
	ck_assert_ok(perf_counter_ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ck_assert(m != MAP_FAILED);
	close(efd);
	while (next08(&r, &rec)) {
		if (rec.h.type == PERF_EVENT_MMAP) {
			ck_assert_uint_eq((uint32_t)rec.w[0], getpid());
			ck_assert_uint_eq((uint32_t)(rec.w[0] >> 32), self_tid());
			ck_assert_str_eq((const char *)&rec.w[4], self);
			ck_assert_uint_eq(rec.w[1], (uintptr_t)m);
			ck_assert_uint_eq(rec.w[2], page_size());
			n_mmap++;
			continue;
		}
		ck_assert_uint_eq(rec.h.type, PERF_RECORD_IP | PERF_RECORD_TID | PERF_RECORD_ADDR);
		ck_assert_int_lt(n_ip, NPAGES);
		/* the test's pages each once, in order; what else faulted beside them */
		if (rec.w[2] >= (uintptr_t)p && rec.w[2] < (uintptr_t)p + 64 * page_size()) {
			ck_assert_uint_eq(rec.w[2], (uintptr_t)p + n_page * page_size());
			n_page++;
		}
		ips[n_ip++] = rec.w[0];
	}
	ck_assert_int_eq(n_page, 64);
	ck_assert_int_eq(n_mmap, 1);
	for (i = 0; i < n_ip; i++)
		ck_assert_msg(ips[i] >= lo && ips[i] < hi, "ip %#llx outside [%#llx, %#llx)",
			      (unsigned long long)ips[i], (unsigned long long)lo,
			      (unsigned long long)hi);
	munmap(m, page_size());
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

/*
 * inherit, on both paths (perfmon's raw events are native): the child forked
 * after the open counts into the parent's counter; the parent's enable and
 * disable reach it.  Two windows in which the child writes to
 * fresh pages, 1 then NPAGES - 1: the first also takes what the window's code
 * faults in for the first time in either process (copy-on-write after the fork,
 * the child's first touch of its code and data), the second nothing else.
 */
static void inherit_child(char *p, int go, int done)
{
	const long pages[] = { 1, NPAGES - 1 };
	unsigned int i;
	char c;

	if (write(done, "r", 1) != 1)
		_exit(2);
	for (i = 0; i < ARRAY_SIZE(pages); i++) {
		if (read(go, &c, 1) != 1)
			_exit(3);
		touch_pages(p, pages[i]);
		p += pages[i] * page_size();
		if (write(done, "d", 1) != 1)
			_exit(4);
	}
	_exit(read(go, &c, 1) == 1 ? 0 : 5);
}

/* ENABLE, the child's turn, DISABLE: what the counter counted */
static uint64_t inherit_window(int fd, int go, int done)
{
	uint64_t before = value(fd);
	int re, rd;
	ssize_t w, d;
	char c = 0;

	re = perf_counter_ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0);
	w = write(go, "g", 1);
	d = read(done, &c, 1);
	rd = perf_counter_ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0);
	ck_assert(re == 0 && rd == 0 && w == 1 && d == 1 && c == 'd');
	return value(fd) - before;
}

static const uint64_t inherit_config[] = {
	FAULTS, PERF_COUNTER_RAW_PFM_SW(PFM_SW_EV_PAGE_FAULTS)
};

START_TEST(test_inherit)
{
	struct perf_counter_hw_event hw = {
		.config = inherit_config[_i], .disabled = 1, .inherit = 1
	};
	int fd = perf_counter_open(&hw, 0, -1, -1, 0), go[2], done[2], status;
	char *p = ck_fresh_pages(NPAGES), c = 0;
	uint64_t first, total;
	pid_t pid;

	ck_assert_msg(fd >= 0, "perf_counter_open(inherit): %s", strerror(errno));
	ck_assert_ok(pipe(go));
	ck_assert_ok(pipe(done));
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		inherit_child(p, go[0], done[1]);
	ck_assert_int_eq(read(done[0], &c, 1), 1);
	ck_assert_uint_eq(value(fd), 0);	/* disabled since the open */
	first = inherit_window(fd, go[1], done[0]);
	ck_assert_msg(first >= 1 && first <= 8, "first window: %llu faults",
		      (unsigned long long)first);
	ck_assert_uint_eq(inherit_window(fd, go[1], done[0]), NPAGES - 1);
	total = value(fd);
	ck_assert_int_eq(write(go[1], "x", 1), 1);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(status, 0);
	/* the exited child's count stays in the counter, and nothing more */
	ck_assert_uint_eq(value(fd), total);
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

/*
 * prctl's replacement reaches perfmon's perf_event counters too: the calling
 * thread's leaders, not their disabled members, and not in a forked child.
 */
START_TEST(test_task_enable)
{
	struct perf_counter_hw_event hw = { .config = FAULTS, .disabled = 1 };
	int lead = perf_counter_open(&hw, 0, -1, -1, 0), member, re, rd, status;
	char *p = ck_fresh_pages(NPAGES);
	uint64_t v;
	pid_t pid;

	ck_assert_int_ge(lead, 0);
	member = perf_counter_open(&hw, 0, -1, lead, 0);
	ck_assert_int_ge(member, 0);
	/* warm the calls, then one fault */
	ck_assert_ok(perf_counter_task_enable());
	ck_assert_ok(perf_counter_task_disable());
	re = perf_counter_task_enable();
	touch_pages(ck_fresh_pages(1), 1);
	rd = perf_counter_task_disable();
	ck_assert(re == 0 && rd == 0);
	v = value(lead);
	ck_assert_uint_eq(v, 1);

	re = perf_counter_task_enable();
	touch_pages(p, NPAGES / 2);
	rd = perf_counter_task_disable();
	ck_assert(re == 0 && rd == 0);
	ck_assert_uint_eq(value(lead), v + NPAGES / 2);
	ck_assert_uint_eq(value(member), 0);

	/* a child's enable is its own business */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(perf_counter_task_enable() ? 1 : 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(status, 0);
	touch_pages(p + NPAGES / 2 * page_size(), NPAGES / 2);
	ck_assert_uint_eq(value(lead), v + NPAGES / 2);
	ck_assert_ok(perf_counter_close(member));
	ck_assert_ok(perf_counter_close(lead));
}
END_TEST

/*
 * REFRESH enables an overflow counter for nr overflows, after which it is
 * disabled again (the 2008 text): 3 records and 3 counts of 8 faults.
 */
START_TEST(test_refresh)
{
	int fd = sampler(1, PERF_RECORD_IP, 0, 0);
	char *p = ck_fresh_pages(8);
	struct ring08 r;
	struct rec08 rec;
	int n = 0;

	ck_map08(&r, fd, 4);
	warm(fd);
	while (next08(&r, &rec))
		;
	ck_assert_uint_eq(value(fd), 1);
	ck_assert_ok(perf_counter_ioctl(fd, PERF_COUNTER_IOC_REFRESH, 3));
	touch_pages(p, 8);
	ck_assert_uint_eq(value(fd), 1 + 3);
	while (next08(&r, &rec)) {
		ck_assert_uint_eq(rec.h.type, PERF_RECORD_IP);
		n++;
	}
	ck_assert_int_eq(n, 3);
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

/*
 * PERF_RECORD_CALLCHAIN: one fault in chain_leaf(), called by chain_mid(), both
 * with frame pointers (the suite is built without them): the proposal's
 * { u16 nr, hv, kernel, user; u64 ips[nr]; } after IP and ADDR, all user
 * addresses, no context mark; the IP in chain_leaf(), then the return addresses
 * each function saw, exactly.
 */
#define FP	__attribute__((noinline, optimize("no-omit-frame-pointer")))
#define FN_SPAN	256		/* a function's code is within this many bytes of its start */

static volatile char *chain_at;
static uint64_t ret_leaf, ret_mid;

FP static void chain_leaf(void)
{
	ret_leaf = (uintptr_t)__builtin_return_address(0);
	*chain_at = 1;
	__asm__ volatile("" ::: "memory");	/* not a tail position */
}

FP static void chain_mid(void)
{
	ret_mid = (uintptr_t)__builtin_return_address(0);
	chain_leaf();
	__asm__ volatile("" ::: "memory");
}

START_TEST(test_callchain)
{
	int fd = sampler(1, PERF_RECORD_IP | PERF_RECORD_ADDR | PERF_RECORD_CALLCHAIN, 0, 0);
	char *p = ck_fresh_pages(1);
	uint64_t nr, i;
	struct ring08 r;
	struct rec08 rec, chain;
	int found = 0;

	memset(&chain, 0, sizeof(chain));
	ck_map08(&r, fd, 4);
	chain_at = p;
	ck_assert_ok(perf_counter_ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	chain_mid();
	ck_assert_ok(perf_counter_ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	while (next08(&r, &rec)) {
		ck_assert_uint_eq(rec.h.type,
				  PERF_RECORD_IP | PERF_RECORD_ADDR | PERF_RECORD_CALLCHAIN);
		/* ip, addr, { nr, hv, kernel, user }, ips */
		nr = rec.w[2] & 0xffff;
		ck_assert_uint_eq(rec.h.size, sizeof(rec.h) + (3 + nr) * sizeof(uint64_t));
		ck_assert_uint_eq(rec.w[2] >> 16 & 0xffff, 0);		/* hv */
		ck_assert_uint_eq(rec.w[2] >> 32 & 0xffff, 0);		/* kernel */
		ck_assert_uint_eq(rec.w[2] >> 48, nr);			/* user */
		for (i = 0; i < nr; i++)
			ck_assert_uint_lt(rec.w[3 + i], (uint64_t)PERF_CONTEXT_MAX);
		if (rec.w[1] != (uintptr_t)p)
			continue;
		chain = rec;
		found++;
	}
	ck_assert_int_eq(found, 1);
	nr = chain.w[2] & 0xffff;
	ck_assert_uint_ge(nr, 3);
	ck_assert_uint_eq(chain.w[3], chain.w[0]);		/* the IP first */
	ck_assert_msg(chain.w[3] > (uintptr_t)chain_leaf &&
		      chain.w[3] < (uintptr_t)chain_leaf + FN_SPAN, "ip %#llx, chain_leaf %p",
		      (unsigned long long)chain.w[3], (void *)chain_leaf);
	ck_assert_uint_eq(chain.w[4], ret_leaf);		/* in chain_mid() */
	ck_assert_uint_eq(chain.w[5], ret_mid);			/* in this test */
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

/*
 * comm: a PERF_EVENT_COMM record { pid, tid, comm[] } (the name and its NUL,
 * to 8 bytes: "pc08-on" is 8) for each
 * prctl(PR_SET_NAME) while the counter is enabled, none while it is disabled.
 */
START_TEST(test_comm)
{
	struct perf_counter_hw_event hw = {
		.config = FAULTS, .disabled = 1, .irq_period = 1ULL << 40,
		.record_type = PERF_RECORD_IP, .comm = 1,
	};
	char old[16] = "", name[17] = "";
	int fd = perf_counter_open(&hw, 0, -1, -1, 0), n = 0;
	struct ring08 r;
	struct rec08 rec;

	ck_assert_msg(fd >= 0, "perf_counter_open(comm): %s", strerror(errno));
	ck_map08(&r, fd, 2);
	ck_assert_ok(prctl(PR_GET_NAME, old));
	ck_assert_ok(prctl(PR_SET_NAME, "pc08-off"));
	ck_assert_ok(perf_counter_ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	ck_assert_ok(prctl(PR_SET_NAME, "pc08-on"));
	ck_assert_ok(perf_counter_ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ck_assert_ok(prctl(PR_SET_NAME, old));
	ck_assert_uint_eq(value(fd), 0);	/* no fault; the read brings the ring up to date */
	while (next08(&r, &rec)) {
		ck_assert_uint_eq(rec.h.type, PERF_EVENT_COMM);
		ck_assert_uint_eq(rec.h.misc, 0);
		ck_assert_uint_eq(rec.h.size, sizeof(rec.h) + 8 + 8);
		ck_assert_uint_eq((uint32_t)rec.w[0], getpid());
		ck_assert_uint_eq((uint32_t)(rec.w[0] >> 32), self_tid());
		memcpy(name, &rec.w[1], 16);
		ck_assert_str_eq(name, "pc08-on");
		n++;
	}
	ck_assert_int_eq(n, 1);
	ck_assert_ok(perf_counter_close(fd));
}
END_TEST

/* A sampling page-fault leader of period 8, PERF_RECORD_GROUP, and a counting page-fault member. */
static void fault_group(int *leader, int *member, uint32_t read_format)
{
	struct perf_counter_hw_event hw = {
		.config = FAULTS, .disabled = 1, .irq_period = 8,
		.record_type = PERF_RECORD_GROUP, .read_format = read_format,
	};

	*leader = perf_counter_open(&hw, 0, -1, -1, 0);
	ck_assert_msg(*leader >= 0, "perf_counter_open(GROUP leader): %s", strerror(errno));
	memset(&hw, 0, sizeof(hw));
	hw.config = FAULTS;
	*member = perf_counter_open(&hw, 0, -1, *leader, 0);
	ck_assert_msg(*member >= 0, "perf_counter_open(member): %s", strerror(errno));
}

/*
 * PERF_RECORD_GROUP: 64 fresh pages, a record every 8th, each
 * { nr 2; { leader's config, 8(i+1) }, { member's config, 8(i+1) } }, without
 * the times the leader's read_format asks for; reads still give each counter's
 * own value and times.  A first group faults in the code the window runs, so
 * that the second one's counts are the pages' alone.
 */
START_TEST(test_group_records)
{
	uint32_t rf = _i ? PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING : 0;
	char *p = ck_fresh_pages(64);
	int leader, member, round, i;
	uint64_t v[4] = { 0 };
	struct ring08 r;
	struct rec08 rec;

	for (round = 0; round < 2; round++) {
		fault_group(&leader, &member, rf);
		ck_map08(&r, leader, 4);
		if (!round) {
			warm(leader);
			ck_assert_ok(perf_counter_close(member));
			ck_assert_ok(perf_counter_close(leader));
			continue;
		}
		fault_window(leader, p, 64);
		ck_assert_int_eq(perf_counter_read(leader, v, sizeof(v)), (_i ? 3 : 1) * 8);
		ck_assert_uint_eq(v[0], 64);
		if (_i) {
			ck_assert_uint_ne(v[1], 0);
			ck_assert_uint_eq(v[2], v[1]);	/* a software counter always runs */
			ck_assert_errno(perf_counter_read(leader, v, 16), ENOSPC);
		}
		ck_assert_uint_eq(value(member), 64);
		ck_assert_uint_eq(head08(&r), 8 * (sizeof(rec.h) + 5 * 8));
		for (i = 0; i < 8; i++) {
			ck_assert(next08(&r, &rec));
			ck_assert_uint_eq(rec.h.type, PERF_RECORD_GROUP);
			ck_assert_uint_eq(rec.h.misc,
					  PERF_EVENT_MISC_OVERFLOW | PERF_EVENT_MISC_USER);
			ck_assert_uint_eq(rec.h.size, sizeof(rec.h) + 5 * 8);
			ck_assert_uint_eq(rec.w[0], 2);
			ck_assert_uint_eq(rec.w[1], FAULTS);
			ck_assert_uint_eq(rec.w[2], 8 * (i + 1));
			ck_assert_uint_eq(rec.w[3], FAULTS);
			ck_assert_uint_eq(rec.w[4], 8 * (i + 1));
		}
		ck_assert(!next08(&r, &rec));
	}
	ck_assert_ok(perf_counter_close(member));
	ck_assert_ok(perf_counter_close(leader));
}
END_TEST

Suite *pfm_compat_perf_counter_shim_suite(void)
{
	Suite *s = suite_create("compat_perf_counter_shim");
	TCase *tc = pfm_tcase("compat_perf_counter_shim");

	tcase_add_test(tc, test_sampling_errors);
	tcase_add_loop_test(tc, test_overflow_records, 0, ARRAY_SIZE(smpl_case));
	tcase_add_test(tc, test_ring_wraps);
	tcase_add_test(tc, test_wakeup_events);
	tcase_add_test(tc, test_wakeup_page);
	tcase_add_test(tc, test_mmap_records);
	tcase_add_loop_test(tc, test_inherit, 0, ARRAY_SIZE(inherit_config));
	tcase_add_test(tc, test_task_enable);
	tcase_add_test(tc, test_refresh);
	tcase_add_test(tc, test_callchain);
	tcase_add_test(tc, test_comm);
	tcase_add_loop_test(tc, test_group_records, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
