/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest test suites.
 *
 * Helpers whose name starts with ck_ assert success themselves; the others
 * return what they got.  Nothing that may run between pfm_start() and
 * pfm_stop() asserts: a passing check assertion writes to the runner's pipe,
 * and that system call would land in the syscall counts.
 */
#ifndef PFM_TESTS_UTIL_H
#define PFM_TESTS_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <check.h>

#include "perfmon.h"

#define PFM_SYSFS		"/sys/kernel/perfmon"
#define PFM_ARG_MEM_MAX		PFM_SYSFS "/arg_mem_max"

#define SW_PMC(i)		(PFM_SW_FIRST_PMC + (i))
#define SW_PMD(i)		(PFM_SW_FIRST_PMD + (i))

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define NSEC_PER_MSEC		1000000ULL

/* 'expr' must return -1 with errno 'err'. */
#define ck_assert_errno(expr, err) do {					\
	long __r;							\
	int __e;							\
	errno = 0;							\
	__r = (expr);							\
	__e = errno;							\
	ck_assert_msg(__r == -1 && __e == (err),			\
		      "%s: returned %ld, errno %d (%s); expected -1, %s",\
		      #expr, __r, __e, strerror(__e), #err);		\
} while (0)

/* 'expr' must return 0. */
#define ck_assert_ok(expr) do {						\
	long __r;							\
	int __e;							\
	errno = 0;							\
	__r = (expr);							\
	__e = errno;							\
	ck_assert_msg(__r == 0, "%s: returned %ld, errno %d (%s)",	\
		      #expr, __r, __e, strerror(__e));			\
} while (0)

/* A test case with a timeout fit for a slow (emulated) guest. */
TCase *pfm_tcase(const char *name);

pid_t self_tid(void);
/* A thread id that no thread has right now. */
pid_t unused_tid(void);

void pmc_init(struct pfarg_pmc *pc, unsigned int num, uint64_t value);
void pmd_init(struct pfarg_pmd *pd, unsigned int num, uint64_t value);

/* A new context (flags 0). */
int ck_ctx_create(void);
void ck_write_pmc(int fd, unsigned int num, uint64_t value);
void ck_write_pmd(int fd, unsigned int num, uint64_t value);
uint64_t ck_read_pmd(int fd, unsigned int num);
/* Software counter i counts 'event' (EN set), from 0. */
void ck_counter(int fd, int i, int event);
void ck_load_self(int fd);
void ck_load(int fd, pid_t tid);
/* A new context counting system calls on software counter 0, and that count. */
int syscall_ctx(void);
uint64_t count(int fd);

/* Exactly n system calls (getppid). */
void do_getppid(long n);
uint64_t thread_cpu_ns(void);
/* Burn CPU until the thread CPU clock is past 'until'; returns the clock. */
uint64_t spin_until(uint64_t until);
/* n fresh anonymous pages that fault one by one. */
char *ck_fresh_pages(long n);
/* Write one byte to each of n pages. */
void touch_pages(char *p, long n);
long page_size(void);
/* The context's counts page, mapped (pfm_mmap_counts()), of this ABI's version. */
const struct pfm_counts_page *ck_map_counts(int fd);

/* 0 or -1 with errno; a sysfs file is read or written in one go. */
int sysfs_read(const char *path, char *buf, size_t len);
int sysfs_write(const char *path, const char *s);
long ck_sysfs_read_long(const char *path);
/* Polls a count in sysfs for up to 5 s until it is want; its last value. */
long wait_sysfs_long(const char *path, long want);

/* fork, wait4 and exit_group as bare system calls: a libc adds none of its own */
pid_t raw_fork(void);
void raw_wait(pid_t pid);
void raw_exit(void) __attribute__((noreturn));
/*
 * n children forked with raw_fork() (their ids in pid), each making k getppid()
 * and exit_group(), all waited for: the parent's calls are n fork and n wait4.
 */
void raw_children(pid_t *pid, int n, long k);

/* The tracefs id of the tracepoint syscalls:ev, or -1. */
long tracefs_syscall_id(const char *ev);
/* The tracefs id of the tracepoint system:ev, or -1. */
long tracefs_event_id(const char *system, const char *ev);

/* A sysfs knob's value, kept to be put back after a test changed it. */
struct knob {
	const char *path;
	char saved[64];
};

void knob_save(struct knob *k);
void knob_restore(const struct knob *k);

/* Unchecked fixture: the tests may change arg_mem_max, put it back. */
void arg_mem_max_save(void);
void arg_mem_max_restore(void);

