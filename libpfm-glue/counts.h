/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon internal: the counts page's checked snapshot, shared by
 * pfm_read_mapped() (counts.c) and the prepared reader (counts_reader.c).
 */
#ifndef _LIBPERFMON_COUNTS_H
#define _LIBPERFMON_COUNTS_H

#include <errno.h>
#include <stdint.h>

#include "perfmon.h"
#include "counts_rdpmc.h"

static inline int pfm_counts_shown(const struct pfm_counts_page *pg, unsigned int pmd)
{
	return pmd < PFM_MAX_PMDS &&
	       (__atomic_load_n(&pg->mapped_pmds[pmd / 64], __ATOMIC_RELAXED) >> (pmd % 64)) & 1;
}

/*
 * One consistent snapshot of the page (the sequence count, uapi COUNTS PAGE): 0 if
 * set is the page's and each of pmds[0..n-1] shown, with their values in values[]
 * and the layout generation in *gen (gen may be NULL); else ENOENT, values[] partly written.
 * A hardware PMD live on the monitored thread adds its counter (counts_rdpmc.h);
 * a reader on another CPU gets ENOENT for it.
 * Inline: pfm_read_mapped() is this alone, and a call would add to every read.
 */
static inline int pfm_counts_snapshot(const struct pfm_counts_page *pg, unsigned int set,
				      const unsigned int *pmds, unsigned int n,
				      uint64_t *values, uint32_t *gen)
{
	unsigned int seq, k;
	int err, cpu;

	do {
		seq = __atomic_load_n(&pg->seq, __ATOMIC_ACQUIRE);
		if (seq & 1)
			continue;
		if (gen)
			*gen = __atomic_load_n(&pg->layout_gen, __ATOMIC_RELAXED);
		err = __atomic_load_n(&pg->set_id, __ATOMIC_RELAXED) == set ? 0 : ENOENT;
		cpu = PFM_COUNTS_CPU_UNKNOWN;
		for (k = 0; !err && k < n; k++) {
			if (!pfm_counts_shown(pg, pmds[k])) {
				err = ENOENT;
				break;
			}
			values[k] = __atomic_load_n(&pg->pmds[pmds[k]], __ATOMIC_RELAXED);
			if (pfm_counts_add_rdpmc(pg, pmds[k], &values[k], &cpu))
				err = ENOENT;
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || __atomic_load_n(&pg->seq, __ATOMIC_RELAXED) != seq);
	return err;
}

#endif /* _LIBPERFMON_COUNTS_H */
