// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: where the software events come from.
 *
 * System calls and page faults are seen through the kernel's tracepoints, found by
 * name because a module cannot link against them.  They are attached only while a
 * context is attached, the system call one only while a context that counts system
 * calls is (an enabled syscall tracepoint sends every thread of the system through
 * the slow syscall path), and detached from a work item because the last user can
 * go away in atomic context.  The work waits a second: attaching a tracepoint
 * patches kernel text, which costs far more than a session, and a tool that opens
 * one session after another would pay it every time (perf_events defers its
 * context-switch hooks the same way).  Context switches and migrations come from the
 * core's own context-switch hooks.
 */
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <asm/processor.h>

#include "internal.h"
#include "env.h"
#include "stats.h"
#include "sw_hooks.h"
#include "sw_pmu.h"
#include "thread.h"

static void pfm_probe_syscall(void *data, struct pt_regs *regs, long id)
{
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
}

static void pfm_probe_fault_user(void *data, unsigned long address, struct pt_regs *regs,
				 unsigned long error_code)
{
	struct pfm_ovfl_where at = {
		.ip = instruction_pointer(regs), .kernel = false, .regs = regs,
	};

	pfm_sw_count_fault(address, &at);
}

/*
 * Faults the kernel takes on user memory on the thread's behalf (copy_*_user) are
 * kernel-level faults; those on kernel addresses are not the thread's doing.  Nor
 * is one taken with page faults disabled or with no mm: the fault handler sends it
 * to its fixup untouched, before the point where perf_events counts.  perfmon reads
 * user memory so under a context's lock (the read's visit, a sample's call chain):
 * counted, such a fault could overflow a counter of that context, whose overflow
 * takes the lock again on this CPU.  (perf_events' test, faulthandler_disabled(),
 * also skips atomic context; in a tracepoint's probe preemption is always off.)
 */
static void pfm_probe_fault_kernel(void *data, unsigned long address, struct pt_regs *regs,
				   unsigned long error_code)
{
	struct pfm_ovfl_where at = {
		.ip = instruction_pointer(regs), .kernel = true, .regs = regs,
	};

	if (address < TASK_SIZE_MAX && !pagefault_disabled() && current->mm)
		pfm_sw_count_fault(address, &at);
}

/* Per-thread sessions count their switches in their own hook; CPU sessions here. */
static void pfm_probe_switch(void *data, bool preempt, struct task_struct *prev,
			     struct task_struct *next, unsigned int prev_state)
{
	pfm_sw_count_cpu(PFM_SW_EV_CTX_SWITCHES, 1);
}

/* Per-thread sessions count their own migrations; CPU sessions the arrivals here. */
static void pfm_probe_migrate(void *data, struct task_struct *p, int dest_cpu)
{
	pfm_sw_migration_to(dest_cpu);
}

/* Attaches waiting for their thread to run (thread.c). */
static void pfm_probe_attach_switch(void *data, bool preempt, struct task_struct *prev,
				    struct task_struct *next, unsigned int prev_state)
{
	pfm_attach_switch(next);
}

struct pfm_sw_hook {
	const char *name;
	void *probe;
	struct tracepoint *tp;
};

static struct pfm_sw_hook pfm_sw_hooks[] = {
	{ .name = "page_fault_user", .probe = pfm_probe_fault_user },
	{ .name = "page_fault_kernel", .probe = pfm_probe_fault_kernel },
	{ .name = "sched_switch", .probe = pfm_probe_switch },
	{ .name = "sched_migrate_task", .probe = pfm_probe_migrate },
	{ .name = "sys_enter", .probe = pfm_probe_syscall },
	{ .name = "sched_switch", .probe = pfm_probe_attach_switch },
};

/*
 * Hooks are attached in groups, each with its users: the page faults for any
 * attached context, the scheduler's switches and migrations for CPU sessions only
 * (a per-thread session sees its own in its preempt notifier), and the system
 * call hook only for contexts that count system calls (it is the one that taxes
 * every thread of the system).  One more group is no software event: the switch
 * probe that picks up attaches pending on a thread that was not running (thread.c),
 * on while such an attach is pending.
 */
struct pfm_sw_group {
	unsigned int first, count;	/* in pfm_sw_hooks[] */
	atomic_t users;
	bool on;
};

enum {
	PFM_SW_GROUP_FAULTS, PFM_SW_GROUP_CPU, PFM_SW_GROUP_SYSCALLS, PFM_SW_GROUP_ATTACH,
	PFM_SW_NR_GROUPS
};

static struct pfm_sw_group pfm_sw_groups[PFM_SW_NR_GROUPS] = {
	[PFM_SW_GROUP_FAULTS] = { .first = 0, .count = 2 },
	[PFM_SW_GROUP_CPU] = { .first = 2, .count = 2 },
	[PFM_SW_GROUP_SYSCALLS] = { .first = 4, .count = 1 },
	[PFM_SW_GROUP_ATTACH] = { .first = 5, .count = 1 },
};

static DEFINE_MUTEX(pfm_sw_hooks_mutex);

static void pfm_sw_find_tp(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pfm_sw_hooks); i++)
		if (!strcmp(tp->name, pfm_sw_hooks[i].name))
			pfm_sw_hooks[i].tp = tp;
}

/* The statistics say whether the system call probe, the costly one, is attached. */
static void pfm_sw_group_set_on(struct pfm_sw_group *g, bool on)
{
	g->on = on;
	if (g == &pfm_sw_groups[PFM_SW_GROUP_SYSCALLS])
		pfm_stats_syscall_hook(on);
}

