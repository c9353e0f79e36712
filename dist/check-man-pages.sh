#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The manual as installed under a throwaway root: every function the installed
# libperfmon.so exports has a page (its own, or a link to its family's), so a new
# export without one fails; every page of sections 2, 3, 5 and 7 has EXAMPLES; and
# every example that is a whole program (an .EX block that starts with
# #include) builds and links against the installed headers and library, as a
# reader would copy it.  Called by check-install.sh.
#
#   dist/check-man-pages.sh ROOT LIBDIR    (LIBDIR as installed, e.g. /usr/lib)
set -eu
root=$1
lib=$root$2
man=$root/usr/share/man
fail() { echo "$(basename "$0"): FAIL: $*" >&2; exit 1; }

so=$(ls "$lib"/libperfmon.so.*.*.* | head -n1)
funcs=$(nm -D --defined-only "$so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u)
[ -n "$funcs" ] || fail "no exported function in $so"
missing=
for f in $funcs; do
	MANPATH=$man man -w 2 "$f" >/dev/null 2>&1 || MANPATH=$man man -w 3 "$f" >/dev/null 2>&1 ||
		missing="$missing $f"
done
[ -z "$missing" ] || fail "exported without a manual page:$missing"

noex=
for p in "$man"/man[2357]/*; do
	grep -q '^\.SH EXAMPLES' "$p" || noex="$noex ${p##*/}"
done
[ -z "$noex" ] || fail "pages without EXAMPLES:$noex"

flags=$(PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$lib/pkgconfig \
	PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 \
	pkg-config --cflags --libs --static perfmon) || fail "pkg-config perfmon"
dir=$root/man-examples
rm -rf "$dir" && mkdir -p "$dir"
nex=0
# a link shares its family's page: each page once
for p in $(find "$man" -type f -name '*.[12357]' | sort); do
	# the .EX blocks of EXAMPLES, their roff escapes undone
	awk -v out="$dir/${p##*/}" '
		/^\.SH/ { ex = ($2 == "EXAMPLES") }
		ex && /^\.EX/ { n++; body = ""; inb = 1; next }
		inb && /^\.EE/ { inb = 0; if (body ~ /^#/) { f = out "-" n ".c"; printf "%s", body > f; close(f) } next }
		inb { gsub(/\\-/, "-"); gsub(/\\e/, "\\"); gsub(/\\\(aq/, "\047"); gsub(/\\&/, ""); body = body $0 "\n" }
	' "$p"
done
for c in "$dir"/*.c; do
	[ -e "$c" ] || continue
	# shellcheck disable=SC2086
	cc -Wall -Werror -o "${c%.c}" "$c" $flags 2>"${c%.c}.err" ||
		{ cat "${c%.c}.err" >&2; fail "the example ${c##*/} does not build"; }
	nex=$((nex + 1))
done
echo "$(echo "$funcs" | wc -l) functions with a page, $nex examples built"
