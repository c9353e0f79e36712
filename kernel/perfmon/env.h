/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PERFMON_ENV_H
#define _PERFMON_ENV_H

/* thread.c */
int pfm_thread_init(void);
void pfm_thread_exit(void);

/* access.c */
int pfm_access_init(void);
void pfm_access_exit(void);

/* hotplug.c */
int pfm_hotplug_init(void);
void pfm_hotplug_exit(void);

#endif
