// SPDX-License-Identifier: GPL-2.0
/*
 * probe: which model the driver finds, the registers it describes, and falling
 * back to the software PMU (one log line, no crash) wherever the hardware is
 * missing, faults, or ignores writes.
 */
#include "sim_test.h"

/* Nothing hardware registered: the software unit alone, named as the model. */
static void ck_software_only(void)
{
	unsigned int n;

	ck_assert_str_eq(pfm_pmu.model, "software");
	ck_assert_uint_eq(pfm_pmu.num_units, 1);
	ck_assert_ptr_null(pfm_x86_active_unit);
	for (n = 0; n < PFM_SW_FIRST_PMC; n++) {
		ck_assert(!test_bit(n, pfm_pmu.impl_pmcs));
		ck_assert(!test_bit(n, pfm_pmu.impl_pmds));
	}
	ck_assert_ptr_null(sim.nmi);
}

START_TEST(test_probe_model)
{
	const struct sim_model *m = &sim_models[_i];
	unsigned long printed = shim_printk_count;
	uint64_t ctr0;
	unsigned int n, j;

	sim_reset(_i);
	ctr0 = sim_peek(sim_ctr_msr(0));
	ck_assert_str_eq(sim_probe(), m->driver_model);
	ck_assert_uint_eq(shim_printk_count - printed, 1);	/* one log line */
	ck_assert_uint_eq(pfm_pmu.num_units, 2);
	ck_assert_ptr_eq(pfm_pmu.units[0], pfm_x86_active_unit);
	ck_assert_ptr_eq(pfm_pmu.units[1], &pfm_sw_unit);

	for (n = 0; n < PFM_SW_FIRST_PMC; n++) {
		bool gp = n < m->num_gp;
		bool fx = sim_has_fixed() && n == FX_PMC;

		ck_assert_msg(test_bit(n, pfm_pmu.impl_pmcs) == (gp || fx), "PMC%u", n);
		fx = n >= FX_PMD(0) && n < FX_PMD(sim_num_fixed());
		ck_assert_msg(test_bit(n, pfm_pmu.impl_pmds) == (gp || fx), "PMD%u", n);
	}
	for (n = 0; n < m->num_gp; n++) {
		const struct pfm_regdesc *c = pfm_pmu.pmc[GP_PMC(n)].desc;
		const struct pfm_regdesc *d = pfm_pmu.pmd[GP_PMD(n)].desc;

		ck_assert_uint_eq(c->addr, sim_sel_msr(n));
		ck_assert_uint_eq(c->dfl_val, 0);
		ck_assert_uint_eq(d->addr, sim_ctr_msr(n));
		ck_assert_uint_eq(d->width, sim_view_width());
		ck_assert(d->type & PFM_REG_C64);
		ck_assert_uint_eq(pfm_pmu.pmd[GP_PMD(n)].unit->pmds[d->dep_pmc].addr, d->addr);
	}
	for (j = 0; j < sim_num_fixed(); j++) {
		const struct pfm_regdesc *d = pfm_pmu.pmd[FX_PMD(j)].desc;

		ck_assert_uint_eq(d->addr, 0x309 + j);
		ck_assert_uint_eq(d->width, m->fixed_width);
		ck_assert_uint_eq(d->dep_pmc, FX_PMC);
	}
	if (sim_has_fixed())
		ck_assert_uint_eq(pfm_pmu.pmc[FX_PMC].desc->addr, 0x38d);
	/* the software PMU is still there, at its fixed numbers */
	ck_assert(test_bit(SW_PMC(0), pfm_pmu.impl_pmcs));
	ck_assert(test_bit(SW_PMD(7), pfm_pmu.impl_pmds));
	/* a set's slots: the x86 registers', then the software PMU's, contiguous */
	n = bitmap_weight(pfm_pmu.impl_pmds, PFM_SW_FIRST_PMD);
	ck_assert_uint_eq(pfm_pmu.num_pmd_slots, n + PFM_SW_NUM_COUNTERS);
	for (j = 0; j < PFM_SW_NUM_COUNTERS; j++)
		ck_assert_uint_eq(pfm_pmu.pmd_slot[SW_PMD(j)], n + j);
	ck_assert_uint_eq(pfm_pmu.num_pmc_slots,
			  bitmap_weight(pfm_pmu.impl_pmcs, PFM_SW_FIRST_PMC) + PFM_SW_NUM_COUNTERS);
	/* the fixed counters' PMC controls them all, in order */
	if (sim_has_fixed()) {
		unsigned int pmd = pfm_pmu.pmc[FX_PMC].dep_pmd;

		for (j = 0; j < sim_num_fixed(); j++, pmd = pfm_pmu.pmd[pmd].dep_pmd)
			ck_assert_uint_eq(pmd, FX_PMD(j));
		ck_assert_uint_eq(pmd, PFM_NO_REG);
	}

	/*
	 * The probe wrote one counter and read it back, and put it back; it reserved
	 * it meanwhile and let it go; it touched no interrupt setting.
	 */
	ck_assert_uint_eq(sim.n.wr[SIM_C_CTR], 2);
	ck_assert_uint_eq(sim_total(&sim.n, true), 2);
	ck_assert_uint_eq(sim_peek(sim_ctr_msr(0)), ctr0);
	ck_assert_uint_eq(sim.perfctr_owner | sim.evntsel_owner, 0);
	ck_assert_uint_eq(sim.n.apic, 0);
	ck_assert_uint_eq(sim.gp_safe, 0);
	ck_assert_ptr_nonnull(sim.nmi);
}
END_TEST

