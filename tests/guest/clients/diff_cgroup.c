// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff's cgroup case (perf stat -G): events on one CPU that count only
 * while a task of a cgroup v2 cgroup runs there (PERF_FLAG_PID_CGROUP, pid a
 * cgroup directory's fd).  A child moved into a new cgroup touches CG_PAGES
 * fresh pages on the test's CPU, while the test itself, in the root cgroup,
 * touches as many: the cgroup's page faults are the child's ('f', as a fresh
 * child's are), none of the test's; the root cgroup's event sees both.  Then
 * the refusals in 6.1's order: a cgroup event with cpu -1 (EINVAL), an fd that
 * is no cgroup (EBADF), a member of another cgroup than its leader's (EINVAL).
 * The case is skipped (no observation) where cgroup v2 is not mounted.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff.h"

#define CG_ROOT		"/sys/fs/cgroup"
#define CG_DIR		CG_ROOT "/perf_diff"
#define CG_PAGES	32

static int cg_cpu(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
}

/* The child, already in the cgroup and pinned with the test: fresh pages. */
static void cg_touch(long pages)
{
	volatile char *p = fresh(pages);

	if (p)
		touch(p, 0, pages);
}

int cg_dir_open(const char *dir)
{
	int fd = open("/sys/fs/cgroup/cgroup.procs", O_RDONLY);

	if (fd < 0)
		return -1;
	close(fd);
	mkdir(dir, 0755);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		rmdir(dir);
	return fd;
}

int cg_enter(const char *dir, pid_t pid)
{
	char buf[PATH_MAX];
	int fd, n, ok;

	snprintf(buf, sizeof(buf), "%s/cgroup.procs", dir);
	fd = open(buf, O_WRONLY);
	if (fd < 0)
		return -1;
	n = snprintf(buf, sizeof(buf), "%d\n", pid);
	ok = write(fd, buf, n) == n;
	close(fd);
	return ok ? 0 : -1;
}

static int open_cg(const struct backend *be, struct trace *t, int cg, int cpu, int group,
		   const char *what)
{
	struct perf_event_attr a;

	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	return do_open(be, t, &a, cg, cpu, group, PERF_FLAG_PID_CGROUP, what);
}

void case_cgroup(const struct backend *be, struct trace *t)
{
	struct child ch = { 0 };
	int cpu = cg_cpu(), cg, root, null, fd = -1, all = -1, m;
	unsigned long long v = 0, w = 0;
	volatile char *p;

	cg = cg_dir_open(CG_DIR);
	if (cg < 0)
		return;
	root = open(CG_ROOT, O_RDONLY | O_DIRECTORY);
	null = open("/dev/null", O_RDONLY);
	p = fresh(CG_PAGES);
	if (root < 0 || null < 0 || !p)
		goto out;
	pin(cpu);
	if (child_start(&ch, cg_touch, CG_PAGES))
		goto out_pin;
	obs_call(t, cg_enter(CG_DIR, ch.pid), 1, "child into the cgroup");

	open_cg(be, t, cg, -1, -1, "cgroup event, cpu -1");
	open_cg(be, t, null, cpu, -1, "cgroup event, /dev/null as the cgroup");
	fd = open_cg(be, t, cg, cpu, -1, "page-faults:u of the cgroup on the CPU");
	all = open_cg(be, t, root, cpu, -1, "page-faults:u of the root cgroup on the CPU");
	if (fd >= 0) {
		m = open_cg(be, t, root, cpu, fd, "member of another cgroup");
		if (m >= 0)
			close(m);
	}
	if (fd < 0 || all < 0) {
		child_go(&ch);
		child_wait(&ch);
		goto out_pin;
	}
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE cgroup's");
	do_ioctl(t, all, PERF_EVENT_IOC_ENABLE, 0, "ENABLE root's");
	touch(p, 0, CG_PAGES);
	child_go(&ch);
	obs_call(t, child_wait(&ch), 1, "child touches %d pages", CG_PAGES);
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "DISABLE cgroup's");
	do_ioctl(t, all, PERF_EVENT_IOC_DISABLE, 0, "DISABLE root's");
	do_read(t, fd, &v, sizeof(v), "the cgroup's faults");
	obs_val(t, v, 'f');
	do_read(t, all, &w, sizeof(w), "the root cgroup's faults");
	/* the test's own, exactly, and the child's */
	obs_val(t, w >= v + CG_PAGES, 'e');
	obs_val(t, w - CG_PAGES, 'f');
out_pin:
	pin(-1);
out:
	if (all >= 0)
		close(all);
	if (fd >= 0)
		close(fd);
	if (p)
		munmap((void *)p, CG_PAGES * sysconf(_SC_PAGESIZE));
	if (null >= 0)
		close(null);
	if (root >= 0)
		close(root);
	if (cg >= 0)
		close(cg);
	rmdir(CG_DIR);
}
