#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest, after the suite: pfmon end to end, counting and sampling a workload
# with a known number of events.  Prints "pfmon-check: ok" or what went wrong.
fail() {
	echo "pfmon-check: FAIL: $*"
	echo "$out"
	exit 1
}

# counting: 5000 getppid and 256 fresh pages, at user level.  The system calls are
# exact on each kernel: the execve, glibc's static startup (13 calls on Debian's
# kernel, 15 on the in-tree one: see lifecycle.c), 5000 getppid, the workload's
# page set-up, exit_group: 5018 and 5020 measured.
out=$(/bin/pfmon -e syscalls,page-faults -- /bin/workload -s 5000 -p 256) ||
	fail "pfmon exited with $?"
sys=$(echo "$out" | awk '$2 == "syscalls" { print $1 }')
pf=$(echo "$out" | awk '$2 == "page-faults" { print $1 }')
[ -n "$sys" ] && [ "$sys" -ge 5018 ] && [ "$sys" -le 5020 ] || fail "syscalls: $sys"
[ -n "$pf" ] && [ "$pf" -ge 256 ] && [ "$pf" -le 400 ] || fail "page-faults: $pf"

# sampling: one sample every 64 page faults of 2048 fresh pages
out=$(/bin/pfmon -P 64 -e page-faults -- /bin/workload -p 2048) ||
	fail "pfmon -P exited with $?"
pf=$(echo "$out" | awk '$2 == "page-faults" { print $1 }')
ns=$(echo "$out" | awk '$2 == "samples," { print $1 }')
[ -n "$pf" ] && [ "$pf" -ge 2048 ] && [ "$pf" -le 2200 ] || fail "page-faults: $pf"
[ -n "$ns" ] && [ "$ns" -eq $((pf / 64)) ] || fail "$ns samples for $pf page faults"
# hardware events by libpfm4 name: the guest has no PMU, so libpfm4 knows no event
# (or, with one forced on it, perfmon has no counter to give it): a clear refusal
out=$(/bin/pfmon -e INST_RETIRED:ANY_P -- /bin/workload -s 1 2>&1)
[ $? -eq 2 ] && echo "$out" | grep -q "event 'INST_RETIRED:ANY_P': unknown" ||
	fail "a hardware event without a PMU"
out=$(LIBPFM_FORCE_PMU=skl /bin/pfmon -e INST_RETIRED:ANY_P,syscalls -- /bin/workload -s 1 2>&1)
[ $? -eq 2 ] && echo "$out" | grep -q "not enough counters" ||
	fail "a hardware event on the software PMU"
echo "pfmon-check: ok ($sys syscalls, $ns samples of $pf page faults)"
