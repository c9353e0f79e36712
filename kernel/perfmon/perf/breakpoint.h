/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: PERF_TYPE_BREAKPOINT events (breakpoint.c): each holds a breakpoint
 * of the kernel's hardware breakpoint service, whose hits count on a keyed
 * software counter of the event's target.
 */
#ifndef _PERFMON_PERF_BREAKPOINT_H
#define _PERFMON_PERF_BREAKPOINT_H

#include <linux/types.h>

struct perf_event_attr;
struct pfm_perf_event;

#ifdef CONFIG_HAVE_HW_BREAKPOINT
/* type BREAKPOINT is served here (else ENOENT, as any unknown type) */
static inline bool pfm_perf_bp_served(void)
{
	return true;
}
#else
static inline bool pfm_perf_bp_served(void)
{
	return false;
}
#endif

/* the keyed event's source, registered with the core (perf.c) */
int pfm_perf_bp_init(void);
void pfm_perf_bp_exit(void);
/* ev's breakpoint on its target's thread or CPU, and its key; 0 or perf's errno */
int pfm_perf_bp_get(struct pfm_perf_event *ev);
void pfm_perf_bp_put(struct pfm_perf_event *ev);
/* the software PMC value (without EN) that counts ev's hits; 0 counts nothing */
u64 pfm_perf_bp_pmc(const struct pfm_perf_event *ev);
/* PERF_EVENT_IOC_MODIFY_ATTRIBUTES on ev and its copies; ctx->mutex not held */
int pfm_perf_bp_modify(struct pfm_perf_event *ev, const struct perf_event_attr *attr);
/* ev's breakpoint on or off with ev's enable; ctx->mutex held, process context */
void pfm_perf_bp_arm(struct pfm_perf_event *ev, bool on);

#endif /* _PERFMON_PERF_BREAKPOINT_H */
