#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness smoke test: boot, print a little about the guest, succeed.
echo "smoke: kernel $(uname -r)"
grep -m1 "model name" /proc/cpuinfo
exit 0
