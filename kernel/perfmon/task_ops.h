/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the layers' exit and exec ops (task_ops.c; a layer adds its own
 * with pfm_thread_ops_set(), layer.h).
 */
#ifndef _PERFMON_TASK_OPS_H
#define _PERFMON_TASK_OPS_H

#include "layer.h"

struct task_struct;
/* Each layer's exit (exec: false) or exec (true) op, in the order they were added. */
void pfm_task_ops_run(struct task_struct *task, bool exec);

#endif /* _PERFMON_TASK_OPS_H */
