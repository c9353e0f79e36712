#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: sampling cost against the rate, perfmon against perf_events.
# smpl_bench runs under the limits the guest booted with, then raises them itself.
insmod /lib/perfmon.ko || exit 1
# perfmon's page fault probes are seen to go between fault batches in its statistics
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
/bin/smpl_bench || exit 1
rmmod perfmon
