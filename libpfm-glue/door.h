/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon internal: the raw call, shared by the wrappers in calls.c.
 */
#ifndef _LIBPERFMON_DOOR_H
#define _LIBPERFMON_DOOR_H

#include <stddef.h>

/*
 * Make call PFM_CALL_xxx with its arguments in the order of the C prototype,
 * which is also the order of the system call's arguments.  Unused arguments
 * are 0.  Returns the call's result, or -1 with errno set.
 */
long pfm_door_call(int call, unsigned long a0, unsigned long a1,
		   unsigned long a2, unsigned long a3, unsigned long a4);

/* A vector call, (fd, req, size): the same, by the cheapest door. */
long pfm_door_vec_call(int call, int fd, void *req, size_t size);

#endif /* _LIBPERFMON_DOOR_H */
