# SPDX-License-Identifier: GPL-2.0
#
# Sourced by perf-clients.sh: the kernel's perf_events selftests of the 6.1 source
# (selftests.mk builds them into /selftests), each program run natively, then
# through $SHIM, and their TAP results compared case by case (verdict, $SHIM,
# $OUT are perf-clients.sh's).
#
# The native half passes when every program reported its cases.  The shim half
# passes when every case Ok natively is Ok through the shim, less the cases of
# SELFTESTS_KNOWN, which need events perfmon does not serve yet; a case of that
# list Ok through the shim fails the half too, so that the list stays true:
# take it off when the events come.

# CASE REASON, one a line: cases that need events perfmon does not serve
SELFTESTS_KNOWN='
'
# a program that runs past this is stopped (the harness stops each case after 30 s,
# or after 150 s in the builds for the debug kernel at /selftests/debug, selftests.mk)
SELFTESTS_LIMIT=${SELFTESTS_LIMIT:-300}
SELFTESTS_LIMIT_DEBUG=${SELFTESTS_LIMIT_DEBUG:-900}

# st_results FILE: "CASE ok|fail|skip" per case of a kselftest_harness TAP output
# (a SKIP line does not name its case: the RUN line before it does)
st_results() {
	awk '$1 == "#" && $2 == "RUN" { name = $3; next }
	     /^ok [0-9]+ # SKIP/ { print name, "skip"; next }
	     /^ok [0-9]+ / { print name, "ok"; next }
	     /^not ok [0-9]+ / { print name, "fail" }' "$1"
}

st_listed() {	# LIST NAME: NAME is the first word of a line of LIST
	echo "$1" | awk -v c="$2" '$1 == c { f = 1 } END { exit !f }'
}

st_known() {	# CASE: listed in SELFTESTS_KNOWN
	st_listed "$SELFTESTS_KNOWN" "$1"
}

# st_count FILE: "ok/fail/skip" of a results file
st_count() {
	awk '{ n[$2]++ } END { printf "%d/%d/%d", n["ok"], n["fail"], n["skip"] }' "$1"
}

# st_compare NATIVE SHIM: the shim half's problems
st_compare() {
	while read -r c r; do
		s=$(awk -v c="$c" '$1 == c { print $2; exit }' "$2")
		if st_known "$c"; then
			[ "$s" = ok ] && echo " $c Ok through the shim: take it off SELFTESTS_KNOWN"
			continue
		fi
		[ "$r" = ok ] || continue
		[ "$s" = ok ] || echo " $c ${s:-missing}"
	done < "$1"
}

client_selftests() {
	: > $OUT/st.native
	: > $OUT/st.shim
	p=
	for prog in /selftests/*; do
		[ -f "$prog" ] && [ -x "$prog" ] || continue
		n=${prog##*/}
		lim=$SELFTESTS_LIMIT
		# the debug kernel's build of a program, with longer cases, if there is one
		if [ -r /sys/kernel/perfmon/syscall ] && [ -x /selftests/debug/$n ]; then
			prog=/selftests/debug/$n
			lim=$SELFTESTS_LIMIT_DEBUG
		fi
		t0=$(date +%s)
		timeout $lim $prog > $OUT/st.$n.native.tap 2>&1
		timeout $lim $SHIM $prog > $OUT/st.$n.shim.tap 2>&1
		st_results $OUT/st.$n.native.tap > $OUT/st.$n.native
		st_results $OUT/st.$n.shim.tap > $OUT/st.$n.shim
		# every case the program plans, reported
		plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' $OUT/st.$n.native.tap | head -n1)
		got=$(wc -l < $OUT/st.$n.native)
		[ -n "$plan" ] && [ "$plan" -gt 0 ] && [ "$got" -eq "$plan" ] ||
			p="$p $n: ${got} results of ${plan:-no plan}"
		echo "  $n: native ok/fail/skip $(st_count $OUT/st.$n.native)," \
			"shim $(st_count $OUT/st.$n.shim), both in $(($(date +%s) - t0)) s"
		cat $OUT/st.$n.native >> $OUT/st.native
		cat $OUT/st.$n.shim >> $OUT/st.shim
	done
	[ -s $OUT/st.native ] || p="$p no selftest ran"
	verdict native selftests "$p"
	verdict shim selftests "$(st_compare $OUT/st.native $OUT/st.shim)"
	echo "  selftests: native ok/fail/skip $(st_count $OUT/st.native)," \
		"shim $(st_count $OUT/st.shim)"
	awk '$2 != "ok" { printf "  native %s: %s\n", $2, $1 }' $OUT/st.native
}
