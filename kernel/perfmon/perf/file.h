/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: a perf event's file descriptor: pfm_perf_event_open() making the
 * event and its fd (open.c), the file's operations (file.c), and the thread
 * that opened it, whose prctl(PR_TASK_PERF_EVENTS_*) reaches it (prctl.c).
 */
#ifndef _PERFMON_PERF_FILE_H
#define _PERFMON_PERF_FILE_H

#include <linux/types.h>

struct file;
struct perf_event_attr;
struct pfm_perf_event;

/* open.c */
int pfm_perf_copy_attr(struct perf_event_attr __user *uattr, struct perf_event_attr *attr);
long pfm_perf_event_open(struct perf_event_attr __user *uattr, int pid, int cpu,
			 int group_fd, unsigned long flags);

/* open.c: a new event, not yet on a target; its memory given back; their cache */
int pfm_perf_event_cache_init(void);
void pfm_perf_event_cache_exit(void);
struct pfm_perf_event *pfm_perf_event_alloc(const struct perf_event_attr *attr);
void pfm_perf_event_dealloc(struct pfm_perf_event *ev);
int pfm_perf_event_link(struct pfm_perf_event *ev, struct pfm_perf_event *leader);
/* link without the sync: events linked together, then one pfm_perf_target_sync() */
int pfm_perf_event_attach(struct pfm_perf_event *ev, struct pfm_perf_event *leader);

/* file.c */
int pfm_perf_install_fd(struct pfm_perf_event *ev, int fd);
struct pfm_perf_event *pfm_perf_event_from_file(struct file *file);
void pfm_perf_event_free(struct pfm_perf_event *ev);
void pfm_perf_event_unlink(struct pfm_perf_event *ev);

/* file.c: prctl's enable or disable of one event; prctl.c: its opener */
void pfm_perf_event_enable(struct pfm_perf_event *ev, bool on);
int pfm_perf_owner_add(struct pfm_perf_event *ev);
void pfm_perf_owner_del(struct pfm_perf_event *ev);

/* file.c: read_format's layout, for read() and PERF_SAMPLE_READ */
unsigned int pfm_perf_read_head(u64 rf, u64 first, u64 ena, u64 run, u64 *w);
unsigned int pfm_perf_read_tail(u64 rf, u64 id, u64 *w);

#endif /* _PERFMON_PERF_FILE_H */