/*
 * Another process to monitor: a forked child that blocks reading one of two
 * pipes in turn and runs the orders written to it.  Order n >= 0: n getppid,
 * then block reading the other pipe; order n < 0: -n - 1 getppid, then
 * _exit(0); KID_SPIN: loop in user mode, no system call, until killed;
 * KID_PAUSE: pause() until a SIGUSR1 (caught), then read the next order.
 * The read that fetched an order was entered before the order was written,
 * so a started context on the kid counts an order n as n + 1 (the getppid
 * and the read of the next order, or the exit_group).
 *
 * The kid keeps no other fd: a context the test closes is closed.
 * Set the fields below before kid_start(); KID_INIT is "no change".
 */
struct kid {
	pid_t pid;
	int cpu;		/* pin to this CPU, or -1 */
	uid_t uid;		/* become this user (and gid), or 0 */
	gid_t gid;
	int no_pdeath;		/* survive the parent (it is adopted) */
	int cmd[2][2];		/* the two order pipes */
	int turn;		/* the pipe the kid reads next */
};

#define KID_INIT		{ .pid = -1, .cpu = -1 }
#define KID_FOREVER		0x7fffffffffffffffL	/* getppid until killed */
#define KID_SPIN		(-KID_FOREVER - 1)	/* user-mode loop until killed */
#define KID_PAUSE		(KID_SPIN + 1)		/* pause() until SIGUSR1 */

/* Non-asserting forms (usable in any child): 0 or -1 with errno. */
int kid_start(struct kid *k);
/* kid_start() in two steps: the pipes, then the fork (maybe elsewhere). */
int kid_pipes(struct kid *k);
int kid_spawn(struct kid *k);
/* Writes the order only: no wait, one system call. */
int kid_order(struct kid *k, long n);
/* Order n >= 0, and wait until the kid waits for the next order. */
int kid_run(struct kid *k, long n);
/* n getppid and exit; returns the kid's wait status, or -1. */
int kid_run_exit(struct kid *k, long n);
/* SIGKILL and reap (if still ours); closes the pipes. */
void kid_kill(struct kid *k);

/* Asserting forms, for the test process. */
void ck_kid_start(struct kid *k);
void ck_kid_run(struct kid *k, long n);
/* n getppid, then the kid must exit with status 0. */
void ck_kid_run_exit(struct kid *k, long n);

/* 1 if thread tid is blocked in read(fd) now, 0 if not, -1 if it is gone. */
int in_read(pid_t tid, int fd);
/* Waits until thread tid blocks in read(fd): 0, or -1 after 20 s. */
int wait_blocked_read(pid_t tid, int fd);
/* The same for pause(). */
int wait_paused(pid_t tid);
/* Waits until process pid is stopped (state T): 0, or -1 after 20 s. */
int wait_stopped(pid_t pid);
/* Waits for pid: its wait status, or -1 after timeout_ms. */
int wait_pid_timeout(pid_t pid, int timeout_ms);

/* Pins the calling thread to cpu (-1: every CPU). */
void ck_pin(int cpu);
/* Number of possible CPUs (/sys/devices/system/cpu/possible). */
int possible_cpus(void);

/*
 * Children that check things.  Check assertions must not run in a forked
 * child; a child uses child_expect() instead, which records what went wrong
 * in a page shared with the test process and exits with status 1.  The test
 * process then fails with that message (ck_child_status()).
 */
void child_report_init(void);
const char *child_report(void);
void child_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* In a child: 'expr' must fail with errno err, or succeed (>= 0) if err is 0. */
#define child_expect(expr, err) do {					\
	long __r;							\
	int __e;							\
	errno = 0;							\
	__r = (expr);							\
	__e = errno;							\
	if ((err) ? !(__r == -1 && __e == (err)) : __r < 0)		\
		child_fail("%s: returned %ld, errno %d (%s); expected %s",\
			   #expr, __r, __e, strerror(__e),		\
			   (err) ? #err : "success");			\
} while (0)

/*
 * In a child: a context counting pid's system calls on software counter 0,
 * loaded and started (child_expect() on each step); its fd.
 */
int child_syscall_ctx_on(pid_t pid);

/* The wait status of a child that used child_expect() must say "exit 0". */
void ck_child_status(int status, const char *who);
/* Forks; the child runs fn(arg) then _exit(0); waits and checks the status. */
void ck_child(const char *who, void (*fn)(void *arg), void *arg);

/* A system-wide context counting 'event' on software counter 0. */
int ck_sys_ctx(int event);

#endif /* PFM_TESTS_UTIL_H */
