// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: event sets, the software image of the whole PMU.
 */
#include "internal.h"
#include "flag_ops.h"
#include "args.h"
#include "ctx.h"
#include "env.h"
#include "switch.h"
#include "pmu_state.h"
#include "pmu_type.h"
#include "sets.h"
#include "sw_pmu.h"
#include "upage.h"

/* kmalloc would round a set's struct up by half */
PFM_DEFINE_CACHE(pfm_set_cache, pfm_event_set)

/*
 * A fresh set holds every PMC at its quiescent value and every PMD at zero, in
 * no arrays yet: its writes make them (set_room.c).  It belongs to a context of
 * the kind system_wide says, and so to that bank.
 */
struct pfm_event_set *pfm_set_alloc(u16 id, bool system_wide)
{
	struct pfm_event_set *set;

	set = kmem_cache_zalloc(pfm_set_cache, GFP_KERNEL);
	if (!set)
		return NULL;
	set->id = id;
	set->system_wide = system_wide;
	set->used_pmcs = set->used_bv[0];
	set->used_pmds = set->used_bv[1];
	set->used_bits = PFM_MAX_PMDS;
	INIT_LIST_HEAD(&set->list);
	pfm_set_pmcs_changed(set);
	return set;
}

void pfm_set_free(struct pfm_event_set *set)
{
	if (!set)
		return;
	pfm_sw_keyed_set_free(set);
	kfree(set->pmcs);
	kfree(set->pmds);
	kfree(set->opts);
	if (set->used_pmcs != set->used_bv[0])
		kfree(set->used_pmcs);
	kmem_cache_free(pfm_set_cache, set);
}

struct pfm_event_set *pfm_find_set(struct pfm_context *ctx, u16 id)
{
	struct pfm_event_set *set;

	list_for_each_entry(set, &ctx->sets, list) {
		if (set->id == id)
			return set;
		if (set->id > id)
			break;
	}
	return NULL;
}

void pfm_free_sets(struct pfm_context *ctx)
{
	struct pfm_event_set *set, *tmp;

	list_for_each_entry_safe(set, tmp, &ctx->sets, list) {
		list_del(&set->list);
		pfm_set_free(set);
	}
}

struct pfm_event_set *pfm_first_set(struct pfm_context *ctx)
{
	return list_first_entry(&ctx->sets, struct pfm_event_set, list);
}

/* Round-robin in id order. */
struct pfm_event_set *pfm_next_set(struct pfm_context *ctx, struct pfm_event_set *set)
{
	if (list_is_last(&set->list, &ctx->sets))
		return pfm_first_set(ctx);
	return list_next_entry(set, list);
}

static void pfm_insert_set(struct pfm_context *ctx, struct pfm_event_set *new)
{
	struct pfm_event_set *set;

	list_for_each_entry(set, &ctx->sets, list) {
		if (set->id > new->id) {
			list_add_tail(&new->list, &set->list);
			return;
		}
	}
	list_add_tail(&new->list, &ctx->sets);
}

#define PFM_SETFL_ALL \
	(PFM_SETFL_OVFL_SWITCH | PFM_SETFL_TIME_SWITCH | PFM_SETFL_RANDOM_TIMEOUT)

/* Below this a switch timer (switch.c) would do little but switch. */
#define PFM_MIN_TIMEOUT_NS	10000ULL

u64 pfm_timer_resolution_ns(void)
{
	return max_t(u64, hrtimer_resolution, PFM_MIN_TIMEOUT_NS);
}

/* The timeout the timer can honour: rounded up to its resolution. */
static u64 pfm_effective_timeout(u64 ns)
{
	u64 res = pfm_timer_resolution_ns();

	if (!ns)
		return 0;
	if (ns > U64_MAX - res)
		return U64_MAX / res * res;
	return DIV_ROUND_UP_ULL(ns, res) * res;
}

/*
 * A random timeout needs a timer to randomise and a range for it that leaves every
 * run at least the shortest timeout the timer honours.
 */
static int pfm_check_random_timeout(const struct pfarg_setdesc *d)
{
	u64 eff;

	if (!(d->set_flags & PFM_SETFL_RANDOM_TIMEOUT))
		return d->set_timeout_mask ? -EINVAL : 0;
	if (!(d->set_flags & PFM_SETFL_TIME_SWITCH) || !d->set_timeout_mask)
		return -EINVAL;
	eff = pfm_effective_timeout(d->set_timeout);
	if (d->set_timeout_mask >= eff ||
	    eff - d->set_timeout_mask < pfm_timer_resolution_ns())
		return -EINVAL;
	return 0;
}

static int pfm_check_setdesc(const struct pfarg_setdesc *d)
{
	if (d->set_flags & ~PFM_SETFL_ALL)
		return -EINVAL;
	if (d->set_reserved1 || memchr_inv(d->set_reserved2, 0, sizeof(d->set_reserved2)))
		return -EINVAL;
	if ((d->set_flags & PFM_SETFL_TIME_SWITCH) && !d->set_timeout)
		return -EINVAL;
	return pfm_check_random_timeout(d);
}

