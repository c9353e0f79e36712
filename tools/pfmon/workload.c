// SPDX-License-Identifier: GPL-2.0
/*
 * workload: make known amounts of software events, for pfmon demos.
 *
 *   workload [-w ms_wait] [-s N_syscalls] [-p N_pages] [-R N_rounds] [-t ms_spin]
 *            [-l ms_sleep] [-f N_processes] [-T N_threads [-e]] [-E N_threads]
 *
 * In that order: ms asleep before anything (time for pfmon -p to attach), N
 * getppid() system calls then N page faults on fresh anonymous pages (-R times
 * in turn: phases of calls and faults, as multiplexed counts find hardest), ms
 * of CPU time spent spinning, ms asleep.  With -f and -T, the same work (after
 * the wait) is done again by each of N child processes, then by each of N
 * threads, one after the other.  -e: the first thread ends (pthread_exit) once
 * it has started the threads, which run together, the process ending with the
 * last of them.  -E: N more threads, started before the wait, each of which
 * waits too, then does the same work alongside the first thread, which joins
 * them at the end: a process with threads for pfmon -p to find.  It prints
 * nothing, so that its own system calls stay few and the requested ones stand
 * out.
 *
 * -w sig and -l sig wait for a SIGUSR1 instead of a time (sigwaitinfo, one
 * system call): a test then acts while the workload is known to be in the
 * wait, on a loaded or debug kernel as on an idle one, and ends the wait when
 * it is done.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* -w and -l given as "sig": wait for a SIGUSR1 */
#define WAIT_SIGNAL	(-1L)

static void usage(void)
{
	fprintf(stderr, "usage: workload [-w ms_wait|sig] [-s N_syscalls] [-p N_pages] "
			"[-R N_rounds] [-t ms_spin] [-l ms_sleep|sig] [-f N_processes] "
			"[-T N_threads [-e]] [-E N_threads]\n");
	exit(2);
}

static long number(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < 0)
		usage();
	return v;
}

__attribute__((noinline)) static void do_syscalls(long n)
{
	long i;

	/* syscall(), not getppid(): no libc may ever answer it from a cache */
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

__attribute__((noinline)) static void do_pages(long n)
{
	long psz = sysconf(_SC_PAGESIZE);
	volatile char *p;
	long i;

	if (!n)
		return;
	p = mmap(NULL, n * psz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("workload: mmap");
		exit(1);
	}
	/* one fault per page: a huge page would serve 512 pages in one */
	if (madvise((void *)p, n * psz, MADV_NOHUGEPAGE))
		perror("workload: madvise");
	/* a write, so that each page gets its own frame, not the zero page */
	for (i = 0; i < n; i++)
		p[i * psz] = 1;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

__attribute__((noinline)) static void do_spin(long ms)
{
	uint64_t end;
	volatile unsigned long x = 0;
	long i;

	if (!ms)
		return;
	end = thread_cpu_ns() + (uint64_t)ms * 1000000ULL;
	/*
	 * The thread CPU clock is a system call: look at it only every so
	 * often, so that the spin is CPU time, not system calls.
	 */
	do {
		for (i = 0; i < 100000; i++)
			x++;
	} while (thread_cpu_ns() < end);
}

static long wait_arg(const char *s)
{
	return strcmp(s, "sig") ? number(s) : WAIT_SIGNAL;
}

__attribute__((noinline)) static void do_sleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	sigset_t usr1;

	if (ms == WAIT_SIGNAL) {
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		while (sigwaitinfo(&usr1, NULL) < 0 && errno == EINTR)
			;
		return;
	}
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static long nsys, npages, rounds = 1, spin, sleep_ms, wait_ms;

static void *work(void *arg)
{
	long r;

	for (r = 0; r < rounds; r++) {
		do_syscalls(nsys);
		do_pages(npages);
	}
	do_spin(spin);
	do_sleep(sleep_ms);
	return arg;
}

static void *early(void *arg)
{
	do_sleep(wait_ms);
	return work(arg);
}

int main(int argc, char **argv)
{
	long nproc = 0, nthr = 0, nearly = 0, early_exit = 0, i;
	pthread_t t, *et;
	pid_t pid;
	int opt;

	while ((opt = getopt(argc, argv, "w:s:p:R:t:l:f:T:eE:")) != -1) {
		switch (opt) {
		case 'w':
			wait_ms = wait_arg(optarg);
			break;
		case 's':
			nsys = number(optarg);
			break;
		case 'p':
			npages = number(optarg);
			break;
		case 'R':
			rounds = number(optarg);
			break;
		case 't':
			spin = number(optarg);
			break;
		case 'l':
			sleep_ms = wait_arg(optarg);
			break;
		case 'f':
			nproc = number(optarg);
			break;
		case 'T':
			nthr = number(optarg);
			break;
		case 'e':
			early_exit = 1;
			break;
		case 'E':
			nearly = number(optarg);
			break;
		default:
			usage();
		}
	}
	if (optind != argc || (early_exit && !nthr) || (early_exit && nearly))
		usage();
	/*
	 * Blocked before any thread is made, so that every thread inherits
	 * the mask and a SIGUSR1 waits for a sigwaitinfo instead of ending
	 * the process.
	 */
	if (wait_ms == WAIT_SIGNAL || sleep_ms == WAIT_SIGNAL) {
		sigset_t usr1;

		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, NULL);
	}

	et = calloc(nearly, sizeof(*et));
	if (nearly && !et)
		return 1;
	for (i = 0; i < nearly; i++) {
		if (pthread_create(&et[i], NULL, early, NULL)) {
			fprintf(stderr, "workload: pthread_create failed\n");
			return 1;
		}
	}
	if (wait_ms)
		do_sleep(wait_ms);
	work(NULL);
	for (i = 0; i < nproc; i++) {
		pid = fork();
		if (pid < 0) {
			perror("workload: fork");
			return 1;
		}
		if (!pid) {
			work(NULL);
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
	for (i = 0; i < nthr; i++) {
		if (pthread_create(&t, NULL, work, NULL)) {
			fprintf(stderr, "workload: pthread_create failed\n");
			return 1;
		}
		if (!early_exit)
			pthread_join(t, NULL);
	}
	if (early_exit)
		pthread_exit(NULL);
	for (i = 0; i < nearly; i++)
		pthread_join(et[i], NULL);
	return 0;
}
