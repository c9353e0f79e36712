#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sourced by pfmon-check on both kernels (its fail, refused, $W): the CPU topology
# options, whose labels follow sysfs as perf's do, with NUMA (Debian's kernel)
# and without it (the debug kernel: no node lists a CPU).

# --per-socket, --per-die, --per-core, --per-node with -a: a line per group in
# sysfs's topology, perf's label, the group's CPUs (all of them together), the
# workload's system calls among the counts
topo() {
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		p=$(cat $c/topology/physical_package_id)
		d=$(cat $c/topology/die_id 2>/dev/null || echo 0)
		k=$(cat $c/topology/core_id)
		n=$(ls -d $c/node[0-9]* 2>/dev/null | sed 's/.*node//' | head -n1)
		case $1 in
		socket) echo "S$p" ;;
		die) echo "S$p-D$d" ;;
		core) echo "S$p-D$d-C$k" ;;
		node) echo "N${n:--1}" ;;	# perf's node of a CPU no node lists
		esac
	done | sort -u | tr '\n' ' '
}
ncpu=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)
for a in socket die core node; do
	out=$(/bin/pfmon -a --per-$a -x ';' -e syscalls -- $W -s 5000) || fail "--per-$a: $?"
	got=$(echo "$out" | awk -F';' '$5 == "syscalls" { print $1 }' | tr '\n' ' ')
	set -- $(echo "$out" | awk -F';' '$5 == "syscalls" { n += $2; s += $3 } END { print n + 0, s + 0 }')
	echo "pfmon-check: --per-$a: $got($1 CPUs, $2 system calls)"
	[ "$got" = "$(topo $a)" ] && [ "$1" -eq "$ncpu" ] && [ "$2" -ge 5016 ] ||
		fail "--per-$a: '$got' against '$(topo $a)', $1 CPUs, $2 syscalls"
done
out=$(/bin/pfmon -a --per-socket -e syscalls -- $W -s 100) || fail "--per-socket text: $?"
echo "$out" | grep -Eq "^S0 {5} +[0-9]+ +[0-9,]+ +syscalls" || fail "--per-socket: the text line"
out=$(/bin/pfmon -a --per-core -I 100 --interval-count 1 -e syscalls) || fail "--per-core -I: $?"
[ "$(echo "$out" | head -n1)" = "#           time core            cpus             counts unit events" ] ||
	fail "--per-core -I: perf's header"
refused "pfmon: --per-socket, --per-die, --per-core and --per-node sum CPUs' counts: give -a or -C" --per-core -- $W
refused "pfmon: --per-thread, -A, --per-socket, --per-die, --per-core, --per-node: choose one" -A --per-node -a -- $W
