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
#include "args.h"
#include "rw.h"
#include "rw_user.h"

/* The head of a read (rw.h) is the request's first word. */
static_assert(offsetof(struct pfarg_pmd, reg_num) == offsetof(struct pfm_pmd_read, num) &&
	      offsetof(struct pfarg_pmd, reg_set) == offsetof(struct pfm_pmd_read, set_id) &&
	      offsetof(struct pfarg_pmd, reg_flags) == offsetof(struct pfm_pmd_read, flags) &&
	      offsetof(struct pfarg_pmd, reg_value) == sizeof(u64));

/* Vectors up to this long need no allocation: a whole PMU's worth of counters. */
#define PFM_READ_ON_STACK	8

/*
 * Every reserved field is checked here, once the whole vector is in: a non-zero
 * one is EINVAL, as the core's checks would make it, but only after no element
 * faulted.
 */
static int pfm_read_fetch(const struct pfarg_pmd __user *u, struct pfm_pmd_read *rd,
			  unsigned int n)
{
	const struct pfarg_pmd __user *end = u + n;
	u64 rsvd = 0;

	if (!user_access_begin(u, n * sizeof(*u)))
		return -EFAULT;
	for (; u < end; u++, rd++) {
		/* the reserved field in four words: only whether it is zero matters */
		const u64 __user *r = (const u64 __user *)u->reg_reserved2;
		u64 r0, r1, r2, r3;

		/* number, set and flags in one word (rw.h) */
		unsafe_get_user(rd->head, (const u64 __user *)u, efault);
		unsafe_get_user(r0, r, efault);
		unsafe_get_user(r1, r + 1, efault);
		unsafe_get_user(r2, r + 2, efault);
		unsafe_get_user(r3, r + 3, efault);
		rsvd |= r0 | r1 | r2 | r3;
	}
	user_access_end();
	return rsvd ? -EINVAL : 0;

efault:
	user_access_end();
	return -EFAULT;
}

static int pfm_read_give(struct pfarg_pmd __user *u, const struct pfm_pmd_read *rd,
			 unsigned int n)
{
	struct pfarg_pmd __user *end = u + n;

	if (!user_access_begin(u, n * sizeof(*u)))
		return -EFAULT;
	for (; u < end; u++, rd++) {
		unsafe_put_user(rd->value, &u->reg_value, efault);
		unsafe_put_user(rd->last_reset_val, &u->reg_last_reset_val, efault);
		unsafe_put_user(rd->ovfl_switch_cnt, &u->reg_ovfl_switch_cnt, efault);
	}
	user_access_end();
	return 0;

efault:
	user_access_end();
	return -EFAULT;
}

/* size bytes of requests at uptr: the vector rules from the size on (args.h) */
long pfm_read_pmds_user(struct pfm_context *ctx, void __user *uptr, u64 size)
{
	/* every field is written before it is read: no zeroing of 320 bytes per call */
	struct pfm_pmd_read on_stack[PFM_READ_ON_STACK] __uninitialized, *rd = on_stack;
	unsigned int n;
	long ret;

	ret = pfm_vec_check_size(size, sizeof(struct pfarg_pmd));
	if (ret)
		return ret;
	/* the same division as the check's remainder: one multiply for both */
	n = size / sizeof(struct pfarg_pmd);
	if (n > PFM_READ_ON_STACK) {
		rd = kmalloc_array(n, sizeof(*rd), GFP_KERNEL);
		if (!rd)
			return -ENOMEM;
	}
	ret = pfm_read_fetch(uptr, rd, n);
	if (ret)
		goto out;
	ret = pfm_read_pmd_vec(ctx, rd, n);
	if (!ret)
		ret = pfm_read_give(uptr, rd, n);
out:
	if (rd != on_stack)
		kfree(rd);
	return ret;
}
