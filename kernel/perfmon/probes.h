/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: sets of tracepoint probes attached while they have users, and a
 * second after the last (probes.c); the core's software events and the layers
 * take theirs from here.
 */
#ifndef _PERFMON_PROBES_H
#define _PERFMON_PROBES_H

#include <linux/atomic.h>
#include <linux/workqueue.h>

struct tracepoint;

/* A probe on the kernel's tracepoint of that name (found by pfm_probe_set_init()). */
struct pfm_probe {
	const char *name;
	void *func;
	struct tracepoint *tp;
};

struct pfm_probe_set {
	struct pfm_probe *probes;
	unsigned int count;
	/* told, under the sets' mutex, when the probes are attached and detached */
	void (*attached)(bool on);
	atomic_t users;
	bool on;			/* attached (the sets' mutex) */
	struct delayed_work off;
};

/* 0, or ENOENT where a tracepoint is missing (then get fails the same way). */
int pfm_probe_set_init(struct pfm_probe_set *s);
int pfm_probe_set_get(struct pfm_probe_set *s);
void pfm_probe_set_put(struct pfm_probe_set *s);
void pfm_probe_set_exit(struct pfm_probe_set *s);

static inline bool pfm_probe_set_users(struct pfm_probe_set *s)
{
	return atomic_read(&s->users);
}

#endif /* _PERFMON_PROBES_H */
