// SPDX-License-Identifier: GPL-2.0
/*
 * cputime FILE CMD [ARGS]: run CMD and write to FILE the CPU time it and its
 * waited-for descendants used, in nanoseconds (user + system from wait4()), and to
 * FILE.self the CPU time cputime itself used, fork and exec included.
 *
 * The reference for a clock event in the same run: under TCG a busy host stretches
 * a workload's CPU time by a fifth from one run to the next, so a task-clock is
 * checked against the CPU time the kernel's scheduler accounted to that very run,
 * not against another run's task-clock.  The sum user + system is the scheduler's
 * runtime (the split between the two is sampled, the sum is not).  An inherited
 * clock event of the run counts cputime's own time after its exec too, which
 * KASAN makes long enough on a debug kernel to matter: it is written apart, the
 * most that clock may count beyond CMD's time.
 *
 * Exits with CMD's status, 127 if CMD cannot be run, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long long rusage_ns(const struct rusage *ru)
{
	return (ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000000ULL +
	       (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1000ULL;
}

static int write_ns(const char *name, unsigned long long ns)
{
	FILE *f = fopen(name, "w");

	if (!f || fprintf(f, "%llu\n", ns) < 0 || fclose(f)) {
		perror(name);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct rusage ru, self;
	char name[4096];
	int status;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: cputime FILE CMD [ARGS]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("cputime: fork");
		return 2;
	}
	if (!pid) {
		execvp(argv[2], argv + 2);
		perror("cputime: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("cputime: wait4");
		return 2;
	}
	if (getrusage(RUSAGE_SELF, &self)) {
		perror("cputime: getrusage");
		return 2;
	}
	if (snprintf(name, sizeof(name), "%s.self", argv[1]) >= (int)sizeof(name)) {
		fprintf(stderr, "cputime: FILE too long\n");
		return 2;
	}
	if (write_ns(argv[1], rusage_ns(&ru)) || write_ns(name, rusage_ns(&self)))
		return 2;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
