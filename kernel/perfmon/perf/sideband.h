/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the records beside the samples: the mappings and names of what was
 * sampled (sideband.c: MMAP2, COMM at an exec) and the monitored threads' forks,
 * exits and renames (task.c: FORK, EXIT, COMM).
 */
#ifndef _PERFMON_PERF_SIDEBAND_H
#define _PERFMON_PERF_SIDEBAND_H

#include <linux/types.h>

struct pfm_perf_event;
struct pfm_perf_target;
struct task_struct;

/* sideband.c */
void pfm_perf_sb_sample(struct pfm_perf_event *ev, u64 ip, u64 time);
void pfm_perf_sb_exec(struct pfm_perf_target *t);

/* task.c: a FORK, EXIT or COMM record's contents */
struct pfm_perf_task_rec {
	u32 type;
	u32 pid, ppid, tid, ptid;
	const char *comm;		/* COMM: the new name */
	bool exec;			/* COMM: the rename of an exec */
	u64 time;
};

void pfm_perf_task_record(struct pfm_perf_event *ev, const struct pfm_perf_task_rec *tr);
void pfm_perf_task_fork(struct task_struct *parent, struct task_struct *child);
void pfm_perf_task_exit(struct task_struct *task);
void pfm_perf_task_init(void);
void pfm_perf_task_exit_hooks(void);

#endif /* _PERFMON_PERF_SIDEBAND_H */