static void pfm_create_evtsets_abort(struct pfm_event_set **fresh, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		pfm_set_free(fresh[k]);
	kfree(fresh);
}

/*
 * The sets req[0..n) names that do not exist yet, allocated into fresh[k], and each
 * request's answer (its effective timeout) filled in: nothing of ctx changes yet.
 */
static long pfm_create_evtsets_prepare(struct pfm_context *ctx, struct pfarg_setdesc *req,
				       unsigned int n, struct pfm_event_set ***freshp)
{
	struct pfm_event_set **fresh;
	unsigned int k, j;
	int ret;

	if (ctx->state != PFM_CTX_UNLOADED)
		return -EBUSY;
	for (k = 0; k < n; k++) {
		ret = pfm_check_setdesc(&req[k]);
		if (ret)
			return ret;
	}
	fresh = kcalloc(n, sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		req[k].set_timeout = pfm_effective_timeout(req[k].set_timeout);
		if (pfm_find_set(ctx, req[k].set_id))
			continue;
		for (j = 0; j < k; j++)
			if (fresh[j] && fresh[j]->id == req[k].set_id)
				break;
		if (j < k)
			continue;
		fresh[k] = pfm_set_alloc(req[k].set_id, pfm_ctx_system_wide(ctx));
		if (!fresh[k]) {
			pfm_create_evtsets_abort(fresh, n);
			return -ENOMEM;
		}
	}
	*freshp = fresh;
	return 0;
}

/* What pfm_create_evtsets_prepare() made ready goes in: this cannot fail. */
static void pfm_create_evtsets_commit(struct pfm_context *ctx, const struct pfarg_setdesc *req,
				      unsigned int n, struct pfm_event_set **fresh)
{
	unsigned long flags;
	unsigned int k;

	/* the list changes under ctx->lock too: a read walks it under that alone (rw.c) */
	raw_spin_lock_irqsave(&ctx->lock, flags);
	for (k = 0; k < n; k++)
		if (fresh[k])
			pfm_insert_set(ctx, fresh[k]);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	for (k = 0; k < n; k++) {
		struct pfm_event_set *set = pfm_find_set(ctx, req[k].set_id);

		set->flags = req[k].set_flags;
		set->timeout_ns = req[k].set_timeout;
		set->timeout_mask = req[k].set_timeout_mask;
		set->timeout_left_ns = set->timeout_ns;
	}
	kfree(fresh);
}

/* For the layers, ctx->mutex held: req's answers are filled in. */
long pfm_create_evtsets(struct pfm_context *ctx, void *vec, unsigned int n)
{
	struct pfm_event_set **fresh;
	long ret;

	ret = pfm_create_evtsets_prepare(ctx, vec, n, &fresh);
	if (!ret)
		pfm_create_evtsets_commit(ctx, vec, n, fresh);
	return ret;
}

/*
 * The system call: the answers are copied out before the sets change, so that a
 * vector the caller cannot be answered in (EFAULT) changes nothing.
 */
long pfm_create_evtsets_user(struct pfm_context *ctx, void __user *uptr, u64 size)
{
	struct pfm_event_set **fresh;
	struct pfarg_setdesc *req;
	unsigned int n;
	long ret;

	req = pfm_vec_copy_in(uptr, size, sizeof(*req));
	if (IS_ERR(req))
		return PTR_ERR(req);
	n = size / sizeof(*req);
	mutex_lock(&ctx->mutex);
	ret = pfm_create_evtsets_prepare(ctx, req, n, &fresh);
	if (!ret) {
		ret = pfm_vec_copy_out(uptr, req, size);
		if (ret)
			pfm_create_evtsets_abort(fresh, n);
		else
			pfm_create_evtsets_commit(ctx, req, n, fresh);
	}
	mutex_unlock(&ctx->mutex);
	kfree(req);
	return ret;
}

