/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon x86: perf's hardware events on the model found (perf_x86.c), from the
 * vendors' event codes (perf_tables.c).  They reach the layer above only through
 * the unit's encode_attr() (kernel/perfmon/pmu.h), in the unit's own terms.
 */
#ifndef _PFM_X86_PERF_H
#define _PFM_X86_PERF_H

struct perf_event_attr;
struct pfm_attr_enc;
struct pfm_x86_pmu;

/*
 * The event code (event select bits 7:0, 15:8 and AMD's 35:32) of a generic event
 * (PERF_COUNT_HW_*, on the PMU p, a hybrid machine's core type's) or of a cache
 * event (perf's packed cache, operation and result); 0 or the errno Linux 6.1
 * gives (ENOENT: no code on this model, EINVAL: past perf's lists, or an
 * operation the cache cannot have).
 */
int pfm_x86_perf_generic(const struct pfm_x86_pmu *p, u64 config, u64 *code);
int pfm_x86_perf_cache(u64 config, u64 *code);

/* The unit's encode_attr() (pmu.h). */
int pfm_x86_encode_attr(const struct perf_event_attr *attr, int cpu, struct pfm_attr_enc *enc);

#endif /* _PFM_X86_PERF_H */
