# SPDX-License-Identifier: GPL-2.0
# Sourced by pfmon-tp-check on Debian's kernel (its fail, refused, csv, $P, $W,
# $EV): what of perf stat's trace event options is pfmon's own, parsing and
# printing: perf stat's text line, -l, the refusals of names, modifiers and
# filters, -d, --cputype.

# perf stat's text line
out=$($P -e syscalls:sys_enter_getppid -- $W -s 3000) || fail "pfmon exited with $?"
echo "$out" | grep -Eq '^ +3,000 +syscalls:sys_enter_getppid$' || fail "the text line"

# -l: perf list's lines, sorted, under pfmon's header
out=$($P -l 'sched:sched_sw*') || fail "pfmon -l exited with $?"
want=$(ls $EV/sched | grep '^sched_sw' | sort | while read -r n; do
	printf '  %-50s [Tracepoint event]\n' "sched:$n"; done)
[ "$out" = "tracepoint events (tracefs):
$want" ] || fail "pfmon -l 'sched:sched_sw*'"

# perf's refusals, one line each, exit 2
refused 2 "pfmon: event 'syscalls:nope': unknown tracepoint ($EV/syscalls/nope not found)" \
	-e syscalls:nope -- $W
refused 2 "pfmon: event 'syscalls:nope*': unknown tracepoint ($EV/syscalls/nope* not found)" \
	-e 'syscalls:nope*' -- $W
refused 2 "pfmon: event 'nosys:nope': unknown tracepoint ($EV/nosys/nope not found)" \
	-e nosys:nope -- $W
# a name in upper case that tracefs has not is libpfm4's: its own diagnosis
out=$($P -e INST_RETIRED:ANY_P -- $W 2>&1)
[ $? -eq 2 ] && case $out in
	"pfmon: event 'INST_RETIRED:ANY_P': unknown (not a software event, and not one libpfm4 knows"*) ;;
	*) false ;;
	esac || fail "a libpfm4 name without a PMU"
# every subsystem a glob names must have the event; "[...]" alone is no glob
out=$($P -e '*:sys_enter_getppid' -- $W 2>&1)
[ $? -eq 2 ] && case $out in
	"pfmon: event '*:sys_enter_getppid': unknown tracepoint ($EV/"*"/sys_enter_getppid not found)") ;;
	*) false ;;
	esac || fail "a glob of subsystems without the event"
refused 2 "pfmon: event 'sys[c]alls:sys_enter_getppid': unknown tracepoint ($EV/sys[c]alls/sys_enter_getppid not found)" \
	-e 'sys[c]alls:sys_enter_getppid' -- $W
refused 2 "pfmon: event 'sched:sched_switch:p': the modifier is u, k or uk" \
	-e sched:sched_switch:p -- $W

# -d, -dd, -ddd: perf's detailed events after the -e ones, <not supported> without
# a hardware PMU (the guest's), in perf's order; with no -e, perf's default
# events first, its hardware ones <not supported> too
names() {
	echo "$out" | cut -d';' -f3 | tr '\n' ' '
}
values() {
	echo "$out" | cut -d';' -f1 | sort | uniq -c | tr -s ' \n' '  '
}
D1="L1-dcache-loads L1-dcache-load-misses LLC-loads LLC-load-misses "
D2="L1-icache-loads L1-icache-load-misses dTLB-loads dTLB-load-misses iTLB-loads iTLB-load-misses "
D3="L1-dcache-prefetches L1-dcache-prefetch-misses "
out=$($P -x';' -d -e syscalls:sys_enter_getppid -- $W -s 3000) || fail "-d: $?"
[ "$(names)" = "syscalls:sys_enter_getppid $D1" ] && [ "$(values)" = " 1 3000 4 <not supported> " ] ||
	fail "-d after -e"
echo "$out" | grep -qx '<not supported>;;LLC-loads;0;100.00;;' || fail "-d: perf's CSV line"
out=$($P -x';' -ddd -e syscalls:sys_enter_getppid -- $W -s 3000) || fail "-ddd: $?"
[ "$(names)" = "syscalls:sys_enter_getppid $D1$D2$D3" ] || fail "-ddd"
out=$($P -x';' --detailed --detailed -- $W -s 3000) || fail "-dd: $?"
[ "$(names)" = "task-clock context-switches cpu-migrations page-faults cycles instructions branches branch-misses $D1$D2" ] ||
	fail "-dd without -e"
out=$($P -j -d -- $W) || fail "-j -d: $?"
echo "$out" | /bin/jsoncheck >/dev/null &&
	echo "$out" | grep -qx '{"counter-value" : "<not supported>", "unit" : "", "event" : "cycles", "event-runtime" : 0, "pcnt-running" : 100.00, "metric-value" : 0.000000, "metric-unit" : ""}' ||
	fail "-j -d: perf's JSON line"
out=$($P -d -- $W) || fail "-d: $?"
echo "$out" | grep -Eq '^ +<not supported> +LLC-load-misses *$' || fail "-d: the text line"

# refused as perf refuses it: after no -e, after an -e of other events
refused 2 "pfmon: --filter option should follow a -e tracepoint or HW tracer option" \
	--filter 'common_pid != 0' -- $W
refused 2 "pfmon: --filter: the -e before it has events that are not tracepoints (perf: This CPU does not support address filtering)" \
	-e 'syscalls:sys_enter_getppid,task-clock' --filter 'common_pid != 0' -- $W

# --cputype: a machine with one type of CPU refuses it, as perf; before the events
refused 2 "pfmon: --cputype core is not supported!" --cputype core -- $W
refused 2 "pfmon: --cputype atom is not supported!" --cputype atom -e task-clock -- $W
refused 2 "pfmon: Must define cputype before events/metrics" -e task-clock --cputype core -- $W
