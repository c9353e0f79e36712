/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: who may do what (access.c; the checks the core makes are in env.h).
 */
#ifndef _PERFMON_ACCESS_H
#define _PERFMON_ACCESS_H

#include "layer.h"


extern int pfm_sys_group;
extern int pfm_task_group;
int pfm_access_init(void);
/*
 * paranoid.c: /sys/kernel/perfmon/paranoid, a level or PFM_PARANOID_SYSTEM (follow
 * the kernel's kernel.perf_event_paranoid)
 */
#define PFM_PARANOID_SYSTEM	(-2)
extern int pfm_paranoid;
int pfm_paranoid_init(void);
void pfm_paranoid_exit(void);
void pfm_access_exit(void);

struct cred;
struct task_struct;
/* The attach rule's credential part, for cred against task now (thread.c at exec). */
bool pfm_access_cred_may_read(const struct cred *cred, struct task_struct *task);

#endif /* _PERFMON_ACCESS_H */
