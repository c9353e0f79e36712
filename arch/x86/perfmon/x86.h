/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon x86: what the driver's files share.
 *
 *   regs.c       the register descriptions the probes fill, the CPUID helpers
 *   intel.c      the vendor probes: each reads CPUID and fills the struct
 *   amd.c        pfm_x86_pmu it is given (the MSR of every register, the widths,
 *                the global registers, the descriptions the core exports)
 *   probe.c      which probe runs, the check that the registers work, the unit's
 *                registration (probe.h)
 *   unit.c       the unit's operations, the same for every model: shadows,
 *                ownership of the counters, the PMU interrupt
 *   perf_x86.c   perf's hardware events (perf_event_open) as this model's
 *                registers, the unit's encode_attr(), from the event codes of
 *                perf_tables.c (perf_x86.h)
 *   hw.h         the hardware, through hw_linux.c or, on the host, the simulator
 *
 * Unit-local register indices (the logical numbers of <perfmon/perfmon_x86.h>, the
 * unit sitting at PMC0/PMD0):
 *   PMC 0..15   event selects          PMD 0..15   their counters
 *   PMC 16      fixed-counter control  PMD 16..23  fixed counters
 */
#ifndef _PFM_X86_H
#define _PFM_X86_H

#include <uapi/perfmon/perfmon.h>
#include <uapi/perfmon/perfmon_x86.h>

#include "hw.h"
#include "probe.h"
#include "pmu.h"		/* kernel/perfmon: the core's unit interface */

/* Event-select bits both vendors take from the user (each adds its own). */
#define PFM_X86_SEL_COMMON	(PFM_X86_SEL_EVENT | PFM_X86_SEL_UMASK | PFM_X86_SEL_USR | \
				 PFM_X86_SEL_OS | PFM_X86_SEL_EDGE | PFM_X86_SEL_INT | \
				 PFM_X86_SEL_EN | PFM_X86_SEL_INV | PFM_X86_SEL_CMASK)

#define PFM_X86_NUM_PMCS	(PFM_X86_FIXED_CTRL_PMC + 1)
#define PFM_X86_NUM_PMDS	(PFM_X86_FIRST_FIXED_PMD + PFM_X86_MAX_FIXED)

/* Bits of the global control and status registers: GP i at i, fixed j at 32 + j. */
#define PFM_X86_GBIT_FIXED	32

/* MSRs (Intel SDM vol. 4, AMD APM vol. 2 ch. 13; as in the kernel's msr-index.h) */
#define MSR_PFM_INTEL_PMC0		0x0c1	/* IA32_PMC0, 32-bit writes */
#define MSR_PFM_INTEL_PERFEVTSEL0	0x186
#define MSR_PFM_INTEL_PERF_CAPABILITIES	0x345
#define MSR_PFM_INTEL_A_PMC0		0x4c1	/* IA32_A_PMC0, full-width writes */
#define MSR_PFM_INTEL_FIXED_CTR0	0x309
#define MSR_PFM_INTEL_FIXED_CTR_CTRL	0x38d
#define MSR_PFM_INTEL_GLOBAL_STATUS	0x38e
#define MSR_PFM_INTEL_GLOBAL_CTRL	0x38f
#define MSR_PFM_INTEL_GLOBAL_OVF_CTRL	0x390	/* v4: IA32_PERF_GLOBAL_STATUS_RESET */
#define MSR_PFM_INTEL_GLOBAL_STATUS_SET	0x391	/* v4 */
#define MSR_PFM_K7_EVNTSEL0		0xc0010000
#define MSR_PFM_K7_PERFCTR0		0xc0010004
#define MSR_PFM_F15H_PERF_CTL0		0xc0010200	/* CTL i at +2i */
#define MSR_PFM_F15H_PERF_CTR0		0xc0010201	/* CTR i at +2i */
#define MSR_PFM_AMD_GLOBAL_STATUS	0xc0000300
#define MSR_PFM_AMD_GLOBAL_CTL		0xc0000301
#define MSR_PFM_AMD_GLOBAL_STATUS_CLR	0xc0000302

#define PFM_X86_PERF_CAP_FW_WRITE	(1ULL << 13)

enum pfm_x86_vendor {
	PFM_X86_OTHER,
	PFM_X86_INTEL,
	PFM_X86_AMD,		/* and Hygon */
};

