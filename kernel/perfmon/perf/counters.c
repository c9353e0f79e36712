// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: placing perf events on a target's counters (counters.h), software and
 * hardware alike, and the PMC writes that put counters in a state.
 *
 * Placement is for the life of the event, in one event set (sched.c picks
 * it; each set has its own row of counters): an event
 * shares a counter already programmed with its value, else takes a free one it
 * may use, a fixed counter before a general-purpose one (as perf_events'
 * scheduler prefers them), so that the general-purpose counters stay for the
 * events that need them.  When nothing is left the event does not fit: EINVAL,
 * the errno perf_events gives a group that cannot be scheduled, or EBUSY when a
 * counter it could use is held by someone else (perf_events or the NMI watchdog:
 * EBUSY is what perf_events answers when it cannot reserve the counters).
 * A group that does not fit beside the others goes to another set (sched.c),
 * so these errnos reach perf only for a group that fits in no set.
 */
#include "layer.h"
#include "counters.h"

/* A mask of counters is one u64; the software counters are the software PMU's first. */
static_assert(PFM_PERF_NUM_COUNTERS <= 64 && PFM_PERF_SW_COUNTERS <= PFM_SW_NUM_COUNTERS);

static bool pfm_perf_is_fixed(unsigned int i)
{
	return i >= PFM_PERF_FIXED_FIRST;
}

/* The PMD counter i counts in. */
unsigned int pfm_perf_counter_pmd(unsigned int i)
{
	if (i < PFM_PERF_GP_FIRST)
		return PFM_SW_FIRST_PMD + i;
	if (!pfm_perf_is_fixed(i))
		return PFM_X86_FIRST_GP_PMD + i - PFM_PERF_GP_FIRST;
	return PFM_X86_FIRST_FIXED_PMD + i - PFM_PERF_FIXED_FIRST;
}

/* The PMC that controls counter i. */
unsigned int pfm_perf_counter_pmc(unsigned int i)
{
	if (i < PFM_PERF_GP_FIRST)
		return PFM_SW_FIRST_PMC + i;
	if (!pfm_perf_is_fixed(i))
		return PFM_X86_FIRST_GP_PMC + i - PFM_PERF_GP_FIRST;
	return PFM_X86_FIXED_CTRL_PMC;
}

/*
 * The unit's general-purpose and fixed counters are those of
 * <perfmon/perfmon_x86.h>, which the numbering (counters.h) has room for; a bit
 * past that room is dropped rather than let spill into the next range.
 */
int pfm_perf_hw_encode(const struct perf_event_attr *attr, int cpu, struct pfm_perf_enc *enc)
{
	struct pfm_attr_enc a;
	int ret;

	memset(enc, 0, sizeof(*enc));
	ret = pfm_pmu_encode_attr(attr, cpu, &a);
	if (ret)
		return ret;
	enc->type = a.type;
	enc->counters = (a.gp & (PFM_PERF_COUNTER(PFM_X86_MAX_GP) - 1)) << PFM_PERF_GP_FIRST |
			(a.fixed & (PFM_PERF_COUNTER(PFM_X86_MAX_FIXED) - 1)) << PFM_PERF_FIXED_FIRST;
	enc->pmc = a.sel;
	enc->fixed_pmc = a.fixed_ctrl;
	return 0;
}

bool pfm_perf_gate_cpu(int ev_cpu, u8 type, int cpu)
{
	if (ev_cpu >= 0 && ev_cpu != cpu)
		return false;
	return !type || pfm_pmu_cpu_type(cpu) == type - 1;
}

/* Counter i exists and no one else holds it (the software counters always). */
static bool pfm_perf_counter_avail(unsigned int i, const unsigned long *pmcs,
				   const unsigned long *pmds)
{
	return test_bit(pfm_perf_counter_pmc(i), pmcs) &&
	       test_bit(pfm_perf_counter_pmd(i), pmds);
}

