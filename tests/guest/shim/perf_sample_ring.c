// SPDX-License-Identifier: GPL-2.0
/*
 * perf_sample, the ring: 1 + 2^n pages, its user page, data_head and data_tail,
 * records never torn, LOST with the exact number lost and its sample_id_all
 * trailer, PAUSE_OUTPUT, read-only mappings, wakeups and poll(), the mapping
 * sizes.  Exact counts come from page faults the test itself makes.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "util.h"
#include "perf_ring_util.h"
#include "suites.h"

/*
 * A reader that takes nothing: the ring fills (4095 bytes of space in 4096: 170
 * records of 24), the rest is lost, and the next record after the reader caught
 * up is preceded by one PERF_RECORD_LOST with the exact number, its
 * sample_id_all trailer in the kernel's order.
 */
START_TEST(test_lost_exact)
{
	const long n = 400, fit = 4095 / 24;
	char *p = ck_fresh_pages(n + 1);
	struct perf_event_attr a;
	uint64_t pos = 0, hd, id;
	struct ring r;
	struct rec rec;
	long i = 0;
	int fd;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP | PERF_SAMPLE_ADDR);
	a.sample_id_all = 1;
	fd = ck_open(&a, 0);
	id = ck_id(fd);
	ck_map(&r, fd, 1, PROT_READ | PROT_WRITE);
	fault_on(fd, p, n);
	ck_assert_uint_eq(head(&r), fit * 24);
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		ck_assert_uint_eq(rec.w[1], (uintptr_t)(p + i * page_size()));
		i++;
	}
	ck_assert_int_eq(i, fit);
	consume(&r);
	fault_on(fd, p + n * page_size(), 1);
	hd = head(&r);
	ck_assert(next_rec(&r, &pos, hd, &rec));
	ck_assert_uint_eq(rec.h.type, PERF_RECORD_LOST);
	ck_assert_uint_eq(rec.h.size, 8 + 2 * 8);	/* sample_type has no id field */
	ck_assert_uint_eq(rec.w[0], id);
	ck_assert_uint_eq(rec.w[1], n - fit);
	ck_assert(next_rec(&r, &pos, hd, &rec));
	ck_assert_uint_eq(rec.h.type, PERF_RECORD_SAMPLE);
	ck_assert_uint_eq(rec.w[1], (uintptr_t)(p + n * page_size()));
	ck_assert(!next_rec(&r, &pos, hd, &rec));
	ck_assert_uint_eq(ck_read1(fd), n + 1);
	unmap(&r);
	close(fd);
}
END_TEST

/* The sample_id_all trailer of a LOST record: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
START_TEST(test_lost_trailer)
{
	char *p = ck_fresh_pages(200);
	struct perf_event_attr a;
	uint64_t pos = 0, hd, id;
	struct ring r;
	struct rec rec;
	int fd;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1,
		  PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
		  PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
	a.sample_id_all = 1;
	fd = ck_open(&a, 0);
	id = ck_id(fd);
	ck_map(&r, fd, 1, PROT_READ | PROT_WRITE);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(p, 199);		/* 56-byte records: 73 fit, 126 lost */
	consume(&r);
	pos = head(&r);
	touch_pages(p + 199 * page_size(), 1);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	hd = head(&r);
	ck_assert(next_rec(&r, &pos, hd, &rec));
	ck_assert_uint_eq(rec.h.type, PERF_RECORD_LOST);
	ck_assert_uint_eq(rec.h.size, 8 + 8 * 8);
	ck_assert_uint_eq(rec.w[0], id);
	ck_assert_uint_eq(rec.w[1], 199 - 4095 / 56);
	ck_assert_uint_eq((uint32_t)rec.w[2], getpid());
	ck_assert_uint_eq(rec.w[2] >> 32, self_tid());
	ck_assert_uint_gt(rec.w[3], 0);
	ck_assert_uint_eq(rec.w[4], id);
	ck_assert_uint_eq(rec.w[5], id);
	ck_assert_uint_lt(rec.w[6], possible_cpus());
	ck_assert_uint_eq(rec.w[7], id);
	ck_assert(next_rec(&r, &pos, hd, &rec));
	ck_assert_uint_eq(rec.h.type, PERF_RECORD_SAMPLE);
	ck_assert(!next_rec(&r, &pos, hd, &rec));
	unmap(&r);
	close(fd);
}
END_TEST

/*
 * Records straddle the end of the ring as the reader keeps up: 500 samples of 24
 * bytes through a 4096-byte ring, none lost, none torn, all in order.
 */
