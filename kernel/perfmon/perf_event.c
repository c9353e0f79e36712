// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: perf events onto a target's context.
 *
 * An event that counts takes one software counter and programs its PMC with the
 * event and level bits; it counts while the PMC's EN bit is on, which is while
 * the event is enabled and so is its group leader (every change goes out as one
 * pfm_write_pmcs() vector for all of the thread's counters, so a group switches
 * as a unit).  Counts are
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

static void pfm_perf_pmc_req(struct pfarg_pmc *req, int counter, u64 value)
{
	memset(req, 0, sizeof(*req));
	req->reg_num = PFM_SW_FIRST_PMC + counter;
	req->reg_value = value;
}

static bool pfm_perf_wants(const struct pfm_perf_event *ev)
{
	return ev->enabled && ev->leader->enabled;
}

/* Adds to req the PMC write that brings ev's counter in line with its state. */
static void pfm_perf_sync_req(struct pfm_perf_event *ev, struct pfarg_pmc *req,
			      unsigned int *n)
{
	if (pfm_perf_wants(ev) != ev->counting && ev->counter >= 0)
		pfm_perf_pmc_req(&req[(*n)++], ev->counter,
				 ev->pmc | (ev->counting ? 0 : PFM_SW_PMC_EN));
}

/* Its counter written: ev's counted time opens or closes at now. */
static void pfm_perf_sync_time(struct pfm_perf_event *ev, u64 now)
{
	if (pfm_perf_wants(ev) == ev->counting)
		return;
	ev->counting = !ev->counting;
	if (ev->counting)
		ev->since_ns = now;
	else
		ev->ena_ns += now - ev->since_ns;
}

/*
 * Brings every counter of t in line with its event's state, in one vector and at
 * one time stamp: a group starts and stops as a unit, and events enabled
 * together (enable_on_exec) count the same time.
 */
static int pfm_perf_target_sync(struct pfm_perf_target *t)
{
	struct pfm_perf_event *ev;
	struct pfarg_pmc *req;
	unsigned int n = 0;
	u64 now;
	int ret;

	req = kcalloc(PFM_SW_NUM_COUNTERS, sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	list_for_each_entry(ev, &t->events, entry)
		pfm_perf_sync_req(ev, req, &n);
	ret = pfm_perf_now(t, &now);
	if (!ret && n)
		ret = pfm_write_pmcs(t->ctx, req, n);
	kfree(req);
	if (ret)
		return ret;
	list_for_each_entry(ev, &t->events, entry)
		pfm_perf_sync_time(ev, now);
	return 0;
}

static int pfm_perf_write_pmd(struct pfm_perf_event *ev, u64 value)
{
	struct pfarg_pmd req = {};

	req.reg_num = PFM_SW_FIRST_PMD + ev->counter;
	req.reg_value = value;
	return pfm_write_pmds(ev->target->ctx, &req, 1);
}

/* A counter for ev, cleared and stopped; ENOSPC when all are taken. */
int pfm_perf_event_setup(struct pfm_perf_event *ev)
{
	struct pfm_perf_target *t = ev->target;
	struct pfarg_pmc req;
	int i, ret;

	ev->counter = -1;
	ev->pmc = pfm_perf_sw_pmc(&ev->attr);
	if (!ev->pmc)
		return 0;
	for (i = 0; i < PFM_SW_NUM_COUNTERS; i++)
		if (!(t->used & (1U << i)))
			break;
	if (i == PFM_SW_NUM_COUNTERS)
		return -ENOSPC;
	pfm_perf_pmc_req(&req, i, ev->pmc);
	ret = pfm_write_pmcs(t->ctx, &req, 1);
	if (ret)
		return ret == -EPERM ? -EACCES : ret;
	ev->counter = i;
	ret = pfm_perf_write_pmd(ev, 0);
	if (ret) {
		ev->counter = -1;
		return ret;
	}
	t->used |= 1U << i;
	return 0;
}

/* ev stops counting and gives its counter back. */
void pfm_perf_event_teardown(struct pfm_perf_event *ev)
{
	struct pfarg_pmc req;

	if (ev->counter < 0)
		return;
	pfm_perf_pmc_req(&req, ev->counter, 0);
	pfm_write_pmcs(ev->target->ctx, &req, 1);
	ev->target->used &= ~(1U << ev->counter);
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
	if (ev->counter < 0)
		return 0;
	return pfm_perf_write_pmd(ev, 0);
}

/* ev's own count and counted time, without its inherited copies. */
int pfm_perf_event_value(struct pfm_perf_event *ev, struct pfm_perf_value *v)
{
	struct pfarg_pmd req = {};
	u64 now;
	int ret;

	v->count = 0;
	v->ena_ns = ev->ena_ns;
	if (ev->counter >= 0) {
		req.reg_num = PFM_SW_FIRST_PMD + ev->counter;
		ret = pfm_read_pmds(ev->target->ctx, &req, 1);
		if (ret)
			return ret;
		v->count = req.reg_value;
	}
	if (ev->counting) {
		ret = pfm_perf_now(ev->target, &now);
		if (ret)
			return ret;
		v->ena_ns += now - ev->since_ns;
	}
	return 0;
}
