/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest tests' reader of perf's ring (perf_ring_util.c): maps an event's
 * ring, walks its records (copied out whole, also across the end; a record
 * that runs past data_head fails the test), moves data_tail.
 */
#ifndef PFM_TESTS_PERF_RING_UTIL_H
#define PFM_TESTS_PERF_RING_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

struct ring {
	int fd;
	struct perf_event_mmap_page *pg;
	char *data;
	uint64_t size;
	size_t map_len;
};

/* One record, copied out of the ring (it may straddle the end). */
struct rec {
	struct perf_event_header h;
	uint64_t w[64];
};

/* a disabled software event at user level; with a sampling period and fields */
void attr_sw(struct perf_event_attr *a, unsigned long long config);
void attr_smpl(struct perf_event_attr *a, unsigned long long config, uint64_t period,
	       uint64_t sample_type);
/* the one count of a plain read() */
uint64_t ck_read1(int fd);
int ck_open(struct perf_event_attr *a, pid_t pid);
void ck_map(struct ring *r, int fd, int data_pages, int prot);
void unmap(struct ring *r);
uint64_t head(const struct ring *r);
bool next_rec(const struct ring *r, uint64_t *pos, uint64_t hd, struct rec *out);
void consume(struct ring *r);
uint64_t ck_id(int fd);
/* ENABLE fds[0..nr), n fresh pages touched, DISABLE: n faults for each */
void fault_all(const int *fds, int nr, char *p, long n);
void fault_on(int fd, char *p, long n);
/*
 * Samples with ADDR first (and STREAM_ID or ID second, if id is not ANY_ID) at
 * the n pages from p, which must come in page order; others ignored.
 */
#define ANY_ID	(~0ULL)
long samples_of(const struct ring *r, uint64_t id, const char *p, long n);
/* Samples in r from pos on. */
long samples_from(const struct ring *r, uint64_t pos);
/* poll() of fd for POLLIN, no wait: the revents */
short poll_now(int fd);

#endif
