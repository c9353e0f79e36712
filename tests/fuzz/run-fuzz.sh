#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: the fuzzer (tests/fuzz/README.md) on whichever kernel booted.
#   - with /lib/perfmon.ko (Debian's kernel): insmod first; at the end rmmod must
#     succeed (a context or a module reference left behind fails it) and leave
#     nothing in /sys or /dev;
#   - with /fuzz/pcs.txt (the debug kernel): coverage-guided through KCOV;
#   - with /fuzz/replay.log: the log's programs again instead of new ones
#     (make fuzz-repro), FUZZ_ONLY=N for one of them.
# FUZZ_SECONDS, FUZZ_SEED, FUZZ_FRESH (a process per program) and FUZZ_PROCS
# (executors side by side) come from the kernel command line.  The log goes to
# memory shared with the host (an ivshmem device) or to the third serial port,
# both of which the host keeps in files.
rc=0
mod=0
if [ -e /lib/perfmon.ko ]; then
	insmod /lib/perfmon.ko || { echo "run-fuzz: insmod failed"; exit 1; }
	mod=1
fi
log=/dev/ttyS2
if [ -c $log ] && stty -F $log raw -echo 2>/dev/null; then
	:
else
	echo "run-fuzz: no third serial port: the log stays in the guest"
	log=/tmp/fuzz.log
fi
# the log in memory shared with the host when QEMU gives it (logring.c), else $log
set -- --log $log --log-ring ${FUZZ_LOG_RAM:+--log-ram $FUZZ_LOG_RAM}
[ -r /fuzz/pcs.txt ] && set -- "$@" --pcs /fuzz/pcs.txt
if [ -r /fuzz/replay.log ]; then
	set -- "$@" --replay /fuzz/replay.log --verbose ${FUZZ_ONLY:+--only $FUZZ_ONLY}
else
	set -- "$@" --seconds "${FUZZ_SECONDS:-600}" ${FUZZ_SEED:+--seed $FUZZ_SEED} \
		${FUZZ_FRESH:+--fresh} ${FUZZ_PROCS:+--procs $FUZZ_PROCS}
fi
# the fuzzer's own parts first (selftest.c): here the kernel injects faults
/bin/pfm_fuzz --selftest || { echo "run-fuzz: pfm_fuzz --selftest failed"; rc=1; }
echo "run-fuzz: pfm_fuzz $*"
/bin/pfm_fuzz "$@" || rc=$?
# A manager that died leaves its executors to end on their own (their pipes
# close): rmmod is to judge what perfmon kept, not what still runs.
i=0
while pidof pfm_fuzz >/dev/null && [ $i -lt 50 ]; do
	sleep 0.2
	i=$((i + 1))
done
if pidof pfm_fuzz >/dev/null; then
	echo "run-fuzz: pfm_fuzz processes left after the manager: $(pidof pfm_fuzz)"
	killall -9 pfm_fuzz
	sleep 1
	rc=1
fi

if [ $mod -eq 1 ]; then
	if ! rmmod perfmon; then
		echo "run-fuzz: rmmod perfmon failed (a context or a reference leaked?)"
		rc=1
	fi
	if [ -e /sys/kernel/perfmon ] || [ -e /dev/perfmon ]; then
		echo "run-fuzz: perfmon left files behind after rmmod"
		rc=1
	fi
fi
exit $rc
