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
 * argument structure in; a read costs about half as much.  A file that is not a
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
/* door.h: a read of the counts spent a tenth of its user-level instructions there */
int pfm_door_ctx_ioctl;

static const unsigned long door_ioc[PFM_CALL_NR] = {
	[PFM_CALL_CREATE_CONTEXT]	= PFM_IOC_CREATE_CONTEXT,
	[PFM_CALL_WRITE_PMCS]		= PFM_IOC_WRITE_PMCS,
	[PFM_CALL_WRITE_PMDS]		= PFM_IOC_WRITE_PMDS,
	[PFM_CALL_READ_PMDS]		= PFM_IOC_READ_PMDS,
	[PFM_CALL_LOAD_CONTEXT]		= PFM_IOC_LOAD_CONTEXT,
	[PFM_CALL_START]		= PFM_IOC_START,
	[PFM_CALL_STOP]			= PFM_IOC_STOP,
	[PFM_CALL_CREATE_EVTSETS]	= PFM_IOC_CREATE_EVTSETS,
	[PFM_CALL_GETINFO_EVTSETS]	= PFM_IOC_GETINFO_EVTSETS,
	[PFM_CALL_DELETE_EVTSETS]	= PFM_IOC_DELETE_EVTSETS,
	[PFM_CALL_UNLOAD_CONTEXT]	= PFM_IOC_UNLOAD_CONTEXT,
	[PFM_CALL_PERF_EVENT_OPEN]	= PFM_IOC_PERF_EVENT_OPEN,
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
		struct pfarg_ioc_perf_open perf;
	} arg;

	/* reserved fields must reach the kernel as zero */
	memset(&arg, 0, sizeof(arg));

	switch (call) {
	case PFM_CALL_CREATE_CONTEXT:
		arg.create.flags = (__u32)a0;
		arg.create.smpl_name = a1;
		arg.create.smpl_arg = a2;
		arg.create.smpl_arg_size = a3;
		break;
	case PFM_CALL_WRITE_PMCS:
	case PFM_CALL_WRITE_PMDS:
	case PFM_CALL_READ_PMDS:
	case PFM_CALL_CREATE_EVTSETS:
	case PFM_CALL_GETINFO_EVTSETS:
	case PFM_CALL_DELETE_EVTSETS:
		arg.vec.fd = (__s32)a0;
		arg.vec.req = a1;
		arg.vec.size = a2;
		break;
	case PFM_CALL_LOAD_CONTEXT:
	case PFM_CALL_START:
	case PFM_CALL_STOP:
	case PFM_CALL_UNLOAD_CONTEXT:
		arg.ctl.fd = (__s32)a0;
		arg.ctl.flags = (__u32)a1;
		arg.ctl.arg = a2;
		break;
	case PFM_CALL_PERF_EVENT_OPEN:
		arg.perf.attr = a0;
		arg.perf.pid = a1;
		arg.perf.cpu = a2;
		arg.perf.group_fd = a3;
		arg.perf.flags = a4;
		break;
	default:
		/* only reachable through a bug in calls.c */
		errno = ENOSYS;
		return -1;
	}
	return ioctl(door_devfd, door_ioc[call], &arg);
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
