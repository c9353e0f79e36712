// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the contents of the counts page (uapi perfmon.h, COUNTS PAGE).
 *
 * The page shows the active set's PMDs as pfm_read_pmds() would return them.  For
 * that, it is written wherever such a value changes: by a unit at each event, for
 * the counts it keeps in 64 bits itself (the software unit, pfm_upage_publish()),
 * and by the core, under ctx->lock where the state is, after it writes, resets or
 * switches values (pfm_upage_refresh()).  Both writers run with interrupts off on the
 * CPU where the state lives (or on the saved state, where no unit counts), so they
 * never overlap: the sequence count only tells readers to retry.
 *
 * Keeping the page exact at the event costs a unit two stores of the sequence count
 * and one of the value per counter the event adds to; deriving values at read time
 * from a base and a live counter instead would need the counter in user reach, which
 * a software counter (per-CPU kernel memory) is not.
 *
 * A hardware counter is: while its set is live, the page gives the counter to read
 * (rdpmc[]) and, in pmds[], the 64-bit value less the counter's sign-extended
 * reading at the same point, so that the reader adds what counted since.  That
 * offset changes only where the kernel writes the counter or moves the 64-bit
 * value (writes, resets, set switches, the overflow interrupt re-arming it) and at
 * the switches in and out, which all refresh the page; the counter is never
 * written between.  Out of its set's live time, pmds[] is the value and rdpmc[] 0.
 */
#include "internal.h"
#include "ctx.h"
#include "sets.h"
#include "env.h"
#include "pmu_state.h"
#include "upage.h"

static void pfm_upage_begin(struct pfm_counts_page *pg)
{
	WRITE_ONCE(pg->seq, pg->seq + 1);
	smp_wmb();
}

static void pfm_upage_end(struct pfm_counts_page *pg)
{
	smp_wmb();
	WRITE_ONCE(pg->seq, pg->seq + 1);
}

/*
 * Whether the page can hold PMD i of set exactly: its unit says, from its PMC; a
 * hardware counter through rdpmc[], if it has an entry there and 64-bit values.
 */
static bool pfm_upage_holds(const struct pfm_event_set *set, unsigned int i)
{
	const struct pfm_reg *r = &pfm_pmu.pmd[i];
	const struct pfm_pmu_unit *u = r->unit;

	if (u->user_read)
		return i < PFM_RDPMC_PMDS && !test_bit(i, set->no_emul64);
	return u->pmd_in_page &&
	       u->pmd_in_page(r->idx, pfm_set_pmc_val(set, u->first_pmc + r->desc->dep_pmc));
}

/*
 * Hardware PMD i of the live set: its rdpmc[] entry, and in *val the offset the
 * reader adds the counter to; 0 if the monitored thread may not read it now.  A
 * CPU session has none: whether a thread may read the counters changes at every
 * thread switch on its CPU, where the page is not rewritten.
 */
static u16 pfm_upage_rdpmc(struct pfm_context *ctx, struct pfm_event_set *set,
			   unsigned int i, u64 *val)
{
	const struct pfm_reg *r = &pfm_pmu.pmd[i];
	u64 v, raw;
	u8 code;

	if (ctx->flags & PFM_FL_SYSTEM_WIDE)
		return 0;
	v = pfm_pmd_value_live(ctx, set, i, true);
	code = r->unit->user_read(r->idx, v, &raw);
	if (!code)
		return 0;
	*val = v - sign_extend64(raw, r->desc->width - 1);
	return code | r->desc->width << 8;
}

/*
 * Between pfm_upage_begin() and _end(): the set shown and its PMDs in the page,
 * with a new layout generation if either changed, so that a reader which checked
 * them once needs only compare layout_gen (uapi perfmon.h, COUNTS PAGE).
 */
static void pfm_upage_layout(struct pfm_counts_page *pg, u16 set_id, const u64 *mapped)
{
	bool changed = pg->set_id != set_id;
	unsigned int i;

	for (i = 0; i < PFM_PMD_BV; i++) {
		changed |= pg->mapped_pmds[i] != mapped[i];
		WRITE_ONCE(pg->mapped_pmds[i], mapped[i]);
	}
	WRITE_ONCE(pg->set_id, set_id);
	if (changed)
		WRITE_ONCE(pg->layout_gen, pg->layout_gen + 1);
}

