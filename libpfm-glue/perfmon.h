/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon: the perfmon calls as C functions.
 *
 * Each function is one kernel call, named and shaped like the ABI in
 * <perfmon/perfmon.h>.  It returns -1 and sets errno on error; the errno is
 * the kernel's, since the library checks nothing itself.  Whether the calls
 * go through system calls or ioctls on /dev/perfmon is chosen once per process
 * at the first call (see pfm_door()).
 */
#ifndef _LIBPERFMON_PERFMON_H
#define _LIBPERFMON_PERFMON_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <perfmon/perfmon.h>
#include <perfmon/perfmon_sw.h>
#include <perfmon/perfmon_dfl_smpl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* with PFM_FL_SMPL_FMT: (flags, char *smpl_name, void *smpl_arg, size_t smpl_arg_size) */
int pfm_create_context(int flags, ...);
int pfm_write_pmcs(int fd, struct pfarg_pmc *req, size_t size);
int pfm_write_pmds(int fd, struct pfarg_pmd *req, size_t size);
int pfm_read_pmds(int fd, struct pfarg_pmd *req, size_t size);
int pfm_load_context(int fd, int flags, int target);
int pfm_unload_context(int fd, int flags);
/* with PFM_STARTFL_SET: (fd, flags, int set_id); with PFM_STARTFL_DRAIN:
 * (fd, flags, unsigned long samples) */
int pfm_start(int fd, int flags, ...);
int pfm_stop(int fd, int flags);
int pfm_create_evtsets(int fd, struct pfarg_setdesc *req, size_t size);
int pfm_delete_evtsets(int fd, struct pfarg_setdesc *req, size_t size);
int pfm_getinfo_evtsets(int fd, struct pfarg_setinfo *req, size_t size);
/*
 * pfm_write_pmcs() of one software PMC counting a trace event (TRACEPOINT, its key
 * a tracefs id) that counts only the hits that pass filter, a trace event filter
 * (<perfmon/perfmon_sw.h>); ENOSYS without the trace layer.
 */
int pfm_write_pmc_filter(int fd, struct pfarg_pmc *req, const char *filter);

/*
 * The context's counts page (<perfmon/perfmon.h>, COUNTS PAGE), mapped read-only;
 * NULL with mmap's errno on failure.  pfm_munmap_counts() unmaps it.
 */
const struct pfm_counts_page *pfm_mmap_counts(int fd);
int pfm_munmap_counts(const struct pfm_counts_page *pg);
/*
 * values[k] = PMD pmds[k] of set, k < n, from the page, without a system call:
 * what pfm_read_pmds() returns at that point.  -1 with errno ENOENT when set is
 * not the active set, a PMD is not in the page, or a hardware PMD is live on a
 * thread other than the caller, whose counter only it can read (pfm_read_pmds()
 * reads those).
 */
int pfm_read_mapped(const struct pfm_counts_page *pg, unsigned int set,
		    const unsigned int *pmds, uint64_t *values, unsigned int n);

/*
 * The fastest read of the page: the checks of pfm_read_mapped() made once.
 * pfm_counts_prepare() checks that set is the active set and every PMD of pmds[]
 * shown, and notes the page's layout generation (COUNTS PAGE, layout_gen) in *r;
 * pfm_counts_read() then copies the n values by the noted numbers, checking only
 * that the generation is the same, into values[0..n-1]: what pfm_read_pmds()
 * returns at that point.  When the generation moved (a set switch, a write that
 * shows or hides a PMD), the read checks again and notes the new one, or fails
 * with ENOENT as pfm_read_mapped() does (and reads again once the set is back).
 * A PMD below PFM_RDPMC_PMDS (a hardware counter's, read with rdpmc while live)
 * makes every read take pfm_read_mapped()'s checked path: its page entry changes
 * at each switch, without a new generation.
 * A reader is used by one thread at a time; it holds no resource (no call ends it).
 *
 * Errors, nothing changed (neither *r nor values):
 *   pfm_counts_prepare(): EINVAL for a NULL pg, r or pmds, n 0, set above
 *   PFM_MAX_SET_ID or a PMD number of PFM_MAX_PMDS or above; E2BIG for n above
 *   PFM_COUNTS_READ_MAX; ENOENT when set is not the active set or a PMD is not
 *   shown; EOPNOTSUPP for a page of a kernel without layout_gen (version 1).
 *   pfm_counts_read(): EINVAL for a NULL r or values, or a reader never prepared
 *   (zeroed); ENOENT as above.
 */
#define PFM_COUNTS_READ_MAX	64

struct pfm_counts_reader {
	const struct pfm_counts_page *pg;
	uint32_t gen;				/* layout_gen the checks were made at */
	uint16_t set;
	uint16_t n;
	uint32_t hw;				/* a PMD below 32: may need rdpmc */
	unsigned int pmds[PFM_COUNTS_READ_MAX];
};

int pfm_counts_prepare(const struct pfm_counts_page *pg, unsigned int set,
		       const unsigned int *pmds, unsigned int n, struct pfm_counts_reader *r);
int pfm_counts_read(struct pfm_counts_reader *r, uint64_t *values);

struct perf_event_attr;
/*
 * perf_event_open(2) answered by perfmon: the same arguments, an fd that behaves
 * as a perf_event fd (<perfmon/perfmon_perf.h>, PERF_EVENT_OPEN COMPATIBILITY).
 */
int pfm_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			int group_fd, unsigned long flags);

#define PFM_DOOR_IOCTL		0	/* ioctls on /dev/perfmon (module) */
#define PFM_DOOR_SYSCALL	1	/* system calls (in-tree kernel) */

/*
 * The door the calls go through: PFM_DOOR_*, or -1 with the errno of the
 * failed open of /dev/perfmon (ENOENT: the module is not loaded).
 */
int pfm_door(void);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPERFMON_PERFMON_H */
