#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sourced by pfmon-check (its fail, refused, count, csv, in_range, $W, $evs2, $ph):
# perf stat's options of the output and the run (tools/pfmon/perfopts.c,
# control.c), each on a count the option changes, and each refusal as one line
# and exit 2.

# --all-user and --all-kernel win over the events' modifiers: system calls are
# counted at user level only (5016 to 5018, the lines above), none at kernel level
out=$(/bin/pfmon --all-user -e syscalls:k -- $W -s 5000) || fail "--all-user: $?"
sys=$(count syscalls:k)
in_range "$sys" 5016 5020 || fail "--all-user -e syscalls:k: $sys"
out=$(/bin/pfmon --all-kernel -e syscalls -- $W -s 5000) || fail "--all-kernel: $?"
[ "$(count syscalls)" = 0 ] || fail "--all-kernel -e syscalls: $(count syscalls)"
refused "pfmon: --all-user and --all-kernel: choose one" --all-user --all-kernel -- $W

# --quiet: nothing printed, the command's exit status kept
out=$(/bin/pfmon --quiet -e syscalls -- $W -s 100) && [ -z "$out" ] ||
	fail "--quiet printed '$out'"
/bin/pfmon --quiet -e syscalls -- /bin/sh -c 'exit 3'
[ $? -eq 3 ] || fail "--quiet: the command's exit status"

# -o truncates, --append appends, --log-fd writes to a descriptor, not stdout
rm -f /tmp/o1 /tmp/o2
/bin/pfmon -o /tmp/o1 -e syscalls -- $W -s 100 && /bin/pfmon -o /tmp/o1 --append -e syscalls -- $W -s 100 ||
	fail "-o --append: $?"
[ "$(grep -c 'Performance counter stats' /tmp/o1)" -eq 2 ] || fail "--append: $(cat /tmp/o1)"
[ "$(grep -c '^# started on ' /tmp/o1)" -eq 2 ] || fail "-o: perf's '# started on' lines"
/bin/pfmon -o /tmp/o1 -e syscalls -- $W -s 100 || fail "-o: $?"
[ "$(grep -c 'Performance counter stats' /tmp/o1)" -eq 1 ] || fail "-o does not truncate"
out=$(/bin/pfmon --log-fd 3 -e syscalls -- $W -s 5000 3>/tmp/o2) && [ -z "$out" ] ||
	fail "--log-fd: stdout '$out'"
out=$(cat /tmp/o2)
in_range "$(count syscalls)" 5016 5020 || fail "--log-fd 3: $(count syscalls) syscalls"
/bin/pfmon --log-fd 3 --append -e syscalls -- $W -s 100 3>>/tmp/o2 || fail "--log-fd --append: $?"
[ "$(grep -c 'Performance counter stats' /tmp/o2)" -eq 2 ] || fail "--log-fd --append"
refused "pfmon: --log-fd 9: Bad file descriptor" --log-fd 9 -- $W
refused "pfmon: bad --log-fd descriptor '0'" --log-fd 0 -- $W
refused "pfmon: -o and --log-fd: choose one" -o /tmp/o1 --log-fd 1 -- $W
refused "pfmon: --append appends to -o's file or --log-fd's: give one" --append -- $W

# -B (the default) and --no-big-num: 5,01x against 501x
out=$(/bin/pfmon -B -e syscalls -- $W -s 5000) || fail "-B: $?"
echo "$out" | grep -Eq "^ +5,01[678] +syscalls" || fail "-B: the separators"
out=$(/bin/pfmon --no-big-num -e syscalls -- $W -s 5000) || fail "--no-big-num: $?"
echo "$out" | grep -Eq "^ +501[678] +syscalls" || fail "--no-big-num: separators"
refused "pfmon: -B: CSV (-x) has no thousands separators" -B -x , -- $W

# --no-scale: the multiplexed counts raw (field 1 = --bounds' raw field 8) and
# without a bound; --scale (the default) the estimates, above the raw counts
out=$(/bin/pfmon -x ';' --bounds --no-scale --switch-timeout 1 -e $evs2 -- $ph) ||
	fail "--no-scale: $?"
