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

/* 0 or -1 with errno; a sysfs file is read or written in one go. */
int sysfs_read(const char *path, char *buf, size_t len);
int sysfs_write(const char *path, const char *s);
long ck_sysfs_read_long(const char *path);

/* Unchecked fixture: the tests may change arg_mem_max, put it back. */
void arg_mem_max_save(void);
void arg_mem_max_restore(void);

#endif /* PFM_TESTS_UTIL_H */
