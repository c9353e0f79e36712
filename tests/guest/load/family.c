// SPDX-License-Identifier: GPL-2.0
/*
 * Inherited counts across forks: a thread counts itself and the children it
 * forks in a window, each child making k getppid() and exiting; the children are
 * reaped before the window ends, so the thread's count is their sum exactly.
 * The forks, waits and exits are raw system calls (a libc adds none of its own).
 *   inh_worker: a PFM_FL_INHERIT context counting system calls: the window counts
 *     each fork and wait4, each child's k and exit_group, and pfm_stop()
 *     (perfmon.h, INHERITANCE);
 *   pinh_worker: a shim event with inherit on syscalls:sys_enter_getppid: the
 *     window counts the children's k each, nothing else.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/perf_event.h>

#include "load.h"

#define MAX_KIDS	4

/* n children of k getppid() each, forked and reaped; the number forked */
static int fork_kids(int n, long k)
{
	pid_t pid[MAX_KIDS];
	int i, forked = 0;

	for (i = 0; i < n; i++) {
		pid[i] = load_raw_fork();
		if (!pid[i]) {
			load_getppid(k);
			load_raw_exit();
		}
		forked += pid[i] > 0;
	}
	for (i = 0; i < n; i++)
		if (pid[i] > 0)
			load_raw_wait(pid[i]);
	return forked;
}

static int inherit_ctx(void)
{
	struct pfarg_pmc pc = { .reg_num = SW_PMC(0),
				.reg_value = PFM_SW_PMC(PFM_SW_EV_SYSCALLS) };
	struct pfarg_pmd pd = { .reg_num = SW_PMD(0) };
	int fd = pfm_create_context(PFM_FL_INHERIT);

	if (fd < 0)
		return -1;
	if (pfm_write_pmcs(fd, &pc, sizeof(pc)) || pfm_write_pmds(fd, &pd, sizeof(pd)) ||
	    pfm_load_context(fd, 0, load_tid())) {
		close(fd);
		return -1;
	}
	return fd;
}

void *inh_worker(void *arg)
{
	struct slot *s = arg;
	struct pfarg_pmd pd = { .reg_num = SW_PMD(0) };
	int rounds = load_rand(&s->seed, 3, 12), r, n, forked, rs, rt, fd;
	uint64_t prev = 0, want, k;

	fd = inherit_ctx();
	if (fd < 0) {
		load_fail("inherit %d: context: %s", s->index, strerror(errno));
		goto out;
	}
	for (r = 0; r < rounds && !load.stop; r++) {
		n = load_size(&s->seed, 1, MAX_KIDS, 1);
		k = load_size(&s->seed, 100, 1000, 10);
		rs = pfm_start(fd, 0);
		forked = fork_kids(n, k);
		rt = pfm_stop(fd, 0);
		if (rs || rt || forked != n || pfm_read_pmds(fd, &pd, sizeof(pd))) {
			load_fail("inherit %d: start %d, stop %d, %d of %d forked, read: %s",
				  s->index, rs, rt, forked, n, strerror(errno));
			break;
		}
		want = n + n + n * (k + 1) + 1;
		if (pd.reg_value - prev != want)
			load_fail("inherit %d: %d children of %llu getppid: %llu counted, not %llu",
				  s->index, n, (unsigned long long)k,
				  (unsigned long long)(pd.reg_value - prev),
				  (unsigned long long)want);
		prev = pd.reg_value;
		STAT_ADD(rounds, 1);
		STAT_ADD(processes, n);
		STAT_ADD(inh_syscalls, want);
	}
	close(fd);
out:
	s->done = 1;
	return NULL;
}

void *pinh_worker(void *arg)
{
	struct slot *s = arg;
	int rounds = load_rand(&s->seed, 3, 12), r, n, forked, e, d, fd;
	uint64_t prev = 0, v = 0, k;
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_TRACEPOINT;
	a.size = sizeof(a);
	a.config = load.tp_getppid;
	a.disabled = 1;
	a.inherit = 1;
	a.exclude_kernel = 1;
	fd = pfm_perf_event_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		load_fail("shim inherit %d: pfm_perf_event_open: %s", s->index, strerror(errno));
		goto out;
	}
	for (r = 0; r < rounds && !load.stop; r++) {
		n = load_size(&s->seed, 1, MAX_KIDS, 1);
		k = load_size(&s->seed, 100, 1000, 10);
		e = ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		forked = fork_kids(n, k);
		d = ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		if (e || d || forked != n || read(fd, &v, sizeof(v)) != sizeof(v)) {
			load_fail("shim inherit %d: enable %d, disable %d, %d of %d forked, read: %s",
				  s->index, e, d, forked, n, strerror(errno));
			break;
		}
		if (v - prev != n * k)
			load_fail("shim inherit %d: %d children of %llu getppid: %llu counted, not %llu",
				  s->index, n, (unsigned long long)k,
				  (unsigned long long)(v - prev), (unsigned long long)(n * k));
		prev = v;
		STAT_ADD(rounds, 1);
		STAT_ADD(processes, n);
		STAT_ADD(pinh_hits, n * k);
	}
	close(fd);
out:
	s->done = 1;
	return NULL;
}
