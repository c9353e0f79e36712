# SPDX-License-Identifier: GPL-2.0
# Sourced by pfmon-check and pfmon-perf-check (each defines fail()).
#
# waiting PID: returns once the process's first thread sleeps in its -w wait
# (nanosleep or clock_nanosleep), so that a -p started then counts from the
# wait, not from the start-up calls before it (a loaded host may not have run
# them yet when the shell goes on)
waiting() {
	for _ in $(seq 1000); do
		case $(cut -d' ' -f1 /proc/$1/syscall 2>/dev/null) in
		35|230) return 0 ;;
		esac
		sleep 0.01
	done
	fail "workload $1 never reached its wait"
}
