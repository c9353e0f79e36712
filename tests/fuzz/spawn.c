// SPDX-License-Identifier: GPL-2.0
/*
 * Targets that exec at once (the fuzzer again, as "--fz-target KIND"), made
 * without copying the process: a clone(CLONE_VM) child on a stack of its own
 * that does a few system calls and execs, as posix_spawn() does.  On the debug
 * kernel a fork() of the executor costs as much as the rest of such an
 * operation: each of its mappings is copied, then torn down at the exec.
 *
 * The child shares the caller's memory, TLS included: it calls the kernel
 * directly (a libc wrapper would set the caller's errno, and setresuid()'s
 * would signal the caller's threads), and reads only what its slot holds.
 * Its stack is free again once the kernel clears the slot's word
 * (CLONE_CHILD_CLEARTID): at the exec, or at the child's exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

#define SPAWN_SLOTS	8
#define SPAWN_STACK	16384

/* what a child reads: its slot's, or on the stack of a forked one */
struct spawn_args {
	struct fz_spawn req;
	pid_t parent;
	char kind[16];
	char *argv[4];
	struct timespec sleep;
};

struct spawn_slot {
	char stack[SPAWN_STACK];
	struct spawn_args args;
	pid_t busy;			/* 0 once the child exec'd or died */
} __attribute__((aligned(64)));

static struct spawn_slot spawn_slots[SPAWN_SLOTS];

static long spawn_sys(long n, long a, long b, long c)
{
	long r;

	asm volatile ("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c)
		      : "rcx", "r11", "memory");
	return r;
}

static __attribute__((noreturn)) void spawn_exit(int code)
{
	for (;;)
		spawn_sys(SYS_exit, code, 0, 0);
}

static int spawn_child(void *arg)
{
	const struct spawn_args *a = arg;
	char c;
	int i;

	for (i = 0; i < 2; i++)
		if (a->req.close_fd[i] >= 0)
			spawn_sys(SYS_close, a->req.close_fd[i], 0, 0);
	if (a->req.nobody &&
	    (spawn_sys(SYS_setgroups, 0, 0, 0) ||
	     spawn_sys(SYS_setresgid, FZ_NOBODY, FZ_NOBODY, FZ_NOBODY) ||
	     spawn_sys(SYS_setresuid, FZ_NOBODY, FZ_NOBODY, FZ_NOBODY)))
		spawn_exit(1);
	/* after the change of user, which clears it; a parent gone before never sends it */
	spawn_sys(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0);
	if (spawn_sys(SYS_getppid, 0, 0, 0) != a->parent)
		spawn_exit(0);
	if (a->req.wait_fd >= 0 && spawn_sys(SYS_read, a->req.wait_fd, (long)&c, 1) != 1)
		spawn_exit(0);
	if (a->sleep.tv_sec || a->sleep.tv_nsec)
		spawn_sys(SYS_nanosleep, (long)&a->sleep, 0, 0);
	spawn_sys(SYS_execve, (long)a->argv[0], (long)a->argv, (long)environ);
	spawn_exit(1);
}

static void spawn_args_fill(struct spawn_args *a, const struct fz_spawn *req)
{
	a->req = *req;
	a->parent = getpid();
	snprintf(a->kind, sizeof(a->kind), "%s", req->kind);
	a->argv[0] = (char *)fz.self_exe;
	a->argv[1] = "--fz-target";
	a->argv[2] = a->kind;
	a->argv[3] = NULL;
	a->sleep.tv_sec = req->sleep_us / 1000000;
	a->sleep.tv_nsec = req->sleep_us % 1000000 * 1000;
}

/* a free slot, claimed; NULL if every one still has its child before the exec */
static struct spawn_slot *spawn_claim(void)
{
	pid_t none;
	int i;

	for (i = 0; i < SPAWN_SLOTS; i++) {
		none = 0;
		if (__atomic_compare_exchange_n(&spawn_slots[i].busy, &none, -1, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return &spawn_slots[i];
	}
	return NULL;
}

pid_t fz_spawn_target(const struct fz_spawn *req)
{
	struct spawn_slot *s = spawn_claim();
	struct spawn_args a;
	struct timespec t0;
	pid_t pid;

	if (!s) {
		/* every slot's child is before its exec still: a fork, with its own copy */
		spawn_args_fill(&a, req);
		pid = fz_fork_task(0);
		if (!pid)
			spawn_child(&a);
		return pid;
	}
	spawn_args_fill(&s->args, req);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = clone(spawn_child, s->stack + SPAWN_STACK, CLONE_VM | CLONE_CHILD_CLEARTID | SIGCHLD,
		    &s->args, NULL, NULL, &s->busy);
	if (pid < 0)
		__atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
	fz_stat_add(FZ_ST_SPAWN, &t0);
	return pid;
}

/* after a fork(): this process's copies of the slots are its own, all free */
void fz_spawn_forget(void)
{
	int i;

	for (i = 0; i < SPAWN_SLOTS; i++)
		spawn_slots[i].busy = 0;
}
