// SPDX-License-Identifier: GPL-2.0
/*
 * perf_freq: sample_freq through pfm_perf_event_open(): the clocks' fixed period
 * of 1e9/freq ns, the adaptive period of other events, the maximum sample rate
 * (/sys/kernel/perfmon/perf_max_sample_rate) refusing frequencies above it and
 * throttling events that sample faster, with THROTTLE and UNTHROTTLE records;
 * PERF_EVENT_IOC_PERIOD.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "perf_ring_util.h"
#include "suites.h"

#define MAX_RATE	PFM_SYSFS "/perf_max_sample_rate"

static struct knob max_rate = { .path = MAX_RATE };

static void save_rate(void)
{
	knob_save(&max_rate);
}

static void restore_rate(void)
{
	knob_restore(&max_rate);
}

/*
 * A clock at 100 Hz: every period 10 ms (the kernel's 1e9/freq), PERIOD says so.
 * A timer that fires a period or more late (a TCG guest's clock is the host's,
 * and another guest may hold the CPU) samples once for those periods, as
 * perf's does: the thread spins on, 200 ms at a time, until ten samples came,
 * and never has more samples than periods.
 */
START_TEST(test_clock_freq)
{
	const uint64_t period = 10000000, run = 20 * period;
	struct perf_event_attr a;
	uint64_t pos = 0, hd, v = 0, spun = 0;
	struct ring r;
	struct rec rec;
	long i = 0;
	int fd;

	attr_smpl(&a, PERF_COUNT_SW_TASK_CLOCK, 0, PERF_SAMPLE_PERIOD | PERF_SAMPLE_TID);
	a.freq = 1;
	a.sample_freq = 100;
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 4, PROT_READ | PROT_WRITE);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	while (i < 10 && spun < 5 * run) {
		spin_until(thread_cpu_ns() + run);
		spun += run;
		hd = head(&r);
		while (next_rec(&r, &pos, hd, &rec)) {
			ck_assert_uint_eq(rec.h.type, PERF_RECORD_SAMPLE);
			ck_assert_uint_eq(rec.w[0] >> 32, self_tid());
			ck_assert_uint_eq(rec.w[1], period);
			i++;
		}
	}
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ck_assert_int_ge(i, 10);
	ck_assert_int_le(i, spun / period);
	ck_assert_int_eq(read(fd, &v, sizeof(v)), sizeof(v));
	printf("%s: %ld samples, task-clock %llu ns for %llu of thread time\n", __func__, i,
	       (unsigned long long)v, (unsigned long long)spun);
	/*
	 * All of the thread's time, the overflows' handling included: the
	 * core's reload keeps what the clock owes since the carry (a reload that
	 * re-stamped the clock would lose the handling's time at every overflow,
	 * more than the slack).  0.1 % for the two clocks' reading apart.
	 */
	ck_assert_uint_ge(v, spun - spun / 1000);
	unmap(&r);
	close(fd);
}
END_TEST

/*
 * Page faults at 1000 Hz: the period starts at 1 and grows while faults come
 * faster than that; the periods of the samples add up to the faults counted up
 * to the last one.
 */
START_TEST(test_fault_freq_adapts)
{
	const long n = 3000;
	char *p = ck_fresh_pages(n);
	struct perf_event_attr a;
	uint64_t pos = 0, hd, v = 0, sum = 0, first = 0, max = 0;
	struct ring r;
	struct rec rec;
	int fd;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 0, PERF_SAMPLE_PERIOD | PERF_SAMPLE_ADDR);
	a.freq = 1;
	a.sample_freq = 1000;
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 16, PROT_READ | PROT_WRITE);
	fault_on(fd, p, n);
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		ck_assert_uint_eq(rec.h.type, PERF_RECORD_SAMPLE);
		if (!first)
			first = rec.w[1];
		sum += rec.w[1];
		/* the sample is at the fault that ended its period */
		ck_assert_uint_eq(rec.w[0], (uintptr_t)(p + (sum - 1) * page_size()));
		if (rec.w[1] > max)
			max = rec.w[1];
	}
	ck_assert_int_eq(read(fd, &v, sizeof(v)), sizeof(v));
	ck_assert_uint_eq(v, n);
	ck_assert_uint_eq(first, 1);
	ck_assert_uint_gt(max, 1);
	ck_assert_uint_le(sum, n);
	unmap(&r);
	close(fd);
}
END_TEST

