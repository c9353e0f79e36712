/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: taking a preempt notifier off a thread from another thread
 * (notifier_off.c).
 */
#ifndef _PERFMON_NOTIFIER_OFF_H
#define _PERFMON_NOTIFIER_OFF_H

#include <linux/preempt.h>

struct task_struct;

/* A notifier the thread task registered on itself. */
struct pfm_notifier {
	struct preempt_notifier pn;
	struct task_struct *task;
	bool on;		/* on task's list; changed only where the list is quiet */
};

void pfm_notifier_take_off(struct pfm_notifier *n);
void pfm_notifier_unlink_self(struct pfm_notifier *n);

#endif /* _PERFMON_NOTIFIER_OFF_H */
