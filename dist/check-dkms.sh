#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DKMS builds perfmon.ko from the installed sources (make install-dkms) against
# the installed headers of kernel KVER, in a throwaway DKMS tree: nothing is
# added to the system's /var/lib/dkms or /lib/modules.
#
#   dist/check-dkms.sh DIR KVER
set -eu
root=$1
kver=$2
top=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "check-dkms: FAIL: $*"; [ -f "$root/dkms.log" ] && tail -20 "$root/dkms.log"; exit 1; }

rm -rf "$root"
mkdir -p "$root/tree"
make -s -C "$top" install-dkms DESTDIR="$root/dest" >/dev/null || fail "make install-dkms"
src=$root/dest/usr/src
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$src"/perfmon-*/dkms.conf)
d="--sourcetree $src --dkmstree $root/tree"
# shellcheck disable=SC2086
{
	dkms add -m perfmon -v "$ver" $d &&
	dkms build -m perfmon -v "$ver" -k "$kver" $d
} >"$root/dkms.log" 2>&1 || fail "dkms add/build for $kver"
ko=$(ls "$root/tree/perfmon/$ver/$kver"/*/module/perfmon.ko* 2>/dev/null | head -n1)
[ -n "$ko" ] || fail "no perfmon.ko in the DKMS tree"
vm=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
[ "$vm" = "$kver" ] || fail "vermagic $vm, not $kver"
echo "check-dkms: ok (perfmon $ver built by DKMS for $kver)"
