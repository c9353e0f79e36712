/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A register-level model of x86 performance-monitoring hardware, for the host
 * tests of arch/x86/perfmon/ (which reach it through arch/x86/perfmon/hw.h, see
 * sim_hw.c).  One CPU.
 *
 * What it models, from the Intel SDM (vol. 3B ch. 20, vol. 4) and the AMD APM
 * (vol. 2 ch. 13), at the MSR addresses of the kernel's msr-index.h:
 *   - Intel architectural perfmon v1..v5: IA32_PERFEVTSELx, IA32_PMCx (writes take
 *     bits 31:0 sign-extended), IA32_A_PMCx (full width, with
 *     IA32_PERF_CAPABILITIES.FW_WRITE), IA32_FIXED_CTRx, IA32_FIXED_CTR_CTRL,
 *     IA32_PERF_GLOBAL_CTRL / _STATUS / _OVF_CTRL (_STATUS_RESET), _STATUS_SET (v4+),
 *     CPUID leaves 0, 1 and 0xA;
 *   - AMD: PERF_CTL/PERF_CTR legacy (0xC0010000/4), PerfCtrExtCore (0xC0010200,
 *     interleaved, legacy MSRs aliasing counters 0-3), PerfMonV2 global control,
 *     status, status clear and set; CPUID 0x80000001 and 0x80000022;
 *   - a #GP on an unknown MSR, a reserved bit written, a write to a read-only
 *     register; the driver's plain accessors must never cause one, the safe ones
 *     (its probe) get an error;
 *   - counting driven by the test (sim_count()): event and unit mask match, USR/OS
 *     filtering, EN and the global enable, counters wrapping at their width,
 *     which sets the overflow status and, with INT (PMI for fixed counters), raises
 *     the PMI: an NMI through the LVT performance-counter entry when it is
 *     programmed for NMI and unmasked (Intel masks it on each delivery);
 *   - the kernel's counter reservation (reserve_perfctr_nmi/reserve_evntsel_nmi
 *     address-to-bit mapping), and "someone else" holding counters;
 *   - hypervisors that fault PMU MSRs, or ignore writes (as QEMU TCG does).
 *   - real processors: a model made from a processor's CPUID leaves
 *     (tests/sim/cpuid/, sim_dump.h), which CPUID then answers with;
 *   - RDPMC from user mode (sim_rdpmc()): Intel's ECX bit 30 for the fixed
 *     counters, AMD's counter numbers 0..3 (legacy) or 0..5; a #GP with CR4.PCE
 *     clear (sim.cr4_pce, the running thread's) or a counter that does not exist;
 * Not modelled: CMASK, INV and EDGE (a counter counts as if they were clear),
 * AnyThread, PEBS, LBRs, freezing on PMI.
 *
 * Every access is counted, per MSR class, for the tests' exact counts and
 * make bench.
 */
#ifndef PFM_SIM_H
#define PFM_SIM_H

#include <stdbool.h>
#include <stdint.h>

#define SIM_MAX_GP	16
#define SIM_MAX_FIXED	8
#define SIM_APIC_DM_NMI		0x400
#define SIM_APIC_LVT_MASKED	0x10000

enum sim_vendor { SIM_INTEL, SIM_AMD, SIM_VIA };
enum sim_ring { SIM_USER, SIM_KERNEL };

/* One CPUID leaf of a real processor: EAX, EBX, ECX, EDX for leaf and subleaf. */
struct sim_leaf {
	uint32_t leaf, sub;
	uint32_t r[4];
};

struct sim_model {
	const char *name;		/* the simulator's name for it */
	const char *driver_model;	/* the model the driver should report */
	enum sim_vendor vendor;
	unsigned int family, model;
	/* Intel: arch perfmon version (0: none); AMD: 0 legacy, 1 PerfCtrExtCore, 2 PerfMonV2 */
	unsigned int version;
	unsigned int num_gp;
	unsigned int num_fixed;		/* CPUID.0AH:EDX[4:0] */
	uint32_t fixed_bitmap;		/* CPUID.0AH:ECX (v5) */
	/*
	 * CPUID leaf 0x23 (with CPUID.(7,1):EAX[8]): its sub-leaf 1 gives the GP
	 * counters (gp23) and the fixed ones (fixed23) present, in place of
	 * num_gp, num_fixed and fixed_bitmap; num_gp is then the highest GP + 1.
	 */
	bool leaf23;
	uint32_t gp23, fixed23;
	/*
	 * Leaf 0x23 sub-leaf 3 (valid when not 0): the architectural events
	 * present (bit set), in place of events_len and events_unavail.
	 */
	uint32_t events23;
	unsigned int width, fixed_width;
	bool pdcm, fw_write, anythread_deprecated;
	unsigned int events_len;	/* CPUID.0AH:EAX[31:24] */
	uint32_t events_unavail;	/* CPUID.0AH:EBX */
	bool hypervisor;
	bool hybrid;			/* CPUID.07H:EDX[15] */
	/* IA32_PERF_CAPABILITIES but FW_WRITE (bit 13), which fw_write gives */
	uint64_t perf_caps;
	/*
	 * A real processor's CPUID (sim_cpuid.c), answered in place of the leaves
	 * the fields above describe; the fields still say which registers exist
	 * (sim_model_from_cpuid(), and what a dump says CPUID does not).
	 */
	const struct sim_leaf *leaves;
	unsigned int nleaves;
};

enum sim_model_id {
	SIM_INTEL_V5,		/* the current generation of each vendor first */
	SIM_AMD_V2,
	SIM_INTEL_V4,
	SIM_INTEL_V2,
	SIM_INTEL_V1,
	SIM_AMD_CORE,
	SIM_AMD_LEGACY,
	SIM_NR_MODELS,
};

extern const struct sim_model sim_models[SIM_NR_MODELS];	/* sim_cpus.c */
/* sim_cpus.c: the model of a real processor with these CPUID leaves (kept, not copied) */
void sim_model_from_cpuid(struct sim_model *m, const struct sim_leaf *leaves, unsigned int n);
/* The GP and fixed counters m has (bit i: counter i). */
uint32_t sim_gp_present(const struct sim_model *m);
uint32_t sim_fixed_present(const struct sim_model *m);

/* MSR classes, for the access counts */
enum sim_class {
	SIM_C_SEL,		/* event selects */
	SIM_C_CTR,		/* GP counters, any alias */
	SIM_C_FIXED_CTR,
	SIM_C_FIXED_CTRL,
	SIM_C_GCTRL,
	SIM_C_GSTATUS,
	SIM_C_GACK,		/* overflow control / status reset / status clear */
	SIM_C_GSET,
	SIM_C_CAPS,
	SIM_C_OTHER,		/* anything else: #GP */
	SIM_NR_CLASSES,
};

extern const char *const sim_class_names[SIM_NR_CLASSES];

struct sim_counts {
	unsigned long rd[SIM_NR_CLASSES];	/* plain and safe accesses */
	unsigned long wr[SIM_NR_CLASSES];
	unsigned long apic;			/* LVT writes */
	unsigned long cpuid;
};

#define SIM_TRACE	4096

struct sim_access {
	uint32_t msr;
	bool write;
	uint64_t val;
};

#define SIM_MAX_CPUS	2

/* The PMU registers of one CPU. */
struct sim_bank {
	uint64_t sel[SIM_MAX_GP];
	uint64_t ctr[SIM_MAX_GP];
	uint64_t fixed_ctrl;
	uint64_t fixed_ctr[SIM_MAX_FIXED];
	uint64_t gctrl;
	uint64_t gstatus;
	uint64_t lvtpc;
};

struct sim_state {
	const struct sim_model *m;
	struct sim_model custom;	/* a model a test made up (sim_reset_custom()) */
	enum sim_vendor vendor;

	/* the registers */
	uint64_t sel[SIM_MAX_GP];
	uint64_t ctr[SIM_MAX_GP];
	uint64_t fixed_ctrl;
	uint64_t fixed_ctr[SIM_MAX_FIXED];
	uint64_t gctrl;
	uint64_t gstatus;
	uint64_t lvtpc;

	/*
	 * A hybrid machine (sim_reset_hybrid()): CPU i is of model cpu_model[i]
	 * (sim.custom, which m points at, is the running CPU's); the registers above
	 * are the running CPU's, the others' wait in banks.
	 */
	unsigned int ncpus, cpu;
	struct sim_model cpu_model[SIM_MAX_CPUS];
	struct sim_bank bank[SIM_MAX_CPUS];

	/* the hypervisor */
	bool fault_all;			/* every PMU MSR faults */
	bool ignore_writes;		/* PMU MSRs read 0 and drop writes */

	/* the kernel's reservation bitmaps, and what "someone else" holds */
	uint64_t perfctr_owner;
	uint64_t evntsel_owner;
	uint64_t perfctr_other;		/* the bits of the above someone else set */
	uint64_t evntsel_other;
	uint64_t other_gp;		/* GP counters held by someone else */
	uint64_t other_armed;		/* theirs, programmed with the top bit set */
	bool other_fixed;		/* and the fixed counters (perf_events) */

	/* CR4.PCE of the thread running: RDPMC allowed in user mode */
	bool cr4_pce;
	unsigned long rdpmcs;		/* RDPMCs executed */
	unsigned long rdpmc_gp;		/* of which faulted */

	/* what the CPU executes: the instruction a PMI interrupts, and its level */
	uint64_t ip;			/* set by the tests */
	enum sim_ring ring;		/* set by sim_count() */

	/* the driver's hooks (sim_hw.c) */
	bool (*nmi)(void);
	void (*work)(void);
	bool work_pending;
	/* the irq_work waits for sim_run_work() (the interrupted code has IRQs off) */
	bool hold_work;
	const char *model_param;

	/* statistics */
	struct sim_counts n;
	struct sim_access trace[SIM_TRACE];	/* every access, in order */
	unsigned long ntrace;
	unsigned long gp;		/* #GP from plain accesses: driver bugs */
	unsigned long gp_safe;		/* #GP from safe accesses: returned as errors */
	uint32_t gp_msr;		/* the last plain #GP */
	uint64_t gp_val;
	bool gp_write;
	const char *gp_why;
	unsigned long pmis;		/* raised */
	unsigned long pmis_lost;	/* the LVT entry was masked or not NMI */
	unsigned long nmis;		/* delivered */
	unsigned long nmis_unclaimed;	/* no handler said it was its NMI */
	unsigned long other_touched;	/* accesses to someone else's counters */
	unsigned long other_pmis;	/* PMIs of someone else's counters handled */
};

extern struct sim_state sim;

/* A fresh machine of the given model: registers at their power-on values. */
void sim_reset(enum sim_model_id id);
void sim_reset_custom(const struct sim_model *m);
/* A machine of two CPUs, CPU 0 of model cpu0 (running), CPU 1 of model cpu1. */
void sim_reset_hybrid(const struct sim_model *cpu0, const struct sim_model *cpu1);
/* The CPU that runs now: its model answers CPUID, its registers the MSRs. */
void sim_switch_cpu(unsigned int cpu);

/*
 * What the CPU executes: n occurrences of the event (event select bits 7:0, 15:8
 * and, on AMD, 35:32) at the given privilege level.
 */
void sim_count(uint64_t event, uint64_t n, enum sim_ring ring);

/* Runs the irq_work a PMI left pending (with hold_work). */
void sim_run_work(void);

/*
 * sim_hw.c: the type number the simulated kernel's perf_events gives cpu_atom,
 * as 6.1 does at boot (kprobe 6, uprobe 7, then the E cores' PMU).
 */
#define SIM_PERF_TYPE_ATOM	8

/* sim_hw.c: what the kernel tells the driver, a CPU coming online and a resume. */
void sim_hw_cpu_online(void);
/* sim_switch_cpu() and the kernel's CPU number (the thread running migrates there). */
void sim_set_cpu(unsigned int cpu);
void sim_hw_resume(void);

/* Someone else holds GP counter i (reserved through the kernel's calls). */
void sim_other_take(unsigned int i);
void sim_other_give(unsigned int i);
/* perf_events with an event: every GP counter reserved, the fixed ones in use. */
void sim_perf_take_all(void);
/* Program someone else's counter directly, counting event with INT. */
void sim_other_program(unsigned int i, uint64_t event, uint64_t value);

/* Register access, as the CPU sees it; false: #GP. */
bool sim_rdmsr(uint32_t msr, uint64_t *val);
bool sim_wrmsr(uint32_t msr, uint64_t val);
void sim_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]);
/* m's leaf as sim_cpuid() answers it on a real processor's model; NULL: none */
const struct sim_leaf *sim_leaf_find(const struct sim_model *m, uint32_t leaf, uint32_t sub);
/* RDPMC in user mode; false: #GP. */
bool sim_rdpmc(uint32_t ecx, uint64_t *val);
enum sim_class sim_msr_class(uint32_t msr);
/* A register's value without counting an access (0 if there is no such MSR). */
uint64_t sim_peek(uint32_t msr);

unsigned long sim_total(const struct sim_counts *c, bool write);
/* Accesses to one MSR recorded since trace entry 'since' (sim.ntrace then). */
unsigned long sim_traced(uint32_t msr, bool write, unsigned long since);
/* Accesses since *base (then *base = now). */
void sim_counts_since(struct sim_counts *delta, struct sim_counts *base);

/* The MSRs of a model's registers. */
uint32_t sim_sel_msr(unsigned int i);
uint32_t sim_ctr_msr(unsigned int i);	/* the one the driver should use */
uint64_t sim_width_mask(void);
uint64_t sim_fixed_width_mask(void);

/* Event codes for the tests */
#define SIM_EV_INST	0x00c0ULL	/* instructions retired (both vendors) */
#define SIM_EV_CYCLES	0x003cULL	/* Intel core cycles */
#define SIM_EV_REF	0x013cULL	/* Intel reference cycles */
#define SIM_EV_AMD_CYC	0x0076ULL	/* AMD cycles not in halt */
#define SIM_EV_BRANCH	0x00c4ULL

#endif /* PFM_SIM_H */
