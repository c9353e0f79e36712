/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PERFMON_DEV_H
#define _PERFMON_DEV_H

int pfm_dev_init(void);
void pfm_dev_exit(void);

#endif
