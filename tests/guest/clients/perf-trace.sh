# SPDX-License-Identifier: GPL-2.0
#
# Sourced by perf-clients.sh: perf's tracepoint tools, natively and through the
# shim (verdict, as_native, isnum, $SHIM, $OUT are perf-clients.sh's; $RECD
# perf-record.sh's).  The shim serves PERF_TYPE_TRACEPOINT from the software
# PMU's TRACEPOINT event (perfmon_perf.h); these check what a user sees of it.
# The workload makes exactly TR_CALLS getppid() calls and sleeps once.

TR_CALLS=1000
TR_W="/bin/workload -s $TR_CALLS -p 0 -t 0 -l 20"

# tr_secs START: seconds since START (date +%s)
tr_secs() {
	echo $(($(date +%s) - $1))
}

# --- perf stat -e syscalls:sys_enter_getppid,sched:sched_switch ---------------------

# tr_stat_check FILE [NATIVE]: getppid exactly the workload's calls; the switches
# there (it sleeps), as native's within as_native's noise
tr_stat_check() {
	p=
	grep -q '<not' "$1" && p=" $(grep '<not' "$1" | cut -d, -f1,3 | tr '\n' ' ')"
	v=$(stat_field "$1" syscalls:sys_enter_getppid 1)
	[ "$v" = "$TR_CALLS" ] || p="$p getppid=$v, not $TR_CALLS"
	s=$(stat_field "$1" sched:sched_switch 1)
	isnum "$s" && [ "$s" -ge 1 ] || p="$p sched_switch='$s'"
	if [ -n "$2" ]; then
		ns=$(stat_field "$2" sched:sched_switch 1)
		isnum "$ns" && isnum "$s" && ! as_native "$ns" "$s" &&
			p="$p sched_switch=$s native $ns"
	fi
	echo "$p"
}

client_perf_stat_tp() {
	t0=$(date +%s)
	perf stat -x, -o $OUT/trstat.native \
		-e 'syscalls:sys_enter_getppid,sched:sched_switch' -- $TR_W
	verdict native perf-stat-tp "$(tr_stat_check $OUT/trstat.native)"
	$SHIM perf stat -x, -o $OUT/trstat.shim \
		-e 'syscalls:sys_enter_getppid,sched:sched_switch' -- $TR_W
	verdict shim perf-stat-tp "$(tr_stat_check $OUT/trstat.shim $OUT/trstat.native)"
	echo "  getppid native $(stat_field $OUT/trstat.native syscalls:sys_enter_getppid 1) shim $(stat_field $OUT/trstat.shim syscalls:sys_enter_getppid 1), sched_switch native $(stat_field $OUT/trstat.native sched:sched_switch 1) shim $(stat_field $OUT/trstat.shim sched:sched_switch 1) ($(tr_secs $t0) s)"
}

# --- perf record -e sched:sched_switch -a, perf script: the fields print ------------

# tr_fields FILE: the field names of perf script's sched_switch lines, in order
# (prev_comm= ... next_prio=), one line per distinct shape
tr_fields() {
	sed -n 's/.*sched:sched_switch: *//p' "$1" |
		sed 's/ ==>//; s/=[^ ]*//g' | sort -u
}

# tr_script_check SCRIPT [NATIVE_SCRIPT]: samples whose fields perf script
# names and prints (the workload switched out, its comm in the record), the
# same field names as native's
tr_script_check() {
	n=$(grep -c 'sched:sched_switch:' "$1")
	[ "$n" -gt 0 ] || { echo " no sched_switch samples: $(head -c 200 "$1")"; return; }
	f=$(tr_fields "$1")
	[ "$f" = "prev_comm prev_pid prev_prio prev_state next_comm next_pid next_prio" ] ||
		echo " fields '$(echo $f)'"
	grep -q 'prev_comm=workload ' "$1" || echo " the workload never switched out"
	grep -q 'next_comm=workload ' "$1" || echo " the workload never switched in"
	grep 'prev_comm=workload ' "$1" | grep -qv 'prev_pid=[1-9][0-9]* prev_prio=120 ' &&
		echo " bad workload fields: $(grep 'prev_comm=workload ' "$1" | head -n 1)"
	[ -z "$2" ] && return
	[ "$f" = "$(tr_fields "$2")" ] || echo " fields differ from native's"
}

