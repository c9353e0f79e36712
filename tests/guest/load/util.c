// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_load's small helpers: exact workloads (system calls, page faults, raw
 * fork and exit that a libc adds nothing to), files, time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "load.h"

pid_t load_tid(void)
{
	return syscall(SYS_gettid);
}

/* syscall(), not getppid(): a libc might answer from a cache */
void load_getppid(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

long load_page_size(void)
{
	static long psz;

	if (!psz)
		psz = sysconf(_SC_PAGESIZE);
	return psz;
}

/*
 * n pages never touched, no huge page (one fault would serve 512 touches), and not
 * copied by a fork: a fork of another thread write-protects the process's private
 * pages, so that a page faulted in but not yet written (the store retried after the
 * fault) would fault again; NULL on failure.
 */
char *load_fresh_pages(long n)
{
	char *p = mmap(NULL, n * load_page_size(), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (madvise(p, n * load_page_size(), MADV_NOHUGEPAGE) ||
	    madvise(p, n * load_page_size(), MADV_DONTFORK)) {
		munmap(p, n * load_page_size());
		return NULL;
	}
	return p;
}

/*
 * A write to each page: one fault each.  The page size comes in a register, not
 * from load_page_size()'s static: that page is the process's, shared with the
 * locks other threads write, and a fork's copy-on-write of it (its entry cleared
 * and set again while another thread writes it) can fault a read of it too.
 */
void load_touch(char *p, long n, long psz)
{
	volatile char *v = p;
	long i;

	for (i = 0; i < n; i++)
		v[i * psz] = 1;
}

void load_pin(int cpu)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	if (cpu >= 0)
		CPU_SET(cpu, &set);
	else
		for (i = 0; i < load.ncpus; i++)
			CPU_SET(i, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		load_fail("sched_setaffinity(%d): %s", cpu, strerror(errno));
}

unsigned int load_rand(unsigned int *seed, unsigned int lo, unsigned int hi)
{
	return lo + (unsigned int)rand_r(seed) % (hi - lo + 1);
}

/*
 * On a slow kernel (the debug kernel's detectors make a system call or a fork many
 * times dearer) rounds are smaller, so that a round ends soon after the stop.
 */
unsigned int load_size(unsigned int *seed, unsigned int lo, unsigned int hi, unsigned int min)
{
	lo /= load.scale;
	hi /= load.scale;
	return load_rand(seed, lo > min ? lo : min, hi > min ? hi : min);
}

/* a number in a file, or -1 */
long load_read_long(const char *path)
{
	char buf[64];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return strtol(buf, NULL, 10);
}

int load_write(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -1;
	close(fd);
	return ret;
}

void load_msleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

pid_t load_raw_fork(void)
{
	return syscall(SYS_fork);
}

void load_raw_wait(pid_t pid)
{
	syscall(SYS_wait4, pid, NULL, 0, NULL);
}

void load_raw_exit(void)
{
	for (;;)
		syscall(SYS_exit_group, 0);
}

double load_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The main thread starts and joins the workers; as one thread among 64 busy ones it
 * took a minute to start them all on the debug kernel (a clone costs it tens of
 * milliseconds there).  Real-time, it runs when it wakes; it sleeps most of the time.
 */
void load_main_first(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		load_note("SCHED_FIFO for the main thread: %s", strerror(errno));
}

void load_thread_attr(pthread_attr_t *attr)
{
	struct sched_param sp = { .sched_priority = 0 };

	pthread_attr_init(attr);
	pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(attr, SCHED_OTHER);
	pthread_attr_setschedparam(attr, &sp);
}

static void *poller_main(void *arg)
{
	struct poller *p = arg;

	while (!p->stop) {
		p->pass();
		usleep(p->pause_us);
	}
	return NULL;
}

int poller_start(struct poller *p)
{
	pthread_attr_t attr;
	int err;

	p->stop = 0;
	load_thread_attr(&attr);
	err = pthread_create(&p->thread, &attr, poller_main, p);
	pthread_attr_destroy(&attr);
	return err;
}

void poller_stop(struct poller *p)
{
	p->stop = 1;
	pthread_join(p->thread, NULL);
}
