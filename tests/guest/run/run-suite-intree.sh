#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest, on the in-tree debug kernel (scripts/intree/): perfmon is built in,
# with the system calls as its only door.  No module is loaded; the door is checked
# before the suite runs, and the suite's door tests make the system calls by number.
# The kernel's bug detectors (KASAN, lockdep, kmemleak, ...) report to the kernel log,
# which the guest init scans after this script, kmemleak included.
rc=0
if [ ! -r /sys/kernel/perfmon/syscall ]; then
	echo "run-suite-intree: /sys/kernel/perfmon/syscall is missing: not an in-tree kernel?"
	exit 1
fi
echo "run-suite-intree: perfmon system calls from $(cat /sys/kernel/perfmon/syscall)"
# With no device, libperfmon can only have reached the core through the system calls.
if [ -e /dev/perfmon ]; then
	echo "run-suite-intree: /dev/perfmon exists: the in-tree build must not have it"
	exit 1
fi
if grep -qs '^perfmon ' /proc/modules; then
	echo "run-suite-intree: a perfmon module is loaded"
	exit 1
fi
/bin/pfm-exec-images || { echo "run-suite-intree: pfm-exec-images failed"; exit 1; }
# A stage that stops making progress is a failure with evidence (pfm-watchdog:
# backtraces of every CPU and blocked task), before the host's 900 s end the boot.
CK_DEFAULT_TIMEOUT=120 CK_XML_LOG_FILE_NAME=/tmp/suite.xml \
	/bin/pfm-watchdog 600 run-suite-intree /bin/pfm_tests || rc=$?
/bin/pfm-slowest /tmp/suite.xml 12
[ $rc -eq 124 ] && exit 1
[ -z "$CK_RUN_SUITE" ] && { /bin/pfm-watchdog 300 pfmon-check /bin/pfmon-check || rc=1; }
# pfmon-perf-check is the stock guest's only: pfmon's formats against perf stat's
# are user space, and its kernel side (contexts, inherited) is pfmon-check's.
[ -z "$CK_RUN_SUITE" ] && { /bin/pfm-watchdog 120 pfmon-tp-check /bin/pfmon-tp-check || rc=1; }
# The short fault injection sweep (tests/guest/faults/README; make check-faults: all of it),
# within its budget in make check (90 s).
[ -z "$CK_RUN_SUITE" ] && { /bin/pfm-watchdog 90 pfm_faults /bin/pfm_faults --short || rc=1; }
exit $rc
