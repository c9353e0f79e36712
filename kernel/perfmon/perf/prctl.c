// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: prctl(PR_TASK_PERF_EVENTS_ENABLE / PR_TASK_PERF_EVENTS_DISABLE) for the
 * perf_event_open layer's events.
 *
 * As 6.1's perf_event_task_enable() and _disable(): every event the calling
 * thread opened (its owner; wherever the event counts: itself, another thread, a
 * CPU) is enabled or disabled, with its inherited copies, as ioctl(ENABLE or
 * DISABLE) without PERF_IOC_FLAG_GROUP does it; a group's other events only if
 * the thread opened them too.  A thread that opened nothing changes nothing, and
 * an event whose owner has exited is no one's (perf clears event->owner at the
 * owner's exit).
 *
 * Why a kprobe: prctl() has no tracepoint and no notifier, and the preload sees
 * neither a static program's prctl nor a raw syscall(SYS_prctl).  The kernel's
 * prctl() calls perf_event_task_enable() or _disable() for these two options
 * unconditionally (kernel/sys.c, CONFIG_PERF_EVENTS), so a kprobe on each sees
 * every such call, whoever makes it.  Its pre-handler runs in atomic context: it
 * only queues a task_work on the caller (TWA_RESUME), which runs before the prctl
 * returns to user mode and takes the locks ioctl() takes.  Without the kprobes
 * (CONFIG_KPROBES off, the functions absent or not probeable) the layer loads
 * anyway and the prctl reaches perf_events' own events only (perfmon_perf.h).
 *
 * Owners: each opened event is on its opener's list, found by the task in a
 * hash table; the owner record holds a reference to the task, so that the
 * pointer is never another thread's while listed: an owner that exited is never
 * current again.  pfm_perf_owner_mutex protects the table and the lists, and
 * is taken before the family lock and any context's mutex.  Inherited copies
 * are no one's: they follow their opened event.
 */
#include <linux/hashtable.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/task_work.h>

#include "layer.h"
#include "event.h"
#include "file.h"
#include "perf.h"

struct pfm_perf_owner {
	struct hlist_node node;		/* in pfm_perf_owners, by task */
	struct task_struct *task;	/* held */
	struct list_head events;	/* its events' owner_entry, in opening order */
};

#define PFM_PERF_OWNER_BITS	6
static DEFINE_HASHTABLE(pfm_perf_owners, PFM_PERF_OWNER_BITS);
static DEFINE_MUTEX(pfm_perf_owner_mutex);
static atomic_t pfm_perf_nr_owned = ATOMIC_INIT(0);	/* events on some list */

static struct pfm_perf_owner *pfm_perf_owner_find(struct task_struct *task)
{
	struct pfm_perf_owner *o;

	hash_for_each_possible(pfm_perf_owners, o, node, (unsigned long)task)
		if (o->task == task)
			return o;
	return NULL;
}

/* ev, just opened, is the calling thread's: 0, or -ENOMEM. */
int pfm_perf_owner_add(struct pfm_perf_event *ev)
{
	struct pfm_perf_owner *o;
	int ret = 0;

	mutex_lock(&pfm_perf_owner_mutex);
	o = pfm_perf_owner_find(current);
	if (!o) {
		o = kzalloc(sizeof(*o), GFP_KERNEL);
		if (!o) {
			ret = -ENOMEM;
			goto out;
		}
		get_task_struct(current);
		o->task = current;
		INIT_LIST_HEAD(&o->events);
		hash_add(pfm_perf_owners, &o->node, (unsigned long)current);
	}
	ev->owner = o;
	list_add_tail(&ev->owner_entry, &o->events);
	atomic_inc(&pfm_perf_nr_owned);
out:
	mutex_unlock(&pfm_perf_owner_mutex);
	return ret;
}