/* A hypervisor that drops PMU MSR writes (QEMU TCG): the readback catches it. */
START_TEST(test_probe_ignored_writes)
{
	unsigned long printed = shim_printk_count;

	sim_reset(_i);
	sim.ignore_writes = true;
	sim_probe();
	ck_software_only();
	ck_assert_uint_eq(shim_printk_count - printed, 1);
	ck_assert_uint_eq(sim.perfctr_owner | sim.evntsel_owner, 0);
}
END_TEST

/* One that faults them: only safe accesses were made, and they failed. */
START_TEST(test_probe_faulting_msrs)
{
	unsigned long printed = shim_printk_count;

	sim_reset(_i);
	sim.fault_all = true;
	sim_probe();
	ck_software_only();
	ck_assert_uint_gt(sim.gp_safe, 0);
	ck_assert_uint_eq(shim_printk_count - printed, 1);
}
END_TEST

/* CPUID leaf 0xA version 0: no architectural perfmon (QEMU without a vPMU). */
START_TEST(test_probe_no_arch_perfmon)
{
	struct sim_model m = sim_models[SIM_INTEL_V5];

	m.version = 0;
	sim_reset_custom(&m);
	sim_probe();
	ck_software_only();
	ck_assert_uint_eq(sim_total(&sim.n, false) + sim_total(&sim.n, true), 0);
}
END_TEST

/* A hybrid CPU: its core types have different PMUs; not supported. */
START_TEST(test_probe_hybrid)
{
	struct sim_model m = sim_models[SIM_INTEL_V5];

	/* one CPU, so one core type seen: its PMU, and no types for contexts */
	m.hybrid = true;
	sim_reset_custom(&m);
	ck_assert_str_eq(sim_probe(), "intel_arch_v5");
	ck_assert_uint_eq(pfm_x86_ntypes, 1);
	ck_assert_ptr_null(pfm_pmu.typed);
	pfm_pmu_reset();
	sim_reset_custom(&m);
	sim.model_param = "intel_arch";
	ck_assert_str_eq(sim_probe(), "intel_arch_v5");
}
END_TEST

START_TEST(test_probe_bad_leaf_a)
{
	struct sim_model m = sim_models[SIM_INTEL_V4];

	m.num_gp = 0;
	sim_reset_custom(&m);
	sim_probe();
	ck_software_only();
	m = sim_models[SIM_INTEL_V4];
	m.width = 16;
	sim_reset_custom(&m);
	pfm_pmu_reset();
	sim_probe();
	ck_software_only();
}
END_TEST

/*
 * Fixed counters CPUID does not enumerate: a Core 2 X6800 (family 6 model 0x0f)
 * reads CPUID.0AH:EDX 0 and has IA32_FIXED_CTR0-2 of 40 bits; an Atom 330
 * (Bonnell) reports one of its three.  The leaves are theirs (tests/sim/cpuid/).
 */
static const struct sim_leaf core2_x6800[] = {
	{ 0x0, 0, { 0x0000000a, 0x756e6547, 0x6c65746e, 0x49656e69 } },
	{ 0x1, 0, { 0x000006f6, 0x00020800, 0x0000e3bd, 0xbfebfbff } },
	{ 0xa, 0, { 0x07280202, 0x00000000, 0x00000000, 0x00000000 } },
};