struct pfm_x86_pmu {
	const char *name;		/* the model, shown in pmu_desc/model */
	enum pfm_x86_vendor vendor;	/* whose event codes (perf_tables.c) */
	unsigned int family;		/* CPUID family, for AMD's event codes */
	unsigned int num_gp;		/* GP counters present, counted */
	/*
	 * GP counters present (bit i: counter i).  Intel's leaf 0x23 describes the
	 * counters by bitmap: a counter whose bit is clear does not exist, even
	 * below one that does.
	 */
	unsigned long gp;
	unsigned long fixed;		/* fixed counters present (bit j: FIXED_CTRj) */
	u64 gp_mask;			/* hardware width of the GP counters */
	u64 fixed_mask;			/* and of the fixed counters */
	/*
	 * Counters run "armed": the hardware holds the exported value plus an offset
	 * chosen so that it overflows (and interrupts) within one period of events,
	 * and is re-armed at each overflow.  The period is half the width, so the
	 * core's delta between two syncs is never ambiguous, or 2^31 where only
	 * 32-bit writes exist (IA32_PMCx sign-extends bit 31).  Where there is no
	 * global status, a counter below its armed range is one that overflowed.
	 */
	u64 gp_period;
	u64 fixed_period;
	u32 sel_msr[PFM_X86_MAX_GP];
	u32 ctr_msr[PFM_X86_MAX_GP];	/* read and written */
	u32 res_msr[PFM_X86_MAX_GP];	/* counter address the reservation tracks */
	u32 fixed_ctr_msr0;
	u32 fixed_ctrl_msr;		/* 0: no fixed counters */
	u32 gctrl_msr;			/* 0: no global control */
	u32 gstatus_msr;		/* 0: overflows found from the counters */
	u32 gack_msr;			/* write-1-to-clear of the status */
	u64 sel_hw_ok;			/* event select bits the hardware accepts */
	u64 fixed_ctrl_hw_ok;
	int (*pmc_check)(unsigned int idx, u64 value);	/* vendor checks, optional */
	u32 events_missing;		/* Intel: bit k, architectural event k absent */
	const char *note;		/* for the log line */
	struct pfm_regdesc pmcs[PFM_X86_NUM_PMCS];	/* what the core exports */
	struct pfm_regdesc pmds[PFM_X86_NUM_PMDS];
};

/* The model found (probe.c), all zero while there is none. */
extern struct pfm_x86_pmu pfm_x86_pmu;

/*
 * Hybrid Intel (hybrid.c): each core type's PMU, probed on a CPU of that type;
 * pfm_x86_pmu then describes every type's registers together (the unit's
 * tables) and the core binds each context to one type (kernel/perfmon/
 * pmu_type.h).  P cores (CPUID.1AH core type 0x40) first: the default.
 */
#define PFM_X86_MAX_TYPES	2
#define PFM_X86_CORE_TYPE_ATOM	0x20
#define PFM_X86_CORE_TYPE_CORE	0x40

struct pfm_x86_type {
	u8 core_type;			/* CPUID.1AH:EAX[31:24] */
	int cpu;			/* a CPU of the type, where it was probed */
	struct pfm_x86_pmu pmu;
};

extern struct pfm_x86_type pfm_x86_types[PFM_X86_MAX_TYPES];
extern unsigned int pfm_x86_ntypes;	/* 0: not hybrid */
extern struct pfm_pmu_type pfm_x86_unit_types[PFM_X86_MAX_TYPES];

bool pfm_x86_is_hybrid(void);
int pfm_x86_hybrid_probe(const char **why);
/* The index of cpu's type, and the global-control bits this CPU has. */
unsigned int pfm_x86_cpu_type(int cpu);
u64 pfm_x86_cpu_gbits(void);
/* The unit's type_pmc_check() (kernel/perfmon/pmu.h): type k's events. */
int pfm_x86_type_pmc_check(unsigned int k, unsigned int idx, u64 value);
void pfm_x86_hybrid_online(void);

/* The models a probe can be asked for (pmu_model=). */
enum pfm_x86_force {
	PFM_X86_FORCE_AUTO,
	PFM_X86_FORCE_SOFTWARE,
	PFM_X86_FORCE_INTEL_ARCH,
	PFM_X86_FORCE_AMD64,
	PFM_X86_FORCE_AMD64_CORE,
	PFM_X86_FORCE_AMD64_V2,
	PFM_X86_FORCE_BAD,
};

/* regs.c: CPUID helpers */
enum pfm_x86_vendor pfm_x86_cpu_vendor(void);
unsigned int pfm_x86_cpu_family(void);

/* regs.c: what the probes use to fill the descriptions of p. */
void pfm_x86_desc_gp(struct pfm_x86_pmu *p, unsigned int i, u64 rsvd, u64 priv,
		     unsigned int width);
void pfm_x86_desc_fixed(struct pfm_x86_pmu *p, u64 rsvd, u64 priv, unsigned int width);

/*
 * Vendor probes: fill *p, zeroed by the caller, from CPUID, or return a negative
 * errno and set *why (one phrase for the log).
 */
int pfm_intel_probe(struct pfm_x86_pmu *p, const char **why);
/* Whether value's event is an architectural event p's CPUID says is missing. */
bool pfm_intel_event_missing(const struct pfm_x86_pmu *p, u64 value);
int pfm_amd_probe(struct pfm_x86_pmu *p, enum pfm_x86_force force, const char **why);

/*
 * unit.c, for probe.c: the unit's operations (named after the model when it is
 * registered), the PMU interrupt's, and the lock under which the counters are
 * reserved and given back.
 */
extern const struct pfm_pmu_unit pfm_x86_unit;
extern const struct pfm_hw_ops pfm_x86_hw_ops;
PFM_HW_DECLARE_LOCK(pfm_x86_res_lock);

/* probe.c: the unit registered, NULL while there is none. */
extern const struct pfm_pmu_unit *pfm_x86_active_unit;

#endif /* _PFM_X86_H */
