#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: measure a workload with a known number of each event.
insmod /lib/perfmon.ko || exit 1
echo
echo "pfmon: 100000 getppid() calls, 2048 fresh pages, 300 ms of CPU, 100 ms asleep"
echo
/bin/pfmon -- /bin/workload -s 100000 -p 2048 -t 300 -l 100 || exit 1
echo
echo "pfmon -P 64 -e page-faults,syscalls: a sample every 64 page faults of the same workload"
echo
/bin/pfmon -P 64 -e page-faults,syscalls -- /bin/workload -s 100000 -p 2048 -t 300 -l 100 || exit 1
echo
rmmod perfmon
