// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: counter overflows.
 *
 * A unit reports that counters overflowed at their hardware width; the core syncs
 * them and acts on the ones that carried out of 64 bits (an overflow always means a
 * 64-bit overflow): reset to the short reset value (what was counted past the
 * overflow is kept), count down the set-switch thresholds, switch; or, for a PMD that
 * asked for notification, stop monitoring ("masked") and tell the controller.  A carry
 * seen first by another sync (a read, a save) is pending until then (pfm_pmd_sync()).
 */
#include "internal.h"
#include "ctx.h"
#include "env.h"
#include "ovfl.h"
#include "pmu_state.h"
#include "sets.h"
#include "switch.h"
#include "upage.h"

/* PMD i's reset value, less a random part within its random mask with PFM_PMDFL_RANDOM. */
static u64 pfm_reset_value(const struct pfm_event_set *set, unsigned int i, bool long_reset)
{
	const struct pfm_pmd *p = pfm_set_pmd(set, i);
	u64 r = long_reset ? p->long_reset : p->short_reset;

	if ((p->flags & PFM_PMDFL_RANDOM) && set->opts)
		r -= get_random_u64() & pfm_set_opts(set, i)->random_mask;
	return r;
}

/*
 * Reloads PMD i after its overflow: what it counted past the overflow is kept.  The
 * PMDs named in its reset_pmds restart from their own reset value.
 */
static void pfm_pmd_reset(struct pfm_event_set *set, unsigned int i, bool long_reset,
			  bool live)
{
	struct pfm_pmd *p = pfm_set_pmd(set, i);
	unsigned int j;
	u64 r = pfm_reset_value(set, i, long_reset), past;

	p->last_reset_val = r;
	p->value += r;
	/*
	 * What counted past the carry is kept, short of a whole period: a counter
	 * already at its next carry (a hit counting more than the period, a carry
	 * acted on late) would otherwise count on from 0 with no carry to come.
	 */
	if ((s64)r < 0 && (s64)p->value >= 0) {
		div64_u64_rem(p->value - r, -r, &past);
		p->value = r + past;
	}
	if (live)
		pfm_pmd_reload(set, i);
	if (!set->opts)
		return;
	for_each_set_bit(j, (unsigned long *)pfm_set_opts(set, i)->reset_pmds, PFM_MAX_PMDS) {
		struct pfm_pmd *q;

		if (j == i || !test_bit(j, set->used_pmds))
			continue;
		q = pfm_set_pmd(set, j);
		q->last_reset_val = pfm_reset_value(set, j, long_reset);
		q->value = q->last_reset_val;
		if (live)
			pfm_pmd_load(set, j);
	}
}

/*
 * A PMD with PFM_PMDFL_OVFL_NOTIFY overflowed: monitoring stops where it is (the
 * counters keep what they counted past the overflow), a message is queued and the
 * controller is woken up; pfm_start(PFM_STARTFL_RESTART) resumes.
 */
static void pfm_mask_locked(struct pfm_context *ctx, const unsigned long *notify)
{
	struct pfm_event_set *set = ctx->active;

	bitmap_or(set->restart_pmds, set->restart_pmds, notify, PFM_MAX_PMDS);
	pfm_live_out(ctx);
	ctx->started = false;
	ctx->masked = true;
	pfm_stat_add(notifications, 1);
	pfm_msg_ovfl_locked(ctx, notify);
	if (ctx->flags & PFM_FL_NOTIFY_BLOCK)
		pfm_env_block(ctx);
}

/* The pending overflows of the live active set (pfm_overflow_pending_locked()). */
noinline void pfm_overflow_act_locked(struct pfm_context *ctx)
{
	struct pfm_event_set *set = ctx->active;
	DECLARE_BITMAP(ovfl, PFM_MAX_PMDS);
	DECLARE_BITMAP(notify, PFM_MAX_PMDS);
	bool do_switch = false, notified = false;
	unsigned int i, n = 0;

	bitmap_copy(ovfl, set->ovfl_pending, PFM_MAX_PMDS);
	bitmap_zero(set->ovfl_pending, PFM_MAX_PMDS);
	set->ovfl_pending_any = false;
	/* a sample per overflow: the bits are looked for inline, and counted here */
	pfm_for_each_reg(i, ovfl, PFM_MAX_PMDS) {
		struct pfm_pmd *p = pfm_set_pmd(set, i);
		bool full = false;

		n++;
		/* A full sampling buffer notifies as PFM_PMDFL_OVFL_NOTIFY does. */
		if (p->flags & PFM_PMDFL_SMPL)
			full = pfm_smpl_record_locked(ctx, set, i);
		/*
		 * A notified PMD is reset at restart, with its long reset value.
		 * Most overflows notify nothing (a sample, a reset): the map
		 * of those that do is cleared only once one does.
		 */
		if (full || (p->flags & PFM_PMDFL_OVFL_NOTIFY)) {
			if (!notified)
				bitmap_zero(notify, PFM_MAX_PMDS);
			notified = true;
			__set_bit(i, notify);
		} else {
			pfm_pmd_reset(set, i, false, true);
		}
		if ((set->flags & PFM_SETFL_OVFL_SWITCH) && (p->flags & PFM_PMDFL_SWITCH) &&
		    p->switch_left && !--p->switch_left)
			do_switch = true;
	}
	pfm_stat_add(overflows, n);
	bitmap_copy(set->ovfl_pmds, ovfl, PFM_MAX_PMDS);
	/* the resets, before the state may leave the PMU (mask) or the set (switch) */
	pfm_upage_refresh(ctx);
	if (notified) {
		/* The switch waits for the restart, so the reader sees this set's counts. */
		ctx->restart_switch = do_switch;
		pfm_mask_locked(ctx, notify);
	} else if (do_switch) {
		pfm_switch_locked(ctx, pfm_next_set(ctx, set));
	}
}