/* ev is being freed: off its owner's list, the owner with its last event. */
void pfm_perf_owner_del(struct pfm_perf_event *ev)
{
	struct pfm_perf_owner *o = ev->owner;

	if (!o)
		return;
	mutex_lock(&pfm_perf_owner_mutex);
	list_del_init(&ev->owner_entry);
	ev->owner = NULL;
	atomic_dec(&pfm_perf_nr_owned);
	if (list_empty(&o->events))
		hash_del(&o->node);
	else
		o = NULL;
	mutex_unlock(&pfm_perf_owner_mutex);
	if (o) {
		put_task_struct(o->task);
		kfree(o);
	}
}

struct pfm_perf_prctl {
	struct callback_head work;
	bool on;
};

/*
 * The caller's prctl, before it returns to user mode: its events as ioctl() would
 * have them.  The owner lock keeps each event from being freed meanwhile.
 */
static void pfm_perf_prctl_work(struct callback_head *head)
{
	struct pfm_perf_prctl *p = container_of(head, struct pfm_perf_prctl, work);
	struct pfm_perf_event *ev;
	struct pfm_perf_owner *o;
	bool on = p->on;

	kfree(p);
	mutex_lock(&pfm_perf_owner_mutex);
	o = pfm_perf_owner_find(current);
	if (o)
		list_for_each_entry(ev, &o->events, owner_entry)
			pfm_perf_event_enable(ev, on);
	mutex_unlock(&pfm_perf_owner_mutex);
	module_put(THIS_MODULE);
}

/*
 * The kprobes' pre-handler, at the entry of perf_event_task_enable() or
 * _disable(), in the caller: atomic context.  A work that cannot be queued (no
 * memory, the thread exiting) leaves the shim's events as they are.
 */
static void pfm_perf_prctl_queue(bool on)
{
	struct pfm_perf_prctl *p;

	if (!atomic_read(&pfm_perf_nr_owned) || (current->flags & PF_KTHREAD))
		return;
	p = kmalloc(sizeof(*p), GFP_ATOMIC | __GFP_NOWARN);
	if (!p)
		return;
	/* the work runs this module's code: it stays until then */
	if (!try_module_get(THIS_MODULE)) {
		kfree(p);
		return;
	}
	p->on = on;
	init_task_work(&p->work, pfm_perf_prctl_work);
	if (!task_work_add(current, &p->work, TWA_RESUME))
		return;
	module_put(THIS_MODULE);
	kfree(p);
}

static int pfm_perf_prctl_enable_pre(struct kprobe *kp, struct pt_regs *regs)
{
	pfm_perf_prctl_queue(true);
	return 0;
}

static int pfm_perf_prctl_disable_pre(struct kprobe *kp, struct pt_regs *regs)
{
	pfm_perf_prctl_queue(false);
	return 0;
}

static struct kprobe pfm_perf_prctl_probes[] = {
	{ .symbol_name = "perf_event_task_enable", .pre_handler = pfm_perf_prctl_enable_pre },
	{ .symbol_name = "perf_event_task_disable", .pre_handler = pfm_perf_prctl_disable_pre },
};
static bool pfm_perf_prctl_probed;

/* Both kprobes or neither: never fails the layer's init. */
void pfm_perf_prctl_init(void)
{
	int ret;

	ret = register_kprobe(&pfm_perf_prctl_probes[0]);
	if (!ret) {
		ret = register_kprobe(&pfm_perf_prctl_probes[1]);
		if (ret)
			unregister_kprobe(&pfm_perf_prctl_probes[0]);
	}
	if (ret) {
		pr_info("perfmon: prctl(PR_TASK_PERF_EVENTS_*) not honoured for perf events "
			"of this layer: no kprobe on perf_event_task_enable/disable (%d)\n", ret);
		return;
	}
	pfm_perf_prctl_probed = true;
}

/* After the door closed: no event is opened any more, none is on a list. */
void pfm_perf_prctl_exit(void)
{
	if (!pfm_perf_prctl_probed)
		return;
	unregister_kprobe(&pfm_perf_prctl_probes[1]);
	unregister_kprobe(&pfm_perf_prctl_probes[0]);
	pfm_perf_prctl_probed = false;
}
