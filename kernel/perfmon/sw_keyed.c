// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the software PMU's keyed events (perfmon_sw.h: TRACEPOINT, BREAKPOINT),
 * whose hits come from sources outside it.
 *
 * A source is a layer that registers for an event (layer.h, struct
 * pfm_sw_keyed_ops): the core stays free of what it watches, and any session, a
 * native one as well as the perf layer's, counts what it feeds.  The source is
 * held once by every PMC value that names its event and a key, from the write
 * that puts the value in a set until the value is gone, so that it watches only
 * what some set may count and a bad key is refused by the write that names it.
 * The counting itself is the software PMU's (sw_pmu.c, pfm_sw_count_keyed()); the
 * source may hand the sampling format what it knows of the hit (the payload).
 */
#include "internal.h"
#include "ctx.h"
#include "env.h"
#include "sets.h"
#include "sw_pmu.h"

#define PFM_SW_NR_KEYED	(PFM_SW_EV_BREAKPOINT - PFM_SW_EV_TRACEPOINT + 1)

/*
 * Set by a layer's init, cleared by its exit (main.c runs them one at a time): no
 * context exists outside of those.
 */
static const struct pfm_sw_keyed_ops *pfm_sw_sources[PFM_SW_NR_KEYED];

static const struct pfm_sw_keyed_ops **pfm_sw_source(unsigned int event)
{
	return &pfm_sw_sources[event - PFM_SW_EV_TRACEPOINT];
}

int pfm_sw_keyed_register(unsigned int event, const struct pfm_sw_keyed_ops *ops)
{
	if (!pfm_sw_keyed(event) || !ops || !ops->get || !ops->put)
		return -EINVAL;
	if (*pfm_sw_source(event))
		return -EBUSY;
	WRITE_ONCE(*pfm_sw_source(event), ops);
	return 0;
}

void pfm_sw_keyed_unregister(unsigned int event, const struct pfm_sw_keyed_ops *ops)
{
	if (pfm_sw_keyed(event) && *pfm_sw_source(event) == ops)
		WRITE_ONCE(*pfm_sw_source(event), NULL);
}

static bool pfm_sw_is_pmc(unsigned int reg_num)
{
	return reg_num >= PFM_SW_FIRST_PMC && reg_num < PFM_SW_FIRST_PMC + PFM_SW_NUM_COUNTERS;
}

/* The keyed event a value names on a software PMC, or 0. */
static unsigned int pfm_sw_keyed_event(unsigned int reg_num, u64 value)
{
	unsigned int ev = value & PFM_SW_PMC_EVENT_MASK;

	return pfm_sw_is_pmc(reg_num) && pfm_sw_keyed(ev) ? ev : 0;
}

static int pfm_sw_keyed_hold(unsigned int reg_num, u64 value)
{
	unsigned int ev = pfm_sw_keyed_event(reg_num, value);
	const struct pfm_sw_keyed_ops *ops;

	if (!ev)
		return 0;
	ops = READ_ONCE(*pfm_sw_source(ev));
	if (!ops)
		return -ENOENT;
	return ops->get(ev, PFM_SW_PMC_KEY(value));
}

static void pfm_sw_keyed_release(unsigned int reg_num, u64 value)
{
	unsigned int ev = pfm_sw_keyed_event(reg_num, value);
	const struct pfm_sw_keyed_ops *ops;

	if (!ev)
		return;
	ops = READ_ONCE(*pfm_sw_source(ev));
	if (ops)
		ops->put(ev, PFM_SW_PMC_KEY(value));
}

int pfm_sw_keyed_filter(unsigned int event, u32 key, const char *filter, u32 *fkey)
{
	const struct pfm_sw_keyed_ops *ops;

	if (!pfm_sw_keyed(event))
		return -EINVAL;
	ops = READ_ONCE(*pfm_sw_source(event));
	if (!ops)
		return -ENOENT;
	if (!ops->filter)
		return -EOPNOTSUPP;
	return ops->filter(event, key, filter, fkey);
}

int pfm_sw_keyed_any_user(unsigned int event, u32 key)
{
	const struct pfm_sw_keyed_ops *ops;

	if (!pfm_sw_keyed(event))
		return 0;
	ops = READ_ONCE(*pfm_sw_source(event));
	return ops && ops->any_user ? ops->any_user(event, key) : 0;
}

