// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: perf events onto a target's context.
 *
 * An event that counts uses a counter (counters.h: a software counter, or a
 * hardware one for perf's hardware events), programmed with the event and level
 * bits and shared by every event of the thread that counts the same: the
 * counter runs while one of them counts, and each event adds up the counter's
 * progress over its own intervals, so that any number of counting software
 * events fit in the software counters, as software events always fit with
 * perf_events.  Hardware events fit as long as the hardware counters last
 * (counters.c: placement, and what happens when they run out).  An
 * event counts while it is enabled and so is its group leader; every change goes
 * out as one pfm_write_pmcs() vector, so a group switches as a unit.  Counts are
 * the core's PMD values; times are the live durations of the context's sets
 * (sched.c), whose sum for a per-thread session is the thread's time on a
 * CPU: perf_events reports the same for per-task events (time_enabled ==
 * time_running == on-CPU time while enabled and not multiplexed).
 *
 * Levels as perf_events has them: the clocks count at any level; page faults by
 * the level that caused them (the software PMU's USR and OS bits); context
 * switches and migrations happen in the kernel, so exclude_kernel=1 counts none.
 * All callers hold target->ctx->mutex.
 */
#include <linux/sched/clock.h>

#include "layer.h"
#include "breakpoint.h"
#include "counters.h"
#include "event.h"
#include "sample.h"
#include "sched.h"

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

/*
 * A tracepoint: the software PMU's TRACEPOINT event keyed by the tracefs id
 * (open.c checked that it fits).  perf_events drops a hit only for
 * exclude_kernel when its registers are not at user level: kernel-level hits
 * count unless it is set, user-level ones always.
 */
static u64 pfm_perf_tp_pmc(const struct perf_event_attr *a)
{
	return PFM_SW_EV_TRACEPOINT | PFM_SW_PMC_USR | (a->exclude_kernel ? 0 : PFM_SW_PMC_OS) |
	       (a->config << PFM_SW_PMC_KEY_SHIFT);
}

/*
 * Where ev may count, and with what value: software events, tracepoints' and
 * breakpoints' hits (trace/, breakpoint.c) on the software PMU, hardware
 * events by the PMU.
 */
static int pfm_perf_encode(const struct pfm_perf_event *ev, struct pfm_perf_enc *enc)
{
	const struct perf_event_attr *a = &ev->attr;

	switch (a->type) {
	case PERF_TYPE_SOFTWARE:
	case PERF_TYPE_TRACEPOINT:
	case PERF_TYPE_BREAKPOINT:
		break;
	default:
		return pfm_perf_hw_encode(a, ev->cpu, enc);
	}
	memset(enc, 0, sizeof(*enc));
	switch (a->type) {
	case PERF_TYPE_SOFTWARE:
		enc->pmc = pfm_perf_sw_pmc(a);
		break;
	case PERF_TYPE_TRACEPOINT:
		enc->pmc = pfm_perf_tp_pmc(a);
		break;
	default:
		enc->pmc = pfm_perf_bp_pmc(ev);
	}
	if (enc->pmc)
		enc->counters = PFM_PERF_COUNTER(PFM_PERF_SW_COUNTERS) - 1;
	return 0;
}

/* Counts now: enabled, its leader too, and its group placed (not in ERROR). */
static bool pfm_perf_wants(const struct pfm_perf_event *ev)
{
	return ev->enabled && ev->leader->enabled && !ev->leader->unsched;
}

/* Counters read per call of the core, from the stack. */
#define PFM_PERF_READ_CHUNK	8

/*
 * Reads the PMDs of set's counters in mask, in counter order, into pmd[] (one
 * value per counter in mask): the core's lean read vector, on the stack, so
 * that a read() of an event allocates nothing.  clock, if any and not yet
 * taken, is taken with the first read.
 */
static int pfm_perf_read_counters(struct pfm_perf_target *t, u16 set, u64 mask, u64 *pmd,
				  struct pfm_op_clock *clock)
{
	struct pfm_perf_set *row = t->sets[set];
	struct pfm_pmd_read rd[PFM_PERF_READ_CHUNK];
	u8 idx[PFM_PERF_READ_CHUNK];
	unsigned long bits = mask;
	unsigned int i, n, k = 0;
	long ret;

	while (bits) {
		n = 0;
		for_each_set_bit(i, &bits, PFM_PERF_NUM_COUNTERS) {
			if (n == PFM_PERF_READ_CHUNK)
				break;
			memset(&rd[n], 0, sizeof(rd[n]));
			rd[n].h.num = pfm_perf_counter_pmd(i);
			rd[n].h.set_id = set;
			idx[n++] = i;
		}
		if (clock && !clock->taken)
			ret = pfm_read_pmd_vec_clocked(t->ctx, rd, n, clock);
		else
			ret = pfm_read_pmd_vec(t->ctx, rd, n);
		if (ret)
			return ret;
		/* a sampling counter's resets took its periods off: added back */
		for (i = 0; i < n; i++) {
			pmd[k++] = rd[i].value + pfm_perf_wrapped(row, idx[i]);
			__clear_bit(idx[i], &bits);
		}
	}
	return 0;
}

/* The value pfm_perf_read_counters() read of counter c in mask. */
static u64 pfm_perf_read_of(const u64 *pmd, u64 mask, unsigned int c)
{
	return pmd[hweight64(mask & (PFM_PERF_COUNTER(c) - 1))];
}

/* Whether ev's count interval in set s is to open or close. */
static bool pfm_perf_moves_in(const struct pfm_perf_event *ev, unsigned int s)
{
	return pfm_perf_wants(ev) != pfm_perf_open_in(ev, s);
}

/* What t's events in set want of each counter: how many count on it. */
static void pfm_perf_wanted(struct pfm_perf_target *t, u16 set, unsigned int *counting,
			    u64 *moved)
{
	struct pfm_perf_event *ev;

	*moved = 0;
	list_for_each_entry(ev, &t->events, entry) {
		if (ev->counter < 0 || !pfm_perf_in_set(ev, set))
			continue;
		if (pfm_perf_wants(ev))
			counting[ev->counter]++;
		if (pfm_perf_moves_in(ev, set))
			*moved |= PFM_PERF_COUNTER(ev->counter);
	}
}

/*
 * ev starts or stops counting in set s: its count interval there opens or
 * closes, at what was read of the counters in moved.
 */
static void pfm_perf_toggle_count(struct pfm_perf_event *ev, unsigned int s, u64 moved,
				  const u64 *pmd)
{
	u64 v;

	if (ev->counter < 0)
		return;
	v = pfm_perf_read_of(pmd, moved, ev->counter);
	if (!pfm_perf_open_in(ev, s))
		ev->base[s] = v;
	else
		ev->acc += v - ev->base[s];
	ev->open_sets ^= BIT(s);
}

/*
 * Its time intervals: enabled over all sets (a cgroup event: while its gate is
 * open), running over its own set (all, pinned; a gated event: while its gate
 * is open, cgroup.c).
 */
static u64 pfm_perf_ena_clock(const struct pfm_perf_event *ev, const struct pfm_perf_clock *c)
{
	return ev->cgrp ? ev->gate_snap_ns : c->total;
}

static u64 pfm_perf_run_clock(const struct pfm_perf_event *ev, const struct pfm_perf_clock *c)
{
	if (pfm_perf_gated(ev))
		return ev->gate_snap_ns;
	return ev->all_sets ? c->total : c->set[ev->set];
}

static void pfm_perf_toggle_time(struct pfm_perf_event *ev, const struct pfm_perf_clock *c)
{
	ev->counting = !ev->counting;
	if (ev->counting) {
		ev->since_ns = pfm_perf_ena_clock(ev, c);
		ev->run_since_ns = pfm_perf_run_clock(ev, c);
	} else {
		ev->ena_ns += pfm_perf_ena_clock(ev, c) - ev->since_ns;
		ev->run_ns += pfm_perf_run_clock(ev, c) - ev->run_since_ns;
	}
}

/* Counters whose values a sync reads into its own frame; more take an allocation. */
#define PFM_PERF_SYNC_STACK	8

/*
 * pfm_perf_target_sync() for the counters of one set.  clock goes with the first
 * read, and also with the writes when events only start: a write, if any, takes
 * it again, where the counters start.
 */
static int pfm_perf_set_sync(struct pfm_perf_target *t, u16 set, struct pfm_op_clock *clock,
			     bool only_starts)
{
	unsigned int counting[PFM_PERF_NUM_COUNTERS] = {};
	u64 on_stack[PFM_PERF_SYNC_STACK], *pmd = on_stack;
	struct pfm_perf_counter *counters = t->sets[set]->counters;
	struct pfm_perf_event *ev;
	u64 moved, changed = 0;
	unsigned int i, nr;
	int ret;

	/* before the read: a counter is read once programmed */
	if (t->sets[set]->unwritten) {
		ret = pfm_perf_counters_program(t->ctx, set, counters, &t->sets[set]->unwritten);
		if (ret)
			return ret;
	}
	pfm_perf_wanted(t, set, counting, &moved);
	nr = hweight64(moved);
	if (nr > PFM_PERF_SYNC_STACK) {
		pmd = kmalloc_array(nr, sizeof(*pmd), GFP_KERNEL);
		if (!pmd)
			return -ENOMEM;
	}
	ret = pfm_perf_read_counters(t, set, moved, pmd, clock);
	if (ret)
		goto out;
	for (i = 0; i < PFM_PERF_NUM_COUNTERS; i++)
		if (!!counting[i] != !!counters[i].counting)
			changed |= PFM_PERF_COUNTER(i);
	ret = pfm_perf_counters_write(t->ctx, set, counters, counting, changed,
				      only_starts ? clock : NULL);
	if (ret)
		goto out;
	list_for_each_entry(ev, &t->events, entry)
		if (pfm_perf_in_set(ev, set) && pfm_perf_moves_in(ev, set))
			pfm_perf_toggle_count(ev, set, moved, pmd);
out:
	if (pmd != on_stack)
		kfree(pmd);
	return ret;
}

/* Whether every event that changes state starts counting (none stops). */
static bool pfm_perf_only_starts(struct pfm_perf_target *t)
{
	struct pfm_perf_event *ev;

	list_for_each_entry(ev, &t->events, entry)
		if (ev->counting && !pfm_perf_wants(ev))
			return false;
	return true;
}

/*
 * Brings t's counters in line with its events' states: a counter runs while one
 * of its events counts.  One PMC vector per set and one time stamp: a group
 * starts and stops as a unit, and events enabled together (enable_on_exec) count
 * the same time.  The counters are read first, so that an event's interval opens
 * and closes where the counter stood.  Set by set: each has its own counters (a
 * pinned event one in each), and each event's interval in each set is opened or
 * closed with that set's write (ev->open_sets); an error in one set leaves the
 * sets before it done and the event's state (ev->counting, its times) as it
 * was, so that the next sync does only what is left.
 *
 * The time stamp is taken in a visit to the context's state that also reads or
 * writes the counters, so that a clock's count and its time_enabled agree (a
 * context on another CPU is a cross-CPU call away, and two calls there may be
 * a wake-up of that CPU apart): with the last write when events only start (a
 * counter starts at its write), else with the first read (an interval closes,
 * or opens on a counter already running, at the read).  Where events start and
 * others stop at once, the starting ones' counters start at the write, a visit
 * after the stamp.
 */
int pfm_perf_target_sync(struct pfm_perf_target *t)
{
	bool only_starts = pfm_perf_only_starts(t);
	struct pfm_perf_clock clock;
	struct pfm_perf_event *ev;
	struct pfm_op_clock op;
	unsigned int s;
	int ret = 0;

	pfm_perf_clock_op(t, &clock, &op);
	for (s = 0; !ret && s < t->nr_sets; s++)
		ret = pfm_perf_set_sync(t, s, &op, only_starts);
	if (ret)
		return ret;
	pfm_perf_clock_done(t, &clock, &op);
	list_for_each_entry(ev, &t->events, entry)
		if (pfm_perf_wants(ev) != ev->counting)
			pfm_perf_toggle_time(ev, &clock);
	pfm_perf_cgroup_sync(t);
	return 0;
}

/*
 * A counter for ev (pfm_perf_counter_get()) in its group's set (sched.c):
 * one already counting the same event at the same levels is shared (each event
 * keeps its own intervals of it), else a free one.  At most six distinct
 * software values exist (pfm_perf_sw_pmc()), so the software counters run
 * out only for sampling events, which take one of their own (software or
 * hardware alike: sample.c).
 */
int pfm_perf_event_setup(struct pfm_perf_target *t, struct pfm_perf_event *ev,
			 struct pfm_perf_event *leader)
{
	bool smpl = pfm_perf_sampling(&ev->attr), gated;
	int ret;

	ev->counter = -1;
	ret = pfm_perf_encode(ev, &ev->enc);
	if (ret)
		return ret;
	pfm_perf_filter_inherit(ev);
	/*
	 * On a hybrid machine a thread's group counts on its hardware events' type
	 * of CPU only, software members too, as 6.1 schedules a group on its
	 * PMU's CPUs; 6.1's validate_group() refuses hardware events of two types.
	 */
	ev->pmu_type = ev->enc.type;
	if (leader && leader != ev && leader->pmu_type) {
		if (ev->pmu_type && ev->pmu_type != leader->pmu_type)
			return -EINVAL;
		ev->pmu_type = leader->pmu_type;
	}
	/*
	 * A cgroup event's counter, a thread's event's on one CPU or on one type
	 * of CPU, is switched by its own enable bit at context switches
	 * (cgroup.c): its own, and no fixed counter (their enable bits are one
	 * register).
	 */
	gated = pfm_perf_gated(ev);
	ev->enc.own = smpl || gated;
	if (gated && ev->enc.counters) {
		ev->enc.counters &= PFM_PERF_COUNTER(PFM_PERF_FIXED_FIRST) - 1;
		/* a fixed counter's event alone (ref-cycles) fits nowhere then */
		if (!ev->enc.counters)
			return -EINVAL;
	}
	return pfm_perf_sched_place(t, ev, leader, &ev->enc);
}

/* ev stops counting and leaves its counters, which stop when no event counts on them. */
void pfm_perf_event_teardown(struct pfm_perf_event *ev)
{
	struct pfm_perf_target *t = ev->target;
	unsigned int s;

	pfm_perf_sched_leave(ev);
	for (s = 0; ev->counter >= 0 && s < t->nr_sets; s++) {
		if (!pfm_perf_in_set(ev, s))
			continue;
		if (t->sets[s]->counters[ev->counter].smpl)
			pfm_perf_sample_teardown(ev, s);
		pfm_perf_counter_put(t->folding ? NULL : t->ctx, s, t->sets[s]->counters,
				     ev->counter, pfm_perf_open_in(ev, s));
	}
	ev->open_sets = 0;
	ev->counting = false;
	ev->counter = -1;
	ev->all_sets = false;
}

/*
 * perf's enable or disable of one event, without the sync (its members follow a
 * leader's state).  Enabling a pinned leader that could not be scheduled tries
 * its group again: placed if it fits now, else it is in perf's ERROR state
 * (read() gives 0 bytes) until an enable finds it room, as 6.1's
 * _perf_event_enable() clears ERROR and schedules again.  Disabling leaves ERROR
 * alone, as perf_events does.
 */
void pfm_perf_event_mark(struct pfm_perf_event *ev, bool on)
{
	/* removed at an exec (sigtrap.c): 6.1's EXIT state, which no ENABLE leaves */
	if (ev->removed)
		on = false;
	/* side-band records of what happened before do not reach it (mmap.c) */
	if (on && !ev->enabled)
		WRITE_ONCE(ev->on_since, local_clock());
	WRITE_ONCE(ev->enabled, on);
	pfm_perf_bp_arm(ev, on);
	if (!on)
		return;
	ev->exec_armed = false;
	if (ev->unsched)
		ev->error = !!pfm_perf_sched_retry(ev);
}

int pfm_perf_event_set_enabled(struct pfm_perf_event *ev, bool on)
{
	pfm_perf_event_mark(ev, on);
	return pfm_perf_target_sync(ev->target);
}

/* enable_on_exec: every armed event of t at once. */
int pfm_perf_target_exec(struct pfm_perf_target *t)
{
	struct pfm_perf_event *ev;

	list_for_each_entry(ev, &t->events, entry)
		if (ev->exec_armed) {
			ev->exec_fired = true;	/* its exec's records: sideband.c */
			pfm_perf_event_mark(ev, true);
		}
	return pfm_perf_target_sync(t);
}

/* The count goes back to zero; the times do not (as perf_events). */
int pfm_perf_event_reset(struct pfm_perf_event *ev)
{
	struct pfm_perf_target *t = ev->target;
	unsigned int s;
	u64 pmd;
	int ret;

	ev->acc = 0;
	if (ev->counter < 0)
		return 0;
	for (s = 0; s < t->nr_sets; s++) {
		if (!pfm_perf_open_in(ev, s))
			continue;
		ret = pfm_perf_read_counters(t, s, PFM_PERF_COUNTER(ev->counter), &pmd, NULL);
		if (ret)
			return ret;
		ev->base[s] = pmd;
	}
	return 0;
}

/* ev's own count and counted time, without its inherited copies. */
int pfm_perf_event_value(struct pfm_perf_event *ev, struct pfm_perf_value *v)
{
	struct pfm_perf_target *t = ev->target;
	struct pfm_perf_clock clock;
	struct pfm_op_clock op;
	unsigned int s;
	u64 pmd;
	int ret;

	v->count = ev->acc;
	v->ena_ns = ev->ena_ns;
	v->run_ns = ev->run_ns;
	if (!ev->counting && !ev->open_sets)
		return 0;
	/* the times are those of the first read */
	pfm_perf_clock_op(t, &clock, &op);
	for (s = 0; ev->counter >= 0 && s < t->nr_sets; s++) {
		if (!pfm_perf_open_in(ev, s))
			continue;
		ret = pfm_perf_read_counters(t, s, PFM_PERF_COUNTER(ev->counter), &pmd, &op);
		if (ret)
			return ret;
		v->count += pmd - ev->base[s];
	}
	pfm_perf_clock_done(t, &clock, &op);
	if (!ev->counting)
		return 0;
	v->ena_ns += pfm_perf_ena_clock(ev, &clock) - ev->since_ns;
	v->run_ns += pfm_perf_run_clock(ev, &clock) - ev->run_since_ns;
	return 0;
}
