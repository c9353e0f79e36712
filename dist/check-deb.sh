#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make deb, then install the four packages into a throwaway root (dpkg -x) and
# use them there: a three-line program builds with pkg-config and runs on the
# packaged library, pfmon --version runs, man finds pfmon(1), pfm-perf runs
# with its preload and has its page, the DKMS package holds the module's sources
# and registers them with DKMS when installed.  Then lintian on everything
# make deb wrote (the .changes names the packages): any error or warning fails.
#
#   dist/check-deb.sh DIR      (DIR/*.deb: the packages of make deb)
set -eu
dir=$1
fail() { echo "check-deb: FAIL: $*"; exit 1; }

root=$dir/root
rm -rf "$root"
mkdir -p "$root"
for p in perfmon-dkms libperfmon1 libperfmon-dev pfmon; do
	deb=$(ls "$dir"/${p}_*.deb 2>/dev/null | head -n1)
	[ -n "$deb" ] || fail "no $p package"
	dpkg -x "$deb" "$root" || fail "dpkg -x $deb"
done
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
out=$("$(dirname "$0")/use-installed.sh" "$root" "/usr/lib/$ma") || fail "using the packages"
"$(dirname "$0")/use-pfm-perf.sh" "$root" || fail "using pfm-perf from the packages"
[ -f "$root/usr/src/perfmon-1.0.0/dkms.conf" ] || fail "perfmon-dkms has no dkms.conf"
dpkg-deb -e "$(ls "$dir"/perfmon-dkms_*.deb)" "$dir/dkms-control"
grep -q "dkms" "$dir/dkms-control/postinst" || fail "perfmon-dkms does not register with DKMS"
dpkg-deb -f "$(ls "$dir"/pfmon_*.deb)" Depends | grep -q "libperfmon1" ||
	fail "pfmon does not depend on libperfmon1"
# lintian refuses nothing as root but says so: that one line is no finding
lintian --fail-on error,warning --no-tag-display-limit "$dir"/*.changes \
	> "$dir/lintian.log" 2>&1 || { grep -v '^running with root' "$dir/lintian.log"; fail "lintian"; }
echo "check-deb: ok ($(ls "$dir"/*.deb | wc -l) packages, lintian clean; $out)"
