// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon x86: the register descriptions and the CPUID helpers the vendor probes
 * (intel.c, amd.c) share.
 *
 * The descriptions name every register as the vendor's manual does, give its MSR
 * (what a user sees in pmu_desc), the bits a user may not set and the ones only a
 * privileged user may.  A probe describes the registers its model has; the others
 * stay zero, which the core takes as absent.
 */
#include "x86.h"

/* GP counter i of p, whose sel_msr and ctr_msr are set; AMD's from their MSRs. */
void pfm_x86_desc_gp(struct pfm_x86_pmu *p, unsigned int i, u64 rsvd, u64 priv,
		     unsigned int width)
{
	static const char *const sel_names[2][PFM_X86_MAX_GP] = {
		{ "PERFEVTSEL0", "PERFEVTSEL1", "PERFEVTSEL2", "PERFEVTSEL3",
		  "PERFEVTSEL4", "PERFEVTSEL5", "PERFEVTSEL6", "PERFEVTSEL7",
		  "PERFEVTSEL8", "PERFEVTSEL9", "PERFEVTSEL10", "PERFEVTSEL11",
		  "PERFEVTSEL12", "PERFEVTSEL13", "PERFEVTSEL14", "PERFEVTSEL15" },
		{ "PERF_CTL0", "PERF_CTL1", "PERF_CTL2", "PERF_CTL3",
		  "PERF_CTL4", "PERF_CTL5", "PERF_CTL6", "PERF_CTL7",
		  "PERF_CTL8", "PERF_CTL9", "PERF_CTL10", "PERF_CTL11",
		  "PERF_CTL12", "PERF_CTL13", "PERF_CTL14", "PERF_CTL15" },
	};
	static const char *const ctr_names[2][PFM_X86_MAX_GP] = {
		{ "PMC0", "PMC1", "PMC2", "PMC3", "PMC4", "PMC5", "PMC6", "PMC7",
		  "PMC8", "PMC9", "PMC10", "PMC11", "PMC12", "PMC13", "PMC14", "PMC15" },
		{ "PERF_CTR0", "PERF_CTR1", "PERF_CTR2", "PERF_CTR3",
		  "PERF_CTR4", "PERF_CTR5", "PERF_CTR6", "PERF_CTR7",
		  "PERF_CTR8", "PERF_CTR9", "PERF_CTR10", "PERF_CTR11",
		  "PERF_CTR12", "PERF_CTR13", "PERF_CTR14", "PERF_CTR15" },
	};
	unsigned int amd = p->sel_msr[i] >= MSR_PFM_K7_EVNTSEL0;

	p->pmcs[i] = (struct pfm_regdesc){
		.name = sel_names[amd][i], .addr = p->sel_msr[i], .rsvd_msk = rsvd,
		.priv_msk = priv, .type = PFM_REG_I | PFM_REG_NO64,
	};
	p->pmds[i] = (struct pfm_regdesc){
		.name = ctr_names[amd][i], .addr = p->ctr_msr[i],
		.type = PFM_REG_I | PFM_REG_C64 | PFM_REG_INTR,
		.width = width, .dep_pmc = i,
	};
}

/* The fixed-counter control and the fixed counters present in p->fixed. */
void pfm_x86_desc_fixed(struct pfm_x86_pmu *p, u64 rsvd, u64 priv, unsigned int width)
{
	static const char *const names[PFM_X86_MAX_FIXED] = {
		"FIXED_CTR0", "FIXED_CTR1", "FIXED_CTR2", "FIXED_CTR3",
		"FIXED_CTR4", "FIXED_CTR5", "FIXED_CTR6", "FIXED_CTR7",
	};
	unsigned int j;

	p->pmcs[PFM_X86_FIXED_CTRL_PMC] = (struct pfm_regdesc){
		.name = "FIXED_CTR_CTRL", .addr = MSR_PFM_INTEL_FIXED_CTR_CTRL,
		.rsvd_msk = rsvd, .priv_msk = priv, .type = PFM_REG_I | PFM_REG_NO64,
	};
	for_each_set_bit(j, &p->fixed, PFM_X86_MAX_FIXED)
		p->pmds[PFM_X86_FIRST_FIXED_PMD + j] = (struct pfm_regdesc){
			.name = names[j], .addr = MSR_PFM_INTEL_FIXED_CTR0 + j,
			.type = PFM_REG_I | PFM_REG_C64 | PFM_REG_INTR,
			.width = width, .dep_pmc = PFM_X86_FIXED_CTRL_PMC,
		};
}

/* --- CPUID ----------------------------------------------------------------- */

enum pfm_x86_vendor pfm_x86_cpu_vendor(void)
{
	u32 r[4];

	/* CPUID.0: the vendor string is in EBX, EDX, ECX */
	pfm_hw_cpuid(0, 0, r);
	if (r[1] == 0x756e6547 && r[3] == 0x49656e69 && r[2] == 0x6c65746e)
		return PFM_X86_INTEL;		/* GenuineIntel */
	if (r[1] == 0x68747541 && r[3] == 0x69746e65 && r[2] == 0x444d4163)
		return PFM_X86_AMD;		/* AuthenticAMD */
	if (r[1] == 0x6f677948 && r[3] == 0x6e65476e && r[2] == 0x656e6975)
		return PFM_X86_AMD;		/* HygonGenuine */
	return PFM_X86_OTHER;
}

unsigned int pfm_x86_cpu_family(void)
{
	u32 r[4];
	unsigned int fam;

	/* CPUID.1:EAX: family in bits 11:8, plus the extended family (27:20) past 0xf */
	pfm_hw_cpuid(1, 0, r);
	fam = (r[0] >> 8) & 0xf;
	if (fam == 0xf)
		fam += (r[0] >> 20) & 0xff;
	return fam;
}
