/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the tracepoints behind the software events (sw_hooks.c; what the
 * software unit takes of them is in env.h).
 */
#ifndef _PERFMON_SW_HOOKS_H
#define _PERFMON_SW_HOOKS_H

#include "layer.h"

int pfm_sw_hooks_init(void);
void pfm_sw_hooks_exit(void);
/* The switch probe that picks up attaches pending on a thread (thread.c). */
int pfm_attach_probe_get(void);
void pfm_attach_probe_put(void);

#endif /* _PERFMON_SW_HOOKS_H */
