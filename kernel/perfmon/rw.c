// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: pfm_write_pmcs(), pfm_write_pmds(), pfm_read_pmds().
 *
 * Each call checks the whole vector first and applies it only when every element is
 * valid, so a failed call changes nothing.  The writes are called with ctx->mutex
 * held, which keeps the set list stable; a read needs only ctx->lock, under which
 * the list changes too.
 */
#include "internal.h"
#include "ctx.h"
#include "smpl.h"
#include "env.h"
#include "flag_ops.h"
#include "pmu_state.h"
#include "pmu_type.h"
#include "rw.h"
#include "sets.h"
#include "state.h"
#include "sw_pmu.h"
#include "upage.h"

static bool pfm_all_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

static bool pfm_pmds_implemented(const u64 *bv)
{
	DECLARE_BITMAP(bits, PFM_MAX_PMDS);

	bitmap_from_arr64(bits, bv, PFM_MAX_PMDS);
	return bitmap_subset(bits, pfm_pmu.impl_pmds, PFM_MAX_PMDS);
}

/* Registers held by someone else (the NMI watchdog, perf_events) are not ours to write. */
struct pfm_avail {
	DECLARE_BITMAP(pmcs, PFM_NUM_PMCS);
	DECLARE_BITMAP(pmds, PFM_NUM_PMDS);
};

static int pfm_check_pmc(struct pfm_context *ctx, const struct pfarg_pmc *req,
			 const struct pfm_avail *avail)
{
	const struct pfm_reg *r;

	if (req->reg_num >= PFM_NUM_PMCS || !test_bit(req->reg_num, pfm_pmu.impl_pmcs))
		return -EINVAL;
	if (!pfm_find_set(ctx, req->reg_set))
		return -EINVAL;
	if (req->reg_flags & ~PFM_PMCFL_NO_EMUL64)
		return -EINVAL;
	if (!pfm_all_zero(req->reg_reserved2, sizeof(req->reg_reserved2)))
		return -EINVAL;
	r = &pfm_pmu.pmc[req->reg_num];
	/* raw export is of the PMDs the bit vectors name (the counts page's) */
	if ((req->reg_flags & PFM_PMCFL_NO_EMUL64) &&
	    (!(r->desc->type & PFM_REG_NO64) || req->reg_num >= PFM_MAX_PMCS))
		return -EINVAL;
	if (req->reg_value & r->desc->rsvd_msk)
		return -EINVAL;
	if (r->unit->pmc_check && r->unit->pmc_check(r->idx, req->reg_value))
		return -EINVAL;
	if (pfm_pmu_type_check_reg(ctx, false, req->reg_num, req->reg_value))
		return -EINVAL;
	if (!test_bit(req->reg_num, avail->pmcs))
		return -EBUSY;
	return pfm_access_pmc(r->desc, req->reg_value);
}

struct pfm_rw_args {
	void *req;
	unsigned int n;
	struct pfm_op_clock *clock;
};

/* The clock a write or a read was given, after it and in the same visit. */
static void pfm_op_clock_take(struct pfm_context *ctx, struct pfm_op_clock *clock)
{
	if (clock)
		pfm_sets_clock_locked(ctx, clock);
}

static void pfm_apply_pmcs(struct pfm_context *ctx, void *arg)
{
	struct pfm_rw_args *a = arg;
	struct pfarg_pmc *req = a->req;
	unsigned int k, pmd;

	for (k = 0; k < a->n; k++) {
		struct pfm_event_set *set = pfm_find_set(ctx, req[k].reg_set);

		*pfm_set_pmc(set, req[k].reg_num) = req[k].reg_value;
		__set_bit(req[k].reg_num, set->used_pmcs);
		pfm_pmc_update(ctx, set, req[k].reg_num);

		/* The PMDs this PMC controls come into use with it. */
		for (pmd = pfm_pmu.pmc[req[k].reg_num].dep_pmd; pmd != PFM_NO_REG;
		     pmd = pfm_pmu.pmd[pmd].dep_pmd) {
			if (req[k].reg_flags & PFM_PMCFL_NO_EMUL64)
				__set_bit(pmd, set->no_emul64);
			else if (pmd < PFM_MAX_PMDS)
				__clear_bit(pmd, set->no_emul64);
			if (!__test_and_set_bit(pmd, set->used_pmds))
				pfm_pmd_set_value(ctx, set, pmd, pfm_set_pmd(set, pmd)->value);
		}
	}
	pfm_pmu_hw_join_locked(ctx);
	/* what the page can show depends on the PMCs */
	pfm_upage_refresh(ctx);
	pfm_op_clock_take(ctx, a->clock);
}