/*
 * The counter enc goes on, given the counters in use: its index, with *pmc the
 * value it takes there; -EINVAL when every counter it may use is taken by other
 * values, -EBUSY when one it may use is held by someone else.
 */
int pfm_perf_place(const struct pfm_perf_counter *counters, const struct pfm_perf_enc *enc,
		   u64 *pmc)
{
	DECLARE_BITMAP(pmcs, PFM_NUM_PMCS);
	DECLARE_BITMAP(pmds, PFM_NUM_PMDS);
	unsigned long mask = enc->counters, used = 0, open, fixed;
	unsigned int i;
	u64 v;

	/* the counters it may use that are taken: one of them it may share */
	for (i = 0; mask >> i; i++)
		if (counters[i].users)
			used |= 1UL << i;
	used &= mask;
	for_each_set_bit(i, &used, PFM_PERF_NUM_COUNTERS) {
		v = pfm_perf_is_fixed(i) ? enc->fixed_pmc : enc->pmc;
		if (!enc->own && !counters[i].smpl && counters[i].pmc == v &&
		    counters[i].users < PFM_PERF_USERS_MAX) {
			*pmc = v;
			return i;
		}
	}
	open = mask & ~used;
	if (!open)
		return -EINVAL;
	/* a fixed counter first, as perf_events' scheduler prefers them, else the lowest */
	pfm_pmu_avail(pmcs, pmds);
	fixed = open & ~(PFM_PERF_COUNTER(PFM_PERF_FIXED_FIRST) - 1);
	for_each_set_bit(i, &fixed, PFM_PERF_NUM_COUNTERS)
		if (pfm_perf_counter_avail(i, pmcs, pmds)) {
			*pmc = enc->fixed_pmc;
			return i;
		}
	for_each_set_bit(i, &open, PFM_PERF_FIXED_FIRST)
		if (pfm_perf_counter_avail(i, pmcs, pmds)) {
			*pmc = enc->pmc;
			return i;
		}
	return -EBUSY;
}

/* Index i of every row is free for enc, or shares a counter it may share. */
static bool pfm_perf_fits_at(struct pfm_perf_counter *const *rows, unsigned int nr,
			     const struct pfm_perf_enc *enc, unsigned int i)
{
	struct pfm_perf_enc one = *enc;
	unsigned int s;
	u64 pmc;

	one.counters = PFM_PERF_COUNTER(i);
	for (s = 0; s < nr; s++)
		if (pfm_perf_place(rows[s], &one, &pmc) != i)
			return false;
	return true;
}

/*
 * The one counter index where enc goes in each of nr rows (a pinned group's
 * event is in every set, sched.c), a fixed counter first as
 * pfm_perf_place() prefers; -EINVAL when no index is free in every row.
 */
int pfm_perf_place_every(struct pfm_perf_counter *const *rows, unsigned int nr,
			 const struct pfm_perf_enc *enc)
{
	unsigned long fixed = enc->counters & ~(PFM_PERF_COUNTER(PFM_PERF_FIXED_FIRST) - 1);
	unsigned long rest = enc->counters & ~fixed;
	unsigned int i;

	for_each_set_bit(i, &fixed, PFM_PERF_NUM_COUNTERS)
		if (pfm_perf_fits_at(rows, nr, enc, i))
			return i;
	for_each_set_bit(i, &rest, PFM_PERF_NUM_COUNTERS)
		if (pfm_perf_fits_at(rows, nr, enc, i))
			return i;
	return -EINVAL;
}

/* ev takes the overflows of counter i in set (NULL: nobody); ctx->lock held. */
void pfm_perf_route_set(struct pfm_perf_routes *r, unsigned int set, unsigned int i,
			struct pfm_perf_event *ev)
{
	r->ev[set][i] = ev;
}