START_TEST(test_ring_wraps)
{
	const long n = 500;
	char *p = ck_fresh_pages(n);
	struct perf_event_attr a;
	uint64_t pos = 0, hd;
	struct ring r;
	struct rec rec;
	long i = 0, k;
	int fd;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP | PERF_SAMPLE_ADDR);
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 1, PROT_READ | PROT_WRITE);
	for (k = 0; k < n; k += 50) {
		ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		touch_pages(p + k * page_size(), 50);
		ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		hd = head(&r);
		while (next_rec(&r, &pos, hd, &rec)) {
			ck_assert_uint_eq(rec.h.type, PERF_RECORD_SAMPLE);
			ck_assert_uint_eq(rec.w[1], (uintptr_t)(p + i * page_size()));
			i++;
		}
		consume(&r);
	}
	ck_assert_int_eq(i, n);
	ck_assert_uint_eq(head(&r), n * 24);
	unmap(&r);
	close(fd);
}
END_TEST

/*
 * PAUSE_OUTPUT: paused, the samples are lost, and the first one after the
 * resume is preceded by a LOST with their number; a one-page mapping has no
 * ring to pause (EINVAL).
 */
START_TEST(test_pause_output)
{
	char *p = ck_fresh_pages(30);
	struct perf_event_attr a;
	uint64_t pos = 0, hd;
	struct ring r;
	struct rec rec;
	long i = 0;
	int fd, fd1;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);
	fd1 = ck_open(&a, 0);
	ck_assert_errno(ioctl(fd1, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), EINVAL);
	ck_map(&r, fd1, 0, PROT_READ);
	ck_assert_errno(ioctl(fd1, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), EINVAL);
	unmap(&r);
	close(fd1);
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 2, PROT_READ | PROT_WRITE);
	fault_on(fd, p, 10);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	fault_on(fd, p + 10 * page_size(), 10);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	fault_on(fd, p + 20 * page_size(), 10);
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		if (i == 10) {
			ck_assert_uint_eq(rec.h.type, PERF_RECORD_LOST);
			ck_assert_uint_eq(rec.w[1], 10);
			i += 10;
			continue;
		}
		ck_assert_uint_eq(rec.h.type, PERF_RECORD_SAMPLE);
		ck_assert_uint_eq(rec.w[0], (uintptr_t)(p + i * page_size()));
		i++;
	}
	ck_assert_int_eq(i, 30);
	ck_assert_uint_eq(ck_read1(fd), 30);
	unmap(&r);
	close(fd);
}
END_TEST

/* A read-only mapping overwrites: data_tail is not read, nothing is lost. */
START_TEST(test_readonly_overwrites)
{
	const long n = 400;
	char *p = ck_fresh_pages(n);
	struct perf_event_attr a;
	struct ring r;
	int fd;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP | PERF_SAMPLE_ADDR);
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 1, PROT_READ);
	fault_on(fd, p, n);
	ck_assert_uint_eq(head(&r), n * 24);
	unmap(&r);
	close(fd);
}
END_TEST

/* wakeup_events: POLLIN at every 4th sample, reported once. */
START_TEST(test_wakeup_events)
{
	char *p = ck_fresh_pages(8);
	struct perf_event_attr a;
	struct pollfd pfd;
	struct ring r;
	int fd;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
	a.wakeup_events = 4;
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 1, PROT_READ | PROT_WRITE);
	pfd.fd = fd;
	pfd.events = POLLIN;
	ck_assert_int_eq(poll(&pfd, 1, 0), 0);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(p, 3);
	ck_assert_int_eq(poll(&pfd, 1, 0), 0);
	touch_pages(p + 3 * page_size(), 1);
	ck_assert_int_eq(poll(&pfd, 1, 0), 1);
	ck_assert_int_eq(pfd.revents, POLLIN);
	ck_assert_int_eq(poll(&pfd, 1, 0), 0);
	touch_pages(p + 4 * page_size(), 4);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ck_assert_int_eq(poll(&pfd, 1, 0), 1);
	unmap(&r);
	close(fd);
}
END_TEST

/* watermark: POLLIN once more than wakeup_watermark bytes were written. */
START_TEST(test_wakeup_watermark)
{
	char *p = ck_fresh_pages(8);
	struct perf_event_attr a;
	struct pollfd pfd = { .events = POLLIN };
	struct ring r;
	int fd;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP | PERF_SAMPLE_ADDR);
	a.watermark = 1;
	a.wakeup_watermark = 100;
	fd = pfd.fd = ck_open(&a, 0);
	ck_map(&r, fd, 1, PROT_READ | PROT_WRITE);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(p, 4);		/* 96 bytes */
	ck_assert_int_eq(poll(&pfd, 1, 0), 0);
	touch_pages(p + 4 * page_size(), 1);	/* 120 */
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ck_assert_int_eq(poll(&pfd, 1, 0), 1);
	ck_assert_int_eq(pfd.revents, POLLIN);
	unmap(&r);
	close(fd);
}
END_TEST

