#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: the real tools end to end, through the shim and natively, pfmon
# and perf stat (e2e_bench.c).  E2E_* from the kernel command line reach it.
[ -z "$E2E_W" ] || export E2E_W="$(echo "$E2E_W" | tr , ' ')"
insmod /lib/perfmon.ko || exit 1
/bin/e2e_bench || exit 1
rmmod perfmon
