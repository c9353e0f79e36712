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

# --- perf record --call-graph dwarf: the user registers and a copy of the stack ------

# The workload built without frame pointers, sampled with the user registers and
# 4 KiB of stack each.  Debian's perf in the guest unwinds none of the
# workloads' chains past the sampled function by their DWARF, natively too (the
# chains name do_pages alone), so the shim's chains are held to native's: the
# same symbols as often, and the samples' stack copies to perf_diff's
# sample-tail case (sizes exact).
client_perf_callgraph_dwarf() {
	WD="/bin/workload -s 0 -p 2048 -t 0 -l 1"
	mkdir -p $RECD
	cd $RECD
	perf record -q --call-graph dwarf,4096 -e page-faults:u -c 64 \
		-o $RECD/cgd.native.data -- $WD > $OUT/cgd.native.log 2>&1
	cg_syms $RECD/cgd.native.data > $OUT/cgd.native
	verdict native perf-callgraph-dwarf "$(cg_leaf $OUT/cgd.native)"
	$SHIM perf record -q --call-graph dwarf,4096 -e page-faults:u -c 64 \
		-o $RECD/cgd.shim.data -- $WD > $OUT/cgd.shim.log 2>&1
	cg_syms $RECD/cgd.shim.data > $OUT/cgd.shim
	verdict shim perf-callgraph-dwarf "$(cg_leaf $OUT/cgd.shim)$(cg_same \
		$OUT/cgd.native $OUT/cgd.shim)"
	echo "  chains: $(grep -c . $OUT/cgd.shim) frames, $(sort -u $OUT/cgd.shim | tr '\n' ' ' | head -c 120)"
	cd /
}

# cg_leaf SYMS: samples, in the fault's function
cg_leaf() {
	[ -s "$1" ] || { echo " no samples"; return; }
	grep -qx do_pages "$1" || echo " no do_pages in the chains"
}

# cg_same NATIVE SHIM: the same symbols, as many times each (the workload fixes
# its faults, one sample every 64)
cg_same() {
	sort "$1" | uniq -c > "$1.count"
	sort "$2" | uniq -c > "$2.count"
	cmp -s "$1.count" "$2.count" || echo " chains differ from native's:" \
		"native" $(head -n 6 "$1.count") "shim" $(head -n 6 "$2.count")
}

# --- perf record -F 1000 -g -e task-clock: the rate, and chains through main -------

# clk_samples FILE: "time sym sym ..." per sample of the spinning program (not of
# cputime before it): its time in seconds and the symbols of its call chain,
# innermost first
clk_samples() {
	perf script -i "$1" -F comm,time,ip,sym 2>/dev/null | awk '
		/^[^ \t].* [0-9]+\.[0-9]+: *$/ { if (line != "") print line; line = ""
			if ($1 != "workload-dyn") next
			sub(/:$/, "", $2); line = $2; next }
		line != "" && NF >= 2 { line = line " " $2 }
		END { if (line != "") print line }'
}

# clk_gaps SAMPLES: the gaps between samples in ms, sorted
clk_gaps() {
	awk 'NR > 1 { printf "%.6f\n", ($1 - t) * 1e3 } { t = $1 }' "$1" | sort -n
}