[ "$(csv syscalls 1)" = "$(csv syscalls 8)" ] && [ "$(csv syscalls 10)" = "" ] &&
	awk -v p="$(csv syscalls 5)" 'BEGIN { exit !(p > 0 && p < 100) }' ||
	fail "--no-scale: $(csv syscalls 1) raw $(csv syscalls 8) bound '$(csv syscalls 10)'"
out=$(/bin/pfmon -x ';' --bounds --scale --switch-timeout 1 -e $evs2 -- $ph) ||
	fail "--scale: $?"
[ "$(csv syscalls 1)" -gt "$(csv syscalls 8)" ] ||
	fail "--scale: $(csv syscalls 1), raw $(csv syscalls 8)"

# --interval-count 2 of the 3 to 9 intervals of -I 100 (the -I case above)
out=$(/bin/pfmon -I 100 --interval-count 2 -x ';' -e syscalls -- $W -l 500 -s 100) ||
	fail "--interval-count: $?"
n=$(echo "$out" | awk -F';' '$4 == "syscalls"' | wc -l)
[ "$n" -eq 2 ] || fail "--interval-count 2: $n intervals"
out=$(/bin/pfmon -a -I 100 --interval-count 1 -x ';' -e syscalls) ||
	fail "-a --interval-count: $?"
n=$(echo "$out" | awk -F';' '$4 == "syscalls"' | wc -l)
[ "$n" -eq 1 ] || fail "-a --interval-count 1: $n intervals"
refused "pfmon: --interval-count counts the intervals of -I: give -I" --interval-count 2 -- $W
refused "pfmon: bad interval count '0'" -I 100 --interval-count 0 -- $W

# --timeout: a 5 s sleep ended after 300 ms, exit 0 (perf's), the counts printed;
# -a without a command ends by itself
out=$(/bin/pfmon --timeout 300 -e syscalls -- $W -l 5000) || fail "--timeout: $?"
el=$(echo "$out" | awk '$3 == "time" && $4 == "elapsed" { print $1 }')
echo "pfmon-check: --timeout 300 of a 5 s sleep: $el s"
awk -v e="$el" 'BEGIN { exit !(e >= 0.3 && e < 3) }' || fail "--timeout 300: $el s"
[ -n "$(count syscalls)" ] || fail "--timeout: no count"
out=$(/bin/pfmon -a --timeout 200 -e syscalls) || fail "-a --timeout: $?"
el=$(echo "$out" | awk '$3 == "time" && $4 == "elapsed" { print $1 }')
awk -v e="$el" 'BEGIN { exit !(e >= 0.2 && e < 3) }' || fail "-a --timeout 200: $el s"
refused "pfmon: --timeout: at least 10 ms, as perf stat" --timeout 9 -- $W
refused "pfmon: --timeout and -I: choose one, as perf stat" --timeout 100 -I 100 -- $W
refused "pfmon: bad timeout '99999999999'" --timeout 99999999999 -- $W

# -n: the command timed, nothing counted, perf's layout (no blank line for counts)
out=$(/bin/pfmon -n -- $W -l 300) || fail "-n: $?"
[ "$(echo "$out" | wc -l)" -eq 7 ] && echo "$out" | sed -n 4p | grep -Eq '^ +0\.[3-9][0-9]* seconds time elapsed$' &&
	echo "$out" | sed -n 2p | grep -q "^ Performance counter stats for '$W -l 300':$" ||
	fail "-n: the layout"
/bin/pfmon -n -- /bin/sh -c 'exit 4' >/dev/null
[ $? -eq 4 ] || fail "-n: the command's exit status"
refused "pfmon: -n times the command only: not with -e, -p, -t, -a, -C, -I, --timeout, -P, -F, --per-thread or -A" -n -e syscalls -- $W

# --pre and --post around each of -r's runs, not counted; a failed one ends pfmon
rm -f /tmp/pp
out=$(/bin/pfmon -r 3 -e syscalls --pre 'echo pre >> /tmp/pp' --post 'echo post >> /tmp/pp' -- $W -s 100) ||
	fail "--pre --post: $?"
