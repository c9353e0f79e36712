#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the initramfs of the perfmon test guest.
#
#   scripts/guest/mkinitramfs.sh OUT.cpio.gz RUNSCRIPT [FILE:DEST ...]
#
#   OUT.cpio.gz  gzip'd newc cpio archive to write
#   RUNSCRIPT    copied to /run.sh (executable); scripts/guest/init runs it
#   FILE:DEST    extra files copied to DEST (absolute path in the image),
#                e.g. build/perfmon.ko:/lib/perfmon.ko
#                     build/guest/bin/test_core:/tests/test_core
#                FILE may be a directory (copied recursively).
#   +FILE:DEST   FILE, a dynamically linked program, copied to DEST with every
#                shared library ldd lists for it (and the dynamic loader), each
#                at its own path, e.g. +/usr/bin/perf:/usr/bin/perf
#
# Contents: /bin/busybox (static) with a symlink for each applet, /init
# (scripts/guest/init), /run.sh, /dev/console, the extra files, and empty
# /dev /proc /sys /tmp /mnt /root.  Needs no root privileges.

set -eu

die() { echo "mkinitramfs: ERROR: $*" >&2; exit 1; }

[ $# -ge 2 ] || {
	echo "usage: $0 OUT.cpio.gz RUNSCRIPT [FILE:DEST ...]" >&2
	exit 2
}

here=$(cd "$(dirname "$0")" && pwd)
out=$1
runscript=$2
shift 2

BUSYBOX=${BUSYBOX:-/bin/busybox}
[ -x "$BUSYBOX" ] || die "$BUSYBOX not found (apt-get install busybox-static)"
if command -v file >/dev/null 2>&1 &&
   ! file -L "$BUSYBOX" | grep -q 'statically linked'; then
	die "$BUSYBOX is not statically linked (install busybox-static)"
fi
[ -f "$here/init" ] || die "$here/init not found"
[ -f "$runscript" ] || die "run script '$runscript' not found"
runscript=$(cd "$(dirname "$runscript")" && pwd)/$(basename "$runscript")

outdir=$(dirname "$out")
mkdir -p "$outdir"
out=$(cd "$outdir" && pwd)/$(basename "$out")

cwd=$(pwd)
stage=$(mktemp -d "${TMPDIR:-/tmp}/perfmon-initramfs.XXXXXX")
trap 'rm -rf "$stage" "$stage.ldd"' EXIT INT TERM

cd "$stage"
mkdir -p bin sbin usr/bin usr/sbin dev proc sys tmp mnt root lib etc
chmod 1777 tmp

cp "$BUSYBOX" bin/busybox
chmod 755 bin/busybox
# One symlink per applet, at the path busybox itself suggests.
"$BUSYBOX" --list-full | while read -r applet; do
	case $applet in ''|bin/busybox) continue ;; esac
	[ -e "$applet" ] || [ -L "$applet" ] || ln -s /bin/busybox "$applet"
done
[ -L bin/sh ] || die "busybox has no sh applet"

cp "$here/init" init
chmod 755 init
cp "$runscript" run.sh
chmod 755 run.sh

# copy_in SRC DEST: SRC (file or directory) to DEST in the image
copy_in() {
	mkdir -p ".$(dirname "$2")"
	if [ -d "$1" ]; then
		rm -rf ".$2"
		cp -RL "$1" ".$2"
	else
		cp -L "$1" ".$2"
	fi
}

# The absolute paths of the shared objects ldd says PROGRAM loads, the loader
# included ("libc.so.6 => /lib/.../libc.so.6 (0x...)", "/lib64/ld-... (0x...)").
shared_libs() {
	ldd "$1" >"$stage.ldd" 2>&1 || die "ldd '$1' failed: $(cat "$stage.ldd")"
	grep -q 'not found' "$stage.ldd" && die "'$1' misses libraries: $(grep 'not found' "$stage.ldd")"
	awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' "$stage.ldd"
	rm -f "$stage.ldd"
}

for spec in "$@"; do
	libs=0
	case $spec in +*) libs=1; spec=${spec#+} ;; esac
	case $spec in
	*:/*) ;;
	*) die "bad FILE:DEST '$spec' (DEST must be an absolute path)" ;;
	esac
	src=${spec%:/*}
	dest=/${spec##*:/}
	case $src in /*) ;; *) src=$cwd/$src ;; esac
	[ -e "$src" ] || die "'$src' (from '$spec') not found"
	copy_in "$src" "$dest"
	if [ "$libs" -eq 1 ]; then
		for lib in $(shared_libs "$src"); do
			[ -e ".$lib" ] || copy_in "$lib" "$lib"
		done
	fi
done

# newc cpio header for one entry with no data:
#   newc_entry NAME MODE(octal) RDEVMAJOR RDEVMINOR
newc_entry() {
	namesize=$((${#1} + 1))
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		0 "$(($2))" 0 0 1 0 0 0 0 "$3" "$4" "$namesize" 0
	printf '%s\000' "$1"
	pad=$(( (4 - (110 + namesize) % 4) % 4 ))
	while [ "$pad" -gt 0 ]; do printf '\000'; pad=$((pad - 1)); done
}

# GNU cpio cannot add device nodes that do not exist on disk, and making
# one needs root: append a second tiny archive holding /dev/console
# (char 5:1).  The kernel unpacks concatenated archives in order.
{
	find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc --owner=0:0 --quiet
	newc_entry dev/console 020600 5 1
	newc_entry TRAILER!!! 0 0 0
} | gzip -6 -n > "$out.tmp"
mv "$out.tmp" "$out"

echo "mkinitramfs: wrote $out ($(du -k "$out" | cut -f1) KiB)"
