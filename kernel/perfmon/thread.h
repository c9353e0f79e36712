/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the monitored thread's hooks (thread.c; what the core asks of them is
 * in env.h).
 */
#ifndef _PERFMON_THREAD_H
#define _PERFMON_THREAD_H

int pfm_thread_init(void);
void pfm_thread_exit(void);
struct task_struct;
void pfm_attach_switch(struct task_struct *next);	/* the attach probe (sw_hooks.c) */
unsigned int pfm_thread_hooks(void);

/*
 * What a layer on the core learns of a thread's life, from the core's own exit and
 * exec probes, in that thread and in atomic context: exit before the core ends the
 * thread's attachments (their counts are still there to fold), exec after it has
 * applied the attach rule again (an attachment that stands is the new image's).
 * One layer at a time: a second set is -EBUSY.
 */
struct pfm_task_ops {
	void (*exit)(struct task_struct *task);
	void (*exec)(struct task_struct *task);
};
int pfm_thread_ops_set(const struct pfm_task_ops *ops);
void pfm_thread_ops_clear(const struct pfm_task_ops *ops);

#endif /* _PERFMON_THREAD_H */
