#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fuzz-repro LOG=FILE [ONLY=N]: from a failing fuzzer log to a minimal
# standalone C reproducer.
#
#   1. The suspect program: ONLY, else the first of the suspects that fails
#      alone: those of the "S" line after the failure (the failing program,
#      the ones beside it in the other executors, and for a leak every one
#      since the last check), else the one an "F" line names, else the ones
#      the log started and never ended (the log is written before a program
#      runs), the last first.
#   2. It runs alone in a fresh guest (the kernel the log came from, door= in its
#      first line); if the failure comes back, operations are taken out, a chunk
#      at a time, as long as it still comes back (delta debugging; at most
#      FUZZ_SHRINK_BOOTS boots, default 40).
#   3. build/fuzz/repro.log is the program left; build/fuzz/repro.c the fuzzer's
#      runtime with that program in main(), built into build/fuzz/repro
#      (static, with libperfmon; it runs each operation and prints its result).
#
# The make rule passes TOP, B, CC, CFLAGS_USER, the kernels and PFM_KO.
set -uo pipefail

log=${1:?usage: repro.sh LOG [PROGRAM]}
only=${2:-}
out=$B/fuzz
mkdir -p "$out/shrink"
fuzz=$B/guest/bin/pfm_fuzz
max_boots=${FUZZ_SHRINK_BOOTS:-40}
boots=0

header=$(grep -m1 '^# pfm_fuzz' "$log") || { echo "repro: $log is not a pfm_fuzz log" >&2; exit 2; }
case $header in
*door=syscall*)	kernel=$DEBUG_KERNEL; append=$DEBUG_APPEND; extra=() ;;
*)		kernel=$GUEST_KERNEL; append=''; extra=("$PFM_KO:/lib/perfmon.ko") ;;
esac

