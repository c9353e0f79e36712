/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest test suites, one per file.
 */
#ifndef PFM_TESTS_SUITES_H
#define PFM_TESTS_SUITES_H

#include <check.h>

Suite *pfm_ctx_suite(void);		/* ctx.c: context creation, fds */
Suite *pfm_rw_suite(void);		/* rw.c: register vectors */
Suite *pfm_state_suite(void);		/* state.c: load/start/stop/unload */
Suite *pfm_count_suite(void);		/* count.c: exact software counts */
Suite *pfm_tracepoint_suite(void);	/* tracepoint.c: the TRACEPOINT event, keyed by id */
Suite *pfm_tp_filter_suite(void);	/* tp_filter.c: pfm_write_pmc_filter() */
Suite *pfm_isolation_suite(void);	/* isolation.c: per-thread, per-counter */
Suite *pfm_sysfs_suite(void);		/* sysfs.c: /sys/kernel/perfmon */
Suite *pfm_door_suite(void);		/* door.c: syscalls or /dev/perfmon */
Suite *pfm_attach_suite(void);		/* attach.c: contexts on other processes */
Suite *pfm_attach_races_suite(void);	/* attach_races.c: a target's exit inside the attach */
Suite *pfm_lifecycle_suite(void);	/* lifecycle.c: exit, fork, exec, close */
Suite *pfm_inherit_suite(void);		/* inherit.c: PFM_FL_INHERIT, children and threads */
void pfm_inherit_smpl_tests(TCase *tc);	/* inherit_smpl.c: its shared sampling buffer */
Suite *pfm_inherit_regs_suite(void);	/* inherit_regs.c: inheritors' sets, PMC writes after a fork */
Suite *pfm_access_suite(void);		/* access.c: who may do what, limits */
Suite *pfm_cpu_suite(void);		/* cpu.c: system-wide sessions, hotplug */
Suite *pfm_sets_suite(void);		/* sets.c: event sets, multiplexing */
Suite *pfm_mux_suite(void);		/* mux.c: the set switch log, estimates */
Suite *pfm_mux_accuracy_suite(void);	/* mux_accuracy.c: accuracy goals (check-mux) */
Suite *pfm_levels_suite(void);		/* levels.c: user and kernel level */
Suite *pfm_smpl_suite(void);		/* smpl.c: sampling buffers, locked memory */
Suite *pfm_notify_suite(void);		/* notify.c: overflow notification, restart */
Suite *pfm_perf_shim_suite(void);	/* perf_shim.c: pfm_perf_event_open's own rules */
Suite *pfm_perf_cpu_suite(void);	/* perf_cpu.c: CPU events on CPU sessions */
Suite *pfm_perf_cgroup_suite(void);	/* perf_cgroup.c: cgroup events, filtered, gates switching */
Suite *pfm_perf_sample_suite(void);
void pfm_perf_ring_tests(TCase *tc);	/* perf_sample's ring tests (shim/perf_sample_ring.c) */	/* perf_sample.c: perf's ring, samples, wakeups */
Suite *pfm_perf_mux_suite(void);	/* perf_mux.c: groups over event sets, pinned groups */
Suite *pfm_perf_freq_suite(void);	/* perf_freq.c: sample_freq, max rate, throttling */
Suite *pfm_perf_sideband_suite(void);	/* perf_sideband.c: COMM, MMAP2 */
Suite *pfm_perf_output_suite(void);	/* perf_output.c: SET_OUTPUT, ring lifetimes */
Suite *pfm_perf_async_suite(void);	/* perf_async.c: overflow signals, REFRESH */
Suite *pfm_perf_callchain_suite(void);	/* perf_callchain.c: user call chains */
Suite *pfm_security_suite(void);	/* security.c: exec ends access, sleepers leak nothing */
Suite *pfm_sleepers_suite(void);	/* sleepers.c: a detach gives all back, the thread asleep */
Suite *pfm_compat_pmc_suite(void);	/* compat_pmc.c: NetBSD's pmc_control(2) */
Suite *pfm_compat_perf_counter_suite(void); /* compat_perf_counter.c: 2008 perf_counter_open */
Suite *pfm_compat_perf_counter_shim_suite(void); /* compat_perf_counter_shim.c: its perf_event path: sampling, ring, inherit */
Suite *pfm_counts_page_suite(void);	/* counts_page.c: reads without a system call */
Suite *pfm_counts_reader_suite(void);	/* counts_reader.c: the prepared reader */

/* security.c: "pfm_tests --attach-sleeper N" (run-suite.sh's rmmod check) */
int attach_sleeper(long cycles);
/* sleepers.c: "pfm_tests --ran-sleepers" (run-suite.sh's rmmod check) */
int ran_sleepers(void);
/* door.c: "pfm_tests --first-read FD V" */
int first_read(int fd, const char *want);

#endif /* PFM_TESTS_SUITES_H */
