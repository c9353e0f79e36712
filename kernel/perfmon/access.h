/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: who may do what (access.c; the checks the core makes are in env.h).
 */
#ifndef _PERFMON_ACCESS_H
#define _PERFMON_ACCESS_H

extern int pfm_paranoid;
extern int pfm_sys_group;
extern int pfm_task_group;
int pfm_access_create(u32 flags);

#endif /* _PERFMON_ACCESS_H */
