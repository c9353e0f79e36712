// SPDX-License-Identifier: GPL-2.0
/*
 * perf_mux: perf groups spread over event sets (perf/sched.c) and sampling
 * through them; pinned groups in every set, or in perf's ERROR state.
 *
 * The guest has no hardware PMU, so a second set is forced with the layer's
 * software counters (PFM_PERF_SW_COUNTERS, 32): a sampling event takes a counter
 * of its own, so the 33rd sampling group does not fit beside the first 32 and
 * goes to a set of its own.  Every user-level fault is then counted by exactly one of the two
 * sets: the events of set 0 and the event of set 1 add up to the faults made,
 * and each one's samples are exactly its count divided by its period.  Set 1's
 * sampling event is on the same counter, so the same PMD number, as set 0's
 * first: its overflows must reach its own ring, not that one's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "util.h"
#include "perf_ring_util.h"
#include "suites.h"

#define MUX_INTERVAL	PFM_SYSFS "/perf_mux_interval_ms"
#define NR_SW		32	/* the layer's software counters */
#define PERIOD		4
#define RF_TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/*
 * A sampling page-fault event, its own group: ADDR, ID, READ {count, ena, run,
 * id}.  Not PERIOD: with it a software event samples every fault (6.1).
 */
static int open_sampler(int pinned)
{
	struct perf_event_attr a;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, PERIOD,
		  PERF_SAMPLE_ID | PERF_SAMPLE_ADDR | PERF_SAMPLE_READ);
	a.read_format = RF_TIMES | PERF_FORMAT_ID;
	a.pinned = pinned;
	return ck_open(&a, 0);
}

/*
 * Faults on n fresh pages spread over many switches (1 ms of thread time): a
 * fault, then a spin of a tenth of a millisecond.  Between the enables and the
 * disables nothing else faults (no check there: see fault_on()).
 */
static void spread_faults(const int *fd, int nr, char *p, long n)
{
	int i, bad = 0;
	long j;

	for (i = 0; i < nr; i++)
		bad |= ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0);
	for (j = 0; j < n; j++) {
		touch_pages(p + j * page_size(), 1);
		spin_until(thread_cpu_ns() + NSEC_PER_MSEC / 10);
	}
	for (i = 0; i < nr; i++)
		bad |= ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0);
	ck_assert_msg(!bad, "enable/disable: %s", strerror(errno));
}

struct smpl_sum {
	uint64_t v[4];		/* read(): count, enabled, running, id */
	long samples;
};

/*
 * fd's samples: each of its own id, its period, at a page of p in order, READ
 * carrying k * PERIOD for the k-th and times no larger than read()'s.
 */
static void ck_samples(struct ring *r, char *p, long n, struct smpl_sum *s)
{
	uint64_t pos = 0, hd = head(r), last = 0;
	struct rec rec;

	ck_assert_int_eq(read(r->fd, s->v, sizeof(s->v)), sizeof(s->v));
	s->samples = 0;
	while (next_rec(r, &pos, hd, &rec)) {
		uint64_t *w = rec.w;

		ck_assert_uint_eq(rec.h.type, PERF_RECORD_SAMPLE);
		ck_assert_uint_eq(rec.h.size, 8 + 6 * 8);
		ck_assert_uint_ge(w[0], (uintptr_t)p);			/* ADDR */
		ck_assert_uint_lt(w[0], (uintptr_t)(p + n * page_size()));
		ck_assert_uint_gt(w[0], last);
		last = w[0];
		ck_assert_uint_eq(w[1], s->v[3]);			/* ID: its own */
		s->samples++;
		ck_assert_uint_eq(w[2], s->samples * PERIOD);		/* READ: value */
		ck_assert_uint_le(w[4], w[3]);				/* running <= enabled */
		ck_assert_uint_le(w[3], s->v[1]);
		ck_assert_uint_eq(w[5], s->v[3]);
	}
	ck_assert_uint_eq(s->samples, s->v[0] / PERIOD);
}

/*
 * NR_SW sampling groups in set 0, one more in set 1 on the same counter: every
 * fault counted once across the sets, each event's samples exact for its count
 * and in its own ring, time_running its set's part of time_enabled.
 */
