// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon: reading counts from the context's counts page, without a system call
 * (<perfmon/perfmon.h>, COUNTS PAGE).
 *
 * The kernel writes the page under a sequence count, odd while it writes: a read
 * takes a snapshot between two equal, even values of it, and retries otherwise.
 * Whether the set is the active one and each PMD is shown are part of the
 * snapshot, so a set switch during the read cannot mix two sets.  A hardware PMD
 * live on the monitored thread adds its counter (counts_rdpmc.h).
 */
#define _GNU_SOURCE		/* sched_getcpu() */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "counts.h"

const struct pfm_counts_page *pfm_mmap_counts(int fd)
{
	void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd,
		       (off_t)PFM_MMAP_COUNTS_OFFSET);

	return p == MAP_FAILED ? NULL : p;
}

int pfm_munmap_counts(const struct pfm_counts_page *pg)
{
	return munmap((void *)pg, (size_t)sysconf(_SC_PAGESIZE));
}

int pfm_read_mapped(const struct pfm_counts_page *pg, unsigned int set,
		    const unsigned int *pmds, uint64_t *values, unsigned int n)
{
	int err = pfm_counts_snapshot(pg, set, pmds, n, values, NULL);

	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