/* A frequency above the maximum rate is EINVAL; the knob's range is 1..INT_MAX. */
START_TEST(test_max_rate_refused)
{
	struct perf_event_attr a;
	int fd;

	ck_assert_int_eq(ck_sysfs_read_long(MAX_RATE), 100000);
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 0, PERF_SAMPLE_IP);
	a.freq = 1;
	a.sample_freq = 100001;
	ck_assert_errno(pfm_perf_event_open(&a, 0, -1, -1, 0), EINVAL);
	a.sample_freq = 100000;
	fd = ck_open(&a, 0);
	close(fd);
	ck_assert_errno(sysfs_write(MAX_RATE, "0"), EINVAL);
	ck_assert_ok(sysfs_write(MAX_RATE, "1000"));
	a.sample_freq = 1001;
	ck_assert_errno(pfm_perf_event_open(&a, 0, -1, -1, 0), EINVAL);
	/* a period is not limited at open */
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
	fd = ck_open(&a, 0);
	close(fd);
}
END_TEST

/*
 * A clock's frequency above 1 GHz, allowed once the rate knob is raised past
 * it: 1e9/freq is 0 ns, which the kernel's period would be; the shim's is 1
 * ns, the finest a period can be (a period of 0 carries at every reset, and
 * the overflow's skip of missed periods divides by it).  The clock samples,
 * throttled at the knob's rate, and counts all the thread's time.
 */
START_TEST(test_clock_freq_past_ns)
{
	const uint64_t run = 20000000;
	struct perf_event_attr a;
	uint64_t pos = 0, hd, v = 0, t1, t2, w0, w3;
	struct timespec ts;
	struct ring r;
	struct rec rec;
	long i = 0;
	int fd;

	ck_assert_ok(sysfs_write(MAX_RATE, "2000000000"));
	attr_smpl(&a, PERF_COUNT_SW_TASK_CLOCK, 0, PERF_SAMPLE_PERIOD);
	a.freq = 1;
	a.sample_freq = 1500000000;
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 4, PROT_READ | PROT_WRITE);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	w0 = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	t1 = thread_cpu_ns();
	spin_until(t1 + run);
	t2 = thread_cpu_ns();
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	w3 = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		if (rec.h.type != PERF_RECORD_SAMPLE)
			continue;
		ck_assert_uint_eq(rec.w[0], 1);
		i++;
	}
	ck_assert_int_gt(i, 0);
	ck_assert_int_eq(read(fd, &v, sizeof(v)), sizeof(v));
	/*
	 * The thread's time between the enable and the disable, the overflows'
	 * handling included: at least the spin between them, at most the time
	 * that passed from before the enable to after the disable (0.1 % for
	 * the two clocks' reading apart, as test_clock_freq).  Not the thread's
	 * CPU time around them: that leaves out the interrupts taken while it
	 * ran (IRQ time accounting), which the clock, as perf's, counts, and
	 * which a 1 ns period makes many.
	 */
	ck_assert_uint_ge(v, t2 - t1 - (t2 - t1) / 1000);
	ck_assert_uint_le(v, w3 - w0 + (w3 - w0) / 1000);
	unmap(&r);
	close(fd);
}
END_TEST

/*
 * At 1000 samples a second (4 a tick at HZ 250), a task clock sampled every 10 us
 * throttles: a THROTTLE record, no sample until the next tick, then UNTHROTTLE.
 * All of its time is still counted.
 */
START_TEST(test_throttle)
{
	const uint64_t period = 10000, run = 100000000;
	struct perf_event_attr a;
	uint64_t pos = 0, hd, v = 0, id;
	long samples = 0, thr = 0, unthr = 0;
	bool throttled = false;
	struct ring r;
	struct rec rec;
	int fd;

	ck_assert_ok(sysfs_write(MAX_RATE, "1000"));
	attr_smpl(&a, PERF_COUNT_SW_TASK_CLOCK, period, PERF_SAMPLE_TID);
	fd = ck_open(&a, 0);
	id = ck_id(fd);
	ck_map(&r, fd, 16, PROT_READ | PROT_WRITE);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	spin_until(thread_cpu_ns() + run);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		switch (rec.h.type) {
		case PERF_RECORD_SAMPLE:
			ck_assert(!throttled);
			samples++;
			break;
		case PERF_RECORD_THROTTLE:
		case PERF_RECORD_UNTHROTTLE:
			ck_assert_int_eq(throttled, rec.h.type == PERF_RECORD_UNTHROTTLE);
			throttled = !throttled;
			ck_assert_uint_eq(rec.h.size, 8 + 3 * 8);
			ck_assert_uint_gt(rec.w[0], 0);
			ck_assert_uint_eq(rec.w[1], id);
			ck_assert_uint_eq(rec.w[2], id);
			if (throttled)
				thr++;
			else
				unthr++;
			break;
		default:
			ck_abort_msg("record type %u", rec.h.type);
		}
	}
	ck_assert_int_ge(thr, 1);
	ck_assert_int_ge(unthr, thr - 1);
	ck_assert_int_lt(samples, run / period);
	/* at most 4 samples a tick: the throttled ticks took 4 each */
	ck_assert_int_ge(samples, 4 * thr);
	ck_assert_int_eq(read(fd, &v, sizeof(v)), sizeof(v));
	ck_assert_uint_ge(v, run - run / 1000);
	unmap(&r);
	close(fd);
}
END_TEST

