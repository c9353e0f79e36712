#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the perfmon test guest in QEMU (TCG) and report its verdict.
#
#   scripts/guest/run.sh --initrd PATH [--kernel PATH] [--timeout SECONDS]
#                        [--append "extra cmdline"] [--log FILE]
#
#   --kernel   default build/guest/vmlinuz-$(scripts/kver.sh)
#   --initrd   made by scripts/guest/mkinitramfs.sh (required)
#   --timeout  hard limit for the whole boot-test-poweroff, default 600 s
#   --append   appended to the kernel command line
#   --log      also write the guest console output to FILE
#   Extra QEMU options may be given in $PFM_QEMU_OPTS (word-split).
#
# The guest console (ttyS0) goes to stdout; the guest init writes a single
# "PFM-VERDICT: ..." line to ttyS1, which QEMU writes to a temporary file.
# Exit status: 0 if the verdict is PASS and the console shows no kernel
# problem report, 1 otherwise (timeout, no verdict, FAIL), 2 on usage errors.
# stdin is never used (QEMU gets /dev/null), so this works without a tty.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)

# Keep in sync with PROBLEMS in scripts/guest/init.
PFM_PROBLEMS='WARNING:|BUG:|kernel BUG at|Oops|general protection|KASAN:|UBSAN:|kmemleak: [0-9]+ new suspected|unreferenced object|possible circular locking|possible recursive locking|inconsistent lock state|INFO: task .* blocked|Call Trace|Kernel panic'

usage() {
	sed -n '4,15s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

kernel='' initrd='' timeout_s=600 append='' log=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel)  [ $# -ge 2 ] || usage; kernel=$2; shift 2 ;;
	--initrd)  [ $# -ge 2 ] || usage; initrd=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || usage; timeout_s=$2; shift 2 ;;
	--append)  [ $# -ge 2 ] || usage; append=$2; shift 2 ;;
	--log)     [ $# -ge 2 ] || usage; log=$2; shift 2 ;;
	--kernel=*)  kernel=${1#*=}; shift ;;
	--initrd=*)  initrd=${1#*=}; shift ;;
	--timeout=*) timeout_s=${1#*=}; shift ;;
	--append=*)  append=${1#*=}; shift ;;
	--log=*)     log=${1#*=}; shift ;;
	-h|--help) usage ;;
	*) echo "run.sh: unknown argument '$1'" >&2; usage ;;
	esac
done

fail() { echo "run.sh: FAIL: $*" >&2; exit 1; }

if [ -z "$kernel" ]; then
	kver=$("$top/scripts/kver.sh") || fail "cannot determine the kernel version"
	kernel=$top/build/guest/vmlinuz-$kver
fi
[ -n "$initrd" ] || { echo "run.sh: --initrd is required" >&2; usage; }
[ -r "$kernel" ] || fail "kernel '$kernel' not found (run scripts/deps.sh)"
[ -r "$initrd" ] || fail "initrd '$initrd' not found"
case $timeout_s in ''|*[!0-9]*) echo "run.sh: bad --timeout '$timeout_s'" >&2; exit 2 ;; esac
command -v qemu-system-x86_64 >/dev/null || fail "qemu-system-x86_64 not installed (run scripts/deps.sh)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/perfmon-qemu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
: > "$tmp/verdict"
: > "$tmp/console"
if [ -n "$log" ]; then
	mkdir -p "$(dirname "$log")"
	: > "$log" || fail "cannot write log '$log'"
fi

# thread=single: with one host thread per vCPU, QEMU hangs now and then when the
# guest kernel patches code (a tracepoint being switched on) that another vCPU is
# running in a loop; it is reproducible with tracefs alone, without perfmon.
# PFM_TCG_THREAD=multi asks for it anyway: the fuzzer's runs of their own, where
# the guest's two CPUs get the host's two and a hang is a run that times out.
# -nodefaults: no default monitor/serial/parallel/VGA/NIC, so nothing else
# competes for stdio.  The first -serial is COM1 = ttyS0 (console, on
# stdout), the second is COM2 = ttyS1 (verdict, to a file).  Two sockets of one
# CPU each: the BIOS's MP table, which the debug kernel (no ACPI) boots its
# second CPU from, lists the first CPU of each package only.  A -smp in
# PFM_QEMU_OPTS (one CPU, for the instruction-counted guests) replaces it: QEMU
# would merge the two.
smp=(-smp 2,sockets=2,cores=1,threads=1)
case " ${PFM_QEMU_OPTS:-} " in *" -smp "*) smp=() ;; esac
# shellcheck disable=SC2054
qemu=(qemu-system-x86_64
	-accel tcg,thread=${PFM_TCG_THREAD:-single} -cpu max "${smp[@]}" -m 1024
	-nodefaults -display none -no-reboot -nic none
	-chardev stdio,id=con0,signal=off
	-serial chardev:con0
	-serial "file:$tmp/verdict"
	-kernel "$kernel" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 oops=panic quiet loglevel=4${append:+ $append}")
# shellcheck disable=SC2206
[ -n "${PFM_QEMU_OPTS:-}" ] && qemu+=(${PFM_QEMU_OPTS})

start=$(date +%s)
# --foreground keeps QEMU in our process group so ^C reaches it; -k makes
# sure a QEMU that ignores SIGTERM is killed.
timeout --foreground -k 10 "$timeout_s" "${qemu[@]}" </dev/null 2>&1 |
	tee "$tmp/console" ${log:+"$log"}
qrc=${PIPESTATUS[0]}
elapsed=$(( $(date +%s) - start ))

verdict=$(tr -d '\r' < "$tmp/verdict" | grep -m1 '^PFM-VERDICT:' || true)
problems=$(tr -d '\r' < "$tmp/console" | grep -E "$PFM_PROBLEMS" || true)

if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	fail "timeout: guest did not power off within ${timeout_s}s${verdict:+ (verdict was: $verdict)}"
fi
if [ -z "$verdict" ]; then
	fail "no verdict from the guest after ${elapsed}s (qemu exit status $qrc; kernel panic or init crash?)"
fi
if [ "$verdict" != "PFM-VERDICT: PASS" ]; then
	# The kernel log the guest prints last would push these out of a log's tail
	# (CI shows only the tail): the failed checks are repeated after it.
	failed=$(tr -d '\r' < "$tmp/console" | grep -E '^FAIL |:[FE]:|: FAIL|FAILED|timed out' |
		 grep -v '^#' | head -40 || true)
	[ -n "$failed" ] && printf 'run.sh: what failed in the guest:\n%s\n' "$failed" >&2
	[ -n "$problems" ] && printf 'run.sh: kernel problem reports on the console:\n%s\n' "$problems" >&2
	fail "guest verdict: ${verdict#PFM-VERDICT: } (${elapsed}s)"
fi
if [ -n "$problems" ]; then
	printf 'run.sh: kernel problem reports on the console:\n%s\n' "$problems" >&2
	fail "guest said PASS but the console shows kernel problem reports (${elapsed}s)"
fi
if [ "$qrc" -ne 0 ]; then
	fail "qemu exited with status $qrc (${elapsed}s)"
fi
echo "run.sh: PASS (${elapsed}s)"
exit 0
