#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest, on the in-tree debug kernel: pfm_load for PFM_LOAD_SECONDS (kernel
# command line); the guest's init then scans kmemleak and the kernel log.
secs=${PFM_LOAD_SECONDS:-60}
if [ ! -r /sys/kernel/perfmon/syscall ]; then
	echo "run-load-intree: /sys/kernel/perfmon/syscall is missing: not an in-tree kernel?"
	exit 1
fi
# The detectors (KASAN, lockdep, kmemleak) make a system call, a fault or a fork
# several times dearer than on the stock kernel: rounds 8 times smaller end soon
# after the stop, as the stock kernel's do.
export PFM_LOAD_SCALE=8
limit=$((secs + secs / 3 + 240))
/bin/pfm-watchdog $limit pfm_load /bin/pfm_load "$secs" $PFM_LOAD_WARMUP $PFM_LOAD_SEED
rc=$?
[ $rc -eq 124 ] && exit 1
exit $rc
