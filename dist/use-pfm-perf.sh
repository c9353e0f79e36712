#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Use pfm-perf as installed under a throwaway root: -h and --help print its usage
# and exit 0, no command is a usage error, the preload it names exists (under
# ROOT) and loads into a command without a word from the loader, and man -w
# finds pfm-perf(1).  Shared by check-install.sh and check-deb.sh.
#
#   dist/use-pfm-perf.sh ROOT
set -eu
root=$1
pp=$root/usr/bin/pfm-perf
fail() { echo "$(basename "$0"): FAIL: $*" >&2; exit 1; }

for h in -h --help; do
	out=$("$pp" $h) || fail "pfm-perf $h exits $?"
	case $out in "usage: pfm-perf "*) ;; *) fail "pfm-perf $h printed '$out'";; esac
done
rc=0; "$pp" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "pfm-perf without a command exits $rc, not 2"

# the path the installation wrote into the script, as seen from ROOT
preload=$(sed -n 's/^lib=\${PFM_PERF_LIB:-\(.*\)}$/\1/p' "$pp")
[ -n "$preload" ] || fail "pfm-perf names no preload"
[ -f "$root$preload" ] || fail "pfm-perf's preload $preload is not installed"
# ld.so reports a preload it cannot load on stderr and runs the command anyway
err=$(PFM_PERF_LIB=$root$preload "$pp" sh -c 'echo "$LD_PRELOAD" >&2' 2>&1) ||
	fail "pfm-perf sh"
[ "$err" = "$root$preload" ] || fail "pfm-perf sh: '$err'"
MANPATH=$root/usr/share/man man -w pfm-perf >/dev/null || fail "man -w pfm-perf"
