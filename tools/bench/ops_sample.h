/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest benchmarks' sampling sessions: an event of the calling thread (or of
 * a CPU) sampling into a mapped buffer: a perf ring, through perfmon's
 * perf_event_open (pfm_perf_event_open) or the kernel's, or perfmon's own
 * default-format buffer.  ops_bench samples every page fault (sample_open());
 * smpl_bench sweeps the event, its period and the target (sample_open_cfg()).
 */
#ifndef _PFM_OPS_SAMPLE_H
#define _PFM_OPS_SAMPLE_H

#include <stddef.h>

/* SMP_NONE: no sampling (an operation of ops_bench that does not sample) */
enum sampler { SMP_NONE, SMP_SHIM, SMP_PERF, SMP_DFL };

/* what is sampled */
enum smp_event { SMP_EV_FAULTS, SMP_EV_CLOCK };

struct sample_cfg {
	enum smp_event event;
	/*
	 * Every period events (page faults, or ns of the task clock); or, if freq
	 * is not 0, freq samples a second (perf's sample_freq; the default format
	 * takes the task clock's period 1e9 / freq).  Both 0: counting only.
	 */
	unsigned long long period, freq;
	int cpu;			/* -1: the calling thread; else that CPU, pid -1 */
	unsigned int data_pages;	/* the buffer's pages: a power of 2 */
};

/* One sampling event and its buffer. */
struct sample_session {
	enum sampler how;
	int fd;
	void *ring;
	size_t ring_size;
};

/* What a buffer held when its session closed. */
struct sample_counts {
	long samples;
	long throttle;		/* PERF_RECORD_THROTTLE */
	long lost;		/* PERF_RECORD_LOST, or the default format's full buffers */
	long other;		/* any other record */
	int overflowed;		/* the ring was full: samples were dropped unseen */
};

/* Opens and maps the event, stopped; sample_start() starts it. */
void sample_open_cfg(struct sample_session *s, enum sampler how, const struct sample_cfg *c);
void sample_start(struct sample_session *s);
/* Stops the event, counts what its buffer holds, unmaps and closes. */
void sample_finish(struct sample_session *s, struct sample_counts *n);

/* ops_bench's: every page fault of the calling thread, into 32 pages, started. */
void sample_open(struct sample_session *s, enum sampler how);
/* Checks that the buffer holds at least min samples and nothing else, and closes. */
void sample_close(struct sample_session *s, long min);

#endif /* _PFM_OPS_SAMPLE_H */
