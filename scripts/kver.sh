#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the Debian kernel version (e.g. 6.1.0-56-amd64) that perfmon is
# built for and booted in the guest.  Prints nothing else; it is called
# from the Makefile via $(shell ...).
#
#   1. build/guest/kver, if scripts/deps.sh has written it;
#   2. else the linux-image-X dependency of linux-image-amd64 (apt-cache);
#   3. else the newest /lib/modules/* directory that has a "build" link.

top=$(cd "$(dirname "$0")/.." && pwd)

if [ -s "$top/build/guest/kver" ]; then
	head -n1 "$top/build/guest/kver"
	exit 0
fi

if command -v apt-cache >/dev/null 2>&1; then
	v=$(apt-cache depends linux-image-amd64 2>/dev/null |
	    sed -n 's/^ *Depends: linux-image-\([^ <>]*\)$/\1/p' | head -n1)
	if [ -n "$v" ]; then
		echo "$v"
		exit 0
	fi
fi

v=$(for d in /lib/modules/*; do
	[ -e "$d/build" ] && basename "$d"
    done 2>/dev/null | sort -V | tail -n1)
if [ -n "$v" ]; then
	echo "$v"
	exit 0
fi

echo "kver.sh: cannot determine the kernel version (run scripts/deps.sh)" >&2
exit 1
