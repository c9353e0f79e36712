/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: vector arguments (args.c).
 */
#ifndef _PERFMON_ARGS_H
#define _PERFMON_ARGS_H

extern unsigned long pfm_arg_mem_max;
int pfm_vec_check_size(u64 size, size_t elem);
void *pfm_vec_copy_in(const void __user *uptr, u64 size, size_t elem);
int pfm_vec_copy_out(void __user *uptr, const void *kbuf, u64 size);

#endif /* _PERFMON_ARGS_H */
