/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perfmon: the "default" sampling format.
 *
 * A context gets a sampling buffer when it is created with PFM_FL_SMPL_FMT:
 *
 *   struct pfm_dfl_smpl_arg arg = { .buf_size = ... };
 *   fd = pfm_create_context(PFM_FL_SMPL_FMT, PFM_DFL_SMPL_NAME, &arg, sizeof(arg));
 *   hdr = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
 *
 * The buffer is buf_size bytes rounded up to whole pages, zeroed, then given the
 * header below.  It is locked memory: its pages are charged to the creating user's
 * locked memory (the locked_vm that io_uring and RDMA registrations also use) and
 * must fit in RLIMIT_MEMLOCK with what the user has locked already, unless the
 * caller has CAP_IPC_LOCK; all sampling buffers together must also fit in
 * /sys/kernel/perfmon/smpl_buffer_mem_max.  Either limit gives ENOMEM.  The charge
 * is returned when the buffer is freed, at the last close of the context fd (a
 * mapping keeps the fd's file open).
 *
 * pfm_create_context() with PFM_FL_SMPL_FMT fails with
 *   EFAULT   the name or the argument cannot be read
 *   EINVAL   unknown format name (or no NUL in PFM_SMPL_NAME_MAX bytes), an argument
 *            size other than the format's, buf_size too small for the header and
 *            one sample, unknown buf_flags, non-zero reserved fields
 *   ENOMEM   over a locked-memory limit, or no memory
 *
 * mmap() of the fd maps the buffer read-only from offset 0, at most its size:
 * EACCES for a writable mapping, EINVAL for another offset or a larger size,
 * ENODEV if the context has no buffer.
 *
 * Samples: a PMD written with PFM_PMDFL_SMPL (EINVAL in a context without a format)
 * records one at each of its 64-bit overflows, then takes its short reset value.
 * Each entry is a struct pfm_dfl_smpl_entry followed by the values, at that moment,
 * of the PMDs named in the PMD's reg_smpl_pmds, in increasing register order; entries
 * follow the header from hdr_cur_offs 128 on, and hdr_count is raised after the
 * entry is written (read it, then a barrier, then the entries).  When less than
 * hdr_min_buf_space bytes are left after a sample, the buffer is full: monitoring is
 * masked and the controller notified as for PFM_PMDFL_OVFL_NOTIFY (perfmon.h), and
 * pfm_start(PFM_STARTFL_RESTART) empties the buffer (hdr_count 0, hdr_cur_offs 128)
 * and resumes.  A PMD with both PFM_PMDFL_SMPL and PFM_PMDFL_OVFL_NOTIFY notifies
 * after every sample; every restart empties the buffer.  A sample that does not fit
 * (possible only when the buffer was not emptied) is counted in hdr_overflows.
 * Each entry's size gives the offset of the next from it.
 *
 * Shared buffer (PFM_FL_INHERIT, perfmon.h INHERITANCE): the opened thread and
 * its inheritors write entries (each with its own pid, tgid and PMD values), and
 * nobody is masked when it fills: a sample that does not fit is dropped and
 * hdr_overflows counts every one (the samples made are hdr_count plus
 * hdr_overflows, plus what earlier drains took).  The first fill after a drain
 * queues one PFM_MSG_OVFL on the context.  Writers go on while the reader
 * reads, so a restart does not empty the buffer: the reader reads hdr_count
 * (then a barrier), takes those entries and hands them back with
 *   pfm_start(fd, PFM_STARTFL_RESTART | PFM_STARTFL_DRAIN, n)
 * which removes the first n entries and moves the later ones up to offset 128
 * (hdr_count and hdr_cur_offs lowered; EINVAL with n above hdr_count).  Read no
 * entry during the call, and none of a previous reading after it.
 */
#ifndef _UAPI_PERFMON_PERFMON_DFL_SMPL_H
#define _UAPI_PERFMON_PERFMON_DFL_SMPL_H

#include <linux/types.h>

#define PFM_DFL_SMPL_NAME	"default"
#define PFM_DFL_SMPL_VERSION	0x10000U	/* 1.0 */

struct pfm_dfl_smpl_arg {
	__u64 buf_size;			/* bytes wanted (rounded up to pages) */
	__u32 buf_flags;		/* none defined: must be zero */
	__u32 reserved1;		/* must be zero */
	__u64 reserved[6];		/* must be zero */
};

struct pfm_dfl_smpl_hdr {
	__u64 hdr_count;		/* valid entries */
	__u64 hdr_cur_offs;		/* offset of the next entry from the buffer start */
	__u64 hdr_overflows;		/* samples dropped: they did not fit */
	__u64 hdr_buf_size;		/* bytes in the buffer, header included */
	__u64 hdr_min_buf_space;	/* room an entry needs at most */
	__u32 hdr_version;		/* PFM_DFL_SMPL_VERSION */
	__u32 hdr_buf_flags;		/* buf_flags as given */
	__u64 hdr_reserved[10];
};

struct pfm_dfl_smpl_entry {
	__u32 pid;			/* thread id */
	__u16 ovfl_pmd;			/* PMD that overflowed */
	__u16 size;			/* bytes of the entry and its values: the
					 * next one's offset from this one */
	__u64 last_reset_val;		/* value the PMD was last reset to, 0 before
					 * its first reset: minus the sampling period
					 */
	__u64 ip;			/* the thread's user-mode instruction pointer */
	__u64 tstamp;			/* ns, CLOCK_MONOTONIC */
	__u16 cpu;			/* CPU of the overflow */
	__u16 set;			/* active event set */
	__u32 tgid;			/* process id */
};

typedef char pfm_abi_check_dfl_smpl_arg[(sizeof(struct pfm_dfl_smpl_arg) == 64) ? 1 : -1];
typedef char pfm_abi_check_dfl_smpl_hdr[(sizeof(struct pfm_dfl_smpl_hdr) == 128) ? 1 : -1];
typedef char pfm_abi_check_dfl_smpl_entry[(sizeof(struct pfm_dfl_smpl_entry) == 40) ? 1 : -1];

#endif /* _UAPI_PERFMON_PERFMON_DFL_SMPL_H */
