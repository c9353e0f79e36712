/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: sampling perf events: their setup and their PERF_RECORD_SAMPLE
 * (sample.c) with its callchain (callchain.c), and what an overflow does
 * besides: the signal and REFRESH's limit (async.c).
 */
#ifndef _PERFMON_PERF_SAMPLE_H
#define _PERFMON_PERF_SAMPLE_H

#include <linux/types.h>

struct file;
struct perf_event_attr;
struct pfm_context;
struct pfm_event_set;
struct pfm_perf_event;
struct task_struct;

/* sample.c */
bool pfm_perf_sampling(const struct perf_event_attr *attr);
int pfm_perf_sample_init(void);
void pfm_perf_sample_exit(void);
int pfm_perf_sample_check(const struct perf_event_attr *attr);
int pfm_perf_sample_room_for_stacks(void);
/* members of a group whose samples read it (the sample buffer's room) */
#define PFM_PERF_READ_GROUP_MAX	64
int pfm_perf_group_read_check(const struct pfm_perf_event *ev,
			      const struct pfm_perf_event *leader);
int pfm_perf_sample_setup(struct pfm_perf_event *ev, unsigned int s);
void pfm_perf_sample_teardown(struct pfm_perf_event *ev, unsigned int s);
int pfm_perf_sample_period(struct pfm_perf_event *ev, u64 value);
unsigned int pfm_perf_id_trailer(const struct pfm_perf_event *ev, u64 *w);
unsigned int pfm_perf_id_trailer_at(const struct pfm_perf_event *ev, u64 *w, u64 time);
u64 pfm_perf_pid_tid(struct task_struct *task, struct task_struct *whose);
unsigned int pfm_perf_id_trailer_task(const struct pfm_perf_event *ev, u64 *w, u64 time,
				      struct task_struct *task);
void pfm_perf_throttle_record(struct pfm_perf_event *ev, u32 type);
u64 pfm_perf_sample_addr(const struct pfm_perf_event *ev);
void pfm_perf_sample_overflow(struct pfm_perf_event *ev, struct pfm_context *ctx,
			      struct pfm_event_set *set, unsigned int pmd);

/* sigtrap.c */
void pfm_perf_sigtrap(struct pfm_perf_event *ev);

/* sample_tail.c: the fields after RAW */
struct pfm_ovfl_where;
int pfm_perf_regs_check(u64 mask);
unsigned int pfm_perf_sample_tail(const struct pfm_perf_event *ev, u64 *w, unsigned int n,
				  const struct pfm_ovfl_where *at, u64 ip);

/* callchain.c */
#define PFM_PERF_MAX_STACK	127	/* perf_event_max_stack's default */
int pfm_perf_callchain_check(const struct perf_event_attr *attr);
unsigned int pfm_perf_callchain(const struct pfm_perf_event *ev, u64 *w, u64 kip);

/* async.c */
void pfm_perf_async_init(struct pfm_perf_event *ev);
void pfm_perf_async_release(struct pfm_perf_event *ev);
int pfm_perf_fasync(int fd, struct file *file, int on);
int pfm_perf_refresh(struct pfm_perf_event *ev, int refresh);
int pfm_perf_async_overflow(struct pfm_perf_event *ev);
void pfm_perf_async_signal(struct pfm_perf_event *ev, int kill);

#endif /* _PERFMON_PERF_SAMPLE_H */
