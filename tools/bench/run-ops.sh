#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: the cost of each operation, perfmon against perf_events.
insmod /lib/perfmon.ko || exit 1
/bin/ops_bench || exit 1
rmmod perfmon
