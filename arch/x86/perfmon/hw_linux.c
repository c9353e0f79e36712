// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon x86: the kernel side of hw.h (the simulator's is tests/sim/sim_hw.c).
 *
 *   PMI        an NMI_LOCAL handler; what it finds is handled in a per-CPU hard
 *              irq_work, where interrupts are off and the core's locks may be taken
 *   deferral   the system workqueue
 *   shadows    forgotten on a CPU coming online and after a resume, when the PMU
 *              registers may have been reset
 *   pmu_model  the module parameter (perfmon.pmu_model= when built in)
 *   perf type  the number perf_events gave a PMU, found by opening a kernel
 *              counter on it
 */
#include <linux/cpuhotplug.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <linux/suspend.h>
#include <linux/workqueue.h>

#include "hw.h"

#ifndef MODULE
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "perfmon."
#endif

static char pfm_hw_model[24] = "auto";
module_param_string(pmu_model, pfm_hw_model, sizeof(pfm_hw_model), 0444);
MODULE_PARM_DESC(pmu_model,
		 "hardware PMU: auto, software, intel_arch, amd64, amd64_core, amd64_perfmon_v2");

const char *pfm_hw_model_param(void)
{
	return pfm_hw_model;
}

static const struct pfm_hw_ops *pfm_hw_ops;

static int pfm_hw_nmi(unsigned int cmd, struct pt_regs *regs)
{
	return pfm_hw_ops->nmi(instruction_pointer(regs), !user_mode(regs)) ?
	       NMI_HANDLED : NMI_DONE;
}

static void pfm_hw_irq_work_fn(struct irq_work *work)
{
	pfm_hw_ops->work();
}

/*
 * Set up at init: the module loader copies a module's per-CPU initial values
 * without applying relocations to them, so a function pointer there is NULL.
 */
static DEFINE_PER_CPU(struct irq_work, pfm_hw_irq_work);

/* From the NMI handler: the irq_work runs on this CPU when it can take interrupts. */
void pfm_hw_pmi_raise(void)
{
	irq_work_queue(this_cpu_ptr(&pfm_hw_irq_work));
}

static void pfm_hw_deferred_fn(struct work_struct *work)
{
	pfm_hw_ops->deferred();
}

static DECLARE_WORK(pfm_hw_deferred_work, pfm_hw_deferred_fn);

void pfm_hw_defer(void)
{
	schedule_work(&pfm_hw_deferred_work);
}

void pfm_hw_defer_flush(void)
{
	flush_work(&pfm_hw_deferred_work);
}

void pfm_hw_on_each_cpu(void (*fn)(void *arg), void *arg)
{
	on_each_cpu(fn, arg, 1);
}

void pfm_hw_on_cpu(int cpu, void (*fn)(void *arg), void *arg)
{
	smp_call_function_single(cpu, fn, arg, 1);
}

/* Runs on the CPU coming online. */
static int pfm_hw_cpu_online(unsigned int cpu)
{
	pfm_hw_ops->online();
	return 0;
}

static int pfm_hw_pm(struct notifier_block *nb, unsigned long action, void *data)
{
	switch (action) {
	case PM_POST_SUSPEND:
	case PM_POST_HIBERNATION:
	case PM_POST_RESTORE:
		pfm_hw_ops->invalidate();
		break;
	}
	return NOTIFY_OK;
}

static struct notifier_block pfm_hw_pm_nb = {
	.notifier_call = pfm_hw_pm,
};

static int pfm_hw_cpuhp;

int pfm_hw_init(const struct pfm_hw_ops *ops)
{
	unsigned int cpu;
	int ret;

	pfm_hw_ops = ops;
	for_each_possible_cpu(cpu)
		per_cpu(pfm_hw_irq_work, cpu) = IRQ_WORK_INIT_HARD(pfm_hw_irq_work_fn);
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "perfmon/x86:online",
					pfm_hw_cpu_online, NULL);
	if (ret < 0)
		return ret;
	pfm_hw_cpuhp = ret;
	ret = register_pm_notifier(&pfm_hw_pm_nb);
	if (ret)
		goto err_cpuhp;
	ret = register_nmi_handler(NMI_LOCAL, pfm_hw_nmi, 0, "perfmon");
	if (ret)
		goto err_pm;
	return 0;

err_pm:
	unregister_pm_notifier(&pfm_hw_pm_nb);
err_cpuhp:
	cpuhp_remove_state_nocalls(pfm_hw_cpuhp);
	return ret;
}

void pfm_hw_exit(void)
{
	unsigned int cpu;

	unregister_nmi_handler(NMI_LOCAL, "perfmon");
	for_each_possible_cpu(cpu)
		irq_work_sync(per_cpu_ptr(&pfm_hw_irq_work, cpu));
	unregister_pm_notifier(&pfm_hw_pm_nb);
	cpuhp_remove_state_nocalls(pfm_hw_cpuhp);
}

/*
 * The numbers perf_events gives PMUs registered without a fixed type start at
 * PERF_TYPE_MAX, in the order they register; the CPU PMUs register early, so
 * the first few dozen are enough.  Neither the numbers nor the PMUs are
 * exported: a disabled kernel counter opened with each number on cpu names
 * the PMU that took it.
 */
#define PFM_HW_PERF_TYPES_TRIED	64

int pfm_hw_perf_pmu_type(const char *name, int cpu)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.config = 0x003c,		/* core cycles, which every x86 PMU has */
		.disabled = 1,
	};
	struct perf_event *ev;
	unsigned int t;
	bool found;

	for (t = PERF_TYPE_MAX; t < PERF_TYPE_MAX + PFM_HW_PERF_TYPES_TRIED; t++) {
		attr.type = t;
		ev = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
		if (IS_ERR(ev))
			continue;
		found = ev->pmu && ev->pmu->name && !strcmp(ev->pmu->name, name);
		perf_event_release_kernel(ev);
		if (found)
			return t;
	}
	return -ENOENT;
}
