# SPDX-License-Identifier: GPL-2.0
#
# Sourced by perf-clients.sh: perf record, perf script and perf report, natively
# and through the shim, in their own functions (verdict, $W, $SHIM, $OUT are
# perf-clients.sh's).

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
	$SHIM perf record -q --per-thread --no-bpf-event -e page-faults:u -c 64 \
		-o $RECD/shim.data -- $W > $OUT/rec.shim.log 2>&1
	rec_script $RECD/shim.data > $OUT/rec.shim
	verdict shim perf-record "$(rec_check $OUT/rec.shim $OUT/rec.native)"
	cd /
}
