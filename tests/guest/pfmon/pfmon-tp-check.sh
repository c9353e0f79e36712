#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest, after pfmon-perf-check: perf stat's options of the event list
# (tools/pfmon/tracepoint.c, evopts.c): trace events in -e (subsys:name, globs,
# modifiers, -l), --filter, -d, --cputype (those that are pfmon's parsing and
# printing alone in pfmon-tp-opts-check, on Debian's kernel only).  Exact counts
# where the workload fixes them (its getppid calls), each refusal with its exit
# status and its line.
# Prints "pfmon-tp-check: ok" or what went wrong.
fail() {
	echo "pfmon-tp-check: FAIL: $*"
	echo "$out"
	exit 1
}
# field $2 of the CSV (';') line of event $1
csv() {
	echo "$out" | awk -F';' -v ev="$1" -v f="$2" '$3 == ev { print $f; exit }'
}
# refused STATUS LINE ARGS...: pfmon ARGS exits with STATUS and prints LINE alone
refused() {
	st=$1 want=$2
	shift 2
	out=$($P "$@" 2>&1)
	rc=$?
	[ $rc -eq "$st" ] && [ "$out" = "$want" ] ||
		fail "pfmon $*: exit $rc, not $st with '$want'"
}

W=/bin/workload
P=/bin/pfmon
EV=/sys/kernel/debug/tracing/events
[ -d /sys/kernel/tracing/events ] && EV=/sys/kernel/tracing/events

# the system call events: exactly the workload's getppid calls, entered and left;
# its children's and threads' too (inherited), its first thread's alone with -i
out=$($P -x';' -e syscalls:sys_enter_getppid,syscalls:sys_exit_getppid -- $W -s 3000) ||
	fail "pfmon exited with $?"
[ "$(csv syscalls:sys_enter_getppid 1)" = 3000 ] && [ "$(csv syscalls:sys_exit_getppid 1)" = 3000 ] ||
	fail "syscalls:sys_enter_getppid and sys_exit_getppid: not 3000 each"
out=$($P -x';' -e syscalls:sys_enter_getppid -- $W -s 3000 -f 2 -T 2) || fail "pfmon exited with $?"
[ "$(csv syscalls:sys_enter_getppid 1)" = 15000 ] || fail "2 children and 2 threads: not 15000"
out=$($P -i -x';' -e syscalls:sys_enter_getppid -- $W -s 3000 -f 2) || fail "pfmon exited with $?"
[ "$(csv syscalls:sys_enter_getppid 1)" = 3000 ] || fail "--no-inherit: not 3000"
# a glob: every matching trace event of tracefs, in its order, each exact
want=$(ls $EV/syscalls | grep '^sys_enter_getp' | sed 's/^/syscalls:/' | sort)
out=$($P -x';' -e 'syscalls:sys_enter_getp*' -- $W -s 3000) || fail "pfmon exited with $?"
got=$(echo "$out" | cut -d';' -f3 | sort)
[ "$got" = "$want" ] && [ "$(echo "$want" | wc -l)" -ge 5 ] || fail "the glob's events: $got"
[ "$(csv syscalls:sys_enter_getppid 1)" = 3000 ] && [ "$(csv syscalls:sys_enter_getpgrp 1)" = 0 ] ||
	fail "the glob's counts"
# 256 trace events count in one set, each exactly: no estimate, no multiplexing note
evs=$(ls $EV/syscalls | grep '^sys_enter_' | head -255 | sed 's/^/syscalls:/' | tr '\n' ,)
out=$($P -x';' -e "${evs}syscalls:sys_enter_getppid" -- $W -s 3000 2>&1) ||
	fail "pfmon with 256 trace events exited with $?"
[ "$(echo "$out" | wc -l)" = 256 ] || fail "256 trace events: $(echo "$out" | wc -l) lines"
n=$(echo "$out" | awk -F';' '$3 == "syscalls:sys_enter_getppid" && $1 == 3000' | wc -l)
[ "$n" -ge 1 ] && [ "$(echo "$out" | awk -F';' '$5 != "100.00"' | wc -l)" = 0 ] ||
	fail "256 trace events: getppid not 3000, or an estimate"
# every system call event, entries and exits (about 700, more than the ABI's bit
# vectors name: the software counters go to 1024), in one set, each exactly
n=$(ls $EV/syscalls | grep -c '^sys_e')
out=$($P -x';' -e 'syscalls:*' -- $W -s 3000 2>&1) || fail "pfmon -e 'syscalls:*' exited with $?"
[ "$n" -gt 320 ] && [ "$(echo "$out" | wc -l)" = "$n" ] &&
	[ "$(csv syscalls:sys_enter_getppid 1)" = 3000 ] &&
	[ "$(csv syscalls:sys_exit_getppid 1)" = 3000 ] &&
	[ "$(echo "$out" | awk -F';' '$5 != "100.00"' | wc -l)" = 0 ] ||
	fail "syscalls:* ($n events): $(echo "$out" | grep -v ';100.00;' | head -n 3)"
# a glob of subsystems, and a glob inside a group: one event each
out=$($P -x';' -e 'sysc*:sys_enter_getppi?' -- $W -s 3000) || fail "pfmon exited with $?"
[ "$(echo "$out" | wc -l)" = 1 ] && [ "$(csv syscalls:sys_enter_getppid 1)" = 3000 ] ||
	fail "a glob of subsystems"
