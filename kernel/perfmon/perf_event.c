// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: perf events onto a target's context.
 *
 * An event that counts uses a counter (perf_hw.h: a software counter, or a
 * hardware one for perf's hardware events), programmed with the event and level
 * bits and shared by every event of the thread that counts the same: the
 * counter runs while one of them counts, and each event adds up the counter's
 * progress over its own intervals, so that any number of software events fit
 * in the eight software counters, as software events always fit with
 * perf_events.  Hardware events fit as long as the hardware counters last
 * (perf_hw.c: placement, and what happens when they run out).  An
 * event counts while it is enabled and so is its group leader; every change goes
 * out as one pfm_write_pmcs() vector, so a group switches as a unit.  Counts are
 * the core's PMD values; times are the live durations of the context's sets
 * (perf_sched.c), whose sum for a per-thread session is the thread's time on a
 * CPU: perf_events reports the same for per-task events (time_enabled ==
 * time_running == on-CPU time while enabled and not multiplexed).
 *
 * Levels as perf_events has them: the clocks count at any level; page faults by
 * the level that caused them (the software PMU's USR and OS bits); context
 * switches and migrations happen in the kernel, so exclude_kernel=1 counts none.
 * All callers hold target->ctx->mutex.
 */
#include "internal.h"
#include "perf.h"
#include "rw.h"
#include "sets.h"

static atomic64_t pfm_perf_last_id = ATOMIC64_INIT(0);

u64 pfm_perf_new_id(void)
{
	return atomic64_inc_return(&pfm_perf_last_id);
}

/* The PMC value (without EN) that counts what attr asks for; 0 counts nothing. */
static u64 pfm_perf_sw_pmc(const struct perf_event_attr *a)
{
	u64 lv;

	switch (a->config) {
	case PERF_COUNT_SW_CPU_CLOCK:	/* per thread, the thread's clock */
	case PERF_COUNT_SW_TASK_CLOCK:
		return PFM_SW_EV_TASK_CLOCK | PFM_SW_PMC_USR;
	case PERF_COUNT_SW_PAGE_FAULTS:
	case PERF_COUNT_SW_PAGE_FAULTS_MIN:	/* every fault here is minor */
		lv = (a->exclude_user ? 0 : PFM_SW_PMC_USR) |
		     (a->exclude_kernel ? 0 : PFM_SW_PMC_OS);
		return lv ? PFM_SW_EV_PAGE_FAULTS | lv : 0;
	case PERF_COUNT_SW_CONTEXT_SWITCHES:
		return a->exclude_kernel ? 0 : PFM_SW_EV_CTX_SWITCHES | PFM_SW_PMC_USR;
	case PERF_COUNT_SW_CPU_MIGRATIONS:
		return a->exclude_kernel ? 0 : PFM_SW_EV_CPU_MIGRATIONS | PFM_SW_PMC_USR;
	}
	return 0;
}

/* Where attr may count, and with what value: software here, hardware by the driver. */
static int pfm_perf_encode(const struct perf_event_attr *a, struct pfm_perf_enc *enc)
{
	if (a->type != PERF_TYPE_SOFTWARE)
		return pfm_arch_perf_encode(a, enc);
	memset(enc, 0, sizeof(*enc));
	enc->pmc = pfm_perf_sw_pmc(a);
	if (enc->pmc)
		enc->counters = (1U << PFM_SW_NUM_COUNTERS) - 1;
	return 0;
}

static bool pfm_perf_wants(const struct pfm_perf_event *ev)
{
	return ev->enabled && ev->leader->enabled;
}

/* Reads the PMDs of set's counters in mask, into pmd[counter], in one call. */
static int pfm_perf_read_counters(struct pfm_perf_target *t, u16 set, u32 mask, u64 *pmd)
{
	u8 idx[PFM_PERF_NUM_COUNTERS];
	struct pfarg_pmd *req;
	unsigned int i, n = 0;
	int ret;

	if (!mask)
		return 0;
	/* a vector of the size of the counters would not fit on the stack */
	req = kcalloc(hweight32(mask), sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	for (i = 0; i < PFM_PERF_NUM_COUNTERS; i++) {
		if (mask & (1U << i)) {
			idx[n] = i;
			req[n].reg_set = set;
			req[n++].reg_num = pfm_perf_counter_pmd(i);
		}
	}
	ret = pfm_read_pmds(t->ctx, req, n);
	for (i = 0; !ret && i < n; i++)
		pmd[idx[i]] = req[i].reg_value;
	kfree(req);
	return ret;
}

/* What t's events in set want of each counter: how many count on it. */
static void pfm_perf_wanted(struct pfm_perf_target *t, u16 set, unsigned int *counting,
			    u32 *moved)
{
	struct pfm_perf_event *ev;

	*moved = 0;
	list_for_each_entry(ev, &t->events, entry) {
		if (ev->counter < 0 || ev->set != set)
			continue;
		if (pfm_perf_wants(ev))
			counting[ev->counter]++;
		if (pfm_perf_wants(ev) != ev->counting)
			*moved |= 1U << ev->counter;
	}
}

/* ev starts or stops counting: its count and time intervals open or close. */
static void pfm_perf_toggle(struct pfm_perf_event *ev, const u64 *pmd,
			    const struct pfm_perf_clock *c)
{
	ev->counting = !ev->counting;
	if (ev->counting) {
		ev->since_ns = c->total;
		ev->run_since_ns = c->set[ev->set];
		if (ev->counter >= 0)
			ev->base = pmd[ev->counter];
	} else {
		ev->ena_ns += c->total - ev->since_ns;
		ev->run_ns += c->set[ev->set] - ev->run_since_ns;
		if (ev->counter >= 0)
			ev->acc += pmd[ev->counter] - ev->base;
	}
}

/* pfm_perf_target_sync() for the events of one set, on that set's counters. */
static int pfm_perf_set_sync(struct pfm_perf_target *t, u16 set,
			     const struct pfm_perf_clock *clock)
{
	unsigned int counting[PFM_PERF_NUM_COUNTERS] = {};
	u64 pmd[PFM_PERF_NUM_COUNTERS] = {};
	struct pfm_perf_counter *counters = t->sets[set].counters;
	struct pfm_perf_event *ev;
	u32 moved, changed = 0;
	unsigned int i;
	int ret;

	pfm_perf_wanted(t, set, counting, &moved);
	ret = pfm_perf_read_counters(t, set, moved, pmd);
	if (ret)
		return ret;
	for (i = 0; i < PFM_PERF_NUM_COUNTERS; i++)
		if (!!counting[i] != !!counters[i].counting)
			changed |= 1U << i;
	ret = pfm_perf_counters_write(t->ctx, set, counters, counting, changed);
	if (ret)
		return ret;
	list_for_each_entry(ev, &t->events, entry)
		if (ev->set == set && pfm_perf_wants(ev) != ev->counting)
			pfm_perf_toggle(ev, pmd, clock);
	return 0;
}

/*
 * Brings t's counters in line with its events' states: a counter runs while one
 * of its events counts.  One PMC vector and one time stamp: a group starts and
 * stops as a unit, and events enabled together (enable_on_exec) count the same
 * time.  The counters are read first, so that an event's interval opens and
 * closes where the counter stood.  Set by set: each has its own counters.
 */
int pfm_perf_target_sync(struct pfm_perf_target *t)
{
	struct pfm_perf_clock clock;
	unsigned int s;
	int ret;

	ret = pfm_perf_sched_clock(t, &clock);
	for (s = 0; !ret && s < t->nr_sets; s++)
		ret = pfm_perf_set_sync(t, s, &clock);
	return ret;
}

/*
 * A counter for ev (pfm_perf_counter_get()): one already counting the same
 * event at the same levels is shared (each event keeps its own intervals of
 * it), else a free one.  At most six distinct software values exist
 * (pfm_perf_sw_pmc()), so the eight software counters never run out.
 */
int pfm_perf_event_setup(struct pfm_perf_target *t, struct pfm_perf_event *ev,
			 struct pfm_perf_event *leader)
{
	struct pfm_perf_enc enc;
	int ret;

	ev->counter = -1;
	ret = pfm_perf_encode(&ev->attr, &enc);
	if (ret)
		return ret;
	return pfm_perf_sched_place(t, ev, leader, &enc);
}

/* ev stops counting and leaves its counter, which stops when no event counts on it. */
void pfm_perf_event_teardown(struct pfm_perf_event *ev)
{
	struct pfm_perf_target *t = ev->target;

	pfm_perf_sched_leave(ev);
	if (ev->counter < 0) {
		ev->counting = false;
		return;
	}
	pfm_perf_counter_put(t->ctx, ev->set, t->sets[ev->set].counters, ev->counter,
			     ev->counting);
	ev->counting = false;
	ev->counter = -1;
}

/* perf's enable/disable of one event (its members follow a leader's state). */
int pfm_perf_event_set_enabled(struct pfm_perf_event *ev, bool on)
{
	ev->enabled = on;
	if (on)
		ev->exec_armed = false;
	return pfm_perf_target_sync(ev->target);
}

/* enable_on_exec: every armed event of t at once. */
int pfm_perf_target_exec(struct pfm_perf_target *t)
{
	struct pfm_perf_event *ev;

	list_for_each_entry(ev, &t->events, entry) {
		if (ev->exec_armed) {
			ev->exec_armed = false;
			ev->enabled = true;
		}
	}
	return pfm_perf_target_sync(t);
}

/* The count goes back to zero; the times do not (as perf_events). */
int pfm_perf_event_reset(struct pfm_perf_event *ev)
{
	u64 pmd[PFM_PERF_NUM_COUNTERS];
	int ret;

	ev->acc = 0;
	if (ev->counter < 0 || !ev->counting)
		return 0;
	ret = pfm_perf_read_counters(ev->target, ev->set, 1U << ev->counter, pmd);
	if (!ret)
		ev->base = pmd[ev->counter];
	return ret;
}

/* ev's own count and counted time, without its inherited copies. */
int pfm_perf_event_value(struct pfm_perf_event *ev, struct pfm_perf_value *v)
{
	u64 pmd[PFM_PERF_NUM_COUNTERS];
	struct pfm_perf_clock clock;
	int ret;

	v->count = ev->acc;
	v->ena_ns = ev->ena_ns;
	v->run_ns = ev->run_ns;
	if (!ev->counting)
		return 0;
	if (ev->counter >= 0) {
		ret = pfm_perf_read_counters(ev->target, ev->set, 1U << ev->counter, pmd);
		if (ret)
			return ret;
		v->count += pmd[ev->counter] - ev->base;
	}
	ret = pfm_perf_sched_clock(ev->target, &clock);
	if (ret)
		return ret;
	v->ena_ns += clock.total - ev->since_ns;
	v->run_ns += clock.set[ev->set] - ev->run_since_ns;
	return 0;
}
