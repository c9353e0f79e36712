/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The preload's choice for one perf_event_open: perfmon's answer, or, for an
 * event perfmon cannot serve, the kernel's own perf_event_open (fallback.c).
 * The world is reached through ops, so that the choice is tested on the host
 * (tests/lib/fallback_test.c) with every answer the two can give.
 */
#ifndef _PFM_PRELOAD_FALLBACK_H
#define _PFM_PRELOAD_FALLBACK_H

#include <sys/types.h>

struct perf_event_attr;

/* the environment variables (man 2 pfm_perf_event_open, ENVIRONMENT) */
#define PFM_PERF_FALLBACK_ENV		"PFM_PERF_FALLBACK"
#define PFM_PERF_FALLBACK_NOTE_ENV	"PFM_PERF_FALLBACK_NOTE"

struct pfm_fallback_ops {
	/* perfmon's perf_event_open: an fd, or -1 with errno */
	int (*shim_open)(struct perf_event_attr *attr, pid_t pid, int cpu,
			 int group_fd, unsigned long flags);
	/* the kernel's perf_event_open: an fd, or -errno */
	long (*kernel_open)(struct perf_event_attr *attr, pid_t pid, int cpu,
			    int group_fd, unsigned long flags);
	/* 1 if fd is an event of the kernel's own perf_events */
	int (*kernel_event)(int fd);
	/* the process's id: the note is said once per process */
	pid_t (*getpid)(void);
	/* writes a line to stderr */
	void (*say)(const char *line);
};

struct pfm_fallback {
	const struct pfm_fallback_ops *ops;
	int off;		/* PFM_PERF_FALLBACK=0: perfmon's answers only */
	int note;		/* PFM_PERF_FALLBACK_NOTE=1: say so on stderr */
	int kernel;		/* the kernel's call is there: 1, not: 0, unknown: -1 */
	pid_t noted;		/* the process that said so */
};

/* the preload exports syscall() and execve() alone */
#pragma GCC visibility push(hidden)

/* f's settings from the environment; the kernel not yet asked */
void pfm_fallback_init(struct pfm_fallback *f, const struct pfm_fallback_ops *ops);

/* perf_event_open through f: an fd, or -1 with errno */
int pfm_fallback_open(struct pfm_fallback *f, struct perf_event_attr *attr,
		      pid_t pid, int cpu, int group_fd, unsigned long flags);

#pragma GCC visibility pop

#endif /* _PFM_PRELOAD_FALLBACK_H */