/*
 * Restart of a masked context, the state saved (not live): the notified PMDs take
 * their long reset value.  Returns the set to resume with.
 */
struct pfm_event_set *pfm_overflow_restart_locked(struct pfm_context *ctx)
{
	struct pfm_event_set *set = ctx->active;
	unsigned int i;

	for_each_set_bit(i, set->restart_pmds, PFM_MAX_PMDS)
		pfm_pmd_reset(set, i, true, false);
	bitmap_zero(set->restart_pmds, PFM_MAX_PMDS);
	pfm_upage_refresh(ctx);
	pfm_smpl_restart_locked(ctx);
	ctx->masked = false;
	if (ctx->restart_switch) {
		ctx->restart_switch = false;
		return pfm_next_set(ctx, set);
	}
	return set;
}

/* Start, stop or detach of a masked context: the pending resets are dropped. */
void pfm_overflow_unmask_locked(struct pfm_context *ctx)
{
	if (!ctx->masked)
		return;
	bitmap_zero(ctx->active->restart_pmds, PFM_MAX_PMDS);
	ctx->masked = false;
	ctx->restart_switch = false;
}

void pfm_overflow_locked(struct pfm_context *ctx, const struct pfm_pmu_unit *unit, u64 bits)
{
	struct pfm_event_set *set = ctx->active;
	unsigned int b;

	for (b = 0; bits; b++, bits >>= 1) {
		unsigned int i = unit->first_pmd + b;

		if (!(bits & 1) || !test_bit(i, set->used_pmds))
			continue;
		/* a unit counting into memory carried in place: no sync can see it */
		if (unit->bind) {
			__set_bit(i, set->ovfl_pending);
			set->ovfl_pending_any = true;
		}
		else
			pfm_pmd_sync(set, i);
	}
	/*
	 * The unit re-armed its counters: the page's offsets follow.  Refreshed from
	 * the set's own liveness, not assumed live, so that no caller can publish
	 * rdpmc entries for a set out of the PMU.
	 */
	if (!unit->bind && ctx->upage_hw)
		pfm_upage_refresh(ctx);
	pfm_overflow_pending_locked(ctx);
}

/*
 * The interrupt that reported the overflows being handled on this CPU, or the
 * software event's instruction, for the sampling formats (pfm_overflow_where());
 * NULL where none did (a count without one, a carry found by a read or a save).  Interrupts are off while it is set.
 */
static DEFINE_PER_CPU(const struct pfm_ovfl_where *, pfm_ovfl_at);

const struct pfm_ovfl_where *pfm_overflow_where(void)
{
	return this_cpu_read(pfm_ovfl_at);
}

/*
 * A keyed hit takes ctx->lock as a class of its own for lockdep: the hit may
 * come with this CPU's hrtimer base locked, while the core starts its timers
 * under ctx->lock.  The two cannot meet: the core's timers are started under
 * the lock of a context whose state is live on that timer's CPU, and a hit takes
 * the lock of the context live on its own CPU, with no timer call under it
 * (hold.h); lockdep, which has one class for every CPU's base, would see a cycle.
 */
#define PFM_LOCK_HIT	SINGLE_DEPTH_NESTING

static __always_inline void pfm_overflow_to(struct pfm_context *ctx,
					    const struct pfm_pmu_unit *unit, u64 bits,
					    const struct pfm_ovfl_where *at, bool hit)
{
	/* Live state cannot leave this CPU while its interrupts are off. */
	if (!ctx)
		return;
	if (hit)
		raw_spin_lock_nested(&ctx->lock, PFM_LOCK_HIT);
	else
		raw_spin_lock(&ctx->lock);
	if (ctx->started && ctx->on_cpu == smp_processor_id()) {
		this_cpu_write(pfm_ovfl_at, at);
		pfm_overflow_locked(ctx, unit, bits);
		this_cpu_write(pfm_ovfl_at, NULL);
	}
	raw_spin_unlock(&ctx->lock);
}

/* A hardware unit's: the context holding the hardware here drives it. */
void pfm_pmu_overflow_at(const struct pfm_pmu_unit *unit, u64 bits,
			 const struct pfm_ovfl_where *at)
{
	pfm_overflow_to(this_cpu_read(pfm_pmu_hw_owner), unit, bits, at, false);
}

/* A unit counting into memory: the owner of the bank that carried. */
void pfm_pmu_bank_overflow_at(const struct pfm_pmu_unit *unit, bool system_wide, u64 bits,
			      const struct pfm_ovfl_where *at)
{
	pfm_overflow_to(this_cpu_read(pfm_pmu_owner[system_wide]), unit, bits, at, false);
}

void pfm_pmu_bank_overflow_hit(const struct pfm_pmu_unit *unit, bool system_wide, u64 bits,
			       const struct pfm_ovfl_where *at)
{
	pfm_overflow_to(this_cpu_read(pfm_pmu_owner[system_wide]), unit, bits, at, true);
}

void pfm_pmu_overflow(const struct pfm_pmu_unit *unit, u64 bits)
{
	pfm_pmu_overflow_at(unit, bits, NULL);
}