/* Whose overflow PMD pmd of set is: NULL for a PMD no sampling event owns. */
struct pfm_perf_event *pfm_perf_route_find(const struct pfm_perf_routes *r, unsigned int set,
					   unsigned int pmd)
{
	unsigned int i;

	if (set >= PFM_PERF_MAX_SETS)
		return NULL;
	for (i = 0; i < PFM_PERF_NUM_COUNTERS; i++)
		if (pfm_perf_counter_pmd(i) == pmd)
			return r->ev[set][i];
	return NULL;
}

/*
 * What a write of pmc to counter i would be refused for, checked without writing
 * it: a fixed counter's levels are its on switch, and its control is shared with
 * the other fixed counters.  The others are checked by the write that programs
 * them (pfm_write_pmcs(): reserved bits, the driver's checks, privilege).
 */
static int pfm_perf_counter_check(unsigned int i, u64 pmc)
{
	const struct pfm_reg *r = &pfm_pmu.pmc[PFM_X86_FIXED_CTRL_PMC];

	if (!pfm_perf_is_fixed(i))
		return 0;
	if (!r->desc || (pmc & r->desc->rsvd_msk))
		return -EINVAL;
	return pfm_access_pmc(r->desc, pmc);
}

static u64 pfm_perf_counter_value(const struct pfm_perf_counter *c, unsigned int i, bool on)
{
	if (!c->users)
		return 0;
	if (pfm_perf_is_fixed(i))
		return on ? c->pmc : 0;
	return c->pmc | (on ? PFM_PERF_PMC_EN : 0);
}

/*
 * The PMC requests that put the counters in changed in their state: on where
 * counting[i] (the counters' own counting when counting is NULL), programmed but
 * off where it is 0, quiescent where no event uses the counter.  The fixed
 * counters share one control: it goes out once, with every fixed counter's
 * state.  req has room for one request per counter in changed (at most); returns
 * the number filled.
 */
unsigned int pfm_perf_counters_req(const struct pfm_perf_counter *counters,
				   const unsigned int *counting, u64 changed,
				   struct pfarg_pmc *req)
{
	unsigned long mask = changed & (PFM_PERF_COUNTER(PFM_PERF_FIXED_FIRST) - 1);
	unsigned int i, n = 0;
	u64 fixed = 0;
	bool on;

	/* a sync changes a few counters of the row: only those are visited */
	for_each_set_bit(i, &mask, PFM_PERF_FIXED_FIRST) {
		on = counting ? counting[i] : counters[i].counting;
		memset(&req[n], 0, sizeof(req[n]));
		req[n].reg_num = pfm_perf_counter_pmc(i);
		req[n].reg_value = pfm_perf_counter_value(&counters[i], i, on);
		n++;
	}
	if (!(changed >> PFM_PERF_FIXED_FIRST))
		return n;
	for (i = PFM_PERF_FIXED_FIRST; i < PFM_PERF_NUM_COUNTERS; i++) {
		on = counting ? counting[i] : counters[i].counting;
		fixed |= pfm_perf_counter_value(&counters[i], i, on);
	}
	memset(&req[n], 0, sizeof(req[n]));
	req[n].reg_num = PFM_X86_FIXED_CTRL_PMC;
	req[n].reg_value = fixed;
	return n + 1;
}

/*
 * Writes the PMCs of the counters in changed as counting[] says (the counters'
 * own counting when NULL): one vector, with a request per changed counter (a
 * sync's few fit in the frame, more take an allocation); clock, if any, is
 * taken with the write (rw.h).
 */
#define PFM_PERF_REQ_STACK	4
static int pfm_perf_counters_send(struct pfm_context *ctx, u16 set,
				  const struct pfm_perf_counter *counters,
				  const unsigned int *counting, u64 changed,
				  struct pfm_op_clock *clock)
{
	struct pfarg_pmc on_stack[PFM_PERF_REQ_STACK], *req = on_stack;
	unsigned int i, n;
	long ret;

