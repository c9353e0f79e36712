/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: CPU hotplug (hotplug.c).
 */
#ifndef _PERFMON_HOTPLUG_H
#define _PERFMON_HOTPLUG_H

int pfm_hotplug_init(void);
void pfm_hotplug_exit(void);

#endif /* _PERFMON_HOTPLUG_H */
