// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: where the software events come from.
 *
 * System calls and page faults are seen through the kernel's tracepoints, found by
 * name because a module cannot link against them.  Each is attached only while a
 * context that counts its events is attached (an enabled syscall tracepoint sends
 * every thread of the system through the slow syscall path, the page fault ones
 * every fault of the system through the probes), and detached a second after the
 * last (probes.h).
 * Context switches and migrations come from the core's own context-switch hooks.
 */
#include <linux/bits.h>
#include <linux/log2.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <asm/processor.h>

#include "internal.h"
#include "env.h"
#include "probes.h"
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

/*
 * Hooks are attached in groups, each with its users (probes.h): the scheduler's
 * switches and migrations for CPU sessions (a per-thread session sees its own in
 * its preempt notifier), the page faults for contexts that count them, and the
 * system call hook for contexts that count system calls at user level.  One more
 * group is no software event: the switch probe that picks up attaches pending on
 * a thread that was not running (thread.c), on while such an attach is pending.
 */
static struct pfm_probe pfm_sw_fault_probes[] = {
	{ .name = "page_fault_user", .func = pfm_probe_fault_user },
	{ .name = "page_fault_kernel", .func = pfm_probe_fault_kernel },
};

static struct pfm_probe pfm_sw_cpu_probes[] = {
	{ .name = "sched_switch", .func = pfm_probe_switch },
	{ .name = "sched_migrate_task", .func = pfm_probe_migrate },
};

static struct pfm_probe pfm_sw_syscall_probes[] = {
	{ .name = "sys_enter", .func = pfm_probe_syscall },
};

static struct pfm_probe pfm_sw_attach_probes[] = {
	{ .name = "sched_switch", .func = pfm_probe_attach_switch },
};

/* The statistics say whether the probes that tax every thread are attached. */
static void pfm_sw_syscalls_attached(bool on)
{
	pfm_stats_hook(PFM_STATS_HOOK_SYSCALL, on);
}

static void pfm_sw_faults_attached(bool on)
{
	pfm_stats_hook(PFM_STATS_HOOK_FAULT, on);
}

enum {
	PFM_SW_GROUP_FAULTS, PFM_SW_GROUP_CPU, PFM_SW_GROUP_SYSCALLS, PFM_SW_GROUP_ATTACH,
	PFM_SW_NR_GROUPS
};

static struct pfm_probe_set pfm_sw_groups[PFM_SW_NR_GROUPS] = {
	[PFM_SW_GROUP_FAULTS] = { .probes = pfm_sw_fault_probes,
				  .count = ARRAY_SIZE(pfm_sw_fault_probes),
				  .attached = pfm_sw_faults_attached },
	[PFM_SW_GROUP_CPU] = { .probes = pfm_sw_cpu_probes,
			       .count = ARRAY_SIZE(pfm_sw_cpu_probes) },
	[PFM_SW_GROUP_SYSCALLS] = { .probes = pfm_sw_syscall_probes,
				    .count = ARRAY_SIZE(pfm_sw_syscall_probes),
				    .attached = pfm_sw_syscalls_attached },
	[PFM_SW_GROUP_ATTACH] = { .probes = pfm_sw_attach_probes,
				  .count = ARRAY_SIZE(pfm_sw_attach_probes) },
};

/* A group's users must have its probes: one that could not attach them goes. */
static int pfm_sw_group_get(struct pfm_probe_set *g)
{
	int ret = pfm_probe_set_get(g);

	if (ret)
		pfm_probe_set_put(g);
	return ret;
}

int pfm_sw_hooks_get(bool system_wide)
{
	return system_wide ? pfm_sw_group_get(&pfm_sw_groups[PFM_SW_GROUP_CPU]) : 0;
}

void pfm_sw_hooks_put(bool system_wide)
{
	if (system_wide)
		pfm_probe_set_put(&pfm_sw_groups[PFM_SW_GROUP_CPU]);
}

/* The unit's needs (sw_regs.c), each a group: PFM_SW_NEED_* */
static const unsigned int pfm_sw_need_group[] = {
	[ilog2(PFM_SW_NEED_SYSCALLS)] = PFM_SW_GROUP_SYSCALLS,
	[ilog2(PFM_SW_NEED_FAULTS)] = PFM_SW_GROUP_FAULTS,
};

void pfm_sw_needs_put(u32 bits)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pfm_sw_need_group); i++)
		if (bits & BIT(i))
			pfm_probe_set_put(&pfm_sw_groups[pfm_sw_need_group[i]]);
}

/* All of bits' groups, or none (a failure gives back those taken). */
int pfm_sw_needs_get(u32 bits)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(pfm_sw_need_group); i++) {
		if (!(bits & BIT(i)))
			continue;
		ret = pfm_sw_group_get(&pfm_sw_groups[pfm_sw_need_group[i]]);
		if (ret) {
			pfm_sw_needs_put(bits & (BIT(i) - 1));
			return ret;
		}
	}
	return 0;
}

/* Process context: attaching the probe may sleep. */
int pfm_attach_probe_get(void)
{
	return pfm_sw_group_get(&pfm_sw_groups[PFM_SW_GROUP_ATTACH]);
}

/* Any context but under the runqueue lock (it may queue a work item). */
void pfm_attach_probe_put(void)
{
	pfm_probe_set_put(&pfm_sw_groups[PFM_SW_GROUP_ATTACH]);
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
	int ret;

	for (i = 0; i < PFM_SW_NR_GROUPS; i++) {
		ret = pfm_probe_set_init(&pfm_sw_groups[i]);
		if (ret) {
			pr_err("perfmon: a tracepoint of the software events is missing\n");
			return ret;
		}
	}
	return 0;
}

void pfm_sw_hooks_exit(void)
{
	unsigned int i;

	for (i = 0; i < PFM_SW_NR_GROUPS; i++)
		pfm_probe_set_exit(&pfm_sw_groups[i]);
	tracepoint_synchronize_unregister();
	pfm_sw_timers_exit();
}
