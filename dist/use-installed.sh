#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Use an installation under a throwaway root as a user would: a three-line
# program builds with pkg-config --cflags --libs perfmon and runs on the
# installed libperfmon, pfmon --version runs, man -w finds pfmon(1).  Prints
# what pfmon --version printed.  Shared by check-install.sh and check-deb.sh.
#
#   dist/use-installed.sh ROOT LIBDIR     (LIBDIR as installed, e.g. /usr/lib)
set -eu
root=$1
lib=$root$2
fail() { echo "$(basename "$0"): FAIL: $*" >&2; exit 1; }

cat > "$root/prog.c" <<'PROG'
#include <perfmon.h>
#include <stdio.h>
int main(void) { printf("door %d\n", pfm_door()); return 0; }
PROG
# the system-directory flags too: they are the root's, not this machine's
flags=$(PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$lib/pkgconfig \
	PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 \
	pkg-config --cflags --libs perfmon) || fail "pkg-config perfmon"
# shellcheck disable=SC2086
cc -Wall -Werror -o "$root/prog" "$root/prog.c" $flags || fail "cc $flags"
out=$(LD_LIBRARY_PATH=$lib "$root/prog") || fail "the program on the installed library"
case $out in "door "*) ;; *) fail "prog printed '$out'";; esac
out=$(LD_LIBRARY_PATH=$lib "$root/usr/bin/pfmon" --version) || fail "pfmon --version"
echo "$out" | grep -q "^pfmon " || fail "pfmon --version printed '$out'"
MANPATH=$root/usr/share/man man -w pfmon >/dev/null || fail "man -w pfmon"
MANPATH=$root/usr/share/man man -w 2 pfm_start >/dev/null || fail "man -w 2 pfm_start"
echo "$out"
