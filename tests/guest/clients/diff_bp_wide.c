// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff's breakpoint cases beyond a thread's own user memory: hits the
 * kernel takes, and breakpoints on a CPU.  A kernel-mode hit comes in the debug
 * exception's NMI-like context, a path of its own in the shim (counted once the
 * exception has returned), which the user-mode cases never reach.
 *
 *   bp-kernel  an instruction breakpoint on the kernel's getppid system call
 *              (its address from /proc/kallsyms): N calls count N, and sampled
 *              at period 1 give N samples at that address, marked kernel; a
 *              watchpoint on a user word the kernel fills with read(2) from a
 *              pipe counts the kernel's stores (exclude_user) and not the
 *              user's, and none with exclude_kernel; a kernel address as
 *              nobody is EACCES at perf_event_paranoid 2 (6.1's check of
 *              exclude_kernel comes first), EPERM with exclude_kernel off at
 *              paranoid 1 (the hardware breakpoint service's CAP_SYS_ADMIN) (the shim follows the
 *              kernel's level)
 *   bp-cpu     a watchpoint and an instruction breakpoint on the CPU the test
 *              is pinned to (pid -1): the test's own writes and calls count
 *              exactly; a second open on another CPU counts none of them
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>

#include "diff.h"

#define NCALLS		25
#define NREADS		12
#define HITS		10

static volatile unsigned long wide_var __attribute__((aligned(8)));

static __attribute__((noinline)) void wide_func(void)
{
	__asm__ volatile("" ::: "memory");
}

static void attr_bp(struct perf_event_attr *a, unsigned int type, unsigned long long addr,
		    unsigned long long len, int exclude_user, int exclude_kernel)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_BREAKPOINT;
	a->size = sizeof(*a);
	a->bp_type = type;
	a->bp_addr = addr;
	a->bp_len = len;
	a->disabled = 1;
	a->exclude_user = exclude_user;
	a->exclude_kernel = exclude_kernel;
	a->exclude_hv = 1;
}

/* name's address in /proc/kallsyms, 0 if not there (or hidden: all zeros) */
static unsigned long long ksym(const char *name)
{
	unsigned long long addr = 0, a;
	char line[256], sym[200], type;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %199s", &a, &type, sym) == 3 && !strcmp(sym, name)) {
			addr = a;
			break;
		}
	}
	fclose(f);
	return addr;
}

static void close_fd(int fd)
{
	if (fd >= 0)
		close(fd);
}

static void read_count(struct trace *t, int fd, const char *what)
{
	unsigned long long v;

	if (do_read(t, fd, &v, sizeof(v), what) == sizeof(v))
		obs_val(t, v, 'e');
}

/* enable, work, disable, read */
static void count_around(struct trace *t, int fd, void (*work)(void *), void *arg,
			 const char *what)
{
	if (fd < 0)
		return;
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	work(arg);
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "DISABLE");
	read_count(t, fd, what);
}

static void getppids(void *arg)
{
	long n = (long)arg;

	while (n--)
		syscall(SYS_getppid);
}

/* NREADS reads from a pipe into the watched word: the kernel's copy_to_user() stores */
static void pipe_reads(void *arg __attribute__((unused)))
{
	unsigned long v = 7;
	int p[2], i;

	if (pipe(p))
		return;
	for (i = 0; i < NREADS; i++) {
		if (write(p[1], &v, sizeof(v)) != sizeof(v) ||
		    read(p[0], (void *)&wide_var, sizeof(v)) != sizeof(v))
			break;
	}
	close(p[0]);
	close(p[1]);
}

/* the user's own stores to the word */
static void user_writes(void *arg __attribute__((unused)))
{
	int i;

	for (i = 0; i < HITS; i++)
		wide_var = i;
}

static void calls(void *arg __attribute__((unused)))
{
	int i;

	for (i = 0; i < HITS; i++)
		wide_func();
}

struct ksample_walk {
	struct trace *t;
	unsigned long long addr, samples, at_addr, kernel, other;
};

