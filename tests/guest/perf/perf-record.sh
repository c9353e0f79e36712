# SPDX-License-Identifier: GPL-2.0
#
# Sourced by perf-clients.sh: perf record, perf script and perf report, natively
# and through the shim, in their own functions (verdict, $W, $SHIM, $OUT are
# perf-clients.sh's).

# --- perf test through the shim ---------------------------------------------------

# ptest_check_shim FILE: 'Software clock events period values' Ok (the shim
# samples the clocks); 'Event times' Ok or Skip: its CPU events are EACCES through
# the shim (perfmon's per-thread and CPU sessions exclude each other), which the
# test takes as a skip.
ptest_check_shim() {
	p=
	t='Software clock events period values'
	grep -q "$t *: Ok" "$1" || p="$p '$t' $(grep "$t" "$1" | sed 's/.*: *//')"
	t='Event times'
	grep -Eq "$t *: (Ok|Skip)" "$1" || p="$p '$t' $(grep "$t" "$1" | sed 's/.*: *//')"
	echo "$p"
}

# --- perf record --per-thread -c 64, perf script: the same samples -----------------

# rec_script FILE: "tid period ip" per sample, tids renamed in order of appearance
# (two runs have different tids; the same number of threads, in the same order)
rec_script() {
	perf script -i "$1" -F tid,period,ip 2>/dev/null |
		awk '{ if (!($1 in t)) t[$1] = "T" (++n); print t[$1], $2, $3 }'
}

# rec_check SCRIPT [NATIVE_SCRIPT]: samples there; the same as native's
rec_check() {
	n=$(wc -l < "$1")
	[ "$n" -gt 0 ] || { echo " no samples"; return; }
	awk '$2 != 64 { bad = 1 } END { exit bad }' "$1" || echo " periods other than 64"
	[ -z "$2" ] && return
	cmp -s "$1" "$2" || echo " $n samples differ from native's $(wc -l < "$2"): $(diff "$2" "$1" | head -n 6 | tr '\n' ' ')"
}

# perf.data files: not in $OUT, whose files perf-clients.sh prints on a failure
RECD=/tmp/perf-record

client_perf_record() {
	mkdir -p $RECD
	cd $RECD
	perf record -q --per-thread --no-bpf-event -e page-faults:u -c 64 \
		-o $RECD/native.data -- $W > $OUT/rec.native.log 2>&1
	rec_script $RECD/native.data > $OUT/rec.native
	verdict native perf-record "$(rec_check $OUT/rec.native)"
	echo "  $(wc -l < $OUT/rec.native) samples, first: $(head -n1 $OUT/rec.native)"
	$SHIM perf record -q --per-thread --no-bpf-event -e page-faults:u -c 64 \
		-o $RECD/shim.data -- $W > $OUT/rec.shim.log 2>&1
	rec_script $RECD/shim.data > $OUT/rec.shim
	verdict shim perf-record "$(rec_check $OUT/rec.shim $OUT/rec.native)"
	echo "  $(wc -l < $OUT/rec.shim) samples, first: $(head -n1 $OUT/rec.shim)"
	cd /
}

# --- perf record (per-CPU, inherit, TIME), perf report: the workload's functions ---

# rep_top FILE: "comm dso sym" of the report's top entry
rep_top() {
	perf report -i "$1" --stdio --sort comm,dso,sym 2>/dev/null |
		awk '/^ *[0-9.]+%/ { $1 = ""; sub(/^ /, ""); print; exit }'
}

# rep_check TOP [NATIVE_TOP]: the workload's own function named, as native names it
rep_check() {
	case $1 in
	'') echo " no report"; return ;;
	*unknown*|*0x*) echo " top entry unresolved: $1"; return ;;
	workload*) ;;
	*) echo " top entry not the workload's: $1"; return ;;
	esac
	[ -z "$2" ] || [ "$1" = "$2" ] || echo " top entry '$1', native '$2'"
}

client_perf_report() {
	mkdir -p $RECD
	cd $RECD
	perf record -q -e page-faults -c 64 -o $RECD/rep.native.data -- $W \
		> $OUT/rep.native.log 2>&1
	rep_top $RECD/rep.native.data > $OUT/rep.native
	verdict native perf-report "$(rep_check "$(cat $OUT/rep.native)")"
	echo "  top: $(cat $OUT/rep.native)"
	$SHIM perf record -q -e page-faults -c 64 -o $RECD/rep.shim.data -- $W \
		> $OUT/rep.shim.log 2>&1
	rep_top $RECD/rep.shim.data > $OUT/rep.shim
	verdict shim perf-report "$(rep_check "$(cat $OUT/rep.shim)" "$(cat $OUT/rep.native)")"
	echo "  top: $(cat $OUT/rep.shim)"
	cd /
}

# --- perf record -g, perf script: call chains name the callers ------------------------

# cg_syms FILE: the symbols of the samples' call chains, one per line
cg_syms() {
	perf script -i "$1" -F ip,sym 2>/dev/null | awk 'NF >= 2 { print $2 }'
}

# cg_check SYMS: the fault's function and its caller, main, both in the chains
cg_check() {
	[ -s "$1" ] || { echo " no samples"; return; }
	grep -qx do_pages "$1" || echo " no do_pages in the chains"
	grep -qx main "$1" || echo " no main in the chains"
}

# The frame-pointer workload, so that both walks (the kernel's, the shim's) see main()
client_perf_callgraph() {
	WFP="/bin/workload-fp -s 0 -p 2048 -t 0 -l 1"
	mkdir -p $RECD
	cd $RECD
	perf record -q -g -e page-faults:u -c 64 -o $RECD/cg.native.data -- $WFP \
		> $OUT/cg.native.log 2>&1
	cg_syms $RECD/cg.native.data > $OUT/cg.native
	verdict native perf-callgraph "$(cg_check $OUT/cg.native)"
	$SHIM perf record -q -g -e page-faults:u -c 64 -o $RECD/cg.shim.data -- $WFP \
		> $OUT/cg.shim.log 2>&1
	cg_syms $RECD/cg.shim.data > $OUT/cg.shim
	verdict shim perf-callgraph "$(cg_check $OUT/cg.shim)"
	echo "  chains: $(grep -c . $OUT/cg.shim) frames, $(sort -u $OUT/cg.shim | tr '\n' ' ' | head -c 120)"
	cd /
}
