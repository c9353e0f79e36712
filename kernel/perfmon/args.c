// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: copying vector arguments in and out.
 */
#include "internal.h"
#include "args.h"

/* Largest vector a call accepts, in bytes; /sys/kernel/perfmon/arg_mem_max. */
unsigned long pfm_arg_mem_max = PAGE_SIZE;

void *pfm_vec_copy_in(const void __user *uptr, u64 size, size_t elem)
{
	int ret = pfm_vec_check_size(size, elem);
	void *buf;

	if (ret)
		return ERR_PTR(ret);
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	if (copy_from_user(buf, uptr, size)) {
		kfree(buf);
		return ERR_PTR(-EFAULT);
	}
	return buf;
}

int pfm_vec_copy_out(void __user *uptr, const void *kbuf, u64 size)
{
	return copy_to_user(uptr, kbuf, size) ? -EFAULT : 0;
}