out=$($P -x';' -e '{syscalls:sys_enter_getppi?,task-clock}' -- $W -s 3000) ||
	fail "pfmon exited with $?"
[ "$(csv syscalls:sys_enter_getppid 1)" = 3000 ] || fail "a glob in a group"

# perf's levels of a trace event: :u the hits at user level (the system call
# events' all), :k every hit (perf ignores exclude_user for trace events), the
# name without its modifier; with sched_switch, the thread's switches out, as
# many as context-switches
out=$($P -x';' -e syscalls:sys_enter_getppid:u -- $W -s 3000) || fail "pfmon exited with $?"
[ "$(csv syscalls:sys_enter_getppid 1)" = 3000 ] || fail ":u"
out=$($P -x';' -e syscalls:sys_enter_getppid:k -- $W -s 3000) || fail "pfmon exited with $?"
[ "$(csv syscalls:sys_enter_getppid 1)" = 3000 ] || fail ":k"
out=$($P -x';' -e sched:sched_switch,context-switches -- $W -l 100) || fail "pfmon exited with $?"
sw=$(csv sched:sched_switch 1)
[ -n "$sw" ] && [ "$sw" -ge 1 ] && [ "$sw" = "$(csv context-switches 1)" ] ||
	fail "sched:sched_switch $sw, context-switches $(csv context-switches 1)"
out=$($P -x';' -u -e sched:sched_switch -- $W -l 100) || fail "pfmon exited with $?"
[ "$(csv sched:sched_switch 1)" = 0 ] || fail "-u: sched:sched_switch is kernel level"

# unprivileged: tracefs unreadable, perf's refusal; readable, the user level only
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
echo 2 > /proc/sys/kernel/perf_event_paranoid
out=$(/bin/runas 1000 $P -e syscalls:sys_enter_getppid -- $W 2>&1)
[ $? -eq 2 ] && [ "$out" = "pfmon: event 'syscalls:sys_enter_getppid': can't access trace events (no permission to read $EV/syscalls/sys_enter_getppid)" ] ||
	fail "a user without access to tracefs"
# tracefs: its files are its group's to read (6.1: TRACE_MODE_READ, 0440), its root
# directory its owner's (0700)
chmod 755 /sys/kernel/debug
mount -o remount,mode=750,gid=1000 ${EV%/events} || fail "remount tracefs"
out=$(/bin/runas 1000 $P -x';' -e syscalls:sys_enter_getppid,sched:sched_switch -- $W -s 3000 -l 100) ||
	fail "a user: $?"
[ "$(csv syscalls:sys_enter_getppidu 1)" = 3000 ] && [ "$(csv sched:sched_switchu 1)" = 0 ] ||
	fail "a user counts the user level, the events named as perf's fallback names them"
out=$(/bin/runas 1000 $P -x';' -e syscalls:sys_enter_getppid:u -- $W -s 3000) || fail "a user: $?"
[ "$(csv syscalls:sys_enter_getppid 1)" = 3000 ] || fail "a user's :u"
mount -o remount,mode=700,gid=0 ${EV%/events}
chmod 700 /sys/kernel/debug
echo "$paranoid" > /proc/sys/kernel/perf_event_paranoid

# --filter: the kernel's trace event filter on every event of the -e before it
# (pfm_write_pmc_filter()); the children and threads count through it too; a
# second one joined to the first, as perf joins them
out=$($P -x';' -e syscalls:sys_enter_getppid --filter 'common_pid == 1' -- $W -s 3000) ||
	fail "--filter: $?"
[ "$(csv syscalls:sys_enter_getppid 1)" = 0 ] || fail "--filter 'common_pid == 1'"
out=$($P -x';' -e syscalls:sys_enter_getppid,syscalls:sys_exit_getppid --filter 'common_pid != 1' \
	-- $W -s 3000 -f 2 -T 2) || fail "--filter: $?"
[ "$(csv syscalls:sys_enter_getppid 1)" = 15000 ] && [ "$(csv syscalls:sys_exit_getppid 1)" = 15000 ] ||
	fail "--filter 'common_pid != 1' with 2 children and 2 threads"
out=$($P -x';' -e 'syscalls:sys_enter_getp*' --filter 'common_pid != 1' --filter 'common_pid == 1' \
	-e syscalls:sys_exit_getppid --filter 'ret > 0' -- $W -s 3000) || fail "--filter: $?"
[ "$(csv syscalls:sys_enter_getppid 1)" = 0 ] && [ "$(csv syscalls:sys_exit_getppid 1)" = 3000 ] ||
	fail "two --filter joined, and one on the second -e"
refused 1 "pfmon: failed to set filter \"nosuchfield == 1\" on event syscalls:sys_enter_getppid with 22 (Invalid argument)" \
	-e syscalls:sys_enter_getppid --filter 'nosuchfield == 1' -- $W

# What is pfmon's own (perf's text line, -l, its refusals, -d, --cputype): on
# Debian's kernel only.  Those sections run no kernel path that the ones above
# do not, so the debug kernel, where every pfmon run is slow, leaves them out.
[ -r /sys/kernel/perfmon/syscall ] || . /bin/pfmon-tp-opts-check

echo "pfmon-tp-check: ok"
