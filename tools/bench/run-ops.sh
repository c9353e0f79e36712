#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: the cost of each operation, perfmon against perf_events.
insmod /lib/perfmon.ko || exit 1
# The sampling operations sample every fault, some 125000 a second: past both
# kernels' perf_event_max_sample_rate (and past what perf_events' interrupt-time
# limit lowers it to), which would throttle them and drop samples.
echo 100000000 > /proc/sys/kernel/perf_event_max_sample_rate || exit 1
echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent || exit 1
echo 100000000 > /sys/kernel/perfmon/perf_max_sample_rate || exit 1
# perf counts system calls at the raw_syscalls:sys_enter tracepoint (sys-cnt)
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
# and perfmon's probe is seen to go between batches in its statistics
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
/bin/ops_bench || exit 1
rmmod perfmon
