// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the "mux" sampling format (uapi/perfmon/perfmon_mux_smpl.h), a log of
 * event set switches for estimating multiplexed counts in user space.
 *
 * Only the set_switch op does anything: one record per activation, written with the
 * PMU disabled from values already in memory, so the cost is one bounded copy per
 * switch and no register access.
 */
#include <uapi/perfmon/perfmon_mux_smpl.h>

#include "internal.h"
#include "ctx.h"
#include "sets.h"
#include "smpl.h"

static int pfm_mux_smpl_validate(u32 ctx_flags __always_unused, const void *data)
{
	const struct pfm_mux_smpl_arg *arg = data;

	if (arg->buf_flags || arg->reserved1 || memchr_inv(arg->reserved, 0, sizeof(arg->reserved)))
		return -EINVAL;
	if (arg->buf_size < PFM_MUX_SMPL_MIN_SIZE)
		return -EINVAL;
	return 0;
}

static u64 pfm_mux_smpl_getsize(const void *data)
{
	return ((const struct pfm_mux_smpl_arg *)data)->buf_size;
}

static void pfm_mux_smpl_init_buf(void *buf, size_t size, const void *data __always_unused)
{
	struct pfm_mux_smpl_hdr *hdr = buf;

	hdr->hdr_cur_offs = sizeof(*hdr);
	hdr->hdr_buf_size = size;
	hdr->hdr_version = PFM_MUX_SMPL_VERSION;
}

/* Samples have no place in a switch log: the PMD just takes its short reset. */
static bool pfm_mux_smpl_handler(struct pfm_smpl_buf *b __always_unused,
				 struct pfm_context *ctx __always_unused,
				 struct pfm_event_set *set __always_unused,
				 unsigned int pmd __always_unused)
{
	return false;
}

/* The PMDs a record holds: those below PFM_MAX_PMDS, as PFM_MUX_SMPL_MIN_SIZE has room for. */
#define PFM_MUX_PMDS	PFM_MAX_PMDS

static u64 *pfm_mux_put_values(u64 *val, const struct pfm_event_set *set)
{
	unsigned int i;

	for_each_set_bit(i, set->used_pmds, PFM_MUX_PMDS)
		*val++ = pfm_set_pmd(set, i)->value;
	return val;
}

static void pfm_mux_smpl_switch(struct pfm_smpl_buf *b, struct pfm_context *ctx,
				struct pfm_event_set *prev, struct pfm_event_set *next)
{
	struct pfm_mux_smpl_hdr *hdr = b->addr;
	unsigned int nr_prev = 0, nr_next;
	struct pfm_mux_smpl_entry *e;
	u64 cur = hdr->hdr_cur_offs, *val;
	size_t need;

	if (prev)
		nr_prev = bitmap_weight(prev->used_pmds, PFM_MUX_PMDS);
	nr_next = bitmap_weight(next->used_pmds, PFM_MUX_PMDS);
	need = sizeof(*e) + (nr_prev + nr_next) * sizeof(u64);
	if (cur > b->size || need > b->size - cur) {
		hdr->hdr_lost++;
		return;
	}
	e = b->addr + cur;
	e->live_ns = ctx->live_ns;
	/* the caller raises next->runs after the record */
	e->next_run = next->runs + 1;
	e->prev_set = prev ? prev->id : 0;
	e->next_set = next->id;
	e->nr_prev = nr_prev;
	e->nr_next = nr_next;
	e->flags = (prev ? PFM_MUX_PREV : 0) | (ctx->started ? 0 : PFM_MUX_START);
	e->reserved = 0;
	val = (u64 *)(e + 1);
	if (prev)
		val = pfm_mux_put_values(val, prev);
	pfm_mux_put_values(val, next);
	hdr->hdr_cur_offs = cur + need;
	/* the record before the count: pairs with the reader's acquire after the count */
	smp_wmb();
	hdr->hdr_count++;
}

static struct pfm_smpl_fmt pfm_mux_smpl_fmt = {
	.name = PFM_MUX_SMPL_NAME,
	.version = PFM_MUX_SMPL_VERSION,
	.arg_size = sizeof(struct pfm_mux_smpl_arg),
	.validate = pfm_mux_smpl_validate,
	.getsize = pfm_mux_smpl_getsize,
	.init = pfm_mux_smpl_init_buf,
	.handler = pfm_mux_smpl_handler,
	.set_switch = pfm_mux_smpl_switch,
	.owner = THIS_MODULE,
};

int pfm_mux_smpl_init(void)
{
	return pfm_smpl_fmt_register(&pfm_mux_smpl_fmt);
}

void pfm_mux_smpl_exit(void)
{
	pfm_smpl_fmt_unregister(&pfm_mux_smpl_fmt);
}
