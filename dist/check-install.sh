#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make install into a throwaway root, then use what it put there: the exported
# symbols are the version script's, a three-line program builds with pkg-config
# and runs on the installed library, pfmon runs, man finds its page, every
# exported function has a page and every example program builds (check-man-pages.sh),
# pfm-perf runs with its preload (use-pfm-perf.sh).
#
#   dist/check-install.sh DIR
set -eu
root=$1
top=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "check-install: FAIL: $*"; exit 1; }

rm -rf "$root"
make -s -C "$top" install DESTDIR="$root" PREFIX=/usr >"$root.log" 2>&1 ||
	{ tail -20 "$root.log"; fail "make install"; }
lib=$root/usr/lib
for f in bin/pfmon bin/pfm-perf lib/libperfmon.a lib/libperfmon.so lib/perfmon/libperfmon-perf.so \
	 lib/pkgconfig/perfmon.pc include/perfmon.h include/perfmon/perfmon.h include/perfmon/perfmon_calls.h \
	 include/perfmon/events.h share/man/man1/pfmon.1 share/man/man7/perfmon.7 \
	 share/man/man2/pfm_create_context.2 share/man/man3/pfm_read_mapped.3 \
	 share/man/man3/pfm_munmap_counts.3; do
	[ -e "$root/usr/$f" ] || fail "$f not installed"
done
[ "$(readlink "$lib/libperfmon.so.1")" = libperfmon.so.1.0.0 ] || fail "libperfmon.so.1 link"
soname=$(objdump -p "$lib/libperfmon.so.1.0.0" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = libperfmon.so.1 ] || fail "soname $soname"

# exported: exactly the global names of the version script
want=$(sed -n 's/^\t\t\([a-z_]*\);$/\1/p' "$top/libpfm-glue/libperfmon.map" | sort)
have=$(nm -D --defined-only "$lib/libperfmon.so.1.0.0" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort)
[ "$want" = "$have" ] || fail "exported symbols differ from libperfmon.map: $have"

"$top/dist/use-installed.sh" "$root" /usr/lib >/dev/null || fail "using the installation"
pages=$("$top/dist/check-man-pages.sh" "$root" /usr/lib) || fail "the manual"
grep -q "^lib=\${PFM_PERF_LIB:-/usr/lib/perfmon/libperfmon-perf.so}$" "$root/usr/bin/pfm-perf" ||
	fail "pfm-perf does not point at the installed preload"
# the preload is in its private directory only: a library directory holds
# shared objects with a SONAME, which it has not
[ ! -e "$lib/libperfmon-perf.so" ] || fail "the preload is in the library directory"
"$top/dist/use-pfm-perf.sh" "$root" || fail "using the installed pfm-perf"
echo "check-install: ok ($(echo "$have" | wc -l) symbols, $(ls "$root"/usr/share/man/man*/* | wc -l) man pages; $pages)"
