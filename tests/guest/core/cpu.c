// SPDX-License-Identifier: GPL-2.0
/*
 * cpu: system-wide (per-CPU) sessions.
 *
 * A CPU session counts what happens on its CPU, whoever runs there, and is
 * controlled from any CPU.  It counts beside per-thread sessions (software
 * events count for both), and goes away with its CPU.  The guest has two CPUs; the tests pin the
 * controller and the workload to keep them apart.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
#define FAULT_PAGES	256

static uint64_t elapsed_ns(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000000ULL + b->tv_nsec - a->tv_nsec;
}

static void ck_two_cpus(void)
{
	ck_assert_msg(sysconf(_SC_NPROCESSORS_ONLN) >= 2,
		      "the guest must have two CPUs online");
}

START_TEST(test_sys_bad_cpu)
{
	int fd = ck_sys_ctx(PFM_SW_EV_SYSCALLS);

	ck_assert_errno(pfm_load_context(fd, 0, possible_cpus()), EINVAL);
	ck_assert_errno(pfm_load_context(fd, 0, INT_MAX), EINVAL);
	ck_assert_errno(pfm_load_context(fd, 0, -1), EINVAL);
	ck_assert_errno(pfm_start(fd, 0), EINVAL);
	ck_load(fd, 0);
	ck_assert_ok(pfm_unload_context(fd, 0));
	close(fd);
}
END_TEST

/*
 * A kid pinned to CPU 1 makes N system calls: the CPU 1 session sees them
 * (and whatever else runs there, little in the guest), the CPU 0 session,
 * with the controller on CPU 0, does not.
 */
#define SYS_N		10000

START_TEST(test_sys_counts_cpu)
{
	struct kid k = KID_INIT;
	int f0, f1, rs0, rs1, rt0, rt1, ro, status;
	uint64_t c0, c1;
	pid_t w;

	ck_two_cpus();
	ck_pin(0);
	k.cpu = 1;
	ck_kid_start(&k);
	f0 = ck_sys_ctx(PFM_SW_EV_SYSCALLS);
	f1 = ck_sys_ctx(PFM_SW_EV_SYSCALLS);
	ck_load(f0, 0);
	ck_load(f1, 1);

	rs0 = pfm_start(f0, 0);
	rs1 = pfm_start(f1, 0);
	/* N getppid and exit: the read it wakes from was entered before */
	ro = kid_order(&k, -SYS_N - 1);
	w = waitpid(k.pid, &status, 0);
	rt1 = pfm_stop(f1, 0);
	rt0 = pfm_stop(f0, 0);

	ck_assert_int_eq(rs0, 0);
	ck_assert_int_eq(rs1, 0);
	ck_assert_int_eq(ro, 0);
	ck_assert_int_eq(w, k.pid);
	ck_assert_int_eq(status, 0);
	ck_assert_int_eq(rt1, 0);
	ck_assert_int_eq(rt0, 0);
	k.pid = -1;
	kid_kill(&k);

	c0 = count(f0);
	c1 = count(f1);
	/* N getppid and the exit_group, plus the odd call of another task */
	ck_assert_msg(c1 >= SYS_N + 1 && c1 <= SYS_N + 200,
		      "CPU 1 counted %llu for %d", (unsigned long long)c1, SYS_N);
	ck_assert_msg(c0 < SYS_N / 10, "CPU 0 counted %llu",
		      (unsigned long long)c0);
	close(f0);
	close(f1);
}
END_TEST

/*
 * CPU_MIGRATIONS in a CPU session: threads moved onto the CPU.  The test moves
 * itself from CPU 0 to CPU 1 MIG_N times; little else moves in the guest.
 */
#define MIG_N		20

START_TEST(test_sys_migrations_in)
{
	int f1, i, rs, rt;
	uint64_t n;

	ck_two_cpus();
	ck_pin(0);
	f1 = ck_sys_ctx(PFM_SW_EV_CPU_MIGRATIONS);
	ck_load(f1, 1);
	rs = pfm_start(f1, 0);
	for (i = 0; i < MIG_N; i++) {
		ck_pin(1);
		ck_pin(0);
	}
	rt = pfm_stop(f1, 0);
	ck_pin(-1);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	n = count(f1);
	ck_assert_msg(n >= MIG_N && n <= MIG_N + 100, "CPU 1 counted %llu moves in for %d",
		      (unsigned long long)n, MIG_N);
	close(f1);
}
END_TEST