static const struct sim_leaf atom_330[] = {
	{ 0x0, 0, { 0x0000000a, 0x756e6547, 0x6c65746e, 0x49656e69 } },
	{ 0x1, 0, { 0x000106c2, 0x00020800, 0x0040e31d, 0xbfe9fbff } },
	{ 0xa, 0, { 0x07280203, 0x00000000, 0x00000000, 0x00002501 } },
};

/* The processor of these leaves, with its three fixed counters: all found, all count. */
static void ck_unenumerated_fixed(const struct sim_leaf *l, unsigned int n, const char *model)
{
	struct pfm_context *ctx;
	struct sim_model m;
	unsigned int j;

	sim_model_from_cpuid(&m, l, n);
	m.num_fixed = 3;
	m.fixed_width = 40;
	sim_reset_custom(&m);
	ck_assert_str_eq(sim_probe(), model);
	ck_assert_uint_eq(pfm_x86_pmu.fixed, 0x7);
	ck_assert_uint_eq(pfm_x86_pmu.fixed_mask, (1ULL << 40) - 1);
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, FX_PMC, PFM_X86_FIXED_USR(0) | PFM_X86_FIXED_USR(1) |
		     PFM_X86_FIXED_USR(2), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 11, SIM_USER);
	sim_count(SIM_EV_CYCLES, 22, SIM_USER);
	sim_count(SIM_EV_REF, 33, SIM_USER);
	for (j = 0; j < 3; j++)
		ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(j)), 11 * (j + 1));
	ck_unload(ctx);
	pfm_context_put(ctx);
}

START_TEST(test_probe_unenumerated_fixed)
{
	ck_unenumerated_fixed(core2_x6800, ARRAY_SIZE(core2_x6800), "intel_arch_v2");
	pfm_pmu_reset();
	ck_unenumerated_fixed(atom_330, ARRAY_SIZE(atom_330), "intel_arch_v3");
}
END_TEST

/* Under a hypervisor the count is the virtual PMU's: none here, and none assumed. */
START_TEST(test_probe_fixed_count_in_vm)
{
	struct sim_leaf l[ARRAY_SIZE(core2_x6800)];
	struct sim_model m;

	memcpy(l, core2_x6800, sizeof(l));
	l[1].r[2] |= 1U << 31;
	sim_model_from_cpuid(&m, l, ARRAY_SIZE(l));
	ck_assert(m.hypervisor);
	sim_reset_custom(&m);
	ck_assert_str_eq(sim_probe(), "intel_arch_v2");
	ck_assert_uint_eq(pfm_x86_pmu.fixed, 0);
	ck_assert(!test_bit(FX_PMC, pfm_pmu.impl_pmcs));
}
END_TEST

/* Under a hypervisor with a working virtual PMU the driver is used. */
START_TEST(test_probe_hypervisor_vpmu)
{
	struct sim_model m = sim_models[_i];

	m.hypervisor = true;
	sim_reset_custom(&m);
	ck_assert_str_eq(sim_probe(), m.driver_model);
}
END_TEST

START_TEST(test_param_software)
{
	ck_assert_str_eq(sim_start_param(_i, "software"), "software");
	ck_software_only();
	ck_assert_uint_eq(sim.n.cpuid, 0);
}
END_TEST

START_TEST(test_param_unknown)
{
	ck_assert_str_eq(sim_start_param(SIM_INTEL_V5, "pentium4"), "software");
	ck_software_only();
}
END_TEST

START_TEST(test_param_auto_and_empty)
{
	ck_assert_str_eq(sim_start_param(SIM_AMD_V2, ""), "amd64_perfmon_v2");
}
END_TEST

/* Forcing a lesser AMD model on a PerfMonV2 CPU: fewer counters, no global control. */
START_TEST(test_param_amd_lesser)
{
	ck_assert_str_eq(sim_start_param(SIM_AMD_V2, "amd64"), "amd64");
	ck_assert_uint_eq(pfm_x86_pmu.num_gp, 4);
	ck_assert_uint_eq(pfm_pmu.pmc[0].desc->addr, 0xc0010000);
	ck_assert_uint_eq(pfm_pmu.pmd[3].desc->addr, 0xc0010007);
	ck_assert_uint_eq(pfm_pmu.pmd[0].desc->width, 48);
	ck_assert(!test_bit(4, pfm_pmu.impl_pmcs));
	ck_assert_uint_eq(pfm_x86_pmu.gctrl_msr, 0);
	pfm_pmu_reset();
	ck_assert_str_eq(sim_start_param(SIM_AMD_V2, "amd64_core"), "amd64_core");
	ck_assert_uint_eq(pfm_x86_pmu.num_gp, 6);
	ck_assert_uint_eq(pfm_pmu.pmc[5].desc->addr, 0xc001020a);
	ck_assert_uint_eq(pfm_pmu.pmd[5].desc->addr, 0xc001020b);
	ck_assert_uint_eq(pfm_x86_pmu.gctrl_msr, 0);
	pfm_pmu_reset();
	ck_assert_str_eq(sim_start_param(SIM_AMD_V2, "amd64_perfmon_v2"), "amd64_perfmon_v2");
}
END_TEST

