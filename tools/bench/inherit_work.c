// SPDX-License-Identifier: GPL-2.0
/*
 * The workloads of the inheritance benchmarks (inherit_work.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include <sys/wait.h>

#include "bench_common.h"
#include "inherit_work.h"

void work_children(long n, const char *prog)
{
	char *const argv[] = { (char *)prog, NULL };
	long i;
	pid_t pid;
	int st;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid) {
			if (prog)
				execv(prog, argv);
			_exit(prog ? 127 : 0);
		}
		if (waitpid(pid, &st, 0) != pid)
			die("waitpid");
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			die(prog ? prog : "child");
	}
}

static void *thread_fn(void *arg)
{
	return arg;
}

void work_threads(long n)
{
	pthread_t *t = calloc(n, sizeof(*t));
	long i;

	if (!t)
		die("calloc");
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, thread_fn, NULL))
			die("pthread_create");
	for (i = 0; i < n; i++)
		if (pthread_join(t[i], NULL))
			die("pthread_join");
	free(t);
}
