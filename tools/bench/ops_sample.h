/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ops_bench's sampling operations: a page fault taken while a page-fault event
 * samples every one (sample_period 1) into a mapped buffer: a perf ring, through
 * perfmon's perf_event_open (pfm_perf_event_open) or the kernel's, or perfmon's
 * own default-format buffer.
 */
#ifndef _PFM_OPS_SAMPLE_H
#define _PFM_OPS_SAMPLE_H

#include <stddef.h>

/* SMP_NONE: no sampling (an operation of ops_bench that does not sample) */
enum sampler { SMP_NONE, SMP_SHIM, SMP_PERF, SMP_DFL };

/* One sampling event of the calling thread and its buffer. */
struct sample_session {
	enum sampler how;
	int fd;
	void *ring;
	size_t ring_size;
};

/* Opens and maps the event, started. */
void sample_open(struct sample_session *s, enum sampler how);
/* Checks that the buffer holds at least min samples, unmaps and closes. */
void sample_close(struct sample_session *s, long min);

#endif /* _PFM_OPS_SAMPLE_H */