/*
 * Whether a vector writes registers of a hardware unit (those that move at a
 * switch): the context then holds the hardware while attached (state.c).
 */
static bool pfm_pmcs_hw(const struct pfarg_pmc *req, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (test_bit(req[k].reg_num, pfm_pmu.moved_pmcs))
			return true;
	return false;
}

static bool pfm_pmds_hw(const struct pfarg_pmd *req, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (test_bit(req[k].reg_num, pfm_pmu.moved_pmds))
			return true;
	return false;
}

/* What the values in req need of each unit (pmu.h), in wants[unit index]. */
static void pfm_pmcs_wants(const struct pfarg_pmc *req, unsigned int n, u32 *wants)
{
	unsigned int k;

	for (k = 0; k < n; k++) {
		const struct pfm_reg *r = &pfm_pmu.pmc[req[k].reg_num];

		if (r->unit->pmc_needs)
			wants[pfm_pmu_unit_index(r->unit)] |=
				r->unit->pmc_needs(r->idx, req[k].reg_value);
	}
}

static void pfm_needs_put(const u32 *take, unsigned int nr_units)
{
	unsigned int u;

	for (u = 0; u < nr_units; u++)
		if (take[u])
			pfm_pmu.units[u]->needs_put(take[u]);
}

/* Takes take[u] of every unit u; a failure gives back what was taken. */
static int pfm_needs_get(const u32 *take)
{
	unsigned int u;
	int ret;

	for (u = 0; u < pfm_pmu.num_units; u++) {
		if (!take[u])
			continue;
		ret = pfm_pmu.units[u]->needs_get(take[u]);
		if (ret)
			goto err_put;
	}
	return 0;

err_put:
	pfm_needs_put(take, u);
	return ret;
}

/*
 * What the new values need of their units: noted for the next attach, and taken now
 * if attached, before the values are, so that no event goes uncounted.  A failure
 * changes nothing.  ctx->mutex held: only the thread's exit can detach meanwhile,
 * and what it could not give back (it was not held yet) is given back here.
 */
static int pfm_pmcs_needs(struct pfm_context *ctx, const struct pfarg_pmc *req, unsigned int n)
{
	u32 wants[PFM_MAX_UNITS] = {}, take[PFM_MAX_UNITS] = {};
	unsigned long flags;
	unsigned int u;
	bool held;
	int ret;

	pfm_pmcs_wants(req, n, wants);
	if (pfm_ctx_is_loaded(ctx)) {
		for (u = 0; u < pfm_pmu.num_units; u++)
			take[u] = wants[u] & ~READ_ONCE(ctx->unit_held[u]);
		ret = pfm_needs_get(take);
		if (ret)
			return ret;
		raw_spin_lock_irqsave(&ctx->lock, flags);
		held = pfm_ctx_is_loaded(ctx);
		if (held)
			for (u = 0; u < pfm_pmu.num_units; u++)
				ctx->unit_held[u] |= take[u];
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		if (!held)
			pfm_needs_put(take, pfm_pmu.num_units);
	}
	for (u = 0; u < pfm_pmu.num_units; u++)
		ctx->unit_wants[u] |= wants[u];
	return 0;
}

long pfm_write_pmcs_clocked(struct pfm_context *ctx, void *vec, unsigned int n,
			    struct pfm_op_clock *clock)
{
	struct pfarg_pmc *req = vec;
	struct pfm_rw_args a = { .req = req, .n = n, .clock = clock };
	struct pfm_avail avail;
	unsigned int k;
	int ret;

