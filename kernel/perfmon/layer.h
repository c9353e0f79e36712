/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: what a layer on the core may use of it.
 *
 * A layer (the perf_event_open one is kernel/perfmon/perf/) is built with the core
 * or not at all, and the core never calls into it: the layer registers what it
 * offers through the core's hooks (an entry-table row, a sampling format, a thread's
 * exit and exec, a sysfs attribute group) from its init, and takes them back in its
 * exit.  The build lists the layers it links (Kbuild: PFM_LAYERS), and main.c runs
 * their init after the core's own and before the door opens, their exit in reverse.
 */
#ifndef _PERFMON_LAYER_H
#define _PERFMON_LAYER_H

/* A layer's init and exit: what init did, exit undoes; init undoes its own failures. */
struct pfm_layer {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
};

#endif /* _PERFMON_LAYER_H */
