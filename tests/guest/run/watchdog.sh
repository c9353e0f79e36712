#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: pfm-watchdog SECONDS NAME CMD [ARG...] runs CMD and exits with its
# status, and says how long CMD took.  A CMD still running after SECONDS is a
# failure with evidence: the backtraces of every CPU and of every blocked task go
# to the kernel log (sysrq l and w), which the guest's init prints; every user
# process's state, wait channel and kernel stack go to the console (sysrq w shows
# uninterruptible sleeps only: a process waiting in poll() or in an interruptible
# wait of perfmon's is in none of them); and the watchdog exits 124 without
# waiting for CMD.  The host's own timeout only says that the guest stopped.
# One sleep times it, not a polling loop: a process started every few seconds
# would fault and run on the CPUs that CPU-wide tests count exactly.
limit=$1
name=$2
shift 2
stuck=0
t0=$(date +%s)
trap 'stuck=1' USR1
"$@" &
pid=$!
(sleep "$limit"; kill -USR1 $$ 2>/dev/null) &
timer=$!
wait $pid
rc=$?
if [ $stuck -eq 1 ]; then
	echo "$name: stuck after ${limit}s; backtraces follow"
	echo 1 > /proc/sys/kernel/sysrq
	echo l > /proc/sysrq-trigger
	echo w > /proc/sysrq-trigger
	for d in /proc/[0-9]*; do
		# kernel threads have no command line (a /proc file's size is 0), nor
		# have zombies, which are shown by name: an early exit explains a wait
		cmd=$(tr '\0' ' ' < "$d/cmdline" 2>/dev/null)
		grep -q '^State:.*Z' "$d/status" 2>/dev/null &&
			cmd="$(sed -n 's/^Name:[[:space:]]*//p' "$d/status") (zombie)"
		[ -n "$cmd" ] || continue
		echo "$name: pid ${d#/proc/}: $cmd"
		grep -E '^(State|PPid|Tgid|SigQ|SigPnd|ShdPnd|SigBlk)' "$d/status" 2>/dev/null |
			tr '\t\n' '  '
		echo "wchan $(cat "$d/wchan" 2>/dev/null)"
		for t in "$d"/task/*; do
			echo "  tid ${t##*/}: $(cut -d' ' -f3 "$t/stat" 2>/dev/null)"
			sed 's/^/    /' "$t/stack" 2>/dev/null
		done
	done
	exit 124
fi
kill $timer 2>/dev/null
# each stage's time, for make check's budget
echo "$name: ended in $(( $(date +%s) - t0 )) s"
exit $rc