	pfm_pmu_avail(avail.pmcs, avail.pmds);
	for (k = 0; k < n; k++) {
		ret = pfm_check_pmc(ctx, &req[k], &avail);
		if (ret)
			return ret;
	}
	ret = pfm_sets_room_pmcs(ctx, req, n);
	if (ret)
		return ret;
	ret = pfm_sw_keyed_write_get(req, n);
	if (ret)
		return ret;
	if (pfm_pmcs_hw(req, n)) {
		ret = pfm_hw_claim(ctx);
		if (ret)
			goto err_keyed;
	}
	ret = pfm_pmcs_needs(ctx, req, n);
	if (ret)
		goto err_keyed;
	pfm_sw_keyed_write_replace(ctx, req, n);
	pfm_run_on_state(ctx, pfm_apply_pmcs, &a);
	pfm_flag_ops_pmcs(ctx, req, n);	/* a layer's copies of the context (flag_ops.c) */
	return 0;

err_keyed:
	pfm_sw_keyed_write_undo(req, n);
	return ret;
}

long pfm_write_pmcs(struct pfm_context *ctx, void *vec, unsigned int n)
{
	return pfm_write_pmcs_clocked(ctx, vec, n, NULL);
}

/*
 * What a read and a write both check: the PMD, its set, the flags, the reserved
 * field.  The set found is returned in *setp, so that the caller looks it up once.
 */
static __always_inline int pfm_check_pmd_fields(struct pfm_context *ctx, u16 num, u16 set_id,
						u32 flags, bool rsvd_zero,
						struct pfm_event_set **setp)
{
	if (!pfm_pmd_num_ok(num))
		return -EINVAL;
	*setp = pfm_vec_set(ctx, *setp, set_id);
	if (!*setp)
		return -EINVAL;
	if (pfm_pmd_flags_bad(flags))
		return -EINVAL;
	return rsvd_zero ? 0 : -EINVAL;
}

static int pfm_check_pmd(struct pfm_context *ctx, const struct pfarg_pmd *req)
{
	struct pfm_event_set *set = NULL;
	int ret;

	ret = pfm_check_pmd_fields(ctx, req->reg_num, req->reg_set, req->reg_flags,
				   pfm_all_zero(req->reg_reserved2,
						sizeof(req->reg_reserved2)), &set);
	if (ret)
		return ret;
	return pfm_pmu_type_check_reg(ctx, true, req->reg_num, 0);
}

static int pfm_check_pmd_write(struct pfm_context *ctx, const struct pfarg_pmd *req,
			       const struct pfm_avail *avail)
{
	const struct pfm_reg *r;
	int ret;

	ret = pfm_check_pmd(ctx, req);
	if (ret)
		return ret;
	r = &pfm_pmu.pmd[req->reg_num];
	if (r->desc->type & PFM_REG_RO)
		return -EINVAL;
	if (!test_bit(req->reg_num, avail->pmds))
		return -EBUSY;
	if (!pfm_pmds_implemented(req->reg_reset_pmds) ||
	    !pfm_pmds_implemented(req->reg_smpl_pmds))
		return -EINVAL;
	/*
	 * No bit vector names a PMD past them (a message, a sample, the counts
	 * page): it counts, and takes no part in overflow handling.
	 */
	if (req->reg_num >= PFM_MAX_PMDS &&
	    (req->reg_flags || req->reg_long_reset || req->reg_short_reset ||
	     req->reg_ovfl_switch_cnt || req->reg_random_mask || req->reg_smpl_eventid ||
	     !pfm_all_zero(req->reg_reset_pmds, sizeof(req->reg_reset_pmds)) ||
	     !pfm_all_zero(req->reg_smpl_pmds, sizeof(req->reg_smpl_pmds))))
		return -EINVAL;
	/* Samples go to the context's sampling buffer, or a layer's sink. */
	if ((req->reg_flags & PFM_PMDFL_SMPL) && !ctx->smpl.fmt && !ctx->sink)
		return -EINVAL;
	return 0;
}

static void pfm_apply_pmds(struct pfm_context *ctx, void *arg)
{
	struct pfm_rw_args *a = arg;
	struct pfarg_pmd *req = a->req;
	unsigned int k;

	for (k = 0; k < a->n; k++) {
		struct pfm_event_set *set = pfm_find_set(ctx, req[k].reg_set);
		unsigned int i = req[k].reg_num;
		struct pfm_pmd *p = pfm_set_pmd(set, i);

		p->flags = req[k].reg_flags;
		p->long_reset = req[k].reg_long_reset;
		p->short_reset = req[k].reg_short_reset;
		p->ovfl_switch_cnt = req[k].reg_ovfl_switch_cnt;
		/* no array: the request gives none of it (pfm_pmd_opts_get()) */
		if (set->opts) {
			struct pfm_pmd_opts *o = pfm_set_opts(set, i);

			memcpy(o->reset_pmds, req[k].reg_reset_pmds, sizeof(o->reset_pmds));
			memcpy(o->smpl_pmds, req[k].reg_smpl_pmds, sizeof(o->smpl_pmds));
			o->random_mask = req[k].reg_random_mask;
			o->smpl_eventid = req[k].reg_smpl_eventid;
		}
		__set_bit(i, set->used_pmds);
		pfm_pmd_replace_value(ctx, set, i, req[k].reg_value);
	}
	pfm_pmu_hw_join_locked(ctx);
	pfm_upage_refresh(ctx);
}