/* IP, TID */
static void ksample(const struct perf_event_header *h, const unsigned long long *w, void *arg)
{
	struct ksample_walk *k = arg;

	if (h->type != PERF_RECORD_SAMPLE) {
		k->other++;
		return;
	}
	k->samples++;
	k->at_addr += w[0] == k->addr;
	k->kernel += (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
}

static void kernel_sampled(const struct backend *be, struct trace *t, unsigned long long addr)
{
	struct ksample_walk k = { .t = t, .addr = addr };
	struct perf_event_attr a;
	struct dring r;
	int fd;

	attr_bp(&a, HW_BREAKPOINT_X, addr, sizeof(long), 1, 0);
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	fd = do_open(be, t, &a, 0, -1, -1, 0, "X on getppid, period 1");
	if (fd < 0)
		return;
	if (!dring_map(t, &r, fd, 8)) {
		count_around(t, fd, getppids, (void *)(long)NCALLS, "getppid sampled");
		dring_walk(&r, ksample, &k);
		obs_call(t, 0, 1, "kernel samples");
		obs_vals(t, (unsigned long long[]){ k.samples, k.at_addr, k.kernel, k.other },
			 4, "eeee");
		munmap(r.pg, r.len);
	}
	close(fd);
}

/* a kernel address opened as nobody at paranoid level: the errno */
static void kernel_as_nobody(const struct backend *be, struct trace *t, unsigned long long addr,
			     const char *level, int exclude_kernel, const char *what)
{
	struct perf_event_attr a;
	int err;

	attr_bp(&a, HW_BREAKPOINT_X, addr, sizeof(long), 1, exclude_kernel);
	err = open_as_nobody(be, &a, 0, -1, level);
	obs_call(t, err < 0 ? -1 : 0, 1, "child as nobody");
	errno = err;
	obs_call(t, err ? -1 : 0, 1, "%s", what);
}

void case_bp_kernel(const struct backend *be, struct trace *t)
{
	unsigned long long addr = ksym("__x64_sys_getppid");
	struct perf_event_attr a;

	obs_call(t, addr ? 0 : -1, 1, "__x64_sys_getppid in /proc/kallsyms");
	if (!addr) {
		fprintf(stderr, "bp-kernel: no address for __x64_sys_getppid\n");
		return;
	}
	attr_bp(&a, HW_BREAKPOINT_X, addr, sizeof(long), 1, 0);
	count_around(t, do_open(be, t, &a, 0, -1, -1, 0, "X on getppid"), getppids,
		     (void *)(long)NCALLS, "getppid called");
	kernel_sampled(be, t, addr);

	attr_bp(&a, HW_BREAKPOINT_W, (unsigned long)&wide_var, HW_BREAKPOINT_LEN_8, 1, 0);
	{
		int fd = do_open(be, t, &a, 0, -1, -1, 0, "W, kernel only");

		count_around(t, fd, pipe_reads, NULL, "the kernel's stores");
		count_around(t, fd, user_writes, NULL, "the user's stores");
		close_fd(fd);
	}
	attr_bp(&a, HW_BREAKPOINT_W, (unsigned long)&wide_var, HW_BREAKPOINT_LEN_8, 0, 1);
	{
		int fd = do_open(be, t, &a, 0, -1, -1, 0, "W, user only");

		count_around(t, fd, pipe_reads, NULL, "the kernel's stores");
		count_around(t, fd, user_writes, NULL, "the user's stores");
		close_fd(fd);
	}
	kernel_as_nobody(be, t, addr, "2\n", 0, "kernel X as nobody, paranoid 2");
	kernel_as_nobody(be, t, addr, "1\n", 0, "kernel X as nobody, paranoid 1");
}

void case_bp_cpu(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	int fd;

	pin(0);
	attr_bp(&a, HW_BREAKPOINT_W, (unsigned long)&wide_var, HW_BREAKPOINT_LEN_8, 0, 1);
	fd = do_open(be, t, &a, -1, 0, -1, 0, "W on CPU 0");
	count_around(t, fd, user_writes, NULL, "writes on CPU 0");
	close_fd(fd);
	attr_bp(&a, HW_BREAKPOINT_X, (unsigned long)wide_func, sizeof(long), 0, 1);
	fd = do_open(be, t, &a, -1, 0, -1, 0, "X on CPU 0");
	count_around(t, fd, calls, NULL, "calls on CPU 0");
	close_fd(fd);
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		attr_bp(&a, HW_BREAKPOINT_W, (unsigned long)&wide_var, HW_BREAKPOINT_LEN_8, 0, 1);
		fd = do_open(be, t, &a, -1, 1, -1, 0, "W on CPU 1");
		count_around(t, fd, user_writes, NULL, "writes on CPU 0, counted on CPU 1");
		close_fd(fd);
	}
	pin(-1);
}
