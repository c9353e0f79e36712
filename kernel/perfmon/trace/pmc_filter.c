// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: pfm_write_pmc_filter(), a trace event's filter on a context's PMC: the
 * trace layer's call (layer.h: pfm_entry_register()), so that a perfmon session
 * filters a TRACEPOINT counter as the perf layer's SET_FILTER does.
 *
 * The call is one PMC write: req names a software PMC and a TRACEPOINT event whose
 * key is a tracefs id; the source gives a key of its own for the id's hits that
 * pass the filter (held once), req is written with that key in the id's place by
 * the core's own write (which holds the key for as long as the value is in its
 * set, and checks everything it checks for pfm_write_pmcs()), and the call's hold
 * is given back.  Copies the inherit layer makes of the value hold the key too.
 *
 * Errors, nothing changed: EBADF (fd), EFAULT (req or filter unreadable), EINVAL
 * for a filter longer than a page, a PMC that is not the software PMU's, an event
 * that is not TRACEPOINT, a key that is already a filtered one, a filter the
 * kernel's parser refuses (its errno, as perf's SET_FILTER gets it) or a
 * kernel where the parser cannot be reached (filter.c); the write's errnos.
 */
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "layer.h"
#include "pmc_filter.h"

/* a software PMC counting TRACEPOINT on a tracefs id: the id, or -EINVAL */
static long pfm_tp_req_id(const struct pfarg_pmc *req)
{
	u32 key = PFM_SW_PMC_KEY(req->reg_value);

	if (req->reg_num < PFM_SW_FIRST_PMC ||
	    req->reg_num >= PFM_SW_FIRST_PMC + PFM_SW_NUM_COUNTERS ||
	    (req->reg_value & PFM_SW_PMC_EVENT_MASK) != PFM_SW_EV_TRACEPOINT ||
	    key >= PFM_SW_TP_FILTERED)
		return -EINVAL;
	return key;
}

static long pfm_tp_write_pmc_filter(const struct pfm_args *args)
{
	const char __user *ufilter = (const char __user *)args->a[2];
	struct pfarg_pmc __user *ureq = (void __user *)args->a[1];
	struct pfm_context *ctx;
	struct pfarg_pmc req;
	struct fd f;
	char *filter;
	long ret, id;
	u32 fkey;

	ctx = pfm_ctx_fdget((int)args->a[0], &f);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = -EFAULT;
	if (copy_from_user(&req, ureq, sizeof(req)))
		goto out_ctx;
	filter = strndup_user(ufilter, PAGE_SIZE);
	if (IS_ERR(filter)) {
		ret = PTR_ERR(filter);
		goto out_ctx;
	}
	ret = id = pfm_tp_req_id(&req);
	if (id < 0)
		goto out_filter;
	ret = pfm_sw_keyed_filter(PFM_SW_EV_TRACEPOINT, id, filter, &fkey);
	if (ret)
		goto out_filter;
	req.reg_value = (req.reg_value & ~PFM_SW_PMC_KEY_MASK) |
			((u64)fkey << PFM_SW_PMC_KEY_SHIFT);
	mutex_lock(pfm_ctx_mutex(ctx));
	ret = pfm_write_pmcs(ctx, &req, 1);
	mutex_unlock(pfm_ctx_mutex(ctx));
	pfm_sw_keyed_put(PFM_SW_EV_TRACEPOINT, fkey);
out_filter:
	kfree(filter);
out_ctx:
	fdput(f);
	return ret;
}

int pfm_tp_pmc_filter_init(void)
{
	return pfm_entry_register(PFM_CALL_WRITE_PMC_FILTER, pfm_tp_write_pmc_filter);
}

void pfm_tp_pmc_filter_exit(void)
{
	pfm_entry_unregister(PFM_CALL_WRITE_PMC_FILTER);
}
