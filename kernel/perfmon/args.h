/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: vector arguments (args.c).
 */
#ifndef _PERFMON_ARGS_H
#define _PERFMON_ARGS_H

extern unsigned long pfm_arg_mem_max;

/*
 * Size rules come before the copy so that a bad size is reported as such even with a
 * bad pointer: EINVAL for a size that is not a whole, non-empty vector, E2BIG over the
 * limit, then EFAULT.  Inline: every vector call, a read included, asks it.
 */
static inline int pfm_vec_check_size(u64 size, size_t elem)
{
	if (!size || size % elem)
		return -EINVAL;
	if (size > READ_ONCE(pfm_arg_mem_max))
		return -E2BIG;
	return 0;
}

void *pfm_vec_copy_in(const void __user *uptr, u64 size, size_t elem);
int pfm_vec_copy_out(void __user *uptr, const void *kbuf, u64 size);

#endif /* _PERFMON_ARGS_H */
