// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmarks' sampling sessions (ops_sample.h).  Each sample is one
 * PERF_RECORD_SAMPLE of IP, TID and TIME (32 bytes) in a perf ring, or one
 * default-format entry (40 bytes, the same facts and a few more) in a perfmon
 * buffer.  No reader runs: the caller sizes the buffer for its batch, so that
 * nothing is lost and the cost is the samples' alone.  Every buffer is counted
 * after the batch, so that a backend that samples nothing cannot look cheap.
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

#define SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)
#define SAMPLE_SIZE	32	/* header, IP, TID, TIME */
#define OPS_DATA_PAGES	32	/* ops_bench's buffers */

/* The period of the default format, which has no frequency mode. */
static unsigned long long dfl_period(const struct sample_cfg *c)
{
	return c->freq ? 1000000000ULL / c->freq : c->period;
}

/* perfmon's own sampling: PMD 0 of the software PMU, both levels */
static void dfl_open(struct sample_session *s, const struct sample_cfg *c, long psz)
{
	unsigned long long period = dfl_period(c);
	int ev = c->event == SMP_EV_CLOCK ? PFM_SW_EV_TASK_CLOCK : PFM_SW_EV_PAGE_FAULTS;
	int flags = c->cpu >= 0 ? PFM_FL_SYSTEM_WIDE : 0;
	struct pfm_dfl_smpl_arg arg = { .buf_size = c->data_pages * psz };
	struct pfarg_pmc pc = {
		.reg_num = PFM_SW_FIRST_PMC,
		.reg_value = PFM_SW_PMC(ev) | PFM_SW_PMC_OS,
	};
	struct pfarg_pmd pd = {
		.reg_num = PFM_SW_FIRST_PMD,
		.reg_value = -period,
		.reg_flags = period ? PFM_PMDFL_SMPL : 0,
		.reg_short_reset = -period,
		.reg_long_reset = -period,
	};

	if (period)
		s->fd = pfm_create_context(flags | PFM_FL_SMPL_FMT, PFM_DFL_SMPL_NAME, &arg,
					   sizeof(arg));
	else
		s->fd = pfm_create_context(flags);
	if (s->fd < 0)
		die("pfm_create_context");
	if (pfm_write_pmcs(s->fd, &pc, sizeof(pc)) || pfm_write_pmds(s->fd, &pd, sizeof(pd)) ||
	    pfm_load_context(s->fd, 0, c->cpu >= 0 ? c->cpu : gettid()))
		die("perfmon sampling setup");
	s->ring = NULL;
	if (period) {
		s->ring_size = c->data_pages * psz;
		s->ring = mmap(NULL, s->ring_size, PROT_READ, MAP_SHARED, s->fd, 0);
		if (s->ring == MAP_FAILED)
			die("mmap of the sampling buffer");
	}
}

static void dfl_finish(struct sample_session *s, struct sample_counts *n)
{
	const struct pfm_dfl_smpl_hdr *h = s->ring;

	if (pfm_stop(s->fd, 0))
		die("pfm_stop");
	if (h) {
		n->samples = h->hdr_count;
		n->lost = h->hdr_overflows;
		munmap(s->ring, s->ring_size);
	}
	close(s->fd);
}

void sample_open_cfg(struct sample_session *s, enum sampler how, const struct sample_cfg *c)
{
	struct perf_event_attr a;
	long psz = sysconf(_SC_PAGESIZE);
	int pid = c->cpu >= 0 ? -1 : 0;

	s->how = how;
	if (how == SMP_DFL) {
		dfl_open(s, c, psz);
		return;
	}

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = c->event == SMP_EV_CLOCK ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_PAGE_FAULTS;
	a.freq = !!c->freq;
	a.sample_period = c->freq ? c->freq : c->period;
	a.sample_type = a.sample_period ? SAMPLE_TYPE : 0;
	a.disabled = 1;
	if (how == SMP_SHIM)
		s->fd = pfm_perf_event_open(&a, pid, c->cpu, -1, 0);
	else
		s->fd = syscall(SYS_perf_event_open, &a, pid, c->cpu, -1, 0);
	if (s->fd < 0)
		die(how == SMP_SHIM ? "pfm_perf_event_open" : "perf_event_open");
	s->ring = NULL;
	if (a.sample_period) {
		s->ring_size = (1 + c->data_pages) * psz;
		s->ring = mmap(NULL, s->ring_size, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
		if (s->ring == MAP_FAILED)
			die("mmap of the ring");
	}
}

void sample_start(struct sample_session *s)
{
	if (s->how == SMP_DFL ? pfm_start(s->fd, 0) : ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0))
		die("starting the sampling event");
}

/* The ring's records, none read before: no reader ran, so none wrapped. */
static void ring_count(const struct sample_session *s, struct sample_counts *n)
{
	const struct perf_event_mmap_page *pg = s->ring;
	const struct perf_event_header *h;
	const char *data = (const char *)s->ring + pg->data_offset;
	unsigned long long head, off;

	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	/* a record that did not fit was dropped, not counted anywhere we see */
	n->overflowed = head + 2 * SAMPLE_SIZE > pg->data_size;
	if (head > pg->data_size)
		return;
	for (off = 0; off < head; off += h->size) {
		h = (const void *)(data + off);
		if (h->size < sizeof(*h))
			break;
		if (h->type == PERF_RECORD_SAMPLE && h->size == SAMPLE_SIZE)
			n->samples++;
		else if (h->type == PERF_RECORD_THROTTLE)
			n->throttle++;
		else if (h->type == PERF_RECORD_LOST)
			n->lost += ((const unsigned long long *)(h + 1))[1];
		else if (h->type != PERF_RECORD_UNTHROTTLE)
			n->other++;
	}
}

void sample_finish(struct sample_session *s, struct sample_counts *n)
{
	memset(n, 0, sizeof(*n));
	if (s->how == SMP_DFL) {
		dfl_finish(s, n);
		return;
	}
	if (ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0))
		die("PERF_EVENT_IOC_DISABLE");
	if (s->ring) {
		ring_count(s, n);
		munmap(s->ring, s->ring_size);
	}
	close(s->fd);
}

void sample_open(struct sample_session *s, enum sampler how)
{
	const struct sample_cfg c = {
		.event = SMP_EV_FAULTS, .period = 1, .cpu = -1, .data_pages = OPS_DATA_PAGES,
	};

	sample_open_cfg(s, how, &c);
	sample_start(s);
}

void sample_close(struct sample_session *s, long min)
{
	static const char *const name[] = { "none", "perfmon", "perf", "perfmon's format" };
	enum sampler how = s->how;
	struct sample_counts n;

	sample_finish(s, &n);
	if (n.overflowed || n.samples < min || (how == SMP_DFL && n.lost)) {
		fprintf(stderr, "ops_bench: %s: %ld samples in the buffer, not %ld (%ld lost, "
			"%ld other records%s)\n", name[how], n.samples, min, n.lost, n.other,
			n.overflowed ? ", the ring full" : "");
		exit(1);
	}
}
