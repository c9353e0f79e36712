// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: which event set of its target's context a perf group counts in.
 *
 * perf_events schedules a group as a unit and rotates the groups that do not
 * fit the PMU together, every perf_event_mux_interval_ms (4 ms by default).
 * Here a group lives in one of the context's event sets, each with its own row
 * of counters (perf_hw.c), and the core switches the sets on a timeout
 * (PFM_SETFL_TIME_SWITCH, switch.c) of perf_mux_interval_ms ms of the thread's
 * time (a knob in /sys/kernel/perfmon).  A group goes to the first set where
 * its leader fits; its members follow the leader (EINVAL where they do not fit
 * beside it, as before).  A group that fits in no set gets a new one, unless it
 * fits nowhere even alone.  An exclusive hardware group (attr.exclusive) gets a
 * set of its own and nothing joins it: perf_events runs it alone on its PMU.  A
 * software group is never exclusive there, and never multiplexed: it stays in
 * the first set, where it always fits (but see below).
 *
 * Sets are only created while the context is detached (sets.c), so a new set
 * costs a detach and an attach of the thread's context: counts and set
 * durations stay in the context meanwhile.  Once there are two sets, every set
 * switches on the timeout, and the live duration of each (pfm_getinfo_evtsets())
 * is the time its events ran: an event's time_running is its set's duration
 * while it is enabled, its time_enabled the sum of all the sets' durations
 * over the same interval, which for a per-thread session is the thread's time
 * on a CPU, as perf_events reports it for per-task events.
 * Not yet as perf_events: pinned groups are placed as flexible ones (perf_events
 * keeps them in every turn, or in error); software groups beside multiplexed
 * hardware groups count in their set's turns only; a member that does not fit
 * beside its leader is refused (EINVAL) rather than moving the group to a set
 * where it would fit; sets are not given back when their groups close: until the
 * target goes away an empty set still takes its turn.
 * All callers hold target->ctx->mutex.
 */
#include "internal.h"
#include "perf.h"
#include "sets.h"
#include "state.h"

/* perf_event_mux_interval_ms: perf_events' default */
unsigned long pfm_perf_mux_interval_ms = 4;

/* The durations of t's sets and their sum. */
int pfm_perf_sched_clock(struct pfm_perf_target *t, struct pfm_perf_clock *c)
{
	struct pfarg_setinfo *info;
	unsigned int i;
	long ret;

	info = kcalloc(t->nr_sets, sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	for (i = 0; i < t->nr_sets; i++)
		info[i].set_id = i;
	ret = pfm_getinfo_evtsets(t->ctx, info, t->nr_sets);
	c->total = 0;
	for (i = 0; !ret && i < t->nr_sets; i++) {
		c->set[i] = info[i].set_act_duration;
		c->total += c->set[i];
	}
	kfree(info);
	return ret;
}

/*
 * One more set: detached, the sets (re)described with the switch timeout, then
 * attached and started again, from the set that was active.
 */
static int pfm_perf_sched_grow(struct pfm_perf_target *t)
{
	struct pfarg_setdesc *d;
	unsigned int i, n = t->nr_sets + 1;
	long ret;

	if (n > PFM_PERF_MAX_SETS)
		return -EINVAL;
	d = kcalloc(n, sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		d[i].set_id = i;
		d[i].set_flags = PFM_SETFL_TIME_SWITCH;
		d[i].set_timeout = READ_ONCE(pfm_perf_mux_interval_ms) * NSEC_PER_MSEC;
	}
	ret = pfm_unload(t->ctx, 0);
	if (!ret) {
		ret = pfm_create_evtsets(t->ctx, d, n);
		if (!ret)
			t->nr_sets = n;
		/* reattach whatever happened: the thread keeps being counted */
		if (!pfm_load(t->ctx, 0, task_pid_vnr(t->task)))
			pfm_start(t->ctx, 0, 0);
		else if (!ret)
			ret = -ESRCH;
	}
	kfree(d);
	return ret;
}

/* ev's counter in set s, or the errno; -1 with no errno when it counts nothing. */
static int pfm_perf_sched_try(struct pfm_perf_target *t, struct pfm_perf_event *ev,
			      const struct pfm_perf_enc *enc, unsigned int s)
{
	int i;

	if (!enc->counters) {
		ev->set = s;
		return 0;
	}
	i = pfm_perf_counter_get(t->ctx, s, t->sets[s].counters, enc, &ev->pmc);
	if (i < 0)
		return i;
	ev->set = s;
	ev->counter = i;
	return 0;
}

/*
 * perf_events keeps a hardware group exclusive: a software one always goes on
 * (6.1's group_can_go_on()), exclusive or not.
 */
static bool pfm_perf_sched_exclusive(const struct pfm_perf_event *ev)
{
	return ev->attr.exclusive && ev->attr.type != PERF_TYPE_SOFTWARE;
}

/* A set for a new group: the first it fits in, else a new one. */
static int pfm_perf_sched_leader(struct pfm_perf_target *t, struct pfm_perf_event *ev,
				 const struct pfm_perf_enc *enc)
{
	struct pfm_perf_counter alone[PFM_PERF_NUM_COUNTERS] = {};
	unsigned int s;
	u64 pmc;
	int ret;

	/* a group that does not fit even alone makes no set (EINVAL, EBUSY) */
	if (enc->counters) {
		ret = pfm_perf_place(alone, enc, &pmc);
		if (ret < 0)
			return ret;
	}
	for (s = 0; s < t->nr_sets; s++) {
		if (t->sets[s].exclusive)
			continue;
		if (pfm_perf_sched_exclusive(ev) && t->sets[s].users)
			continue;
		ret = pfm_perf_sched_try(t, ev, enc, s);
		if (ret != -EINVAL)
			return ret;
	}
	ret = pfm_perf_sched_grow(t);
	if (ret)
		return ret;
	return pfm_perf_sched_try(t, ev, enc, t->nr_sets - 1);
}

/* ev's set and counter (ev->set, ev->counter): ev alone, or in leader's group. */
int pfm_perf_sched_place(struct pfm_perf_target *t, struct pfm_perf_event *ev,
			 struct pfm_perf_event *leader, const struct pfm_perf_enc *enc)
{
	struct pfm_perf_set *set;
	int ret;

	if (!t->nr_sets)
		t->nr_sets = 1;		/* the context's first set, made with it */
	if (leader)
		ret = pfm_perf_sched_try(t, ev, enc, leader->set);
	else
		ret = pfm_perf_sched_leader(t, ev, enc);
	if (ret)
		return ret;
	set = &t->sets[ev->set];
	if (!leader && pfm_perf_sched_exclusive(ev))
		set->exclusive = true;
	set->users++;
	return 0;
}

/* ev leaves its set; an exclusive set that empties takes any group again. */
void pfm_perf_sched_leave(struct pfm_perf_event *ev)
{
	struct pfm_perf_set *set = &ev->target->sets[ev->set];

	if (!--set->users)
		set->exclusive = false;
}