static void pfm_sw_hooks_off(struct pfm_sw_group *g, unsigned int n)
{
	unsigned int i;

	for (i = g->first; i < g->first + n; i++)
		tracepoint_probe_unregister(pfm_sw_hooks[i].tp, pfm_sw_hooks[i].probe, NULL);
	pfm_sw_group_set_on(g, false);
}

static int pfm_sw_hooks_on(struct pfm_sw_group *g)
{
	unsigned int i;
	int ret;

	for (i = g->first; i < g->first + g->count; i++) {
		ret = tracepoint_probe_register(pfm_sw_hooks[i].tp, pfm_sw_hooks[i].probe, NULL);
		if (ret) {
			pfm_sw_hooks_off(g, i - g->first);
			return ret;
		}
	}
	pfm_sw_group_set_on(g, true);
	return 0;
}

/* Brings every group's probes in line with its number of users. */
static int pfm_sw_hooks_sync(void)
{
	struct pfm_sw_group *g;
	int ret = 0;

	mutex_lock(&pfm_sw_hooks_mutex);
	for (g = pfm_sw_groups; g < pfm_sw_groups + PFM_SW_NR_GROUPS; g++) {
		if (atomic_read(&g->users) && !g->on)
			ret = ret ?: pfm_sw_hooks_on(g);
		else if (!atomic_read(&g->users) && g->on)
			pfm_sw_hooks_off(g, g->count);
	}
	mutex_unlock(&pfm_sw_hooks_mutex);
	return ret;
}

static void pfm_sw_hooks_workfn(struct work_struct *work)
{
	pfm_sw_hooks_sync();
}

#define PFM_SW_HOOKS_LINGER	HZ

static DECLARE_DELAYED_WORK(pfm_sw_hooks_work, pfm_sw_hooks_workfn);

static int pfm_sw_group_get(struct pfm_sw_group *g)
{
	int ret;

	atomic_inc(&g->users);
	ret = pfm_sw_hooks_sync();
	if (ret && atomic_dec_and_test(&g->users))
		schedule_delayed_work(&pfm_sw_hooks_work, 0);
	return ret;
}

static void pfm_sw_group_put(struct pfm_sw_group *g)
{
	if (atomic_dec_and_test(&g->users))
		schedule_delayed_work(&pfm_sw_hooks_work, PFM_SW_HOOKS_LINGER);
}

int pfm_sw_hooks_get(bool system_wide)
{
	int ret;

	ret = pfm_sw_group_get(&pfm_sw_groups[PFM_SW_GROUP_FAULTS]);
	if (ret || !system_wide)
		return ret;
	ret = pfm_sw_group_get(&pfm_sw_groups[PFM_SW_GROUP_CPU]);
	if (ret)
		pfm_sw_group_put(&pfm_sw_groups[PFM_SW_GROUP_FAULTS]);
	return ret;
}

void pfm_sw_hooks_put(bool system_wide)
{
	if (system_wide)
		pfm_sw_group_put(&pfm_sw_groups[PFM_SW_GROUP_CPU]);
	pfm_sw_group_put(&pfm_sw_groups[PFM_SW_GROUP_FAULTS]);
}

/* The unit's needs (sw_pmu.c): PFM_SW_NEED_SYSCALLS is the only one. */
int pfm_sw_needs_get(u32 bits)
{
	if (!(bits & PFM_SW_NEED_SYSCALLS))
		return 0;
	return pfm_sw_group_get(&pfm_sw_groups[PFM_SW_GROUP_SYSCALLS]);
}

void pfm_sw_needs_put(u32 bits)
{
	if (bits & PFM_SW_NEED_SYSCALLS)
		pfm_sw_group_put(&pfm_sw_groups[PFM_SW_GROUP_SYSCALLS]);
}

/* Process context: attaching the probe may sleep. */
int pfm_attach_probe_get(void)
{
	return pfm_sw_group_get(&pfm_sw_groups[PFM_SW_GROUP_ATTACH]);
}

/* Any context but under the runqueue lock (it may queue a work item). */
void pfm_attach_probe_put(void)
{
	pfm_sw_group_put(&pfm_sw_groups[PFM_SW_GROUP_ATTACH]);
}

struct pfm_tp_lookup {
	const char *name;
	struct tracepoint *tp;
};

static void pfm_tp_match(struct tracepoint *tp, void *priv)
{
	struct pfm_tp_lookup *l = priv;

	if (!strcmp(tp->name, l->name))
		l->tp = tp;
}

struct tracepoint *pfm_tracepoint(const char *name)
{
	struct pfm_tp_lookup l = { .name = name };

	for_each_kernel_tracepoint(pfm_tp_match, &l);
	return l.tp;
}

int pfm_sw_hooks_init(void)
{
	unsigned int i;

	for_each_kernel_tracepoint(pfm_sw_find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(pfm_sw_hooks); i++) {
		if (!pfm_sw_hooks[i].tp) {
			pr_err("perfmon: tracepoint %s not found\n", pfm_sw_hooks[i].name);
			return -ENOENT;
		}
	}
	return 0;
}

void pfm_sw_hooks_exit(void)
{
	struct pfm_sw_group *g;

	cancel_delayed_work_sync(&pfm_sw_hooks_work);
	mutex_lock(&pfm_sw_hooks_mutex);
	for (g = pfm_sw_groups; g < pfm_sw_groups + PFM_SW_NR_GROUPS; g++)
		if (g->on)
			pfm_sw_hooks_off(g, g->count);
	mutex_unlock(&pfm_sw_hooks_mutex);
	tracepoint_synchronize_unregister();
	pfm_sw_timers_exit();
}
