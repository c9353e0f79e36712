// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: pfm_read_pmds() on a vector in user memory, moving only what a read uses.
 *
 * A read takes 8 bytes of each 176-byte struct pfarg_pmd (number, set, flags) and
 * its 32-byte reserved field, which must be zero, and gives back 24 bytes (value,
 * last reset value, overflows left).  Copying whole requests in and out would cost
 * more than the read itself; these fields are moved in one user access window each
 * way instead.  The rules stay those of a whole copy: every
 * element is fetched before any is checked (EFAULT before EINVAL), nothing is
 * written back unless the read succeeded, and every element is written back (a
 * read-only vector is EFAULT).
 *
 * A short vector is first read in one visit under ctx->lock, as futexes read their
 * word: user memory touched with page faults disabled, the requests checked as they
 * come in and the answers written straight from the PMDs, with no copy of either
 * on the way.  Anything out of the ordinary there (a page not at hand, a request
 * that fails a check, the state on another CPU) hands the whole call to the long
 * way below, which sets the answer's errno by the rules above: the visit wrote
 * nothing the long way does not write again, and only a read that would have
 * succeeded writes anything.
 */
#include <linux/uaccess.h>

#include "internal.h"
#include "ctx.h"
#include "sets.h"
#include "args.h"
#include "rw.h"
#include "rw_user.h"
#include "env.h"
#include "flag_ops.h"

/* The head of a read (rw.h) is the request's first word. */
static_assert(offsetof(struct pfarg_pmd, reg_num) == offsetof(union pfm_pmd_head, num) &&
	      offsetof(struct pfarg_pmd, reg_set) == offsetof(union pfm_pmd_head, set_id) &&
	      offsetof(struct pfarg_pmd, reg_flags) == offsetof(union pfm_pmd_head, flags) &&
	      offsetof(struct pfarg_pmd, reg_value) == sizeof(u64));

/* Vectors up to this long need no allocation: a whole PMU's worth of counters. */
#define PFM_READ_ON_STACK	8

/* Vectors up to this long are read in one visit (pfm_read_at_once()). */
#define PFM_READ_AT_ONCE	16

/*
 * In a user access window, as unsafe_get_user(): request q's head into the union
 * pfm_pmd_head h, and its reserved field, four words of which only whether they
 * are zero matters, or'ed together into z.  Macros, as the unsafe accessors are:
 * a fault goes to label, and an inline function's own exit would cost the visit's
 * loop its registers.
 */
#define pfm_unsafe_get_request(q, h, z, label) do {				\
	const u64 __user *__r = (const u64 __user *)(q)->reg_reserved2;		\
	u64 __r0, __r1, __r2, __r3;						\
										\
	unsafe_get_user((h).word, (const u64 __user *)(q), label);		\
	unsafe_get_user(__r0, __r, label);					\
	unsafe_get_user(__r1, __r + 1, label);					\
	unsafe_get_user(__r2, __r + 2, label);					\
	unsafe_get_user(__r3, __r + 3, label);					\
	(z) = __r0 | __r1 | __r2 | __r3;					\
} while (0)

/* The same for the answer to request q. */
#define pfm_unsafe_put_answer(q, value, last_reset_val, ovfl_switch_cnt, label) do { \
	unsafe_put_user(value, &(q)->reg_value, label);				\
	unsafe_put_user(last_reset_val, &(q)->reg_last_reset_val, label);	\
	unsafe_put_user(ovfl_switch_cnt, &(q)->reg_ovfl_switch_cnt, label);	\
} while (0)

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
		u64 z;

		pfm_unsafe_get_request(u, rd->h, z, efault);
		rsvd |= z;
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
	for (; u < end; u++, rd++)
		pfm_unsafe_put_answer(u, rd->value, rd->last_reset_val, rd->ovfl_switch_cnt,
				      efault);
	user_access_end();
	return 0;

efault:
	user_access_end();
	return -EFAULT;
}

/*
 * A visit that named the live set, where some units count in registers, brings
 * the PMDs it asked of them up to date after every check, as the long way does: a
 * failed read reads no register.  src[] points at what the answer reads; those in
 * the live set's own array are its PMDs, each in its slot (pmu.h).
 */
static noinline void pfm_read_sync_registers(struct pfm_event_set *live,
					     const unsigned long *src, unsigned int n)
{
	unsigned long first = (unsigned long)live->pmds;
	unsigned int k, i;

	for (k = 0; k < n; k++) {
		if (src[k] < first || src[k] - first >= live->pmds_bytes)
			continue;
		i = pfm_pmu.slot_pmd[(src[k] - first) / sizeof(struct pfm_pmd)];
		if (pfm_pmd_in_register(live, i))
			pfm_pmd_sync(live, i);
	}
}

