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
 * A source with a filter (pfm_sw_keyed_filter(): the perf layer's SET_FILTER)
 * has counters of its own that carry it (filter.c), and a key of its own, at or
 * above PFM_SW_TP_FILTERED, where no tracefs id is (they are below 2^16): a PMC
 * counts its hits by naming that key.  Sources of one id and one filter string
 * are one source.
 *
 * A source lives while some PMC value names its key (the core's holds) and a second
 * longer: a tool that opens one session after another does not pay the counters'
 * creation each time.
 *
 * CPU hotplug: perf_events takes a CPU's counters off it when it goes offline and
 * never puts them back, so a CPU coming online gets new ones.  They are made by a
 * work item, not by the hotplug callbacks: creating (and releasing) a tracepoint
 * counter takes event_mutex and may flip static keys, which take the hotplug lock
 * that a hotplug callback runs under.  The callbacks only mark the CPU; the work
 * releases its old counters and, if the CPU is online then, creates new ones, so
 * a CPU's hits count from a moment after it comes online.  Creation holds no
 * hotplug lock either: a CPU that comes or goes meanwhile is marked and fixed up
 * after it.
 */
#include <linux/cpuhotplug.h>
#include <linux/perf_event.h>
#include <linux/trace_events.h>
#include <linux/workqueue.h>

#include "layer.h"
#include "filter.h"
#include "pmc_filter.h"


struct pfm_tp_source {
	struct list_head node;
	u32 id;				/* the trace event's tracefs id */
	u32 key;			/* what PMCs name: id, or a filtered key */
	char *filter;			/* its counters' filter, or NULL */
	unsigned int holds;		/* PMC values naming it (pfm_tp_lock) */
	bool any_user;			/* its trace event is marked for any user */
	struct perf_event * __percpu *counters;
};

/*
 * pfm_tp_mutex: creation and release, the counters; pfm_tp_lock: the list and
 * the holds.
 */
static DEFINE_MUTEX(pfm_tp_mutex);
static DEFINE_SPINLOCK(pfm_tp_lock);
static LIST_HEAD(pfm_tp_sources);

#define PFM_TP_LINGER	HZ

static void pfm_tp_reap_workfn(struct work_struct *work);
static DECLARE_DELAYED_WORK(pfm_tp_reap_work, pfm_tp_reap_workfn);

/* CPUs that came or went since their counters were made (atomic bits). */
static struct cpumask pfm_tp_cpus_changed;
static void pfm_tp_cpu_workfn(struct work_struct *work);
static DECLARE_WORK(pfm_tp_cpu_work, pfm_tp_cpu_workfn);
static enum cpuhp_state pfm_tp_cpuhp;

static struct pfm_tp_source *pfm_tp_find(u32 key)
{
	struct pfm_tp_source *src;

	list_for_each_entry(src, &pfm_tp_sources, node)
		if (src->key == key)
			return src;
	return NULL;
}

/* The source of id with filter (pfm_tp_lock). */
static struct pfm_tp_source *pfm_tp_find_filtered(u32 id, const char *filter)
{
	struct pfm_tp_source *src;

	list_for_each_entry(src, &pfm_tp_sources, node)
		if (src->id == id && src->filter && !strcmp(src->filter, filter))
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
		.regs = regs,
	};

	if (data->raw) {
		p.data = data->raw->frag.data;
		p.size = data->raw->frag.size;
	}
	pfm_sw_payload_swap(&p);
	pfm_sw_count_keyed(PFM_SW_EV_TRACEPOINT, src->key, data->period ?: 1,
			   at.kernel ? PFM_SW_PMC_OS : PFM_SW_PMC_USR, &at);
	pfm_sw_payload_swap(&p);
}

/* Releases src's counter on cpu, if it has one (pfm_tp_mutex). */
static void pfm_tp_cpu_release(struct pfm_tp_source *src, int cpu)
{
	struct perf_event **slot = per_cpu_ptr(src->counters, cpu);

	if (*slot)
		perf_event_release_kernel(*slot);
	*slot = NULL;
}

static void pfm_tp_free(struct pfm_tp_source *src)
{
	int cpu;

	for_each_possible_cpu(cpu)
		pfm_tp_cpu_release(src, cpu);
	free_percpu(src->counters);
	kfree(src->filter);
	kfree(src);
}

/*
 * src's counter on cpu (pfm_tp_mutex): 0, also for a CPU that is offline now
 * (perf_events says ENODEV: the hotplug work makes it when the CPU comes), or
 * the kernel counter's errno.
 *
 * Every hit samples (period 1) with its count as the period: perf_events throttles
 * only the second and later overflows of one hit, so no hit is lost to throttling.
 * No PERF_SAMPLE_RAW: the record reaches the handler whatever the sample type,
 * and asking for it would submit the creation to the raw data's privilege check,
 * which is the perf layer's to apply to its user.  A filtered counter starts
 * disabled and is enabled once it has its filter: no hit counts unfiltered.
 */
static int pfm_tp_cpu_create(struct pfm_tp_source *src, int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = src->id,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_PERIOD,
		.disabled = !!src->filter,
	};
	struct perf_event *ev;
	int ret;

	ev = perf_event_create_kernel_counter(&attr, cpu, NULL, pfm_tp_hit, src);
	if (IS_ERR(ev))
		return PTR_ERR(ev) == -ENODEV ? 0 : PTR_ERR(ev);
	/*
	 * The counter is the one way a module has to the trace event behind the
	 * id, and so to its flags: the system call events are marked for any
	 * user's own threads' records.
	 */
	src->any_user = ev->tp_event && (ev->tp_event->flags & TRACE_EVENT_FL_CAP_ANY);
	if (src->filter) {
		ret = pfm_tp_filter_apply(ev, src->id, src->filter);
		if (ret) {
			perf_event_release_kernel(ev);
			return ret;
		}
		perf_event_enable(ev);
	}
	*per_cpu_ptr(src->counters, cpu) = ev;
	return 0;
}

