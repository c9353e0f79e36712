// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep of one scenario.  For N = 1, 2, ...: a child sets the scenario up,
 * arms fail-nth with N, runs the operation, reads fail-nth back (0: the N-th
 * fault site was reached and failed) and disarms it.  A fault injected must end
 * the operation with its errno (ENOMEM, EFAULT, or one the scenario names) and
 * change nothing: the same fds, the same counts in /sys/kernel/perfmon, the same
 * state of the context as the scenario reads it, and the operation then succeeds
 * when tried again without a fault.  Or the operation succeeds and the fault was
 * in something it could do without (its result is still checked).  Once the
 * child exits, every count must be back where it was before the child.  The
 * sweep ends at the first N that the operation no longer reaches; a fault point
 * that fails does not end it, so that the points after it are seen too.
 *
 * The child locks its memory (mlockall) before the fault is armed: a page fault
 * of its own between the arm and the read back would take the fault instead.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "faults.h"
#include "fail_nth.h"

/* Fault points per scenario beyond which the sweep is taken to loop. */
#define SWEEP_MAX	4000

/* The child's verdicts. */
#define ONE_INJECTED	0	/* failed as it must, nothing changed */
#define ONE_FAILED	1	/* something was wrong: printed */
#define ONE_ABSORBED	3	/* succeeded with the fault injected */
#define ONE_DONE	4	/* the N-th fault site was not reached */

static int fail_nth_fd = -1;

int fault_open(void)
{
	fail_nth_fd = fail_nth_open();
	return fail_nth_fd < 0 ? -1 : 0;
}

void fault_arm(unsigned int n)
{
	if (fail_nth_arm(fail_nth_fd, n))
		_exit(ONE_FAILED);
}

bool fault_disarm(void)
{
	int injected = fail_nth_disarm(fail_nth_fd, NULL);

	if (injected < 0)
		_exit(ONE_FAILED);
	return injected;
}

/* The core's and the layers' counts of live objects (a file a kernel lacks reads 0). */
static const char *const count_files[] = {
	"contexts_count", "task_sessions_count", "sys_sessions_count", "task_hooks_count",
	"perf_targets_count", "perf_events_count", "inherit_contexts_count",
};
#define NR_COUNTS	ARRAY_SIZE(count_files)

static void counts_read(long *v)
{
	char path[128], b[32];
	unsigned int i;

	for (i = 0; i < NR_COUNTS; i++) {
		snprintf(path, sizeof(path), PFM_SYSFS "/%s", count_files[i]);
		v[i] = sysfs_read(path, b, sizeof(b)) ? 0 : atol(b);
	}
}

/* The first count that differs, or -1. */
static int counts_diff(const long *a, const long *b)
{
	unsigned int i;

	for (i = 0; i < NR_COUNTS; i++)
		if (a[i] != b[i])
			return i;
	return -1;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1;		/* the directory's own */
}

static bool errno_allowed(const struct fcase *c, int err)
{
	unsigned int i;

	if (err == ENOMEM || err == EFAULT)
		return true;
	for (i = 0; i < FE_ERR_MAX; i++)
		if (c->errs[i] && c->errs[i] == err)
			return true;
	return false;
}

#define one_fail(c, n, ...) do {						\
	printf("FAIL %s, fault %u: ", (c)->name, (n));				\
	printf(__VA_ARGS__);							\
	printf("\n");								\
	fflush(stdout);								\
	return ONE_FAILED;							\
} while (0)

static int check_result(const struct fcase *c, unsigned int n, struct fenv *e, long r,
			const char *when)
{
	const char *why;

	if (r < 0)
		one_fail(c, n, "%s: failed: %s", when, strerror(errno));
	why = c->check ? c->check(e, r) : NULL;
	if (why)
		one_fail(c, n, "%s: %s", when, why);
	return ONE_INJECTED;
}

