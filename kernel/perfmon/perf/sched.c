// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: which event set of its target's context a perf group counts in.
 *
 * perf_events schedules a group as a unit and rotates the groups that do not
 * fit the PMU together, every perf_event_mux_interval_ms (4 ms by default).
 * Here a group lives in one of the context's event sets, each with its own row
 * of counters (counters.c), and the core switches the sets on a timeout
 * (PFM_SETFL_TIME_SWITCH, switch.c) of perf_mux_interval_ms ms of the thread's
 * time (a knob in /sys/kernel/perfmon).  A group goes to the first set where
 * its leader fits; its members follow the leader (EINVAL where they do not fit
 * beside it).  A group that fits in no set gets a new one, unless it fits
 * nowhere even alone.  An exclusive hardware group (attr.exclusive) gets a set
 * of its own and nothing joins it: perf_events runs it alone on its PMU.  A
 * software group is never exclusive there; counting software events always fit
 * in the first set (they share the software counters), sampling ones take a
 * counter of their own each, so one past PFM_PERF_SW_COUNTERS goes to another
 * set.  A sampling
 * event's overflows are routed by set (ring.c): each set has its own PMDs.
 *
 * Sets are only created while the context is detached (sets.c), so a new set
 * costs a detach and an attach of the thread's context: counts and set
 * durations stay in the context meanwhile.  Once there are two sets, every set
 * switches on the timeout, and the live duration of each (pfm_getinfo_evtsets())
 * is the time its events ran: an event's time_running is its set's duration
 * while it is enabled, its time_enabled the sum of all the sets' durations
 * over the same interval, which for a per-thread session is the thread's time
 * on a CPU, as perf_events reports it for per-task events.
 *
 * A pinned group (attr.pinned on its leader) is in every set, each of its events
 * on the same counter index in each set's row, so that it counts in every turn
 * (time_running == time_enabled: its count is the sum of its counter's progress
 * in each set).  It goes on beside the pinned groups and the flexible groups
 * already in each set; where it does not fit beside them (it fits alone, or the
 * open is EINVAL/EBUSY as for any group) its leader is "unscheduled": it counts
 * nothing, and once enabled it is in perf's ERROR state (event.c), read()
 * returning 0 bytes, until an enable finds it room.  A new set gets the pinned
 * groups first, then the flexible group that made it (EINVAL where that one does
 * not fit beside the pinned groups).
 *
 * Not yet as perf_events: software groups beside multiplexed hardware groups
 * count in their set's turns only; a pinned group does not push flexible groups
 * out of a set where they take the counters it needs (perf_events schedules
 * pinned groups first): it is unscheduled instead; a sampling event of a pinned
 * group, multiplexed, has one sampling PMD per set, each of which reaches the
 * period on its own (its samples come every period events of each set's turns);
 * a member that does not fit beside its leader is refused (EINVAL) rather than
 * moving the group to a set where it would fit; sets are not given back when
 * their groups close: until the target goes away an empty set still takes its
 * turn.
 * All callers hold target->ctx->mutex.
 */
#include "layer.h"
#include "counters.h"
#include "event.h"
#include "perf.h"
#include "overflow.h"
#include "sample.h"
#include "sched.h"

/* perf_event_mux_interval_ms: perf_events' default */
unsigned long pfm_perf_mux_interval_ms = 4;

/* c to be taken with a write or a read (rw.h), into its durations of t's sets */
void pfm_perf_clock_op(struct pfm_perf_target *t, struct pfm_perf_clock *c,
		       struct pfm_op_clock *op)
{
	op->set_ns = c->set;
	op->n = max(t->nr_sets, 1U);
	op->taken = false;
	/* the gated events' times at the same instant (cgroup.c) */
	op->with = list_empty(&t->gated) ? NULL : pfm_perf_gate_snap;
	op->arg = t;
}

/*
 * c complete: its durations of t's sets taken with an operation op was given
 * to, or now, in one visit, if none took them; and their sum.
 */
void pfm_perf_clock_done(struct pfm_perf_target *t, struct pfm_perf_clock *c,
			 struct pfm_op_clock *op)
{
	unsigned int i;

	if (!op->taken)
		pfm_sets_clock(t->ctx, op);
	c->total = 0;
	for (i = 0; i < op->n; i++)
		c->total += c->set[i];
}

/* ev's counter at index i of set s (enc restricted to it), or the errno. */
static int pfm_perf_sched_at(struct pfm_perf_target *t, struct pfm_perf_event *ev,
			     unsigned int s, unsigned int i)
{
	struct pfm_perf_enc one = ev->enc;

	one.counters = PFM_PERF_COUNTER(i);
	return pfm_perf_counter_get(t->ctx, s, t->sets[s]->counters, &one, &ev->pmc, NULL);
}

/* A pinned event's counter, its PMD a sampling one if so, in set s: new or grown. */
static int pfm_perf_sched_pinned_in(struct pfm_perf_target *t, struct pfm_perf_event *ev,
				    unsigned int s)
{
	int ret;

	ret = pfm_perf_sched_at(t, ev, s, ev->counter);
	if (ret < 0)
		return ret;
	if (ev->enc.own) {
		ret = pfm_perf_sample_setup(ev, s);
		if (ret) {
			pfm_perf_counter_put(t->ctx, s, t->sets[s]->counters, ev->counter, false);
			return ret;
		}
	}
	return 0;
}

/* ev leaves set s, where pfm_perf_sched_pinned_in() put it (its interval there closed). */
static void pfm_perf_sched_pinned_out(struct pfm_perf_target *t, struct pfm_perf_event *ev,
				      unsigned int s)
{
	if (ev->enc.own)
		pfm_perf_sample_teardown(ev, s);
	pfm_perf_counter_put(t->ctx, s, t->sets[s]->counters, ev->counter, false);
}

/*
 * Set s was just made: the pinned events go on it, at their indexes (they fit
 * there together as in every other set), all of them or, on failure, none.  A
 * counting one's interval in s opens with the sync that starts its counter
 * there (event.c).
 */
static int pfm_perf_sched_pinned(struct pfm_perf_target *t, unsigned int s)
{
	struct pfm_perf_event *ev, *undo;
	int ret;

	list_for_each_entry(ev, &t->events, entry) {
		if (!ev->all_sets || ev->counter < 0)
			continue;
		ret = pfm_perf_sched_pinned_in(t, ev, s);
		if (ret)
			goto undo;
	}
	return 0;
undo:
	list_for_each_entry(undo, &t->events, entry) {
		if (undo == ev)
			break;
		if (undo->all_sets && undo->counter >= 0)
			pfm_perf_sched_pinned_out(t, undo, s);
	}
	return ret;
}

struct pfm_perf_resets {
	struct pfarg_setdesc *d;
	unsigned int n;
	bool del;
	bool ran;
	long done;
};

static void pfm_perf_sched_resets_fn(struct pfm_context *ctx, void *arg)
{
	struct pfm_perf_resets *r = arg;
	struct pfarg_setdesc gone = { .set_id = r->n };

	r->ran = true;
	r->done = r->del ? pfm_delete_evtsets(ctx, &gone, 1) : pfm_create_evtsets(ctx, r->d, r->n);
}

/*
 * t's sets described by d[0..n) (made or changed) or, with del, set n deleted
 * (*done: 0 once that is done, else the errno), while its context is off the
 * thread (pfm_reattach_task()); then started again, from the set that was
 * active: the thread keeps being counted unless it exits meanwhile (ESRCH).  An
 * error before the detach (no memory for the new hook) changes nothing.
 */
static long pfm_perf_sched_resets(struct pfm_perf_target *t, struct pfarg_setdesc *d,
				  unsigned int n, bool del, long *done)
{
	struct pfm_perf_resets r = { .d = d, .n = n, .del = del };
	long ret;

	ret = pfm_reattach_task(t->ctx, t->task, pfm_perf_sched_resets_fn, &r);
	*done = r.ran ? r.done : ret;
	if (!ret)
		pfm_start(t->ctx, 0, 0);
	return *done ?: ret;
}

/*
 * The set just made goes again, its pinned events not all on it: what the
 * layer knows of its sets, pinned events in every one, stays true.  A set left
 * alone is described again without the switch timeout, as it was; if that
 * fails (no memory), it only switches to itself on each timeout.
 */
static void pfm_perf_sched_shrink(struct pfm_perf_target *t, struct pfarg_setdesc *d)
{
	unsigned int n = t->nr_sets - 1;
	long done;

	pfm_perf_sched_resets(t, NULL, n, true, &done);
	if (done)
		return;
	t->nr_sets = n;
	if (n > 1)
		return;
	memset(d, 0, sizeof(*d));
	pfm_perf_sched_resets(t, d, 1, false, &done);
}

/*
 * One more set: the sets (re)described with the switch timeout.  The pinned
 * groups go on it first, and its counters are brought in line
 * (pfm_perf_target_sync()).
 */
static int pfm_perf_sched_grow(struct pfm_perf_target *t)
{
	struct pfarg_setdesc *d;
	unsigned int i, n = t->nr_sets + 1;
	long ret, made, err;

	/* a CPU session is not detached for a new set: a CPU's groups fit in one */
	if (n > PFM_PERF_MAX_SETS || !t->task)
		return -EINVAL;
	/*
	 * A row left by a set that went again is nobody's: it starts clean, but
	 * for its wrapped array, kept with it (each counter's entry is zeroed
	 * when a sampling event takes the counter).
	 */
	if (t->sets[n - 1]) {
		struct pfm_perf_set *row = t->sets[n - 1];
		u64 *wrapped = row->wrapped;

		memset(row, 0, sizeof(*row));
		row->wrapped = wrapped;
	} else {
		t->sets[n - 1] = pfm_perf_set_row_alloc();
		if (!t->sets[n - 1])
			return -ENOMEM;
	}
	d = kcalloc(n, sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		d[i].set_id = i;
		d[i].set_flags = PFM_SETFL_TIME_SWITCH;
		d[i].set_timeout = READ_ONCE(pfm_perf_mux_interval_ms) * NSEC_PER_MSEC;
	}
	ret = pfm_perf_sched_resets(t, d, n, false, &made);
	if (!made) {
		t->nr_sets = n;
		err = pfm_perf_sched_pinned(t, n - 1);
		if (err) {
			pfm_perf_sched_shrink(t, d);
			ret = ret ?: err;
		}
	}
	kfree(d);
	return ret ?: pfm_perf_target_sync(t);
}

/* ev's counter in set s, or the errno; -1 with no errno when it counts nothing. */
static int pfm_perf_sched_try(struct pfm_perf_target *t, struct pfm_perf_event *ev,
			      const struct pfm_perf_enc *enc, unsigned int s)
{
	int i, ret;

	if (!enc->counters) {
		ev->set = s;
		return 0;
	}
	/* a counting copy's new counter is programmed by the sync that follows */
	i = pfm_perf_counter_get(t->ctx, s, t->sets[s]->counters, enc, &ev->pmc,
				 t->copying && !enc->own ? &t->sets[s]->unwritten : NULL);
	if (i < 0)
		return i;
	ev->set = s;
	ev->counter = i;
	if (enc->own) {
		ret = pfm_perf_sample_setup(ev, s);
		if (ret) {
			pfm_perf_counter_put(t->ctx, s, t->sets[s]->counters, i, false);
			ev->counter = -1;
			return ret;
		}
	}
	return 0;
}

/*
 * perf_events keeps a hardware group exclusive: a software one always goes on
 * (6.1's group_can_go_on()), exclusive or not.
 */
static bool pfm_perf_sched_exclusive(const struct pfm_perf_event *ev)
{
	return ev->attr.exclusive && !pfm_perf_swevent(&ev->attr);
}

/* An empty row: what an event must fit in alone to fit anywhere. */
static const struct pfm_perf_counter pfm_perf_sched_empty[PFM_PERF_NUM_COUNTERS];

/* Whether enc fits in a set of its own: 0, or the errno (EINVAL, EBUSY). */
static int pfm_perf_sched_fits_alone(const struct pfm_perf_enc *enc)
{
	u64 pmc;
	int ret;

	ret = pfm_perf_place(pfm_perf_sched_empty, enc, &pmc);
	return ret < 0 ? ret : 0;
}

/* The pinned events of t, alone in a row: what a group must fit beside in any set. */
static void pfm_perf_sched_pinned_row(struct pfm_perf_target *t, struct pfm_perf_counter *row)
{
	struct pfm_perf_event *ev;

	list_for_each_entry(ev, &t->events, entry) {
		if (!ev->all_sets || ev->counter < 0)
			continue;
		row[ev->counter].pmc = ev->pmc;
		row[ev->counter].users++;
		row[ev->counter].smpl |= ev->enc.own;
	}
}

/*
 * Whether enc fits beside the pinned groups alone: 0, or the errno (EINVAL,
 * EBUSY).  The row is too big for the stack: it is allocated, only where there
 * is a pinned group to put in it.
 */
static int pfm_perf_sched_beside_pinned(struct pfm_perf_target *t,
					const struct pfm_perf_enc *enc)
{
	struct pfm_perf_counter *row;
	struct pfm_perf_event *ev;
	bool pinned = false;
	u64 pmc;
	int ret;

	list_for_each_entry(ev, &t->events, entry)
		pinned |= ev->all_sets && ev->counter >= 0;
	if (!pinned)
		return pfm_perf_sched_fits_alone(enc);
	row = kcalloc(PFM_PERF_NUM_COUNTERS, sizeof(*row), GFP_KERNEL);
	if (!row)
		return -ENOMEM;
	pfm_perf_sched_pinned_row(t, row);
	ret = pfm_perf_place(row, enc, &pmc);
	kfree(row);
	return ret < 0 ? ret : 0;
}

/* A set for a new flexible group: the first it fits in, else a new one. */
static int pfm_perf_sched_leader(struct pfm_perf_target *t, struct pfm_perf_event *ev,
				 const struct pfm_perf_enc *enc)
{
	unsigned int s;
	int ret;

	/* one that does not fit beside the pinned groups makes no set (EINVAL, EBUSY) */
	if (enc->counters) {
		ret = pfm_perf_sched_beside_pinned(t, enc);
		if (ret)
			return ret;
	}
	for (s = 0; s < t->nr_sets; s++) {
		if (t->sets[s]->exclusive)
			continue;
		if (pfm_perf_sched_exclusive(ev) && t->sets[s]->users)
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

/*
 * ev (of a pinned group) in every set, at one index; -EINVAL when no index is
 * free in every set.  On failure nothing is taken.
 */
static int pfm_perf_sched_every(struct pfm_perf_target *t, struct pfm_perf_event *ev)
{
	struct pfm_perf_counter *rows[PFM_PERF_MAX_SETS];
	unsigned int s;
	int i, ret;

	ev->all_sets = true;
	if (!ev->enc.counters)
		return 0;
	for (s = 0; s < t->nr_sets; s++)
		rows[s] = t->sets[s]->counters;
	i = pfm_perf_place_every(rows, t->nr_sets, &ev->enc);
	if (i < 0)
		goto fail;
	ev->counter = i;
	for (s = 0; s < t->nr_sets; s++) {
		ret = pfm_perf_sched_pinned_in(t, ev, s);
		if (ret < 0) {
			while (s--)
				pfm_perf_sched_pinned_out(t, ev, s);
			ev->counter = -1;
			i = ret;
			goto fail;
		}
	}
	return 0;
fail:
	ev->all_sets = false;
	return i;
}

/*
 * A pinned group that fits alone: in every set, else unscheduled (its leader
 * only: the members of an unscheduled leader wait unplaced with it).
 */
static int pfm_perf_sched_place_pinned(struct pfm_perf_target *t, struct pfm_perf_event *ev,
				       struct pfm_perf_event *leader)
{
	int ret;

	if (leader && leader->unsched)
		return 0;
	if (ev->enc.counters) {
		ret = pfm_perf_sched_fits_alone(&ev->enc);
		if (ret)
			return ret;
	}
	ret = pfm_perf_sched_every(t, ev);
	if (ret == -EINVAL && !leader) {
		ev->unsched = true;
		return 0;
	}
	return ret;
}

/* ev's set and counter (ev->set, ev->counter): ev alone, or in leader's group. */
int pfm_perf_sched_place(struct pfm_perf_target *t, struct pfm_perf_event *ev,
			 struct pfm_perf_event *leader, const struct pfm_perf_enc *enc)
{
	struct pfm_perf_set *set;
	int ret;

	if (!t->nr_sets)
		t->nr_sets = 1;		/* the context's first set, made with it */
	if ((leader ?: ev)->attr.pinned)
		return pfm_perf_sched_place_pinned(t, ev, leader);
	if (leader)
		ret = pfm_perf_sched_try(t, ev, enc, leader->set);
	else
		ret = pfm_perf_sched_leader(t, ev, enc);
	if (ret)
		return ret;
	set = t->sets[ev->set];
	if (!leader && pfm_perf_sched_exclusive(ev))
		set->exclusive = true;
	set->users++;
	ev->in_set = true;
	return 0;
}

/* ev leaves its set; an exclusive set that empties takes any group again. */
void pfm_perf_sched_leave(struct pfm_perf_event *ev)
{
	struct pfm_perf_set *set = ev->target->sets[ev->set];

	if (!ev->in_set)
		return;
	ev->in_set = false;
	if (!--set->users)
		set->exclusive = false;
}

/*
 * sib's leader left it: a member never placed (its leader was unscheduled) is
 * placed now as a group of its own, flexible as perf_events makes a promoted
 * member; where it fits nowhere it stays unplaced and counts nothing.
 */
void pfm_perf_sched_orphan(struct pfm_perf_event *sib)
{
	if (sib->counter >= 0 || sib->in_set || sib->all_sets)
		return;
	if (pfm_perf_sched_place(sib->target, sib, NULL, &sib->enc))
		sib->counter = -1;
}

/*
 * An unscheduled pinned leader is enabled: its group in every set if it fits
 * now (the leader, then its members in order), else -EINVAL and nothing taken.
 */
int pfm_perf_sched_retry(struct pfm_perf_event *leader)
{
	struct pfm_perf_target *t = leader->target;
	struct pfm_perf_event *sib, *undo;
	int ret;

	ret = pfm_perf_sched_every(t, leader);
	if (ret)
		return ret;
	list_for_each_entry(sib, &leader->siblings, sibling_entry) {
		ret = pfm_perf_sched_every(t, sib);
		if (ret)
			goto undo;
	}
	leader->unsched = false;
	return 0;
undo:
	list_for_each_entry(undo, &leader->siblings, sibling_entry) {
		if (undo == sib)
			break;
		pfm_perf_event_teardown(undo);
	}
	pfm_perf_event_teardown(leader);
	return ret;
}
