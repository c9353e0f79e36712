// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon x86: AMD (and Hygon) core performance counters (AMD APM vol. 2,
 * "Performance Monitoring Counters").
 *
 *   amd64             four PERF_CTL/PERF_CTR pairs at 0xC0010000/0xC0010004, on every
 *                     AMD64 processor
 *   amd64_core        PerfCtrExtCore (CPUID 0x80000001:ECX[23], family 15h on): six
 *                     pairs interleaved from 0xC0010200; the legacy MSRs alias the
 *                     first four
 *   amd64_perfmon_v2  PerfMonV2 (CPUID 0x80000022:EAX[0]): as many core counters as
 *                     0x80000022:EBX[3:0] says, PerfCntrGlobalCtl to start and stop
 *                     them together, PerfCntrGlobalStatus to find overflows
 *
 * Counters are 48 bits.  Before PerfMonV2 there is no status register: overflows
 * are found from the counters, which run armed (x86.h).
 */
#include "x86.h"

#define SEL_GUEST_HOST	(3ULL << 40)
#define AMD_WIDTH	48

/* CPUID (AMD APM vol. 3, appendix E): the leaves and the bits the probe reads. */
#define CPUID_EXT_MAX_LEAF		0x80000000
#define CPUID_EXT_FEATURES		0x80000001
#define CPUID_EXT1_ECX_PERFCTR_CORE	(1U << 23)	/* PerfCtrExtCore */
#define CPUID_EXT_PERFMON		0x80000022
#define CPUID_PM_EAX_PERFMON_V2		(1U << 0)	/* PerfMonV2 */
#define CPUID_PM_EBX_NUM_CORE(b)	((b) & 0xf)	/* NumPerfCtrCore */

int pfm_amd_probe(struct pfm_x86_pmu *p, enum pfm_x86_force force, const char **why)
{
	unsigned int family = pfm_x86_cpu_family(), i;
	bool ext_core = false, v2 = false;
	unsigned int ncore = 0;
	u64 sel_ok = PFM_X86_SEL_COMMON;
	u32 r[4], maxext;

	pfm_hw_cpuid(CPUID_EXT_MAX_LEAF, 0, r);
	maxext = r[0];
	if (maxext >= CPUID_EXT_FEATURES) {
		pfm_hw_cpuid(CPUID_EXT_FEATURES, 0, r);
		ext_core = r[2] & CPUID_EXT1_ECX_PERFCTR_CORE;
	}
	if (maxext >= CPUID_EXT_PERFMON) {
		pfm_hw_cpuid(CPUID_EXT_PERFMON, 0, r);
		v2 = r[0] & CPUID_PM_EAX_PERFMON_V2;
		ncore = CPUID_PM_EBX_NUM_CORE(r[1]);
	}
	if (force == PFM_X86_FORCE_AUTO) {
		if (v2 && ncore)
			force = PFM_X86_FORCE_AMD64_V2;
		else if (ext_core)
			force = PFM_X86_FORCE_AMD64_CORE;
		else
			force = PFM_X86_FORCE_AMD64;
	}
	if (force == PFM_X86_FORCE_AMD64_V2 && !(v2 && ncore)) {
		*why = "no PerfMonV2 (CPUID 0x80000022)";
		return -ENODEV;
	}
	if (force == PFM_X86_FORCE_AMD64_CORE && !ext_core) {
		*why = "no PerfCtrExtCore (CPUID 0x80000001)";
		return -ENODEV;
	}

	p->note = NULL;
	p->vendor = PFM_X86_AMD;
	p->family = family;
	p->gp_mask = (1ULL << AMD_WIDTH) - 1;
	if (force == PFM_X86_FORCE_AMD64) {
		p->name = "amd64";
		p->num_gp = 4;
	} else if (force == PFM_X86_FORCE_AMD64_CORE) {
		p->name = "amd64_core";
		p->num_gp = 6;
	} else {
		p->name = "amd64_perfmon_v2";
		p->num_gp = ncore > PFM_X86_MAX_GP ? PFM_X86_MAX_GP : ncore;
		p->gctrl_msr = MSR_PFM_AMD_GLOBAL_CTL;
		p->gstatus_msr = MSR_PFM_AMD_GLOBAL_STATUS;
		p->gack_msr = MSR_PFM_AMD_GLOBAL_STATUS_CLR;
	}
	p->gp = (1UL << p->num_gp) - 1;
	p->gp_period = 1ULL << (AMD_WIDTH - 1);

	/* EventSelect[11:8] and Host/GuestOnly since family 10h */
	if (family >= 0x10)
		sel_ok |= PFM_X86_SEL_AMD_EVENT_HI;
	p->sel_hw_ok = sel_ok | (family >= 0x10 ? SEL_GUEST_HOST : 0);
	for (i = 0; i < p->num_gp; i++) {
		if (force == PFM_X86_FORCE_AMD64) {
			p->sel_msr[i] = MSR_PFM_K7_EVNTSEL0 + i;
			p->ctr_msr[i] = MSR_PFM_K7_PERFCTR0 + i;
		} else {
			p->sel_msr[i] = MSR_PFM_F15H_PERF_CTL0 + 2 * i;
			p->ctr_msr[i] = MSR_PFM_F15H_PERF_CTR0 + 2 * i;
		}
		p->res_msr[i] = p->ctr_msr[i];
		pfm_x86_desc_gp(p, i, ~sel_ok, PFM_X86_SEL_OS, AMD_WIDTH);
	}
	return 0;
}
