#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The KCOV call sites of perfmon's code in the debug kernel, for pfm_fuzz:
#
#   tests/fuzz/pcs.sh OBJDIR > pcs.txt      (OBJDIR: build/intree/obj)
#
#   F <index> <source file>
#   <pc> <file index> <function>            one line per call site, by pc
#
# <pc> is the return address of the call to __sanitizer_cov_trace_pc, which is
# what KCOV records (the kernel has no KASLR: link addresses are run addresses).
# Each object's .text is one block of vmlinux: the functions whose names are
# unique in vmlinux bound it, and every function inside belongs to the object
# (static functions with common names included).
set -euo pipefail

obj=${1:?usage: pcs.sh OBJDIR}
vmlinux=$obj/vmlinux
[ -r "$vmlinux" ] || { echo "pcs.sh: $vmlinux not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# address size name of every function in vmlinux
nm -S --defined-only "$vmlinux" | awk 'NF == 4 && ($3 == "t" || $3 == "T") { print $1, $2, $4 }' \
	> "$tmp/syms"
awk '{ n[$3]++ } END { for (s in n) if (n[s] == 1) print s }' "$tmp/syms" | sort > "$tmp/unique"

idx=0
for o in $(cd "$obj" && ls kernel/perfmon/*.o kernel/perfmon/perf/*.o kernel/perfmon/inherit/*.o kernel/perfmon/trace/*.o arch/x86/perfmon/*.o 2>/dev/null); do
	case $o in */built-in.o|*.mod.o) continue ;; esac
	# the object's own .text functions that vmlinux names once
	objdump -t "$obj/$o" | awk '/ F \.text\t/ { print $NF }' | sort -u |
		comm -12 - "$tmp/unique" > "$tmp/own"
	[ -s "$tmp/own" ] || continue
	range=$(perl -e 'my %own = map { chomp; $_ => 1 } `cat $ARGV[0]`;
		my ($lo, $hi);
		open(my $s, "<", $ARGV[1]) or die;
		while (<$s>) {
			my ($a, $z, $n) = split;
			next unless $own{$n};
			$a = hex($a); my $e = $a + hex($z);
			$lo = $a if !defined($lo) || $a < $lo;
			$hi = $e if !defined($hi) || $e > $hi;
		}
		printf "0x%x 0x%x\n", $lo, $hi;' "$tmp/own" "$tmp/syms")
	echo "F $idx ${o%.o}.c"
	objdump -d --no-show-raw-insn --start-address="${range% *}" \
		--stop-address="${range#* }" "$vmlinux" |
		perl -ne 'BEGIN { $f = shift }
			$fn = $1 if /^[0-9a-f]+ <(.*)>:$/;
			printf "%x %d %s\n", hex($1) + 5, $f, $fn
				if /^\s*([0-9a-f]+):.*call.*<__sanitizer_cov_trace_pc>/;' "$idx"
	idx=$((idx + 1))
done > "$tmp/out"
grep '^F ' "$tmp/out"
grep -v '^F ' "$tmp/out" | sort
[ "$(grep -vc '^F ' "$tmp/out")" -gt 0 ] || { echo "pcs.sh: no KCOV call site (CONFIG_KCOV off?)" >&2; exit 1; }
