// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff: the access rules as an unprivileged user sees them.  A case sets
 * kernel.perf_event_paranoid for the open it makes as nobody (Debian's 3 refuses
 * nobody at every open), and the backend's answer is compared with the kernel's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "diff.h"

int knob(const char *path, const char *val, char *old, size_t len)
{
	int fd = open(path, O_RDWR), ret = -1;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = old ? read(fd, old, len - 1) : 0;
	if (n >= 0) {
		if (old)
			old[n] = 0;
		ret = pwrite(fd, val, strlen(val), 0) < 0 ? -1 : 0;
	}
	close(fd);
	return ret;
}

int open_as_nobody(const struct backend *be, struct perf_event_attr *a, int pid, int cpu,
		   const char *level)
{
	char old[16] = "";
	int pfd[2], err = -1, status = -1;
	pid_t child;

	if (knob(PARANOID, level, old, sizeof(old)))
		return -1;
	if (pipe(pfd)) {
		knob(PARANOID, old, NULL, 0);
		return -1;
	}
	child = fork();
	if (!child) {
		int fd;

		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(1);
		fd = be->open(a, pid, cpu, -1, 0);
		err = fd < 0 ? errno : 0;
		_exit(write(pfd[1], &err, sizeof(err)) == sizeof(err) ? 0 : 1);
	}
	close(pfd[1]);
	if (child < 0 || read(pfd[0], &err, sizeof(err)) != sizeof(err))
		err = -1;
	close(pfd[0]);
	if (child > 0)
		waitpid(child, &status, 0);
	knob(PARANOID, old, NULL, 0);
	return status ? -1 : err;
}
