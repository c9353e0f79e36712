#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest, on the in-tree debug kernel: the fault injection sweep
# (tests/guest/faults/), every scenario, the short list (PFM_FAULTS_SHORT=1) or
# those named (PFM_FAULTS_CASES=a,b).  The guest init then scans the kernel log
# and kmemleak: any report fails the run.
if [ ! -r /sys/kernel/perfmon/syscall ]; then
	echo "run-faults: /sys/kernel/perfmon/syscall is missing: not an in-tree kernel?"
	exit 1
fi
if [ ! -w /proc/thread-self/fail-nth ] || [ ! -d /sys/kernel/debug/failslab ]; then
	echo "run-faults: the kernel has no fault injection (fail-nth, failslab)"
	exit 1
fi
args=
[ -n "$PFM_FAULTS_SHORT" ] && args=--short
[ -n "$PFM_FAULTS_CASES" ] && args=$(echo "$PFM_FAULTS_CASES" | tr ',' ' ')
# shellcheck disable=SC2086
/bin/pfm-watchdog 2000 pfm_faults /bin/pfm_faults $args
