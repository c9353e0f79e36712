// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the perf_event_open layer's init and exit (struct pfm_layer), and its
 * knobs and counts in /sys/kernel/perfmon/:
 *
 *   perf_targets_count threads and CPUs monitored through pfm_perf_event_open(),
 *                      each with one context (target.c)
 *   perf_events_count  events on them, inherited copies included
 *   perf_max_sample_rate  perf_event_max_sample_rate of those events (rw): the
 *                      highest sample_freq, and samples per second an event may
 *                      take before it is throttled (sample.c)
 *   perf_event_mlock_kb  perf_event_mlock_kb of the perf rings (rw, default 516
 *                      with 4 KiB pages): locked memory each user may map in
 *                      rings per online CPU beyond RLIMIT_MEMLOCK (ring.c)
 *   perf_mux_interval_ms  switch timeout of the event sets perf groups that do not
 *                      fit together are spread over (rw, 1..10000, default 4 as
 *                      perf_events; for sets made from then on: sched.c)
 */
#include "layer.h"
#include "breakpoint.h"
#include "event.h"
#include "perf.h"
#include "ring.h"
#include "sample.h"

PFM_ULONG_KNOB(perf_max_sample_rate, pfm_perf_max_sample_rate, 1, INT_MAX);
PFM_ULONG_KNOB(perf_event_mlock_kb, pfm_perf_mlock_kb, 0, INT_MAX);
PFM_ULONG_KNOB(perf_mux_interval_ms, pfm_perf_mux_interval_ms, 1, 10000);
PFM_COUNT_ATTR(perf_targets_count, pfm_perf_targets_count);
PFM_COUNT_ATTR(perf_events_count, pfm_perf_events_count);

static struct attribute *pfm_perf_attrs[] = {
	&pfm_perf_targets_count_attr.attr,
	&pfm_perf_events_count_attr.attr,
	&pfm_knob_perf_max_sample_rate.attr.attr,
	&pfm_knob_perf_event_mlock_kb.attr.attr,
	&pfm_knob_perf_mux_interval_ms.attr.attr,
	NULL,
};

static const struct attribute_group pfm_perf_group = {
	.attrs = pfm_perf_attrs,
};

static const struct pfm_task_ops pfm_perf_task_ops = {
	.exit = pfm_perf_exit,		/* inherited events: folded once detached */
	.exec = pfm_perf_exec,		/* enable_on_exec, once the attachment stands */
};

static int pfm_perf_init(void)
{
	int ret;

	ret = pfm_perf_row_cache_init();
	if (ret)
		return ret;
	ret = pfm_perf_target_cache_init();
	if (ret)
		goto err_row;
	ret = pfm_perf_output_layer_init();
	if (ret)
		goto err_target;
	ret = pfm_perf_sample_init();
	if (ret)
		goto err_output;
	ret = pfm_perf_inherit_init();
	if (ret)
		goto err_sample;
	ret = pfm_thread_ops_set(&pfm_perf_task_ops);
	if (ret)
		goto err_inherit;
	ret = sysfs_create_group(pfm_sysfs_kobj(), &pfm_perf_group);
	if (ret)
		goto err_ops;
	ret = pfm_perf_smpl_init();
	if (ret)
		goto err_sysfs;
	pfm_perf_prctl_init();
	pfm_perf_cgroup_init();
	ret = pfm_perf_bp_init();
	if (ret)
		goto err_prctl;
	ret = pfm_perf_open_init();
	if (ret)
		goto err_bp;
	return 0;

err_bp:
	pfm_perf_bp_exit();
err_prctl:
	pfm_perf_cgroup_exit();
	pfm_perf_prctl_exit();
	pfm_perf_smpl_exit();
err_sysfs:
	sysfs_remove_group(pfm_sysfs_kobj(), &pfm_perf_group);
err_ops:
	pfm_thread_ops_clear(&pfm_perf_task_ops);
err_inherit:
	pfm_perf_inherit_exit();
err_sample:
	pfm_perf_sample_exit();
err_output:
	pfm_perf_output_layer_exit();
err_target:
	pfm_perf_target_cache_exit();
err_row:
	pfm_perf_row_cache_exit();
	return ret;
}

static void pfm_perf_exit_layer(void)
{
	pfm_perf_open_exit();
	pfm_perf_bp_exit();
	pfm_perf_cgroup_exit();
	pfm_perf_prctl_exit();
	pfm_perf_smpl_exit();
	sysfs_remove_group(pfm_sysfs_kobj(), &pfm_perf_group);
	pfm_thread_ops_clear(&pfm_perf_task_ops);
	pfm_perf_inherit_exit();
	pfm_perf_sample_exit();
	pfm_perf_output_layer_exit();
	pfm_perf_target_cache_exit();
	pfm_perf_row_cache_exit();
}

const struct pfm_layer pfm_layer_perf = {
	.name = "perf",
	.init = pfm_perf_init,
	.exit = pfm_perf_exit_layer,
};
