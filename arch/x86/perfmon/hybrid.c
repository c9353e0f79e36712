// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon x86: hybrid Intel processors, whose core types have PMUs of their own
 * (CPUID.07H:EDX[15]; Lakefield, Alder Lake and later: P cores and E cores).
 *
 * Each core type's PMU is probed on a CPU of that type (its own leaves 0xA and
 * 0x23 there), and each becomes a type of the unit (kernel/perfmon/pmu.h, struct
 * pfm_pmu_type), named as perf_events names them, cpu_core and cpu_atom, with
 * the CPUID.1AH core type as id.  pfm_x86_pmu, which the unit runs on, holds every
 * type's registers: the MSRs are the same architectural ones on both types, and
 * the core lets a context use only its type's, only on CPUs of its type.  What
 * one CPU may be written differs: the global control and status bits of the
 * counters its type lacks are reserved there (pfm_x86_cpu_gbits()).
 */
#include <linux/perf_event.h>

#include "x86.h"

#define CPUID_HYBRID		0x1a

struct pfm_x86_type pfm_x86_types[PFM_X86_MAX_TYPES];
unsigned int pfm_x86_ntypes;
struct pfm_pmu_type pfm_x86_unit_types[PFM_X86_MAX_TYPES];

/* The CPU's type, index + 1, once looked up (0: not yet). */
static PFM_HW_DEFINE_PER_CPU(u8, pfm_x86_type_idx);

bool pfm_x86_is_hybrid(void)
{
	u32 r[4];

	if (pfm_x86_cpu_vendor() != PFM_X86_INTEL)
		return false;
	pfm_hw_cpuid(0, 0, r);
	if (r[0] < CPUID_HYBRID)
		return false;
	pfm_hw_cpuid(7, 0, r);
	return r[3] & (1U << 15);
}

static u8 pfm_x86_core_type(void)
{
	u32 r[4];

	pfm_hw_cpuid(CPUID_HYBRID, 0, r);
	return r[0] >> 24;
}

struct pfm_x86_probe_all {
	int ret;
	const char *why;
};

/* On each CPU: a core type not seen yet is probed here. */
static void pfm_x86_probe_type(void *arg)
{
	struct pfm_x86_probe_all *a = arg;
	u8 t = pfm_x86_core_type();
	struct pfm_x86_type *ty;
	unsigned int k;
	int ret;

	for (k = 0; k < pfm_x86_ntypes; k++)
		if (pfm_x86_types[k].core_type == t)
			return;
	if (pfm_x86_ntypes == PFM_X86_MAX_TYPES) {
		a->ret = -ENODEV;
		a->why = "more core types than P and E cores";
		return;
	}
	ty = &pfm_x86_types[pfm_x86_ntypes++];
	ty->core_type = t;
	ty->cpu = smp_processor_id();
	ret = pfm_intel_probe(&ty->pmu, &a->why);
	if (ret && !a->ret)
		a->ret = ret;
}

/* The union of the types' registers in pfm_x86_pmu; the first type's are kept. */
static int pfm_x86_union(const char **why)
{
	struct pfm_x86_pmu *u = &pfm_x86_pmu;
	const struct pfm_x86_pmu *o = &pfm_x86_types[1].pmu;
	unsigned int i;

	*u = pfm_x86_types[0].pmu;
	if (pfm_x86_ntypes < 2)
		return 0;
	*why = "core types with counters of different widths";
	if (o->gp_mask != u->gp_mask || o->gp_period != u->gp_period ||
	    (o->fixed && u->fixed && o->fixed_mask != u->fixed_mask))
		return -ENODEV;
	for_each_set_bit(i, &o->gp, PFM_X86_MAX_GP) {
		if (test_bit(i, &u->gp))
			continue;
		u->sel_msr[i] = o->sel_msr[i];
		u->ctr_msr[i] = o->ctr_msr[i];
		u->res_msr[i] = o->res_msr[i];
		u->pmcs[i] = o->pmcs[i];
		u->pmds[i] = o->pmds[i];
	}
	u->gp |= o->gp;
	u->num_gp = bitmap_weight(&u->gp, PFM_X86_MAX_GP);
	if (!u->fixed_ctrl_msr) {
		u->fixed_mask = o->fixed_mask;
		u->fixed_period = o->fixed_period;
		u->fixed_ctr_msr0 = o->fixed_ctr_msr0;
		u->fixed_ctrl_msr = o->fixed_ctrl_msr;
		u->pmcs[PFM_X86_FIXED_CTRL_PMC] = o->pmcs[PFM_X86_FIXED_CTRL_PMC];
	}
	for_each_set_bit(i, &o->fixed, PFM_X86_MAX_FIXED)
		if (!test_bit(i, &u->fixed))
			u->pmds[PFM_X86_FIRST_FIXED_PMD + i] = o->pmds[PFM_X86_FIRST_FIXED_PMD + i];
	u->fixed |= o->fixed;
	u->fixed_ctrl_hw_ok |= o->fixed_ctrl_hw_ok;
	u->pmcs[PFM_X86_FIXED_CTRL_PMC].rsvd_msk &= o->pmcs[PFM_X86_FIXED_CTRL_PMC].rsvd_msk;
	u->pmcs[PFM_X86_FIXED_CTRL_PMC].priv_msk |= o->pmcs[PFM_X86_FIXED_CTRL_PMC].priv_msk;
	u->sel_hw_ok |= o->sel_hw_ok;
	/* an architectural event is refused where no type has it */
	u->events_missing &= o->events_missing;
	return 0;
}

