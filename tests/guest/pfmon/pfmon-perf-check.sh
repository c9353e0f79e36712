#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest, after pfmon-check: pfmon as a drop-in for perf stat: every -I
# interval, perf's event names, -l, --per-thread, -A, -i, perf's CSV and JSON,
# malformed input.  Exact counts where the workload fixes them (getppid calls).
# Prints "pfmon-perf-check: ok" or what went wrong.
fail() {
	echo "pfmon-perf-check: FAIL: $*"
	echo "$out"
	exit 1
}
# field $2 of the CSV (';') line of event $1
csv() {
	echo "$out" | awk -F';' -v ev="$1" -v f="$2" '$3 == ev { print $f; exit }'
}
# the sum of column $2 over the lines whose column $3 is event $1
sum() {
	echo "$out" | awk -F';' -v ev="$1" -v f="$2" -v e="$3" '$e == ev { s += $f } END { print s + 0 }'
}
in_range() {
	[ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}

. /bin/pfmon-workload-wait.sh
W=/bin/workload
P=/bin/pfmon

# -I: the intervals add up to the whole run's exact count, the last, partial,
# interval included (the run ends 0-299 ms after a whole interval)
out=$($P -x ';' -e syscalls -- $W -s 3000 -l 500) || fail "pfmon: $?"
all=$(csv syscalls 1)
in_range "$all" 3016 3020 || fail "syscalls: $all"
out=$($P -I 300 -x ';' -e syscalls -- $W -s 3000 -l 500) || fail "pfmon -I: $?"
n=$(echo "$out" | grep -c ';syscalls;')
[ "$n" -ge 2 ] && [ "$(sum syscalls 2 4)" -eq "$all" ] ||
	fail "-I 300: $n intervals, $(sum syscalls 2 4) system calls of $all"
# the same with 2 child processes, made one after the other, each sleeping 1 s
# after its calls: an interval's read has the live child's counts, so the first
# child's 3000 calls show in the intervals before it exits, and the intervals
# still add up to the whole run (which the kernel's inheritance counts).  The
# parent, then each child, makes its calls (c seconds) and sleeps 1 s: the run
# ends at 3 + 3c, the first child's calls at 1 + 2c and the child at 2 + 2c, so
# the intervals up to 1.9 + 2c must hold 6000 calls, c taken from the run's end
# (a loaded host makes c anything from 0.05 to 0.5 s)
out=$($P -x ';' -e syscalls -- $W -s 3000 -l 1000 -f 2) || fail "pfmon -f 2: $?"
kids=$(csv syscalls 1)
out=$($P -I 300 -x ';' -e syscalls -- $W -s 3000 -l 1000 -f 2) || fail "pfmon -I -f 2: $?"
end=$(echo "$out" | awk -F';' '$4 == "syscalls" { t = $1 } END { print t + 0 }')
by=$(awk -v e="$end" 'BEGIN { c = (e - 3) / 3; if (c < 0) c = 0; printf "%.3f", 1.9 + 2 * c }')
early=$(echo "$out" | awk -F';' -v by="$by" '$4 == "syscalls" && $1 < by { s += $2 } END { print s + 0 }')
[ "$(sum syscalls 2 4)" -eq "$kids" ] && [ "$kids" -ge 9000 ] ||
	fail "-I 300 -f 2: $(sum syscalls 2 4) system calls of $kids"
[ "$early" -ge 6000 ] ||
	fail "-I 300 -f 2: $early system calls before $by s of $end s (a live child's missing)"
out=$($P -I 300 -e syscalls -- $W -s 3000 -l 500) || fail "pfmon -I: $?"
[ "$(echo "$out" | head -n1)" = "#           time             counts unit events" ] ||
	fail "-I: perf's header"
# a run shorter than the interval: its one partial interval
out=$($P -I 100000 -x ';' -e syscalls -- $W -s 3000) || fail "pfmon -I: $?"
[ "$(echo "$out" | wc -l)" -eq 1 ] && in_range "$(sum syscalls 2 4)" 3016 3018 ||
	fail "-I longer than the run"
out=$($P -I 100 -- true) || fail "pfmon -I 100 -- true: $?"
echo "$out" | grep -q " syscalls " || fail "-I 100 -- true printed no interval"
# -r: each run's intervals, each run's tail included
out=$($P -r 2 -I 300 -x ';' -e syscalls -- $W -s 3000 -l 500) || fail "pfmon -r -I: $?"
[ "$(sum syscalls 2 4)" -eq $((2 * all)) ] || fail "-r 2 -I: $(sum syscalls 2 4) of $((2 * all))"
# -p ended by ^C: the counts up to the end (5000 getppid, then sleeps); the wait
# leaves a loaded debug kernel's pfmon time to attach
$W -w 1500 -s 5000 -l 3000 &
pid=$!
waiting $pid
$P -I 400 -x ';' -e syscalls -p $pid > /tmp/pi.csv &
mon=$!
sleep 2.7
kill -INT $mon
wait $mon || fail "pfmon -I -p after ^C: $?"
kill $pid
out=$(cat /tmp/pi.csv)
in_range "$(sum syscalls 2 4)" 5000 5002 || fail "-I -p ^C: $(sum syscalls 2 4) system calls"
# -a: every CPU's calls, the command's among them, the last interval included
out=$($P -a -I 300 -x ';' -e syscalls -- $W -s 3000 -l 500) || fail "pfmon -a -I: $?"
in_range "$(sum syscalls 2 4)" 3016 100000 || fail "-a -I: $(sum syscalls 2 4) system calls"

# perf's names: aliases count what their event counts, in one run (one event
# set, no multiplexing)
out=$($P -x ';' -e page-faults,faults,perf::PAGE-FAULTS,perf::PERF_COUNT_SW_PAGE_FAULTS,context-switches,cs,perf::CS -- $W -p 256) ||
	fail "perf's names: $?"
pf=$(csv page-faults 1)
in_range "$pf" 256 400 && [ "$(csv faults 1)" = "$pf" ] && [ "$(csv perf::PAGE-FAULTS 1)" = "$pf" ] &&
	[ "$(csv perf::PERF_COUNT_SW_PAGE_FAULTS 1)" = "$pf" ] || fail "page-faults aliases"
[ "$(csv cs 1)" = "$(csv context-switches 1)" ] && [ "$(csv perf::CS 1)" = "$(csv cs 1)" ] ||
	fail "context-switches aliases"
out=$($P -x ';' -e cpu-clock,migrations,alignment-faults,emulation-faults -- $W -p 256) ||
	fail "perf's names: $?"
[ "$(csv cpu-clock 2)" = "msec" ] && [ -n "$(csv migrations 1)" ] &&
	[ "$(csv alignment-faults 1)" = 0 ] && [ "$(csv emulation-faults 1)" = 0 ] ||
	fail "cpu-clock, migrations, alignment and emulation faults"
for ev in minor-faults major-faults perf::PERF_COUNT_SW_PAGE_FAULTS_MAJ; do
	out=$($P -e $ev -- true 2>&1)
	[ $? -eq 1 ] && [ "$out" = "pfmon: event '$ev': no counter for it: perfmon's software PMU counts page faults minor and major together (page-faults)" ] ||
		fail "$ev"
done
out=$($P -e help -- true 2>&1)
[ $? -eq 2 ] && [ "$out" = "pfmon: event 'help': unknown (not a software event, and not one libpfm4 knows on this machine's PMU; perfmon drives no hardware PMU here); pfmon -l lists them" ] ||
	fail "-e help"
# a suggestion names only events pfmon takes
out=$($P -e pagefault -- true 2>&1)
[ $? -eq 2 ] || fail "-e pagefault"
near=$(echo "$out" | sed -n 's/.*; closest: \(.*\); pfmon -l lists them$/\1/p' | tr -d ,)
[ -n "$near" ] || fail "no suggestion for pagefault"
for ev in $near; do
	$P -e "$ev" -- true >/dev/null 2>&1 || fail "suggested '$ev' is refused"
done

# -l / --list [PATTERN]
out=$($P -l) || fail "pfmon -l: $?"
echo "$out" | grep -q "^  task-clock OR cpu-clock " && echo "$out" | grep -q "^  page-faults OR faults " &&
	echo "$out" | grep -q "^  syscalls " || fail "pfmon -l"
out=$($P --list fault) || fail "pfmon --list fault: $?"
# the 3 software lines, and the trace events whose name holds it (pfmon-tp-check)
[ "$(echo "$out" | grep '^  ' | grep -vc '\[Tracepoint event\]$')" -eq 3 ] &&
	! echo "$out" | grep '\[Tracepoint event\]$' | grep -viq '^  [^ ]*fault' ||
	fail "pfmon --list fault"
out=$($P -l 'c*') || fail "pfmon -l 'c*': $?"
echo "$out" | grep -q "^  context-switches OR cs" && ! echo "$out" | grep -q syscalls ||
	fail "pfmon -l 'c*'"
out=$($P -l nothing-like-it 2>&1)
[ $? -eq 2 ] && [ "$out" = "pfmon: no event matches 'nothing-like-it'" ] || fail "-l without a match"

# --per-thread, perf stat's: a line per thread pfmon attached a context to, into
# which what it creates counts, the highest count first.  A command: its first
# thread, with 2 threads' 1000 getppid each inside.  -p: the first thread (its
# 1000 getppid, nanosleep(0), a thread's creation, the thread's own, the joins,
# exit_group), then the 2 threads the process had when pfmon found it: 1000
# getppid each, nanosleep(0) and their exit (madvise of the stack, exit), exactly
out=$($P --per-thread -x ';' -e syscalls -- $W -s 1000 -T 2) || fail "pfmon --per-thread: $?"
[ "$(echo "$out" | wc -l)" -eq 1 ] && echo "$out" | grep -q '^workload-[0-9]*;' &&
	in_range "$(echo "$out" | cut -d';' -f2)" 3016 3060 || fail "--per-thread, a command"
$W -w 1000 -s 1000 -T 1 -E 2 &
pid=$!
waiting $pid
out=$($P --per-thread -x ';' -e syscalls -p $pid) || fail "pfmon --per-thread -p: $?"
[ "$(echo "$out" | wc -l)" -eq 3 ] &&
	echo "$out" | awk -F';' -v first="workload-$pid" '$1 !~ /^workload-[0-9]+$/ { exit 1 }
		NR == 1 && ($1 != first || $2 < 2004 || $2 > 2040) { exit 1 }
		NR > 1 && ($1 == first || $2 != 1004) { exit 1 }' || fail "--per-thread -p"
$W -w 1000 -s 1000 -E 1 &
pid=$!
waiting $pid
out=$($P --per-thread -j -e syscalls -p $pid) || fail "pfmon --per-thread -j: $?"
[ "$(echo "$out" | grep -c '^{"thread" : "workload-[0-9]*", "counter-value" : ')" -eq 2 ] ||
	fail "--per-thread -j"
# perf's title for -p and -t, with the ids as given (the wait leaves a loaded
# debug kernel's pfmon time to attach before the workload is gone)
$W -w 1500 -s 10 &
pid=$!
waiting $pid
out=$($P -e syscalls -p $pid) || fail "pfmon -p: $?"
echo "$out" | grep -q "^ Performance counter stats for process id '$pid':$" || fail "the title of -p"
$W -w 1500 -s 10 &
pid=$!
waiting $pid
out=$($P -e syscalls -t $pid) || fail "pfmon -t: $?"
echo "$out" | grep -q "^ Performance counter stats for thread id '$pid':$" || fail "the title of -t"
# -i, perf's --no-inherit
out=$($P -i -x ';' -e syscalls -- $W -s 5000 -f 2) || fail "pfmon -i: $?"
in_range "$(csv syscalls 1)" 5016 5030 || fail "-i: $(csv syscalls 1)"
# -A: each CPU apart, adding up to the whole
out=$($P -a -A -x ';' -e syscalls -- $W -s 3000) || fail "pfmon -a -A: $?"
[ "$(echo "$out" | wc -l)" -eq "$(grep -c ^processor /proc/cpuinfo)" ] &&
	echo "$out" | awk -F';' '$1 !~ /^CPU[0-9]+$/ { exit 1 }' &&
	in_range "$(sum syscalls 2 4)" 3016 100000 || fail "-A"
out=$($P -C 0 -A -j -e syscalls -- $W -s 10) || fail "pfmon -C 0 -A -j: $?"
echo "$out" | grep -q '^{"cpu" : "0", "counter-value" : ' || fail "-A -j"
out=$($P -A -- true 2>&1)
[ $? -eq 2 ] && [ "$out" = "pfmon: -A (--no-aggr) prints each CPU apart: it needs -a or -C" ] ||
	fail "-A without -a"
out=$($P --per-thread -a -- true 2>&1)
[ $? -eq 2 ] && [ "$out" = "pfmon: --per-thread prints each thread apart: not with -a or -C, whose sessions count CPUs" ] ||
	fail "--per-thread -a"
out=$($P --per-thread -r 2 -- true 2>&1)
[ $? -eq 2 ] && [ "$out" = "pfmon: --per-thread and -A print one run: not with -r" ] ||
	fail "--per-thread -r"

# perf stat's CSV and JSON (tests/guest/clients compares them with perf's own)
out=$($P -x ';' -e task-clock,syscalls -- $W -s 1000) || fail "pfmon -x: $?"
echo "$out" | grep -Eq '^[0-9]+\.[0-9]{2};msec;task-clock;[0-9]+;100\.00;[0-9]+\.[0-9]{3};CPUs utilized$' &&
	echo "$out" | grep -Eq '^101[678];;syscalls;[0-9]+;100\.00;[0-9]+\.[0-9]{3};K/sec$' ||
	fail "perf's CSV"
out=$($P -x ';' -e syscalls -- $W -s 1000) || fail "pfmon -x: $?"
echo "$out" | grep -Eq '^101[678];;syscalls;[0-9]+;100\.00;;$' || fail "perf's CSV without a metric"
out=$($P -j -e task-clock,syscalls -- $W -s 1000) || fail "pfmon -j: $?"
echo "$out" | grep -Eq '^\{"counter-value" : "101[678]\.000000", "unit" : "", "event" : "syscalls", "event-runtime" : [0-9]+, "pcnt-running" : 100\.00, "metric-value" : [0-9]+\.[0-9]{6}, "metric-unit" : "K/sec"\}$' ||
	fail "perf's JSON"
out=$($P -j -e syscalls -- $W -s 1000) || fail "pfmon -j: $?"
echo "$out" | grep -q '"metric-value" : 0.000000, "metric-unit" : "(null)"}$' ||
	fail "perf's JSON without a metric"

# malformed event lists, refused as perf refuses them (exit 2)
out=$($P -e '{}' -- true 2>&1)
[ $? -eq 2 ] && [ "$out" = "pfmon: event syntax error in '{}' at offset 1: an empty group" ] ||
	fail "-e '{}'"
out=$($P -e task-clock, -- true 2>&1)
[ $? -eq 2 ] && [ "$out" = "pfmon: event syntax error in 'task-clock,' at offset 11: an empty event name after the last ','" ] ||
	fail "-e task-clock,"
out=$($P -e '{cs,faults' -- true 2>&1)
[ $? -eq 2 ] && [ "$out" = "pfmon: event syntax error in '{cs,faults' at offset 10: a '{' without its '}'" ] ||
	fail "-e '{cs,faults'"
out=$($P -p 999999 2>&1)
[ $? -eq 1 ] && [ "$out" = "pfmon: process 999999: No such process" ] || fail "-p 999999"
echo "pfmon-perf-check: ok"
