#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: the cost of a context switch while counting, perfmon against perf_events.
insmod /lib/perfmon.ko || exit 1
# The ring's threads are SCHED_FIFO and keep the CPU busy for seconds: no
# throttling of real-time threads (it would idle the CPU 50 ms every second).
echo -1 > /proc/sys/kernel/sched_rt_runtime_us || exit 1
# a perf group's events are an fd each: 128 threads of 4, or more with CSW_THREADS
# shellcheck disable=SC3045  # busybox sh has ulimit -n
ulimit -n 4096
/bin/csw_bench || exit 1
rmmod perfmon
