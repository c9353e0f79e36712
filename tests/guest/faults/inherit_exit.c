// SPDX-License-Identifier: GPL-2.0
/*
 * inherit_exit: the fold of an inheritor's counts under each fault it can meet.
 * A PFM_FL_INHERIT context's child adds its counts into the opened context in
 * its own exit (perfmon.h, INHERITANCE), where no call can return an errno:
 * whatever the fold cannot allocate it must do without, and the count must come
 * out as without a fault.  The sweep's own scheme (sweep.c) arms the calling
 * thread; here the fault is the child's, armed through /proc/PID/fail-nth.
 *
 * For N = 0, 1, 2, ...: a runner process counts its system calls in an inherit
 * context and forks a child, which locks its memory (a copy-on-write fault of
 * its own would take the fault instead), says it is ready and waits.  The runner
 * arms the child's fail-nth with N (0: none), lets it go; the child makes
 * INH_CALLS system calls and exits.  Once the child is a zombie its fail-nth is
 * read (0: its N-th fault site failed), then it is reaped and the opened context
 * read.  Every N must read what N = 0 read, inherit_lost_count must not move,
 * and the sweep ends at the first N the child no longer reaches.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "faults.h"

#define INH_CALLS	100
#define INH_LOST	PFM_SYSFS "/inherit_lost_count"

/* What a runner reports: the opened context's count, whether the fault came. */
struct inh_result {
	long long count;
	int injected;
	int err;		/* errno of the runner's first failed step, or 0 */
};

static int nth_path(pid_t pid, char *path, size_t len)
{
	return snprintf(path, len, "/proc/%d/fail-nth", pid) < (int)len ? 0 : -1;
}

static int nth_write(pid_t pid, unsigned int n)
{
	char path[64], b[16];
	int fd, len = snprintf(b, sizeof(b), "%u", n), ret = 0;

	if (nth_path(pid, path, sizeof(path)))
		return -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, b, len) != len)
		ret = -1;
	close(fd);
	return ret;
}

/* The child's fail-nth as a zombie: 0 when its N-th fault site failed. */
static long nth_read(pid_t pid)
{
	char path[64], b[16];
	ssize_t r;
	int fd;

	if (nth_path(pid, path, sizeof(path)))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = read(fd, b, sizeof(b) - 1);
	close(fd);
	if (r <= 0)
		return -1;
	b[r] = '\0';
	return atol(b);
}

/* The child: ready once locked in memory, then its calls and its exit. */
static void child(int ready, int go)
{
	char c = 0;
	int i;

	if (mlockall(MCL_CURRENT | MCL_FUTURE) || write(ready, &c, 1) != 1)
		_exit(1);
	/* its copy out may be the fault (fail_usercopy): the calls are made all the same */
	if (read(go, &c, 1) < 0)
		c = 0;
	for (i = 0; i < INH_CALLS; i++)
		syscall(SYS_getppid);
	_exit(0);
}

#define step(cond) do { if (!(cond)) { res->err = errno ?: EIO; return; } } while (0)

/* The runner's work, the same system calls whatever n is. */
static void runner(unsigned int n, struct inh_result *res)
{
	struct pfarg_pmd pd;
	int ready[2], go[2], fd;
	siginfo_t si;
	pid_t pid;
	char c = 0;

	fd = fe_ctx(PFM_FL_INHERIT);
	step(fd >= 0);
	step(!fe_write_pmc(fd, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS)));
	step(!pfm_load_context(fd, 0, getpid()));
	step(!pipe(ready) && !pipe(go));
	step(!pfm_start(fd, 0));
	pid = fork();
	step(pid >= 0);
	if (!pid)
		child(ready[1], go[0]);
	step(read(ready[0], &c, 1) == 1);
	step(!nth_write(pid, n));
	step(write(go[1], &c, 1) == 1);
	step(!waitid(P_PID, pid, &si, WEXITED | WNOWAIT));
	res->injected = nth_read(pid) == 0;
	step(waitpid(pid, NULL, 0) == pid);
	step(!pfm_stop(fd, 0));
	pmd_init(&pd, SW_PMD(0), 0);
	step(!pfm_read_pmds(fd, &pd, sizeof(pd)));
	res->count = pd.reg_value;
}

/* One run in a process of its own: the contexts and tasks go with it. */
static int run_one(unsigned int n, struct inh_result *res)
{
	struct inh_result *shared;
	pid_t pid;
	int st;

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return -1;
	memset(shared, 0, sizeof(*shared));
	pid = fork();
	if (pid < 0) {
		munmap(shared, sizeof(*shared));
		return -1;
	}
	if (!pid) {
		runner(n, shared);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		munmap(shared, sizeof(*shared));
		errno = EIO;
		return -1;
	}
	*res = *shared;
	munmap(shared, sizeof(*shared));
	return 0;
}

static long lost_count(void)
{
	char b[32];

	return sysfs_read(INH_LOST, b, sizeof(b)) ? -1 : atol(b);
}

long sweep_inherit_exit(int verbose)
{
	struct inh_result base, r;
	long lost = lost_count();
	unsigned int n;
	int failed = 0;

	if (run_one(0, &base) || base.err) {
		printf("FAIL inherit_exit: the run without a fault: %s\n",
		       strerror(base.err ?: errno));
		return -1;
	}
	for (n = 1; n < 200; n++) {
		if (run_one(n, &r) || r.err) {
			printf("FAIL inherit_exit, fault %u: the runner: %s\n", n,
			       strerror(r.err ?: errno));
			failed = 1;
			continue;
		}
		if (verbose)
			printf("inherit_exit, fault %u: %s, count %lld\n", n,
			       r.injected ? "injected" : "not reached", r.count);
		if (!r.injected)
			break;
		if (r.count != base.count) {
			printf("FAIL inherit_exit, fault %u: the family counts %lld system calls, "
			       "%lld without a fault\n", n, r.count, base.count);
			failed = 1;
		}
		if (lost_count() != lost) {
			printf("FAIL inherit_exit, fault %u: inherit_lost_count %ld, was %ld\n", n,
			       lost_count(), lost);
			failed = 1;
			lost = lost_count();
		}
	}
	printf("inherit_exit: %u fault points of the child's exit, the family's count %lld "
	       "each time\n", n - 1, base.count);
	return failed ? -1 : (long)(n - 1);
}
