#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest, before the suite: the images security.c execs in a monitored
# process.  A copy of the suite owned by root with the setuid bit, and one that
# its users may run but not read (the kernel makes such an image not dumpable).
set -e
cp /bin/pfm_tests /bin/pfm_tests_suid
chown 0:0 /bin/pfm_tests_suid
chmod 4755 /bin/pfm_tests_suid
cp /bin/pfm_tests /bin/pfm_tests_noread
chown 0:0 /bin/pfm_tests_noread
chmod 0711 /bin/pfm_tests_noread
