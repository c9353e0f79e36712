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
 * the core's PMD values; times are the live duration of the context's set, which
 * for a per-thread session is the thread's time on a CPU: perf_events reports the
 * same for per-task events (time_enabled == time_running == on-CPU time while
 * enabled).
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

/* The live duration of the context's one set: the thread's counted time. */
static int pfm_perf_now(struct pfm_perf_target *t, u64 *now)
{
	struct pfarg_setinfo info = {};
	long ret;

	ret = pfm_getinfo_evtsets(t->ctx, &info, 1);
	if (ret)
		return ret;
	*now = info.set_act_duration;
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

/* Counters read per call of the core, from the stack. */
#define PFM_PERF_READ_CHUNK	8

/*
 * Reads the PMDs of the counters in mask, into pmd[counter]: the core's lean read
 * vector, on the stack, so that a read() of an event allocates nothing.
 */
static int pfm_perf_read_counters(struct pfm_perf_target *t, u32 mask, u64 *pmd)
{
	struct pfm_pmd_read rd[PFM_PERF_READ_CHUNK];
	u8 idx[PFM_PERF_READ_CHUNK];
	unsigned long bits = mask;
	unsigned int i, n;
	long ret;

	while (bits) {
		n = 0;
		for_each_set_bit(i, &bits, PFM_PERF_NUM_COUNTERS) {
			if (n == PFM_PERF_READ_CHUNK)
				break;
			memset(&rd[n], 0, sizeof(rd[n]));
			rd[n].num = pfm_perf_counter_pmd(i);
			rd[n].rsvd_zero = true;
			idx[n++] = i;
		}
		ret = pfm_read_pmd_vec(t->ctx, rd, n);
		if (ret)
			return ret;
		/* a sampling counter's resets took its periods off: added back */
		for (i = 0; i < n; i++) {
			pmd[idx[i]] = rd[i].value + READ_ONCE(t->counters[idx[i]].wrapped);
			__clear_bit(idx[i], &bits);
		}
	}
	return 0;
}

/* What t's events want of each counter: how many count on it. */
static void pfm_perf_wanted(struct pfm_perf_target *t, unsigned int *counting, u32 *moved)
{
	struct pfm_perf_event *ev;

	*moved = 0;
	list_for_each_entry(ev, &t->events, entry) {
		if (ev->counter < 0)
			continue;
		if (pfm_perf_wants(ev))
			counting[ev->counter]++;
		if (pfm_perf_wants(ev) != ev->counting)
			*moved |= 1U << ev->counter;
	}
}

/* ev starts or stops counting: its count and time intervals open or close. */
static void pfm_perf_toggle(struct pfm_perf_event *ev, const u64 *pmd, u64 now)
{
	ev->counting = !ev->counting;
	if (ev->counting) {
		ev->since_ns = now;
		if (ev->counter >= 0)
			ev->base = pmd[ev->counter];
	} else {
		ev->ena_ns += now - ev->since_ns;
		if (ev->counter >= 0)
			ev->acc += pmd[ev->counter] - ev->base;
	}
}

/*
 * Brings t's counters in line with its events' states: a counter runs while one
 * of its events counts.  One PMC vector and one time stamp: a group starts and
 * stops as a unit, and events enabled together (enable_on_exec) count the same
 * time.  The counters are read first, so that an event's interval opens and
 * closes where the counter stood.
 */
int pfm_perf_target_sync(struct pfm_perf_target *t)
{
	unsigned int counting[PFM_PERF_NUM_COUNTERS] = {};
	u64 pmd[PFM_PERF_NUM_COUNTERS] = {};
	struct pfm_perf_event *ev;
	u32 moved, changed = 0;
	unsigned int i;
	u64 now;
	int ret;

	pfm_perf_wanted(t, counting, &moved);
	ret = pfm_perf_read_counters(t, moved, pmd);
	if (!ret)
		ret = pfm_perf_now(t, &now);
	if (ret)
		return ret;
	for (i = 0; i < PFM_PERF_NUM_COUNTERS; i++)
		if (!!counting[i] != !!t->counters[i].counting)
			changed |= 1U << i;
	ret = pfm_perf_counters_write(t->ctx, t->counters, counting, changed);
	if (ret)
		return ret;
	list_for_each_entry(ev, &t->events, entry)
		if (pfm_perf_wants(ev) != ev->counting)
			pfm_perf_toggle(ev, pmd, now);
	return 0;
}

/*
 * A counter for ev (pfm_perf_counter_get()): one already counting the same
 * event at the same levels is shared (each event keeps its own intervals of
 * it), else a free one.  At most six distinct software values exist
 * (pfm_perf_sw_pmc()), so the eight software counters never run out.
 */
int pfm_perf_event_setup(struct pfm_perf_target *t, struct pfm_perf_event *ev)
{
	bool smpl = pfm_perf_sampling(&ev->attr);
	struct pfm_perf_enc enc;
	int i, ret;

	ev->counter = -1;
	ret = pfm_perf_encode(&ev->attr, &enc);
	if (ret || !enc.counters)
		return ret;
	/* sampling is proved on the software PMU only (perf_sample.c) */
	if (smpl && ev->attr.type != PERF_TYPE_SOFTWARE)
		return -EOPNOTSUPP;
	enc.own = smpl;
	i = pfm_perf_counter_get(t->ctx, t->counters, &enc, &ev->pmc);
	if (i < 0)
		return i;
	ev->counter = i;
	/* a sampling event's counter is its own (perf_sample.c) */
	return smpl ? pfm_perf_sample_setup(t, ev) : 0;
}

/* ev stops counting and leaves its counter, which stops when no event counts on it. */
void pfm_perf_event_teardown(struct pfm_perf_event *ev)
{
	struct pfm_perf_target *t = ev->target;

	if (ev->counter < 0)
		return;
	if (t->counters[ev->counter].smpl)
		pfm_perf_sample_teardown(ev);
	pfm_perf_counter_put(t->ctx, t->counters, ev->counter, ev->counting);
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
	ret = pfm_perf_read_counters(ev->target, 1U << ev->counter, pmd);
	if (!ret)
		ev->base = pmd[ev->counter];
	return ret;
}

/* ev's own count and counted time, without its inherited copies. */
int pfm_perf_event_value(struct pfm_perf_event *ev, struct pfm_perf_value *v)
{
	u64 pmd[PFM_PERF_NUM_COUNTERS], now;
	int ret;

	v->count = ev->acc;
	v->ena_ns = ev->ena_ns;
	if (!ev->counting)
		return 0;
	if (ev->counter >= 0) {
		ret = pfm_perf_read_counters(ev->target, 1U << ev->counter, pmd);
		if (ret)
			return ret;
		v->count += pmd[ev->counter] - ev->base;
	}
	ret = pfm_perf_now(ev->target, &now);
	if (ret)
		return ret;
	v->ena_ns += now - ev->since_ns;
	return 0;
}
