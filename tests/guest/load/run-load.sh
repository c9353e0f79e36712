#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest, on the stock kernel: perfmon.ko loaded, pfm_load for
# PFM_LOAD_SECONDS (kernel command line), then the module's refcount must be 0 and
# rmmod must succeed, leaving nothing in /sys or /dev.
secs=${PFM_LOAD_SECONDS:-60}
[ -n "$PFM_LOAD_NATIVE" ] && export PFM_LOAD_NATIVE
insmod /lib/perfmon.ko || { echo "run-load: insmod failed"; exit 1; }
# the warm-up round, at most a sixth and at least 3 s, and the slab snapshots
limit=$((secs + secs / 3 + 240))
/bin/pfm-watchdog $limit pfm_load /bin/pfm_load "$secs" $PFM_LOAD_WARMUP $PFM_LOAD_SEED
rc=$?
[ $rc -eq 124 ] && exit 1

# The exits' work items may hold the module a moment after the last fd closed.
tries=0
ref=$(cat /sys/module/perfmon/refcnt)
while [ "$ref" != 0 ] && [ $tries -lt 50 ]; do
	sleep 0.1
	tries=$((tries + 1))
	ref=$(cat /sys/module/perfmon/refcnt)
done
echo "run-load: perfmon refcount $ref after the load"
[ "$ref" = 0 ] || { echo "run-load: perfmon still referenced"; rc=1; }
rmmod perfmon || { echo "run-load: rmmod perfmon failed"; rc=1; }
if [ -e /sys/kernel/perfmon ] || [ -e /dev/perfmon ]; then
	echo "run-load: perfmon left files behind after rmmod"
	rc=1
fi
exit $rc
