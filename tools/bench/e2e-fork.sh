#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: e2e_bench's fork-heavy workload, a shell script that runs N
# processes (200) one after the other, each a fresh exec of a static program
# that makes a few system calls and page faults.
n=${1:-200}
i=0
while [ $i -lt "$n" ]; do
	/bin/workload -s 10 -p 4
	i=$((i + 1))
done
