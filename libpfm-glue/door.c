// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon: how a call reaches the kernel.
 *
 * Two doors lead to the same calls: system calls, when the kernel has perfmon
 * built in and publishes the first call number in /sys/kernel/perfmon/syscall,
 * or one ioctl per call on /dev/perfmon when perfmon is a module.  The door is
 * chosen once per process, at the first call: a running kernel does not grow
 * system calls, and opening /dev/perfmon once spares an open() per call (which
 * would also show up in the software PMU's syscall counts).
 *
 * With /dev/perfmon, a vector call goes to the context's own ioctl instead
 * (PFM_IOC_VEC_CTX): the kernel then looks up one file, not two, and copies no
 * argument structure in, which is much of a short call's cost.  A file that is not a
 * context refuses that ioctl with ENOTTY, and the call is made again through
 * /dev/perfmon, whose answer (EBADF) is the call's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perfmon.h"
#include "door.h"

#define PFM_SYSCALL_FILE	"/sys/kernel/perfmon/syscall"
#define PFM_DEVICE		"/dev/perfmon"

static pthread_once_t door_once = PTHREAD_ONCE_INIT;
static long door_sysbase;	/* > 0: the syscall door, first call number */
static int door_devfd = -1;	/* else the ioctl door, when it could be opened */
static int door_errno;		/* else why it could not */
/* door.h: spares every read of the counts the pthread_once() and the door's look */
int pfm_door_ctx_ioctl;

/* How a call's ioctl structure holds its arguments (<perfmon/perfmon_calls.h>, THE CALLS). */
enum door_layout {
	DOOR_NONE,		/* no such call: a bug in calls.c */
	DOOR_CREATE,		/* struct pfarg_ioc_create */
	DOOR_VEC,		/* struct pfarg_ioc_vec */
	DOOR_CTL,		/* struct pfarg_ioc_ctl */
	DOOR_ARGS,		/* one __u64 per argument */
};

#define DOOR_LAYOUT_CREATE	DOOR_CREATE
#define DOOR_LAYOUT_VEC		DOOR_VEC
#define DOOR_LAYOUT_VEC_OUT	DOOR_VEC
#define DOOR_LAYOUT_VEC_USER	DOOR_VEC
#define DOOR_LAYOUT_CTL		DOOR_CTL
#define DOOR_LAYOUT_CTL_FLAGS	DOOR_CTL
#define DOOR_LAYOUT_ARGS	DOOR_ARGS
#define DOOR_LAYOUT_ARGS_LAYER	DOOR_ARGS

static const struct door_call {
	unsigned long ioc;
	enum door_layout layout;
} door_calls[PFM_CALL_NR] = {
#define DOOR_CALL(nr, NAME, name, shape, ...) \
	[PFM_CALL_##NAME] = { PFM_IOC_##NAME, DOOR_LAYOUT_##shape },
	PFM_CALLS(DOOR_CALL)
#undef DOOR_CALL
};

/* The first syscall number, or 0 when the file is absent or unusable. */
static long door_read_sysbase(void)
{
	char buf[32], *end;
	ssize_t n;
	long nr;
	int fd;

	fd = open(PFM_SYSCALL_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';

	errno = 0;
	nr = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || nr <= 0)
		return 0;
	return nr;
}

static void door_init(void)
{
	/* choosing the door is invisible to the caller, errno included */
	int saved = errno;

	door_sysbase = door_read_sysbase();
	if (!door_sysbase) {
		/*
		 * O_CLOEXEC: a program we exec has its own libperfmon, and a
		 * stray /dev/perfmon fd would only leak into it.
		 */
		door_devfd = open(PFM_DEVICE, O_RDWR | O_CLOEXEC);
		if (door_devfd < 0)
			door_errno = errno;
		else
			__atomic_store_n(&pfm_door_ctx_ioctl, 1, __ATOMIC_RELEASE);
	}
	errno = saved;
}

int pfm_door(void)
{
	pthread_once(&door_once, door_init);
	if (door_sysbase)
		return PFM_DOOR_SYSCALL;
	if (door_devfd >= 0)
		return PFM_DOOR_IOCTL;
	errno = door_errno;
	return -1;
}

/* Pack the prototype-ordered arguments into the call's pfarg_ioc_* structure. */
static long door_ioctl(int call, unsigned long a0, unsigned long a1,
		       unsigned long a2, unsigned long a3, unsigned long a4)
{
	union {
		struct pfarg_ioc_create create;
		struct pfarg_ioc_vec vec;
		struct pfarg_ioc_ctl ctl;
		__u64 args[5];
	} arg;
	enum door_layout layout = DOOR_NONE;

	/* reserved fields must reach the kernel as zero */
	memset(&arg, 0, sizeof(arg));

	if (call >= 0 && call < PFM_CALL_NR)
		layout = door_calls[call].layout;
	switch (layout) {
	case DOOR_CREATE:
		arg.create.flags = (__u32)a0;
		arg.create.smpl_name = a1;
		arg.create.smpl_arg = a2;
		arg.create.smpl_arg_size = a3;
		break;
	case DOOR_VEC:
		arg.vec.fd = (__s32)a0;
		arg.vec.req = a1;
		arg.vec.size = a2;
		break;
	case DOOR_CTL:
		arg.ctl.fd = (__s32)a0;
		arg.ctl.flags = (__u32)a1;
		arg.ctl.arg = a2;
		break;
	case DOOR_ARGS:
		/* the ioctl's size says how many the kernel reads */
		arg.args[0] = a0;
		arg.args[1] = a1;
		arg.args[2] = a2;
		arg.args[3] = a3;
		arg.args[4] = a4;
		break;
	default:
		/* only reachable through a bug in calls.c */
		errno = ENOSYS;
		return -1;
	}
	return ioctl(door_devfd, door_calls[call].ioc, &arg);
}

long pfm_door_call(int call, unsigned long a0, unsigned long a1,
		   unsigned long a2, unsigned long a3, unsigned long a4)
{
	int door = pfm_door();

	if (door < 0)
		return -1;
	if (door == PFM_DOOR_SYSCALL)
		return syscall(door_sysbase + call, a0, a1, a2, a3, a4);
	return door_ioctl(call, a0, a1, a2, a3, a4);
}

long pfm_door_vec_failed(int call, int fd, void *req, size_t size, long err)
{
	if (err == -ENOTTY)
		return pfm_door_vec_call_door(call, fd, req, size, 1);
	errno = (int)-err;
	return -1;
}

long pfm_door_vec_call_door(int call, int fd, void *req, size_t size, int tried)
{
	/* a first call: the door chosen now, and the context's fd is tried if it is ioctl's */
	if (!tried && pfm_door() == PFM_DOOR_IOCTL && size <= PFM_IOC_VEC_CTX_MAX)
		return pfm_door_vec_call(call, fd, req, size);
	return pfm_door_call(call, (unsigned long)(long)fd, (unsigned long)(uintptr_t)req,
			     size, 0, 0);
}
