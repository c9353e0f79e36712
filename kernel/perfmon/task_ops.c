// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the layers' own work at a thread's exit and exec (struct
 * pfm_task_ops, layer.h), which the core's exit and exec probes (thread.c) run.
 */
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>

#include "internal.h"
#include "task_ops.h"

/*
 * The layers' ops (layer.h), added and removed by their init and exit, which the
 * module's load and unload serialise; the probes read them under RCU (preemption
 * is off).  A few slots: one per layer that follows threads.
 */
#define PFM_TASK_OPS_MAX	4
static const struct pfm_task_ops __rcu *pfm_task_ops[PFM_TASK_OPS_MAX];

int pfm_thread_ops_set(const struct pfm_task_ops *ops)
{
	int i, free = -1;

	for (i = 0; i < PFM_TASK_OPS_MAX; i++) {
		if (rcu_access_pointer(pfm_task_ops[i]) == ops)
			return -EBUSY;
		if (free < 0 && !rcu_access_pointer(pfm_task_ops[i]))
			free = i;
	}
	if (free < 0)
		return -EBUSY;
	rcu_assign_pointer(pfm_task_ops[free], ops);
	return 0;
}

/* After it, no probe is still in ops. */
void pfm_thread_ops_clear(const struct pfm_task_ops *ops)
{
	int i;

	for (i = 0; i < PFM_TASK_OPS_MAX; i++) {
		if (rcu_access_pointer(pfm_task_ops[i]) != ops)
			continue;
		RCU_INIT_POINTER(pfm_task_ops[i], NULL);
		tracepoint_synchronize_unregister();
	}
}

/* Each layer's exit (exec: false) or exec (true) op, in the order they were added. */
void pfm_task_ops_run(struct task_struct *task, bool exec)
{
	const struct pfm_task_ops *ops;
	int i;

	for (i = 0; i < PFM_TASK_OPS_MAX; i++) {
		ops = rcu_dereference_sched(pfm_task_ops[i]);
		if (!ops)
			continue;
		if (exec && ops->exec)
			ops->exec(task);
		else if (!exec && ops->exit)
			ops->exit(task);
	}
}
