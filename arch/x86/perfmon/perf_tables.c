// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon x86: the event codes behind perf's generic events (PERF_TYPE_HARDWARE)
 * and cache events (PERF_TYPE_HW_CACHE), per vendor, for perf_x86.c.
 *
 * The codes are the architectural events of the Intel SDM (vol. 3B, "Pre-defined
 * Architectural Performance Events") and the AMD events of the BKDGs and PPRs;
 * which generic event gets which code, and which ones have none, is as Linux
 * 6.1's x86 perf code has it, so that a tool gets the same event and the same
 * errno from both: a generic or cache event the model has no code for is
 * ENOENT, an id past the end of perf's lists EINVAL, a cache operation that
 * makes no sense for the cache (writing to the instruction cache, prefetching
 * branches) EINVAL.
 *
 * Intel: architectural performance monitoring defines no cache events; Linux
 * has cache tables only for the models it knows by name, which the architectural
 * driver does not tell apart, so every cache event is ENOENT, as 6.1 answers on
 * an architectural-perfmon CPU it has no table for.
 */
#include <linux/perf_event.h>

#include "x86.h"
#include "perf_x86.h"

/* Intel, by PERF_COUNT_HW_*: the code, and its bit in CPUID.0AH:EBX (or -1). */
static const struct {
	u16 code;
	s8 arch_bit;
} pfm_intel_generic[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= { 0x003c, 0 },
	[PERF_COUNT_HW_INSTRUCTIONS]		= { 0x00c0, 1 },
	[PERF_COUNT_HW_CACHE_REFERENCES]	= { 0x4f2e, 3 },	/* LLC Reference */
	[PERF_COUNT_HW_CACHE_MISSES]		= { 0x412e, 4 },	/* LLC Misses */
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= { 0x00c4, 5 },
	[PERF_COUNT_HW_BRANCH_MISSES]		= { 0x00c5, 6 },
	[PERF_COUNT_HW_BUS_CYCLES]		= { 0x013c, 2 },	/* UnHalted Reference Cycles */
	/* fixed counter 2 (TSC rate); no general-purpose encoding */
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= { 0x0300, -1 },
};

/* AMD families 0Fh to 16h, by PERF_COUNT_HW_*. */
static const u16 pfm_amd_generic_k8[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= 0x0076,	/* CPU clocks not halted */
	[PERF_COUNT_HW_INSTRUCTIONS]		= 0x00c0,	/* retired instructions */
	[PERF_COUNT_HW_CACHE_REFERENCES]	= 0x077d,	/* L2 requests: IC, DC, TLB */
	[PERF_COUNT_HW_CACHE_MISSES]		= 0x077e,	/* L2 misses: IC, DC, TLB */
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= 0x00c2,	/* retired branches */
	[PERF_COUNT_HW_BRANCH_MISSES]		= 0x00c3,	/* retired mispredicted */
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= 0x00d0,	/* decoder empty */
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= 0x00d1,	/* dispatch stalls */
};

/* AMD family 17h and later (Zen). */
static const u16 pfm_amd_generic_zen[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= 0x0076,
	[PERF_COUNT_HW_INSTRUCTIONS]		= 0x00c0,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= 0xff60,	/* L2 cache accesses */
	[PERF_COUNT_HW_CACHE_MISSES]		= 0x0964,	/* L2 misses from IC and DC */
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= 0x00c2,
	[PERF_COUNT_HW_BRANCH_MISSES]		= 0x00c3,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= 0x0287,	/* dispatch stall, front end */
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= 0x0187,	/* dispatch stall, back end */
};

/* A cache event id as perf packs it in config: cache, operation, result. */
#define CACHE(c, op, res)	(PERF_COUNT_HW_CACHE_##c | \
				 (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
				 (PERF_COUNT_HW_CACHE_RESULT_##res << 16))

struct pfm_cache_code {
	u32 id;
	u16 code;
};

/* AMD families 0Fh to 16h: the cache events that have a code. */
static const struct pfm_cache_code pfm_amd_cache_k8[] = {
	{ CACHE(L1D, READ, ACCESS),	0x0040 },	/* data cache accesses */
	{ CACHE(L1D, READ, MISS),	0x0141 },	/* data cache misses */
	{ CACHE(L1D, PREFETCH, ACCESS),	0x0267 },	/* data prefetcher: attempts */
	{ CACHE(L1D, PREFETCH, MISS),	0x0167 },	/* data prefetcher: cancelled */
	{ CACHE(L1I, READ, ACCESS),	0x0080 },	/* instruction cache fetches */
	{ CACHE(L1I, READ, MISS),	0x0081 },	/* instruction cache misses */
	{ CACHE(L1I, PREFETCH, ACCESS),	0x014b },	/* prefetch instructions: load */
	{ CACHE(LL, READ, ACCESS),	0x037d },	/* L2 requests: IC and DC */
	{ CACHE(LL, READ, MISS),	0x037e },	/* L2 misses: IC and DC */
	{ CACHE(LL, WRITE, ACCESS),	0x017f },	/* L2 fill / writeback */
	{ CACHE(DTLB, READ, ACCESS),	0x0040 },	/* data cache accesses */
	{ CACHE(DTLB, READ, MISS),	0x0746 },	/* L1 and L2 DTLB misses */
	{ CACHE(ITLB, READ, ACCESS),	0x0080 },	/* instruction fetches */
	{ CACHE(ITLB, READ, MISS),	0x0385 },	/* L1 and L2 ITLB misses */
	{ CACHE(BPU, READ, ACCESS),	0x00c2 },	/* retired branches */
	{ CACHE(BPU, READ, MISS),	0x00c3 },	/* retired mispredicted */
	{ CACHE(NODE, READ, ACCESS),	0xb8e9 },	/* requests to memory: local, remote */
	{ CACHE(NODE, READ, MISS),	0x98e9 },	/* requests to memory: remote */
	{ 0, 0 }
};

/* AMD family 17h and later. */
static const struct pfm_cache_code pfm_amd_cache_zen[] = {
	{ CACHE(L1D, READ, ACCESS),	0x0040 },	/* data cache accesses */
	{ CACHE(L1D, READ, MISS),	0xc860 },	/* L2 accesses from DC misses */
	{ CACHE(L1D, PREFETCH, ACCESS),	0xff5a },	/* hardware prefetch DC fills */
	{ CACHE(L1I, READ, ACCESS),	0x0080 },	/* instruction cache fetches */
	{ CACHE(L1I, READ, MISS),	0x0081 },	/* instruction cache misses */
	{ CACHE(DTLB, READ, ACCESS),	0xff45 },	/* L2 DTLB accesses */
	{ CACHE(DTLB, READ, MISS),	0xf045 },	/* L2 DTLB misses (page walks) */
	{ CACHE(ITLB, READ, ACCESS),	0x0084 },	/* L1 ITLB misses, L2 hits */
	{ CACHE(ITLB, READ, MISS),	0xff85 },	/* L1 and L2 ITLB misses */
	{ CACHE(BPU, READ, ACCESS),	0x00c2 },	/* retired branches */
	{ CACHE(BPU, READ, MISS),	0x00c3 },	/* retired mispredicted */
	{ 0, 0 }
};

/* Intel: the generic event's code, the fixed-counter pseudo-encoding flagged. */
static int pfm_intel_generic_code(const struct pfm_x86_pmu *p, u64 config, u64 *code)
{
	int bit = pfm_intel_generic[config].arch_bit;

	*code = pfm_intel_generic[config].code;
	if (!*code)
		return -ENOENT;
	/* the events CPUID says the PMU lacks: 6.1 removes them from its map */
	if (bit >= 0 && pfm_intel_event_missing(p, *code))
		return -ENOENT;
	return 0;
}

/* p: the PMU the event opens on (a hybrid machine's core type's) */
int pfm_x86_perf_generic(const struct pfm_x86_pmu *p, u64 config, u64 *code)
{
	if (config >= PERF_COUNT_HW_MAX)
		return -EINVAL;
	if (pfm_x86_pmu.vendor == PFM_X86_INTEL)
		return pfm_intel_generic_code(p, config, code);
	*code = pfm_x86_pmu.family >= 0x17 ? pfm_amd_generic_zen[config] :
					     pfm_amd_generic_k8[config];
	return *code ? 0 : -ENOENT;
}

/* Operations that make no sense for the cache: EINVAL rather than ENOENT. */
static bool pfm_cache_op_invalid(unsigned int cache, unsigned int op)
{
	switch (cache) {
	case PERF_COUNT_HW_CACHE_L1I:
		return op == PERF_COUNT_HW_CACHE_OP_WRITE;
	case PERF_COUNT_HW_CACHE_ITLB:
	case PERF_COUNT_HW_CACHE_BPU:
	case PERF_COUNT_HW_CACHE_NODE:
		return op != PERF_COUNT_HW_CACHE_OP_READ;
	}
	return false;
}

int pfm_x86_perf_cache(u64 config, u64 *code)
{
	unsigned int cache = config & 0xff, op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;
	const struct pfm_cache_code *t;

	if (cache >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;
	if (pfm_x86_pmu.vendor != PFM_X86_AMD)
		return -ENOENT;
	if (pfm_cache_op_invalid(cache, op))
		return -EINVAL;
	t = pfm_x86_pmu.family >= 0x17 ? pfm_amd_cache_zen : pfm_amd_cache_k8;
	for (; t->code; t++) {
		if (t->id == (cache | (op << 8) | (result << 16))) {
			*code = t->code;
			return 0;
		}
	}
	return -ENOENT;
}