client_perf_record_tp() {
	t0=$(date +%s)
	mkdir -p $RECD
	cd $RECD
	perf record -q -e sched:sched_switch -a -o $RECD/trrec.native.data -- $TR_W \
		> $OUT/trrec.native.log 2>&1
	perf script -i $RECD/trrec.native.data > $OUT/trrec.native 2>&1
	verdict native perf-record-tp "$(tr_script_check $OUT/trrec.native)"
	$SHIM perf record -q -e sched:sched_switch -a -o $RECD/trrec.shim.data -- $TR_W \
		> $OUT/trrec.shim.log 2>&1
	perf script -i $RECD/trrec.shim.data > $OUT/trrec.shim 2>&1
	verdict shim perf-record-tp "$(tr_script_check $OUT/trrec.shim $OUT/trrec.native)"
	echo "  switches native $(grep -c 'sched:sched_switch:' $OUT/trrec.native) shim $(grep -c 'sched:sched_switch:' $OUT/trrec.shim); shim's first: $(grep -m1 'prev_comm=workload' $OUT/trrec.shim | sed 's/^ *//') ($(tr_secs $t0) s)"
	cd /
}

# --- perf trace -s: the syscall summary -----------------------------------------------

# tr_trace_calls FILE: getppid's calls in perf trace -s's summary table
tr_trace_calls() {
	awk '$1 == "getppid" { print $2; exit }' "$1"
}

# tr_trace_check FILE: the summary names the workload's getppid with its calls
tr_trace_check() {
	grep -q 'workload' "$1" || { echo " no summary: $(head -n 3 "$1" | tr '\n' ';')"; return; }
	v=$(tr_trace_calls "$1")
	[ "$v" = "$TR_CALLS" ] || echo " getppid calls '$v', not $TR_CALLS"
}

# Rings of 1024 pages on both sides: with perf trace's default, native perf
# trace on the debug kernel lost 85 of the workload's 1000 calls once (its reader
# behind the burst of 2000 records), which is perf's ring, not the count.
client_perf_trace() {
	t0=$(date +%s)
	perf trace -m 1024 -s -o $OUT/trtrace.native -- $TR_W > /dev/null 2>&1
	verdict native perf-trace "$(tr_trace_check $OUT/trtrace.native)"
	$SHIM perf trace -m 1024 -s -o $OUT/trtrace.shim -- $TR_W > /dev/null 2>&1
	verdict shim perf-trace "$(tr_trace_check $OUT/trtrace.shim)"
	echo "  getppid calls native $(tr_trace_calls $OUT/trtrace.native) shim $(tr_trace_calls $OUT/trtrace.shim) ($(tr_secs $t0) s)"
}

# --- perf sched record, perf sched latency: the workload's row ---------------------
# perf sched record opens about ten sampling tracepoint events on each CPU, each on
# a software counter of its own: a CPU session is not multiplexed (perfmon_perf.h),
# and they fit in the layer's 32.  Both halves list the same tasks of the workload.

# tr_lat_row FILE: the workload's row of perf sched latency ("workload:PID | ...")
tr_lat_row() {
	grep -m1 '^ *workload:' "$1"
}

# tr_lat_check FILE: the workload has a row with its switches, and a total
tr_lat_check() {
	r=$(tr_lat_row "$1")
	[ -n "$r" ] || { echo " no workload row: $(head -n 5 "$1" | tr '\n' ';')"; return; }
	sw=$(echo "$r" | awk -F'|' '{ gsub(/ /, "", $3); print $3 }')
	isnum "$sw" && [ "$sw" -ge 1 ] || echo " workload switches '$sw'"
	grep -q 'TOTAL:' "$1" || echo " no TOTAL line"
}

# tr_lat_tasks FILE: the workload's task names in perf sched latency, sorted
tr_lat_tasks() {
	awk -F'|' '/^ *workload[^|]*:[0-9]+ *\|/ { sub(/:[0-9]+ *$/, "", $1)
		gsub(/ /, "", $1); print $1 }' "$1" | sort -u | tr '\n' ' '
}

# tr_lat_same NATIVE SHIM: the same workload tasks appear in both
tr_lat_same() {
	[ "$(tr_lat_tasks "$1")" = "$(tr_lat_tasks "$2")" ] ||
		echo " tasks native '$(tr_lat_tasks "$1")' shim '$(tr_lat_tasks "$2")'"
}

client_perf_sched() {
	t0=$(date +%s)
	mkdir -p $RECD
	cd $RECD
	perf sched record -q -o $RECD/trsched.native.data -- $TR_W > $OUT/trsched.native.log 2>&1
	perf sched latency -i $RECD/trsched.native.data > $OUT/trsched.native 2>&1
	verdict native perf-sched "$(tr_lat_check $OUT/trsched.native)"
	$SHIM perf sched record -q -o $RECD/trsched.shim.data -- $TR_W > $OUT/trsched.shim.log 2>&1
	perf sched latency -i $RECD/trsched.shim.data > $OUT/trsched.shim 2>&1
	verdict shim perf-sched "$(tr_lat_check $OUT/trsched.shim)$(tr_lat_same \
		$OUT/trsched.native $OUT/trsched.shim)"
	echo "  native: $(tr_lat_row $OUT/trsched.native | tr -s ' ')"
	echo "  shim:   $(tr_lat_row $OUT/trsched.shim | tr -s ' ') ($(tr_secs $t0) s)"
	cd /
}