/* Whether a request gives a PMD anything of struct pfm_pmd_opts. */
static bool pfm_pmd_req_has_opts(const struct pfarg_pmd *req)
{
	return !pfm_all_zero(req->reg_reset_pmds, sizeof(req->reg_reset_pmds)) ||
	       !pfm_all_zero(req->reg_smpl_pmds, sizeof(req->reg_smpl_pmds)) ||
	       req->reg_random_mask || req->reg_smpl_eventid;
}

/*
 * The opts arrays of the sets whose PMDs the requests give any, made before the
 * write (it runs with interrupts off).  ctx->mutex held: the sets stay; the
 * array goes in under ctx->lock, where the overflow path reads it.
 */
static int pfm_pmd_opts_get(struct pfm_context *ctx, const struct pfarg_pmd *req,
			    unsigned int n)
{
	struct pfm_event_set *set;
	struct pfm_pmd_opts *m;
	unsigned long flags;
	unsigned int k;

	for (k = 0; k < n; k++) {
		if (!pfm_pmd_req_has_opts(&req[k]))
			continue;
		set = pfm_find_set(ctx, req[k].reg_set);
		if (set->opts)
			continue;
		m = kcalloc(set->pmd_slots, sizeof(*m), GFP_KERNEL);
		if (!m)
			return -ENOMEM;
		raw_spin_lock_irqsave(&ctx->lock, flags);
		set->opts = m;
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
	}
	return 0;
}

long pfm_write_pmds(struct pfm_context *ctx, void *vec, unsigned int n)
{
	struct pfarg_pmd *req = vec;
	struct pfm_rw_args a = { .req = req, .n = n };
	struct pfm_avail avail;
	unsigned int k;
	int ret;

	pfm_pmu_avail(avail.pmcs, avail.pmds);
	for (k = 0; k < n; k++) {
		ret = pfm_check_pmd_write(ctx, &req[k], &avail);
		if (ret)
			return ret;
	}
	if (pfm_pmds_hw(req, n)) {
		ret = pfm_hw_claim(ctx);
		if (ret)
			return ret;
	}
	ret = pfm_sets_room_pmds(ctx, req, n);
	if (ret)
		return ret;
	ret = pfm_pmd_opts_get(ctx, req, n);
	if (ret)
		return ret;
	pfm_run_on_state(ctx, pfm_apply_pmds, &a);
	return 0;
}

struct pfm_read_args {
	struct pfm_pmd_read *rd;
	unsigned int n;
	long ret;
	struct pfm_op_clock *clock;
};

static __always_inline void pfm_pmd_give(struct pfm_pmd_read *rd, const struct pfm_pmd *p)
{
	rd->value = p->value;
	rd->last_reset_val = p->last_reset_val;
	rd->ovfl_switch_cnt = p->ovfl_switch_cnt;
}

/*
 * The second pass of a read that asked for PMDs counting in registers, once every
 * element has passed its checks: a failed read reads no register and leaves no
 * overflow pending.
 */
static noinline void pfm_read_registers(struct pfm_context *ctx, struct pfm_pmd_read *rd,
					unsigned int n)
{
	struct pfm_pmd_read *end = rd + n;
	struct pfm_event_set *set = NULL;
	bool live = false;

	for (; rd < end; rd++) {
		struct pfm_event_set *last = set;
		unsigned int i = rd->h.num;

		set = pfm_vec_set(ctx, set, rd->h.set_id);
		if (set != last)
			live = pfm_live(ctx, set);
		if (live && pfm_pmd_in_register(set, i)) {
			pfm_pmd_sync(set, i);
			pfm_pmd_give(rd, pfm_set_pmd_read(set, i));
		}
	}
}