/* Forcing what the CPU does not have falls back. */
START_TEST(test_param_amd_missing)
{
	ck_assert_str_eq(sim_start_param(SIM_AMD_CORE, "amd64_perfmon_v2"), "software");
	pfm_pmu_reset();
	ck_assert_str_eq(sim_start_param(SIM_AMD_LEGACY, "amd64_core"), "software");
	pfm_pmu_reset();
	ck_assert_str_eq(sim_start_param(SIM_AMD_LEGACY, "amd64_perfmon_v2"), "software");
}
END_TEST

/* Forcing the other vendor's driver: its registers fault or CPUID says no. */
START_TEST(test_param_wrong_vendor)
{
	ck_assert_str_eq(sim_start_param(SIM_AMD_V2, "intel_arch"), "software");
	ck_assert_uint_eq(sim.gp_safe, 0);	/* CPUID leaf 0xA said so first */
	pfm_pmu_reset();
	ck_assert_str_eq(sim_start_param(SIM_INTEL_V5, "amd64"), "software");
	ck_assert_uint_gt(sim.gp_safe, 0);
	ck_software_only();
}
END_TEST

/*
 * A vendor without a driver of its own (Centaur/Zhaoxin implement architectural
 * perfmon): nothing by default, the Intel driver when forced.
 */
START_TEST(test_param_force_on_other_vendor)
{
	struct sim_model m = sim_models[SIM_INTEL_V4];

	m.vendor = SIM_VIA;
	sim_reset_custom(&m);
	sim_probe();
	ck_software_only();
	pfm_pmu_reset();
	sim_reset_custom(&m);
	sim.model_param = "intel_arch";
	ck_assert_str_eq(sim_probe(), "intel_arch_v4");
}
END_TEST

/*
 * perf_events holds every counter: nothing to check the hardware with, and no
 * need (perf_events did); the unit is registered, no register available.
 */
START_TEST(test_probe_counters_all_taken)
{
	sim_reset(_i);
	sim_perf_take_all();
	ck_assert_str_eq(sim_probe(), sim_models[_i].driver_model);
	ck_assert_uint_eq(sim_total(&sim.n, true), 0);
}
END_TEST

START_TEST(test_remove)
{
	sim_start(_i);
	pfm_pmu_reset();
	pfm_x86_remove();
	ck_assert_ptr_null(sim.nmi);
	ck_assert_ptr_null(pfm_x86_active_unit);
	pfm_x86_remove();	/* twice is harmless */
}
END_TEST

Suite *sim_probe_suite(void)
{
	Suite *s = suite_create("sim_probe");
	TCase *tc = sim_tcase("probe");

	tcase_add_loop_test(tc, test_probe_model, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_probe_ignored_writes, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_probe_faulting_msrs, 0, SIM_NR_MODELS);
	tcase_add_test(tc, test_probe_no_arch_perfmon);
	tcase_add_test(tc, test_probe_bad_leaf_a);
	tcase_add_test(tc, test_probe_hybrid);
	tcase_add_test(tc, test_probe_unenumerated_fixed);
	tcase_add_test(tc, test_probe_fixed_count_in_vm);
	tcase_add_loop_test(tc, test_probe_hypervisor_vpmu, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_probe_counters_all_taken, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_remove, 0, SIM_NR_MODELS);
	suite_add_tcase(s, tc);

	tc = sim_tcase("pmu_model");
	tcase_add_loop_test(tc, test_param_software, 0, SIM_NR_MODELS);
	tcase_add_test(tc, test_param_unknown);
	tcase_add_test(tc, test_param_auto_and_empty);
	tcase_add_test(tc, test_param_amd_lesser);
	tcase_add_test(tc, test_param_amd_missing);
	tcase_add_test(tc, test_param_wrong_vendor);
	tcase_add_test(tc, test_param_force_on_other_vendor);
	suite_add_tcase(s, tc);
	return s;
}
