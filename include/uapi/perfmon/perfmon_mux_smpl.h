/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perfmon: the "mux" sampling format, a log of event set switches.
 *
 * Multiplexed counts are estimates; what an estimator needs is, for every run of a
 * set (the span from its activation to the next), when it started and ended and
 * what its counters held at both ends.  This format logs exactly that into the
 * context's mapped buffer, one record per activation, so that user space reads it
 * without a call (libperfmon's <mux.h> turns it into estimates with error bounds):
 *
 *   struct pfm_mux_smpl_arg arg = { .buf_size = ... };
 *   fd = pfm_create_context(PFM_FL_SMPL_FMT, PFM_MUX_SMPL_NAME, &arg, sizeof(arg));
 *   hdr = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
 *
 * The buffer is allocated, charged and mapped as the default format's
 * (<perfmon/perfmon_dfl_smpl.h>: locked memory, RLIMIT_MEMLOCK, ENOMEM, mmap rules).
 * pfm_create_context() fails with EINVAL for an argument size other than
 * sizeof(struct pfm_mux_smpl_arg), buf_size below PFM_MUX_SMPL_MIN_SIZE (the header
 * and the largest record), non-zero buf_flags or reserved fields.
 *
 * TIME BASE.  Times are the context's live time in ns: the sum of the live durations
 * of its sets (pfarg_setinfo.set_act_duration), which advances only while monitoring
 * is started and the monitored thread is on a CPU (a per-thread session multiplexes
 * on the thread's virtual time; a CPU session's live time is wall-clock time while
 * started).  The time the kernel spends switching is in no set's duration, nor here.
 * After pfm_stop(), the sum of all sets' set_act_duration is the live time at which
 * the active set's last run ended.
 *
 * RECORDS.  One record each time a set becomes the active one: at every set switch
 * (timeout or overflow threshold), at pfm_start() (the same set again after a stop,
 * or the one PFM_STARTFL_SET names) and at a restart that completes a switch.  A
 * lone set that times out and takes itself again is not a switch and logs nothing.
 * Each record is a struct pfm_mux_smpl_entry followed by nr_prev values (the 64-bit
 * PMDs of the set whose run ended, at its end) then nr_next values (those of the set
 * whose run begins, at its start).  The values of a set are those of the PMDs the
 * controller wrote in that set (pfm_write_pmds), in increasing register order, below
 * PFM_MAX_PMDS (the software counters past it are not logged: perfmon_sw.h): the
 * controller knows which.  A run of set S therefore begins at the record whose
 * next_set is S and ends at the following record, whose prev_set is S, or, for the
 * run under way when monitoring stopped, at the live time given above with the
 * values pfm_read_pmds() returns.
 *
 * hdr_count is raised after its record is written (read it, then a barrier, then the
 * records).  A record that does not fit is not written and counted in hdr_lost;
 * nothing else happens: monitoring goes on (size the buffer for the switches
 * expected: about 32 + 16 x (PMDs per set) bytes each).  An estimator that misses
 * records sees longer runs and gaps, never wrong ones, as long as no PMD of a set is
 * written while it is not logged.  PMDs with PFM_PMDFL_SMPL record nothing in this
 * format: at their overflows they take their short reset value.
 */
#ifndef _UAPI_PERFMON_PERFMON_MUX_SMPL_H
#define _UAPI_PERFMON_PERFMON_MUX_SMPL_H

#include <linux/types.h>

#define PFM_MUX_SMPL_NAME	"mux"
#define PFM_MUX_SMPL_VERSION	0x10000U	/* 1.0 */

struct pfm_mux_smpl_arg {
	__u64 buf_size;			/* bytes wanted (rounded up to pages) */
	__u32 buf_flags;		/* none defined: must be zero */
	__u32 reserved1;		/* must be zero */
	__u64 reserved[6];		/* must be zero */
};

struct pfm_mux_smpl_hdr {
	__u64 hdr_count;		/* records written */
	__u64 hdr_cur_offs;		/* offset of the next record from the buffer start */
	__u64 hdr_lost;			/* records that did not fit */
	__u64 hdr_buf_size;		/* bytes in the buffer, header included */
	__u32 hdr_version;		/* PFM_MUX_SMPL_VERSION */
	__u32 hdr_reserved1;
	__u64 hdr_reserved[11];
};

/* pfm_mux_smpl_entry.flags */
#define PFM_MUX_PREV		0x1	/* a run of prev_set ended here (not the first start) */
#define PFM_MUX_START		0x2	/* activation by pfm_start() or a restart */

struct pfm_mux_smpl_entry {
	__u64 live_ns;			/* the context's live time at the switch */
	__u64 next_run;			/* which run of next_set begins (1 for the first) */
	__u16 prev_set;			/* set whose run ended (with PFM_MUX_PREV) */
	__u16 next_set;			/* set whose run begins */
	__u16 nr_prev;			/* values of prev_set that follow */
	__u16 nr_next;			/* values of next_set that follow them */
	__u32 flags;			/* PFM_MUX_* */
	__u32 reserved;
};

/* The header and the largest record (every PMD of both sets). */
#define PFM_MUX_SMPL_MIN_SIZE	(sizeof(struct pfm_mux_smpl_hdr) + \
				 sizeof(struct pfm_mux_smpl_entry) + 2 * 320 /* PFM_MAX_PMDS */ * sizeof(__u64))

typedef char pfm_abi_check_mux_smpl_arg[(sizeof(struct pfm_mux_smpl_arg) == 64) ? 1 : -1];
typedef char pfm_abi_check_mux_smpl_hdr[(sizeof(struct pfm_mux_smpl_hdr) == 128) ? 1 : -1];
typedef char pfm_abi_check_mux_smpl_entry[(sizeof(struct pfm_mux_smpl_entry) == 32) ? 1 : -1];

#endif /* _UAPI_PERFMON_PERFMON_MUX_SMPL_H */
