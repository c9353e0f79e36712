#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install everything perfmon needs on Debian 12 and fetch the guest kernel.
# Idempotent: a second run only checks and exits (well under 2 s).
#
#   scripts/deps.sh            (as root, or with sudo available)
#   KVER=6.1.0-56-amd64 scripts/deps.sh    to pin a kernel version
#   scripts/deps.sh --kernel   only what building the in-tree kernel needs
#                              (make check starts that build, the longest, at
#                              once, and installs the rest beside it)
#
# Results:
#   Debian packages listed in $PKGS below (plus linux-headers-$KVER), among
#   them linux-source-6.1 and the tools to build it (scripts/intree/)
#   build/guest/vmlinuz-$KVER   the stock Debian kernel booted in QEMU
#   build/guest/kver            $KVER, read back by scripts/kver.sh

set -eu

kernel_only=0
[ "${1:-}" = --kernel ] && kernel_only=1

top=$(cd "$(dirname "$0")/.." && pwd)
gdir=$top/build/guest

say()  { echo "deps: $*"; }
die()  { echo "deps: ERROR: $*" >&2; exit 1; }

if [ "$(id -u)" -eq 0 ]; then
	SUDO=
elif command -v sudo >/dev/null 2>&1; then
	SUDO=sudo
else
	die "must run as root (or have sudo) to install packages"
fi

command -v apt-get >/dev/null 2>&1 || die "apt-get not found: this script is for Debian 12"

export DEBIAN_FRONTEND=noninteractive

updated=0
apt_update() {
	[ "$updated" -eq 1 ] && return 0
	say "apt-get update"
	$SUDO apt-get update -qq >/dev/null || die "apt-get update failed"
	updated=1
}

# --- kernel version -------------------------------------------------------
image_dep() {
	apt-cache depends linux-image-amd64 2>/dev/null |
	    sed -n 's/^ *Depends: linux-image-\([^ <>]*\)$/\1/p' | head -n1
}

# install_pkgs LIST: those of LIST not installed yet
install_pkgs() {
	missing=
	for p in $1; do
		st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[ "$st" = installed ] || missing="$missing $p"
	done

	if [ -n "$missing" ]; then
		say "installing:$missing"
		apt_update
		log=$(mktemp "${TMPDIR:-/tmp}/perfmon-apt.XXXXXX")
		# shellcheck disable=SC2086
		if ! $SUDO apt-get install -y -q --no-install-recommends $missing >"$log" 2>&1; then
			tail -n 30 "$log" >&2
			rm -f "$log"
			die "apt-get install failed for:$missing"
		fi
		rm -f "$log"
		for p in $missing; do
			st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
			[ "$st" = installed ] || die "package $p is still not installed"
		done
	else
		say "packages already installed"
	fi
}

# The in-tree debug kernel (scripts/intree/build.sh): Debian's kernel source,
# and what building it needs (libelf-dev for objtool, libssl-dev for the
# kernel's host tools, perl for its build scripts, binutils and python3 for
# the fuzzer's and coverage's readings of vmlinux).
KERNEL_PKGS="gcc make libc6-dev linux-source-6.1 bc bison flex libelf-dev libssl-dev
	     patch perl xz-utils python3 cpio gzip binutils"
if [ "$kernel_only" -eq 1 ]; then
	install_pkgs "$KERNEL_PKGS"
	say "ok: the in-tree kernel's build tools"
	exit 0
fi

KVER=${KVER:-}
if [ -z "$KVER" ] && [ -s "$gdir/kver" ]; then
	KVER=$(head -n1 "$gdir/kver")
fi
if [ -z "$KVER" ]; then
	KVER=$(image_dep)
	if [ -z "$KVER" ]; then
		apt_update
		KVER=$(image_dep)
	fi
fi
[ -n "$KVER" ] || die "cannot determine the kernel version (apt-cache depends linux-image-amd64 gave nothing)"
say "kernel version $KVER"

# --- packages ---------------------------------------------------------------
PKGS="gcc make libc6-dev linux-headers-$KVER qemu-system-x86 busybox-static
      libpfm4-dev check pkg-config cpio gzip kmod xz-utils python3"
PKGS="$PKGS $KERNEL_PKGS"
# Real perf_event clients, run in the guest natively and through the
# perf_event_open shim (make check-perf-clients): perf, PAPI's tools, stress-ng.
PKGS="$PKGS linux-perf papi-tools stress-ng"
# apparmor_parser loads the profile of the guest's LSM test (tests/guest/apparmor/).
PKGS="$PKGS apparmor"
# pfmon names sampled code with elfutils' libdw, linked statically for the guest
# with the compression libraries libdw reads sections with.
PKGS="$PKGS libdw-dev libelf-dev zlib1g-dev liblzma-dev libbz2-dev libzstd-dev"
# make check lints the man pages (mandoc -Tlint) and finds them with man -w.
PKGS="$PKGS mandoc man-db"
# make deb and its check (dist/), and the DKMS build of the module.
PKGS="$PKGS debhelper dh-dkms dkms dpkg-dev"
# make check-deb fails on any lintian error or warning about the packages.
PKGS="$PKGS lintian"
# make bench plots multiplexing accuracy (tools/bench/plot-mux.py) with gnuplot.
PKGS="$PKGS gnuplot-nox"

install_pkgs "$PKGS"

[ -e "/lib/modules/$KVER/build" ] ||
	die "/lib/modules/$KVER/build is missing although linux-headers-$KVER is installed"

# --- guest kernel -----------------------------------------------------------
mkdir -p "$gdir"
vmlinuz=$gdir/vmlinuz-$KVER

if [ -s "$vmlinuz" ]; then
	say "guest kernel present: build/guest/vmlinuz-$KVER"
elif [ -r "/boot/vmlinuz-$KVER" ]; then
	say "copying /boot/vmlinuz-$KVER"
	cp "/boot/vmlinuz-$KVER" "$vmlinuz.tmp" && mv "$vmlinuz.tmp" "$vmlinuz"
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/perfmon-kimg.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
	# apt-get download drops privileges to _apt: give it a writable dir.
	chmod 777 "$tmp"
	say "downloading linux-image-$KVER"
	if ! (cd "$tmp" && apt-get download -q "linux-image-$KVER" >/dev/null 2>&1); then
		apt_update
		(cd "$tmp" && apt-get download -q "linux-image-$KVER") ||
			die "apt-get download linux-image-$KVER failed"
	fi
	deb=
	for f in "$tmp"/linux-image-*.deb; do [ -f "$f" ] && deb=$f && break; done
	[ -n "$deb" ] || die "no .deb downloaded for linux-image-$KVER"
	say "extracting boot/vmlinuz-$KVER"
	# Only the kernel image is needed: stream the data tarball and keep
	# one member instead of unpacking the whole module tree.
	dpkg-deb --fsys-tarfile "$deb" |
	    tar -xf - -C "$tmp" "./boot/vmlinuz-$KVER" ||
		die "boot/vmlinuz-$KVER not found in $(basename "$deb")"
	[ -s "$tmp/boot/vmlinuz-$KVER" ] || die "extracted kernel is empty"
	cp "$tmp/boot/vmlinuz-$KVER" "$vmlinuz.tmp" && mv "$vmlinuz.tmp" "$vmlinuz"
	rm -rf "$tmp"
	trap - EXIT INT TERM
fi

[ -s "$vmlinuz" ] || die "guest kernel $vmlinuz missing"
echo "$KVER" > "$gdir/kver.tmp" && mv "$gdir/kver.tmp" "$gdir/kver"
say "ok: KVER=$KVER, guest kernel build/guest/vmlinuz-$KVER"