START_TEST(test_sampling_across_sets)
{
	const long n = 400;
	char *p = ck_fresh_pages(n);
	struct knob k = { .path = MUX_INTERVAL };
	struct smpl_sum s[NR_SW + 1];
	struct ring r[NR_SW + 1];
	int fd[NR_SW + 1], i;

	knob_save(&k);
	ck_assert_ok(sysfs_write(MUX_INTERVAL, "1\n"));
	for (i = 0; i <= NR_SW; i++) {
		fd[i] = open_sampler(0);
		ck_map(&r[i], fd[i], 8, PROT_READ | PROT_WRITE);
	}
	spread_faults(fd, NR_SW + 1, p, n);
	knob_restore(&k);
	for (i = 0; i <= NR_SW; i++)
		ck_samples(&r[i], p, n, &s[i]);
	/* set 0's events saw the same faults, set 1's the others: n in all */
	for (i = 1; i < NR_SW; i++)
		ck_assert_uint_eq(s[i].v[0], s[0].v[0]);
	ck_assert_uint_eq(s[0].v[0] + s[NR_SW].v[0], n);
	/* both sets had turns: multiplexed, each running part of the time */
	ck_assert_uint_gt(s[0].v[0], 0);
	ck_assert_uint_gt(s[NR_SW].v[0], 0);
	ck_assert_uint_lt(s[0].v[2], s[0].v[1]);
	ck_assert_uint_lt(s[NR_SW].v[2], s[NR_SW].v[1]);
	ck_assert_uint_gt(s[NR_SW].samples, 0);
	for (i = 0; i <= NR_SW; i++) {
		unmap(&r[i]);
		close(fd[i]);
	}
}
END_TEST

/*
 * A pinned counting event beside them is in every set: it counts every fault,
 * time_running == time_enabled, while the sampling groups are multiplexed.
 */
START_TEST(test_pinned_in_every_set)
{
	const long n = 200;
	char *p = ck_fresh_pages(n);
	struct knob k = { .path = MUX_INTERVAL };
	struct perf_event_attr a;
	int fd[NR_SW + 2], i;
	uint64_t v[3], c0[4], c8[4];

	knob_save(&k);
	ck_assert_ok(sysfs_write(MUX_INTERVAL, "1\n"));
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.read_format = RF_TIMES;
	a.pinned = 1;
	fd[0] = ck_open(&a, 0);
	for (i = 1; i <= NR_SW + 1; i++)
		fd[i] = open_sampler(0);
	spread_faults(fd, NR_SW + 2, p, n);
	knob_restore(&k);
	ck_assert_int_eq(read(fd[0], v, sizeof(v)), sizeof(v));
	ck_assert_int_eq(read(fd[1], c0, sizeof(c0)), sizeof(c0));
	ck_assert_int_eq(read(fd[NR_SW + 1], c8, sizeof(c8)), sizeof(c8));
	ck_assert_uint_eq(v[0], n);
	ck_assert_uint_eq(v[2], v[1]);
	ck_assert_uint_eq(c0[0] + c8[0], n);
	ck_assert_uint_lt(c0[2], c0[1]);
	for (i = 0; i <= NR_SW + 1; i++)
		close(fd[i]);
}
END_TEST

/*
 * NR_SW pinned sampling events take the software counters in every set; one
 * more fits alone but not beside them.  Opened disabled it is OFF: read() gives its
 * record.  Enabled, it cannot be scheduled: perf's ERROR state, read() gives 0
 * bytes (before the ENOSPC check, as 6.1's __perf_read()), a group read too;
 * DISABLE leaves it there; RESET and ID still work.  Once a counter is given
 * back, ENABLE schedules it and it counts.
 */
