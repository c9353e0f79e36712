// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the "default" sampling format (uapi/perfmon/perfmon_dfl_smpl.h): a header,
 * then fixed entries each followed by the sampled PMD values.
 */
#include <linux/ktime.h>

#include <uapi/perfmon/perfmon_dfl_smpl.h>

#include "internal.h"
#include "sets.h"
#include "env.h"
#include "pmu_state.h"
#include "smpl.h"

/* The largest entry: every PMD recorded. */
#define PFM_DFL_SMPL_MAX_ENTRY \
	(sizeof(struct pfm_dfl_smpl_entry) + PFM_MAX_PMDS * sizeof(u64))

static int pfm_dfl_smpl_validate(u32 ctx_flags, const void *data)
{
	const struct pfm_dfl_smpl_arg *arg = data;
	unsigned int i;

	if (arg->buf_flags || arg->reserved1)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(arg->reserved); i++)
		if (arg->reserved[i])
			return -EINVAL;
	/* Room for the header and one entry, whatever it records. */
	if (arg->buf_size < sizeof(struct pfm_dfl_smpl_hdr) + PFM_DFL_SMPL_MAX_ENTRY)
		return -EINVAL;
	return 0;
}

static u64 pfm_dfl_smpl_getsize(const void *data)
{
	return ((const struct pfm_dfl_smpl_arg *)data)->buf_size;
}

static void pfm_dfl_smpl_init_buf(void *buf, size_t size, const void *data)
{
	const struct pfm_dfl_smpl_arg *arg = data;
	struct pfm_dfl_smpl_hdr *hdr = buf;

	hdr->hdr_cur_offs = sizeof(*hdr);
	hdr->hdr_buf_size = size;
	hdr->hdr_min_buf_space = PFM_DFL_SMPL_MAX_ENTRY;
	hdr->hdr_version = PFM_DFL_SMPL_VERSION;
	hdr->hdr_buf_flags = arg->buf_flags;
}

/*
 * One entry and the values of the PMDs the overflowed one names, in register order.
 * The header's count moves last, after a barrier, so that a reader polling it sees
 * whole entries.
 */
static bool pfm_dfl_smpl_handler(struct pfm_smpl_buf *b, struct pfm_context *ctx,
				 struct pfm_event_set *set, unsigned int pmd)
{
	struct pfm_dfl_smpl_hdr *hdr = b->addr;
	struct pfm_pmd *p = pfm_set_pmd(set, pmd);
	struct pfm_dfl_smpl_entry *e;
	static const u64 none[PFM_PMD_BV];
	const u64 *smpl_bv = set->opts ? pfm_set_opts(set, pmd)->smpl_pmds : none;
	const unsigned long *smpl = (const unsigned long *)smpl_bv;
	u64 cur = hdr->hdr_cur_offs, *val;
	size_t need;
	unsigned int j;

	need = sizeof(*e) + bitmap_weight(smpl, PFM_MAX_PMDS) * sizeof(u64);
	if (cur > b->size || need > b->size - cur) {
		hdr->hdr_overflows++;
		return true;
	}
	e = b->addr + cur;
	e->pid = task_pid_vnr(current);
	e->size = need;
	e->tgid = task_tgid_vnr(current);
	e->ovfl_pmd = pmd;
	e->last_reset_val = p->last_reset_val;
	e->ip = pfm_user_ip();
	e->tstamp = ktime_get_ns();
	e->cpu = smp_processor_id();
	e->set = set->id;
	val = (u64 *)(e + 1);
	for_each_set_bit(j, smpl, PFM_MAX_PMDS)
		*val++ = pfm_pmd_value(ctx, set, j);
	hdr->hdr_cur_offs = cur + need;
	/* the entry before the count: pairs with the reader's acquire after the count */
	smp_wmb();
	hdr->hdr_count++;
	return b->size - hdr->hdr_cur_offs < hdr->hdr_min_buf_space;
}

/* The reader has taken the samples: start the buffer over. */
static void pfm_dfl_smpl_restart(struct pfm_smpl_buf *b)
{
	struct pfm_dfl_smpl_hdr *hdr = b->addr;

	hdr->hdr_count = 0;
	hdr->hdr_cur_offs = sizeof(*hdr);
}

/*
 * A shared buffer's reader took its first n entries: the rest move up to the
 * header, where the next reading starts.  Each entry's size says where the next
 * one is, whatever PMDs it records.
 */
static int pfm_dfl_smpl_drain(struct pfm_smpl_buf *b, u64 n)
{
	struct pfm_dfl_smpl_hdr *hdr = b->addr;
	u64 off = sizeof(*hdr), cur = hdr->hdr_cur_offs, k;
	const struct pfm_dfl_smpl_entry *e;

	if (n > hdr->hdr_count)
		return -EINVAL;
	for (k = 0; k < n; k++) {
		e = b->addr + off;
		off += e->size;
	}
	memmove(b->addr + sizeof(*hdr), b->addr + off, cur - off);
	hdr->hdr_cur_offs = cur - (off - sizeof(*hdr));
	hdr->hdr_count -= n;
	return 0;
}

static struct pfm_smpl_fmt pfm_dfl_smpl_fmt = {
	.name = PFM_DFL_SMPL_NAME,
	.version = PFM_DFL_SMPL_VERSION,
	.arg_size = sizeof(struct pfm_dfl_smpl_arg),
	.validate = pfm_dfl_smpl_validate,
	.getsize = pfm_dfl_smpl_getsize,
	.init = pfm_dfl_smpl_init_buf,
	.handler = pfm_dfl_smpl_handler,
	.restart = pfm_dfl_smpl_restart,
	.drain = pfm_dfl_smpl_drain,
	.owner = THIS_MODULE,
};

int pfm_dfl_smpl_init(void)
{
	return pfm_smpl_fmt_register(&pfm_dfl_smpl_fmt);
}

void pfm_dfl_smpl_exit(void)
{
	pfm_smpl_fmt_unregister(&pfm_dfl_smpl_fmt);
}
