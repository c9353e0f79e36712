#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest, for prof-read.sh: the kernel's text symbols, then one read followed
# by the host's debugger.  /prof.args holds prof_read's arguments.
insmod /lib/perfmon.ko || exit 1
# the smp modes sample every fault, faster than either kernel's max sample rate
# while the program waits for the debugger: neither may throttle them, or the
# stepped fault is a throttled one (as run-ops.sh sets them)
echo 100000000 > /proc/sys/kernel/perf_event_max_sample_rate
echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent
echo 100000000 > /sys/kernel/perfmon/perf_max_sample_rate
echo 0 > /proc/sys/kernel/kptr_restrict
echo PROF-SYMS-BEGIN
# in hex: base64 may spell a word the console check takes for a kernel report (Oops)
grep ' [tT] ' /proc/kallsyms | gzip -1 | od -An -v -tx1 | tr -d ' '
echo PROF-SYMS-END
# shellcheck disable=SC2046
/bin/prof_read $(cat /prof.args) || exit 1
rmmod perfmon
