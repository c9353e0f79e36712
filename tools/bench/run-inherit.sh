#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: the cost of counting children and threads, perfmon against perf_events.
insmod /lib/perfmon.ko || exit 1
# perf stat counts system calls at the raw_syscalls:sys_enter tracepoint
# the same layout in every run: fewer differences between the rounds
echo 0 > /proc/sys/kernel/randomize_va_space || exit 1
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
/bin/inherit_bench || exit 1
rmmod perfmon
