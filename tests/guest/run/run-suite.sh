#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: load perfmon.ko, run the suite, unload the module.  The unload must
# succeed once every context is closed, and leave no trace in /sys or /dev.
insmod /lib/perfmon.ko || { echo "run-suite: insmod failed"; exit 1; }
/bin/pfm-exec-images || { echo "run-suite: pfm-exec-images failed"; exit 1; }
# The profile security.c confines an attacher with (no ptrace rule).
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
apparmor_parser -r -K /etc/apparmor.d/pfm_confined ||
	{ echo "run-suite: loading the AppArmor profile failed"; exit 1; }

# A stage that stops making progress is a failure with evidence (pfm-watchdog:
# backtraces of every CPU and blocked task), before the host's 900 s end the boot.
CK_DEFAULT_TIMEOUT=120 CK_XML_LOG_FILE_NAME=/tmp/suite.xml \
	/bin/pfm-watchdog 600 run-suite /bin/pfm_tests
rc=$?
/bin/pfm-slowest /tmp/suite.xml 12
[ $rc -eq 124 ] && exit 1
[ -z "$CK_RUN_SUITE" ] && { /bin/pfm-watchdog 200 pfmon-check /bin/pfmon-check || rc=1; }
[ -z "$CK_RUN_SUITE" ] && { /bin/pfm-watchdog 120 pfmon-perf-check /bin/pfmon-perf-check || rc=1; }
[ -z "$CK_RUN_SUITE" ] && { /bin/pfm-watchdog 120 pfmon-tp-check /bin/pfmon-tp-check || rc=1; }

# Attaches to a process that never runs leave nothing behind once closed: the
# module unloads while that process still sleeps.
sleeper=$(/bin/pfm_tests --attach-sleeper 1000) || { echo "run-suite: attach-sleeper failed"; rc=1; }
# Threads that ran after an attach and sleep (pause, read, stopped), their contexts
# closed: the module unloads while they sleep too, and they wake and exit after.
/bin/pfm_tests --ran-sleepers > /tmp/ran-sleepers &
waker=$!
until grep -q ready /tmp/ran-sleepers 2>/dev/null || ! kill -0 $waker 2>/dev/null; do
	sleep 0.1
done

# The module is pinned while a context exists: this is the leak check for contexts.
# A perf target's exit work (a workqueue item holding the context) may pin it a
# moment after the last test exited: a leak still pins it after 5 s.
tries=1
until rmmod perfmon 2>/dev/null; do
	if [ $tries -ge 10 ]; then
		rmmod perfmon
		echo "run-suite: rmmod perfmon failed (a context leaked?)"
		rc=1
		break
	fi
	tries=$((tries + 1))
	sleep 0.5
done
[ $tries -gt 1 ] && [ $rc -eq 0 ] && echo "run-suite: rmmod perfmon took $tries tries"
if [ -n "$sleeper" ]; then
	if kill -0 "$sleeper" 2>/dev/null; then
		[ $rc -eq 0 ] && echo "run-suite: rmmod done with the attached process $sleeper still asleep"
		kill -9 "$sleeper"
	else
		echo "run-suite: the attach-sleeper process $sleeper is gone: the check proved nothing"
		rc=1
	fi
fi
kill -USR1 $waker
wait $waker || { echo "run-suite: ran-sleepers failed (see above)"; rc=1; }
if [ -e /sys/kernel/perfmon ] || [ -e /dev/perfmon ]; then
	echo "run-suite: perfmon left files behind after rmmod"
	rc=1
fi
exit $rc
