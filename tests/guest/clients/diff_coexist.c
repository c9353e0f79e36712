// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff's coexistence cases: a thread's events and its CPU's events at once
 * (perf stat -p beside perf record -a), the test pinned to that CPU.  On 6.1
 * software events have no counters to share: each event counts and samples as
 * it would alone.
 *
 * coexist-count: page-faults:u on the test (pid 0) and on its CPU (pid -1), both
 * enabled while the test touches fresh pages, then the thread's disabled while
 * it touches more: the thread's event reads the first pages, the CPU's both, each
 * exactly (nothing else faults at user level on that CPU, diff_cpu.c).
 *
 * coexist-sample: page faults sampled every one, by a CPU event and by an event
 * on the test, each with its ring: each ring has a sample for every fresh page,
 * the test's, and nothing else.
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diff.h"

#define BOTH_PAGES	32
#define CPU_ONLY_PAGES	16
#define RING_PAGES	16

static int test_cpu(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
}

static void read_count(struct trace *t, int fd, const char *what)
{
	unsigned long long v;

	if (do_read(t, fd, &v, sizeof(v), what) == sizeof(v))
		obs_val(t, v, 'e');
}

void case_coexist_count(const struct backend *be, struct trace *t)
{
	long psz = sysconf(_SC_PAGESIZE);
	int cpu = test_cpu(), th = -1, c = -1;
	struct perf_event_attr a;
	volatile char *p, *warm;

	p = fresh(BOTH_PAGES + CPU_ONLY_PAGES);
	warm = fresh(1);
	if (!p || !warm)
		goto out;
	pin(cpu);
	/* the touch loop's own code and stack, faulted in before the window */
	touch(warm, 0, 1);
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	th = do_open(be, t, &a, 0, -1, -1, 0, "page-faults:u on the test");
	c = do_open(be, t, &a, -1, cpu, -1, 0, "page-faults:u on its CPU, beside it");
	if (th < 0 || c < 0)
		goto out;
	do_ioctl(t, c, PERF_EVENT_IOC_ENABLE, 0, "ENABLE the CPU's");
	do_ioctl(t, th, PERF_EVENT_IOC_ENABLE, 0, "ENABLE the thread's");
	touch(p, 0, BOTH_PAGES);
	do_ioctl(t, th, PERF_EVENT_IOC_DISABLE, 0, "DISABLE the thread's");
	touch(p, BOTH_PAGES, CPU_ONLY_PAGES);
	do_ioctl(t, c, PERF_EVENT_IOC_DISABLE, 0, "DISABLE the CPU's");
	read_count(t, th, "the thread's faults");
	read_count(t, c, "the CPU's faults");
out:
	pin(-1);
	if (th >= 0)
		close(th);
	if (c >= 0)
		close(c);
	if (p)
		munmap((void *)p, (BOTH_PAGES + CPU_ONLY_PAGES) * psz);
	if (warm)
		munmap((void *)warm, psz);
}

struct coexist_walk {
	unsigned long long base;	/* the fresh pages */
	int cpu;
	unsigned long long own, other, lost, unknown;
};

/* IP, TID, ADDR, CPU, PERIOD */
static void coexist_rec(const struct perf_event_header *h, const unsigned long long *w,
			void *arg)
{
	struct coexist_walk *cw = arg;
	long psz = sysconf(_SC_PAGESIZE);
	unsigned int pid = (unsigned int)w[1], tid = (unsigned int)(w[1] >> 32);

	if (h->type == PERF_RECORD_LOST) {
		cw->lost++;
	} else if (h->type != PERF_RECORD_SAMPLE) {
		cw->unknown++;
	} else if (pid == (unsigned int)getpid() && tid == (unsigned int)gettid() &&
		   w[2] >= cw->base && w[2] < cw->base + BOTH_PAGES * psz &&
		   (unsigned int)w[3] == (unsigned int)cw->cpu && w[4] == 1) {
		cw->own++;
	} else {
		cw->other++;
	}
}

static void ring_vals(struct trace *t, const struct dring *r, unsigned long long base,
		      int cpu, const char *what)
{
	struct coexist_walk cw = { .base = base, .cpu = cpu };

	dring_walk(r, coexist_rec, &cw);
	obs_call(t, 0, 1, "%s: samples of the fresh pages, others, LOST, unknown", what);
	obs_vals(t, (unsigned long long[]){ cw.own, cw.other, cw.lost, cw.unknown }, 4,
		 "eeee");
}

void case_coexist_sample(const struct backend *be, struct trace *t)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct dring rt = { 0 }, rc = { 0 };
	int cpu = test_cpu(), th = -1, c = -1;
	struct perf_event_attr a;
	volatile char *p, *warm;

	p = fresh(BOTH_PAGES);
	warm = fresh(1);
	if (!p || !warm)
		goto out;
	pin(cpu);
	touch(warm, 0, 1);
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	c = do_open(be, t, &a, -1, cpu, -1, 0, "page-faults:u sampling on the CPU");
	th = do_open(be, t, &a, 0, -1, -1, 0, "page-faults:u sampling on the test, beside it");
	if (th < 0 || c < 0 || dring_map(t, &rc, c, RING_PAGES) ||
	    dring_map(t, &rt, th, RING_PAGES))
		goto out;
	do_ioctl(t, c, PERF_EVENT_IOC_ENABLE, 0, "ENABLE the CPU's");
	do_ioctl(t, th, PERF_EVENT_IOC_ENABLE, 0, "ENABLE the thread's");
	touch(p, 0, BOTH_PAGES);
	do_ioctl(t, th, PERF_EVENT_IOC_DISABLE, 0, "DISABLE the thread's");
	do_ioctl(t, c, PERF_EVENT_IOC_DISABLE, 0, "DISABLE the CPU's");
	ring_vals(t, &rt, (unsigned long long)p, cpu, "the thread's ring");
	ring_vals(t, &rc, (unsigned long long)p, cpu, "the CPU's ring");
out:
	pin(-1);
	if (rt.pg)
		munmap(rt.pg, rt.len);
	if (rc.pg)
		munmap(rc.pg, rc.len);
	if (th >= 0)
		close(th);
	if (c >= 0)
		close(c);
	if (p)
		munmap((void *)p, BOTH_PAGES * psz);
	if (warm)
		munmap((void *)warm, psz);
}
