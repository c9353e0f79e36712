// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: where the software events come from.
 *
 * System calls and page faults are seen through the kernel's tracepoints, found by
 * name because a module cannot link against them.  They are attached only while a
 * context is attached (an enabled syscall tracepoint sends every thread of the system
 * through the slow syscall path), and detached from a work item because the last user
 * can go away in atomic context.  The work waits a second: attaching a tracepoint
 * patches kernel text, which costs far more than a session, and a tool that opens
 * one session after another would pay it every time (perf_events defers its
 * context-switch hooks the same way).  Context switches and migrations come from the
 * core's own context-switch hooks.
 */
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <asm/processor.h>

#include "internal.h"

static void pfm_probe_syscall(void *data, struct pt_regs *regs, long id)
{
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
}

static void pfm_probe_fault_user(void *data, unsigned long address, struct pt_regs *regs,
				 unsigned long error_code)
{
	pfm_sw_count(PFM_SW_EV_PAGE_FAULTS, 1);
}

/*
 * Faults the kernel takes on user memory on the thread's behalf (copy_*_user) are
 * kernel-level faults; those on kernel addresses are not the thread's doing.
 */
static void pfm_probe_fault_kernel(void *data, unsigned long address, struct pt_regs *regs,
				   unsigned long error_code)
{
	if (address < TASK_SIZE_MAX)
		pfm_sw_count_kernel(PFM_SW_EV_PAGE_FAULTS, 1);
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

struct pfm_sw_hook {
	const char *name;
	void *probe;
	struct tracepoint *tp;
};

static struct pfm_sw_hook pfm_sw_hooks[] = {
	{ .name = "sys_enter", .probe = pfm_probe_syscall },
	{ .name = "page_fault_user", .probe = pfm_probe_fault_user },
	{ .name = "page_fault_kernel", .probe = pfm_probe_fault_kernel },
	{ .name = "sched_switch", .probe = pfm_probe_switch },
	{ .name = "sched_migrate_task", .probe = pfm_probe_migrate },
};

static DEFINE_MUTEX(pfm_sw_hooks_mutex);
static atomic_t pfm_sw_hooks_users = ATOMIC_INIT(0);
static bool pfm_sw_hooks_on;

static void pfm_sw_find_tp(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pfm_sw_hooks); i++)
		if (!strcmp(tp->name, pfm_sw_hooks[i].name))
			pfm_sw_hooks[i].tp = tp;
}

static void pfm_sw_hooks_off(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pfm_sw_hooks); i++)
		tracepoint_probe_unregister(pfm_sw_hooks[i].tp, pfm_sw_hooks[i].probe, NULL);
	pfm_sw_hooks_on = false;
}

/* Brings the probes in line with the number of users. */
static int pfm_sw_hooks_sync(void)
{
	unsigned int i;
	int ret = 0;

	mutex_lock(&pfm_sw_hooks_mutex);
	if (atomic_read(&pfm_sw_hooks_users) && !pfm_sw_hooks_on) {
		for (i = 0; i < ARRAY_SIZE(pfm_sw_hooks); i++) {
			ret = tracepoint_probe_register(pfm_sw_hooks[i].tp,
							pfm_sw_hooks[i].probe, NULL);
			if (ret)
				break;
		}
		if (ret) {
			while (i--)
				tracepoint_probe_unregister(pfm_sw_hooks[i].tp,
							    pfm_sw_hooks[i].probe, NULL);
		} else {
			pfm_sw_hooks_on = true;
		}
	} else if (!atomic_read(&pfm_sw_hooks_users) && pfm_sw_hooks_on) {
		pfm_sw_hooks_off();
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

int pfm_sw_hooks_get(void)
{
	int ret;

	atomic_inc(&pfm_sw_hooks_users);
	ret = pfm_sw_hooks_sync();
	if (ret)
		atomic_dec(&pfm_sw_hooks_users);
	return ret;
}

void pfm_sw_hooks_put(void)
{
	if (atomic_dec_and_test(&pfm_sw_hooks_users))
		schedule_delayed_work(&pfm_sw_hooks_work, PFM_SW_HOOKS_LINGER);
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
	cancel_delayed_work_sync(&pfm_sw_hooks_work);
	mutex_lock(&pfm_sw_hooks_mutex);
	if (pfm_sw_hooks_on)
		pfm_sw_hooks_off();
	mutex_unlock(&pfm_sw_hooks_mutex);
	tracepoint_synchronize_unregister();
}
