// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon: the counts page's prepared reader (<perfmon/perfmon.h>, COUNTS PAGE,
 * layout_gen).
 *
 * pfm_read_mapped() checks the set and each PMD's bit in every read.  Those only
 * change with the page's layout generation, so the reader checks them once, at
 * prepare time and again only when the generation moved: a read is then the
 * sequence count, one compare and the copies.
 */
#define _GNU_SOURCE		/* sched_getcpu() (counts_rdpmc.h) */
#include <errno.h>
#include <string.h>

#include "counts.h"

/*
 * The generation moved, or a PMD may be a hardware counter's (read with rdpmc,
 * whose page entry changes at each switch): the checks again, in the snapshot
 * that reads the values
 * (into v first: a failed read leaves values as they were).  Out of line, as the
 * errors, so that the read's own path needs no stack frame.
 */
static __attribute__((noinline, cold)) int pfm_counts_recheck(struct pfm_counts_reader *r,
							      uint64_t *values)
{
	uint64_t v[PFM_COUNTS_READ_MAX];
	uint32_t gen;
	int err = pfm_counts_snapshot(r->pg, r->set, r->pmds, r->n, v, &gen);

	if (err) {
		errno = err;
		return -1;
	}
	memcpy(values, v, r->n * sizeof(v[0]));
	r->gen = gen;
	return 0;
}

static __attribute__((noinline, cold)) int pfm_counts_einval(void)
{
	errno = EINVAL;
	return -1;
}

int pfm_counts_prepare(const struct pfm_counts_page *pg, unsigned int set,
		       const unsigned int *pmds, unsigned int n, struct pfm_counts_reader *r)
{
	uint64_t v[PFM_COUNTS_READ_MAX];
	unsigned int k;
	uint32_t gen;
	int err;

	if (!pg || !pmds || !r || !n || set > PFM_MAX_SET_ID) {
		errno = EINVAL;
		return -1;
	}
	if (n > PFM_COUNTS_READ_MAX) {
		errno = E2BIG;
		return -1;
	}
	for (k = 0; k < n; k++) {
		if (pmds[k] >= PFM_MAX_PMDS) {
			errno = EINVAL;
			return -1;
		}
	}
	/* a page before version 2 keeps layout_gen 0: it would hide set switches */
	if (__atomic_load_n(&pg->version, __ATOMIC_RELAXED) < 2) {
		errno = EOPNOTSUPP;
		return -1;
	}
	err = pfm_counts_snapshot(pg, set, pmds, n, v, &gen);
	if (err) {
		errno = err;
		return -1;
	}
	r->pg = pg;
	r->gen = gen;
	r->set = (uint16_t)set;
	r->n = (uint16_t)n;
	r->hw = 0;
	for (k = 0; k < n; k++)
		r->hw |= pmds[k] < PFM_RDPMC_PMDS;
	memcpy(r->pmds, pmds, n * sizeof(pmds[0]));
	return 0;
}

int pfm_counts_read(struct pfm_counts_reader *r, uint64_t *values)
{
	const struct pfm_counts_page *pg;
	const __u64 *page_pmds;
	unsigned int seq, k, n;

	if (!r || !values || !r->pg)
		return pfm_counts_einval();
	/* a PMD that may be in a counter: pmds[] may hold its offset */
	if (r->hw)
		return pfm_counts_recheck(r, values);
	pg = r->pg;
	page_pmds = pg->pmds;
	n = r->n;
	do {
		seq = __atomic_load_n(&pg->seq, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&pg->layout_gen, __ATOMIC_RELAXED) != r->gen)
			return pfm_counts_recheck(r, values);
		/*
		 * By index, one at a time: unrolled (by hand or by GCC), the loop
		 * needs more registers and a stack frame, which cost more than
		 * unrolling saves on the few PMDs a read usually takes.
		 */
		k = 0;
		do	/* n is 1 at least */
			values[k] = __atomic_load_n(&page_pmds[r->pmds[k]], __ATOMIC_RELAXED);
		while (++k < n);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || __atomic_load_n(&pg->seq, __ATOMIC_RELAXED) != seq);
	return 0;
}
