/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon x86: the only way the PMU drivers reach the hardware.
 *
 * The drivers (regs.c, intel.c, amd.c, probe.c, unit.c) call nothing else that touches the
 * machine, so the same files run in the kernel and, on the host, against the
 * register-level simulator in tests/sim/ (built with PFM_X86_SIM defined):
 *
 *   MSRs          plain accessors for the registers the probe proved to exist, safe
 *                 ones (an error instead of a #GP) for the probe itself
 *   CPUID
 *   reservation   the kernel's counter reservation (reserve_perfctr_nmi() and
 *                 reserve_evntsel_nmi()), shared with perf_events
 *   PMI           the NMI handler, the LVT performance-counter entry, and the
 *                 irq_work that carries an overflow out of NMI context
 *   deferral      work run later in process context, calls on every CPU
 *
 * Kernel side: the inline functions below and hw_linux.c.  Host side:
 * tests/sim/sim_hw.c.
 */
#ifndef _PFM_X86_HW_H
#define _PFM_X86_HW_H

#ifndef PFM_X86_SIM
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <asm/apic.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/processor.h>
#include <asm/tlbflush.h>
#else
#include <linux/kernel.h>	/* tests/host/shim */
#include <linux/spinlock.h>
#include <linux/types.h>
#endif

#include <linux/bitmap.h>
#include <linux/errno.h>

#ifndef PFM_X86_SIM

static inline u64 pfm_hw_rdmsr(u32 msr)
{
	u64 v;

	rdmsrl(msr, v);
	return v;
}

static inline void pfm_hw_wrmsr(u32 msr, u64 v)
{
	wrmsrl(msr, v);
}

static inline int pfm_hw_rdmsr_safe(u32 msr, u64 *v)
{
	return rdmsrl_safe(msr, v);
}

static inline int pfm_hw_wrmsr_safe(u32 msr, u64 v)
{
	return wrmsrl_safe(msr, v);
}

static inline void pfm_hw_cpuid(u32 leaf, u32 sub, u32 r[4])
{
	cpuid_count(leaf, sub, &r[0], &r[1], &r[2], &r[3]);
}

/*
 * Counter i is ours when both its counter and its event select are: perf_events
 * reserves both (the counter through the full-width alias when it uses it, which
 * the reservation does not track; the event select always).
 */
static inline bool pfm_hw_reserve(u32 ctr_msr, u32 sel_msr)
{
	if (!reserve_perfctr_nmi(ctr_msr))
		return false;
	if (!reserve_evntsel_nmi(sel_msr)) {
		release_perfctr_nmi(ctr_msr);
		return false;
	}
	return true;
}

static inline void pfm_hw_release(u32 ctr_msr, u32 sel_msr)
{
	release_evntsel_nmi(sel_msr);
	release_perfctr_nmi(ctr_msr);
}

/* The PMU interrupt is an NMI; Intel CPUs mask the entry on each delivery. */
static inline void pfm_hw_lvtpc_nmi(void)
{
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}

/*
 * Whether the thread running may execute RDPMC in user mode: CR4.PCE, which Linux
 * sets per process by perf_events' rule (arch/x86/mm/tlb.c at each switch_mm).
 */
static inline bool pfm_hw_user_rdpmc(void)
{
	return cr4_read_shadow() & X86_CR4_PCE;
}

#define PFM_HW_DEFINE_LOCK(name)	DEFINE_RAW_SPINLOCK(name)
#define pfm_hw_xchg(p, v)		xchg(p, v)
/* The drivers' own per-CPU state: one per simulated CPU on the host. */
#define PFM_HW_DEFINE_PER_CPU(type, name)	DEFINE_PER_CPU(type, name)
#define pfm_hw_this_cpu_ptr(name)		this_cpu_ptr(&(name))

#else /* PFM_X86_SIM */

u64 pfm_hw_rdmsr(u32 msr);
void pfm_hw_wrmsr(u32 msr, u64 v);
int pfm_hw_rdmsr_safe(u32 msr, u64 *v);
int pfm_hw_wrmsr_safe(u32 msr, u64 v);
void pfm_hw_cpuid(u32 leaf, u32 sub, u32 r[4]);
bool pfm_hw_reserve(u32 ctr_msr, u32 sel_msr);
void pfm_hw_release(u32 ctr_msr, u32 sel_msr);
void pfm_hw_lvtpc_nmi(void);
bool pfm_hw_user_rdpmc(void);

#define PFM_HW_DEFINE_LOCK(name)	raw_spinlock_t name
#define PFM_HW_SIM_CPUS			2
#define PFM_HW_DEFINE_PER_CPU(type, name)	type name[PFM_HW_SIM_CPUS]
#define pfm_hw_this_cpu_ptr(name)		(&(name)[smp_processor_id()])

static inline u64 pfm_hw_xchg(u64 *p, u64 v)
{
	u64 old = *p;

	*p = v;
	return old;
}

#endif /* PFM_X86_SIM */

#define PFM_HW_DECLARE_LOCK(name)	extern raw_spinlock_t name

/*
 * Implemented out of line (hw_linux.c, tests/sim/sim_hw.c).
 *
 * pfm_hw_pmi_init() registers nmi(), called for every NMI on a CPU with the
 * interrupted instruction and whether it was in kernel mode: it returns true
 * when the NMI was the PMU's and its own; work() runs on the same CPU soon after
 * pfm_hw_pmi_raise() was called from nmi(), in hard-interrupt context.  defer() runs
 * fn in process context later; pfm_hw_defer_flush() waits for it.  online() runs on
 * a CPU coming online, and invalidate() after anything that may have reset PMU
 * registers behind the driver (resume from suspend).
 */
struct pfm_hw_ops {
	bool (*nmi)(u64 ip, bool kernel);
	void (*work)(void);
	void (*deferred)(void);
	void (*online)(void);
	void (*invalidate)(void);
};

int pfm_hw_init(const struct pfm_hw_ops *ops);
void pfm_hw_exit(void);
void pfm_hw_pmi_raise(void);
void pfm_hw_defer(void);
void pfm_hw_defer_flush(void);
void pfm_hw_on_each_cpu(void (*fn)(void *arg), void *arg);
/* fn on one online CPU, waited for (interrupts off there) */
void pfm_hw_on_cpu(int cpu, void (*fn)(void *arg), void *arg);
/*
 * The type number perf_events gave its PMU called name (as its sysfs
 * event_source device shows it), which counts on cpu; -ENOENT if it has none.
 * Process context.
 */
int pfm_hw_perf_pmu_type(const char *name, int cpu);
/* The pmu_model module parameter: "auto" unless given. */
const char *pfm_hw_model_param(void);

#endif /* _PFM_X86_HW_H */
