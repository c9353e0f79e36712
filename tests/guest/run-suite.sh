#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: load perfmon.ko, run the suite, unload the module.  The unload must
# succeed once every context is closed, and leave no trace in /sys or /dev.
insmod /lib/perfmon.ko || { echo "run-suite: insmod failed"; exit 1; }
CK_DEFAULT_TIMEOUT=120 /bin/pfm_tests
rc=$?
# The module is pinned while a context exists: this is the leak check for contexts.
if ! rmmod perfmon; then
	echo "run-suite: rmmod perfmon failed (a context leaked?)"
	rc=1
fi
if [ -e /sys/kernel/perfmon ] || [ -e /dev/perfmon ]; then
	echo "run-suite: perfmon left files behind after rmmod"
	rc=1
fi
exit $rc
