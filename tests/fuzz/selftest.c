// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz --selftest: the fuzzer's own parts that need no perfmon, checked on
 * the machine that builds it (make check-fuzz-self).  A fault there would not
 * show in a fuzz run: a target that the fuzzer fails to make is just an
 * operation that found nothing.
 *
 * spawn.c: a clone(CLONE_VM) child on each of its stacks while they last, a
 * fork() once every stack's child is still before its exec, each stack free
 * again once its child has exec'd (the kernel clears the slot's word then),
 * and every child, cloned or forked, running as asked: it waits for its byte
 * and execs the target, which exits 0 (a failed exec exits 1); at end of file
 * instead, it exits 0 unexec'd.  A child that never ends is killed and fails
 * its check; the alarm ends a selftest stuck anywhere else.
 *
 * fault.c, where the kernel injects faults (the debug guest; make fuzz runs
 * it there first): a fault armed as before an operation, at each of the
 * first sites in turn, while the thread sends itself a signal it handles.
 * Some N falls on the signal's delivery or on the handler's return, which
 * the kernel answers with SIGSEGV: the thread must carry on and exit 0 each
 * time, and at least one N must have been taken so.  And a read that blocks,
 * faulted so at each site, must still be ended by its alarm and say EINTR.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

#define ST_SPAWNS	9	/* spawn.c's stacks, and one more */
#define ST_WAIT_MS	10000	/* then a child is killed: wait status 9 */

static int st_failed;

static void st_check(int ok, const char *what, long got, long want)
{
	if (ok)
		return;
	fprintf(stderr, "selftest: %s: %ld, expected %ld\n", what, got, want);
	st_failed = 1;
}

static unsigned long st_count(int st)
{
	return __atomic_load_n(&fz_stats[st][0], __ATOMIC_RELAXED);
}

static void st_spawn(void)
{
	int go[ST_SPAWNS][2], i, status;
	pid_t pid[ST_SPAWNS], again;

	for (i = 0; i < ST_SPAWNS; i++) {
		if (pipe2(go[i], O_CLOEXEC)) {
			perror("selftest: pipe2");
			st_failed = 1;
			return;
		}
		pid[i] = fz_spawn_target(&(struct fz_spawn){
			.close_fd = { go[i][1], -1 }, .wait_fd = go[i][0], .kind = "exit" });
		st_check(pid[i] > 0, "spawn: pid", pid[i], 1);
		close(go[i][0]);
	}
	/* every stack's child waits for its byte: the last one was forked */
	st_check(st_count(FZ_ST_SPAWN) == ST_SPAWNS - 1, "spawn: clones",
		 (long)st_count(FZ_ST_SPAWN), ST_SPAWNS - 1);
	st_check(st_count(FZ_ST_FORK) == 1, "spawn: forks", (long)st_count(FZ_ST_FORK), 1);
	/*
	 * The children exec in turn, which closes their copies of the pipes'
	 * ends; then the first one, which got none, finds end of file and exits
	 * unexec'd.  Every stack is free again either way.
	 */
	for (i = 1; i < ST_SPAWNS; i++) {
		st_check(write(go[i][1], "x", 1) == 1, "spawn: write", errno, 0);
		close(go[i][1]);
		status = fz_wait_or_kill(pid[i], ST_WAIT_MS, -1);
		st_check(status == 0, "spawn: status after the exec", status, 0);
	}
	close(go[0][1]);
	status = fz_wait_or_kill(pid[0], ST_WAIT_MS, -1);
	st_check(status == 0, "spawn: status at end of file", status, 0);
	/* the stacks are free again: a clone, no fork */
	again = fz_spawn_target(&(struct fz_spawn){
		.close_fd = { -1, -1 }, .wait_fd = -1, .kind = "exit" });
	status = again > 0 ? fz_wait_or_kill(again, ST_WAIT_MS, -1) : -1;
	st_check(status == 0, "spawn: status of the next one", status, 0);
	st_check(st_count(FZ_ST_SPAWN) == ST_SPAWNS, "spawn: clones after",
		 (long)st_count(FZ_ST_SPAWN), ST_SPAWNS);
	st_check(st_count(FZ_ST_FORK) == 1, "spawn: forks after", (long)st_count(FZ_ST_FORK), 1);
}

