// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the source of the software PMU's TRACEPOINT event (perfmon_sw.h), a
 * layer on the core (layer.h: pfm_sw_keyed_register()).
 *
 * A trace event's record, as its tracefs format file lays it out, is built by the
 * event's own perf probe (include/trace/perf.h, and trace_syscalls.c for the
 * system call events, whose probes differ) and handed to perf_events' software
 * counters on the tracepoint.  A module cannot call those probes itself, nor find
 * the trace event behind an id: so the source opens, for each trace event some PMC
 * names, an in-kernel perf counter on each online CPU
 * (perf_event_create_kernel_counter(): the kernel's own attach, with its checks,
 * and no user's perf_event_open), sampling every hit, whose overflow handler
 * counts the hit for the current thread (pfm_sw_count_keyed()) with the record as
 * the payload.  The counters count nothing of their own; they are the kernel's
 * way to the exact record.  A hit counts what the event says it counts (1, or its
 * __perf_count() amount), at user level when its registers are (the system call
 * events), at kernel level otherwise, as perf_events' exclude_kernel tells them.
 *
 * A source lives while some PMC value names its id (the core's holds) and a second
 * longer: a tool that opens one session after another does not pay the counters'
 * creation each time.  CPUs that come online later do not get a counter.
 */
#include <linux/perf_event.h>
#include <linux/workqueue.h>

#include "layer.h"

struct pfm_tp_source {
	struct list_head node;
	u32 id;				/* the trace event's tracefs id */
	unsigned int holds;		/* PMC values naming it (pfm_tp_lock) */
	struct perf_event * __percpu *counters;
};

/* pfm_tp_mutex: creation and release; pfm_tp_lock: the list and the holds. */
static DEFINE_MUTEX(pfm_tp_mutex);
static DEFINE_SPINLOCK(pfm_tp_lock);
static LIST_HEAD(pfm_tp_sources);

#define PFM_TP_LINGER	HZ

static void pfm_tp_reap_workfn(struct work_struct *work);
static DECLARE_DELAYED_WORK(pfm_tp_reap_work, pfm_tp_reap_workfn);

static struct pfm_tp_source *pfm_tp_find(u32 id)
{
	struct pfm_tp_source *src;

	list_for_each_entry(src, &pfm_tp_sources, node)
		if (src->id == id)
			return src;
	return NULL;
}

/*
 * A hit, in the thread that made it, preemption off (a tracepoint's probe):
 * counted, with the record for a format that samples it.
 */
static void pfm_tp_hit(struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs)
{
	struct pfm_tp_source *src = event->overflow_handler_context;
	struct pfm_sw_payload p = {};
	struct pfm_ovfl_where at = {
		.ip = instruction_pointer(regs),
		.kernel = !user_mode(regs),
	};

	if (data->raw) {
		p.data = data->raw->frag.data;
		p.size = data->raw->frag.size;
	}
	pfm_sw_payload_swap(&p);
	pfm_sw_count_keyed(PFM_SW_EV_TRACEPOINT, src->id, data->period ?: 1,
			   at.kernel ? PFM_SW_PMC_OS : PFM_SW_PMC_USR, &at);
	pfm_sw_payload_swap(&p);
}

static void pfm_tp_free(struct pfm_tp_source *src)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct perf_event *ev = *per_cpu_ptr(src->counters, cpu);

		if (ev)
			perf_event_release_kernel(ev);
	}
	free_percpu(src->counters);
	kfree(src);
}

/*
 * Every hit samples (period 1) with its count as the period: perf_events throttles
 * only the second and later overflows of one hit, so no hit is lost to throttling.
 * No PERF_SAMPLE_RAW: the record reaches the handler whatever the sample type,
 * and asking for it would submit the creation to the raw data's privilege check,
 * which is the perf layer's to apply to its user.
 */
