#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: pfm-watchdog SECONDS NAME CMD [ARG...] runs CMD and exits with its
# status.  A CMD still running after SECONDS is a failure with evidence: the
# backtraces of every CPU and of every blocked task go to the kernel log (sysrq l
# and w), which the guest's init prints, and the watchdog exits 124 without
# waiting for CMD.  The host's own timeout only says that the guest stopped.
limit=$1
name=$2
shift 2
"$@" &
pid=$!
waited=0
while kill -0 $pid 2>/dev/null; do
	sleep 2
	waited=$((waited + 2))
	if [ $waited -ge "$limit" ]; then
		echo "$name: stuck after ${waited}s; backtraces follow"
		echo 1 > /proc/sys/kernel/sysrq
		echo l > /proc/sysrq-trigger
		echo w > /proc/sysrq-trigger
		exit 124
	fi
done
wait $pid