/* Only while detached; at least one set must remain. */
long pfm_delete_evtsets(struct pfm_context *ctx, void *vec, unsigned int n)
{
	struct pfarg_setdesc *req = vec;
	struct pfm_event_set *set, *tmp;
	unsigned int k, j, nr_sets = 0;
	unsigned long flags;
	LIST_HEAD(gone);

	if (ctx->state != PFM_CTX_UNLOADED)
		return -EBUSY;
	list_for_each_entry(set, &ctx->sets, list)
		nr_sets++;
	for (k = 0; k < n; k++) {
		if (req[k].set_flags || req[k].set_timeout || req[k].set_timeout_mask ||
		    req[k].set_reserved1 ||
		    memchr_inv(req[k].set_reserved2, 0, sizeof(req[k].set_reserved2)))
			return -EINVAL;
		if (!pfm_find_set(ctx, req[k].set_id))
			return -EINVAL;
		for (j = 0; j < k; j++)
			if (req[j].set_id == req[k].set_id)
				return -EINVAL;
	}
	if (n >= nr_sets)
		return -EBUSY;
	/* off the list under ctx->lock (a read walks it under that alone), freed after */
	raw_spin_lock_irqsave(&ctx->lock, flags);
	list_for_each_entry_safe(set, tmp, &ctx->sets, list) {
		for (k = 0; k < n; k++)
			if (req[k].set_id == set->id)
				break;
		if (k == n)
			continue;
		if (ctx->active == set)
			ctx->active = NULL;
		/* The live time stays the sum of the durations of the sets there are. */
		ctx->live_ns -= set->duration_ns;
		list_move(&set->list, &gone);
	}
	/* the counts page may have shown a deleted set (unloaded: nothing is live) */
	pfm_upage_refresh(ctx);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	list_for_each_entry_safe(set, tmp, &gone, list)
		pfm_set_free(set);
	return 0;
}

struct pfm_info_args {
	struct pfarg_setinfo *req;
	unsigned int n;
	const unsigned long *avail_pmcs;
	const unsigned long *avail_pmds;
};

/* A live set's duration grows from the stamp of its going live on. */
static u64 pfm_set_act_duration(const struct pfm_context *ctx, const struct pfm_event_set *set)
{
	if (pfm_live(ctx, set))
		return set->duration_ns + pfm_live_elapsed(ctx);
	return set->duration_ns;
}

void pfm_sets_clock_locked(struct pfm_context *ctx, struct pfm_op_clock *clock)
{
	struct pfm_event_set *set;
	unsigned int i;

	lockdep_assert_held(&ctx->lock);
	for (i = 0; i < clock->n; i++) {
		set = pfm_find_set(ctx, i);
		clock->set_ns[i] = set ? pfm_set_act_duration(ctx, set) : 0;
	}
	if (clock->with)
		clock->with(ctx, clock);
	clock->taken = true;
}

static void pfm_sets_clock_fn(struct pfm_context *ctx, void *arg)
{
	pfm_sets_clock_locked(ctx, arg);
}

void pfm_sets_clock(struct pfm_context *ctx, struct pfm_op_clock *clock)
{
	pfm_run_on_state(ctx, pfm_sets_clock_fn, clock);
}

static void pfm_fill_setinfo(struct pfm_context *ctx, void *arg)
{
	struct pfm_info_args *a = arg;
	unsigned int k;

	for (k = 0; k < a->n; k++) {
		struct pfarg_setinfo *r = &a->req[k];
		struct pfm_event_set *set = pfm_find_set(ctx, r->set_id);
		u64 timeout = set->timeout_ns;

		if (set == ctx->active && ctx->started) {
			timeout = set->timeout_left_ns;
			if (pfm_live(ctx, set) && (set->flags & PFM_SETFL_TIME_SWITCH))
				timeout -= min(timeout, pfm_live_elapsed(ctx));
		}
		r->set_flags = set->flags;
		bitmap_to_arr64(r->set_ovfl_pmds, set->ovfl_pmds, PFM_MAX_PMDS);
		r->set_runs = set->runs;
		r->set_timeout = timeout;
		r->set_act_duration = pfm_set_act_duration(ctx, set);
		bitmap_to_arr64(r->set_avail_pmcs, a->avail_pmcs, PFM_MAX_PMCS);
		bitmap_to_arr64(r->set_avail_pmds, a->avail_pmds, PFM_MAX_PMDS);
	}
}

long pfm_getinfo_evtsets(struct pfm_context *ctx, void *vec, unsigned int n)
{
	struct pfarg_setinfo *req = vec;
	DECLARE_BITMAP(pmcs, PFM_NUM_PMCS);
	DECLARE_BITMAP(pmds, PFM_NUM_PMDS);
	struct pfm_info_args a = { .req = req, .n = n, .avail_pmcs = pmcs, .avail_pmds = pmds };
	unsigned int k;

	for (k = 0; k < n; k++) {
		if (req[k].set_reserved1 ||
		    memchr_inv(req[k].set_reserved3, 0, sizeof(req[k].set_reserved3)))
			return -EINVAL;
		if (!pfm_find_set(ctx, req[k].set_id))
			return -EINVAL;
	}
	pfm_pmu_avail(pmcs, pmds);
	pfm_pmu_type_avail(ctx, pmcs, pmds);
	pfm_run_on_state(ctx, pfm_fill_setinfo, &a);
	pfm_flag_ops_setinfo(ctx, req, n);
	return 0;
}

/* A layer's time for set (layer.h), beside its own: ctx->lock held, where the state is. */
void pfm_set_add_duration(struct pfm_event_set *set, u64 ns)
{
	set->duration_ns += ns;
}
