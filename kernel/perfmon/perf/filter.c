// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: PERF_EVENT_IOC_SET_FILTER on a tracepoint event, in the tracefs
 * filter language.
 *
 * A tracepoint event counts on a software counter whose PMC names the TRACEPOINT
 * event and a key (event.c): the tracefs id.  A filter asks the tracepoint's
 * source for a key of its own, whose hits are the id's that pass the filter as
 * the kernel's filter code judges them (pfm_sw_keyed_filter(), the trace layer),
 * and the event's counter is rewritten in place with that key: the count goes
 * on, now of the matching hits only, and copies inherited from then on take the
 * same key.  The event holds the key until it is freed.
 *
 * As 6.1's perf_event_set_filter() and ftrace_profile_set_filter(): the string
 * is read first (EFAULT), an event that is not a tracepoint is EINVAL, a second
 * filter EEXIST, a filter the parser refuses its errno (EINVAL).  Not as 6.1
 * (perfmon_perf.h): an event whose counter is shared with another event of the
 * thread (perfmon shares the counter of equal events), or that already has
 * inherited copies, is EBUSY, since rewriting the counter would filter the other
 * event too, and the copies count on counters of their own.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "layer.h"
#include "event.h"
#include "file.h"
#include "inherit.h"

/* ev's counter, in every set it is in, is its own (ctx->mutex held). */
static bool pfm_perf_filter_alone(struct pfm_perf_event *ev)
{
	struct pfm_perf_target *t = ev->target;
	unsigned int s;

	for (s = 0; ev->counter >= 0 && s < t->nr_sets; s++)
		if (pfm_perf_in_set(ev, s) && t->sets[s]->counters[ev->counter].users > 1)
			return false;
	return true;
}

/* Counter i of set s programmed as it now is (its value, on or off). */
static int pfm_perf_filter_write(struct pfm_perf_target *t, unsigned int s, unsigned int i)
{
	struct pfarg_pmc req;

	pfm_perf_counters_req(t->sets[s]->counters, NULL, PFM_PERF_COUNTER(i), &req);
	req.reg_set = s;
	return pfm_write_pmcs(t->ctx, &req, 1);
}

/* ev's counter takes pmc in every set it is in, or none does (ctx->mutex held). */
static int pfm_perf_filter_rekey(struct pfm_perf_event *ev, u64 pmc)
{
	struct pfm_perf_target *t = ev->target;
	unsigned int s, u;
	u64 was = ev->pmc;
	int ret;

	for (s = 0; ev->counter >= 0 && s < t->nr_sets; s++) {
		if (!pfm_perf_in_set(ev, s))
			continue;
		/* read by a cgroup's gate under ctx->lock (cgroup.c) */
		WRITE_ONCE(t->sets[s]->counters[ev->counter].pmc, pmc);
		ret = pfm_perf_filter_write(t, s, ev->counter);
		if (ret)
			goto undo;
	}
	if (ev->counter >= 0)
		ev->pmc = pmc;
	ev->enc.pmc = pmc;
	return 0;

undo:
	for (u = 0; u <= s; u++) {
		if (!pfm_perf_in_set(ev, u))
			continue;
		WRITE_ONCE(t->sets[u]->counters[ev->counter].pmc, was);
		if (u < s)
			pfm_perf_filter_write(t, u, ev->counter);
	}
	return ret;
}

static long pfm_perf_filter_set(struct pfm_perf_event *ev, const char *filter)
{
	u32 fkey;
	u64 pmc;
	int ret;

	if (ev->tp_fkey)
		return -EEXIST;
	ret = pfm_sw_keyed_filter(PFM_SW_EV_TRACEPOINT, (u32)ev->attr.config, filter, &fkey);
	if (ret)
		return ret == -ENOENT || ret == -EOPNOTSUPP ? -EINVAL : ret;
	ret = -EBUSY;
	if (!list_empty(&ev->children) || !pfm_perf_filter_alone(ev))
		goto err_put;
	pmc = (ev->enc.pmc & ~PFM_SW_PMC_KEY_MASK) | ((u64)fkey << PFM_SW_PMC_KEY_SHIFT);
	ret = pfm_perf_filter_rekey(ev, pmc);
	if (ret)
		goto err_put;
	ev->tp_fkey = fkey;
	/* the write put the counter on as it counts: a cgroup's gate says where */
	pfm_perf_cgroup_sync(ev->target);
	return 0;

err_put:
	pfm_sw_keyed_put(PFM_SW_EV_TRACEPOINT, fkey);
	return ret;
}

/* PERF_EVENT_IOC_SET_FILTER */
long pfm_perf_ioc_set_filter(struct pfm_perf_event *ev, const char __user *arg)
{
	struct pfm_context *ctx = ev->target->ctx;
	char *filter;
	long ret;

	filter = strndup_user(arg, PAGE_SIZE);
	if (IS_ERR(filter))
		return PTR_ERR(filter);
	ret = -EINVAL;		/* neither a tracepoint nor an address filter */
	if (ev->attr.type != PERF_TYPE_TRACEPOINT)
		goto out;
	/* the family lock keeps copies from being made meanwhile (inherit.c) */
	mutex_lock(&pfm_perf_family_mutex);
	mutex_lock(pfm_ctx_mutex(ctx));
	ret = pfm_perf_filter_set(ev, filter);
	mutex_unlock(pfm_ctx_mutex(ctx));
	mutex_unlock(&pfm_perf_family_mutex);
out:
	kfree(filter);
	return ret;
}

/* An inherited copy counts what its opened event's filter lets through. */
void pfm_perf_filter_inherit(struct pfm_perf_event *copy)
{
	if (copy->parent && copy->parent->tp_fkey)
		copy->enc.pmc = copy->parent->enc.pmc;
}

/* The opened event is freed: its filter's key goes with it. */
void pfm_perf_filter_release(struct pfm_perf_event *ev)
{
	if (ev->tp_fkey)
		pfm_sw_keyed_put(PFM_SW_EV_TRACEPOINT, ev->tp_fkey);
	ev->tp_fkey = 0;
}
