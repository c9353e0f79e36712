#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sourced by pfmon-check (its fail, refused, $W): -G and --for-each-cgroup
# (tools/pfmon/cgroup.c), perf stat's: a CPU session's events counted only while
# a task of the cgroup runs, through perfmon's perf layer.  A shell moves itself
# into the cgroup and execs the workload there, so the cgroup's system calls are
# the workload's 5000 getppid() and its own few, its page faults at least its
# 512 fresh pages; the whole system's are more.  On a kernel whose cgroups have
# no perf_event state (the debug kernel: no controller below the root) perf
# prints "<not supported>", and so must pfmon.

CG=/sys/fs/cgroup/pfmon_cg
# cgcsv FIELD EVENT CGROUP: field of the -x';' line of EVENT in CGROUP
cgcsv() {
	echo "$out" | awk -F';' -v ev="$2" -v cg="$3" -v f="$1" \
		'$3 == ev && $4 == cg { print $f; exit }'
}
in_cg() {
	echo "/bin/sh -c 'echo \$\$ > $CG/cgroup.procs && exec $W -s 5000 -p 512'"
}

refused "pfmon: both cgroup and no-aggregation modes only available in system-wide mode" \
	-e syscalls -G / -- $W
refused "pfmon: must define events before cgroups" -G / -a -- $W
refused "pfmon: --cgroup and --for-each-cgroup cannot be used together" \
	-a -e syscalls -G / --for-each-cgroup / -- $W
refused "pfmon: --cgroup and --for-each-cgroup cannot be used together" \
	-a -e syscalls --for-each-cgroup / -G / -- $W
refused "pfmon: -G, --for-each-cgroup: counting only, not with -P or -F" \
	-a -P 1000 -e syscalls -G / -- $W

if ! mkdir -p $CG 2>/dev/null; then
	echo "pfmon-check: NOTE: no cgroup v2 here, -G counts not checked"
elif [ ! -e $CG/cgroup.procs ]; then
	echo "pfmon-check: NOTE: $CG is no cgroup v2 directory, -G counts not checked"
	rmdir $CG
else
	refused "pfmon: -G: more cgroups than events before it" -a -e syscalls -G pfmon_cg,pfmon_cg -- $W
	refused "pfmon: no access to cgroup /sys/fs/cgroup/pfmon_nosuch: No such file or directory" \
		-a -e syscalls -G pfmon_nosuch -- $W
	refused "pfmon: no cgroup matched: pfmon_zz[0-9]" \
		-a -e syscalls --for-each-cgroup 'pfmon_zz[0-9]' -- $W

	# one name: every event before it in the cgroup; a second -e after it in none
	out=$(eval /bin/pfmon -a -x "';'" -e syscalls,page-faults -G pfmon_cg -e syscalls -- $(in_cg)) ||
		fail "-G: exit $?"
	sys=$(cgcsv 1 syscalls pfmon_cg) pf=$(cgcsv 1 page-faults pfmon_cg) all=$(cgcsv 1 syscalls "")
	echo "pfmon-check: -G pfmon_cg: syscalls $sys, page-faults $pf; syscalls of the system $all"
	if [ "$sys" = "<not supported>" ]; then
		[ -r /sys/kernel/perfmon/syscall ] || fail "-G: <not supported> on the module kernel"
		[ "$pf" = "<not supported>" ] || fail "-G: page-faults $pf where syscalls are not supported"
		in_range "$all" 5000 10000000 || fail "-G: the system's syscalls $all"
	else
		in_range "$sys" 5003 5040 || fail "-G: the cgroup's syscalls $sys"
		in_range "$pf" 512 700 || fail "-G: the cgroup's page faults $pf"
		in_range "$all" $((sys + 1)) 10000000 || fail "-G: the system's syscalls $all, the cgroup's $sys"
		# "name," : the first event in the cgroup, the second in none
		out=$(eval /bin/pfmon -a -x "';'" -e syscalls,syscalls -G pfmon_cg, -- $(in_cg)) ||
			fail "-G pfmon_cg,: exit $?"
		in_range "$(cgcsv 1 syscalls pfmon_cg)" 5003 5040 && in_range "$(cgcsv 1 syscalls "")" 5041 10000000 ||
			fail "-G pfmon_cg,: the cgroup's and the system's syscalls"
		# --for-each-cgroup: the event list for each, in the order named ("" is the root)
		out=$(eval /bin/pfmon -a -x "';'" -e syscalls,page-faults --for-each-cgroup pfmon_cg, -- $(in_cg)) ||
			fail "--for-each-cgroup: exit $?"
		[ "$(echo "$out" | awk -F';' '{ print $3 "@" $4 }' | tr '\n' ' ')" = \
		  "syscalls@pfmon_cg page-faults@pfmon_cg syscalls@/ page-faults@/ " ] ||
			fail "--for-each-cgroup: the lines' order"
		in_range "$(cgcsv 1 syscalls pfmon_cg)" 5003 5040 &&
			in_range "$(cgcsv 1 syscalls /)" 5041 10000000 ||
			fail "--for-each-cgroup: the cgroups' syscalls"
		# a trace event with a filter: the cgroup's getppid, exactly the workload's
		out=$(eval /bin/pfmon -a -x "';'" -e syscalls:sys_enter_getppid \
			--filter "'common_pid != 1'" -G pfmon_cg -- $(in_cg)) || fail "-G, a trace event: exit $?"
		[ "$(cgcsv 1 syscalls:sys_enter_getppid pfmon_cg)" = 5000 ] ||
			fail "-G: the cgroup's getppid $(cgcsv 1 syscalls:sys_enter_getppid pfmon_cg)"
		# a pattern matches the hierarchy's cgroups
		out=$(eval /bin/pfmon -a -x "';'" -e syscalls --for-each-cgroup "'^pfmon_c'" -- $(in_cg)) ||
			fail "--for-each-cgroup '^pfmon_c': exit $?"
		in_range "$(cgcsv 1 syscalls pfmon_cg)" 5003 5040 ||
			fail "--for-each-cgroup '^pfmon_c': the cgroup's syscalls"
	fi
	# the text and JSON name the cgroup after the event
	out=$(eval /bin/pfmon -a -e syscalls -G pfmon_cg -- $(in_cg)) || fail "-G text: exit $?"
	echo "$out" | grep -Eq '^ +([0-9,]+|<not supported>) +syscalls +pfmon_cg' || fail "-G: the text line"
	out=$(eval /bin/pfmon -a -j -e syscalls -G pfmon_cg -- $(in_cg)) || fail "-G -j: exit $?"
	echo "$out" | /bin/jsoncheck >/dev/null &&
		echo "$out" | grep -q '"event" : "syscalls", "cgroup" : "pfmon_cg", ' ||
		fail "-G -j: the cgroup field"
	rmdir $CG
fi