/*
 * With ctx->lock held where the state is, each element checked as
 * pfm_check_pmd_fields() checks it (the reserved field was, at the fetch) and
 * read in the same pass, but for the PMDs that a live set counts in registers:
 * those are read in a second pass, after every check.  A unit counting into the
 * live set's memory brings its PMDs up to date at once, when the set first shows
 * up in the vector (a set seen again after another is synced again: harmless,
 * and vectors seldom mix sets); that only moves time owed into the count, which
 * reads the same either way, and marks a carry it finds pending, as any read's
 * does: a failed read may have done it.
 */
static __always_inline long __pfm_read_locked(struct pfm_context *ctx, struct pfm_pmd_read *rd,
					      unsigned int n)
{
	struct pfm_pmd_read *r, *end = rd + n;
	struct pfm_event_set *set = NULL;
	bool moves = false, regs = false;

	for (r = rd; r < end; r++) {
		struct pfm_event_set *last = set;
		unsigned int i = r->h.num;

		if (unlikely(pfm_check_pmd_fields(ctx, i, r->h.set_id, r->h.flags, true, &set)))
			return -EINVAL;
		if (unlikely(set != last))
			moves = pfm_read_ready_set(ctx, set);
		if (unlikely(moves && pfm_pmd_in_register(set, i))) {
			regs = true;
			continue;
		}
		pfm_pmd_give(r, pfm_set_pmd_read(set, i));
	}
	if (unlikely(regs))
		pfm_read_registers(ctx, rd, n);
	return 0;
}

static void pfm_read_locked(struct pfm_context *ctx, void *arg)
{
	struct pfm_read_args *a = arg;

	a->ret = __pfm_read_locked(ctx, a->rd, a->n);
	if (!a->ret)
		pfm_op_clock_take(ctx, a->clock);
}

/* Out of line: the usual read, its state here, sets no arguments up on the stack. */
static noinline long pfm_read_there(struct pfm_context *ctx, struct pfm_pmd_read *rd,
				    unsigned int n)
{
	struct pfm_read_args a = { .rd = rd, .n = n };

	pfm_run_on_state(ctx, pfm_read_locked, &a);
	return a.ret;
}

/*
 * The read itself, on what a read takes of each request and gives back.  It needs
 * no ctx->mutex: the set list changes under ctx->lock too (sets.c), and the rest of
 * what it reads is the state's, under ctx->lock.
 */
long pfm_read_pmd_vec(struct pfm_context *ctx, struct pfm_pmd_read *rd, unsigned int n)
{
	unsigned long flags;
	long ret;

	/* pfm_run_on_state(), without its indirect call when the state is here */
	raw_spin_lock_irqsave(&ctx->lock, flags);
	if (likely(pfm_state_here(ctx))) {
		ret = __pfm_read_locked(ctx, rd, n);
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		return ret;
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return pfm_read_there(ctx, rd, n);
}

long pfm_read_pmd_vec_clocked(struct pfm_context *ctx, struct pfm_pmd_read *rd,
			      unsigned int n, struct pfm_op_clock *clock)
{
	struct pfm_read_args a = { .rd = rd, .n = n, .clock = clock };

	pfm_run_on_state(ctx, pfm_read_locked, &a);
	return a.ret;
}

/* A vector of whole pfarg_pmd in kernel memory (the perf_event emulation's reads). */
long pfm_read_pmds(struct pfm_context *ctx, void *vec, unsigned int n)
{
	struct pfarg_pmd *req = vec;
	struct pfm_pmd_read *rd;
	unsigned int k;
	long ret;

	for (k = 0; k < n; k++)
		if (!pfm_all_zero(req[k].reg_reserved2, sizeof(req[k].reg_reserved2)))
			return -EINVAL;
	rd = kcalloc(n, sizeof(*rd), GFP_KERNEL);
	if (!rd)
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		rd[k].h.num = req[k].reg_num;
		rd[k].h.set_id = req[k].reg_set;
		rd[k].h.flags = req[k].reg_flags;
	}
	ret = pfm_read_pmd_vec(ctx, rd, n);
	for (k = 0; !ret && k < n; k++) {
		req[k].reg_value = rd[k].value;
		req[k].reg_last_reset_val = rd[k].last_reset_val;
		req[k].reg_ovfl_switch_cnt = rd[k].ovfl_switch_cnt;
	}
	kfree(rd);
	return ret;
}