/*
 * The visit: true when the read is done, false when the long way must do it.  The
 * user access window closes around every call (a set's look-up and the sync of the
 * units counting into it, once per set the vector names in a row).
 */
static __always_inline bool pfm_read_at_once(struct pfm_context *ctx,
					     struct pfarg_pmd __user *u, unsigned int n)
{
	unsigned long src[PFM_READ_AT_ONCE] __uninitialized, *s;
	struct pfarg_pmd __user *end = u + n, *q;
	struct pfm_pmd *base = NULL;
	u32 bytes = 0;		/* base's length */
	bool regs = false;	/* the live set is named, and its PMDs may be in registers */
	u32 set_id = U32_MAX;	/* the set the requests name: none yet */
	unsigned long flags;
	u64 rsvd = 0;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	if (unlikely(!pfm_state_here(ctx)))
		goto unlock;
	/* vectors mostly name the active set alone: it is made ready before any fetch */
	if (likely(ctx->active)) {
		set_id = ctx->active->id;
		base = ctx->active->pmds;
		bytes = ctx->active->pmds_bytes;
		regs = pfm_read_ready_set(ctx, ctx->active);
	}
	pagefault_disable();
	if (!user_access_begin(u, n * sizeof(*u)))
		goto enable;
	for (q = u, s = src; q < end; q++, s++) {
		union pfm_pmd_head h;
		u64 z;

		pfm_unsafe_get_request(q, h, z, fault);
		/* what must be zero, the flags' unknown bits with the reserved field */
		rsvd |= z | pfm_pmd_flags_bad(h.flags);
		if (unlikely(h.num >= PFM_NUM_PMDS))
			goto fault;
		if (unlikely(h.set_id != set_id)) {
			struct pfm_event_set *set;

			user_access_end();
			set = pfm_find_set(ctx, h.set_id);
			if (!set)
				goto enable;
			set_id = h.set_id;
			base = set->pmds;
			bytes = set->pmds_bytes;
			regs |= pfm_read_ready_set(ctx, set);
			if (!user_access_begin(q, (end - q) * sizeof(*q)))
				goto enable;
		}
		/* a PMD not implemented is found here, one more thing to be zero */
		*s = (unsigned long)pfm_pmd_read_at(base, bytes, h.num, &rsvd);
	}
	if (unlikely(rsvd))
		goto fault;
	if (unlikely(regs)) {
		user_access_end();
		pfm_read_sync_registers(ctx->active, src, n);
		if (!user_access_begin(u, n * sizeof(*u)))
			goto enable;
	}
	for (q = u, s = src; q < end; q++, s++) {
		const struct pfm_pmd *p = (const struct pfm_pmd *)*s;

		pfm_unsafe_put_answer(q, p->value, p->last_reset_val, p->ovfl_switch_cnt, fault);
	}
	user_access_end();
	pagefault_enable();
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return true;

fault:
	user_access_end();
enable:
	pagefault_enable();
unlock:
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return false;
}

/* The long way, for any vector: n requests at u, the size checked. */
static noinline long pfm_read_long_way(struct pfm_context *ctx, struct pfarg_pmd __user *u,
				       unsigned int n)
{
	/* every field is written before it is read: no zeroing of 256 bytes per call */
	struct pfm_pmd_read on_stack[PFM_READ_ON_STACK] __uninitialized, *rd = on_stack;
	long ret;

	if (n > PFM_READ_ON_STACK) {
		rd = kmalloc_array(n, sizeof(*rd), GFP_KERNEL);
		if (!rd)
			return -ENOMEM;
	}
	ret = pfm_read_fetch(u, rd, n);
	if (ret)
		goto out;
	ret = pfm_read_pmd_vec(ctx, rd, n);
	if (!ret && pfm_flag_ops_reads(ctx))
		pfm_flag_ops_read(ctx, rd, n);	/* a layer's counts (flag_ops.c) */
	if (!ret)
		ret = pfm_read_give(u, rd, n);
out:
	if (rd != on_stack)
		kfree(rd);
	return ret;
}

/* size bytes of requests at uptr: the vector rules from the size on (args.h) */
long pfm_read_pmds_user(struct pfm_context *ctx, void __user *uptr, u64 size)
{
	unsigned int n;
	long ret;

	ret = pfm_vec_check_size(size, sizeof(struct pfarg_pmd));
	if (ret)
		return ret;
	/* the same division as the check's remainder: one multiply for both */
	n = size / sizeof(struct pfarg_pmd);
	if (n <= PFM_READ_AT_ONCE && likely(!pfm_flag_ops_reads(ctx)) &&
	    likely(pfm_read_at_once(ctx, uptr, n)))
		return 0;
	return pfm_read_long_way(ctx, uptr, n);
}
