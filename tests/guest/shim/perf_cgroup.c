// SPDX-License-Identifier: GPL-2.0
/*
 * perf_cgroup: pfm_perf_event_open()'s cgroup events (PERF_FLAG_PID_CGROUP) with
 * a trace event filter, while their gates switch.  A cgroup event's counter is
 * switched on and off at every context switch of its CPU; SET_FILTER changes the
 * key its counter names.  Two processes on the event's CPU, one in the cgroup
 * and one out of it, pass a byte back and forth through pipes, so that the CPU
 * switches between them all the time, and the gate with it, while the test
 * (on the other CPU) opens, filters and closes events as perf stat -G does: one
 * per CPU, the same filter on each, so both share one filtered source, closed
 * in either order; then as perf stat -a --filter does, without the cgroup.  Any
 * hold of a source lost or left behind is a kernel WARNING, which fails the run.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "util.h"
#include "suites.h"

#define CG_DIR		"/sys/fs/cgroup/pfm_perf_cgroup"
#define ROUNDS		300

static int cg_open(void)
{
	int fd;

	if (access("/sys/fs/cgroup/cgroup.procs", F_OK))
		return -1;
	mkdir(CG_DIR, 0755);
	fd = open(CG_DIR, O_RDONLY | O_DIRECTORY);
	ck_assert_msg(fd >= 0, "%s: %s", CG_DIR, strerror(errno));
	return fd;
}

static void cg_enter(pid_t pid)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d\n", pid);
	int fd = open(CG_DIR "/cgroup.procs", O_WRONLY);

	ck_assert_msg(fd >= 0 && write(fd, buf, n) == n, "%d into %s: %s", pid, CG_DIR,
		      strerror(errno));
	close(fd);
}

/* Reads a byte from in and writes it to out, for ever, pinned to cpu. */
static pid_t ping(int cpu, int in, int out)
{
	pid_t pid = fork();
	char c;

	ck_assert_int_ge(pid, 0);
	if (pid)
		return pid;
	ck_pin(cpu);
	while (read(in, &c, 1) == 1 && write(out, &c, 1) == 1)
		;
	_exit(0);
}

static int open_tp(long id, int cg, int cpu, const char *filter)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(a),
		.config = id,
	};
	int fd = pfm_perf_event_open(&a, cg, cpu, -1, cg >= 0 ? PERF_FLAG_PID_CGROUP : 0);

	ck_assert_msg(fd >= 0, "cgroup event on CPU %d: %s", cpu, strerror(errno));
	ck_assert_msg(!ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter), "SET_FILTER %s: %s",
		      filter, strerror(errno));
	return fd;
}

static uint64_t read_count(int fd)
{
	uint64_t v;

	ck_assert_int_eq(read(fd, &v, sizeof(v)), sizeof(v));
	return v;
}

/*
 * ROUNDS of perf stat -G's opens and closes with the gates switching; then a
 * kid of the cgroup on the switching CPU makes 1000 getppid(): a filter on its
 * pid counts them exactly, one on pid 1 none.
 */
START_TEST(test_cgroup_filter_switching)
{
	long id = tracefs_syscall_id("sys_enter_getppid");
	struct kid k = KID_INIT;
	int ab[2], ba[2], cg, fd[2], i;
	pid_t a, b;
	char f[64];

	ck_assert_int_ge(id, 0);
	cg = cg_open();
	if (cg < 0)
		return;		/* no cgroup v2: nothing to gate on */
	ck_assert_ok(pipe(ab));
	ck_assert_ok(pipe(ba));
	a = ping(1, ba[0], ab[1]);
	b = ping(1, ab[0], ba[1]);
	cg_enter(a);
	ck_assert_int_eq(write(ba[1], "x", 1), 1);
	ck_pin(0);
	/* cgroup events, then CPU events (perf stat -a --filter); closed either way */
	for (i = 0; i < ROUNDS; i++) {
		int g = i < ROUNDS / 2 ? cg : -1;

		fd[0] = open_tp(id, g, 1, "common_pid != 0");
		fd[1] = open_tp(id, g, 0, "common_pid != 0");
		close(fd[i & 1]);
		close(fd[!(i & 1)]);
	}

	k.cpu = 1;
	ck_kid_start(&k);
	cg_enter(k.pid);
	snprintf(f, sizeof(f), "common_pid == %d", k.pid);
	fd[0] = open_tp(id, cg, 1, f);
	fd[1] = open_tp(id, cg, 1, "common_pid == 1");
	ck_kid_run(&k, 1000);
	ck_assert_uint_eq(read_count(fd[0]), 1000);
	ck_assert_uint_eq(read_count(fd[1]), 0);
	close(fd[1]);
	close(fd[0]);
	kid_kill(&k);

	kill(a, SIGKILL);
	kill(b, SIGKILL);
	raw_wait(a);
	raw_wait(b);
	ck_pin(-1);
	close(cg);
	rmdir(CG_DIR);
}
END_TEST

Suite *pfm_perf_cgroup_suite(void)
{
	Suite *s = suite_create("perf_cgroup");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_cgroup_filter_switching);
	suite_add_tcase(s, tc);
	return s;
}
