/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon, inside: the 2008 proposal's ring buffer (perf_counter_ring.c) for
 * the counters perf_counter_open() made with pfm_perf_event_open().
 */
#ifndef _LIBPERFMON_PERF_COUNTER_RING_H
#define _LIBPERFMON_PERF_COUNTER_RING_H

#include <stdint.h>
#include <sys/types.h>

struct perf_counter_hw_event;

/*
 * Remember fd as a perf_event counter of perf_counter_open() made of hw, in the
 * group of group_fd (-1: its own); self_leader: a group leader counting the
 * calling thread.  0 or an errno.
 */
int pc_ring_note(int fd, const struct perf_counter_hw_event *hw, int group_fd,
		 int self_leader);
/* read() of such a counter, in the proposal's layout. */
ssize_t pc_ring_read(int fd, void *buf, size_t count);
/* ENABLE (or DISABLE) the calling thread's self_leader counters: 0 or -1, errno. */
int pc_ring_task_enable(int enabled);
int pc_ring_members_restore(void);
void pc_ring_note_ioctl(int fd, unsigned long request);
/* Is fd such a counter? */
int pc_ring_known(int fd);
/* Bring fd's 2008 ring up to date with its perf ring (nothing if unmapped). */
void pc_ring_sync(int fd);
/* Forget fd (before its close), and unmap its rings. */
void pc_ring_forget(int fd);
/* Is fd the handle of a native counter (perf_counter.c)? */
int pc_native_fd(int fd);

#endif