/* One fault point, in the child. */
static int sweep_one(const struct fcase *c, unsigned int n)
{
	static char st0[4096], st1[4096];
	long cnt0[NR_COUNTS], cnt1[NR_COUNTS];
	struct fenv e = { .kid = KID_INIT, .fd = { -1 } };
	int nfd0, err, i, ret;
	bool injected;
	long r;

	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		one_fail(c, n, "mlockall: %s", strerror(errno));
	if (c->setup && c->setup(&e))
		one_fail(c, n, "setup: %s", strerror(errno));
	if (fault_open())
		one_fail(c, n, "fail-nth: %s", strerror(errno));
	st0[0] = st1[0] = '\0';
	if (c->state)
		c->state(&e, st0, sizeof(st0));
	counts_read(cnt0);
	nfd0 = count_fds();

	fault_arm(n);
	errno = 0;
	r = c->op(&e);
	err = errno;
	injected = fault_disarm();

	if (!injected) {
		errno = err;
		ret = check_result(c, n, &e, r, "no fault injected");
		return ret == ONE_INJECTED ? ONE_DONE : ret;
	}
	if (r >= 0) {
		errno = err;
		ret = check_result(c, n, &e, r, "fault absorbed");
		return ret == ONE_INJECTED ? ONE_ABSORBED : ret;
	}
	if (c->flags & FC_NOFAIL)
		one_fail(c, n, "failed: %s", strerror(err));
	if (!errno_allowed(c, err))
		one_fail(c, n, "failed with %s", strerror(err));
	if (count_fds() != nfd0)
		one_fail(c, n, "%d fds after the failure, %d before", count_fds(), nfd0);
	counts_read(cnt1);
	i = counts_diff(cnt0, cnt1);
	if (i >= 0)
		one_fail(c, n, "%s %ld after the failure, %ld before", count_files[i],
			 cnt1[i], cnt0[i]);
	if (c->state) {
		c->state(&e, st1, sizeof(st1));
		if (strcmp(st0, st1))
			one_fail(c, n, "state changed by the failure:\n  before: %s\n  after:  %s",
				 st0, st1);
	}
	if (c->flags & FC_NORETRY)
		return ONE_INJECTED;
	errno = 0;
	r = c->op(&e);
	return check_result(c, n, &e, r, "retried without fault");
}

/* Waits for the counts to be back at base (an exit's release may lag): the first that is not. */
static int counts_settle(const long *base, long *now)
{
	int i, tries;

	for (tries = 0; tries < 200; tries++) {
		counts_read(now);
		i = counts_diff(base, now);
		if (i < 0)
			return -1;
		usleep(10000);
	}
	return i;
}

long sweep(const struct fcase *c, int verbose)
{
	long base[NR_COUNTS], now[NR_COUNTS];
	unsigned int n, absorbed = 0, failed = 0;
	int status, i;
	pid_t pid;

	counts_read(base);
	for (n = 1; n <= SWEEP_MAX; n++) {
		fflush(stdout);
		pid = fork();
		if (pid < 0) {
			printf("FAIL %s: fork: %s\n", c->name, strerror(errno));
			return -1;
		}
		if (!pid)
			_exit(sweep_one(c, n));
		if (waitpid(pid, &status, 0) != pid) {
			printf("FAIL %s, fault %u: waitpid: %s\n", c->name, n, strerror(errno));
			return -1;
		}
		i = counts_settle(base, now);
		if (i >= 0) {
			printf("FAIL %s, fault %u: %s %ld once the child is gone, %ld before\n",
			       c->name, n, count_files[i], now[i], base[i]);
			return -1;
		}
		if (!WIFEXITED(status)) {
			printf("FAIL %s, fault %u: child killed by signal %d\n", c->name, n,
			       WTERMSIG(status));
			return -1;
		}
		switch (WEXITSTATUS(status)) {
		case ONE_INJECTED:
			if (verbose)
				printf("  %s: fault %u failed the call, nothing changed\n",
				       c->name, n);
			break;
		case ONE_ABSORBED:
			if (verbose)
				printf("  %s: fault %u absorbed\n", c->name, n);
			absorbed++;
			break;
		case ONE_DONE:
			if (failed) {
				printf("FAIL %-34s %4u fault points, %u failed\n", c->name, n - 1,
				       failed);
				return -1;
			}
			printf("ok   %-34s %4u fault points (%u absorbed)\n", c->name, n - 1,
			       absorbed);
			return n - 1;
		default:
			/* printed by the child: the later fault points are swept all the same */
			failed++;
			break;
		}
	}
	printf("FAIL %s: still injecting at fault %u\n", c->name, n);
	return -1;
}
