#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: the kernel memory of monitoring 1..1000 threads and 1..16 events,
# perfmon against perf_events; memscale_bench reads the kmem tracepoints.
insmod /lib/perfmon.ko || exit 1
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
/bin/memscale_bench || exit 1
rmmod perfmon
