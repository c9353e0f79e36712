// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: a process's threads in /proc and its pidfd, for -p (pfmon.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pfmon.h"

/* The list of process pid's threads, or NULL; fatal: its absence ends pfmon. */
DIR *task_dir(int pid, int fatal)
{
	char path[64];
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (dir || !fatal)
		return dir;
	/* no /proc/PID: no such process, as kill(2) would say */
	fprintf(stderr, "pfmon: process %d: %s\n", pid, strerror(errno == ENOENT ? ESRCH : errno));
	exit(1);
}

/* The next thread of a task list, or 0 at its end. */
pid_t next_task(DIR *dir)
{
	struct dirent *d;

	while ((d = readdir(dir)))
		if (d->d_name[0] != '.')
			return atol(d->d_name);
	return 0;
}


/*
 * A pidfd of process pid, readable once every thread of it has ended (its
 * leader may be a zombie that /proc still lists), or -1.
 */
int process_fd(int pid)
{
	int fd = syscall(SYS_pidfd_open, pid, 0);
	char path[64], line[64];
	long tgid = -1;
	FILE *f;

	if (fd >= 0 || errno != EINVAL)
		return fd;
	/* a thread's id: its process's */
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %ld", &tgid) == 1)
			break;
	if (f)
		fclose(f);
	return tgid > 0 ? syscall(SYS_pidfd_open, tgid, 0) : -1;
}