/*
 * The counters are the kernel's own, not the user's: a worker makes them.  A
 * CPU's counter asks whoever creates it for perf_allow_cpu() (the paranoid
 * level), which a user who may count a trace event on their own threads does
 * not pass; the user's access to the event is the asking layer's to judge.
 */
struct pfm_tp_create_work {
	struct work_struct work;
	struct pfm_tp_source *src;
	int ret;
};

static void pfm_tp_create_workfn(struct work_struct *work)
{
	struct pfm_tp_create_work *w = container_of(work, struct pfm_tp_create_work, work);
	int cpu;

	for_each_online_cpu(cpu) {
		w->ret = pfm_tp_cpu_create(w->src, cpu);
		if (w->ret)
			break;
	}
}

/* src's counters on every online CPU (pfm_tp_mutex, held for the worker): 0 or an errno */
static int pfm_tp_create_counters(struct pfm_tp_source *src)
{
	struct pfm_tp_create_work w = { .src = src };

	INIT_WORK_ONSTACK(&w.work, pfm_tp_create_workfn);
	schedule_work(&w.work);
	flush_work(&w.work);
	destroy_work_on_stack(&w.work);
	return w.ret;
}

/* The source of id under key, with filter (NULL: none); pfm_tp_mutex held. */
static struct pfm_tp_source *pfm_tp_create(u32 id, u32 key, const char *filter)
{
	struct pfm_tp_source *src;
	int ret;

	src = kzalloc(sizeof(*src), GFP_KERNEL);
	if (!src)
		return ERR_PTR(-ENOMEM);
	src->id = id;
	src->key = key;
	src->counters = alloc_percpu(struct perf_event *);
	if (filter)
		src->filter = kstrdup(filter, GFP_KERNEL);
	if (!src->counters || (filter && !src->filter)) {
		free_percpu(src->counters);
		kfree(src->filter);
		kfree(src);
		return ERR_PTR(-ENOMEM);
	}
	ret = pfm_tp_create_counters(src);
	if (ret) {
		pfm_tp_free(src);
		return ERR_PTR(ret);
	}
	return src;
}

/*
 * The CPUs marked by the hotplug callbacks: every source's old counter there is
 * released and, if the CPU is online, a new one made.  A CPU whose counter
 * cannot be made does not count that source (the kernel log says so).
 */
static void pfm_tp_cpu_workfn(struct work_struct *work)
{
	struct pfm_tp_source *src;
	int cpu, ret;

	mutex_lock(&pfm_tp_mutex);
	for_each_possible_cpu(cpu) {
		if (!cpumask_test_and_clear_cpu(cpu, &pfm_tp_cpus_changed))
			continue;
		list_for_each_entry(src, &pfm_tp_sources, node) {
			pfm_tp_cpu_release(src, cpu);
			if (!cpu_online(cpu))
				continue;
			ret = pfm_tp_cpu_create(src, cpu);
			if (ret)
				pr_warn_ratelimited("perfmon: trace: no counter for tracefs id %u (key %#x) on CPU %d (%d)\n",
						    src->id, src->key, cpu, ret);
		}
	}
	mutex_unlock(&pfm_tp_mutex);
}

/* Hotplug callbacks, both ways: the work does what takes locks. */
static int pfm_tp_cpu_changed(unsigned int cpu)
{
	cpumask_set_cpu(cpu, &pfm_tp_cpus_changed);
	schedule_work(&pfm_tp_cpu_work);
	return 0;
}

/* A key no source has, at or above PFM_SW_TP_FILTERED (pfm_tp_mutex). */
static u32 pfm_tp_new_key(void)
{
	static u32 next;
	unsigned long flags;
	u32 key;

	spin_lock_irqsave(&pfm_tp_lock, flags);
	do
		key = PFM_SW_TP_FILTERED | (next++ & ~PFM_SW_TP_FILTERED);
	while (pfm_tp_find(key));
	spin_unlock_irqrestore(&pfm_tp_lock, flags);
	return key;
}