/* TASK_CLOCK in a CPU session is wall-clock time while started. */
START_TEST(test_sys_task_clock)
{
	struct timespec t0, t1;
	uint64_t ns, window;
	int fd = ck_sys_ctx(PFM_SW_EV_TASK_CLOCK), rs, rt;

	ck_load(fd, 1 % possible_cpus());
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rs = pfm_start(fd, 0);
	usleep(200000);
	rt = pfm_stop(fd, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ns = count(fd);
	window = elapsed_ns(&t0, &t1);
	/*
	 * The clock is local_clock(): where the guest marks its TSC unstable, CPU
	 * 1's may run up to a tick (4 ms) ahead of CLOCK_MONOTONIC at each end.
	 */
	ck_assert_msg(ns >= 190 * NSEC_PER_MSEC && ns <= 260 * NSEC_PER_MSEC &&
		      ns <= window + 8 * NSEC_PER_MSEC,
		      "%llu ns counted over a 200 ms sleep (%llu ns between the calls)",
		      (unsigned long long)ns, (unsigned long long)window);
	close(fd);
}
END_TEST

/* One CPU session per CPU. */
START_TEST(test_sys_one_per_cpu)
{
	int a = ck_sys_ctx(PFM_SW_EV_SYSCALLS), b = ck_sys_ctx(PFM_SW_EV_SYSCALLS);
	int c = ck_sys_ctx(PFM_SW_EV_SYSCALLS);

	ck_two_cpus();
	ck_load(a, 0);
	ck_assert_errno(pfm_load_context(b, 0, 0), EBUSY);
	ck_assert_errno(pfm_start(b, 0), EINVAL);
	ck_load(b, 1);
	ck_assert_errno(pfm_load_context(c, 0, 1), EBUSY);
	ck_assert_errno(pfm_load_context(c, 0, 0), EBUSY);
	ck_assert_ok(pfm_unload_context(a, 0));
	ck_load(c, 0);
	/* a close frees the CPU too */
	close(b);
	ck_load(a, 1);
	ck_assert_ok(pfm_unload_context(a, 0));
	ck_assert_ok(pfm_unload_context(c, 0));
	close(a);
	close(c);
}
END_TEST

/*
 * Per-thread and CPU sessions of software events coexist, loaded in either
 * order, on the CPU's threads or elsewhere.
 */
START_TEST(test_sys_and_task_coexist)
{
	struct kid k = KID_INIT;
	int s = ck_sys_ctx(PFM_SW_EV_SYSCALLS), t = ck_ctx_create();

	ck_two_cpus();
	ck_kid_start(&k);
	ck_load(s, 0);
	ck_load_self(t);
	ck_assert_ok(pfm_unload_context(t, 0));
	ck_assert_ok(pfm_load_context(t, 0, k.pid));
	ck_assert_ok(pfm_unload_context(s, 0));
	ck_load(s, 1);
	ck_assert_ok(pfm_start(s, 0));
	ck_assert_ok(pfm_start(t, 0));
	ck_kid_run_exit(&k, 0);
	ck_assert_ok(pfm_unload_context(s, 0));
	close(s);
	close(t);
}
END_TEST

/*
 * The same thread's page faults, counted by its own session and by the session
 * of the CPU it is pinned to, each exactly: an event counts for both.  The
 * thread's session then stopped, the CPU's counts on alone.
 */
START_TEST(test_sys_and_task_count_same_faults)
{
	int s = ck_sys_ctx(PFM_SW_EV_PAGE_FAULTS), t = ck_ctx_create();
	char *warm = ck_fresh_pages(1);
	char *p = ck_fresh_pages(2 * FAULT_PAGES);
	int rs, rt, ps, pt;

	ck_two_cpus();
	ck_pin(0);
	ck_counter(t, 0, PFM_SW_EV_PAGE_FAULTS);
	ck_load_self(t);
	ck_load(s, 0);
	/* fault in what the window runs besides the pages (count.c) */
	touch_pages(warm, 1);
	ck_assert_ok(pfm_stop(t, 0));
	ck_assert_ok(pfm_stop(s, 0));

	rs = pfm_start(s, 0);
	rt = pfm_start(t, 0);
	touch_pages(p, FAULT_PAGES);
	pt = pfm_stop(t, 0);
	touch_pages(p + FAULT_PAGES * page_size(), FAULT_PAGES);
	ps = pfm_stop(s, 0);
	ck_pin(-1);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_int_eq(pt, 0);
	ck_assert_int_eq(ps, 0);
	ck_assert_uint_eq(ck_read_pmd(t, SW_PMD(0)), FAULT_PAGES);
	ck_assert_uint_eq(ck_read_pmd(s, SW_PMD(0)), 2 * FAULT_PAGES);
	close(s);
	close(t);
}
END_TEST

/* Unchecked fixture: CPU 1 back online whatever a test did. */
static void cpu1_online(void)
{
	char buf[8];

	if (!sysfs_read(CPU1_ONLINE, buf, sizeof(buf)) && buf[0] == '0' &&
	    sysfs_write(CPU1_ONLINE, "1\n"))
		fprintf(stderr, "cpu: cannot bring CPU 1 back online\n");
}

/* Taking a CPU offline detaches its session, counts kept. */
#define HOTPLUG_N	1000

START_TEST(test_hotplug_detaches)
{
	int fd, other, rs, r, err;
	uint64_t c1, c2;

	if (access(CPU1_ONLINE, F_OK)) {
		printf("cpu: no %s: hotplug test skipped\n", CPU1_ONLINE);
		return;
	}
	ck_assert_int_eq(ck_sysfs_read_long(CPU1_ONLINE), 1);
	fd = ck_sys_ctx(PFM_SW_EV_SYSCALLS);
	other = ck_sys_ctx(PFM_SW_EV_SYSCALLS);
	ck_load(fd, 1);
	ck_pin(1);
	rs = pfm_start(fd, 0);
	do_getppid(HOTPLUG_N);
	/* free to move off CPU 1 when it goes */
	ck_pin(-1);
	ck_assert_int_eq(rs, 0);

	errno = 0;
	r = sysfs_write(CPU1_ONLINE, "0\n");
	err = errno;
	ck_assert_msg(!r, "taking CPU 1 offline: %s", strerror(err));

	ck_assert_errno(pfm_start(fd, 0), EINVAL);
	ck_assert_errno(pfm_stop(fd, 0), EINVAL);
	ck_assert_errno(pfm_unload_context(fd, 0), EINVAL);
	c1 = count(fd);
	/* the getppid, the pin, the start's and the write's own calls */
	ck_assert_msg(c1 >= HOTPLUG_N && c1 <= HOTPLUG_N + 200,
		      "counted %llu for %d", (unsigned long long)c1, HOTPLUG_N);
	ck_assert_errno(pfm_load_context(fd, 0, 1), EINVAL);
	ck_assert_errno(pfm_load_context(other, 0, 1), EINVAL);

	ck_assert_ok(sysfs_write(CPU1_ONLINE, "1\n"));
	c2 = count(fd);
	ck_assert_uint_eq(c2, c1);
	ck_load(fd, 1);
	ck_assert_ok(pfm_start(fd, 0));
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_assert_errno(pfm_unload_context(fd, 0), EINVAL);
	ck_load(other, 1);
	close(other);
	close(fd);
}
END_TEST

Suite *pfm_cpu_suite(void)
{
	Suite *s = suite_create("cpu");
	TCase *tc;

	tc = pfm_tcase("cpu");
	tcase_add_test(tc, test_sys_bad_cpu);
	tcase_add_test(tc, test_sys_counts_cpu);
	tcase_add_test(tc, test_sys_task_clock);
	tcase_add_test(tc, test_sys_migrations_in);
	tcase_add_test(tc, test_sys_one_per_cpu);
	tcase_add_test(tc, test_sys_and_task_coexist);
	tcase_add_test(tc, test_sys_and_task_count_same_faults);
	suite_add_tcase(s, tc);

	tc = pfm_tcase("hotplug");
	tcase_add_unchecked_fixture(tc, NULL, cpu1_online);
	tcase_add_test(tc, test_hotplug_detaches);
	suite_add_tcase(s, tc);
	return s;
}
