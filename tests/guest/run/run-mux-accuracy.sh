#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest of make check-mux (instruction counted): the mux_accuracy suite alone.
insmod /lib/perfmon.ko || { echo "run-mux-accuracy: insmod failed"; exit 1; }
CK_RUN_SUITE=mux_accuracy PFM_MUX_ACCURACY=1 /bin/pfm_tests
rc=$?
rmmod perfmon || { echo "run-mux-accuracy: rmmod perfmon failed (a context leaked?)"; rc=1; }
exit $rc
