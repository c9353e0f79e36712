#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: the benchmarks.
insmod /lib/perfmon.ko || exit 1
/bin/mux_bench || exit 1
rmmod perfmon
