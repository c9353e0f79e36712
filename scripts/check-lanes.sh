#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's stages in two lanes at once.  A test guest is QEMU's TCG on one
# host thread, so one guest at a time leaves a two-CPU host half idle: two lanes
# take the time of the longer.  The stages must not build what the other lane
# reads (make check builds everything first, or in the background behind a
# gate stage, and passes PFM_KERNELS_BUILT=1).
#
# Each stage's output goes to LOGDIR/STAGE.log.  A line says when a stage ends;
# a lane goes on after a failed stage, but not after a failed gate (!STAGE).  At
# the end come the tail of every failed stage's log, then the table of stages and
# times (with LOGDIR/build.secs and build-kernel.secs, the builds' times, if make
# check wrote them), where a log's tail (CI's) shows them.
#
# usage: check-lanes.sh LOGDIR 'STAGE ...' 'STAGE ...'   (MAKE: the make to run)
# Exit status: 0 if every stage passed, 1 otherwise, 2 on usage errors.
set -u

if [ $# -ne 3 ] || [ -z "$1" ]; then
	echo "usage: $0 LOGDIR 'STAGE ...' 'STAGE ...'" >&2
	exit 2
fi
logdir=$1
make=${MAKE:-make}
mkdir -p "$logdir" || exit 2
rm -f "$logdir"/lane-*.status

# One lane: its stages in order; "STAGE RC SECONDS" per stage in its status file.
# A stage written !STAGE is a gate: when it fails, the lane's later stages are
# not run (they need what it waits for) and are listed as skipped.
run_lane() {
	local lane=$1 stages=$2 t gate start rc secs closed=

	for t in $stages; do
		gate=
		case $t in '!'*) gate=1; t=${t#!} ;; esac
		if [ -n "$closed" ]; then
			echo "$t skipped 0" >> "$logdir/lane-$lane.status"
			echo "check: lane $lane: $t skipped ($closed failed)"
			continue
		fi
		start=$(date +%s)
		echo "check: lane $lane: $t started (log $logdir/$t.log)"
		$make --no-print-directory "$t" > "$logdir/$t.log" 2>&1 </dev/null
		rc=$?
		secs=$(( $(date +%s) - start ))
		echo "$t $rc $secs" >> "$logdir/lane-$lane.status"
		if [ $rc -eq 0 ]; then
			echo "check: lane $lane: $t passed in ${secs}s"
		else
			echo "check: lane $lane: $t FAILED (exit $rc) in ${secs}s"
			[ -n "$gate" ] && closed=$t
		fi
	done
}

start=$(date +%s)
# each lane in a process group of its own, for the trap below
set -m
run_lane A "$2" &
pa=$!
run_lane B "$3" &
pb=$!
# ^C or a CI timeout ends both lanes, and the guests they started.
trap 'kill -- -$pa -$pb 2>/dev/null; kill $pa $pb 2>/dev/null; exit 130' INT TERM
wait $pa
wait $pb
trap - INT TERM

# The tails of failed logs first, the table last: CI shows a log's end only.
failed=
for lane in A B; do
	while read -r t rc secs; do
		[ "$rc" = 0 ] || failed="$failed $t"
	done < "$logdir/lane-$lane.status"
done
for t in $failed; do
	[ -r "$logdir/$t.log" ] || continue
	echo "==== check: $t failed: the end of $logdir/$t.log"
	tail -n 40 "$logdir/$t.log"
done
echo "check: stages (seconds):"
[ -r "$logdir/build.secs" ] &&
	printf '  %-28s %5s  passed\n' "(the builds, before the lanes)" "$(cat "$logdir/build.secs")"
[ -r "$logdir/build-kernel.secs" ] &&
	printf '  %-28s %5s  exit %s (beside them, then the lanes)\n' "(the debug kernel's build)" \
		"$(cat "$logdir/build-kernel.secs")" "$(cat "$logdir/build-kernel.rc" 2>/dev/null)"
for lane in A B; do
	while read -r t rc secs; do
		if [ "$rc" = 0 ]; then
			printf '  %-28s %5s  passed (lane %s)\n' "$t" "$secs" "$lane"
		elif [ "$rc" = skipped ]; then
			printf '  %-28s %5s  SKIPPED (lane %s)\n' "$t" - "$lane"
		else
			printf '  %-28s %5s  FAILED (exit %s, lane %s)\n' "$t" "$secs" "$rc" "$lane"
		fi
	done < "$logdir/lane-$lane.status"
done
echo "check: both lanes in $(( $(date +%s) - start ))s"
if [ -z "$failed" ]; then
	echo "check: PASS"
	exit 0
fi
echo "check: FAILED:$failed"
exit 1
