// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: module initialisation: the core's steps, the layers the build links,
 * then the door, each an init/exit pair.  Init runs them in order and unwinds the
 * ones done when one fails; exit undoes them all, in reverse.
 */
#include <linux/init.h>
#include <linux/module.h>

#include "internal.h"
#include "access.h"
#include "ctx.h"
#include "dev.h"
#include "hotplug.h"
#include "layer.h"
#include "sets.h"
#include "smpl.h"
#include "stats.h"
#include "sw_hooks.h"
#include "switch.h"
#include "sw_pmu.h"
#include "sysfs.h"
#include "thread.h"
#include "probe.h"		/* arch/x86/perfmon/ */

/* The PMU description: the hardware unit first, so that pmu_desc/model names it. */
static int pfm_pmu_init(void)
{
	int ret;

	ret = pfm_x86_probe();
	if (ret < 0)
		return ret;
	ret = pfm_pmu_add_unit(&pfm_sw_unit);
	if (ret < 0) {
		pfm_pmu_reset();
		pfm_x86_remove();
	}
	return ret;
}

static void pfm_pmu_exit(void)
{
	pfm_pmu_reset();
	pfm_x86_remove();
}

static int pfm_stats_start(void)
{
	pfm_stats_init();
	return 0;
}

static int pfm_timers_start(void)
{
	return 0;
}

/* The core's steps, as init/exit pairs of the same shape as a layer's. */
#define PFM_STEP(_name, _init, _exit)						\
	static const struct pfm_layer pfm_step_##_name = {			\
		.name = #_name, .init = (_init), .exit = (_exit),		\
	}
PFM_STEP(ctx_cache, pfm_ctx_cache_init, pfm_ctx_cache_exit);
PFM_STEP(set_cache, pfm_set_cache_init, pfm_set_cache_exit);
PFM_STEP(sw_banks, pfm_sw_banks_init, pfm_sw_banks_exit);
PFM_STEP(pmu, pfm_pmu_init, pfm_pmu_exit);
PFM_STEP(timers, pfm_timers_start, pfm_timer_resync_exit);
PFM_STEP(sw_hooks, pfm_sw_hooks_init, pfm_sw_hooks_exit);
PFM_STEP(paranoid, pfm_paranoid_init, pfm_paranoid_exit);
PFM_STEP(access, pfm_access_init, pfm_access_exit);
PFM_STEP(thread, pfm_thread_init, pfm_thread_exit);
PFM_STEP(hotplug, pfm_hotplug_init, pfm_hotplug_exit);
PFM_STEP(sysfs, pfm_sysfs_init, pfm_sysfs_exit);
PFM_STEP(smpl, pfm_smpl_init, pfm_smpl_exit);
PFM_STEP(dfl_smpl, pfm_dfl_smpl_init, pfm_dfl_smpl_exit);
PFM_STEP(mux_smpl, pfm_mux_smpl_init, pfm_mux_smpl_exit);
PFM_STEP(door, pfm_dev_init, pfm_dev_exit);
PFM_STEP(stats, pfm_stats_start, pfm_stats_exit);

/* The layers the build links (Kbuild: PFM_LAYERS(X) names them). */
#ifndef PFM_LAYERS
#define PFM_LAYERS(X)
#endif
#define PFM_LAYER_DECLARE(name)	extern const struct pfm_layer pfm_layer_##name;
PFM_LAYERS(PFM_LAYER_DECLARE)
#define PFM_LAYER_STEP(name)	&pfm_layer_##name,

static const struct pfm_layer *const pfm_steps[] = {
	&pfm_step_ctx_cache,
	&pfm_step_set_cache,
	&pfm_step_sw_banks,
	&pfm_step_pmu,
	&pfm_step_timers,
	&pfm_step_sw_hooks,
	&pfm_step_paranoid,
	&pfm_step_access,
	&pfm_step_thread,
	&pfm_step_hotplug,
	&pfm_step_sysfs,
	&pfm_step_smpl,
	&pfm_step_dfl_smpl,
	&pfm_step_mux_smpl,
	PFM_LAYERS(PFM_LAYER_STEP)
	/* the door last: a call may come as soon as it is open */
	&pfm_step_door,
	&pfm_step_stats,
};

static void pfm_unwind(unsigned int n)
{
	while (n--)
		pfm_steps[n]->exit();
}

static int __init pfm_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(pfm_steps); i++) {
		ret = pfm_steps[i]->init();
		if (ret < 0) {
			pr_err("perfmon: %s: error %d\n", pfm_steps[i]->name, ret);
			pfm_unwind(i);
			return ret;
		}
	}
	pr_info("perfmon: version %u.%u, PMU %s\n", PFM_VERSION_MAJ, PFM_VERSION_MIN,
		pfm_pmu.model);
	return 0;
}

static void __exit pfm_exit(void)
{
	pfm_unwind(ARRAY_SIZE(pfm_steps));
}

module_init(pfm_init);
module_exit(pfm_exit);
MODULE_DESCRIPTION("perfmon: perfmon2-style performance monitoring interface");
MODULE_LICENSE("GPL");