# clk_check SAMPLES CPUTIME_FILE: 1000 samples per second of task clock within
# 10 %, chains that name do_spin (where the program spins) and main.
#
# Under TCG the guest stops whenever the host runs something else (or its one TCG
# thread runs the other vCPU) while the guest's clocks go on: the spinning thread
# is charged CPU time in which no timer can fire, and both kernels take one late
# sample and drop the periods missed (perf_events forwards its hrtimer past them,
# the shim skips its overruns likewise), as on a machine whose CPU is stolen; a
# loaded host takes a good share of the samples so.  The guest cannot tell those
# stalls from the thread's own CPU time, so the rate is taken on the samples' own
# timeline: each
# gap between two samples of the program (which never sleeps) is time at the
# period, except a gap over 2.5 periods (a stall, or the thread off its CPU),
# which counts as one period.  A lost sample (a gap of 2) or a wrong period still
# shows in full.  Against the run's CPU time (cputime), which stalls only lengthen,
# the rate may not pass 1100/s; stalls over half the run make it tell nothing (it
# is run again, three times at most).
clk_check() {
	[ -s "$1" ] || { echo " no samples"; return; }
	[ -s "$2" ] || { echo " no CPU time"; return; }
	clk_gaps "$1" | awk -v n="$(wc -l < "$1")" -v ns="$(cat "$2")" '
		{ if ($1 > 2.5) { k++; st += $1; t += 1 } else t += $1 }
		END {
		cpu = ns / 1e6
		if (n < 100 || st > (t + st) / 2) {
			printf " inconclusive: %d samples, stalls %.1f ms of %.1f ms\n", n, st, t + st; exit
		}
		rate = NR * 1e3 / t
		if (rate < 900 || rate > 1100)
			printf " rate %.0f/s (%d gaps in %.1f ms, less %d stalls of %.1f ms), not 1000 +- 10 %%\n", rate, NR, t + st, k, st
		if (n * 1e3 / cpu > 1100)
			printf " %d samples in %.1f ms of CPU time\n", n, cpu
		}'
	# the hot function's chains go through main
	awk '$2 == "do_spin" { n++; for (i = 3; i <= NF; i++) if ($i == "main") m++ }
	     END { if (n == 0) print " no sample in do_spin"
		   else if (m < n * 0.9) printf " %d of %d do_spin chains without main\n", n - m, n }' "$1"
	# The program's start (exec, the dynamic loader) takes some of them, many on
	# the debug kernel, whose KASAN slows the kernel's side, more through the shim
	# and more on a busy host, so only the samples from the first in the hot
	# function on are judged: the program spins and reads its CPU time
	# (clock_gettime(), whose system calls the shim places at their user IP, in
	# the vDSO, more of them through the shim): it holds most of them.  Those in
	# the vDSO are named (the shim's MMAP record of "[vdso]"), not [unknown].
	awk '$2 == "do_spin" { if (!s) s = NR; n++ }
	     s && $2 != "do_spin" { o[$2 == "" ? "(none)" : $2]++ }
	     END { if (!s) exit
		   if (n < (NR - s + 1) * 0.5 || o["[unknown]"] > (NR - s + 1) * 0.05) {
		   printf " %d of %d samples from the first in do_spin on are in it (others:", n, NR - s + 1
		   for (f in o) printf " %s %d", f, o[f]; print ")" } }' "$1"
}

# clk_rate SAMPLES CPUTIME_FILE: samples, CPU time, stalls and gaps, for the log
clk_rate() {
	clk_gaps "$1" | awk -v n="$(wc -l < "$1")" -v ns="$(cat "$2" 2>/dev/null)" '
		{ g[NR] = $1; if ($1 > 2.5) { k++; st += $1; t += 1 } else t += $1 }
		END { cpu = ns / 1e6
		printf "%d samples: %.0f/s of CPU time (%.1f ms), %.0f/s of the timeline less %d stalls (%.1f ms); gaps median %.3f ms, 90%% %.3f ms",
			n, (cpu > 0 ? n * 1e3 / cpu : 0), cpu, (t > 0 ? NR * 1e3 / t : 0), k, st,
			g[int(NR / 2) + 1], g[int(NR * 0.9) + 1] }'
}

# A CPU-bound dynamic program (the workload, built with frame pointers and
# linked against the shared libc): a second of spinning, nothing else; under
# cputime, whose own few samples are left out of the count
client_perf_clock() {
	WDYN="/bin/workload-dyn -s 0 -p 0 -t 1000 -l 0"
	mkdir -p $RECD
	cd $RECD
	for half in native shim; do
		sh=
		[ $half = shim ] && sh=$SHIM
		# a run mostly stalled measured nothing: up to three
		for try in 1 2 3; do
			$sh perf record -q -F 1000 -g -e task-clock -o $RECD/clk.$half.data -- \
				$WC $OUT/clk.$half.cpu $WDYN > $OUT/clk.$half.log 2>&1
			clk_samples $RECD/clk.$half.data > $OUT/clk.$half
			p=$(clk_check $OUT/clk.$half $OUT/clk.$half.cpu)
			echo "  $(clk_rate $OUT/clk.$half $OUT/clk.$half.cpu), chain: $(grep -m1 ' do_spin ' $OUT/clk.$half | cut -d' ' -f2-6)"
			case $p in *inconclusive*) ;; *) break ;; esac
		done
		verdict $half perf-clock "$p"
	done
	cd /
}
