/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the counts page's contents (upage.c); its memory and mapping are
 * upage_map.c's.
 */
#ifndef _PERFMON_UPAGE_H
#define _PERFMON_UPAGE_H

#include "internal.h"
#include "ctx.h"

void __pfm_upage_refresh(struct pfm_context *ctx);
void pfm_upage_show(struct pfm_context *ctx, bool live);

/*
 * The page shows the registers' state anew after a change (ctx->lock held).  Most
 * contexts map none: an overflow, a write, a switch pay one load for it.
 */
static inline void pfm_upage_refresh(struct pfm_context *ctx)
{
	if (READ_ONCE(ctx->upage))
		__pfm_upage_refresh(ctx);
}

/*
 * The set goes live or leaves (ctx->lock held, on its CPU): a page that shows
 * hardware counters changes between their offsets and their values.
 */
static inline void pfm_upage_live(struct pfm_context *ctx, bool live)
{
	if (ctx->upage_hw)
		pfm_upage_show(ctx, live);
}
void pfm_upage_publish(bool system_wide, unsigned int first, const u64 *values,
		       unsigned int stride, unsigned long changed);
bool pfm_upage_install(struct pfm_context *ctx, struct pfm_counts_page *pg);

#endif /* _PERFMON_UPAGE_H */
