// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon x86: finding the model and registering its unit (probe.h).
 *
 * The pmu_model parameter or the CPU's vendor chooses the probe (intel.c, amd.c),
 * which fills pfm_x86_pmu from CPUID.  CPUID is not the last word: a hypervisor may
 * announce counters it faults on or ignores writes to, so the registers are tried
 * before the unit is registered.  Whatever fails, the module carries on with the
 * software unit alone, and the log says why.
 */
#include "x86.h"

struct pfm_x86_pmu pfm_x86_pmu;
const struct pfm_pmu_unit *pfm_x86_active_unit;

/* The unit's name is the model's, known only after the probe. */
static struct pfm_pmu_unit pfm_x86_named_unit;

static enum pfm_x86_force pfm_x86_parse_model(const char *s)
{
	static const char *const names[] = {
		[PFM_X86_FORCE_AUTO] = "auto",
		[PFM_X86_FORCE_SOFTWARE] = "software",
		[PFM_X86_FORCE_INTEL_ARCH] = "intel_arch",
		[PFM_X86_FORCE_AMD64] = "amd64",
		[PFM_X86_FORCE_AMD64_CORE] = "amd64_core",
		[PFM_X86_FORCE_AMD64_V2] = "amd64_perfmon_v2",
	};
	unsigned int i;

	if (!s || !*s)
		return PFM_X86_FORCE_AUTO;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i]))
			return i;
	return PFM_X86_FORCE_BAD;
}

/*
 * The registers must exist (a hypervisor may fault them) and keep what is written
 * (one may silently drop writes, as QEMU's TCG does): a counter is written and read
 * back, as perf_events' check_hw_exists() does.  Only the registers of counters no
 * one else holds are looked at, the counters reserved meanwhile, and the value put
 * back.  When every counter is held by someone else, that one has checked them.
 */
static int pfm_x86_check_regs(const struct pfm_x86_pmu *p, unsigned long free,
			      const char **why)
{
	unsigned int i, k;
	u64 v, t, back;

	*why = "PMU registers fault (virtual machine?)";
	for_each_set_bit(i, &free, PFM_X86_MAX_GP)
		if (pfm_hw_rdmsr_safe(p->sel_msr[i], &v) || pfm_hw_rdmsr_safe(p->ctr_msr[i], &v))
			return -ENODEV;
	if (p->fixed_ctrl_msr) {
		if (pfm_hw_rdmsr_safe(p->fixed_ctrl_msr, &v))
			return -ENODEV;
		for_each_set_bit(i, &p->fixed, PFM_X86_MAX_FIXED)
			if (pfm_hw_rdmsr_safe(p->fixed_ctr_msr0 + i, &v))
				return -ENODEV;
	}
	if (p->gctrl_msr && (pfm_hw_rdmsr_safe(p->gctrl_msr, &v) ||
			     pfm_hw_rdmsr_safe(p->gstatus_msr, &v)))
		return -ENODEV;

	*why = "PMU registers ignore writes (virtual machine?)";
	k = find_next_bit(&free, PFM_X86_MAX_GP, 0);
	if (pfm_hw_rdmsr_safe(p->ctr_msr[k], &v))
		return -ENODEV;
	t = (v ^ 0xffff) & p->gp_mask;
	if (pfm_hw_wrmsr_safe(p->ctr_msr[k], t))
		return -ENODEV;
	if (pfm_hw_rdmsr_safe(p->ctr_msr[k], &back))
		back = ~t;
	pfm_hw_wrmsr_safe(p->ctr_msr[k], v & p->gp_mask);
	return ((back ^ t) & 0xffff) ? -ENODEV : 0;
}

/* p: the registers of the CPU the probe runs on (one core type's on a hybrid CPU) */
static int pfm_x86_check_hw(const struct pfm_x86_pmu *p, const char **why)
{
	unsigned long free = 0, flags;
	unsigned int i;
	int ret = 0;

	raw_spin_lock_irqsave(&pfm_x86_res_lock, flags);
	for_each_set_bit(i, &p->gp, PFM_X86_MAX_GP)
		if (pfm_hw_reserve(p->res_msr[i], p->sel_msr[i]))
			__set_bit(i, &free);
	if (free)
		ret = pfm_x86_check_regs(p, free, why);
	for_each_set_bit(i, &free, PFM_X86_MAX_GP)
		pfm_hw_release(p->res_msr[i], p->sel_msr[i]);
	raw_spin_unlock_irqrestore(&pfm_x86_res_lock, flags);
	return ret;
}

