/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PERFMON_SYSFS_H
#define _PERFMON_SYSFS_H

struct kobject;

int pfm_sysfs_init(void);
void pfm_sysfs_exit(void);
struct kobject *pfm_sysfs_kobj(void);

#endif