suspects=$only
if [ -z "$suspects" ]; then
	suspects=$(sed -n 's/^S \([0-9 ]*\)$/\1/p' "$log" | head -n1)
	[ -n "$suspects" ] || suspects=$(sed -n 's/^F \([0-9]*\) .*/\1/p' "$log" | head -n1)
	# started, never ended: a crash took them
	[ -n "$suspects" ] || suspects=$(awk '$1 == "P" { s[$2] = NR } $1 == "R" { delete s[$2] }
		END { for (p in s) print s[p], p }' "$log" | sort -rn | cut -d' ' -f2)
fi
[ -n "$suspects" ] || { echo "repro: no program in $log" >&2; exit 2; }

# prog OPSFILE LOGFILE: a log holding those operations as program N
prog() {
	{ echo "$header"; echo "P $only"; cat "$1"; } > "$2"
}

# fails OPSFILE: 0 if the guest fails running them (the failure came back)
fails() {
	boots=$((boots + 1))
	prog "$1" "$out/shrink/try.log"
	"$TOP/scripts/guest/mkinitramfs.sh" "$out/shrink/try.cpio.gz" "$TOP/tests/fuzz/run-fuzz.sh" \
		"$fuzz:/bin/pfm_fuzz" "$out/shrink/try.log:/fuzz/replay.log" "${extra[@]}" >/dev/null ||
		exit 1
	! PFM_QEMU_OPTS="-serial file:$out/shrink/try.fuzzlog" "$TOP/scripts/guest/run.sh" \
		--kernel "$kernel" --initrd "$out/shrink/try.cpio.gz" --append "$append" \
		--timeout 400 --log "$out/shrink/try.console" >/dev/null 2>&1
}

# ops_of N: the operation lines of program N, into $out/shrink/ops
ops_of() {
	awk -v n="$1" '$1 == "P" { inp = ($2 == n); next }
		       inp && /^[a-z_]+ / { print; next } { inp = 0 }' "$log" > "$out/shrink/ops"
}

# Each suspect alone, until one fails; their boots do not count against the
# shrinking's.  None failing: the first suspect (the failing program) is kept.
alone=0
first=
for only in $suspects; do
	ops_of "$only"
	[ -s "$out/shrink/ops" ] || { echo "repro: program $only has no operation"; continue; }
	[ -n "$first" ] || first=$only
	echo "repro: program $only of $log, $(wc -l < "$out/shrink/ops") operations"
	if fails "$out/shrink/ops"; then
		alone=1
		break
	fi
	echo "repro: program $only alone does not fail"
done
[ -n "$first" ] || { echo "repro: no suspect has an operation" >&2; exit 2; }
if [ $alone -eq 0 ]; then
	only=$first
	ops_of "$only"
fi
suspect_boots=$boots
boots=0

if [ $alone -eq 1 ]; then
	echo "repro: the program fails alone; shrinking (at most $max_boots boots)"
	mapfile -t ops < "$out/shrink/ops"
	n=2
	while [ ${#ops[@]} -ge 2 ] && [ $boots -lt "$max_boots" ]; do
		len=${#ops[@]}
		chunk=$(( (len + n - 1) / n ))
		removed=0
		for ((i = 0; i < len && boots < max_boots; i += chunk)); do
			printf '%s\n' "${ops[@]:0:i}" "${ops[@]:i+chunk}" | sed '/^$/d' > "$out/shrink/cand"
			if fails "$out/shrink/cand"; then
				mapfile -t ops < "$out/shrink/cand"
				echo "repro: still fails with ${#ops[@]} operations"
				n=$(( n > 2 ? n - 1 : 2 ))
				removed=1
				break
			fi
		done
		if [ $removed -eq 0 ]; then
			[ "$n" -ge "$len" ] && break
			n=$(( 2 * n < len ? 2 * n : len ))
		fi
	done
	printf '%s\n' "${ops[@]}" > "$out/shrink/ops"
	cp "$out/shrink/try.console" "$out/repro.console" 2>/dev/null
else
	echo "repro: WARNING: no suspect fails alone ($suspects; it may need the programs" \
	     "before it or beside it: replay the whole log with a guest holding it as" \
	     "/fuzz/replay.log, or a timing the replay did not meet); the reproducer of" \
	     "program $only is written anyway"
fi
prog "$out/shrink/ops" "$out/repro.log"

# The runtime and the program, one file.
{
	echo "// SPDX-License-Identifier: GPL-2.0"
	echo "/*"
	echo " * Reproducer of program $only of a pfm_fuzz log ($(wc -l < "$out/shrink/ops") operations),"
	echo " * written by make fuzz-repro.  Build it in the perfmon tree:"
	echo " *   cc -O2 -static -pthread -Iinclude/uapi -Ilibpfm-glue repro.c build/lib/libperfmon.a"
	echo " * The pfm_fuzz runtime follows (tests/fuzz/), then the program in main()."
	echo " */"
	echo "#define _GNU_SOURCE"
	sed '/^\/\/ SPDX/d' "$TOP/tests/fuzz/fuzz.h"
	sed '/^\/\* SPDX/d' "$TOP/tests/guest/harness/fail_nth.h"
	for f in tests/fuzz/exec.c tests/fuzz/ops_pfm.c tests/fuzz/ops_fd.c tests/fuzz/ops_proc.c \
		 tests/fuzz/ops_scen.c tests/fuzz/ops_perf.c tests/fuzz/ops_attr.c tests/fuzz/fault.c \
		 tests/fuzz/spawn.c tests/guest/harness/fail_nth.c; do
		echo "/* ---- $f ---- */"
		sed '/^#include "fuzz.h"/d; /^#include "fail_nth.h"/d; /^#define _GNU_SOURCE/d;
		     /^\/\/ SPDX/d' "$TOP/$f"
	done
	"$fuzz" --repro "$out/repro.log"
} > "$out/repro.c"
# shellcheck disable=SC2086
$CC $CFLAGS_USER -static -pthread -o "$out/repro" "$out/repro.c" "$LIBPFM_A" ||
	{ echo "repro: $out/repro.c does not build" >&2; exit 1; }
echo "repro: $suspect_boots boots for the suspects, $boots shrinking; $out/repro.log ($(wc -l < "$out/shrink/ops") operations)," \
     "$out/repro.c, $out/repro"
