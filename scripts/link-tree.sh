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
for d in "$@"; do
	rm -rf "${dest:?}/$d"
	(cd "$top" && find "$d" -type f \( -name '*.c' -o -name '*.h' -o -name Kbuild \
		-o -name Kconfig -o -name Makefile \) ! -name '*.mod.c') |
	while read -r f; do
		mkdir -p "$dest/${f%/*}"
		ln -s "$top/$f" "$dest/$f"
	done
done
