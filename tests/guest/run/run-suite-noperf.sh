#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: a few core suites on perfmon built without the perf_event_open
# layer (make check-guest-noperf: perfmon.ko built with PFM_PERF=n).  Not the whole
# suite: the shim's suites need the layer, and this run is kept short.
# PFM_NOPERF_SUITES (kernel command line) lists the suites, comma separated; each
# runs on its own, as CK_RUN_SUITE selects one.
suites=${PFM_NOPERF_SUITES:-ctx,rw,state,sysfs}

insmod /lib/perfmon.ko || { echo "run-suite-noperf: insmod failed"; exit 1; }
# A module with the layer would prove nothing: its knobs are in /sys/kernel/perfmon.
if [ ! -d /sys/kernel/perfmon ]; then
	echo "run-suite-noperf: /sys/kernel/perfmon is missing"
	exit 1
fi
if ls /sys/kernel/perfmon/perf_* >/dev/null 2>&1; then
	echo "run-suite-noperf: the module has the perf_event_open layer"
	exit 1
fi

rc=0
IFS=,
for s in $suites; do
	CK_DEFAULT_TIMEOUT=120 CK_RUN_SUITE=$s /bin/pfm_tests > /tmp/suite.log 2>&1 || rc=1
	cat /tmp/suite.log
	# A name that is no suite's selects nothing, and nothing passes.
	if ! grep -q 'Checks: [1-9]' /tmp/suite.log; then
		echo "run-suite-noperf: suite $s ran no test"
		rc=1
	fi
done
unset IFS

# The leak check for contexts, as in run-suite.sh.
tries=1
until rmmod perfmon 2>/dev/null; do
	if [ $tries -ge 10 ]; then
		rmmod perfmon
		echo "run-suite-noperf: rmmod perfmon failed (a context leaked?)"
		rc=1
		break
	fi
	tries=$((tries + 1))
	sleep 0.5
done
if [ -e /sys/kernel/perfmon ] || [ -e /dev/perfmon ]; then
	echo "run-suite-noperf: perfmon left files behind after rmmod"
	rc=1
fi
exit $rc
