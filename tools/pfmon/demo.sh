#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: measure a workload with a known number of each event.
insmod /lib/perfmon.ko || exit 1
W=/bin/workload
show() {
	echo
	echo "\$ $*"
	"$@" || exit 1
}
echo
echo "pfmon: 100000 getppid() calls, 2048 fresh pages, 300 ms of CPU, 100 ms asleep"
show /bin/pfmon -- $W -s 100000 -p 2048 -t 300 -l 100
echo "the same work again in 2 child processes, followed by pfmon, 3 runs:"
show /bin/pfmon -r 3 -e syscalls,page-faults,task-clock -- $W -s 10000 -p 256 -f 2
echo "every 100 ms, as CSV:"
show /bin/pfmon -I 100 -x , -e syscalls,task-clock -- $W -s 20000 -t 250
echo "10 software events at once, each counted exactly (1024 software counters):"
show /bin/pfmon \
	-e syscalls,page-faults,context-switches,task-clock,syscalls:u,page-faults:u,syscalls:k,page-faults:k,cpu-migrations,task-clock \
	-- $W -s 100000 -p 2048 -t 200
echo "a running process (-p), then both CPUs (-a):"
$W -w 300 -s 50000 -p 1024 &
show /bin/pfmon -e syscalls,page-faults -p $!
show /bin/pfmon -a -e syscalls,context-switches,task-clock -- $W -s 50000 -l 100
echo "a sample every 64 page faults, named with libdw:"
show /bin/pfmon -P 64 -e page-faults,syscalls -- $W -s 100000 -p 2048 -t 300 -l 100
echo
rmmod perfmon
