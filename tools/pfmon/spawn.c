// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: the command's process (pfmon.h), started under ptrace or without it.
 *
 * Either way the command must not run a user instruction of its own before its
 * context counts: under ptrace it stops at a SIGSTOP it sends itself before the
 * exec; without, it waits in read() on a pipe that pfmon writes once the context
 * is attached and started.  Its failure to exec comes back through errfd, so that
 * no counts are printed for a command that never ran.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pfmon.h"

/* In the command's child, ready: the exec, or why it failed on errfd. */
static void __attribute__((noreturn)) command_exec(int errfd, int ready)
{
	int err;

	if (ready)
		execvp(opts.argv[0], opts.argv);
	err = errno;
	/* if the parent cannot hear it, it sees no report and an exit 127 */
	if (write(errfd, &err, sizeof(err)) < 0)
		_exit(126);
	_exit(127);
}

static pid_t command_fork(void)
{
	pid_t child = fork();

	if (child < 0)
		pfmon_fail("fork", errno, -1);
	return child;
}

int spawn_traced(int errfd_pair[2], pid_t *child)
{
	int st;

	*child = command_fork();
	if (!*child) {
		close(errfd_pair[0]);
		command_exec(errfd_pair[1], !ptrace(PTRACE_TRACEME, 0, 0, 0) && !raise(SIGSTOP));
	}
	close(errfd_pair[1]);
	while (waitpid(*child, &st, __WALL) < 0)
		if (errno != EINTR)
			pfmon_fail("waitpid", errno, -1);
	/* not stopped: it failed, and the caller reads why */
	return WIFSTOPPED(st);
}

/*
 * Waits until the child is asleep in read() of fd, for up to 10 s: the system
 * calls it makes before it are not the command's, and a context started while
 * it still makes them would count some of them, as the race goes.
 */
static void wait_child_read(pid_t child, int fd)
{
	struct timespec ts = { 0, 100000 };
	char path[64], buf[64];
	long nr, arg;
	int i, f, n;

	snprintf(path, sizeof(path), "/proc/%d/syscall", child);
	for (i = 0; i < 100000; i++) {
		f = open(path, O_RDONLY | O_CLOEXEC);
		if (f < 0)
			return;
		n = read(f, buf, sizeof(buf) - 1);
		close(f);
		if (n <= 0)
			return;
		buf[n] = '\0';
		if (sscanf(buf, "%ld %lx", &nr, &arg) == 2 && nr == SYS_read && arg == fd)
			return;
		nanosleep(&ts, NULL);
	}
}

/*
 * The command for the kernel's inheritance: no ptrace at all.  The child waits
 * in read() on go until its context is attached and started (the attach takes
 * effect as it returns to user mode), then execs; pfmon's exit before that ends
 * the wait with nothing read, and the child with it.  Returns go's write end.
 */
int spawn_untraced(int errfd_pair[2], pid_t *child)
{
	int go[2];
	char c;

	if (pipe2(go, O_CLOEXEC))
		pfmon_fail("pipe2", errno, -1);
	*child = command_fork();
	if (!*child) {
		close(errfd_pair[0]);
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);	/* pfmon is gone */
		command_exec(errfd_pair[1], 1);
	}
	close(errfd_pair[1]);
	wait_child_read(*child, go[0]);
	close(go[0]);
	return go[1];
}
