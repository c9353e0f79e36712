// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon -n (pfmon.h): the command run without a context, timed from its exec
 * to its end, as perf stat --null times it; print.c prints the elapsed, user
 * and system times alone.  The command is started as for the kernel's
 * inheritance (spawn.c), so that its failure to exec is told the same way.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pfmon.h"

void null_run(struct pfmon_result *res)
{
	int errpipe[2], go, err;
	uint64_t start;
	pid_t child;

	res->count = calloc(1, sizeof(*res->count));
	if (!res->count)
		pfmon_fail("calloc", ENOMEM, -1);
	if (pipe2(errpipe, O_CLOEXEC))
		pfmon_fail("pipe2", errno, -1);
	go = spawn_untraced(errpipe, &child);
	start = now_ns();
	if (write(go, "g", 1) != 1)
		pfmon_fail("write", errno, -1);
	close(go);
	while (wait4(child, &res->status, 0, &res->ru) < 0)
		if (errno != EINTR)
			pfmon_fail("wait4", errno, -1);
	res->elapsed_ns = now_ns() - start;
	res->have_ru = 1;
	if (read(errpipe[0], &err, sizeof(err)) == sizeof(err)) {
		fprintf(stderr, "pfmon: %s: %s\n", opts.argv[0], strerror(err));
		res->exec_failed = 1;
	}
	close(errpipe[0]);
}
