// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon x86: Intel architectural performance monitoring, versions 1 to 6.
 *
 * Everything comes from CPUID leaf 0xA (Intel SDM vol. 3B, "Architectural
 * Performance Monitoring"):
 *   EAX  version, number and width of the general-purpose counters, length of EBX
 *   EBX  architectural events not available (bit set)
 *   ECX  fixed counters present (v5: a bitmap)
 *   EDX  number and width of the fixed counters (v2+), AnyThread deprecated (bit 15)
 * and IA32_PERF_CAPABILITIES (when CPUID.1:ECX.PDCM) for full-width counter writes.
 * Versions 2 to 4 have three fixed counters that not every processor enumerates
 * (pfm_intel_fixed_quirk()).
 *
 *   v1   IA32_PERFEVTSELx / IA32_PMCx; EN in each event select starts a counter
 *   v2   fixed counters and IA32_FIXED_CTR_CTRL; IA32_PERF_GLOBAL_CTRL, _STATUS,
 *        _OVF_CTRL
 *   v3   AnyThread (bit 21 of the event select, bit 2 of each fixed nibble)
 *   v4   IA32_PERF_GLOBAL_STATUS_RESET (same MSR and use as _OVF_CTRL) and _SET
 *   v5   fixed-counter bitmap, AnyThread may be deprecated
 *   v6   (and some v5 parts) leaf 0x23, enumerated by CPUID.(7,1):EAX[8]: its
 *        sub-leaf 0 EAX says which sub-leaves are valid, sub-leaf 1 gives the
 *        GP counters (EAX) and the fixed counters (EBX) as bitmaps, which then
 *        stand in place of leaf 0xA's counts; the widths stay leaf 0xA's.
 *        Sub-leaf 3 EAX gives the architectural events the core has (bit set:
 *        present, the order of leaf 0xA's EBX), in place of leaf 0xA's EBX: on
 *        hybrid parts EBX is the same on both core types (Lunar Lake's says
 *        Topdown Slots is missing on both) while sub-leaf 3 is each type's own
 *        (P cores have Topdown Slots, E cores do not).  Bits 8 to 12 of both
 *        are version 6's events (the topdown level-1 events, LBR inserts).
 */
#include "x86.h"

/* CPUID (Intel SDM vol. 2A, "CPUID"): the leaves and the bits the probe reads. */
#define CPUID_MAX_LEAF			0x0
#define CPUID_FEATURES			0x1
#define CPUID1_ECX_PDCM			(1U << 15)	/* IA32_PERF_CAPABILITIES */
#define CPUID1_ECX_HYPERVISOR		(1U << 31)
#define CPUID_STRUCT_FEATURES		0x7
#define CPUID7_EDX_HYBRID		(1U << 15)	/* core types differ */
#define CPUID71_EAX_PERFMON_EXT		(1U << 8)	/* leaf 0x23 */
#define CPUID_ARCH_PERFMON		0xa
#define CPUIDA_EAX_VERSION(a)		((a) & 0xff)
#define CPUIDA_EAX_NUM_GP(a)		(((a) >> 8) & 0xff)
#define CPUIDA_EAX_WIDTH(a)		(((a) >> 16) & 0xff)
#define CPUIDA_EAX_EBX_LEN(a)		((a) >> 24)	/* valid bits of EBX */
#define CPUIDA_EDX_NUM_FIXED(d)		((d) & 0x1f)
#define CPUIDA_EDX_FIXED_WIDTH(d)	(((d) >> 5) & 0xff)
#define CPUIDA_EDX_ANY_DEPRECATED	(1U << 15)	/* v5: AnyThread gone */
#define CPUID_HYBRID			0x1a		/* EAX[31:24]: core type */
#define CPUID_PERFMON_EXT		0x23
#define CPUID23_COUNTERS		1		/* the sub-leaf of the counters */
#define CPUID23_EVENTS			3		/* the sub-leaf of the events */

/*
 * The architectural events, in the order of CPUID.0AH:EBX and of leaf 0x23
 * sub-leaf 3 EAX (Intel SDM vol. 3B, "Pre-defined Architectural Performance
 * Events"); bits 8 to 12 came with version 6.
 */
static const u16 pfm_intel_arch_events[] = {
	0x003c,		/* UnHalted Core Cycles */
	0x00c0,		/* Instructions Retired */
	0x013c,		/* UnHalted Reference Cycles */
	0x4f2e,		/* LLC Reference */
	0x412e,		/* LLC Misses */
	0x00c4,		/* Branch Instructions Retired */
	0x00c5,		/* Branch Misses Retired */
	0x01a4,		/* Topdown Slots */
	0x02a4,		/* Topdown Backend Bound */
	0x0073,		/* Topdown Bad Speculation */
	0x019c,		/* Topdown Frontend Bound */
	0x02c2,		/* Topdown Retiring */
	0x01e4,		/* LBR Inserts */
};

/*
 * The events of bits 8 to 12 a CPU says nothing of where its EBX is shorter and
 * it has no sub-leaf 3: there their encodings are the model's own events, which
 * stay allowed (0x02c2 UOPS_RETIRED.RETIRE_SLOTS and 0x019c
 * IDQ_UOPS_NOT_DELIVERED.CORE from Sandy Bridge on, whose EBX has 7 bits).
 */
#define PFM_INTEL_EVENTS_V6	(0x1fU << 8)
#define PFM_INTEL_EV_TOPDOWN_SLOTS	7	/* its bit */

bool pfm_intel_event_missing(const struct pfm_x86_pmu *p, u64 value)
{
	u16 code = value & (PFM_X86_SEL_EVENT | PFM_X86_SEL_UMASK);
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(pfm_intel_arch_events); k++)
		if (pfm_intel_arch_events[k] == code)
			return p->events_missing & (1U << k);
	return false;
}

/*
 * An architectural event the CPU says it does not have is refused; on a hybrid
 * part pfm_x86_pmu is the union, so this refuses what no core type has, and
 * pfm_x86_type_pmc_check() what the context's type lacks.
 */
static int pfm_intel_pmc_check(unsigned int idx, u64 value)
{
	if (idx < PFM_X86_MAX_GP && pfm_intel_event_missing(&pfm_x86_pmu, value))
		return -EINVAL;
	return 0;
}

/*
 * Architectural perfmon versions 2 to 4 come with (at least) three fixed
 * counters, which some processors do not enumerate: CPUID.0AH:EDX reads 0 on
 * Core 2 model 0x0f (Conroe, Merom) and says one fixed counter on Atom
 * (Bonnell), where IA32_FIXED_CTR0-2 all exist, 40 bits wide like the GP
 * counters (tests/sim/cpuid/: the dumps, and the MSRs VirtualBox's CPU
 * database read on an X6800 and an Atom 330).  Linux assumes three likewise.
 * A hypervisor's count is taken as it is: a virtual PMU may have fewer.
 * Returns the count, and the width in *fwidth when the one reported is unusable.
 */
static unsigned int pfm_intel_fixed_quirk(unsigned int version, unsigned int nfixed,
					  unsigned int *fwidth, unsigned int width,
					  bool hypervisor)
{
	if (version >= 5 || nfixed >= 3 || hypervisor)
		return nfixed;
	if (*fwidth < 32 || *fwidth > 64)
		*fwidth = width;
	return 3;
}

static const char *const pfm_intel_names[] = {
	NULL, "intel_arch_v1", "intel_arch_v2", "intel_arch_v3", "intel_arch_v4",
	"intel_arch_v5", "intel_arch_v6",
};

/*
 * Alder Lake and Raptor Lake (family 6 models 0x97, 0x9a, 0xb7, 0xba, 0xbf) have
 * no leaf 0x23, and their leaf 0xA reports on both core types what the types
 * have in common: 6 GP and 3 fixed counters, and Topdown Slots missing (the E
 * cores, Gracemont, lack it).  Their P cores (Golden Cove, Raptor Cove) have 8
 * GP and 4 fixed, as Linux has them (perf_events adds 2 and 1 to leaf 0xA's
 * counts for cpu_core), and Topdown Slots as a GP event too (TOPDOWN.SLOTS_P,
 * the encoding of the architectural event, in Intel's event lists of both
 * cores); sig is CPUID.1:EAX.
 */
static bool pfm_intel_big_core_quirk(u32 max_leaf, u32 sig)
{
	static const u8 models[] = { 0x97, 0x9a, 0xb7, 0xba, 0xbf };
	unsigned int model = ((sig >> 4) & 0xf) | ((sig >> 12) & 0xf0), i;
	u32 r[4];

	if (((sig >> 8) & 0xf) != 6 || max_leaf < CPUID_HYBRID)
		return false;
	pfm_hw_cpuid(CPUID_STRUCT_FEATURES, 0, r);
	if (!(r[3] & CPUID7_EDX_HYBRID))
		return false;
	pfm_hw_cpuid(CPUID_HYBRID, 0, r);
	if ((r[0] >> 24) != PFM_X86_CORE_TYPE_CORE)
		return false;
	for (i = 0; i < ARRAY_SIZE(models); i++)
		if (model == models[i])
			return true;
	return false;
}

/* Leaf 0x23's sub-leaf 0 EAX, the valid sub-leaves, where the CPU has the leaf; else 0. */
static u32 pfm_intel_leaf23(u32 max_leaf)
{
	u32 r[4];

	if (max_leaf < CPUID_PERFMON_EXT)
		return 0;
	pfm_hw_cpuid(CPUID_STRUCT_FEATURES, 0, r);
	if (r[0] < 1)
		return 0;
	pfm_hw_cpuid(CPUID_STRUCT_FEATURES, 1, r);
	if (!(r[0] & CPUID71_EAX_PERFMON_EXT))
		return 0;
	pfm_hw_cpuid(CPUID_PERFMON_EXT, 0, r);
	return r[0];
}

int pfm_intel_probe(struct pfm_x86_pmu *p, const char **why)
{
	unsigned int version, width, fwidth = 0, nfixed = 0, evlen, i, j;
	u64 sel_ok, any = 0, caps = 0, fixed_ok = 0, fixed_priv = 0;
	unsigned long fixed = 0, gp23 = 0, fixed23 = 0;
	u32 r[4], ebx, ecx, edx, max_leaf, sub23;
	bool fw = false, ext;

	pfm_hw_cpuid(CPUID_MAX_LEAF, 0, r);
	max_leaf = r[0];
	if (r[0] < CPUID_ARCH_PERFMON) {
		*why = "no CPUID leaf 0xA";
		return -ENODEV;
	}
	pfm_hw_cpuid(CPUID_ARCH_PERFMON, 0, r);
	ebx = r[1];
	ecx = r[2];
	edx = r[3];
	version = CPUIDA_EAX_VERSION(r[0]);
	p->num_gp = CPUIDA_EAX_NUM_GP(r[0]);
	width = CPUIDA_EAX_WIDTH(r[0]);
	evlen = CPUIDA_EAX_EBX_LEN(r[0]);
	if (!version) {
		*why = "no architectural performance monitoring (CPUID leaf 0xA)";
		return -ENODEV;
	}
	if (p->num_gp > PFM_X86_MAX_GP)
		p->num_gp = PFM_X86_MAX_GP;
	p->gp = (1UL << p->num_gp) - 1;
	sub23 = pfm_intel_leaf23(max_leaf);
	ext = sub23 & (1U << CPUID23_COUNTERS);
	if (ext) {
		pfm_hw_cpuid(CPUID_PERFMON_EXT, CPUID23_COUNTERS, r);
		gp23 = r[0] & ((1UL << PFM_X86_MAX_GP) - 1);
		fixed23 = r[1] & ((1UL << PFM_X86_MAX_FIXED) - 1);
		p->gp = gp23;
		p->num_gp = bitmap_weight(&gp23, PFM_X86_MAX_GP);
	}
	if (!p->gp || width < 32 || width > 64) {
		*why = "CPUID leaf 0xA reports no usable counter";
		return -ENODEV;
	}
	p->note = NULL;
	if (version > 6) {
		version = 6;
		p->note = "newer version run as v6";
	}

	p->events_missing = evlen < 32 ? ebx & ((1U << evlen) - 1) : ebx;
	for (i = evlen; i < 32; i++)
		if (!(PFM_INTEL_EVENTS_V6 & (1U << i)))
			p->events_missing |= 1U << i;
	if (sub23 & (1U << CPUID23_EVENTS)) {
		pfm_hw_cpuid(CPUID_PERFMON_EXT, CPUID23_EVENTS, r);
		p->events_missing = ~r[0];
	}

	if (version >= 3 && !(version >= 5 && (edx & CPUIDA_EDX_ANY_DEPRECATED)))
		any = PFM_X86_SEL_ANY;

	pfm_hw_cpuid(CPUID_FEATURES, 0, r);
	if ((r[2] & CPUID1_ECX_PDCM) && !pfm_hw_rdmsr_safe(MSR_PFM_INTEL_PERF_CAPABILITIES, &caps))
		fw = caps & PFM_X86_PERF_CAP_FW_WRITE;

	if (version >= 2) {
		nfixed = CPUIDA_EDX_NUM_FIXED(edx);
		fwidth = CPUIDA_EDX_FIXED_WIDTH(edx);
		nfixed = pfm_intel_fixed_quirk(version, nfixed, &fwidth, width,
					       r[2] & CPUID1_ECX_HYPERVISOR);
		if (!ext && pfm_intel_big_core_quirk(max_leaf, r[0])) {
			p->num_gp += 2;
			p->gp = (1UL << p->num_gp) - 1;
			nfixed++;
			p->events_missing &= ~(1U << PFM_INTEL_EV_TOPDOWN_SLOTS);
		}
		if (nfixed > PFM_X86_MAX_FIXED)
			nfixed = PFM_X86_MAX_FIXED;
		fixed = (1UL << nfixed) - 1;
		if (version >= 5)
			fixed |= ecx & ((1UL << PFM_X86_MAX_FIXED) - 1);
		if (ext)
			fixed = fixed23;
		if (fwidth < 32 || fwidth > 64)
			fixed = 0;
	}

	p->name = pfm_intel_names[version];
	p->vendor = PFM_X86_INTEL;
	p->gp_mask = width == 64 ? ~0ULL : (1ULL << width) - 1;
	/* 32-bit writes (sign-extended) can arm a counter at most 2^31 below its top. */
	p->gp_period = fw ? 1ULL << (width - 1) : 1ULL << 31;
	if (!p->note)
		p->note = fw ? "full-width writes" : "32-bit counter writes";

	sel_ok = PFM_X86_SEL_COMMON | any;
	p->sel_hw_ok = sel_ok | PFM_X86_SEL_PC;
	for_each_set_bit(i, &p->gp, PFM_X86_MAX_GP) {
		p->sel_msr[i] = MSR_PFM_INTEL_PERFEVTSEL0 + i;
		p->res_msr[i] = MSR_PFM_INTEL_PMC0 + i;
		p->ctr_msr[i] = (fw ? MSR_PFM_INTEL_A_PMC0 : MSR_PFM_INTEL_PMC0) + i;
		pfm_x86_desc_gp(p, i, ~sel_ok, PFM_X86_SEL_OS | any, width);
	}

	if (fixed) {
		p->fixed = fixed;
		p->fixed_mask = fwidth == 64 ? ~0ULL : (1ULL << fwidth) - 1;
		p->fixed_period = 1ULL << (fwidth - 1);
		p->fixed_ctr_msr0 = MSR_PFM_INTEL_FIXED_CTR0;
		p->fixed_ctrl_msr = MSR_PFM_INTEL_FIXED_CTR_CTRL;
		for_each_set_bit(j, &fixed, PFM_X86_MAX_FIXED) {
			fixed_ok |= (PFM_X86_FIXED_OS(j) | PFM_X86_FIXED_USR(j) |
				     PFM_X86_FIXED_PMI(j)) | (any ? PFM_X86_FIXED_ANY(j) : 0);
			fixed_priv |= PFM_X86_FIXED_OS(j) | (any ? PFM_X86_FIXED_ANY(j) : 0);
		}
		p->fixed_ctrl_hw_ok = fixed_ok;
		pfm_x86_desc_fixed(p, ~fixed_ok, fixed_priv, fwidth);
	}
	if (version >= 2) {
		p->gctrl_msr = MSR_PFM_INTEL_GLOBAL_CTRL;
		p->gstatus_msr = MSR_PFM_INTEL_GLOBAL_STATUS;
		p->gack_msr = MSR_PFM_INTEL_GLOBAL_OVF_CTRL;
	}
	p->pmc_check = pfm_intel_pmc_check;
	return 0;
}