/*
 * At the same rate, faults sampled one by one are never throttled: 6.1 throttles
 * no software event's overflow at an occurrence.  Every fault is a sample.
 */
START_TEST(test_swevent_unthrottled)
{
	const long n = 2000;
	char *p = ck_fresh_pages(n);
	struct perf_event_attr a;
	uint64_t pos = 0, hd;
	long samples = 0;
	struct ring r;
	struct rec rec;
	int fd;

	ck_assert_ok(sysfs_write(MAX_RATE, "1000"));
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 32, PROT_READ | PROT_WRITE);
	fault_on(fd, p, n);
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		ck_assert_uint_eq(rec.h.type, PERF_RECORD_SAMPLE);
		samples++;
	}
	ck_assert_int_eq(samples, n);
	ck_assert_uint_eq(ck_read1(fd), n);
	unmap(&r);
	close(fd);
}
END_TEST

/*
 * PERF_EVENT_IOC_PERIOD: the new period counts from now (the period in progress
 * is dropped, as perf restarts the event), and the count goes on.  Each sample
 * reads the count (READ): the faults up to its page.  Not PERIOD in the
 * samples: with it a software event samples every fault (6.1).
 */
START_TEST(test_ioc_period)
{
	char *p = ck_fresh_pages(16);
	struct perf_event_attr a;
	uint64_t pos = 0, hd, v;
	const uint64_t want[] = { 3, 8, 9, 10 };	/* the pages sampled */
	struct ring r;
	struct rec rec;
	unsigned int i = 0;
	int fd;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 4, PERF_SAMPLE_ADDR | PERF_SAMPLE_READ);
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 8, PROT_READ | PROT_WRITE);
	/* pages 0..5 at period 4: a sample at page 3, two faults into the next */
	fault_on(fd, p, 6);
	v = 3;
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	/* pages 6..8: a sample at page 8, three faults from the change */
	fault_on(fd, p + 6 * page_size(), 3);
	v = 1;
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	fault_on(fd, p + 9 * page_size(), 2);
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		if (rec.h.type != PERF_RECORD_SAMPLE)
			continue;
		ck_assert_uint_lt(i, 4);
		ck_assert_uint_eq(rec.w[0], (uintptr_t)(p + want[i] * page_size()));
		ck_assert_uint_eq(rec.w[1], want[i] + 1);
		i++;
	}
	ck_assert_uint_eq(i, 4);
	ck_assert_uint_eq(ck_read1(fd), 11);
	unmap(&r);
	close(fd);
}
END_TEST

/* PERIOD's refusals, each EINVAL but a bad pointer's EFAULT. */
START_TEST(test_ioc_period_errnos)
{
	struct perf_event_attr a;
	uint64_t v;
	int fd;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 4, PERF_SAMPLE_IP);
	fd = ck_open(&a, 0);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_PERIOD, NULL), EFAULT);
	v = 0;
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v), EINVAL);
	v = 1ULL << 63;
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v), EINVAL);
	close(fd);
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 0, PERF_SAMPLE_IP);
	a.freq = 1;
	a.sample_freq = 100;
	fd = ck_open(&a, 0);
	v = ck_sysfs_read_long(MAX_RATE) + 1;
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v), EINVAL);
	v = 1ULL << 63;
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v), EINVAL);
	v = 200;
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	close(fd);
}
END_TEST

/*
 * A thread's event on one CPU takes a counter of its own (the gate switches it),
 * made a sampling PMD only if the event samples: freq with sample_freq 0, or
 * PERF_SAMPLE_PERIOD without a period, is a counting event, as in perf (the
 * first of these divided by zero in the kernel).  Counted exactly, no record.
 */
