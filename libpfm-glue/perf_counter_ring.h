/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon, inside: the 2008 proposal's ring buffer (perf_counter_ring.c) for
 * the counters perf_counter_open() made with pfm_perf_event_open().
 */
#ifndef _LIBPERFMON_PERF_COUNTER_RING_H
#define _LIBPERFMON_PERF_COUNTER_RING_H

#include <stdint.h>

/*
 * Remember fd as a perf_event counter of perf_counter_open(), with its record_type;
 * self_leader: a group leader counting the calling thread.
 */
int pc_ring_note(int fd, uint32_t record_type, int self_leader);
/* ENABLE (or DISABLE) the calling thread's self_leader counters: 0 or -1, errno. */
int pc_ring_task_enable(int enabled);
/* Is fd such a counter? */
int pc_ring_known(int fd);
/* Bring fd's 2008 ring up to date with its perf ring (nothing if unmapped). */
void pc_ring_sync(int fd);
/* Forget fd (before its close), and unmap its rings. */
void pc_ring_forget(int fd);
/* Is fd the handle of a native counter (perf_counter.c)? */
int pc_native_fd(int fd);

#endif
