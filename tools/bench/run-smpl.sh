#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: sampling cost against the rate, perfmon against perf_events.
# smpl_bench runs under the limits the guest booted with, then raises them itself.
insmod /lib/perfmon.ko || exit 1
/bin/smpl_bench || exit 1
rmmod perfmon
