/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: race windows (race.c), in the debug kernel only
 * (CONFIG_PERFMON_RACE_WINDOWS).  A point named here sleeps for the time written
 * to /sys/kernel/debug/perfmon/race_<name>_us, so that a test can make another
 * thread's action land inside a window a few instructions wide, every time,
 * instead of once in a thousand runs.  Elsewhere each point compiles to nothing.
 */
#ifndef _PERFMON_RACE_H
#define _PERFMON_RACE_H

struct dentry;

enum pfm_race_point {
	/* an attach from another thread: its hook is mapped, ctx not attached yet */
	PFM_RACE_ATTACH_MAPPED,
	/* the same, ctx attached through the hook, the thread not told yet */
	PFM_RACE_ATTACH_LOADED,
	/* a call on a context's fd: the context found, the call not begun */
	PFM_RACE_CALL_FD,
	PFM_RACE_NR
};

#ifdef CONFIG_PERFMON_RACE_WINDOWS
/* In a context that may sleep. */
void pfm_race_window(enum pfm_race_point point);
void pfm_race_init(struct dentry *dir);
#else
static inline void pfm_race_window(enum pfm_race_point point __always_unused) {}
static inline void pfm_race_init(struct dentry *dir __always_unused) {}
#endif

#endif /* _PERFMON_RACE_H */
