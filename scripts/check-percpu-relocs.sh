#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-percpu-relocs.sh MODULE.ko: fails if the module's per-CPU section has
# relocations.  The module loader copies a module's per-CPU initial values to
# each CPU without relocating them, so a pointer initialised there (a function
# in an irq_work, say) is NULL at run time; such values are set at init.
set -e
ko=$1
relocs=$(readelf -r "$ko" | sed -n "s/^Relocation section '\.rela\.data\.\.percpu' .* contains \([0-9]*\) entr.*/\1/p")
if [ -n "$relocs" ]; then
	echo "$ko: $relocs relocation(s) into .data..percpu (pointers in per-CPU initial values):" >&2
	readelf -r "$ko" | sed -n "/'\.rela\.data\.\.percpu'/,/^$/p" >&2
	exit 1
fi