static struct pfm_tp_source *pfm_tp_create(u32 id)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = id,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_PERIOD,
	};
	struct pfm_tp_source *src;
	int cpu, ret = 0;

	src = kzalloc(sizeof(*src), GFP_KERNEL);
	if (!src)
		return ERR_PTR(-ENOMEM);
	src->id = id;
	src->counters = alloc_percpu(struct perf_event *);
	if (!src->counters) {
		kfree(src);
		return ERR_PTR(-ENOMEM);
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct perf_event *ev;

		ev = perf_event_create_kernel_counter(&attr, cpu, NULL, pfm_tp_hit, src);
		if (IS_ERR(ev)) {
			ret = PTR_ERR(ev);
			break;
		}
		*per_cpu_ptr(src->counters, cpu) = ev;
	}
	cpus_read_unlock();
	if (ret) {
		pfm_tp_free(src);
		return ERR_PTR(ret);
	}
	return src;
}

/* The core's get: the id's source, created at its first hold (may sleep). */
static int pfm_tp_get(unsigned int event, u32 id)
{
	struct pfm_tp_source *src;
	unsigned long flags;
	int ret = 0;

	mutex_lock(&pfm_tp_mutex);
	spin_lock_irqsave(&pfm_tp_lock, flags);
	src = pfm_tp_find(id);
	if (src)
		src->holds++;
	spin_unlock_irqrestore(&pfm_tp_lock, flags);
	if (src)
		goto out;
	src = pfm_tp_create(id);
	if (IS_ERR(src)) {
		ret = PTR_ERR(src);
		goto out;
	}
	src->holds = 1;
	spin_lock_irqsave(&pfm_tp_lock, flags);
	list_add(&src->node, &pfm_tp_sources);
	spin_unlock_irqrestore(&pfm_tp_lock, flags);
out:
	mutex_unlock(&pfm_tp_mutex);
	return ret;
}

/* The core's put, in any context: the release waits for the reaper. */
static void pfm_tp_put(unsigned int event, u32 id)
{
	struct pfm_tp_source *src;
	unsigned long flags;
	bool last = false;

	spin_lock_irqsave(&pfm_tp_lock, flags);
	src = pfm_tp_find(id);
	if (!WARN_ON_ONCE(!src || !src->holds))
		last = !--src->holds;
	spin_unlock_irqrestore(&pfm_tp_lock, flags);
	if (last)
		schedule_delayed_work(&pfm_tp_reap_work, PFM_TP_LINGER);
}

/* Releases the sources nobody holds; a source held again meanwhile stays. */
static void pfm_tp_reap(void)
{
	struct pfm_tp_source *src, *tmp;
	unsigned long flags;
	LIST_HEAD(gone);

	mutex_lock(&pfm_tp_mutex);
	spin_lock_irqsave(&pfm_tp_lock, flags);
	list_for_each_entry_safe(src, tmp, &pfm_tp_sources, node)
		if (!src->holds)
			list_move(&src->node, &gone);
	spin_unlock_irqrestore(&pfm_tp_lock, flags);
	list_for_each_entry_safe(src, tmp, &gone, node)
		pfm_tp_free(src);
	mutex_unlock(&pfm_tp_mutex);
}

static void pfm_tp_reap_workfn(struct work_struct *work)
{
	pfm_tp_reap();
}

static const struct pfm_sw_keyed_ops pfm_tp_ops = {
	.get = pfm_tp_get,
	.put = pfm_tp_put,
};

static int pfm_tp_init(void)
{
	return pfm_sw_keyed_register(PFM_SW_EV_TRACEPOINT, &pfm_tp_ops);
}

/* No context is left: every hold is given back, only the lingering remain. */
static void pfm_tp_exit(void)
{
	pfm_sw_keyed_unregister(PFM_SW_EV_TRACEPOINT, &pfm_tp_ops);
	cancel_delayed_work_sync(&pfm_tp_reap_work);
	pfm_tp_reap();
	WARN_ON_ONCE(!list_empty(&pfm_tp_sources));
}

const struct pfm_layer pfm_layer_trace = {
	.name = "trace",
	.init = pfm_tp_init,
	.exit = pfm_tp_exit,
};
