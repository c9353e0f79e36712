/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon internal: the raw call, shared by the wrappers in calls.c.
 */
#ifndef _LIBPERFMON_DOOR_H
#define _LIBPERFMON_DOOR_H

#include <errno.h>
#include <stddef.h>
#include <sys/ioctl.h>

#include "perfmon.h"

/*
 * Make call PFM_CALL_xxx with its arguments in the order of the C prototype,
 * which is also the order of the system call's arguments.  Unused arguments
 * are 0.  Returns the call's result, or -1 with errno set.
 */
long pfm_door_call(int call, unsigned long a0, unsigned long a1,
		   unsigned long a2, unsigned long a3, unsigned long a4);

/*
 * Set, with release, once the ioctl door is chosen (door.c): a vector call then
 * goes straight to its context's fd, with no pthread_once() and no look at the door.
 */
extern int pfm_door_ctx_ioctl __attribute__((visibility("hidden")));

/*
 * The rest of pfm_door_vec_call(): the door chosen if it was not yet, then the
 * call through it; tried: the context's fd was asked and said ENOTTY.
 */
long pfm_door_vec_call_door(int call, int fd, void *req, size_t size, int tried);

/*
 * A vector call, (fd, req, size): the same, by the cheapest door.  Inline, the
 * one ioctl a read of the counts makes: its wrapper is all the library adds.
 */
static inline long pfm_door_vec_call(int call, int fd, void *req, size_t size)
{
	long ret;

	if (__atomic_load_n(&pfm_door_ctx_ioctl, __ATOMIC_ACQUIRE) &&
	    size <= PFM_IOC_VEC_CTX_MAX) {
		ret = ioctl(fd, PFM_IOC_VEC_CTX(call, size), req);
		/* ENOTTY: fd is not a context; the door says what it is (EBADF) */
		if (ret >= 0 || errno != ENOTTY)
			return ret;
		return pfm_door_vec_call_door(call, fd, req, size, 1);
	}
	return pfm_door_vec_call_door(call, fd, req, size, 0);
}

#endif /* _LIBPERFMON_DOOR_H */