START_TEST(test_gated_freq_zero)
{
	const long n = 64;
	char *p = ck_fresh_pages(n);
	struct perf_event_attr a;
	struct ring r;
	cpu_set_t set;
	uint64_t t0;
	int fd;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ck_assert_ok(sched_setaffinity(0, sizeof(set), &set));
	attr_sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.freq = 1;
	a.sample_freq = 0;
	fd = pfm_perf_event_open(&a, 0, 0, -1, 0);
	ck_assert_msg(fd >= 0, "task-clock, freq 0, on CPU 0: %s", strerror(errno));
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	t0 = thread_cpu_ns();
	spin_until(t0 + 20000000);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ck_assert_uint_ge(ck_read1(fd), 20000000 - 20000);
	close(fd);
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_type = PERF_SAMPLE_PERIOD | PERF_SAMPLE_ADDR;
	fd = pfm_perf_event_open(&a, 0, 0, -1, 0);
	ck_assert_msg(fd >= 0, "page faults, PERIOD without a period, on CPU 0: %s",
		      strerror(errno));
	ck_map(&r, fd, 4, PROT_READ | PROT_WRITE);
	fault_on(fd, p, n);
	ck_assert_uint_eq(ck_read1(fd), n);
	ck_assert_uint_eq(head(&r), 0);
	unmap(&r);
	close(fd);
}
END_TEST

/*
 * A task clock counts the thread's time on a CPU, not the time it waits for
 * one: pinned to CPU 0 with a spinning kid on CPU 0 too, the thread runs about
 * half the wall time, and its task clock, counting alone or sampling at 100 Hz,
 * is its CPU time as the kernel's thread clock gives it, within 2 %: no more
 * than the thread time around the enable and disable ioctls, no less than the
 * time between them (an enable on the debug kernel may take milliseconds).
 */
START_TEST(test_task_clock_is_thread_time)
{
	const uint64_t run = 200000000;
	struct perf_event_attr a;
	struct kid k = KID_INIT;
	uint64_t t0, t1, t0_in, t1_in, w0, w1, v = 0;
	struct timespec ts;
	struct ring r;
	int smpl, fd;

	ck_pin(0);
	k.cpu = 0;
	ck_kid_start(&k);
	ck_assert_ok(kid_order(&k, KID_SPIN));
	for (smpl = 0; smpl < 2; smpl++) {
		attr_smpl(&a, PERF_COUNT_SW_TASK_CLOCK, 0, PERF_SAMPLE_TID);
		a.freq = smpl;
		a.sample_freq = smpl ? 100 : 0;
		fd = ck_open(&a, 0);
		if (smpl)
			ck_map(&r, fd, 4, PROT_READ | PROT_WRITE);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		w0 = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
		t0 = thread_cpu_ns();
		ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		t0_in = thread_cpu_ns();
		spin_until(t0_in + run);
		t1_in = thread_cpu_ns();
		ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		t1 = thread_cpu_ns();
		clock_gettime(CLOCK_MONOTONIC, &ts);
		w1 = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
		ck_assert_int_eq(read(fd, &v, sizeof(v)), sizeof(v));
		printf("%s: %s, task-clock %llu ns, thread time %llu (%llu between the ioctls), "
		       "wall %llu\n", __func__, smpl ? "sampling" : "counting",
		       (unsigned long long)v, (unsigned long long)(t1 - t0),
		       (unsigned long long)(t1_in - t0_in), (unsigned long long)(w1 - w0));
		/* between the thread time around the ioctls and the time between them */
		ck_assert_uint_le(v, (t1 - t0) + (t1 - t0) / 50);
		ck_assert_uint_ge(v, (t1_in - t0_in) - (t1_in - t0_in) / 50);
		if (smpl)
			unmap(&r);
		close(fd);
	}
	kid_kill(&k);
	ck_pin(-1);
}
END_TEST

Suite *pfm_perf_freq_suite(void)
{
	Suite *s = suite_create("perf_freq");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	/*
	 * The knob as it was before the first test, put back before each test
	 * too: a failed test ends its process without its teardown, and would
	 * leave its value to the tests after it.
	 */
	tcase_add_unchecked_fixture(tc, save_rate, restore_rate);
	tcase_add_checked_fixture(tc, restore_rate, restore_rate);
	tcase_add_test(tc, test_clock_freq);
	tcase_add_test(tc, test_clock_freq_past_ns);
	tcase_add_test(tc, test_task_clock_is_thread_time);
	tcase_add_test(tc, test_fault_freq_adapts);
	tcase_add_test(tc, test_max_rate_refused);
	tcase_add_test(tc, test_throttle);
	tcase_add_test(tc, test_swevent_unthrottled);
	tcase_add_test(tc, test_ioc_period);
	tcase_add_test(tc, test_ioc_period_errnos);
	tcase_add_test(tc, test_gated_freq_zero);
	suite_add_tcase(s, tc);
	return s;
}