/*
 * ctx->lock held, on the CPU where the state is: the active set, whole; before the
 * first start there is none, and the page shows set 0 (always the first).  live:
 * whether the set counts in the PMU for the monitored thread from here on (not at
 * its switch out).
 */
void pfm_upage_show(struct pfm_context *ctx, bool live)
{
	struct pfm_counts_page *pg = ctx->upage;
	struct pfm_event_set *set = ctx->active ?:
		list_first_entry(&ctx->sets, struct pfm_event_set, list);
	u64 mapped[PFM_PMD_BV] = {};
	u16 entry[PFM_RDPMC_PMDS] = {};
	bool hw = false;
	unsigned int i;
	u64 val;

	if (!pg)
		return;
	pfm_upage_begin(pg);
	/* the page's pmds[] and mapped_pmds[] stop at PFM_MAX_PMDS: no room past it */
	for_each_set_bit(i, set->used_pmds, PFM_MAX_PMDS) {
		if (!pfm_upage_holds(set, i))
			continue;
		if (pfm_pmu.pmd[i].unit->user_read) {
			hw = true;
			if (live) {
				entry[i] = pfm_upage_rdpmc(ctx, set, i, &val);
				if (!entry[i])
					continue;
			} else {
				val = pfm_set_pmd(set, i)->value;
			}
		} else {
			val = pfm_pmd_value(ctx, set, i);
		}
		mapped[i / 64] |= 1ULL << (i % 64);
		WRITE_ONCE(pg->pmds[i], val);
	}
	pfm_upage_layout(pg, set->id, mapped);
	for (i = 0; i < PFM_RDPMC_PMDS; i++)
		WRITE_ONCE(pg->rdpmc[i], entry[i]);
	WRITE_ONCE(pg->rdpmc_cpu, live ? smp_processor_id() : 0);
	ctx->upage_hw = hw;
	pfm_upage_end(pg);
}

void __pfm_upage_refresh(struct pfm_context *ctx)
{
	struct pfm_event_set *set = ctx->active;

	pfm_upage_show(ctx, set && pfm_live(ctx, set));
}

/*
 * A unit's counters first..first+n-1 (logical PMD numbers) changed by an event, on
 * the CPU whose PMU the owner's active set is on, interrupts off; counter b's value
 * is values[b * stride] (a unit counting in the set's memory passes its PMDs').
 * The page holds the PMDs below PFM_MAX_PMDS alone: the others are not shown.
 */
void pfm_upage_publish(bool system_wide, unsigned int first, const u64 *values,
		       unsigned int stride, unsigned long changed)
{
	struct pfm_context *ctx = this_cpu_read(pfm_pmu_owner[system_wide]);
	struct pfm_counts_page *pg = ctx ? READ_ONCE(ctx->upage) : NULL;
	unsigned int b;

	if (!pg || first >= PFM_MAX_PMDS)
		return;
	if (PFM_MAX_PMDS - first < BITS_PER_LONG)
		changed &= (1UL << (PFM_MAX_PMDS - first)) - 1;
	pfm_upage_begin(pg);
	for_each_set_bit(b, &changed, BITS_PER_LONG)
		WRITE_ONCE(pg->pmds[first + b], values[b * stride]);
	pfm_upage_end(pg);
}

static void pfm_upage_install_fn(struct pfm_context *ctx, void *arg)
{
	struct pfm_counts_page **pg = arg;

	if (ctx->upage)
		return;
	(*pg)->version = PFM_COUNTS_PAGE_VERSION;
	WRITE_ONCE(ctx->upage, *pg);
	pfm_upage_refresh(ctx);
	*pg = NULL;
}

/*
 * Makes pg the context's page, filled from the active set, unless it has one
 * already: then pg is left to the caller to free (true if pg was taken).
 */
bool pfm_upage_install(struct pfm_context *ctx, struct pfm_counts_page *pg)
{
	pfm_run_on_state(ctx, pfm_upage_install_fn, &pg);
	return !pg;
}
