/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: inherited perf events (inherit.c): the copies attr.inherit makes in
 * a thread's new children, counted into the opened event, and enable_on_exec.
 * pfm_perf_family_mutex protects the lists of copies.
 */
#ifndef _PERFMON_PERF_INHERIT_H
#define _PERFMON_PERF_INHERIT_H

#include <linux/mutex.h>
#include <linux/types.h>

struct pfm_perf_event;
struct pfm_perf_target;
struct pfm_perf_value;

extern struct mutex pfm_perf_family_mutex;
typedef int (*pfm_perf_op)(struct pfm_perf_event *ev, bool on);
void pfm_perf_children_value(struct pfm_perf_event *ev, struct pfm_perf_value *v);
void pfm_perf_children_apply(struct pfm_perf_event *ev, pfm_perf_op fn, bool on);
void pfm_perf_children_drop(struct pfm_perf_event *ev);
void pfm_perf_exec_arm(struct pfm_perf_target *t);
void pfm_perf_exec_disarm(struct pfm_perf_target *t);
/* new children whose copies are still to be made: their switches (task.c) */
struct task_struct;
bool pfm_perf_forks_pending(void);
struct pfm_perf_target *pfm_perf_fork_parent_locked(struct task_struct *task);

#endif /* _PERFMON_PERF_INHERIT_H */
