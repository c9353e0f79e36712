// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon-perf.so: perf_event_open(2) answered by perfmon, for programs that
 * were written for perf_event and are not rebuilt.
 *
 *   LD_PRELOAD=/usr/lib/x86_64-linux-gnu/perfmon/libperfmon-perf.so perf stat ...
 *                                                       (pfm-perf does this)
 *
 * glibc has no perf_event_open wrapper: perf, PAPI, stress-ng and the perf python
 * module all call syscall(SYS_perf_event_open, ...) through the PLT, so defining
 * syscall() here is the one hook they need.  The fd pfm_perf_event_open() returns
 * is a real file whose read, ioctl, mmap, poll, fcntl and close are the kernel's
 * own file operations: the libc calls the clients make on it (read, __read_chk,
 * ioctl, mmap, mmap64, poll, fcntl, fcntl64, close) reach the kernel as they are,
 * and need no interposition.
 *
 * Every other system call number goes to the kernel unchanged, by the `syscall`
 * instruction itself rather than by glibc's syscall() found with
 * dlsym(RTLD_NEXT): syscall() may be called where dlsym() may not (in a signal
 * handler, in a vfork child, before the loader has run any constructor), a
 * lookup could find a third library's hook instead of glibc's, and the raw call
 * has glibc's exact semantics in a dozen lines.
 *
 * The library does nothing at load time and holds no state until a program
 * calls perf_event_open, so it is inert in every other process that inherits
 * LD_PRELOAD (perf's forked workload, PAPI's and stress-ng's children).  It
 * also defines execve(), so that a program run with an environment of its
 * parent's making keeps the preload (below).  When no
 * perfmon answers the call (no door: the module is not loaded; or a kernel older
 * than the call) perf_event_open goes to the kernel as if the library were not
 * there, so a preloaded program never breaks.  When perfmon answers but cannot
 * serve the event (a tracepoint, a breakpoint), the event alone goes to the
 * kernel (fallback.c): its fd is the kernel's, and so are the calls on it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/magic.h>
#include <linux/perf_event.h>

#include "perfmon.h"
#include "fallback.h"

#ifndef __x86_64__
#error "the raw system call below is written for x86_64"
#endif

static long raw_syscall(long nr, long a0, long a1, long a2, long a3, long a4,
			long a5)
{
	register long r10 __asm__("r10") = a3;
	register long r8 __asm__("r8") = a4;
	register long r9 __asm__("r9") = a5;
	long ret;

	__asm__ volatile ("syscall"
			  : "=a" (ret)
			  : "a" (nr), "D" (a0), "S" (a1), "d" (a2),
			    "r" (r10), "r" (r8), "r" (r9)
			  : "rcx", "r11", "memory");
	return ret;
}

static long kernel_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			int group_fd, unsigned long flags)
{
	return raw_syscall(SYS_perf_event_open, (long)attr, pid, cpu, group_fd,
			   (long)flags, 0);
}

/*
 * The kernel's perf_event fds are anonymous inodes that answer
 * PERF_EVENT_IOC_ID; the filesystem is checked first, so that no device's
 * driver is handed an ioctl meant for another.  perfmon's events answer the
 * same: this is asked only of an fd perfmon said is not one of its events.
 */
static int kernel_event(int fd)
{
	unsigned long long id;
	struct statfs st;

	if (raw_syscall(SYS_fstatfs, fd, (long)&st, 0, 0, 0, 0) ||
	    st.f_type != ANON_INODE_FS_MAGIC)
		return 0;
	return !raw_syscall(SYS_ioctl, fd, PERF_EVENT_IOC_ID, (long)&id, 0, 0, 0);
}

static pid_t raw_getpid(void)
{
	return (pid_t)raw_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0);
}

static void say(const char *line)
{
	raw_syscall(SYS_write, 2, (long)line, (long)strlen(line), 0, 0, 0);
}

static const struct pfm_fallback_ops fallback_ops = {
	.shim_open = pfm_perf_event_open,
	.kernel_open = kernel_open,
	.kernel_event = kernel_event,
	.getpid = raw_getpid,
	.say = say,
};