static void pfm_x86_clear(void)
{
	memset(&pfm_x86_pmu, 0, sizeof(pfm_x86_pmu));
	pfm_x86_ntypes = 0;
}

/* The registers of the CPU the probe runs on. */
static const struct pfm_x86_pmu *pfm_x86_here(void)
{
	unsigned int k;

	if (pfm_x86_ntypes < 2)
		return &pfm_x86_pmu;
	k = pfm_x86_cpu_type(smp_processor_id());
	return k < pfm_x86_ntypes ? &pfm_x86_types[k].pmu : &pfm_x86_pmu;
}

/* One line a PMU (a core type's, named, on a hybrid CPU). */
static void pfm_x86_log(const char *type, const struct pfm_x86_pmu *p)
{
	unsigned int nfixed = bitmap_weight(&p->fixed, PFM_X86_MAX_FIXED);

	pr_info("perfmon: hardware PMU %s%s%s: %u counters of %u bits, %u fixed%s%s\n",
		p->name, type ? " " : "", type ? type : "", p->num_gp,
		p->pmds[find_next_bit(&p->gp, PFM_X86_MAX_GP, 0)].width, nfixed,
		p->note ? ", " : "", p->note ? p->note : "");
}

int pfm_x86_probe(void)
{
	const char *param = pfm_hw_model_param();
	enum pfm_x86_force force = pfm_x86_parse_model(param);
	enum pfm_x86_vendor vendor;
	const char *why = "no driver for this CPU";
	unsigned int i;
	int ret = -ENODEV;

	pfm_x86_clear();
	pfm_x86_active_unit = NULL;
	if (force == PFM_X86_FORCE_BAD) {
		pr_info("perfmon: unknown pmu_model '%s': software events only\n", param);
		return 0;
	}
	if (force == PFM_X86_FORCE_SOFTWARE) {
		pr_info("perfmon: pmu_model=software: software events only\n");
		return 0;
	}
	vendor = pfm_x86_cpu_vendor();
	if ((force == PFM_X86_FORCE_INTEL_ARCH || force == PFM_X86_FORCE_AUTO) &&
	    pfm_x86_is_hybrid())
		ret = pfm_x86_hybrid_probe(&why);
	else if (force == PFM_X86_FORCE_INTEL_ARCH ||
		 (force == PFM_X86_FORCE_AUTO && vendor == PFM_X86_INTEL))
		ret = pfm_intel_probe(&pfm_x86_pmu, &why);
	else if (force != PFM_X86_FORCE_AUTO || vendor == PFM_X86_AMD)
		ret = pfm_amd_probe(&pfm_x86_pmu, force, &why);
	if (!ret)
		ret = pfm_x86_check_hw(pfm_x86_here(), &why);
	if (!ret) {
		ret = pfm_hw_init(&pfm_x86_hw_ops);
		if (ret)
			why = "cannot register the NMI handler";
	}
	if (!ret) {
		pfm_x86_named_unit = pfm_x86_unit;
		pfm_x86_named_unit.name = pfm_x86_pmu.name;
		if (pfm_x86_ntypes > 1) {
			pfm_x86_named_unit.num_types = pfm_x86_ntypes;
			pfm_x86_named_unit.types = pfm_x86_unit_types;
			pfm_x86_named_unit.cpu_type = pfm_x86_cpu_type;
			pfm_x86_named_unit.type_pmc_check = pfm_x86_type_pmc_check;
		}
		ret = pfm_pmu_add_unit(&pfm_x86_named_unit);
		if (ret) {
			why = "the PMU description was refused";
			pfm_hw_exit();
		}
	}
	if (ret) {
		pr_info("perfmon: no hardware PMU (%s): software events only\n", why);
		pfm_x86_clear();
		return 0;
	}
	pfm_x86_active_unit = &pfm_x86_named_unit;
	if (pfm_x86_ntypes > 1) {
		for (i = 0; i < pfm_x86_ntypes; i++)
			pfm_x86_log(pfm_x86_unit_types[i].name, &pfm_x86_types[i].pmu);
		return 0;
	}
	pfm_x86_log(NULL, &pfm_x86_pmu);
	return 0;
}

/* After the core has let go of the units: no context can be attached. */
void pfm_x86_remove(void)
{
	if (!pfm_x86_active_unit)
		return;
	pfm_hw_defer_flush();
	pfm_hw_exit();
	pfm_x86_active_unit = NULL;
	pfm_x86_clear();
}
