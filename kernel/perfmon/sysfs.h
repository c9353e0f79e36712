/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PERFMON_SYSFS_H
#define _PERFMON_SYSFS_H

int pfm_sysfs_init(void);
void pfm_sysfs_exit(void);

#endif
