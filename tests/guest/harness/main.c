// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_tests: the perfmon guest test suite.
 *
 * Runs as root in the guest with perfmon.ko loaded.  Every test runs in its
 * own process (CK_FORK), so a crash or a leaked context stays in that test.
 * CK_RUN_SUITE / CK_RUN_CASE select a part, as with any check runner.
 * Exit status: 0 when every test passed.
 *
 * "pfm_tests --getppid N" makes N getppid system calls and exits, nothing
 * else: lifecycle.c execs it in a monitored process.
 *
 * "pfm_tests --attach-sleeper N" forks a process that sleeps for ever, attaches
 * to it and closes N times, prints its pid and exits: run-suite.sh then checks
 * that the module unloads while that process still sleeps.
 *
 * "pfm_tests --ran-sleepers" leaves threads that ran after an attach asleep in
 * pause(), read() and stopped, their controllers gone, and prints the pid of the
 * process that wakes them at SIGUSR1 (sleepers.c).
 *
 * "pfm_tests --first-read FD V" reads a PMD of FD as its first call of
 * libperfmon (door.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perfmon.h"
#include "suites.h"
#include "util.h"

int main(int argc, char **argv)
{
	SRunner *sr;
	int door, failed;

	/* before anything that makes a system call */
	if (argc == 3 && !strcmp(argv[1], "--getppid")) {
		do_getppid(atol(argv[2]));
		_exit(0);
	}

	if (argc == 3 && !strcmp(argv[1], "--attach-sleeper"))
		return attach_sleeper(atol(argv[2]));

	if (argc == 2 && !strcmp(argv[1], "--ran-sleepers"))
		return ran_sleepers();

	if (argc == 4 && !strcmp(argv[1], "--first-read"))
		return first_read(atoi(argv[2]), argv[3]);

	door = pfm_door();
	if (door < 0)
		printf("pfm_tests: no perfmon door: %s\n", strerror(errno));
	else
		printf("pfm_tests: door: %s\n",
		       door == PFM_DOOR_SYSCALL ? "syscalls" : "/dev/perfmon");
	fflush(stdout);
	/*
	 * The unprivileged cases assume the kernel's default paranoid level, 2, which
	 * perfmon follows; Debian's kernels ship with 3 (access.c tests that one).
	 */
	if (sysfs_write("/proc/sys/kernel/perf_event_paranoid", "2\n"))
		printf("pfm_tests: kernel.perf_event_paranoid: %s\n", strerror(errno));

	sr = srunner_create(pfm_ctx_suite());
	srunner_add_suite(sr, pfm_rw_suite());
	srunner_add_suite(sr, pfm_state_suite());
	srunner_add_suite(sr, pfm_count_suite());
	srunner_add_suite(sr, pfm_tracepoint_suite());
	srunner_add_suite(sr, pfm_tp_filter_suite());
	srunner_add_suite(sr, pfm_isolation_suite());
	srunner_add_suite(sr, pfm_sysfs_suite());
	srunner_add_suite(sr, pfm_door_suite());
	srunner_add_suite(sr, pfm_attach_suite());
	srunner_add_suite(sr, pfm_attach_races_suite());
	srunner_add_suite(sr, pfm_lifecycle_suite());
	srunner_add_suite(sr, pfm_inherit_suite());
	srunner_add_suite(sr, pfm_inherit_regs_suite());
	srunner_add_suite(sr, pfm_access_suite());
	srunner_add_suite(sr, pfm_cpu_suite());
	srunner_add_suite(sr, pfm_sets_suite());
	srunner_add_suite(sr, pfm_mux_suite());
	srunner_add_suite(sr, pfm_mux_accuracy_suite());
	srunner_add_suite(sr, pfm_levels_suite());
	srunner_add_suite(sr, pfm_smpl_suite());
	srunner_add_suite(sr, pfm_notify_suite());
	srunner_add_suite(sr, pfm_perf_shim_suite());
	srunner_add_suite(sr, pfm_perf_cpu_suite());
	srunner_add_suite(sr, pfm_perf_cgroup_suite());
	srunner_add_suite(sr, pfm_perf_sample_suite());
	srunner_add_suite(sr, pfm_perf_freq_suite());
	srunner_add_suite(sr, pfm_perf_mux_suite());
	srunner_add_suite(sr, pfm_perf_sideband_suite());
	srunner_add_suite(sr, pfm_perf_output_suite());
	srunner_add_suite(sr, pfm_perf_async_suite());
	srunner_add_suite(sr, pfm_perf_callchain_suite());
	srunner_add_suite(sr, pfm_security_suite());
	srunner_add_suite(sr, pfm_sleepers_suite());
	srunner_add_suite(sr, pfm_compat_pmc_suite());
	srunner_add_suite(sr, pfm_compat_perf_counter_suite());
	srunner_add_suite(sr, pfm_compat_perf_counter_shim_suite());
	srunner_add_suite(sr, pfm_counts_page_suite());
	srunner_add_suite(sr, pfm_counts_reader_suite());
	srunner_set_fork_status(sr, CK_FORK);

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
