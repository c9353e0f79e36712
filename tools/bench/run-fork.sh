#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: a fork-heavy program under pfmon (PFM_FL_INHERIT) and perf stat.
insmod /lib/perfmon.ko || exit 1
# perf counts system calls at the raw_syscalls:sys_enter tracepoint
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
/bin/fork_bench || exit 1
rmmod perfmon
