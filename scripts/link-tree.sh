#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Mirror the source files of some project folders into another tree as symbolic
# links, for a build of the same sources with other options (make module-noperf):
# kbuild writes its objects beside the sources, so each build needs a tree of its
# own.  Only sources are linked, never a build's output.
#
#   scripts/link-tree.sh TOP DEST DIR...
set -eu
top=$1 dest=$2
shift 2
# Kept from one run to the next, objects included, so that kbuild rebuilds only
# what changed: the links of sources gone are removed, the missing ones made.
for d in "$@"; do
	want=$(cd "$top" && find "$d" -type f \( -name '*.c' -o -name '*.h' -o -name Kbuild \
		-o -name Kconfig -o -name Makefile \) ! -name '*.mod.c')
	if [ -d "$dest/$d" ]; then
		(cd "$dest" && find "$d" -type l) | while read -r f; do
			[ -f "$top/$f" ] && [ "$(readlink "$dest/$f")" = "$top/$f" ] ||
				rm -f "$dest/$f"
		done
	fi
	echo "$want" | while read -r f; do
		[ -n "$f" ] && [ ! -L "$dest/$f" ] || continue
		mkdir -p "$dest/${f%/*}"
		rm -f "$dest/$f"
		ln -s "$top/$f" "$dest/$f"
	done
done