	n = hweight64(changed & (PFM_PERF_COUNTER(PFM_PERF_FIXED_FIRST) - 1)) +
	    !!(changed >> PFM_PERF_FIXED_FIRST);
	if (n > PFM_PERF_REQ_STACK) {
		req = kmalloc_array(n, sizeof(*req), GFP_KERNEL);
		if (!req)
			return -ENOMEM;
	}
	n = pfm_perf_counters_req(counters, counting, changed, req);
	for (i = 0; i < n; i++)
		req[i].reg_set = set;
	ret = pfm_write_pmcs_clocked(ctx, req, n, clock);
	if (req != on_stack)
		kfree(req);
	return ret;
}

/*
 * Programs the counters in changed to counting[] (one vector: a group starts and
 * stops as a unit) and records every counter's counting on success; clock, if
 * any, is taken with the write (rw.h).
 */
int pfm_perf_counters_write(struct pfm_context *ctx, u16 set,
			    struct pfm_perf_counter *counters,
			    const unsigned int *counting, u64 changed,
			    struct pfm_op_clock *clock)
{
	unsigned int i;
	int ret;

	if (changed) {
		ret = pfm_perf_counters_send(ctx, set, counters, counting, changed, clock);
		if (ret)
			return ret;
	}
	for (i = 0; i < PFM_PERF_NUM_COUNTERS; i++)
		counters[i].counting = counting[i];
	return 0;
}

/* The new counters pfm_perf_counter_get() left in *unwritten, programmed at once. */
int pfm_perf_counters_program(struct pfm_context *ctx, u16 set,
			      const struct pfm_perf_counter *counters, u64 *unwritten)
{
	int ret;

	ret = pfm_perf_counters_send(ctx, set, counters, NULL, *unwritten, NULL);
	if (ret)
		return ret == -EPERM ? -EACCES : ret;
	*unwritten = 0;
	return 0;
}

/*
 * A counter for enc (pfm_perf_place()), taken by one more event: the counter
 * index, with *pmc its value, or the errno.  A new counter is programmed (off)
 * at once, which checks the value: privilege refusals are EACCES, the errno
 * perf tools fall back on.  With unwritten, a new general-purpose or software
 * counter is only marked there, for pfm_perf_counters_program() to write with
 * the others in one vector (events copied at once, of values already checked).
 */
int pfm_perf_counter_get(struct pfm_context *ctx, u16 set, struct pfm_perf_counter *counters,
			 const struct pfm_perf_enc *enc, u64 *pmc, u64 *unwritten)
{
	struct pfm_perf_counter *c;
	struct pfarg_pmc req;
	long ret;
	int i;

	i = pfm_perf_place(counters, enc, pmc);
	if (i < 0)
		return i;
	c = &counters[i];
	if (!c->users) {
		ret = pfm_perf_counter_check(i, *pmc);
		if (!ret && unwritten && !pfm_perf_is_fixed(i)) {
			c->pmc = *pmc;
			*unwritten |= PFM_PERF_COUNTER(i);
		} else if (!ret) {
			c->pmc = *pmc;
			c->users = 1;
			pfm_perf_counters_req(counters, NULL, PFM_PERF_COUNTER(i), &req);
			req.reg_set = set;
			ret = pfm_write_pmcs(ctx, &req, 1);
			c->users = 0;
		}
		if (ret)
			return ret == -EPERM ? -EACCES : ret;
	}
	c->users++;
	return i;
}

/*
 * An event leaves counter i (counting: it was counting on it): the counter stops
 * when no event counts on it and goes quiescent when no event uses it.
 */
void pfm_perf_counter_put(struct pfm_context *ctx, u16 set, struct pfm_perf_counter *counters,
			  unsigned int i, bool counting)
{
	struct pfm_perf_counter *c = &counters[i];
	struct pfarg_pmc req;

	/* ctx NULL: the context goes with its events, nothing to stop (counters.h) */
	if (counting)
		c->counting--;
	if ((!--c->users || !c->counting) && ctx) {
		pfm_perf_counters_req(counters, NULL, PFM_PERF_COUNTER(i), &req);
		req.reg_set = set;
		pfm_write_pmcs(ctx, &req, 1);
	}
}
