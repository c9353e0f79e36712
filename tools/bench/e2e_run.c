// SPDX-License-Identifier: GPL-2.0
/*
 * e2e_bench: running one command of a comparison and timing it (e2e.h).
 *
 * The shim's runs are made as perf-clients.sh makes them (PFM_PERF_FALLBACK=0,
 * the preload, the kernel's perf_event_open answering ENOSYS under a seccomp
 * filter), so that nothing reaches the kernel's perf_events unseen; but set up
 * here, in the forked child, rather than by `env`, `noperf` and the pfm-perf
 * script, whose own three execs would be charged to the shim.  A filter sends
 * every system call of the process through the kernel's seccomp path, so the
 * native runs get a filter of the same shape that blocks a call nobody makes:
 * both sides pay the same for it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "bench_common.h"
#include "e2e.h"

unsigned int e2e_settle_ms = 1500;

/* afs_syscall: never implemented, nothing calls it */
#define E2E_UNUSED_NR	183

static int e2e_filter(int nr)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void child(char *const argv[], enum e2e_how how, const char *log)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		_exit(126);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	if (how == E2E_SHIM) {
		setenv("PFM_PERF_FALLBACK", "0", 1);
		setenv("LD_PRELOAD", E2E_PRELOAD, 1);
	}
	if (how != E2E_PLAIN &&
	    e2e_filter(how == E2E_SHIM ? SYS_perf_event_open : E2E_UNUSED_NR)) {
		perror("e2e_bench: seccomp");
		_exit(126);
	}
	execvp(argv[0], argv);
	perror(argv[0]);
	_exit(127);
}

double e2e_run(char *const argv[], enum e2e_how how, const char *log)
{
	double t0, t1;
	pid_t pid;
	int st;

	if (e2e_settle_ms)
		usleep(e2e_settle_ms * 1000);
	t0 = now_ns();
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid)
		child(argv, how, log);
	if (waitpid(pid, &st, 0) != pid)
		die("waitpid");
	t1 = now_ns();
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "e2e_bench: %s failed (status %#x), its output: %s\n",
			argv[0], st, log);
		exit(1);
	}
	return t1 - t0;
}

void e2e_sh_line(const char *cmd, char *buf, size_t len)
{
	FILE *p = popen(cmd, "r");

	buf[0] = '\0';
	if (!p)
		return;
	if (!fgets(buf, len, p))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	/* the rest unread: pclose() waits for the pipeline */
	while (fgetc(p) != EOF)
		;
	pclose(p);
}
