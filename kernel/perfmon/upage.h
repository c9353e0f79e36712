/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the counts page's contents (upage.c); its memory and mapping are
 * upage_map.c's.
 */
#ifndef _PERFMON_UPAGE_H
#define _PERFMON_UPAGE_H

#include "internal.h"

void pfm_upage_refresh(struct pfm_context *ctx);
void pfm_upage_publish(unsigned int first, const u64 *values, unsigned int stride,
		       unsigned long changed);
bool pfm_upage_install(struct pfm_context *ctx, struct pfm_counts_page *pg);

#endif /* _PERFMON_UPAGE_H */
