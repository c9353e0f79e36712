#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Instructions per function of one read, perfmon's or perf's: the guest runs
# prof_read (prof_read.c) under QEMU's gdbstub, the debugger single-steps one call
# from the library to its return (prof_step.py) and prof-sym.py names each
# instruction's function from the guest's kallsyms and the program's symbols.
#
#   tools/bench/prof-read.sh OUTDIR pfm|perf N
#   tools/bench/prof-read.sh OUTDIR pfm-four|perf-four
#   tools/bench/prof-read.sh OUTDIR csw-none|csw-pfm|csw-perf
#   tools/bench/prof-read.sh OUTDIR ses-pfm
#   tools/bench/prof-read.sh OUTDIR inh-none|inh-shim|inh-perf
#
# The csw modes follow one round trip of bench-ops' ctxsw instead of a read, both
# processes and the switches between them (prof_read.c); the inh modes one child
# (fork, exit, wait) with inherited events, the child's instructions too.
# Needs make's products: the guest kernel, perfmon.ko, build/guest/bin/prof_read.
# Writes OUTDIR/prof-MODE-N.{log,trace,txt,pfm-syms}; the table goes to stdout too.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1 mode=$2 n=${3:-}
kernel=${GUEST_KERNEL:?} ko=${PFM_KO:?}
bin=$top/build/guest/bin/prof_read
mkdir -p "$out"
case $mode in
csw-*|smp-*|ses-*|inh-*|*-four)	args=$mode tag=$out/prof-$mode ;;
*)	args="$mode $n" tag=$out/prof-$mode-$n ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/perfmon-prof.XXXXXX")
qpid=
cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "$args" > "$tmp/prof.args"
"$top/scripts/guest/mkinitramfs.sh" "$tmp/prof.cpio.gz" "$top/tools/bench/run-prof.sh" \
	"$ko:/lib/perfmon.ko" "$bin:/bin/prof_read" "$tmp/prof.args:/prof.args"

# a port of our own: other guests may be running
port=$(( 20000 + $$ % 20000 ))
PFM_QEMU_OPTS="-icount shift=0,sleep=off -smp 1 -gdb tcp:127.0.0.1:$port" \
	"$top/scripts/guest/run.sh" --kernel "$kernel" --initrd "$tmp/prof.cpio.gz" \
	--append lpj=4000000 --timeout 600 --log "$tag.log" > /dev/null &
qpid=$!
for _ in $(seq 600); do
	grep -q PROF-READY "$tag.log" 2>/dev/null && break
	kill -0 "$qpid" 2>/dev/null || { echo "prof-read: the guest ended early" >&2; exit 1; }
	sleep 1
done
grep -q PROF-READY "$tag.log" || { echo "prof-read: no PROF-READY" >&2; exit 1; }

nm -n "$bin" > "$tmp/user.nm"
addr() { awk -v s="$1" '$3 == s { print $1 }' "$tmp/user.nm"; }
PROF_PORT=$port PROF_CALL=$(addr prof_call) PROF_STOP=$(addr prof_stop) \
	PROF_OUT=$tag.trace gdb -nx -batch -x "$top/tools/bench/prof_step.py" > "$tmp/gdb.log" 2>&1 ||
	{ cat "$tmp/gdb.log" >&2; exit 1; }
wait "$qpid" || { echo "prof-read: the guest failed (see $tag.log)" >&2; qpid=; exit 1; }
qpid=
tr -d '\r' < "$tag.log" | sed -n '/^PROF-SYMS-BEGIN/,/^PROF-SYMS-END/p' | sed '1d;$d' |
	python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.stdin.read()))' |
	gunzip > "$tmp/kallsyms"
# perfmon's own symbols kept, to set the trace against objdump -d of perfmon.ko
grep '\[perfmon\]' "$tmp/kallsyms" > "$tag.pfm-syms" || true
python3 "$top/tools/bench/prof-sym.py" "$tag.trace" "$tmp/kallsyms" "$tmp/user.nm" --seq \
	> "$tag.txt"
sed -n '1,/^$/p' "$tag.txt"
echo "prof-read: $tag.txt"
