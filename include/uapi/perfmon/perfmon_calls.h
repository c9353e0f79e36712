/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perfmon: the list of calls (PFM_CALLS), from which their numbers, the ioctls of
 * the /dev/perfmon door and the structures those carry are made.  Included by
 * <perfmon/perfmon.h>, whose top comment is the protocol; not to be included alone.
 */
#ifndef _UAPI_PERFMON_PERFMON_CALLS_H
#define _UAPI_PERFMON_PERFMON_CALLS_H

#include <linux/types.h>
#include <linux/ioctl.h>

/*
 * The /dev/perfmon door: one ioctl per call, issued on the /dev/perfmon fd.  The
 * return value is the call's (a new fd for PFM_IOC_CREATE_CONTEXT).
 */
struct pfarg_ioc_create {
	__u32 flags;			/* PFM_FL_* */
	__u32 reserved1;		/* must be zero */
	__u64 smpl_name;		/* PFM_FL_SMPL_FMT: pointer to the format name */
	__u64 smpl_arg;			/* PFM_FL_SMPL_FMT: pointer to its argument */
	__u64 smpl_arg_size;		/* PFM_FL_SMPL_FMT: size of the argument */
};

struct pfarg_ioc_vec {
	__s32 fd;			/* context */
	__u32 reserved1;		/* must be zero */
	__u64 req;			/* pointer to the vector */
	__u64 size;			/* its size in bytes */
};

struct pfarg_ioc_ctl {
	__s32 fd;			/* context */
	__u32 flags;			/* the call's flags */
	__u64 arg;			/* load: TID or CPU; start with PFM_STARTFL_SET: set id */
};

/*
 * Calls added after the first eleven carry one __u64 per argument, in the order of
 * their system call, with the same truncation (an int argument is the low 32 bits).
 */
struct pfarg_ioc_perf_open {
	__u64 attr;			/* pointer to the struct perf_event_attr */
	__u64 pid;			/* perf_event_open(2)'s pid (int) */
	__u64 cpu;			/* its cpu (int) */
	__u64 group_fd;			/* its group_fd (int) */
	__u64 flags;			/* its flags (PERF_FLAG_*) */
};

struct pfarg_ioc_pmc_filter {
	__u64 fd;			/* the context (int) */
	__u64 req;			/* pointer to one struct pfarg_pmc */
	__u64 filter;			/* pointer to the filter string */
};

/*
 * THE CALLS
 *
 * One line per call, in call number order:
 *
 *   X(nr, NAME, name, shape, ioc, elem, (kind, type, arg)...)
 *
 * nr is the call number: its ioctl number, and its system call's offset from the
 * first (the numbers are ABI: a line is never moved or removed, a new call goes at
 * the end).  The system call and libperfmon's function are pfm_<name>; PFM_CALL_<NAME>
 * is the number and PFM_IOC_<NAME> the ioctl of the /dev/perfmon door, which carries
 * struct <ioc>.  Then the arguments, in the order of the system call, each with how
 * both doors widen it (INT: sign-extended, as an fd; U32: zero-extended; ULONG: a size
 * or a 64-bit value; PTR: a pointer to type, a user address) and its C type.
 *
 * shape says how the call takes its arguments:
 *   CREATE		pfm_create_context's own (struct pfarg_ioc_create)
 *   VEC		(fd, req, size): a vector of elem; VEC_OUT: filled in for the
 *			caller; VEC_USER: read and written in place by the call
 *   CTL, CTL_FLAGS	(fd, flags, arg) or (fd, flags)
 *   ARGS		any arguments; ioc holds one __u64 per argument, in order, with
 *			the truncation of the system call (an int is the low 32 bits);
 *			ARGS_LAYER: the same, served by a part of perfmon that may be
 *			absent, when the call answers ENOSYS
 * elem is the vector's element (VEC shapes only; void for the others).
 *
 * A program may expand the list with its own X, as the kernel and libperfmon do.
 */
#define PFM_CALLS(X)									\
	X(0,  CREATE_CONTEXT,	create_context,	 CREATE,   pfarg_ioc_create, void,		\
	  (U32, int, flags), (PTR, const char, smpl_name), (PTR, void, smpl_arg),		\
	  (ULONG, size_t, smpl_arg_size))							\
	X(1,  WRITE_PMCS,	write_pmcs,	 VEC,	   pfarg_ioc_vec, struct pfarg_pmc,	\
	  (INT, int, fd), (PTR, void, req), (ULONG, size_t, size))				\
	X(2,  WRITE_PMDS,	write_pmds,	 VEC,	   pfarg_ioc_vec, struct pfarg_pmd,	\
	  (INT, int, fd), (PTR, void, req), (ULONG, size_t, size))				\
	X(3,  READ_PMDS,	read_pmds,	 VEC_USER, pfarg_ioc_vec, struct pfarg_pmd,	\
	  (INT, int, fd), (PTR, void, req), (ULONG, size_t, size))				\
	X(4,  LOAD_CONTEXT,	load_context,	 CTL,	   pfarg_ioc_ctl, void,			\
	  (INT, int, fd), (U32, int, flags), (ULONG, int, target))				\
	X(5,  START,		start,		 CTL,	   pfarg_ioc_ctl, void,			\
	  (INT, int, fd), (U32, int, flags), (ULONG, int, set_id))				\
	X(6,  STOP,		stop,		 CTL_FLAGS, pfarg_ioc_ctl, void,		\
	  (INT, int, fd), (U32, int, flags))							\
	X(7,  CREATE_EVTSETS,	create_evtsets,	 VEC_USER, pfarg_ioc_vec, struct pfarg_setdesc,	\
	  (INT, int, fd), (PTR, void, req), (ULONG, size_t, size))				\
	X(8,  GETINFO_EVTSETS,	getinfo_evtsets, VEC_OUT,  pfarg_ioc_vec, struct pfarg_setinfo,	\
	  (INT, int, fd), (PTR, void, req), (ULONG, size_t, size))				\
	X(9,  DELETE_EVTSETS,	delete_evtsets,	 VEC,	   pfarg_ioc_vec, struct pfarg_setdesc,	\
	  (INT, int, fd), (PTR, void, req), (ULONG, size_t, size))				\
	X(10, UNLOAD_CONTEXT,	unload_context,	 CTL_FLAGS, pfarg_ioc_ctl, void,		\
	  (INT, int, fd), (U32, int, flags))							\
	X(11, PERF_EVENT_OPEN,	perf_event_open, ARGS_LAYER, pfarg_ioc_perf_open, void,	\
	  (PTR, struct perf_event_attr, attr), (INT, pid_t, pid), (INT, int, cpu),		\
	  (INT, int, group_fd), (ULONG, unsigned long, flags))				\
	X(12, WRITE_PMC_FILTER,	write_pmc_filter, ARGS_LAYER, pfarg_ioc_pmc_filter, void,	\
	  (INT, int, fd), (PTR, struct pfarg_pmc, req), (PTR, const char, filter))

