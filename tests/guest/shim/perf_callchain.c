// SPDX-License-Identifier: GPL-2.0
/*
 * perf_callchain: PERF_SAMPLE_CALLCHAIN's user chain by frame pointers: the
 * context mark, the sampled IP, then a return address in each caller, as
 * perf_callchain_user() gives on x86-64; sample_max_stack counts the mark;
 * exclude_callchain_user gives an empty chain; too deep a chain is EOVERFLOW.
 * The sampled functions keep their frame pointers (the suite is built
 * without them elsewhere), and fault on a fresh page each.
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "util.h"
#include "perf_ring_util.h"
#include "suites.h"

#define FP	__attribute__((noinline, optimize("no-omit-frame-pointer")))

/* a function's code is within this many bytes of its start */
#define FN_SPAN	256

static volatile char *fault_at;

FP static void leaf(void)
{
	*fault_at = 1;
	__asm__ volatile("" ::: "memory");	/* not a tail position */
}

FP static void mid(void)
{
	leaf();
	__asm__ volatile("" ::: "memory");
}

FP static void top(void)
{
	mid();
	__asm__ volatile("" ::: "memory");
}

static int in_fn(uint64_t ip, void (*fn)(void))
{
	return ip > (uintptr_t)fn && ip < (uintptr_t)fn + FN_SPAN;
}

/* One fault in leaf() sampled with IP and CALLCHAIN: the chain, in rec. */
static void sample_chain(struct perf_event_attr *a, struct rec *out)
{
	char *p = ck_fresh_pages(1);
	uint64_t pos = 0, hd;
	struct ring r;
	struct rec rec;
	int fd, on, off, found = 0;

	fd = ck_open(a, 0);
	ck_map(&r, fd, 8, PROT_READ | PROT_WRITE);
	fault_at = p;
	on = ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	top();
	off = ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ck_assert_int_eq(on | off, 0);
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		/* ip, addr, then the chain */
		if (rec.h.type != PERF_RECORD_SAMPLE || rec.w[1] != (uintptr_t)p)
			continue;
		*out = rec;
		found++;
	}
	ck_assert_int_eq(found, 1);
	unmap(&r);
	close(fd);
}

static void attr_chain(struct perf_event_attr *a)
{
	attr_smpl(a, PERF_COUNT_SW_PAGE_FAULTS, 1,
		  PERF_SAMPLE_IP | PERF_SAMPLE_ADDR | PERF_SAMPLE_CALLCHAIN);
}

/* The context mark, the IP in leaf(), return addresses in mid() and top(). */
START_TEST(test_user_chain)
{
	struct perf_event_attr a;
	struct rec rec;
	uint64_t *w = rec.w;

	attr_chain(&a);
	sample_chain(&a, &rec);
	ck_assert_uint_ge(w[2], 4);
	ck_assert_uint_le(w[2], 127);
	ck_assert_uint_eq(rec.h.size, 8 + (3 + w[2]) * 8);
	ck_assert_uint_eq(w[3], PERF_CONTEXT_USER);
	ck_assert_uint_eq(w[4], w[0]);
	ck_assert_msg(in_fn(w[4], leaf), "ip %#lx, leaf at %p", (long)w[4], leaf);
	ck_assert_msg(in_fn(w[5], mid), "ret %#lx, mid at %p", (long)w[5], mid);
	ck_assert_msg(in_fn(w[6], top), "ret %#lx, top at %p", (long)w[6], top);
}
END_TEST

/*
 * sample_max_stack bounds the addresses after the mark (perf does not count
 * the mark: 1 gives nr 2, 3 gives nr 4); exclude_callchain_user: nr 0.
 */
START_TEST(test_chain_limits)
{
	struct perf_event_attr a;
	struct rec rec;

	attr_chain(&a);
	a.sample_max_stack = 1;
	sample_chain(&a, &rec);
	ck_assert_uint_eq(rec.w[2], 2);
	ck_assert_uint_eq(rec.w[3], PERF_CONTEXT_USER);
	ck_assert_uint_eq(rec.w[4], rec.w[0]);

	attr_chain(&a);
	a.sample_max_stack = 3;
	sample_chain(&a, &rec);
	ck_assert_uint_eq(rec.w[2], 4);
	ck_assert_uint_eq(rec.w[3], PERF_CONTEXT_USER);
	ck_assert_uint_eq(rec.w[4], rec.w[0]);
	ck_assert(in_fn(rec.w[5], mid));
	ck_assert(in_fn(rec.w[6], top));

	attr_chain(&a);
	a.exclude_callchain_user = 1;
	sample_chain(&a, &rec);
	ck_assert_uint_eq(rec.w[2], 0);
	ck_assert_uint_eq(rec.h.size, 8 + 3 * 8);

	/* deeper than perf_event_max_stack: EOVERFLOW, counting or not */
	attr_chain(&a);
	a.sample_max_stack = 128;
	ck_assert_errno(pfm_perf_event_open(&a, 0, -1, -1, 0), EOVERFLOW);
	a.sample_period = 0;
	ck_assert_errno(pfm_perf_event_open(&a, 0, -1, -1, 0), EOVERFLOW);
}
END_TEST

Suite *pfm_perf_callchain_suite(void)
{
	Suite *s = suite_create("perf_callchain");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_user_chain);
	tcase_add_test(tc, test_chain_limits);
	suite_add_tcase(s, tc);
	return s;
}
