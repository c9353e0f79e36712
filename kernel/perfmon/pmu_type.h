/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: contexts bound to one type of CPU, where the CPUs' PMUs are of several
 * types (a unit with types, pmu.h struct pfm_pmu_type; the rules in uapi
 * perfmon.h, CPU TYPES).
 *
 * ctx->pmu_type is 0 when the machine has one type, for a CPU session that
 * named none while it is not attached, and for a layer's per-thread context
 * of every type (layer.h, pfm_ctx_every_type()); else its type's index + 1.  A context's
 * registers of the typed unit are checked against its type's description, and it
 * counts only on CPUs of its type: on another, a per-thread context does not go
 * live (as if its thread were on no CPU), so neither its counters nor its sets'
 * live time advance there, its software events included, as perf_events counts
 * an event of one core type (and its group) only on that type.
 */
#ifndef _PERFMON_PMU_TYPE_H
#define _PERFMON_PMU_TYPE_H

#include "ctx.h"
#include "pmu.h"

/* The type a new context's flags name, into *type (0: none yet); -ENODEV: no such. */
int pfm_pmu_type_of_flags(u32 flags, u8 *type);
/* Register num (a PMD if pmd) and, for a PMC, its value, on ctx's type: 0 or -EINVAL. */
int pfm_pmu_type_check_reg(const struct pfm_context *ctx, bool pmd, unsigned int num,
			   u64 value);
/* A CPU session attaching to cpu takes cpu's type, or must have it: 0 or -EINVAL. */
int pfm_pmu_type_attach_cpu(struct pfm_context *ctx, int cpu);
void pfm_pmu_type_detach_cpu(struct pfm_context *ctx);
/* Clears, in logical bitmaps, the registers type k (of pfm_pmu.typed) does not have. */
void pfm_pmu_type_regs(unsigned int k, unsigned long *pmcs, unsigned long *pmds);
/* The same for ctx's type, if it has one. */
void pfm_pmu_type_avail(const struct pfm_context *ctx, unsigned long *pmcs,
			unsigned long *pmds);

/* Whether ctx counts on cpu: on the context switch path, one call when typed. */
static inline bool pfm_pmu_type_serves(const struct pfm_context *ctx, int cpu)
{
	return !ctx->pmu_type || pfm_pmu.typed->cpu_type(cpu) == ctx->pmu_type - 1u;
}

#endif /* _PERFMON_PMU_TYPE_H */