/*
 * For an X that walks a call's arguments: __PFM_ARGS_MAP(m, args...) is
 * m(kind, type, arg) for each argument, separated by commas.
 */
#define __PFM_NARGS(...)	__PFM_NARGS_(__VA_ARGS__, 6, 5, 4, 3, 2, 1, 0)
#define __PFM_NARGS_(a1, a2, a3, a4, a5, a6, n, ...)	n
#define __PFM_MAP1(m, a)	m a
#define __PFM_MAP2(m, a, ...)	m a, __PFM_MAP1(m, __VA_ARGS__)
#define __PFM_MAP3(m, a, ...)	m a, __PFM_MAP2(m, __VA_ARGS__)
#define __PFM_MAP4(m, a, ...)	m a, __PFM_MAP3(m, __VA_ARGS__)
#define __PFM_MAP5(m, a, ...)	m a, __PFM_MAP4(m, __VA_ARGS__)
#define __PFM_MAP6(m, a, ...)	m a, __PFM_MAP5(m, __VA_ARGS__)
#define __PFM_MAP(n, m, ...)	__PFM_MAP_(n, m, __VA_ARGS__)
#define __PFM_MAP_(n, m, ...)	__PFM_MAP##n(m, __VA_ARGS__)
#define __PFM_ARGS_MAP(m, ...)	__PFM_MAP(__PFM_NARGS(__VA_ARGS__), m, __VA_ARGS__)

/* Call numbers: PFM_CALL_<NAME>. */
#define __PFM_CALL_NUMBER(nr, NAME, ...)	PFM_CALL_##NAME = (nr),
enum {
	PFM_CALLS(__PFM_CALL_NUMBER)
};
#undef __PFM_CALL_NUMBER

#define __PFM_CALL_ONE(...)		+ 1
#define PFM_CALL_NR	(0 PFM_CALLS(__PFM_CALL_ONE))	/* non-ABI: grows with new calls */

#define PFM_IOC_MAGIC			'J'

/* The /dev/perfmon ioctls: PFM_IOC_<NAME>, what _IOW(PFM_IOC_MAGIC, nr, struct ioc) is. */
#define __PFM_CALL_IOC(nr, NAME, name, shape, ioc, ...) \
	PFM_IOC_##NAME = _IOC(_IOC_WRITE, PFM_IOC_MAGIC, (nr), sizeof(struct ioc)),
enum {
	PFM_CALLS(__PFM_CALL_IOC)
};
#undef __PFM_CALL_IOC

/*
 * A vector call on the context's own fd: ioctl(fd, PFM_IOC_VEC_CTX(call, size), req),
 * req the vector, size its size in bytes, at most PFM_IOC_VEC_CTX_MAX (a longer one
 * goes through the system call or /dev/perfmon).  The call's rules and errnos, from
 * the size on.  Any other command, a call that takes no vector included, is ENOTTY
 * (as the ioctl is on a file that is not a context: libperfmon then goes through
 * the other door, which gives EBADF).
 */
#define PFM_IOC_VEC_CTX(call, size)	_IOC(_IOC_READ | _IOC_WRITE, PFM_IOC_MAGIC, (call), (size))
#define PFM_IOC_VEC_CTX_MAX		_IOC_SIZEMASK

/* Every structure has a fixed size and no implicit padding (as perfmon.h's). */
#define PFM_IOC_SIZE_CHECK(type, size) \
	typedef char pfm_abi_check_##type[(sizeof(struct type) == (size)) ? 1 : -1]
PFM_IOC_SIZE_CHECK(pfarg_ioc_create, 32);
PFM_IOC_SIZE_CHECK(pfarg_ioc_vec, 24);
PFM_IOC_SIZE_CHECK(pfarg_ioc_ctl, 16);
PFM_IOC_SIZE_CHECK(pfarg_ioc_perf_open, 40);
PFM_IOC_SIZE_CHECK(pfarg_ioc_pmc_filter, 24);
#undef PFM_IOC_SIZE_CHECK

#endif /* _UAPI_PERFMON_PERFMON_CALLS_H */
