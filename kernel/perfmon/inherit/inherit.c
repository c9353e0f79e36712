// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the PFM_FL_INHERIT layer's init and exit (struct pfm_layer), and its
 * counts in /sys/kernel/perfmon/:
 *
 *   inherit_contexts_count  inheritors alive: contexts the layer made for the
 *                      new threads and children of PFM_FL_INHERIT contexts'
 *                      threads (each counts against its user's ctx_per_user_max)
 *   inherit_lost_count  new threads that could not be given one (no memory, the
 *                      user's context limit, a context of their own already), or
 *                      whose counts could not be read at their exit, since the
 *                      module was loaded: what they and their descendants
 *                      counted is missing from their families' sums
 */
#include "layer.h"
#include "inherit.h"

atomic_t pfm_inh_nr_inheritors = ATOMIC_INIT(0);
static atomic_t pfm_inh_nr_lost = ATOMIC_INIT(0);

void pfm_inh_lost(void)
{
	atomic_inc(&pfm_inh_nr_lost);
}

static unsigned int pfm_inh_contexts_count(void)
{
	return atomic_read(&pfm_inh_nr_inheritors);
}

static unsigned int pfm_inh_lost_count(void)
{
	return atomic_read(&pfm_inh_nr_lost);
}

PFM_COUNT_ATTR(inherit_contexts_count, pfm_inh_contexts_count);
PFM_COUNT_ATTR(inherit_lost_count, pfm_inh_lost_count);

static struct attribute *pfm_inh_attrs[] = {
	&pfm_inherit_contexts_count_attr.attr,
	&pfm_inherit_lost_count_attr.attr,
	NULL,
};

static const struct attribute_group pfm_inh_group = {
	.attrs = pfm_inh_attrs,
};

static const struct pfm_task_ops pfm_inh_task_ops = {
	.exit = pfm_inh_exit,		/* an inheritor's counts folded */
};

static int pfm_inh_init(void)
{
	int ret;

	ret = pfm_inh_fork_init();
	if (ret)
		return ret;
	ret = pfm_thread_ops_set(&pfm_inh_task_ops);
	if (ret)
		goto err_fork;
	ret = sysfs_create_group(pfm_sysfs_kobj(), &pfm_inh_group);
	if (ret)
		goto err_ops;
	/* last: the flag is accepted once everything it needs is in place */
	ret = pfm_inh_family_init();
	if (ret)
		goto err_sysfs;
	return 0;

err_sysfs:
	sysfs_remove_group(pfm_sysfs_kobj(), &pfm_inh_group);
err_ops:
	pfm_thread_ops_clear(&pfm_inh_task_ops);
err_fork:
	pfm_inh_fork_exit();
	return ret;
}

static void pfm_inh_exit_layer(void)
{
	pfm_inh_family_exit();
	sysfs_remove_group(pfm_sysfs_kobj(), &pfm_inh_group);
	pfm_thread_ops_clear(&pfm_inh_task_ops);
	pfm_inh_fork_exit();
}

const struct pfm_layer pfm_layer_inherit = {
	.name = "inherit",
	.init = pfm_inh_init,
	.exit = pfm_inh_exit_layer,
};
