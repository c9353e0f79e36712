// SPDX-License-Identifier: GPL-2.0
/*
 * arch/x86/perfmon/hw.h on the simulator: what the kernel side (hw.h's inlines and
 * hw_linux.c) does with the hardware and the kernel, done with tests/sim/sim.c.
 *
 *   - a plain MSR access that faults is a driver bug: counted in sim.gp, the test
 *     fails; a safe one returns -EIO as rdmsrl_safe() would;
 *   - the reservation uses the kernel's own MSR-to-bit mapping
 *     (arch/x86/kernel/cpu/perfctr-watchdog.c): addresses it does not track always
 *     succeed, as there;
 *   - the NMI handler is called for each PMI the simulator delivers, the irq_work
 *     right after it (sim.c), deferred work and calls on every CPU at once (one CPU).
 */
#include <string.h>

#include "hw.h"
#include "sim.h"

u64 pfm_hw_rdmsr(u32 msr)
{
	uint64_t v;

	if (!sim_rdmsr(msr, &v)) {
		sim.gp++;
		return 0;
	}
	return v;
}

void pfm_hw_wrmsr(u32 msr, u64 v)
{
	if (!sim_wrmsr(msr, v))
		sim.gp++;
}

int pfm_hw_rdmsr_safe(u32 msr, u64 *v)
{
	uint64_t val;

	if (!sim_rdmsr(msr, &val)) {
		sim.gp_safe++;
		*v = 0;
		return -EIO;
	}
	*v = val;
	return 0;
}

int pfm_hw_wrmsr_safe(u32 msr, u64 v)
{
	if (!sim_wrmsr(msr, v)) {
		sim.gp_safe++;
		return -EIO;
	}
	return 0;
}

void pfm_hw_cpuid(u32 leaf, u32 sub, u32 r[4])
{
	uint32_t q[4];

	sim_cpuid(leaf, sub, q);
	r[0] = q[0];
	r[1] = q[1];
	r[2] = q[2];
	r[3] = q[3];
}

bool pfm_hw_user_rdpmc(void)
{
	return sim.cr4_pce;
}

/* The kernel's mapping; ~0U: not tracked. */
static unsigned int perfctr_bit(u32 msr)
{
	unsigned int bit;

	if (sim.vendor != SIM_AMD)
		bit = msr - 0xc1;
	else
		bit = msr >= 0xc0010201U ? (msr - 0xc0010201U) >> 1 : msr - 0xc0010004U;
	return bit;
}

static unsigned int evntsel_bit(u32 msr)
{
	unsigned int bit;

	if (sim.vendor != SIM_AMD)
		bit = msr - 0x186;
	else
		bit = msr >= 0xc0010200U ? (msr - 0xc0010200U) >> 1 : msr - 0xc0010000U;
	return bit;
}

static bool take(uint64_t *owner, unsigned int bit)
{
	if (bit >= 64)
		return true;
	if (*owner & (1ULL << bit))
		return false;
	*owner |= 1ULL << bit;
	return true;
}

static void give(uint64_t *owner, unsigned int bit)
{
	if (bit < 64)
		*owner &= ~(1ULL << bit);
}

bool pfm_hw_reserve(u32 ctr_msr, u32 sel_msr)
{
	if (!take(&sim.perfctr_owner, perfctr_bit(ctr_msr)))
		return false;
	if (!take(&sim.evntsel_owner, evntsel_bit(sel_msr))) {
		give(&sim.perfctr_owner, perfctr_bit(ctr_msr));
		return false;
	}
	return true;
}

void pfm_hw_release(u32 ctr_msr, u32 sel_msr)
{
	give(&sim.evntsel_owner, evntsel_bit(sel_msr));
	give(&sim.perfctr_owner, perfctr_bit(ctr_msr));
}

void pfm_hw_lvtpc_nmi(void)
{
	sim.n.apic++;
	sim.lvtpc = SIM_APIC_DM_NMI;
}

static const struct pfm_hw_ops *sim_hw_ops;

static bool sim_hw_nmi(void)
{
	return sim_hw_ops->nmi(sim.ip, sim.ring == SIM_KERNEL);
}

static void sim_hw_work(void)
{
	sim_hw_ops->work();
}

int pfm_hw_init(const struct pfm_hw_ops *ops)
{
	sim_hw_ops = ops;
	sim.nmi = sim_hw_nmi;
	sim.work = sim_hw_work;
	return 0;
}

void pfm_hw_exit(void)
{
	sim.nmi = NULL;
	sim.work = NULL;
	sim_hw_ops = NULL;
}

void pfm_hw_pmi_raise(void)
{
	sim.work_pending = true;
}

/* The deferred work runs at once: the simulated CPU has nothing else to do. */
void pfm_hw_defer(void)
{
	if (sim_hw_ops)
		sim_hw_ops->deferred();
}

void pfm_hw_defer_flush(void)
{
}

/* The simulated CPU that runs, and the shim's CPU number with it. */
void sim_set_cpu(unsigned int cpu)
{
	sim_switch_cpu(cpu);
	shim_cpu = sim.cpu;
}

void pfm_hw_on_cpu(int cpu, void (*fn)(void *arg), void *arg)
{
	unsigned int was = sim.cpu;

	sim_set_cpu(cpu);
	fn(arg);
	sim_set_cpu(was);
}

void pfm_hw_on_each_cpu(void (*fn)(void *arg), void *arg)
{
	unsigned int cpu;

	if (sim.ncpus < 2) {
		fn(arg);
		return;
	}
	for (cpu = 0; cpu < sim.ncpus; cpu++)
		pfm_hw_on_cpu(cpu, fn, arg);
}

const char *pfm_hw_model_param(void)
{
	return sim.model_param;
}

/* The simulated kernel's perf_events: cpu_atom as Debian's 6.1 numbers it. */
int pfm_hw_perf_pmu_type(const char *name, int cpu)
{
	(void)cpu;
	return !strcmp(name, "cpu_atom") ? SIM_PERF_TYPE_ATOM : -ENOENT;
}

/* The tests' view of the hooks the kernel side calls on its own. */
void sim_hw_cpu_online(void)
{
	if (sim_hw_ops)
		sim_hw_ops->online();
}

void sim_hw_resume(void)
{
	if (sim_hw_ops)
		sim_hw_ops->invalidate();
}