void pfm_sw_keyed_put(unsigned int event, u32 key)
{
	const struct pfm_sw_keyed_ops *ops;

	if (!pfm_sw_keyed(event))
		return;
	ops = READ_ONCE(*pfm_sw_source(event));
	if (ops)
		ops->put(event, key);
}

/* The hold of every value in req (checked): 0, or the first refusal with none held. */
int pfm_sw_keyed_write_get(const struct pfarg_pmc *req, unsigned int n)
{
	unsigned int k;
	int ret;

	for (k = 0; k < n; k++) {
		ret = pfm_sw_keyed_hold(req[k].reg_num, req[k].reg_value);
		if (ret)
			goto err_undo;
	}
	return 0;

err_undo:
	pfm_sw_keyed_write_undo(req, k);
	return ret;
}

/* A write that failed after pfm_sw_keyed_write_get() gives its holds back. */
void pfm_sw_keyed_write_undo(const struct pfarg_pmc *req, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		pfm_sw_keyed_release(req[k].reg_num, req[k].reg_value);
}

static bool pfm_sw_same_reg(const struct pfarg_pmc *a, const struct pfarg_pmc *b)
{
	return a->reg_num == b->reg_num && a->reg_set == b->reg_set;
}

/*
 * Just before req (held, checked) is applied, ctx->mutex held: the values it
 * replaces let go of their keys, the sets' present ones and those an element later
 * in the same vector overwrites.  Nothing but a write changes a PMC's event or key,
 * so the sets' values are the ones the apply will replace.
 */
void pfm_sw_keyed_write_replace(struct pfm_context *ctx, const struct pfarg_pmc *req,
				unsigned int n)
{
	unsigned int k, j;

	for (k = 0; k < n; k++) {
		struct pfm_event_set *set;

		if (!pfm_sw_is_pmc(req[k].reg_num))
			continue;
		for (j = 0; j < k && !pfm_sw_same_reg(&req[j], &req[k]); j++)
			;
		if (j == k) {
			set = pfm_find_set(ctx, req[k].reg_set);
			if (set)
				pfm_sw_keyed_release(req[k].reg_num,
						     pfm_set_pmc_val(set, req[k].reg_num));
		}
		for (j = k + 1; j < n && !pfm_sw_same_reg(&req[j], &req[k]); j++)
			;
		if (j < n)
			pfm_sw_keyed_release(req[k].reg_num, req[k].reg_value);
	}
}

/*
 * A set going away lets go of the keys its values hold: only a written PMC
 * holds one (a quiescent value has no event).
 */
void pfm_sw_keyed_set_free(const struct pfm_event_set *set)
{
	unsigned int i = PFM_SW_FIRST_PMC;

	if (!set->pmcs)
		return;
	/* a PMU without the software unit (the host tests' bare ones) has no slot for it */
	for_each_set_bit_from(i, set->used_pmcs,
			      min_t(unsigned int, set->used_bits, PFM_SW_FIRST_PMC + PFM_SW_NUM_COUNTERS))
		if (test_bit(i, pfm_pmu.impl_pmcs))
			pfm_sw_keyed_release(i, *pfm_set_pmc(set, i));
}

bool pfm_sw_keyed_same(unsigned int reg_num, u64 old, u64 value)
{
	unsigned int ev = pfm_sw_keyed_event(reg_num, old);

	if (ev != pfm_sw_keyed_event(reg_num, value))
		return false;
	return !ev || PFM_SW_PMC_KEY(old) == PFM_SW_PMC_KEY(value);
}

/* The payload of the hit being counted on this CPU (layer.h). */
static DEFINE_PER_CPU(struct pfm_sw_payload, pfm_sw_payload);

void pfm_sw_payload_swap(struct pfm_sw_payload *p)
{
	struct pfm_sw_payload *cur = this_cpu_ptr(&pfm_sw_payload), was = *cur;

	*cur = *p;
	*p = was;
}

const void *pfm_sw_event_payload(u32 *size)
{
	const struct pfm_sw_payload *cur = this_cpu_ptr(&pfm_sw_payload);

	*size = cur->data ? cur->size : 0;
	return cur->data;
}