[ "$(cat /tmp/pp | tr '\n' ' ')" = "pre post pre post pre post " ] || fail "--pre --post: $(cat /tmp/pp)"
in_range "$(count syscalls)" 116 120 || fail "--pre --post: $(count syscalls) syscalls"
out=$(/bin/pfmon --pre false -e syscalls -- $W 2>&1)
[ $? -eq 1 ] && [ "$out" = "pfmon: --pre 'false': exit status 1" ] || fail "--pre false: $out"
out=$(/bin/pfmon --post 'exit 5' -e syscalls -- $W 2>&1 >/dev/null)
[ $? -eq 1 ] && [ "$out" = "pfmon: --post 'exit 5': exit status 5" ] || fail "--post 'exit 5': $out"

# --summary: -I's intervals, then the totals (CSV: "summary" first, unless
# --no-csv-summary), which add up the intervals
out=$(/bin/pfmon -I 100 --summary -x ';' -e syscalls -- $W -l 300 -s 5000) || fail "--summary: $?"
# (perf pads "summary" to 16 columns)
set -- $(echo "$out" | awk -F';' '$1 ~ /^ *summary$/ { k++; t = $2; next }
	$4 == "syscalls" { n++; s += $2 }
	END { print n + 0, s + 0, k + 0, t + 0 }')
echo "pfmon-check: -I --summary: $1 intervals of $2 system calls, $3 summary of $4"
[ "$1" -ge 3 ] && [ "$3" -eq 1 ] && [ "$2" -eq "$4" ] && in_range "$4" 5016 5020 ||
	fail "--summary: $*"
out=$(/bin/pfmon -I 100 --summary --no-csv-summary -x ';' -e syscalls -- $W -s 5000) ||
	fail "--no-csv-summary: $?"
[ "$(echo "$out" | grep -c summary)" -eq 0 ] &&
	in_range "$(echo "$out" | awk -F';' '$3 == "syscalls" { print $1 }')" 5016 5020 ||
	fail "--no-csv-summary"
out=$(/bin/pfmon -I 100 --summary -e syscalls -- $W -s 5000) || fail "--summary text: $?"
echo "$out" | grep -q "Performance counter stats for" && in_range "$(count syscalls)" 5016 5020 ||
	fail "--summary: the text totals"
refused "pfmon: --summary prints -I's totals at the end: give -I" --summary -- $W
refused "pfmon: --no-csv-summary goes with --summary and -x" -I 100 --summary --no-csv-summary -- $W

# -v: each event's code, level, set and PMD on stderr; the counts as without -v
out=$(/bin/pfmon -v -e syscalls,page-faults:uk -- $W -s 5000 2>&1 >/dev/null) || fail "-v: $?"
[ "$out" = "pfmon: syscalls: software event 5 at user level, set 0 PMD 64
pfmon: page-faults:uk: software event 4 at user and kernel level, set 0 PMD 65
pfmon: 2 events in 1 set" ] || fail "-v"

# --interval-clear: a terminal only (none here), with -I
refused "pfmon: --interval-clear clears a terminal: the output is not one" --interval-clear -I 100 -- $W
refused "pfmon: --interval-clear clears the screen between -I's intervals: give -I" --interval-clear -- $W

# --pfm-events is -e; --json-output is -j; -g puts every event in one group: one
# set, so counted exactly, or refused when they cannot share one
out=$(/bin/pfmon --pfm-events syscalls -- $W -s 5000) || fail "--pfm-events: $?"
in_range "$(count syscalls)" 5016 5020 || fail "--pfm-events syscalls: $(count syscalls)"
out=$(/bin/pfmon --json-output -e syscalls -- $W -s 100) || fail "--json-output: $?"
echo "$out" | /bin/jsoncheck >/dev/null && echo "$out" | grep -q '"event" : "syscalls"' ||
	fail "--json-output"
out=$(/bin/pfmon -g -e syscalls,page-faults -- $W -s 5000 -p 64) || fail "-g: $?"
in_range "$(count syscalls)" 5016 5020 && in_range "$(count page-faults)" 64 200 ||
	fail "-g: syscalls $(count syscalls), page-faults $(count page-faults)"
out=$(/bin/pfmon -g -e $evs2 -- $W 2>&1)
[ $? -eq 1 ] && [ "$out" = "pfmon: group of 'cpu-migrations': more than 256 software events" ] ||
	fail "-g with 512 events: not refused"

# -D: counting from 1000 ms after the command's start, the elapsed time from then
# on, and perf's "Events disabled" and "Events enabled" on stderr: the 5000
# getppid made at once are not counted (its exit is), those made after a 2500 ms
# wait are (and its exit and one more).  The delay is a time: the workload's
# start and calls must fit in it, and a second leaves room for a loaded debug
# kernel, where 300 ms did not always
out=$(/bin/pfmon -D 1000 -e syscalls -- $W -s 5000 -l 2500 2>/tmp/d.err) || fail "-D: $?"
sys=$(count syscalls)
el=$(echo "$out" | awk '$3 == "time" && $4 == "elapsed" { print $1 }')
echo "pfmon-check: -D 1000 before a 2500 ms sleep: $sys system calls, $el s"
in_range "$sys" 1 2 && awk -v e="$el" 'BEGIN { exit !(e >= 1.2 && e < 2.5) }' ||
	fail "-D 1000: $sys system calls, $el s"
[ "$(cat /tmp/d.err)" = "Events disabled
Events enabled" ] || fail "-D: stderr '$(cat /tmp/d.err)'"
out=$(/bin/pfmon -D 1000 -e syscalls -- $W -w 2500 -s 5000 2>/dev/null) || fail "-D: $?"
in_range "$(count syscalls)" 5001 5003 || fail "-D 1000, then 5000 calls: $(count syscalls)"
# a shell's child, made while the contexts are stopped: its inheritor starts with them
out=$(/bin/pfmon -D 1000 -e syscalls -- /bin/sh -c "$W -w 2500 -s 5000; true" 2>/dev/null) ||
	fail "-D, a shell: $?"
in_range "$(count syscalls)" 5001 5012 || fail "-D 1000, a shell's child: $(count syscalls)"
# -D -1: never started without --control, "<not counted>" as perf
out=$(/bin/pfmon -D -1 -e syscalls -- $W -s 5000 2>/tmp/d.err) || fail "-D -1: $?"
echo "$out" | grep -Eq "^ +<not counted> +syscalls" && [ "$(cat /tmp/d.err)" = "Events disabled" ] ||
	fail "-D -1: stderr '$(cat /tmp/d.err)'"
# -a and -p as with a command: from the delay on
out=$(/bin/pfmon -a -D 1000 -e syscalls -- $W -s 5000 -l 2500 2>/dev/null) || fail "-a -D: $?"
in_range "$(count syscalls)" 1 1000 || fail "-a -D 1000 before the calls: $(count syscalls)"
out=$(/bin/pfmon -a -D 1000 -e syscalls -- $W -w 2500 -s 5000 2>/dev/null) || fail "-a -D: $?"
in_range "$(count syscalls)" 5001 6000 || fail "-a -D 1000, then the calls: $(count syscalls)"
$W -w 200 -s 5000 -l 3000 &
out=$(/bin/pfmon -D 1500 -e syscalls -p $! 2>/dev/null) || fail "-p -D: $?"
in_range "$(count syscalls)" 1 2 || fail "-p -D 1500 after the calls: $(count syscalls)"
$W -w 2500 -s 5000 &
out=$(/bin/pfmon -D 300 -e syscalls -p $! 2>/dev/null) || fail "-p -D: $?"
in_range "$(count syscalls)" 5001 5003 || fail "-p -D 300 before the calls: $(count syscalls)"
refused "pfmon: bad delay '-2': milliseconds, or -1" -D -2 -- $W
refused "pfmon: bad delay '1x': milliseconds, or -1" -D 1x -- $W
refused "pfmon: -D and --control start and stop counting contexts: not with -P or -F" -D 10 -P 1000 -- $W
refused "pfmon: -n counts nothing: not with -D or --control" -n -D 10 -- $W

# --control: each command is acknowledged with perf's "ack\n" and its NUL.  The
# workload waits for a SIGUSR1 (-w sig, -l sig) where a command must land, and
# the test sends it once the acks are in: the commands land where the counts
# need them however slow the kernel.  A pfmon already gone must fail the test,
# not hang it: a command's write-only open, which waits for pfmon to hold the
# FIFO (it may still be starting), gives up after 5 s, and the reader of the
# acks is ended after 30 s.
# acks N COMMAND...: writes each command, prints the acks once N have come
acks() {
	n=$1
	shift
	: > /tmp/acks
	cat /tmp/ack > /tmp/acks &
	h=$!
	for c in "$@"; do
		timeout 5 sh -c 'echo "$1" > /tmp/ctl' sh "$c"
		sleep 0.1
	done
	for _ in $(seq 300); do
		[ "$(wc -c < /tmp/acks)" -ge $((n * 5)) ] && break
		sleep 0.1
	done
	# an ack too many would come now
	sleep 0.3
	kill $h 2>/dev/null
	wait $h
	od -An -v -c /tmp/acks | tr -d ' \n'
}
# ctl_start PFMON_ARGS... -- WORKLOAD_ARGS...: pfmon with the FIFOs, around a
# shell's child, so that the kernel's inheritor of the child is started and
# stopped with pfmon's context; $pf is pfmon, $w the workload in its first wait
ctl_start() {
	a=
	while [ "$1" != -- ]; do
		a="$a $1"
		shift
	done
	shift
	/bin/pfmon -D -1 --control fifo:/tmp/ctl,/tmp/ack $a -- \
		/bin/sh -c "$W $*; true" >/tmp/c.out 2>/tmp/c.err &
	pf=$!
	w=$(child_of "$(child_of $pf)") || fail "--control: no workload under pfmon $pf"
	sigwaiting $w
}
rm -f /tmp/ctl /tmp/ack
mkfifo /tmp/ctl /tmp/ack
# "enable" in the first wait, "disable" in the second, after the 5000 getppid:
# counted are those and the second wait's call
ctl_start -e syscalls -- -w sig -s 5000 -l sig
a1=$(acks 1 enable)
kill -USR1 $w
sigwaiting $w
a2=$(acks 1 disable)
kill -USR1 $w
wait $pf || fail "--control: $?"
out=$(cat /tmp/c.out)
echo "pfmon-check: --control enable and disable around 5000 getppid: $(count syscalls)"
[ "$a1" = 'ack\n\0' ] && [ "$a2" = "$a1" ] || fail "--control: acks '$a1' '$a2'"
in_range "$(count syscalls)" 5001 5002 && [ "$(cat /tmp/c.err)" = "Events disabled
Events enabled
Events disabled" ] || fail "--control: stderr '$(cat /tmp/c.err)'"
# "enable NAME" and "disable NAME" switch one event alone: syscalls counts the
# 5000 getppid (and the pages' mmap and madvise, the wait's call) and
# page-faults, never enabled, none of the 256 pages touched after them;
# "disable syscalls" in the second wait leaves syscalls as it was; an unknown
# name is acknowledged and said
ctl_start -x';' -e syscalls,page-faults -- -w sig -s 5000 -p 256 -l sig
a1=$(acks 1 'enable syscalls')
kill -USR1 $w
sigwaiting $w
a2=$(acks 2 'disable syscalls' 'disable nosuch')
kill -USR1 $w
wait $pf || fail "--control NAME: $?"
out=$(cat /tmp/c.out)
echo "pfmon-check: --control enable syscalls alone: $(csv syscalls 1) syscalls, $(csv page-faults 1) page faults"
in_range "$(csv syscalls 1)" 5001 5004 && [ "$(csv page-faults 1)" = 0 ] &&
	[ "$a1" = 'ack\n\0' ] && [ "$a2" = 'ack\n\0ack\n\0' ] && [ "$(cat /tmp/c.err)" = "Events disabled
Event syscalls enabled
Event syscalls disabled
failed: can't find 'nosuch' event" ] ||
	fail "--control NAME: stderr '$(cat /tmp/c.err)', acks '$a1' '$a2'"
# "enable" after a NAME's enable and disable switches every event on again:
# page-faults counts the 256 pages (and the shell's exit's)
ctl_start -x';' -e syscalls,page-faults -- -w sig -s 5000 -p 256 -l sig
a1=$(acks 3 'enable page-faults' 'disable page-faults' enable)
kill -USR1 $w
sigwaiting $w
a2=$(acks 1 'disable syscalls')
kill -USR1 $w
wait $pf || fail "--control NAME: $?"
out=$(cat /tmp/c.out)
in_range "$(csv syscalls 1)" 5001 5004 && in_range "$(csv page-faults 1)" 256 400 &&
	[ "$a1" = 'ack\n\0ack\n\0ack\n\0' ] && [ "$a2" = 'ack\n\0' ] ||
	fail "--control enable after NAME: syscalls $(csv syscalls 1), page faults $(csv page-faults 1), acks '$a1' '$a2'"
# --control fd: every command of perf's, one acknowledged each but snapshot and
# the unknown; -I's intervals go on while the workload waits, until 8 are out
/bin/pfmon -D -1 --control fd:5,6 -I 300 -x';' -e syscalls -- $W -l sig \
	5<>/tmp/ctl 6<>/tmp/ack >/tmp/c.out 2>/tmp/c.err &
pf=$!
w=$(child_of $pf) || fail "--control fd: no workload under pfmon $pf"
sigwaiting $w
acks=$(acks 9 ping snapshot bogus evlist 'enable syscalls' 'enable nosuch' enablex stop \
	'evlist -g' enable disable)
for _ in $(seq 300); do
	[ "$(awk -F';' '$4 == "syscalls"' /tmp/c.out | wc -l)" -ge 8 ] && break
	sleep 0.1
done
kill -USR1 $w
wait $pf || fail "--control fd: $?"
out=$(cat /tmp/c.out)
n=$(echo "$out" | awk -F';' '$4 == "syscalls"' | wc -l)
echo "pfmon-check: --control fd: $n intervals, acks $acks"
[ "$acks" = "$(printf 'ack\\n\\0%.0s' 1 2 3 4 5 6 7 8 9)" ] || fail "--control fd: acks '$acks'"
[ "$n" -ge 8 ] || fail "--control fd: $n intervals"
[ "$(cat /tmp/c.err)" = "Events disabled
syscalls
Event syscalls enabled
failed: can't find 'nosuch' event
failed: wrong command
syscalls
Events enabled
Events disabled" ] || fail "--control fd: stderr '$(cat /tmp/c.err)'"
refused "pfmon: --control 'fd:': fd:CTL[,ACK] takes descriptor numbers" --control fd: -- $W
refused "pfmon: --control 'fd:x': fd:CTL[,ACK] takes descriptor numbers" --control fd:x -- $W
refused "pfmon: --control 'fd:0x': fd:CTL[,ACK] takes descriptor numbers" --control fd:0x -- $W
refused "pfmon: --control 'fd:0,': fd:CTL[,ACK] takes descriptor numbers" --control fd:0, -- $W
refused "pfmon: --control 'fd:0,1x': fd:CTL[,ACK] takes descriptor numbers" --control fd:0,1x -- $W
refused "pfmon: --control 'fd:-1': fd:CTL[,ACK] takes descriptor numbers" --control fd:-1 -- $W
refused "pfmon: --control 'fd:9': descriptor 9: Bad file descriptor" --control fd:9 -- $W
refused "pfmon: --control 'fd:0,9': descriptor 9: Bad file descriptor" --control fd:0,9 -- $W
refused "pfmon: --control 'fifo:': fifo:CTL[,ACK] takes FIFO paths" --control fifo: -- $W
refused "pfmon: --control 'fifo:,/tmp/ack': fifo:CTL[,ACK] takes FIFO paths" --control fifo:,/tmp/ack -- $W
refused "pfmon: --control 'fifo:/nonexistent': /nonexistent: No such file or directory" --control fifo:/nonexistent -- $W
refused "pfmon: --control 'fifo:/tmp/ctl,/nonexistent': /nonexistent: No such file or directory" \
	--control fifo:/tmp/ctl,/nonexistent -- $W
refused "pfmon: --control 'fifo:/tmp/c.out': /tmp/c.out: not a FIFO" --control fifo:/tmp/c.out -- $W
refused "pfmon: --control 'pipe:1': give fd:CTL[,ACK] or fifo:CTL[,ACK]" --control pipe:1 -- $W
refused "pfmon: --control: give it once" --control fd:0 --control fd:0 -- $W

# --table: -r's runs' elapsed times in perf's table, whose mean is the result's,
# with as many decimals, the headers indented as the numbers
out=$(/bin/pfmon -r 3 --table -e syscalls -- $W -l 100) || fail "--table: $?"
echo "$out" | awk '
	function indent() { match($0, /^ +/); return RLENGTH }
	/^ +# Table of individual measurements:$/ { t = 1; in1 = indent(); next }
	t == 1 && /^ +0\.[0-9]+ \([+-]0\.[0-9]+\) #+$/ {
		n++; s += $1; d = length($1); bad += indent() != in1; next }
	t == 1 && /^$/ { t = 2; next }
	t == 2 && /^ +# Final result:$/ { t = 3; bad += indent() != in1; next }
	t == 3 && /^ +0\.[0-9]+ \+- 0\.[0-9]+ seconds time elapsed/ {
		ok = n == 3 && !bad && indent() == in1 && length($1) == d && length($3) == d &&
			(s / 3 - $1) * (s / 3 - $1) < 4e-8; exit }
	END { exit !ok }' || fail "--table: the table"
out=$(/bin/pfmon -r 2 --table -x';' -e syscalls -- $W) || fail "--table -x: $?"
[ "$(echo "$out" | grep -c Table)" = 0 ] || fail "--table -x: a table in CSV"
refused "pfmon: --table prints each of -r's runs: give -r 2 or more" --table -- $W
refused "pfmon: --table prints each of -r's runs: give -r 2 or more" -r 0 --table -- $W

# -r 0, perf's "forever": run after run, each printed as a run alone (exact
# counts, no mean), until pfmon is killed (SIGTERM: it does not wait for the run).
# forever N ARGS: pfmon -r 0 ARGS until N runs are printed (20 s at most), then
# killed; $out its output
f=/tmp/pfmon-forever
forever() {
	want=$1
	shift
	rm -f $f $f.err
	/bin/pfmon -r 0 -x';' -o $f "$@" 2>$f.err &
	pid=$!
	i=0
	# cat: before pfmon makes the file, 0 (grep -c on a missing file prints nothing)
	while [ "$(cat $f 2>/dev/null | grep -c ';syscalls;')" -lt "$want" ] &&
	      [ $i -lt 400 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -TERM $pid
	wait $pid
	st=$?
	out=$(cat $f $f.err)
	rm -f $f $f.err
	[ $st -eq 143 ] || fail "-r 0 $*: pfmon ended with $st, not by SIGTERM"
	[ "$(echo "$out" | grep -c ';syscalls;')" -ge "$want" ] ||
		fail "-r 0 $*: fewer than $want runs printed in $i polls"
}
forever 3 -e syscalls -- $W -s 100
echo "$out" | awk -F';' '$3 == "syscalls" && ($1 < 116 || $1 > 120) { exit 1 }' ||
	fail "-r 0: a run's count not exact"
# CPU sessions' runs end at --timeout: each is printed
forever 2 -a --timeout 200 -e syscalls
# 0 in any form is forever (--table refuses it as it refuses -r 1); runs must end
# by themselves; sampling reports at the end, which -r 0 never reaches
refused "pfmon: --table prints each of -r's runs: give -r 2 or more" -r 00 --table -- $W
refused "pfmon: -r 0 repeats runs that end by themselves: give a command, --timeout or --interval-count" -r 0 -a
refused "pfmon: -r 0 runs until killed: sampling (-P, -F) reports at the end, give -r 1 or more" -r 0 -P 64 -- $W
echo "pfmon-check: perf stat's output and run options ok"
