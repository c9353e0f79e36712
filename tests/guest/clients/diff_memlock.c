// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff: a ring's locked memory, as perf_mmap() counts it.  A child as
 * nobody with RLIMIT_MEMLOCK 0 maps a ring within perf_event_mlock_kb (516 KiB
 * per CPU by default, on both sides) and one far past it: 0, then EPERM.
 * perf_event_paranoid is 2 for the run (Debian's 3 refuses nobody at open).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "diff.h"

static int map_ring(const struct backend *be, long data_pages)
{
	struct perf_event_attr a;
	void *m;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	a.exclude_kernel = 1;
	a.disabled = 1;
	a.sample_period = 1;
	fd = be->open(&a, 0, -1, -1, 0);
	if (fd < 0)
		return errno | 0x1000;	/* the open's errno, told apart */
	m = mmap(NULL, (1 + data_pages) * sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		 MAP_SHARED, fd, 0);
	return m == MAP_FAILED ? errno : 0;
}

void case_ring_memlock(const struct backend *be, struct trace *t)
{
	struct rlimit rl = { 0, 0 };
	char old[16] = "";
	int pfd[2], res[2] = { -1, -1 }, status;
	pid_t pid;

	if (knob(PARANOID, "2\n", old, sizeof(old)) || pipe(pfd))
		return;
	pid = fork();
	if (!pid) {
		if (setrlimit(RLIMIT_MEMLOCK, &rl) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(1);
		res[0] = map_ring(be, 8);	/* 36 KiB */
		res[1] = map_ring(be, 1024);	/* 4 MiB: past 516 KiB a CPU */
		_exit(write(pfd[1], res, sizeof(res)) == sizeof(res) ? 0 : 1);
	}
	close(pfd[1]);
	if (read(pfd[0], res, sizeof(res)) != sizeof(res))
		res[0] = res[1] = -1;
	close(pfd[0]);
	waitpid(pid, &status, 0);
	knob(PARANOID, old, NULL, 0);
	obs_call(t, status, 1, "child as nobody");
	errno = res[0];
	obs_call(t, res[0] ? -1 : 0, 1, "ring of 1 + 8 pages, no locked memory");
	errno = res[1];
	obs_call(t, res[1] ? -1 : 0, 1, "ring of 1 + 1024 pages, no locked memory");
}
