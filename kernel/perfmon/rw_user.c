// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: pfm_read_pmds() on a vector in user memory, moving only what a read uses.
 *
 * A read takes 8 bytes of each 176-byte struct pfarg_pmd (number, set, flags) and
 * its 32-byte reserved field, which must be zero, and gives back 24 bytes (value,
 * last reset value, overflows left).  Copying whole requests in and out cost more
 * than the read itself (under emulation, most of it); these fields are moved in one
 * user access window each way instead.  The rules stay those of a whole copy: every
 * element is fetched before any is checked (EFAULT before EINVAL), nothing is
 * written back unless the read succeeded, and every element is written back (a
 * read-only vector is EFAULT).
 */
#include <linux/uaccess.h>

#include "internal.h"
#include "rw.h"
#include "rw_user.h"

/* Vectors up to this long need no allocation: a whole PMU's worth of counters. */
#define PFM_READ_ON_STACK	8

static int pfm_read_fetch(const struct pfarg_pmd __user *u, struct pfm_pmd_read *rd,
			  unsigned int n)
{
	unsigned int k;

	if (!user_access_begin(u, n * sizeof(*u)))
		return -EFAULT;
	for (k = 0; k < n; k++) {
		/* the reserved field in four words: only whether it is zero matters */
		const u64 __user *r = (const u64 __user *)u[k].reg_reserved2;
		u64 r0, r1, r2, r3;

		unsafe_get_user(rd[k].num, &u[k].reg_num, efault);
		unsafe_get_user(rd[k].set_id, &u[k].reg_set, efault);
		unsafe_get_user(rd[k].flags, &u[k].reg_flags, efault);
		unsafe_get_user(r0, r, efault);
		unsafe_get_user(r1, r + 1, efault);
		unsafe_get_user(r2, r + 2, efault);
		unsafe_get_user(r3, r + 3, efault);
		rd[k].rsvd_zero = !(r0 | r1 | r2 | r3);
	}
	user_access_end();
	return 0;

efault:
	user_access_end();
	return -EFAULT;
}

static int pfm_read_give(struct pfarg_pmd __user *u, const struct pfm_pmd_read *rd,
			 unsigned int n)
{
	unsigned int k;

	if (!user_access_begin(u, n * sizeof(*u)))
		return -EFAULT;
	for (k = 0; k < n; k++) {
		unsafe_put_user(rd[k].value, &u[k].reg_value, efault);
		unsafe_put_user(rd[k].last_reset_val, &u[k].reg_last_reset_val, efault);
		unsafe_put_user(rd[k].ovfl_switch_cnt, &u[k].reg_ovfl_switch_cnt, efault);
	}
	user_access_end();
	return 0;

efault:
	user_access_end();
	return -EFAULT;
}

/* n requests at uptr, whose size the caller checked against the vector limits. */
long pfm_read_pmds_user(struct pfm_context *ctx, void __user *uptr, unsigned int n)
{
	/* every field is written before it is read: no zeroing of 384 bytes per call */
	struct pfm_pmd_read on_stack[PFM_READ_ON_STACK] __uninitialized, *rd = on_stack;
	long ret;

	if (n > PFM_READ_ON_STACK) {
		rd = kmalloc_array(n, sizeof(*rd), GFP_KERNEL);
		if (!rd)
			return -ENOMEM;
	}
	ret = pfm_read_fetch(uptr, rd, n);
	if (ret)
		goto out;
	mutex_lock(&ctx->mutex);
	ret = pfm_read_pmd_vec(ctx, rd, n);
	mutex_unlock(&ctx->mutex);
	if (!ret)
		ret = pfm_read_give(uptr, rd, n);
out:
	if (rd != on_stack)
		kfree(rd);
	return ret;
}
