/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection as syzkaller's executor drives it (fail_nth.c): the fault
 * attributes, and a thread's /proc/thread-self/fail-nth, which makes the N-th
 * slab or page allocation or user copy of that thread fail.  Used by the fault
 * sweep (tests/guest/faults) and the fuzzer (tests/fuzz).
 */
#ifndef PFM_TESTS_FAIL_NTH_H
#define PFM_TESTS_FAIL_NTH_H

/*
 * failslab and fail_page_alloc fail sleeping allocations too, of any order and
 * zone; probability 0, so that only fail-nth injects; reports off.  0, or -1
 * with errno and *bad the attribute's path.
 */
int fail_nth_setup(const char **bad);
/* the calling thread's fail-nth, open (O_CLOEXEC), or -1 with errno */
int fail_nth_open(void);
/* the n-th fault site the thread reaches from now fails: 0, or -1 */
int fail_nth_arm(int fd, unsigned int n);
/*
 * fail-nth back to 0: 1 if the fault was injected, 0 if not (then *left, if
 * not NULL, is what was left of n: the sites not reached), -1 if it could not
 * be disarmed.
 */
int fail_nth_disarm(int fd, unsigned int *left);

#endif
