/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon internal: the raw call, shared by the wrappers in calls.c.
 */
#ifndef _LIBPERFMON_DOOR_H
#define _LIBPERFMON_DOOR_H

#include <errno.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "perfmon.h"

/*
 * Make call PFM_CALL_<NAME> with its arguments in the order of the C prototype,
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
 * The ioctl system call itself: its result, or -errno.  On x86-64 the syscall
 * instruction, as liburing makes its calls: glibc's ioctl() is variadic (it
 * spills a va_list and checks a stack canary, which read() does not), and a call
 * to it makes its caller save its own arguments around it; the
 * instruction keeps every register but rax, rcx and r11, so a wrapper built on
 * it needs no frame.  What interposes ioctl() (a preload, a sanitizer) does not
 * see these calls.  Elsewhere, ioctl() and errno.
 */
static inline long pfm_door_sys_ioctl(int fd, unsigned long cmd, void *arg)
{
#if defined(__x86_64__) && defined(__linux__)
	long ret;

	__asm__ volatile ("syscall"
			  : "=a" (ret)
			  : "0" ((long)SYS_ioctl), "D" ((long)fd), "S" (cmd), "d" (arg)
			  : "rcx", "r11", "memory");
	return ret;
#else
	long ret = ioctl(fd, cmd, arg);

	return ret < 0 ? -errno : ret;
#endif
}

/*
 * A vector call the context's fd refused with -err: ENOTTY (fd is not a
 * context) goes through the door, which says what fd is (EBADF); any other
 * error is the call's, in errno.
 */
long pfm_door_vec_failed(int call, int fd, void *req, size_t size, long err)
	__attribute__((visibility("hidden"), cold));

/*
 * A vector call, (fd, req, size): the same, by the cheapest door.  Inline, the
 * one system call a read of the counts makes: its wrapper is all the library adds.
 */
static inline long pfm_door_vec_call(int call, int fd, void *req, size_t size)
{
	long ret;

	if (__atomic_load_n(&pfm_door_ctx_ioctl, __ATOMIC_ACQUIRE) &&
	    size <= PFM_IOC_VEC_CTX_MAX) {
		ret = pfm_door_sys_ioctl(fd, PFM_IOC_VEC_CTX(call, size), req);
		if (__builtin_expect(ret >= 0, 1))
			return ret;
		return pfm_door_vec_failed(call, fd, req, size, ret);
	}
	return pfm_door_vec_call_door(call, fd, req, size, 0);
}

#endif /* _LIBPERFMON_DOOR_H */
