// SPDX-License-Identifier: GPL-2.0
/*
 * ops_bench's sampling operations (ops_sample.h).  Each fault of the batch writes
 * one PERF_RECORD_SAMPLE of IP, TID and TIME (32 bytes) into a ring of 32 data
 * pages, or one default-format entry (40 bytes, the same facts and a few more)
 * into a 32-page perfmon buffer: the batch's 2000 faults fill neither, no reader
 * runs, nothing is lost, and the cost is the sample's alone.  Every buffer is
 * checked after the batch, so that a backend that samples nothing cannot look
 * cheap.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perfmon.h"
#include <perfmon/perfmon_dfl_smpl.h>
#include "bench_common.h"
#include "ops_sample.h"

#define SAMPLE_DATA_PAGES	32	/* and the buffer's pages */
#define SAMPLE_SIZE		32	/* header, IP, TID, TIME */

/* perfmon's own sampling: PMD 0 of the software PMU counts faults, period 1 */
static void dfl_open(struct sample_session *s, long psz)
{
	struct pfm_dfl_smpl_arg arg = { .buf_size = SAMPLE_DATA_PAGES * psz };
	struct pfarg_pmc pc = {
		.reg_num = PFM_SW_FIRST_PMC,
		.reg_value = PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS) | PFM_SW_PMC_OS,
	};
	struct pfarg_pmd pd = {
		.reg_num = PFM_SW_FIRST_PMD,
		.reg_value = -1ULL,
		.reg_flags = PFM_PMDFL_SMPL,
		.reg_short_reset = -1ULL,
		.reg_long_reset = -1ULL,
	};

	s->fd = pfm_create_context(PFM_FL_SMPL_FMT, PFM_DFL_SMPL_NAME, &arg, sizeof(arg));
	if (s->fd < 0)
		die("pfm_create_context with the default format");
	if (pfm_write_pmcs(s->fd, &pc, sizeof(pc)) || pfm_write_pmds(s->fd, &pd, sizeof(pd)) ||
	    pfm_load_context(s->fd, 0, gettid()))
		die("perfmon sampling setup");
	s->ring_size = SAMPLE_DATA_PAGES * psz;
	s->ring = mmap(NULL, s->ring_size, PROT_READ, MAP_SHARED, s->fd, 0);
	if (s->ring == MAP_FAILED)
		die("mmap of the sampling buffer");
	if (pfm_start(s->fd, 0))
		die("pfm_start");
}

static void dfl_close(struct sample_session *s, long min)
{
	const struct pfm_dfl_smpl_hdr *h = s->ring;

	if (pfm_stop(s->fd, 0))
		die("pfm_stop");
	if ((long)h->hdr_count < min || h->hdr_overflows) {
		fprintf(stderr, "ops_bench: %llu samples in the buffer (%llu full), not %ld\n",
			(unsigned long long)h->hdr_count,
			(unsigned long long)h->hdr_overflows, min);
		exit(1);
	}
	munmap(s->ring, s->ring_size);
	close(s->fd);
}

void sample_open(struct sample_session *s, enum sampler how)
{
	struct perf_event_attr a;
	long psz = sysconf(_SC_PAGESIZE);

	s->how = how;
	if (how == SMP_DFL) {
		dfl_open(s, psz);
		return;
	}

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.disabled = 1;
	if (how == SMP_SHIM)
		s->fd = pfm_perf_event_open(&a, 0, -1, -1, 0);
	else
		s->fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (s->fd < 0)
		die(how == SMP_SHIM ? "pfm_perf_event_open" : "perf_event_open");
	s->ring_size = (1 + SAMPLE_DATA_PAGES) * psz;
	s->ring = mmap(NULL, s->ring_size, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (s->ring == MAP_FAILED)
		die("mmap of the ring");
	if (ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0))
		die("PERF_EVENT_IOC_ENABLE");
}

void sample_close(struct sample_session *s, long min)
{
	const struct perf_event_mmap_page *pg = s->ring;
	const struct perf_event_header *h;
	const char *data = (const char *)s->ring + pg->data_offset;
	unsigned long long head, off;
	long n = 0, other = 0;

	if (s->how == SMP_DFL) {
		dfl_close(s, min);
		return;
	}
	if (ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0))
		die("PERF_EVENT_IOC_DISABLE");
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	if (head > pg->data_size) {
		fprintf(stderr, "ops_bench: the sample ring overflowed (%llu bytes)\n", head);
		exit(1);
	}
	for (off = 0; off < head; off += h->size) {
		h = (const void *)(data + off);
		if (h->size < sizeof(*h))
			break;
		if (h->type == PERF_RECORD_SAMPLE && h->size == SAMPLE_SIZE)
			n++;
		else
			other++;	/* THROTTLE, LOST: the cost would not be a sample's */
	}
	if (n < min) {
		fprintf(stderr, "ops_bench: %s: %ld samples in the ring, not %ld (and %ld other records)\n",
			s->how == SMP_SHIM ? "perfmon" : "perf", n, min, other);
		exit(1);
	}
	munmap(s->ring, s->ring_size);
	close(s->fd);
}
