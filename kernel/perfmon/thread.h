/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the monitored thread's hooks (thread.c; what the core asks of them is
 * in env.h).
 */
#ifndef _PERFMON_THREAD_H
#define _PERFMON_THREAD_H

#include "layer.h"

int pfm_thread_init(void);
void pfm_thread_exit(void);
struct task_struct;
void pfm_attach_switch(struct task_struct *next);	/* the attach probe (sw_hooks.c) */
unsigned int pfm_thread_hooks(void);

#endif /* _PERFMON_THREAD_H */
