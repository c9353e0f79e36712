// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: module initialisation.
 */
#include <linux/init.h>
#include <linux/module.h>

#include "internal.h"
#include "access.h"
#include "dev.h"
#include "hotplug.h"
#include "perf/perf.h"
#include "smpl.h"
#include "stats.h"
#include "sw_hooks.h"
#include "sw_pmu.h"
#include "sysfs.h"
#include "thread.h"
#include "probe.h"		/* arch/x86/perfmon/ */

static int __init pfm_init(void)
{
	int ret;

	ret = pfm_sw_hooks_init();
	if (ret < 0)
		goto err_out;
	/* The hardware unit first, so that pmu_desc/model names it. */
	ret = pfm_x86_probe();
	if (ret < 0)
		goto err_out;
	ret = pfm_pmu_add_unit(&pfm_sw_unit);
	if (ret < 0)
		goto err_pmu;
	ret = pfm_access_init();
	if (ret < 0)
		goto err_pmu;
	ret = pfm_thread_init();
	if (ret < 0)
		goto err_access;
	ret = pfm_perf_inherit_init();
	if (ret < 0)
		goto err_thread;
	ret = pfm_hotplug_init();
	if (ret < 0)
		goto err_perf;
	ret = pfm_sysfs_init();
	if (ret < 0)
		goto err_hotplug;
	ret = pfm_smpl_init();
	if (ret < 0)
		goto err_sysfs;
	ret = pfm_dfl_smpl_init();
	if (ret < 0)
		goto err_smpl;
	ret = pfm_mux_smpl_init();
	if (ret < 0)
		goto err_dfl_smpl;
	ret = pfm_perf_smpl_init();
	if (ret < 0)
		goto err_mux_smpl;
	ret = pfm_perf_open_init();
	if (ret < 0)
		goto err_perf_smpl;
	ret = pfm_dev_init();
	if (ret < 0)
		goto err_perf_open;
	pfm_stats_init();
	pr_info("perfmon: version %u.%u, PMU %s\n", PFM_VERSION_MAJ, PFM_VERSION_MIN,
		pfm_pmu.model);
	return 0;

err_perf_open:
	pfm_perf_open_exit();
err_perf_smpl:
	pfm_perf_smpl_exit();
err_mux_smpl:
	pfm_mux_smpl_exit();
err_dfl_smpl:
	pfm_dfl_smpl_exit();
err_smpl:
	pfm_smpl_exit();
err_sysfs:
	pfm_sysfs_exit();
err_hotplug:
	pfm_hotplug_exit();
err_perf:
	pfm_perf_inherit_exit();
err_thread:
	pfm_thread_exit();
err_access:
	pfm_access_exit();
err_pmu:
	pfm_pmu_reset();
	pfm_x86_remove();
err_out:
	return ret;
}

static void __exit pfm_exit(void)
{
	pfm_stats_exit();
	pfm_dev_exit();
	pfm_perf_open_exit();
	pfm_perf_smpl_exit();
	pfm_mux_smpl_exit();
	pfm_dfl_smpl_exit();
	pfm_smpl_exit();
	pfm_sysfs_exit();
	pfm_hotplug_exit();
	pfm_perf_inherit_exit();
	pfm_thread_exit();
	pfm_access_exit();
	pfm_sw_hooks_exit();
	pfm_pmu_reset();
	pfm_x86_remove();
}

module_init(pfm_init);
module_exit(pfm_exit);
MODULE_DESCRIPTION("perfmon: perfmon2-style performance monitoring interface");
MODULE_LICENSE("GPL");
