#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: the kernel memory of each monitoring object, perfmon against perf_events.
insmod /lib/perfmon.ko || exit 1
/bin/mem_bench || exit 1
rmmod perfmon
