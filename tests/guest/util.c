// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the guest test suites.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

TCase *pfm_tcase(const char *name)
{
	TCase *tc = tcase_create(name);

	/* QEMU without KVM runs 100000 system calls in seconds, not ms */
	tcase_set_timeout(tc, 120);
	return tc;
}

pid_t self_tid(void)
{
	return gettid();
}

pid_t unused_tid(void)
{
	char path[64];
	pid_t tid;

	/* /proc/<tid> exists for every thread, listed or not */
	for (tid = 999999; tid > 1; tid--) {
		snprintf(path, sizeof(path), "/proc/%d", tid);
		if (access(path, F_OK) && errno == ENOENT)
			return tid;
	}
	ck_abort_msg("no unused thread id");
	return -1;
}

void pmc_init(struct pfarg_pmc *pc, unsigned int num, uint64_t value)
{
	memset(pc, 0, sizeof(*pc));
	pc->reg_num = num;
	pc->reg_value = value;
}

void pmd_init(struct pfarg_pmd *pd, unsigned int num, uint64_t value)
{
	memset(pd, 0, sizeof(*pd));
	pd->reg_num = num;
	pd->reg_value = value;
}

int ck_ctx_create(void)
{
	int fd = pfm_create_context(0);

	ck_assert_msg(fd >= 0, "pfm_create_context(0): %s", strerror(errno));
	return fd;
}

void ck_write_pmc(int fd, unsigned int num, uint64_t value)
{
	struct pfarg_pmc pc;

	pmc_init(&pc, num, value);
	ck_assert_msg(!pfm_write_pmcs(fd, &pc, sizeof(pc)),
		      "pfm_write_pmcs(PMC%u = %#llx): %s", num,
		      (unsigned long long)value, strerror(errno));
}

void ck_write_pmd(int fd, unsigned int num, uint64_t value)
{
	struct pfarg_pmd pd;

	pmd_init(&pd, num, value);
	ck_assert_msg(!pfm_write_pmds(fd, &pd, sizeof(pd)),
		      "pfm_write_pmds(PMD%u = %#llx): %s", num,
		      (unsigned long long)value, strerror(errno));
}

uint64_t ck_read_pmd(int fd, unsigned int num)
{
	struct pfarg_pmd pd;

	pmd_init(&pd, num, 0);
	ck_assert_msg(!pfm_read_pmds(fd, &pd, sizeof(pd)),
		      "pfm_read_pmds(PMD%u): %s", num, strerror(errno));
	return pd.reg_value;
}

void ck_counter(int fd, int i, int event)
{
	ck_write_pmc(fd, SW_PMC(i), PFM_SW_PMC(event));
	ck_write_pmd(fd, SW_PMD(i), 0);
}

void ck_load_self(int fd)
{
	ck_assert_msg(!pfm_load_context(fd, 0, self_tid()),
		      "pfm_load_context(self): %s", strerror(errno));
}

void do_getppid(long n)
{
	long i;

	/* syscall(), not getppid(): a libc might answer from a cache */
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

uint64_t spin_until(uint64_t until)
{
	volatile unsigned long x = 0;
	uint64_t now;
	int i;

	do {
		for (i = 0; i < 10000; i++)
			x++;
		now = thread_cpu_ns();
	} while (now < until);
	return now;
}

long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

char *ck_fresh_pages(long n)
{
	char *p;

	p = mmap(NULL, n * page_size(), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_msg(p != MAP_FAILED, "mmap: %s", strerror(errno));
	/* a huge page would serve 512 first touches with one fault */
	ck_assert_ok(madvise(p, n * page_size(), MADV_NOHUGEPAGE));
	return p;
}

void touch_pages(char *p, long n)
{
	volatile char *v = p;
	long psz = page_size();
	long i;

	/* a write, so that each page gets its own frame (one fault each) */
	for (i = 0; i < n; i++)
		v[i * psz] = 1;
}

int sysfs_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n < 0) {
		errno = err;
		return -1;
	}
	buf[n] = '\0';
	return 0;
}

int sysfs_write(const char *path, const char *s)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	err = errno;
	close(fd);
	if (n < 0) {
		errno = err;
		return -1;
	}
	return 0;
}

long ck_sysfs_read_long(const char *path)
{
	char buf[64], *end;
	long v;

	ck_assert_msg(!sysfs_read(path, buf, sizeof(buf)), "read %s: %s",
		      path, strerror(errno));
	v = strtol(buf, &end, 0);
	ck_assert_msg(end != buf && (!*end || *end == '\n'),
		      "%s: not a number: '%s'", path, buf);
	return v;
}

static char arg_mem_max_saved[64];

void arg_mem_max_save(void)
{
	if (sysfs_read(PFM_ARG_MEM_MAX, arg_mem_max_saved,
		       sizeof(arg_mem_max_saved)))
		arg_mem_max_saved[0] = '\0';
}

void arg_mem_max_restore(void)
{
	if (arg_mem_max_saved[0] && sysfs_write(PFM_ARG_MEM_MAX, arg_mem_max_saved))
		fprintf(stderr, "pfm_tests: cannot restore %s to %s",
			PFM_ARG_MEM_MAX, arg_mem_max_saved);
}
