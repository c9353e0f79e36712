# SPDX-License-Identifier: GPL-2.0
#
# Sourced by perf-clients.sh: every test of Debian's `perf test`, natively and
# through the shim (verdict, $SHIM, $OUT are perf-clients.sh's).  Not in the
# default client list: it takes many minutes under TCG.
#
#   make check-perf-clients PERF_CLIENTS_ONLY=perf_test_all
#   make check-perf-clients PERF_CLIENTS_ONLY=perf_test_all PERF_TEST_ONLY=50:85
#
# perf test has no time limit of its own: each test number runs alone, natively
# then through $SHIM, stopped after PERF_TEST_LIMIT seconds (120 by default,
# more for the tests of PERF_TEST_LIMITS);
# a run stopped so reads "Timeout", and before it is stopped the state of every
# process it started (wchan, kernel stack, perf_* counts of the shim) goes to
# $OUT/ptest/HALF.N.stuck.  Whatever a test leaves running is killed after it, so
# that it does not hold perfmon's sessions for the next one (noted in the
# output file): a process of the run is one with PERF_TEST_RUN=HALF.N in its
# environment.  Prints one line per case (a test, or each subtest of a test
# that has some), "N name | native | shim", then the counts: cases Ok natively,
# Ok through the shim, and each case Ok natively but not through the shim with
# the first lines of its `perf test -v` output.
#
# The verdict: the native half passes when perf test ran (some case Ok); the
# shim half when every case Ok natively is Ok through the shim, less those of
# PERF_TEST_KNOWN (cases the shim cannot pass, said why beside the list).

PERF_TEST_LIMIT=${PERF_TEST_LIMIT:-120}
# N:SECONDS, tests that take longer in a loaded TCG guest: PMU events (10)
# 100-125 s, daemon operations (85) natively 1.5-4 minutes
PERF_TEST_LIMITS=${PERF_TEST_LIMITS:-"10:300 85:400"}
# Cases the shim cannot pass, a space between them (each with why beside it):
# none
PERF_TEST_KNOWN=${PERF_TEST_KNOWN:-""}
PTD=$OUT/ptest

# pt_pids: the user processes now running, one pid a line (kernel threads have
# no executable)
pt_pids() {
	for d in /proc/[0-9]*; do
		[ -e "$d/exe" ] && echo "${d#/proc/}"
	done 2>/dev/null
}

# pt_new BEFORE TAG: the user processes not in BEFORE (a file of pids) that
# have PERF_TEST_RUN=TAG in their environment, or a parent that is one of
# them (perf daemon runs its sessions with an empty environment): those of
# one test run
pt_new() {
	for p in $(pt_pids | grep -vxF -f "$1"); do
		t=0
		{ tr '\0' '\n' < /proc/$p/environ; } 2>/dev/null |
			grep -qx "PERF_TEST_RUN=$2" && t=1
		echo "$p $(awk '/^PPid/ { print $2 }' /proc/$p/status 2>/dev/null) $t"
	done | sort -n | awk '$3 { run[$1] = 1 } !$3 && ($2 in run) { run[$1] = 1 }
		END { for (p in run) print p }'
}

pt_alive() {	# PID: running, not a zombie
	[ -r /proc/$1/stat ] || return 1
	[ "$(sed 's/.*) //' /proc/$1/stat 2>/dev/null | cut -c1)" != Z ]
}

# pt_stuck PIDS: what each process is waiting on, and the shim's counts
pt_stuck() {
	for p in "$@"; do
		[ -d /proc/$p ] || continue
		echo "== $p $(cat /proc/$p/comm 2>/dev/null) ppid $(awk '/^PPid/ { print $2 }' /proc/$p/status 2>/dev/null) state $(awk '/^State/ { print $2 }' /proc/$p/status 2>/dev/null) wchan $(cat /proc/$p/wchan 2>/dev/null)"
		echo "   $(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null | cut -c1-200)"
		sed 's/^/   /' /proc/$p/stack 2>/dev/null
		for t in /proc/$p/task/*; do
			[ "${t##*/}" = "$p" ] && continue
			echo "   thread ${t##*/} $(cat $t/comm 2>/dev/null) wchan $(cat $t/wchan 2>/dev/null)"
			sed 's/^/     /' $t/stack 2>/dev/null
		done
		ls -l /proc/$p/fd 2>/dev/null | awk '{ print "   fd", $(NF-2), $NF }' | grep -v '/dev/console\|/dev/null'
	done
	for f in /sys/kernel/perfmon/perf_*count; do
		[ -r "$f" ] && echo "${f##*/} $(cat $f)"
	done
}

