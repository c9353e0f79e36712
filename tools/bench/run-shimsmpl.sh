#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: the cost of a sample through the shim against perf_events'.
insmod /lib/perfmon.ko || exit 1
# Every fault is sampled, some 125000 a second and n times over: past both
# kernels' max sample rate (and perf's interrupt-time limit), which would
# throttle the events and drop samples (as run-ops.sh).
echo 100000000 > /proc/sys/kernel/perf_event_max_sample_rate || exit 1
echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent || exit 1
echo 100000000 > /sys/kernel/perfmon/perf_max_sample_rate || exit 1
# perfmon's page fault probes are seen to go between batches in its statistics
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
/bin/shimsmpl_bench || exit 1
rmmod perfmon