/* Without wakeup_events or watermark: POLLIN when half the ring is written. */
START_TEST(test_wakeup_half)
{
	char *p = ck_fresh_pages(90);
	struct perf_event_attr a;
	struct pollfd pfd = { .events = POLLIN };
	struct ring r;
	int fd;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP | PERF_SAMPLE_ADDR);
	fd = pfd.fd = ck_open(&a, 0);
	ck_map(&r, fd, 1, PROT_READ | PROT_WRITE);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(p, 85);		/* 2040 bytes: not past 2048 */
	ck_assert_int_eq(poll(&pfd, 1, 0), 0);
	touch_pages(p + 85 * page_size(), 1);	/* 2064 */
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ck_assert_int_eq(poll(&pfd, 1, 0), 1);
	unmap(&r);
	close(fd);
}
END_TEST

/*
 * A child's samples, and POLLHUP when it exits; the ring stays readable.  The
 * child touches its pages after the parent has mapped the ring (a pipe orders it).
 */
START_TEST(test_child_hup)
{
	const long n = 32;
	char *p = ck_fresh_pages(n);
	struct perf_event_attr a;
	struct pollfd pfd = { .events = POLLIN };
	uint64_t pos = 0, hd;
	int go[2], status, fd;
	struct ring r;
	struct rec rec;
	long i = 0;
	pid_t pid;
	char c;

	ck_assert_ok(pipe(go));
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		touch_pages(p, n);
		_exit(0);
	}
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_TID | PERF_SAMPLE_ADDR);
	a.disabled = 0;
	fd = pfd.fd = ck_open(&a, pid);
	ck_map(&r, fd, 4, PROT_READ | PROT_WRITE);
	ck_assert_int_eq(poll(&pfd, 1, 0), 0);
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(status, 0);
	ck_assert_int_eq(poll(&pfd, 1, 1000), 1);
	ck_assert_int_eq(pfd.revents, POLLHUP);
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		ck_assert_uint_eq((uint32_t)rec.w[0], pid);
		if (rec.w[1] == (uintptr_t)(p + i * page_size()))
			i++;
	}
	/* the child's own faults (stack, exit) are there too, its n pages in order */
	ck_assert_int_eq(i, n);
	unmap(&r);
	close(fd);
	close(go[0]);
	close(go[1]);
}
END_TEST

/* The sizes a ring may have, and one size per event. */
START_TEST(test_mmap_sizes)
{
	long psz = page_size();
	struct perf_event_attr a;
	void *m, *m2;
	int fd;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
	fd = ck_open(&a, 0);
	ck_assert_ptr_eq(mmap(NULL, 4 * psz, PROT_READ, MAP_SHARED, fd, 0), MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_eq(mmap(NULL, 2 * psz, PROT_READ, MAP_PRIVATE, fd, 0), MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_eq(mmap(NULL, 2 * psz, PROT_READ, MAP_SHARED, fd, psz), MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	m = mmap(NULL, 5 * psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(m, MAP_FAILED);
	ck_assert_ptr_eq(mmap(NULL, 3 * psz, PROT_READ, MAP_SHARED, fd, 0), MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_eq(mmap(NULL, 9 * psz, PROT_READ, MAP_SHARED, fd, 0), MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	/* the same size again maps the same ring */
	m2 = mmap(NULL, 5 * psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(m2, MAP_FAILED);
	((struct perf_event_mmap_page *)m)->data_tail = 4242;
	ck_assert_uint_eq(((struct perf_event_mmap_page *)m2)->data_tail, 4242);
	munmap(m, 5 * psz);
	munmap(m2, 5 * psz);
	close(fd);
}
END_TEST

/* Added to perf_sample's test case (perf_sample.c). */
void pfm_perf_ring_tests(TCase *tc)
{
	tcase_add_test(tc, test_lost_exact);
	tcase_add_test(tc, test_lost_trailer);
	tcase_add_test(tc, test_ring_wraps);
	tcase_add_test(tc, test_readonly_overwrites);
	tcase_add_test(tc, test_pause_output);
	tcase_add_test(tc, test_wakeup_events);
	tcase_add_test(tc, test_wakeup_watermark);
	tcase_add_test(tc, test_wakeup_half);
	tcase_add_test(tc, test_child_hup);
	tcase_add_test(tc, test_mmap_sizes);
}
