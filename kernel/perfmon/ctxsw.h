/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PERFMON_CTXSW_H
#define _PERFMON_CTXSW_H

int pfm_ctxsw_init(void);
void pfm_ctxsw_exit(void);

#endif