/*
 * One more hold on the source of key, or with filter on the source of id's hits
 * that pass it (a new key), created at its first hold (may sleep).
 */
static struct pfm_tp_source *pfm_tp_hold(u32 id, u32 key, const char *filter)
{
	struct pfm_tp_source *src;
	unsigned long flags;

	mutex_lock(&pfm_tp_mutex);
	spin_lock_irqsave(&pfm_tp_lock, flags);
	src = filter ? pfm_tp_find_filtered(id, filter) : pfm_tp_find(key);
	if (src)
		src->holds++;
	spin_unlock_irqrestore(&pfm_tp_lock, flags);
	if (!src) {
		src = pfm_tp_create(id, filter ? pfm_tp_new_key() : key, filter);
		if (!IS_ERR(src)) {
			src->holds = 1;
			spin_lock_irqsave(&pfm_tp_lock, flags);
			list_add(&src->node, &pfm_tp_sources);
			spin_unlock_irqrestore(&pfm_tp_lock, flags);
		}
	}
	mutex_unlock(&pfm_tp_mutex);
	return src;
}

/*
 * The core's get.  A key at or above PFM_SW_TP_FILTERED that no source has is made
 * by nobody: as an id, it names no trace event, and the counter's creation says
 * EINVAL, as for any unknown id.
 */
static int pfm_tp_get(unsigned int event, u32 key)
{
	return PTR_ERR_OR_ZERO(pfm_tp_hold(key, key, NULL));
}

/*
 * The core's filter: the source of id's hits that pass filter, held once; its
 * key in *fkey.  A bad filter is the kernel parser's errno (EINVAL).
 */
static int pfm_tp_filter(unsigned int event, u32 id, const char *filter, u32 *fkey)
{
	struct pfm_tp_source *src;

	if (id & PFM_SW_TP_FILTERED)
		return -EINVAL;
	src = pfm_tp_hold(id, 0, filter);
	if (IS_ERR(src))
		return PTR_ERR(src);
	*fkey = src->key;
	return 0;
}

/* The core's put, in any context: the release waits for the reaper. */
static void pfm_tp_put(unsigned int event, u32 key)
{
	struct pfm_tp_source *src;
	unsigned long flags;
	bool last = false;

	spin_lock_irqsave(&pfm_tp_lock, flags);
	src = pfm_tp_find(key);
	if (!WARN_ON_ONCE(!src || !src->holds))
		last = !--src->holds;
	spin_unlock_irqrestore(&pfm_tp_lock, flags);
	if (last)
		schedule_delayed_work(&pfm_tp_reap_work, PFM_TP_LINGER);
}

/*
 * The core's any_user: held for the question, so that an id no trace event has
 * gives the counter's errno (EINVAL) before any privilege is asked, as in
 * perf_events; the open that asks holds the source again within the linger.
 */
static int pfm_tp_any_user(unsigned int event, u32 key)
{
	struct pfm_tp_source *src;
	int ret;

	if (key & PFM_SW_TP_FILTERED)
		return -EINVAL;
	src = pfm_tp_hold(key, key, NULL);
	if (IS_ERR(src))
		return PTR_ERR(src);
	ret = src->any_user;
	pfm_tp_put(event, key);
	return ret;
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
	.filter = pfm_tp_filter,
	.any_user = pfm_tp_any_user,
};

static int pfm_tp_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "perfmon/trace:online",
					pfm_tp_cpu_changed, pfm_tp_cpu_changed);
	if (ret < 0)
		return ret;
	pfm_tp_cpuhp = ret;
	pfm_tp_filter_init();
	ret = pfm_sw_keyed_register(PFM_SW_EV_TRACEPOINT, &pfm_tp_ops);
	if (ret)
		goto err_cpuhp;
	ret = pfm_tp_pmc_filter_init();
	if (ret)
		goto err_keyed;
	return 0;

err_keyed:
	pfm_sw_keyed_unregister(PFM_SW_EV_TRACEPOINT, &pfm_tp_ops);
err_cpuhp:
	cpuhp_remove_state_nocalls(pfm_tp_cpuhp);
	return ret;
}

/* No context is left: every hold is given back, only the lingering remain. */
static void pfm_tp_exit(void)
{
	pfm_tp_pmc_filter_exit();
	pfm_sw_keyed_unregister(PFM_SW_EV_TRACEPOINT, &pfm_tp_ops);
	cpuhp_remove_state_nocalls(pfm_tp_cpuhp);
	cancel_work_sync(&pfm_tp_cpu_work);
	cancel_delayed_work_sync(&pfm_tp_reap_work);
	pfm_tp_reap();
	WARN_ON_ONCE(!list_empty(&pfm_tp_sources));
}

const struct pfm_layer pfm_layer_trace = {
	.name = "trace",
	.init = pfm_tp_init,
	.exit = pfm_tp_exit,
};
