# SPDX-License-Identifier: GPL-2.0
# Sourced by pfmon-check (and through it pfmon-opts-check) and
# pfmon-perf-check, each of which defines fail().
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

# child_of PID: prints the first child of PID once it has one; fails (1) if
# none comes in 30 s
child_of() {
	for _ in $(seq 3000); do
		c=$(awk -v p="$1" '$4 == p { print $1; exit }' /proc/[0-9]*/stat 2>/dev/null)
		[ -n "$c" ] && { echo "$c"; return 0; }
		sleep 0.01
	done
	return 1
}

# sigwaiting PID: returns once the workload PID waits for the SIGUSR1 of its
# -w sig or -l sig (rt_sigtimedwait) with none pending: after a kill -USR1, once
# it is in its next wait.  The test then acts at a known point of the workload
# however slow the kernel, instead of at a time it guessed
sigwaiting() {
	for _ in $(seq 3000); do
		if [ "$(cat /proc/$1/comm 2>/dev/null)" = workload ] &&
		   [ "$(cut -d' ' -f1 /proc/$1/syscall 2>/dev/null)" = 128 ] &&
		   [ -z "$(grep -E '^(SigPnd|ShdPnd):' /proc/$1/status | grep -v ':	0*$')" ]; then
			return 0
		fi
		sleep 0.01
	done
	fail "workload $1 never reached its signal wait"
}