START_TEST(test_pinned_error_state)
{
	char *p = ck_fresh_pages(16);
	struct perf_event_attr a;
	uint64_t v[5], small;
	int fd[NR_SW], e, m, i;

	for (i = 0; i < NR_SW; i++)
		fd[i] = open_sampler(1);
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, PERIOD, PERF_SAMPLE_PERIOD);
	a.pinned = 1;
	a.read_format = PERF_FORMAT_GROUP | RF_TIMES;
	e = ck_open(&a, 0);
	attr_sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	m = pfm_perf_event_open(&a, 0, -1, e, 0);
	ck_assert_msg(m >= 0, "member: %s", strerror(errno));
	/* OFF, not ERROR: its record, {nr, ena, run, count, count} */
	ck_assert_int_eq(read(e, v, sizeof(v)), sizeof(v));
	ck_assert_uint_eq(v[0], 2);
	ck_assert_errno(read(e, &small, sizeof(small)), ENOSPC);
	ck_assert_ok(ioctl(e, PERF_EVENT_IOC_ENABLE, 0));
	ck_assert_int_eq(read(e, v, sizeof(v)), 0);
	ck_assert_int_eq(read(e, &small, sizeof(small)), 0);
	/* the member is not in ERROR: its own record, nothing counted */
	ck_assert_int_eq(read(m, &small, sizeof(small)), sizeof(small));
	ck_assert_uint_eq(small, 0);
	ck_assert_ok(ioctl(e, PERF_EVENT_IOC_DISABLE, 0));
	ck_assert_int_eq(read(e, v, sizeof(v)), 0);
	ck_assert_ok(ioctl(e, PERF_EVENT_IOC_RESET, 0));
	ck_assert_uint_gt(ck_id(e), 0);
	/* still no room: enabling again leaves it in ERROR */
	ck_assert_ok(ioctl(e, PERF_EVENT_IOC_ENABLE, 0));
	ck_assert_int_eq(read(e, v, sizeof(v)), 0);
	ck_assert_ok(ioctl(e, PERF_EVENT_IOC_DISABLE, 0));
	/* two counters given back: the next ENABLE schedules the group */
	close(fd[0]);
	close(fd[1]);
	fault_on(e, p, 16);
	ck_assert_int_eq(read(e, v, sizeof(v)), sizeof(v));
	ck_assert_uint_eq(v[0], 2);
	ck_assert_uint_eq(v[3], 16);
	ck_assert_uint_eq(v[2], v[1]);
	close(m);
	close(e);
	for (i = 2; i < NR_SW; i++)
		close(fd[i]);
}
END_TEST

/*
 * Opened enabled where it cannot be scheduled: in ERROR from the start.  Its
 * member, promoted when it closes, is placed as a group of its own.
 */
START_TEST(test_pinned_error_at_open)
{
	struct perf_event_attr a;
	int fd[NR_SW], e, m, i;
	uint64_t v;

	for (i = 0; i < NR_SW; i++)
		fd[i] = open_sampler(1);
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, PERIOD, PERF_SAMPLE_PERIOD);
	a.pinned = 1;
	a.disabled = 0;
	e = ck_open(&a, 0);
	ck_assert_int_eq(read(e, &v, sizeof(v)), 0);
	/* its member reads its own record; the leader closed, it counts on its own */
	attr_sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.disabled = 0;
	m = pfm_perf_event_open(&a, 0, -1, e, 0);
	ck_assert_msg(m >= 0, "member: %s", strerror(errno));
	ck_assert_int_eq(read(m, &v, sizeof(v)), sizeof(v));
	ck_assert_uint_eq(v, 0);
	close(fd[0]);
	close(e);
	spin_until(thread_cpu_ns() + 5 * NSEC_PER_MSEC);
	ck_assert_int_eq(read(m, &v, sizeof(v)), sizeof(v));
	ck_assert_uint_ge(v, 5 * NSEC_PER_MSEC);
	close(m);
	fd[0] = open_sampler(1);
	/* a flexible one fits in no set beside the pinned ones: EINVAL, unlike 6.1 */
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, PERIOD, PERF_SAMPLE_PERIOD);
	ck_assert_errno(pfm_perf_event_open(&a, 0, -1, -1, 0), EINVAL);
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	ck_assert_errno(pfm_perf_event_open(&a, 0, -1, -1, 0), EINVAL);
	/* a counter given back: it goes on */
	close(fd[0]);
	e = ck_open(&a, 0);
	ck_assert_int_eq(read(e, &v, sizeof(v)), sizeof(v));
	close(e);
	for (i = 1; i < NR_SW; i++)
		close(fd[i]);
}
END_TEST

Suite *pfm_perf_mux_suite(void)
{
	Suite *s = suite_create("perf_mux");
	TCase *tc = tcase_create("perf_mux");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_sampling_across_sets);
	tcase_add_test(tc, test_pinned_in_every_set);
	tcase_add_test(tc, test_pinned_error_state);
	tcase_add_test(tc, test_pinned_error_at_open);
	suite_add_tcase(s, tc);
	return s;
}
