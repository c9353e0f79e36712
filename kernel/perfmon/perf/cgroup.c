// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: events counted only while a condition holds on their CPU: cgroup
 * events (PERF_FLAG_PID_CGROUP: pid is a cgroup v2 directory's
 * fd, cpu a CPU), as perf stat -G and --for-each-cgroup open them: an event of
 * the CPU's target that counts only while a task of that cgroup (or of one
 * below it) runs on the CPU, as 6.1's perf_cgroup_match() schedules it.
 *
 * The CPU's session counts whatever runs there.  A cgroup event takes a counter
 * of its own (never shared: its intervals are not the others'), and that
 * counter is switched on and off at each context switch on the CPU, by the
 * enable bit of its PMC, as the task that runs next is in the cgroup or not:
 * the counter then holds exactly the cgroup's count, and everything built on
 * counters (read(), groups, sampling, the clocks) works on it unchanged.  The
 * switch is a probe on the sched_switch tracepoint, registered while cgroup
 * events exist; it runs on the CPU whose session is live there, with the run
 * queue's lock held, and takes the context's lock, as the core's own switch
 * hooks do.  Whenever the layer programs the counters (pfm_perf_target_sync()),
 * the gates are applied again where the state lives, for the task running
 * there then, so that a program racing a switch is put right at once.
 *
 * A thread's event on one CPU (pid N, cpu C, perf record's) is gated the same
 * way, on the thread's target: at each switch in of the thread its counter is
 * set on for C and off elsewhere, before its state is loaded (the probe runs
 * before the core's switch hooks), so that it counts the thread's events on C
 * only, as 6.1 schedules such an event on C only.
 *
 * Their times follow the gates, as 6.1's: a thread's event on C has time_enabled
 * the thread's time while enabled and time_running its part on C (6.1 keeps
 * the event inactive elsewhere); a cgroup event has both the time a task of its
 * cgroup ran on the CPU while enabled (6.1's cgroup time).
 *
 * Which cgroup: the task's on the default (v2) hierarchy, as 6.1 takes
 * perf_event's css there.  A v1 hierarchy's directory is EBADF (6.1 accepts
 * one with the perf_event controller; cgroup_get_from_fd() is what a module
 * has).
 */
#include <linux/cgroup.h>
#include <linux/tracepoint.h>

#include "layer.h"
#include "probes.h"
#include "counters.h"
#include "event.h"
#include "perf.h"
#include "sched.h"
#include "sideband.h"

/* The CPU targets with cgroup events, by CPU, for the switch probe (RCU). */
static DEFINE_PER_CPU(struct pfm_perf_target __rcu *, pfm_perf_cgroup_target);
static atomic_t pfm_perf_cpu_gated = ATOMIC_INIT(0);	/* thread events on one CPU */

/* Whether ev counts while task runs on cpu. */
static bool pfm_perf_gate_open(const struct pfm_perf_event *ev, struct task_struct *task,
			       int cpu)
{
	if (ev->cgrp)
		return task_under_cgroup_hierarchy(task, ev->cgrp);
	return pfm_perf_gate_cpu(ev->cpu, ev->pmu_type, cpu);
}

/* ev's gate time at run, a reading of the durations its times come from. */
u64 pfm_perf_gate_ns(const struct pfm_perf_event *ev, u64 run)
{
	return ev->gate_ns + (ev->gate_in ? pfm_ns_since(ev->gate_base, run) : 0);
}

/* The durations ev's times come from: its set's, or all the sets' (pinned). */
static u64 pfm_perf_gate_run(const struct pfm_perf_event *ev, const u64 *set_ns,
			     unsigned int n)
{
	unsigned int i;
	u64 total = 0;

	if (!ev->all_sets)
		return set_ns[ev->set];
	for (i = 0; i < n; i++)
		total += set_ns[i];
	return total;
}

/*
 * The gates' times as task runs on this CPU now or next (ctx->lock held, where
 * the state is): a gate that was open adds its time up to the durations now, and
 * opens again from them if task is where it counts.  A thread target's durations
 * stand still while its thread is off a CPU, so its gate, open from a switch in
 * on its CPU to the next switch in anywhere, times the thread on that CPU; a CPU
 * target's run all the time, and its gates time the cgroup's tasks there.
 */
static void pfm_perf_gate_times(struct pfm_perf_target *t, struct task_struct *task)
{
	u64 set_ns[PFM_PERF_MAX_SETS];
	struct pfm_op_clock op = { .set_ns = set_ns, .n = max(t->nr_sets, 1U) };
	struct pfm_perf_event *ev;
	u64 run;

	pfm_sets_clock_locked(t->ctx, &op);
	list_for_each_entry(ev, &t->gated, gate_entry) {
		run = pfm_perf_gate_run(ev, set_ns, op.n);
		ev->gate_ns = pfm_perf_gate_ns(ev, run);
		ev->gate_in = pfm_perf_gate_open(ev, task, smp_processor_id());
		ev->gate_base = run;
	}
}

/*
 * pfm_op_clock's with (sched.c): each gate's time at the durations just taken,
 * in the same visit, so that a switch between the two cannot set them apart.
 */
void pfm_perf_gate_snap(struct pfm_context *ctx, struct pfm_op_clock *op)
{
	struct pfm_perf_target *t = op->arg;
	struct pfm_perf_event *ev;

	list_for_each_entry(ev, &t->gated, gate_entry)
		ev->gate_snap_ns = pfm_perf_gate_ns(ev, pfm_perf_gate_run(ev, op->set_ns, op->n));
}

/*
 * The gates of t's events for task, which runs on this CPU now or next
 * (ctx->lock held): a CPU target's cgroup events, or a thread target's events
 * on one CPU (task is its thread).  A counter no event counts on stays off.
 */
static void pfm_perf_cgroup_gate(struct pfm_perf_target *t, struct task_struct *task)
{
	struct pfm_context *ctx = t->ctx;
	struct pfm_perf_event *ev;
	struct pfm_event_set *set;

	/* a thread target's state is elsewhere while another task runs here */
	if (!t->task || task == t->task)
		pfm_perf_gate_times(t, task);
	pfm_for_each_set(ctx, set) {
		if (set->id >= t->nr_sets)
			continue;
		list_for_each_entry(ev, &t->gated, gate_entry) {
			struct pfm_perf_counter *c;
			unsigned int reg;
			u64 was, pmc;
			bool on;

			if (ev->counter < 0 || !pfm_perf_in_set(ev, set->id))
				continue;
			c = &t->sets[set->id]->counters[ev->counter];
			reg = pfm_perf_counter_pmc(ev->counter);
			was = pfm_set_pmc_val(set, reg);
			/*
			 * A row ahead of its set (a new counter, SET_FILTER's new
			 * key, changed under ctx->mutex, not this lock) waits for
			 * its write, which takes the holds of the value it finds in
			 * the set and applies the gates after it
			 * (pfm_perf_cgroup_sync()): only the switch changes here.
			 */
			pmc = READ_ONCE(c->pmc);
			if ((was & ~PFM_PERF_PMC_EN) != pmc)
				continue;
			on = c->counting && pfm_perf_gate_open(ev, task, smp_processor_id());
			if (on != !!(was & PFM_PERF_PMC_EN))
				pfm_pmc_set_value(ctx, set, reg, pmc | (on ? PFM_PERF_PMC_EN : 0));
		}
	}
}

/* pfm_perf_sb_visit()'s: the target of the thread switched in, locked. */
static void pfm_perf_thread_gate(struct pfm_perf_target *t, void *next)
{
	if (!list_empty(&t->gated))
		pfm_perf_cgroup_gate(t, next);
}

static void pfm_perf_cgroup_switch(void *data, bool preempt, struct task_struct *prev,
				   struct task_struct *next, unsigned int prev_state)
{
	struct pfm_perf_target *t;
	struct pfm_context *ctx;

	/* the thread that comes in: its state is not loaded yet, its PMCs are */
	if (atomic_read(&pfm_perf_cpu_gated))
		pfm_perf_sb_visit(next, -1, pfm_perf_thread_gate, next);
	/* preemption is off in a tracepoint's probe: an RCU reader */
	t = rcu_dereference_sched(*this_cpu_ptr(&pfm_perf_cgroup_target));
	if (!t)
		return;
	ctx = t->ctx;
	raw_spin_lock(pfm_ctx_lock(ctx));
	if (pfm_ctx_is_loaded(ctx))
		pfm_perf_cgroup_gate(t, next);
	raw_spin_unlock(pfm_ctx_lock(ctx));
}

static void pfm_perf_cgroup_apply(struct pfm_context *ctx, void *arg)
{
	pfm_perf_cgroup_gate(arg, current);
}

/* After t's counters were programmed (event.c; ctx->mutex held). */
void pfm_perf_cgroup_sync(struct pfm_perf_target *t)
{
	if (!list_empty(&t->gated) && pfm_ctx_is_loaded(t->ctx))
		pfm_run_on_state(t->ctx, pfm_perf_cgroup_apply, t);
}

/*
 * The cgroup of a PERF_FLAG_PID_CGROUP open: fd must be a cgroup v2 directory
 * (EBADF, as perf_cgroup_connect()) that has perf_event's state (ENOENT, as
 * css_tryget_online_from_dir(): on v2 a new cgroup gets it, an implicit
 * controller, once some controller was enabled below the root); a member's
 * must be its leader's (EINVAL).  A kernel without perf_events' cgroup
 * support has none: EINVAL, as 6.1 without CONFIG_CGROUP_PERF.
 */
struct cgroup *pfm_perf_cgroup_get(int fd, const struct pfm_perf_event *leader)
{
#ifdef CONFIG_CGROUP_PERF
	struct cgroup *cgrp = cgroup_get_from_fd(fd);

	if (IS_ERR(cgrp))
		return ERR_PTR(-EBADF);
	if (!rcu_access_pointer(cgrp->subsys[perf_event_cgrp_id])) {
		cgroup_put(cgrp);
		return ERR_PTR(-ENOENT);
	}
	if (leader && leader->cgrp != cgrp) {
		cgroup_put(cgrp);
		return ERR_PTR(-EINVAL);
	}
	return cgrp;
#else
	return ERR_PTR(-EINVAL);
#endif
}

void pfm_perf_cgroup_put(struct pfm_perf_event *ev)
{
#ifdef CONFIG_CGROUP_PERF
	if (ev->cgrp)
		cgroup_put(ev->cgrp);
#endif
	ev->cgrp = NULL;
}

static struct pfm_probe pfm_perf_cgroup_probe = {
	.name = "sched_switch", .func = pfm_perf_cgroup_switch,
};

/*
 * The switch probe is on while gated events exist, and a second after the last
 * closes (probes.h): perf record opens and closes gated events per CPU, run
 * after run.  With nothing gated the probe does nothing.
 */
static struct pfm_probe_set pfm_perf_cgroup_probes = {
	.probes = &pfm_perf_cgroup_probe, .count = 1,
};

/* Without the tracepoint, cgroup events are EOPNOTSUPP (perfmon_perf.h). */
static int pfm_perf_cgroup_probe_get(void)
{
	int ret = pfm_probe_set_get(&pfm_perf_cgroup_probes);

	if (!ret)
		return 0;
	pfm_probe_set_put(&pfm_perf_cgroup_probes);
	return ret == -ENOENT ? -EOPNOTSUPP : ret;
}

/*
 * ev, a cgroup event with its counter, joins its CPU target's gated events
 * (ctx->mutex held): before it is programmed, so that its first sync gates it.
 */
int pfm_perf_cgroup_link(struct pfm_perf_event *ev)
{
	struct pfm_perf_target *t = ev->target;
	unsigned long flags;
	int ret;

	if (!pfm_perf_gated(ev))
		return 0;
	ret = pfm_perf_cgroup_probe_get();
	if (ret)
		return ret;
	raw_spin_lock_irqsave(pfm_ctx_lock(t->ctx), flags);
	list_add_tail(&ev->gate_entry, &t->gated);
	raw_spin_unlock_irqrestore(pfm_ctx_lock(t->ctx), flags);
	/* a thread's, found through its thread; a CPU's through its CPU (RCU) */
	if (t->task)
		atomic_inc(&pfm_perf_cpu_gated);
	else
		rcu_assign_pointer(per_cpu(pfm_perf_cgroup_target, t->cpu), t);
	return 0;
}

/* ev leaves the gated events (ctx->mutex held), before its counter is given back. */
void pfm_perf_cgroup_unlink(struct pfm_perf_event *ev)
{
	struct pfm_perf_target *t = ev->target;
	unsigned long flags;
	bool last;

	if (list_empty(&ev->gate_entry))
		return;
	raw_spin_lock_irqsave(pfm_ctx_lock(t->ctx), flags);
	list_del_init(&ev->gate_entry);
	last = list_empty(&t->gated);
	raw_spin_unlock_irqrestore(pfm_ctx_lock(t->ctx), flags);
	if (t->task) {
		atomic_dec(&pfm_perf_cpu_gated);
	} else if (last) {
		RCU_INIT_POINTER(per_cpu(pfm_perf_cgroup_target, t->cpu), NULL);
		/* no probe of a switch still under way holds the target after this */
		synchronize_rcu();
	}
	pfm_probe_set_put(&pfm_perf_cgroup_probes);
}

/* A missing tracepoint leaves cgroup events refused (pfm_perf_cgroup_probe_get()). */
void pfm_perf_cgroup_init(void)
{
	pfm_probe_set_init(&pfm_perf_cgroup_probes);
}

/* No event is left: a probe still lingering goes now. */
void pfm_perf_cgroup_exit(void)
{
	pfm_probe_set_exit(&pfm_perf_cgroup_probes);
	tracepoint_synchronize_unregister();
}
