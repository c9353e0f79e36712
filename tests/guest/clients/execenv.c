// SPDX-License-Identifier: GPL-2.0
/*
 * execenv: a perf_event_open client run by execve() with an environment of its
 * parent's making, as perf daemon runs each session's perf record (execve with
 * an empty environment, builtin-daemon.c).  Under pfm-perf the preload must
 * reach that program too, though LD_PRELOAD is not in the environment it was
 * given (libpfm-glue/preload/syscall.c).
 *
 * Runs itself twice, with no environment (envp NULL) and with one variable of
 * its own; each run opens a task-clock on itself, spins and reads it, and prints
 * "child: opened, task-clock N" or "child: perf_event_open: ERROR".  Dynamic, as
 * perf is: the preload is what answers it under `noperf pfm-perf`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

static int child(void)
{
	struct perf_event_attr a;
	unsigned long long v = 0;
	volatile unsigned long spin;
	int fd;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.exclude_kernel = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		printf("child: perf_event_open: %s\n", strerror(errno));
		return 1;
	}
	for (spin = 0; spin < 10000000; spin++)
		;
	if (read(fd, &v, sizeof(v)) != sizeof(v)) {
		printf("child: read: %s\n", strerror(errno));
		return 1;
	}
	printf("child: opened, task-clock %llu\n", v);
	return v > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	static char *const own_env[] = { "EXECENV=1", NULL };
	char *const args[] = { argv[0], "child", NULL };
	int i, st, ret = 0;

	if (argc > 1 && !strcmp(argv[1], "child"))
		return child();

	for (i = 0; i < 2; i++) {
		pid_t pid;

		fflush(stdout);
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			execve("/proc/self/exe", args, i ? own_env : NULL);
			perror("execve");
			_exit(127);
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			ret = 1;
	}
	return ret;
}