# pt_limit N...: the seconds tests N... may take together
pt_limit() {
	sum=0
	for n in "$@"; do
		lim=$PERF_TEST_LIMIT
		for l in $PERF_TEST_LIMITS; do
			[ "${l%%:*}" = "$n" ] && lim=${l#*:}
		done
		sum=$((sum + lim))
	done
	echo $sum
}

# pt_run HALF N [TESTS]: perf test TESTS (N by default) into $PTD/HALF.N;
# prints its seconds.  The time limit is one sleeping process, not a poll: a
# process that starts and ends while a test scans /proc (perf stat
# --per-thread -a reads every thread's comm) would be a thread it cannot
# name, and fail the test.
pt_run() {
	out=$PTD/$1.$2
	rm -f $out.sleep $out.timeout
	pt_pids > $PTD/before
	t0=$(date +%s)
	tests=${3:-$2}
	limit=$(pt_limit $tests)
	if [ "$1" = shim ]; then
		PERF_TEST_RUN=$1.$2 $SHIM perf test -v $tests > $out 2>&1 &
	else
		PERF_TEST_RUN=$1.$2 perf test -v $tests > $out 2>&1 &
	fi
	pid=$!
	(
		sleep $limit &
		echo $! > $out.sleep
		wait $!
		if pt_alive $pid; then
			pt_stuck $(pt_new $PTD/before $1.$2) > $out.stuck 2>&1
			: > $out.timeout
			kill -KILL $pid
		fi
	) 2>/dev/null &
	wd=$!
	wait $pid 2>/dev/null
	while [ ! -s $out.sleep ]; do sleep 0.1; done
	kill -KILL $(cat $out.sleep) 2>/dev/null
	wait $wd
	left=
	for p in $(pt_new $PTD/before $1.$2); do
		[ "$p" != "$pid" ] && pt_alive $p && left="$left $p"
	done
	if [ -n "$left" ]; then
		echo "PERF-TEST-LEFT: $(for p in $left; do cat /proc/$p/comm; done 2>/dev/null | tr '\n' ' ')" >> $out
		kill -KILL $left 2>/dev/null
	fi
	# after the kills: nothing writes the file any more
	[ -f $out.timeout ] && echo "PERF-TEST-TIMEOUT after $limit s" >> $out
	# what the run left in perfmon's perf layer (the next test may trip on it)
	if [ -r /sys/kernel/perfmon/perf_events_count ] &&
	   [ "$(cat /sys/kernel/perfmon/perf_events_count)" != 0 ]; then
		sleep 1
		echo "PERF-TEST-PERFMON: targets $(cat /sys/kernel/perfmon/perf_targets_count) events $(cat /sys/kernel/perfmon/perf_events_count) after the run" >> $out
	fi
	echo $(($(date +%s) - t0))
}

# pt_results FILE: "case result" lines of a perf test -v output, result Ok,
# FAILED or Skip; none for a test that was stopped before its verdict.  -v
# prints "N: name :" (or "N.M: name :"), the test's output, "---- end ----",
# then "name: Ok" (or "name subtest M: Ok"); without -v "N: name : Ok".
pt_results() {
	sed 's/\x1b\[[0-9;]*m//g' "$1" | awk '
	function res(s) {
		if (s ~ /: Ok$/) return "Ok"
		if (s ~ /: FAILED!$/) return "FAILED"
		if (s ~ /: Skip/) return "Skip"
		return ""
	}
	/^ *[0-9]+(\.[0-9]+)?: / {
		c = $1; sub(/:$/, "", c)
		if (res($0) != "") { print c, res($0); cur = ""; next }
		if ($0 ~ /: *$/) { cur = c; ended = 0; next }
	}
	/^---- end ----$/ { ended = 1; next }
	cur != "" && ended && res($0) != "" { print cur, res($0); cur = "" }'
}

# pt_result FILE CASE
pt_result() {
	r=$(pt_results "$1" | awk -v c="$2" '$1 == c { print $2; exit }')
	if [ -z "$r" ]; then
		if grep -q '^PERF-TEST-TIMEOUT' "$1"; then r=Timeout; else r=none; fi
	fi
	echo "$r"
}

# pt_why FILE: the lines of a perf test -v output that say what went wrong
pt_why() {
	sed 's/\x1b\[[0-9;]*m//g' "$1" |
		grep -v '^ *[0-9][0-9.]*: \|^--- start ---\|^---- end ----\|^PERF-TEST-LEFT' |
		grep -i 'fail\|error\|not \|cannot\|can.t\|unable\|invalid\|denied\|timeout\|mismatch\|expected\|wrong\|no \|skip\|errno\|unsupported\|missing' |
		head -n 4 | cut -c1-160 | tr '\n' ';'
}

client_perf_test_all() {
	mkdir -p $PTD
	# perf test finds its shell tests in ./tests/shell when ./tests exists
	cd $PTD
	# the shell tests want GNU mktemp (templates of 3 and 5 X's, which
	# busybox's refuses) and tail --pid (daemon.sh)
	opath=$PATH
	PATH=/opt/gnu/bin:$PATH
	perf test list > $PTD/list.all 2>&1
	sed -n 's/^ *\([0-9][0-9]*\): \(.*\)$/\1 \2/p' $PTD/list.all > $PTD/list
	sed -n 's/^ *\([0-9][0-9]*:[0-9][0-9]*\): \(.*\)$/\1 \2/p' $PTD/list.all |
		tr : . > $PTD/sublist
	: > $PTD/table
	# PT_BATCH: the tests of PERF_TEST_ONLY in one perf test a half (one
	# start-up of perf instead of one a test, seconds each on the debug
	# kernel), limited by the sum of their limits; each row shows the
	# batch's time
	if [ -n "$PT_BATCH" ] && [ -n "$PERF_TEST_ONLY" ]; then
		bt=$(echo "$PERF_TEST_ONLY" | tr : ' ')
		ns=$(pt_run native batch "$bt")
		ss=$(pt_run shim batch "$bt")
	fi
	for n in $(awk '{ print $1 }' $PTD/list); do
		if [ -n "$PERF_TEST_ONLY" ]; then
			echo ":$PERF_TEST_ONLY:" | grep -q ":$n:" || continue
		fi
		if [ -n "$PT_BATCH" ] && [ -n "$PERF_TEST_ONLY" ]; then
			cp $PTD/native.batch $PTD/native.$n
			cp $PTD/shim.batch $PTD/shim.$n
		else
			ns=$(pt_run native $n)
			ss=$(pt_run shim $n)
		fi
		if [ -n "$PERF_TEST_DUMP" ]; then
			for f in $PTD/native.$n $PTD/shim.$n $PTD/*.$n.stuck; do
				[ -f $f ] && { echo "--- $f"; head -n 300 $f; }
			done
		fi
		cases=$(awk -v n="$n" 'index($1, n ".") == 1 { print $1 }' $PTD/sublist)
		[ -n "$cases" ] || cases=$n
		for c in $cases; do
			name=$(awk -v c="$c" '$1 == c { $1 = ""; sub(/^ /, ""); print; exit }' \
				$PTD/list $PTD/sublist)
			nr=$(pt_result $PTD/native.$n $c)
			sr=$(pt_result $PTD/shim.$n $c)
			printf '%-5s %-50.50s | %-7s %4ss | %-7s %4ss\n' \
				"$c" "$name" "$nr" "$ns" "$sr" "$ss" | tee -a $PTD/table
		done
	done
	cd /
	PATH=$opath
	# a row ends "| native Ns | shim Ns"
	nok=$(awk '$(NF-4) == "Ok"' $PTD/table | wc -l)
	sok=$(awk '$(NF-1) == "Ok"' $PTD/table | wc -l)
	awk '$(NF-4) == "Ok" && $(NF-1) != "Ok"' $PTD/table > $PTD/lost
	echo "perf test: $(wc -l < $PTD/table) cases, $nok Ok natively, $sok Ok through the shim, $(wc -l < $PTD/lost) Ok natively only"
	p=
	while read -r c rest; do
		n=${c%%.*}
		known=
		echo " $PERF_TEST_KNOWN " | grep -q " $c " && known=" (known)"
		echo "  lost $c$known: $(pt_why $PTD/shim.$n)"
		[ -z "$known" ] && p="$p $c"
	done < $PTD/lost
	[ "$nok" -gt 0 ] && np= || np=" nothing Ok"
	verdict native ${PT_NAME:-perf-test-all} "$np"
	verdict shim ${PT_NAME:-perf-test-all} "${p:+ Ok natively only:$p}"
}

# perf test's cases of tracepoint and breakpoint events, in make check on both
# kernels (about 20 s natively and as long through the shim): system call
# tracepoints per thread and CPU-wide, samples through mmap, a tracepoint's
# fields, breakpoint signals, sampling and accounting, watchpoints, the backward
# ring, sigtrap
PERF_TEST_TPBP=${PERF_TEST_TPBP:-2:3:4:16:20:21:22:23:51:73}
client_perf_test_tpbp() {
	pt_only=$PERF_TEST_ONLY
	PERF_TEST_ONLY=$PERF_TEST_TPBP
	PT_NAME=perf-test-tpbp
	PT_BATCH=1
	client_perf_test_all
	PERF_TEST_ONLY=$pt_only
	PT_NAME=
	PT_BATCH=
}


