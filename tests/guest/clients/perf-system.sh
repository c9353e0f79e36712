# SPDX-License-Identifier: GPL-2.0
#
# Sourced by perf-clients.sh: perf's system-wide tools, natively and through the
# shim (verdict, $W, $SHIM, $OUT are perf-clients.sh's; $RECD perf-record.sh's).
# Without a hardware PMU perf record -a and perf top fall back to cpu-clock on
# every CPU, natively as through the shim.

# --- perf record -a -g, perf report: the workload's functions and their shares -----

# sys_report FILE: "share comm dso sym" of the report's entries over 5 %
sys_report() {
	perf report -i "$1" --stdio --sort comm,dso,sym 2>/dev/null |
		awk '/^ *[0-9.]+%/ { s = $1 + 0; if (s < 5) exit; $1 = ""; sub(/^ /, "");
			printf "%.1f %s\n", s, $0 }'
}

# sys_check REPORT [NATIVE_REPORT]: the workload's spin named at the top, as
# native names it, with a share within 15 points of native's (what the workload
# does besides spinning, and perf's own start, vary from run to run under TCG)
sys_check() {
	top=$(head -n1 "$1")
	case $top in
	'') echo " no report"; return ;;
	*unknown*|*0x*) echo " top entry unresolved: $top"; return ;;
	*workload*workload*) ;;
	*) echo " top entry not the workload's own code: $top"; return ;;
	esac
	[ -z "$2" ] && return
	ntop=$(head -n1 "$2")
	[ "${top#* }" = "${ntop#* }" ] || { echo " top '$top', native '$ntop'"; return; }
	awk -v a="${top%% *}" -v b="${ntop%% *}" 'BEGIN { d = a - b; exit !(d < -15 || d > 15) }' &&
		echo " top share ${top%% *} %, native ${ntop%% *} %"
}

client_perf_record_a() {
	mkdir -p $RECD
	cd $RECD
	perf record -q -a -g -o $RECD/sys.native.data -- $W > $OUT/sys.native.log 2>&1
	sys_report $RECD/sys.native.data > $OUT/sys.native
	verdict native perf-record-a "$(sys_check $OUT/sys.native)"
	echo "  $(tr '\n' ';' < $OUT/sys.native)"
	$SHIM perf record -q -a -g -o $RECD/sys.shim.data -- $W > $OUT/sys.shim.log 2>&1
	sys_report $RECD/sys.shim.data > $OUT/sys.shim
	verdict shim perf-record-a "$(sys_check $OUT/sys.shim $OUT/sys.native)"
	echo "  $(tr '\n' ';' < $OUT/sys.shim)"
	cd /
}

# --- perf top --stdio: the workload's function named while it runs ----------------

# top_check FILE: the spinning workload's function among perf top's entries
top_check() {
	grep -q '%.*workload.*spin' "$1" || echo " no workload spin in: $(grep '%' "$1" | head -n 3 | tr '\n' ';')"
}

# perf top for 4 s beside a 3 s spin; -d 1 refreshes every second
perf_top() {
	/bin/workload -s 0 -p 0 -t 3000 -l 1 > /dev/null 2>&1 &
	wl=$!
	timeout -s INT 4 $1 perf top --stdio -d 1 -E 8 --sort comm,dso,sym < /dev/null > $2 2>&1
	wait $wl
}

client_perf_top() {
	perf_top "" $OUT/top.native
	verdict native perf-top "$(top_check $OUT/top.native)"
	perf_top "$SHIM" $OUT/top.shim
	verdict shim perf-top "$(top_check $OUT/top.shim)"
}
