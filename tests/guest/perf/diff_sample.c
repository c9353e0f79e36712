// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff's sampling case: perf's ring, read as a program following
 * perf_event_open(2) reads it, compared record by record between the kernel and
 * the shim.  The test thread samples its own page faults, one per sample, on
 * fresh pages: the number of samples, each record's type, misc and size, its
 * pid/tid, the page its fault address is in, its period, and the count read()
 * gives are all fixed by the workload, so all are compared exactly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diff.h"

#define RING_PAGES	8	/* data pages: 64 samples of 48 bytes fit without a wrap */
#define FAULTS		64

/* The fields asked for, in the order the kernel writes them. */
struct sample {
	struct perf_event_header h;
	unsigned long long ip;
	unsigned int pid, tid;
	unsigned long long addr, period;
};

void case_sample_ring(const struct backend *be, struct trace *t)
{
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (1 + RING_PAGES) * psz;
	struct perf_event_mmap_page *pg;
	unsigned long long head, pos, count, nsamples = 0, nother = 0;
	struct perf_event_attr a;
	volatile char *buf;
	struct sample s;
	int fd, i;

	buf = mmap(NULL, FAULTS * psz, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return;
	madvise((void *)buf, FAULTS * psz, MADV_NOHUGEPAGE);
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_PERIOD;
	fd = be->open(&a, 0, -1, -1, 0);
	obs_call(t, fd, 0, "open page-faults, period 1");
	if (fd < 0)
		goto out;
	pg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	obs_call(t, pg == MAP_FAILED ? -1 : 0, 1, "mmap 1+%d pages", RING_PAGES);
	if (pg == MAP_FAILED)
		goto close;
	obs_val(t, pg->data_offset, 'e');
	obs_val(t, pg->data_size, 'e');
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 1, "ENABLE");
	for (i = 0; i < FAULTS; i++)
		buf[i * psz] = 1;
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE");
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	obs_val(t, head <= pg->data_size, 'e');
	for (pos = 0; pos + sizeof(s.h) <= head && pos < pg->data_size; pos += s.h.size) {
		memcpy(&s.h, (char *)pg + pg->data_offset + pos, sizeof(s.h));
		if (!s.h.size)
			break;
		if (s.h.type != PERF_RECORD_SAMPLE) {
			nother++;
			continue;
		}
		memcpy(&s, (char *)pg + pg->data_offset + pos,
		       s.h.size < sizeof(s) ? s.h.size : sizeof(s));
		obs_call(t, 0, 1, "sample %llu", nsamples);
		obs_val(t, s.h.misc, 'e');
		obs_val(t, s.h.size, 'e');
		obs_val(t, s.pid == (unsigned int)getpid() && s.tid == (unsigned int)gettid(),
			'e');
		obs_val(t, s.addr >= (unsigned long)buf ?
			   (s.addr - (unsigned long)buf) / psz : ~0ULL, 'e');
		obs_val(t, s.period, 'e');
		nsamples++;
	}
	obs_call(t, 0, 1, "records");
	obs_val(t, nsamples, 'e');
	obs_val(t, nother, 'e');
	if (read(fd, &count, sizeof(count)) == sizeof(count))
		obs_val(t, count, 'e');
	munmap(pg, len);
close:
	close(fd);
out:
	munmap((void *)buf, FAULTS * psz);
}
