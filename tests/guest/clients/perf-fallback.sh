# SPDX-License-Identifier: GPL-2.0
#
# Sourced by perf-clients.sh: events perfmon cannot serve, through the preload
# with the kernel's perf_event_open reachable (no noperf), which hands them to
# the kernel (libpfm-glue/preload/fallback.c); then with it blocked, and with
# the fallback off, where perfmon's errno must reach the client (verdict, $OUT
# are perf-clients.sh's).

# fallback_check FILE: the fallback program's own verdict
fallback_check() {
	tail -n1 "$1" | grep -q '^fallback: ok' && return
	echo " $(grep -v '^fallback: ok' "$1" | head -n 8 | tr '\n' ';')"
}

# note_check FILE [TEXT]: the preload's note on stderr, once, starting with
# TEXT; without TEXT, none
note_check() {
	n=$(grep -c '^libperfmon-perf: ' "$1")
	if [ -z "$2" ]; then
		[ "$n" -eq 0 ] || echo " a note where none was due: $(head -n1 "$1")"
		return
	fi
	[ "$n" -eq 1 ] || { echo " $n notes on stderr, not 1"; return; }
	grep -q "^libperfmon-perf: perf event type $2" "$1" ||
		echo " note: $(grep '^libperfmon-perf: ' "$1")"
}

# the tracefs event id of EVENT (raw_syscalls/sys_enter), empty if none
tp_id() {
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -r $d/events/$1/id ] && { cat $d/events/$1/id; return; }
	done
}

# --- the fallback program: a kprobe PMU event, exact counts and errnos -------------

client_fallback() {
	kt=$(cat /sys/bus/event_source/devices/kprobe/type 2>/dev/null)
	fallback native > $OUT/fallback.native 2>&1
	verdict native fallback "$(fallback_check $OUT/fallback.native)"
	PFM_PERF_FALLBACK_NOTE=1 pfm-perf fallback shim > $OUT/fallback.shim \
		2> $OUT/fallback.shim.err
	verdict shim fallback "$(fallback_check $OUT/fallback.shim)$(note_check \
		$OUT/fallback.shim.err "$kt (dynamic PMU) config 0:")"
	# the kernel's call blocked by seccomp, the fallback on: perfmon's ENOENT
	PFM_PERF_FALLBACK_NOTE=1 noperf pfm-perf fallback refused \
		> $OUT/fallback.blocked 2> $OUT/fallback.blocked.err
	verdict shim fallback-blocked "$(fallback_check $OUT/fallback.blocked)$(note_check \
		$OUT/fallback.blocked.err)"
	# the kernel's call there, the fallback off: perfmon's ENOENT
	PFM_PERF_FALLBACK=0 PFM_PERF_FALLBACK_NOTE=1 pfm-perf fallback refused \
		> $OUT/fallback.off 2> $OUT/fallback.off.err
	verdict shim fallback-off "$(fallback_check $OUT/fallback.off)$(note_check \
		$OUT/fallback.off.err)"
	fallback_stat
}

# --- perf stat -e raw_syscalls:sys_enter: counted through pfm-perf, not lost ------

FB_EV=raw_syscalls:sys_enter
# 20000 system calls and the workload's own few dozen (static: no loader)
FB_W="/bin/workload -s 20000"

fallback_stat() {
	id=$(tp_id raw_syscalls/sys_enter)
	perf stat -x, -e $FB_EV -o $OUT/fbstat.native -- $FB_W
	nv=$(stat_field $OUT/fbstat.native $FB_EV 1)
	p=
	isnum "$nv" && between "$nv" 20000 20200 || p=" $FB_EV='$nv'"
	verdict native fallback-stat "$p"

	# perfmon alone, the kernel's call blocked: what it says of the event
	PFM_PERF_FALLBACK=0 noperf pfm-perf perf stat -x, -e $FB_EV \
		-o $OUT/fbstat.alone -- $FB_W
	av=$(stat_field $OUT/fbstat.alone $FB_EV 1)

	PFM_PERF_FALLBACK_NOTE=1 pfm-perf perf stat -x, -e $FB_EV \
		-o $OUT/fbstat.shim -- $FB_W 2> $OUT/fbstat.shim.err
	v=$(stat_field $OUT/fbstat.shim $FB_EV 1)
	p=
	if ! isnum "$v"; then
		p=" $FB_EV='$v'"
	elif isnum "$nv"; then
		# one static program, run the same way: within 1 % and 10 calls
		awk -v a="$nv" -v b="$v" \
			'BEGIN { d = a / 100 + 10; exit !(b >= a - d && b <= a + d) }' ||
			p=" $FB_EV=$v native $nv"
	fi
	if isnum "$av"; then
		# perfmon serves tracepoints itself: counted there, no note
		p="$p$(note_check $OUT/fbstat.shim.err)"
	else
		case $av in
		'<not supported>') ;;
		*) p="$p perfmon alone: '$av', not <not supported>" ;;
		esac
		p="$p$(note_check $OUT/fbstat.shim.err \
			"2 (tracepoint) config $(printf '%#x' "$id"):")"
	fi
	verdict shim fallback-stat "$p"
	echo "  native $nv, through pfm-perf $v, perfmon alone '$av'"
}
