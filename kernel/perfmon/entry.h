/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the entry table, one row per call (PFM_CALL_*), shared by both doors.
 *
 * A row is data: what kind of call it is, how its arguments are widened, how the
 * ioctl door finds them in its structure, and for a vector call the element size and
 * whether the vector goes back to the caller.  The doors only move arguments into a
 * struct pfm_args, in the order of the system call's prototype; pfm_call() does the
 * rest from the row.  The rows are made from the uapi header's list of calls
 * (PFM_CALLS), as are the system calls (syscall.c), so a new call is a line there
 * and its function, pfm_<name>(), plus its number in the kernel's system call
 * table (scripts/intree/core.patch, checked by syscall.c).
 */
#ifndef _PERFMON_ENTRY_H
#define _PERFMON_ENTRY_H

#include <linux/types.h>

struct pfm_context;

#define PFM_ENTRY_MAX_ARGS	6	/* as many as a system call has */

/* The arguments of a call, in the order of its system call; unused ones are 0. */
struct pfm_args {
	unsigned long a[PFM_ENTRY_MAX_ARGS];
};

/*
 * How an argument is widened, the same for both doors: an int is sign-extended (a
 * negative fd stays negative), a u32 zero-extended.  PFM_ARG_NONE ends the list.
 */
enum pfm_arg_type {
	PFM_ARG_NONE,
	PFM_ARG_INT,
	PFM_ARG_U32,
	PFM_ARG_ULONG,		/* a size, a pointer, a 64-bit value */
};

enum pfm_entry_kind {
	PFM_ENTRY_CALL,		/* the arguments as the row's arg types give them */
	PFM_ENTRY_VEC,		/* (fd, req, size): a vector of elem_size elements */
	PFM_ENTRY_CTL,		/* (fd, flags, arg) */
	PFM_ENTRY_CTL_FLAGS,	/* (fd, flags) */
	/*
	 * As PFM_ENTRY_CALL, with the function a layer registers
	 * (pfm_entry_register()); -ENOSYS while none is, as without the call
	 */
	PFM_ENTRY_LAYER,
};

/*
 * The structure the ioctl door copies in for a call.  The first three are the ABI of
 * the calls that have them (pfarg_ioc_create, pfarg_ioc_vec, pfarg_ioc_ctl); a new
 * call uses PFM_IOC_ARGS: one __u64 per argument, in order.
 */
enum pfm_ioc_layout {
	PFM_IOC_CREATE,
	PFM_IOC_VEC,
	PFM_IOC_CTL,
	PFM_IOC_ARGS,
};

struct pfm_entry {
	const char *name;
	enum pfm_entry_kind kind;
	enum pfm_ioc_layout ioc;
	enum pfm_arg_type args[PFM_ENTRY_MAX_ARGS];	/* in the system call's order */
	/* PFM_ENTRY_VEC only */
	u16 elem_size;
	bool copy_out;		/* the call fills the vector in for the caller */
	bool user_vec;		/* uvec rather than vec: no copy of the vector */
	union {
		long (*call)(const struct pfm_args *args);
		/* ctx->mutex held; req holds n elements, copied in */
		long (*vec)(struct pfm_context *ctx, void *req, unsigned int n);
		/*
		 * The vector left in user memory, size bytes: the call checks the size
		 * (pfm_vec_check_size()), moves only the fields it uses and takes the
		 * locks it needs itself
		 */
		long (*uvec)(struct pfm_context *ctx, void __user *uptr, u64 size);
		/* ctx->mutex held */
		long (*ctl)(struct pfm_context *ctx, u32 flags, u64 arg);
		long (*ctl_flags)(struct pfm_context *ctx, u32 flags);
	};
};

extern const struct pfm_entry pfm_entries[];

const struct pfm_entry *pfm_entry(unsigned int nr);
bool pfm_entry_served(unsigned int nr);
unsigned int pfm_entry_nargs(const struct pfm_entry *e);
long pfm_call(unsigned int nr, const struct pfm_args *args);
/*
 * A layer's function for its row (PFM_ENTRY_LAYER): registered before a door
 * opens, unregistered after the doors closed.
 */
int pfm_entry_register(unsigned int nr, long (*call)(const struct pfm_args *args));
void pfm_entry_unregister(unsigned int nr);
/* vector call e of size bytes at uptr on ctx, which the caller holds */
long pfm_vec_run(const struct pfm_entry *e, struct pfm_context *ctx, void __user *uptr,
		 u64 size);

#endif