static pthread_once_t shim_once = PTHREAD_ONCE_INIT;
static int shim_present;
static struct pfm_fallback fallback;

/*
 * Is there a perfmon that answers pfm_perf_event_open?  A NULL attr is EFAULT
 * from the call (<perfmon/perfmon.h>), while a door without the call says ENOSYS
 * (system call) or ENOTTY/EINVAL (unknown ioctl), and no door at all says
 * ENOENT/ENODEV.  Asking once with NULL tells them apart without creating an
 * event; afterwards every errno from the call is the shim's own answer (an
 * EINVAL or ENOENT for a bad attr must reach the client, not the kernel).
 */
static void shim_probe(void)
{
	int saved = errno;

	if (pfm_door() >= 0 &&
	    pfm_perf_event_open(NULL, 0, -1, -1, 0) < 0 && errno == EFAULT)
		shim_present = 1;
	pfm_fallback_init(&fallback, &fallback_ops);
	errno = saved;
}

long syscall(long number, ...)
{
	long a0, a1, a2, a3, a4, a5, ret;
	va_list ap;

	/*
	 * As glibc's syscall(), take six arguments whatever the number: on x86_64
	 * the unused ones are whatever the caller's registers and stack slot hold,
	 * and the kernel ignores them.
	 */
	va_start(ap, number);
	a0 = va_arg(ap, long);
	a1 = va_arg(ap, long);
	a2 = va_arg(ap, long);
	a3 = va_arg(ap, long);
	a4 = va_arg(ap, long);
	a5 = va_arg(ap, long);
	va_end(ap);

	if (number == SYS_perf_event_open) {
		pthread_once(&shim_once, shim_probe);
		/*
		 * pid, cpu and group_fd are ints passed through a variadic
		 * function: perf's upper 32 bits are garbage (-1 arrives as
		 * 4294967295), so they are truncated, as the kernel does.
		 */
		if (shim_present)
			return pfm_fallback_open(&fallback,
						 (struct perf_event_attr *)a0,
						 (int)a1, (int)a2, (int)a3,
						 (unsigned long)a4);
	}

	ret = raw_syscall(number, a0, a1, a2, a3, a4, a5);
	if ((unsigned long)ret > -4096UL) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

extern char **environ;

/*
 * A program that runs another with an environment of its own making drops
 * LD_PRELOAD, and with it this library: perf daemon runs each session's perf
 * record by execve(perf, argv, NULL), whose perf_event_open would then go to
 * the kernel (or fail, under a filter that keeps it from the kernel).  So an
 * execve() whose environment has no LD_PRELOAD, from a process that has one,
 * passes this process's LD_PRELOAD on; an environment that names its own
 * LD_PRELOAD is left as it is.  Only execve() itself: glibc's execv*() and
 * execl*() keep environ, and posix_spawn() and the other exec calls reach the
 * kernel inside glibc, where no preload sees them.
 *
 * It may run in a vfork() child, which shares the parent's memory: the new
 * environment is built on the stack, nothing is allocated, and the system call
 * is made directly.
 */
int execve(const char *path, char *const argv[], char *const envp[])
{
	static const char key[] = "LD_PRELOAD=";
	const char *mine = NULL;
	size_t n = 0, len;
	long ret;
	char **e;

	for (e = environ; e && *e; e++)
		if (!strncmp(*e, key, sizeof(key) - 1)) {
			mine = *e;
			break;
		}
	for (; envp && envp[n]; n++)
		if (!strncmp(envp[n], key, sizeof(key) - 1))
			mine = NULL;
	if (mine) {
		const char *env[n + 2];

		len = n * sizeof(*envp);
		if (len)
			memcpy(env, envp, len);
		env[n] = mine;
		env[n + 1] = NULL;
		ret = raw_syscall(SYS_execve, (long)path, (long)argv, (long)env,
				  0, 0, 0);
	} else {
		ret = raw_syscall(SYS_execve, (long)path, (long)argv, (long)envp,
				  0, 0, 0);
	}
	errno = (int)-ret;
	return -1;
}
