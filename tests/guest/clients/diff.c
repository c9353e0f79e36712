// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff A B [CASE...]: the differential test of the perf_event_open shim.
 *
 * Each case (diff_cases.c) makes a sequence of perf_event_open, ioctl, read and
 * close calls and records what it sees: every result and errno, every byte read.
 * It is run once with backend A and once with backend B, and the two traces must
 * agree observation by observation: errno by errno, sizes and counts exactly,
 * clocks within 5 % (diff.h).  A and B are `native` (the kernel's system call) or
 * `shim` (pfm_perf_event_open); `perf_diff native native` checks the harness
 * itself: a case that does not agree with itself measures nothing fixed.
 *
 * Only the open differs between the backends: read, ioctl and close go to the
 * fd's own file operations either way, as they do for the clients.
 *
 * `perf_diff native shim` (either order, or with the case clocks-together) also
 * opens both backends' clocks on one child (diff_together.c): between two of its
 * stops they must agree within 0.5 % and 1 ms.
 *
 * Prints "ok CASE" or "DIFF CASE: ..." per case, then a last line
 * "perf_diff: ok (N cases)" or "perf_diff: K of N cases differ: NAME..."; exit status 0
 * if every case agreed, 1 if not, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfmon.h"
#include "diff.h"

static int native_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		       int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static const struct backend backends[] = {
	{ "native", native_open },
	{ "shim", pfm_perf_event_open },
};

/* --- recording ---------------------------------------------------------------- */

void obs_call(struct trace *t, long ret, int exact, const char *fmt, ...)
{
	int err = errno;
	struct obs *o;
	va_list ap;

	if (t->n == TRACE_MAX) {
		fprintf(stderr, "perf_diff: a case records more than %d calls\n", TRACE_MAX);
		exit(2);
	}
	o = &t->o[t->n++];
	memset(o, 0, sizeof(*o));
	va_start(ap, fmt);
	vsnprintf(o->what, sizeof(o->what), fmt, ap);
	va_end(ap);
	o->ret = ret < 0 ? -1 : ret;
	o->err = ret < 0 ? err : 0;
	o->ret_exact = exact;
	errno = err;
}

void obs_vals(struct trace *t, const unsigned long long *v, int n, const char *kinds)
{
	struct obs *o = &t->o[t->n - 1];
	int i;

	for (i = 0; i < n && o->n < OBS_MAX_VALS; i++) {
		o->v[o->n] = v[i];
		o->kind[o->n++] = kinds[i] ? kinds[i] : 'e';
	}
}

void obs_val(struct trace *t, unsigned long long v, char kind)
{
	char k[2] = { kind, 0 };

	obs_vals(t, &v, 1, k);
}

/* --- comparing ---------------------------------------------------------------- */

static int val_agrees(char kind, unsigned long long a, unsigned long long b)
{
	double d;

	switch (kind) {
	case 'x':
		return 1;
	case 'c':
		d = (double)a * 0.05;
		return (double)b >= (double)a - d && (double)b <= (double)a + d;
	case 'r':
		return a && b && a <= 2 * b && b <= 2 * a;
	case 'f':
		return a <= b + 8 && b <= a + 8;
	case 'p':
		return a <= b + 10 && b <= a + 10;
	case 's':
		/*
		 * Scheduler counts: TCG's timer decides a preemption or a migration
		 * more or less, so two native runs differ by a few.  The level rule
		 * is checked exactly elsewhere
		 * (exclude_kernel reads 'e').
		 */
		if (a <= 2 && b <= 2)
			return 1;
		if (!a || !b)
			return 0;
		return a <= 4 * b && b <= 4 * a;
	default:
		return a == b;
	}
}

static int obs_agree(const struct obs *x, const struct obs *y)
{
	int j;

	if (strcmp(x->what, y->what) || (x->ret < 0) != (y->ret < 0) ||
	    x->err != y->err || (x->ret_exact && x->ret != y->ret) || x->n != y->n)
		return 0;
	for (j = 0; j < x->n; j++)
		if (!val_agrees(x->kind[j], x->v[j], y->v[j]))
			return 0;
	return 1;
}

static void show_obs(const char *name, const struct obs *o)
{
	int j;

	printf("    %-6s %s -> ", name, o->what);
	if (o->ret < 0)
		printf("-1 %s", strerror(o->err));
	else
		printf("%ld", o->ret);
	for (j = 0; j < o->n; j++)
		printf("%s%llu", j ? " " : ", values ", o->v[j]);
	printf("\n");
}

/* The first disagreement of two traces, printed after "DIFF CASE"; 0 if none. */
static int trace_differs(const char *name, const char *an, const struct trace *a,
			 const char *bn, const struct trace *b)
{
	int i;

	for (i = 0; i < a->n && i < b->n; i++) {
		if (obs_agree(&a->o[i], &b->o[i]))
			continue;
		printf("DIFF %s: call %d (value kinds %s)\n", name, i, a->o[i].kind);
		show_obs(an, &a->o[i]);
		show_obs(bn, &b->o[i]);
		return 1;
	}
	if (a->n == b->n)
		return 0;
	printf("DIFF %s: %s made %d calls, %s %d\n", name, an, a->n, bn, b->n);
	if (i < a->n)
		show_obs(an, &a->o[i]);
	if (i < b->n)
		show_obs(bn, &b->o[i]);
	return 1;
}

/* --- children and workloads ----------------------------------------------------- */

int child_start(struct child *c, void (*work)(long), long arg)
{
	int p[2], ready[2];
	char go;

	if (pipe(p))
		return -1;
	if (pipe(ready)) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	c->pid = fork();
	if (c->pid < 0)
		return -1;
	if (!c->pid) {
		close(p[1]);
		close(ready[0]);
		/*
		 * Fault in everything mapped now (code, data, stack): what the
		 * child counts after the start is its work alone, not the pages
		 * fork left it to fault in again, whose number depends on what
		 * the page cache and reclaim are doing meanwhile.
		 */
		if (!c->no_lock)
			mlockall(MCL_CURRENT);
		/* its faults done before the parent opens anything (the parent waits) */
		if (write(ready[1], "r", 1) != 1)
			_exit(3);
		close(ready[1]);
		/* blocked here, counting nothing, until the parent has opened */
		if (read(p[0], &go, 1) != 1)
			_exit(3);
		work(arg);
		_exit(0);
	}
	close(p[0]);
	close(ready[1]);
	/* a child still faulting its pages in would count in the parent's events */
	if (read(ready[0], &go, 1) != 1)
		go = 0;
	close(ready[0]);
	c->go = p[1];
	return 0;
}

void child_go(struct child *c)
{
	if (write(c->go, "g", 1) != 1)
		perror("perf_diff: child_go");
	close(c->go);
}

int child_wait(struct child *c)
{
	int st;

	if (waitpid(c->pid, &st, 0) != c->pid)
		return -1;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

void work_touch(long pages)
{
	long psz = sysconf(_SC_PAGESIZE), i;
	volatile char *p;

	p = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	for (i = 0; i < pages; i++)
		p[i * psz] = 1;
	munmap((void *)p, pages * psz);
}

long long thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void work_spin(long ms)
{
	long long end = thread_ns() + ms * 1000000LL;

	while (thread_ns() < end)
		;
}

void work_sleep(long n)
{
	struct timespec ts = { 0, 1000000 };

	while (n--)
		nanosleep(&ts, NULL);
}

void work_fork_touch(long pages)
{
	pid_t pid = fork();

	if (!pid) {
		work_touch(pages);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

void work_none(long unused)
{
	(void)unused;
}

void attr_sw(struct perf_event_attr *a, unsigned long long config)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = config;
	a->disabled = 1;
}

/* --- main ----------------------------------------------------------------------- */

static const struct backend *backend(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (!strcmp(backends[i].name, name))
			return &backends[i];
	return NULL;
}

static int wanted(const char *name, int argc, char **argv)
{
	int i;

	if (argc == 0)
		return 1;
	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], name))
			return 1;
	return 0;
}