/* Probed once, at module load: a description is too big for the stack. */
static void pfm_x86_swap_types(void)
{
	static struct pfm_x86_type t;

	t = pfm_x86_types[0];
	pfm_x86_types[0] = pfm_x86_types[1];
	pfm_x86_types[1] = t;
}

/*
 * The type number perf_event_open(2) callers name a core type's PMU by: 6.1
 * registers the P cores' with PERF_TYPE_RAW and the E cores' with a number
 * of its choosing, which is asked of the kernel; a PMU it has not (0) is named
 * by no number, so that its events are only those without a type.
 */
static u32 pfm_x86_perf_type(const char *name, int cpu)
{
	int n;

	if (!strcmp(name, "cpu_core"))
		return PERF_TYPE_RAW;
	n = pfm_hw_perf_pmu_type(name, cpu);
	return n > 0 ? n : 0;
}

/*
 * Every online CPU's type probed, P cores first; pfm_x86_pmu the union.  A type
 * whose CPUs are all offline now is not known: if they come online, they serve
 * no context (pfm_x86_type_here()).
 */
int pfm_x86_hybrid_probe(const char **why)
{
	struct pfm_x86_probe_all a = { .ret = 0, .why = NULL };
	unsigned int k;
	int ret;

	pfm_x86_ntypes = 0;
	memset(pfm_x86_types, 0, sizeof(pfm_x86_types));
	pfm_hw_on_each_cpu(pfm_x86_probe_type, &a);
	if (a.ret) {
		*why = a.why;
		return a.ret;
	}
	if (pfm_x86_ntypes == 2 && pfm_x86_types[1].core_type == PFM_X86_CORE_TYPE_CORE)
		pfm_x86_swap_types();
	ret = pfm_x86_union(why);
	if (ret)
		return ret;
	for (k = 0; k < pfm_x86_ntypes; k++) {
		u8 t = pfm_x86_types[k].core_type;
		struct pfm_pmu_type *ut = &pfm_x86_unit_types[k];

		*ut = (struct pfm_pmu_type){
			.id = t,
			.name = t == PFM_X86_CORE_TYPE_CORE ? "cpu_core" :
				t == PFM_X86_CORE_TYPE_ATOM ? "cpu_atom" : "cpu_other",
			.pmcs = pfm_x86_types[k].pmu.pmcs,
			.pmds = pfm_x86_types[k].pmu.pmds,
		};
		ut->perf_type = pfm_x86_perf_type(ut->name, pfm_x86_types[k].cpu);
	}
	return 0;
}

static unsigned int pfm_x86_type_here(void)
{
	u8 t = pfm_x86_core_type();
	unsigned int k;

	for (k = 0; k < pfm_x86_ntypes; k++)
		if (pfm_x86_types[k].core_type == t)
			return k;
	/*
	 * A type not probed (its CPUs were offline): a number no context has, so
	 * that none counts there.
	 */
	return PFM_X86_MAX_TYPES;
}

static void pfm_x86_type_on(void *arg)
{
	*(unsigned int *)arg = pfm_x86_type_here();
}

/* Callers may be preemptible (an attach): the CPU is pinned while it is looked at. */
unsigned int pfm_x86_cpu_type(int cpu)
{
	unsigned int k;
	u8 *idx;

	preempt_disable();
	if (cpu != smp_processor_id()) {
		preempt_enable();
		pfm_hw_on_cpu(cpu, pfm_x86_type_on, &k);
		return k;
	}
	idx = pfm_hw_this_cpu_ptr(pfm_x86_type_idx);
	if (!*idx)
		*idx = pfm_x86_type_here() + 1;
	k = *idx - 1;
	preempt_enable();
	return k;
}

u64 pfm_x86_cpu_gbits(void)
{
	const struct pfm_x86_pmu *p;
	unsigned int k;

	if (pfm_x86_ntypes < 2)
		return ~0ULL;
	k = pfm_x86_cpu_type(smp_processor_id());
	if (k >= pfm_x86_ntypes)
		return 0;
	p = &pfm_x86_types[k].pmu;
	return p->gp | ((u64)p->fixed << PFM_X86_GBIT_FIXED);
}

/*
 * Leaf 0x23 sub-leaf 3 says which architectural events each type has: a
 * context of one type may not program an event only the other has.
 */
int pfm_x86_type_pmc_check(unsigned int k, unsigned int idx, u64 value)
{
	if (k >= pfm_x86_ntypes || idx >= PFM_X86_MAX_GP)
		return 0;
	return pfm_intel_event_missing(&pfm_x86_types[k].pmu, value) ? -EINVAL : 0;
}

/* A CPU coming online is looked at anew. */
void pfm_x86_hybrid_online(void)
{
	*pfm_hw_this_cpu_ptr(pfm_x86_type_idx) = 0;
}
