#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-test: a run script that fails; the guest verdict must be
# "FAIL rc=3" and scripts/guest/run.sh must exit 1.
echo "fail: exiting with 3 on purpose"
exit 3
