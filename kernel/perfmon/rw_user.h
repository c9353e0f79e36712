/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the door's pfm_read_pmds(), straight from user memory (rw_user.c).
 */
#ifndef _PERFMON_RW_USER_H
#define _PERFMON_RW_USER_H

long pfm_read_pmds_user(struct pfm_context *ctx, void __user *uptr, u64 size);

#endif /* _PERFMON_RW_USER_H */
