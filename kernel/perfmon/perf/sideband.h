/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the records beside the samples: the mappings and names of what was
 * sampled (sideband.c: MMAP2, COMM at an exec), the mappings the thread makes
 * (mmap.c), and the monitored threads' forks, exits, renames and context
 * switches (task.c: FORK, EXIT, COMM, SWITCH), to every event that asks for
 * them (task.c: the target's side-band list).
 */
#ifndef _PERFMON_PERF_SIDEBAND_H
#define _PERFMON_PERF_SIDEBAND_H

#include <linux/types.h>

struct perf_event_attr;
struct pfm_perf_event;
struct pfm_perf_mmap_ent;
struct pfm_perf_target;
struct task_struct;
struct vm_area_struct;

/* sideband.c */
void pfm_perf_sb_sample(struct pfm_perf_event *ev, u64 ip, u64 time);
void pfm_perf_sb_exec(struct pfm_perf_target *t);
bool pfm_perf_sb_kick(struct pfm_perf_target *t);
void pfm_perf_sb_mappings(struct pfm_perf_target *t, u64 time, bool exec);
void pfm_perf_sb_map_fill(struct pfm_perf_mmap_ent *m, struct vm_area_struct *vma);
bool pfm_perf_sb_map_wanted(const struct pfm_perf_event *ev, unsigned long vm_flags);
void pfm_perf_sb_map_record(struct pfm_perf_event *ev, const struct pfm_perf_mmap_ent *m,
			    u64 *buf, char *path);

/* task.c: the events of a target that ask for side-band records */
extern atomic_t pfm_perf_nr_sb_mmap;	/* of them, those with mmap, mmap2 or mmap_data */
bool pfm_perf_sb_attr(const struct perf_event_attr *a);
bool pfm_perf_sb_mmap_attr(const struct perf_event_attr *a);
void pfm_perf_sb_add(struct pfm_perf_event *ev);
void pfm_perf_sb_del(struct pfm_perf_event *ev);
bool pfm_perf_sb_on(const struct pfm_perf_event *ev, int cpu);
void pfm_perf_sb_visit(struct task_struct *task, int cpu,
		       void (*fn)(struct pfm_perf_target *t, void *arg), void *arg);
void pfm_perf_sb_each_locked(struct pfm_perf_target *t,
			     void (*fn)(struct pfm_perf_event *ev, void *arg), void *arg);

/* task.c: a FORK, EXIT, COMM or SWITCH record's contents */
struct pfm_perf_task_rec {
	u32 type;
	u16 misc;
	u32 pid, ppid, tid, ptid;
	const char *comm;		/* COMM: the new name */
	u64 time;
	struct task_struct *task;	/* whose sample_id_all trailer: NULL for current */
	u32 np_pid, np_tid;		/* SWITCH: the other thread, for CPU events */
};

void pfm_perf_task_record(struct pfm_perf_event *ev, const struct pfm_perf_task_rec *tr);
void pfm_perf_task_fork(struct task_struct *parent, struct task_struct *child);
void pfm_perf_task_exit(struct task_struct *task);
void pfm_perf_task_switch(struct task_struct *task, struct task_struct *other, bool in,
			  bool preempt);
void pfm_perf_task_init(void);
void pfm_perf_task_exit_hooks(void);

/* mmap.c */
int pfm_perf_mmap_queue_get(struct pfm_perf_target *t, const struct perf_event_attr *a);
void pfm_perf_mmap_drain(struct pfm_perf_target *t);
int pfm_perf_mmap_init(void);
void pfm_perf_mmap_exit(void);
bool pfm_perf_mmap_hooked(void);

#endif /* _PERFMON_PERF_SIDEBAND_H */