static struct trace ta, tb;

static int clock_case(const char *name)
{
	int i;

	for (i = 0; diff_clock_cases[i]; i++)
		if (!strcmp(diff_clock_cases[i], name))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const struct backend *a, *b;
	/* the names of the cases that differ, for the one line a failed run shows */
	char bad_names[256] = "";
	int ran = 0, bad = 0;
	size_t i;

	if (argc < 3 || !(a = backend(argv[1])) || !(b = backend(argv[2]))) {
		fprintf(stderr, "usage: perf_diff native|shim native|shim [CASE...]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < diff_ncases; i++) {
		const struct diff_case *c = &diff_cases[i];

		if (!wanted(c->name, argc - 3, argv + 3))
			continue;
		/*
		 * A first run, not compared, pages in the code and data the case
		 * runs and, under TCG, has its code translated: otherwise the
		 * first backend pays for both, in page faults and in clocks.
		 */
		memset(&ta, 0, sizeof(ta));
		c->run(a, &ta);
		memset(&ta, 0, sizeof(ta));
		memset(&tb, 0, sizeof(tb));
		c->run(a, &ta);
		c->run(b, &tb);
		ran++;
		if (clock_case(c->name) && trace_differs(c->name, a->name, &ta, b->name, &tb)) {
			printf("again %s: a difference in its clocks is looked at once more\n",
			       c->name);
			memset(&ta, 0, sizeof(ta));
			memset(&tb, 0, sizeof(tb));
			c->run(a, &ta);
			c->run(b, &tb);
		}
		if (trace_differs(c->name, a->name, &ta, b->name, &tb)) {
			bad++;
			snprintf(bad_names + strlen(bad_names),
				 sizeof(bad_names) - strlen(bad_names), " %s", c->name);
		} else {
			printf("ok %s (%d calls)\n", c->name, ta.n);
		}
	}
	/* native against the shim: their clocks on one run too */
	if (a != b && wanted("clocks-together", argc - 3, argv + 3)) {
		ran++;
		if (!strcmp(a->name, "native") ? clocks_together(a, b) : clocks_together(b, a)) {
			bad++;
			snprintf(bad_names + strlen(bad_names),
				 sizeof(bad_names) - strlen(bad_names), " clocks-together");
		}
	}
	if (!ran) {
		fprintf(stderr, "perf_diff: no such case\n");
		return 2;
	}
	if (bad) {
		printf("perf_diff: %d of %d cases differ:%s\n", bad, ran, bad_names);
		return 1;
	}
	printf("perf_diff: ok (%d cases)\n", ran);
	return 0;
}