#define ST_FAULT_SITES	24

static void st_signal_faults(void)
{
	struct fz_op fault = { 0 };
	struct timespec t0;
	char what[80];
	unsigned int armed;
	int code, n, fd, status;
	pid_t pid;

	for (code = 0; code < fz_nops && !fz_ops[code].faults; code++)
		;
	for (n = 1; n <= ST_FAULT_SITES; n++) {
		pid = fork();
		if (!pid) {
			fault.a[0] = (uint64_t)n;
			fz_run_fault(&fault, NULL, 0);
			clock_gettime(CLOCK_MONOTONIC, &t0);
			fd = fz_fault_arm(code, &armed);
			raise(SIGUSR1);
			if (fd >= 0)
				fz_fault_disarm(fd, code, armed, &t0);
			_exit(fd >= 0 ? 0 : 3);
		}
		status = -1;
		waitpid(pid, &status, 0);
		snprintf(what, sizeof(what), "faults: wait status of the child faulted at site %d", n);
		st_check(status == 0, what, status, 0);
	}
	st_check(fz_fault_on_signal() > 0, "faults: SIGSEGVs taken", (long)fz_fault_on_signal(), 1);
}

/*
 * A read that blocks (an empty pipe), run as a program's "read" with a fault
 * armed before it at each of the first sites in turn: wherever the fault
 * falls, the alarm must end the read with EINTR (not 0: rt_sigreturn's
 * failure), and the child exit 0 well within ST_BLOCK_MS.
 */
#define ST_BLOCK_MS	3000

static void st_blocking_faults(void)
{
	struct fz_prog *prog = calloc(1, sizeof(*prog));
	int code = fz_op_lookup("read"), n, pfd[2], status;
	struct fz_op fault = { 0 };
	char what[80];
	pid_t pid;

	if (!prog || code < 0 || pipe2(pfd, O_CLOEXEC)) {
		perror("selftest: blocking read");
		st_failed = 1;
		free(prog);
		return;
	}
	prog->n = 1;
	prog->op[0].code = code;	/* slot 0, 64 bytes, the scratch buffer, as it is */
	for (n = 1; n <= ST_FAULT_SITES; n++) {
		pid = fork();
		if (!pid) {
			fz_signals_init();
			fz.fd[0] = pfd[0];
			fault.a[0] = (uint64_t)n;
			fz_run_fault(&fault, NULL, 0);
			long r = fz_op_run(prog, 0);

			if (r != -EINTR)
				fprintf(stderr, "selftest: read faulted at site %d: %ld\n", n, r);
			_exit(r == -EINTR ? 0 : 4);
		}
		status = fz_wait_or_kill(pid, ST_BLOCK_MS, -1);
		snprintf(what, sizeof(what), "faults: wait status of the read faulted at site %d", n);
		st_check(status == 0, what, status, 0);
	}
	close(pfd[0]);
	close(pfd[1]);
	free(prog);
}

int fz_selftest_main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--selftest"))
		return -1;
	fz_state_init("/proc/self/exe", getpid());
	/* fz_state_init() catches SIGALRM for the operations: here it ends a hang */
	signal(SIGALRM, SIG_DFL);
	alarm(60);
	fz_stats = fz_shared(FZ_ST_NR * sizeof(*fz_stats));
	if (fz_stats == MAP_FAILED) {
		perror("selftest: shared memory");
		return 2;
	}
	st_spawn();
	printf("selftest: spawn: %s\n", st_failed ? "FAILED" : "ok");
	fz_fault_init();
	if (fz_faults) {
		st_signal_faults();
		printf("selftest: faults on a signal's delivery: %s (%lu taken)\n",
		       st_failed ? "FAILED" : "ok", fz_fault_on_signal());
		st_blocking_faults();
		printf("selftest: faults before a blocking read: %s\n",
		       st_failed ? "FAILED" : "ok");
	}
	return st_failed;
}
