/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: writing and reading registers (rw.c); ctx->mutex held.
 */
#ifndef _PERFMON_RW_H
#define _PERFMON_RW_H

/* vectors of n struct pfarg_pmc / pfarg_pmd */
long pfm_write_pmcs(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_write_pmds(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_read_pmds(struct pfm_context *ctx, void *vec, unsigned int n);

#endif /* _PERFMON_RW_H */
