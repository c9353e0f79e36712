// SPDX-License-Identifier: GPL-2.0
/*
 * real: the probe and the drivers on real processors' CPUID (tests/sim/cpuid/,
 * one test per processor and core type).  Each file says what the probe must
 * find, from the vendor's manual and the dump: the model, the GP counters (how
 * many, their width, their MSRs), the fixed counters, the global registers; or
 * that there is none, and the reason the log gives.  Where a PMU is found, every
 * counter it offers counts what the simulated processor executes, exactly.
 * What the file says CPUID shows (hybrid, leaf 0x23) is checked against its leaves.
 */
#include <string.h>

#include "sim_test.h"
#include "sim_dump.h"

/* Test _i: processor and core type, in file order. */
static const struct sim_dump *entry(unsigned int i, unsigned int *core)
{
	const struct sim_dump *d;
	unsigned int n;

	for (n = 0; (d = sim_dump_nr(n)); n++) {
		if (i < d->ncores) {
			*core = i;
			return d;
		}
		i -= d->ncores;
	}
	ck_abort_msg("no processor %u", i);
	return NULL;
}

static unsigned int nr_entries(void)
{
	unsigned int n, total = 0;

	for (n = 0; n < sim_ndumps(); n++)
		total += sim_dump_nr(n)->ncores;
	return total;
}

/* What the file claims of CPUID, against the leaves. */
static void ck_claims(const struct sim_dump *d, const struct sim_model *m)
{
	const struct sim_leaf *l0 = sim_leaf_find(m, 0, 0);
	bool leaf23 = l0 && l0->r[0] >= 0x23 && sim_leaf_find(m, 0x23, 0);

	ck_assert_msg(d->hybrid == m->hybrid, "%s: 'has hybrid' says %d, CPUID.7:EDX[15] %d",
		      d->name, d->hybrid, m->hybrid);
	ck_assert_msg(d->leaf23 == leaf23, "%s: 'has leaf23' says %d, the leaves %d",
		      d->name, d->leaf23, leaf23);
	/* a value read from IA32_PERF_CAPABILITIES must be a documented one */
	ck_assert_msg(!(m->vendor == SIM_INTEL && m->pdcm && d->expect.pmu[0]) || d->has_caps,
		      "%s: PDCM set and no msr 0x345 line", d->name);
}

static void ck_refused(const struct sim_dump *d)
{
	char why[128];

	snprintf(why, sizeof(why), "no hardware PMU (%s)", d->expect.refused);
	ck_assert_msg(!strcmp(pfm_pmu.model, "software") && !pfm_x86_active_unit,
		      "%s: %s registered, expected none (%s)", d->name, pfm_pmu.model,
		      d->expect.refused);
	ck_assert_msg(strstr(shim_printk_last, why), "%s: the log says '%s', expected '%s'",
		      d->name, shim_printk_last, why);
}

static void ck_gp(const struct sim_dump *d)
{
	const struct sim_expect *e = &d->expect;
	unsigned int i;

	ck_assert_msg(pfm_x86_pmu.num_gp == e->gp, "%s: %u GP counters, expected %u", d->name,
		      pfm_x86_pmu.num_gp, e->gp);
	for (i = 0; i < PFM_X86_MAX_GP; i++) {
		ck_assert_msg(test_bit(GP_PMC(i), pfm_pmu.impl_pmcs) == (i < e->gp) &&
			      test_bit(GP_PMD(i), pfm_pmu.impl_pmds) == (i < e->gp),
			      "%s: GP counter %u", d->name, i);
		if (i >= e->gp)
			continue;
		ck_assert_msg(pfm_pmu.pmc[GP_PMC(i)].desc->addr == e->sel0 + i * e->stride &&
			      pfm_pmu.pmd[GP_PMD(i)].desc->addr == e->ctr0 + i * e->stride,
			      "%s: GP counter %u at %#llx/%#llx, expected %#x/%#x", d->name, i,
			      (unsigned long long)pfm_pmu.pmc[GP_PMC(i)].desc->addr,
			      (unsigned long long)pfm_pmu.pmd[GP_PMD(i)].desc->addr,
			      e->sel0 + i * e->stride, e->ctr0 + i * e->stride);
		ck_assert_msg(pfm_pmu.pmd[GP_PMD(i)].desc->width == e->gp_width,
			      "%s: GP counter %u of %u bits, expected %u", d->name, i,
			      pfm_pmu.pmd[GP_PMD(i)].desc->width, e->gp_width);
	}
}

static void ck_fixed_global(const struct sim_dump *d)
{
	const struct sim_expect *e = &d->expect;
	unsigned int j;

	ck_assert_msg(pfm_x86_pmu.fixed == e->fixed, "%s: fixed counters %#lx, expected %#x",
		      d->name, pfm_x86_pmu.fixed, e->fixed);
	ck_assert(test_bit(FX_PMC, pfm_pmu.impl_pmcs) == !!e->fixed);
	if (e->fixed)
		ck_assert_uint_eq(pfm_pmu.pmc[FX_PMC].desc->addr, 0x38d);
	for (j = 0; j < PFM_X86_MAX_FIXED; j++) {
		bool on = e->fixed & (1U << j);

		ck_assert(test_bit(FX_PMD(j), pfm_pmu.impl_pmds) == on);
		if (!on)
			continue;
		ck_assert_uint_eq(pfm_pmu.pmd[FX_PMD(j)].desc->addr, 0x309 + j);
		ck_assert_msg(pfm_pmu.pmd[FX_PMD(j)].desc->width == e->fixed_width,
			      "%s: fixed counter %u of %u bits, expected %u", d->name, j,
			      pfm_pmu.pmd[FX_PMD(j)].desc->width, e->fixed_width);
	}
	ck_assert_msg(pfm_x86_pmu.gctrl_msr == e->gctrl && pfm_x86_pmu.gstatus_msr == e->gstatus &&
		      pfm_x86_pmu.gack_msr == e->gack,
		      "%s: global registers %#x %#x %#x, expected %#x %#x %#x", d->name,
		      pfm_x86_pmu.gctrl_msr, pfm_x86_pmu.gstatus_msr, pfm_x86_pmu.gack_msr,
		      e->gctrl, e->gstatus, e->gack);
}

/* gp counters and the fixed ones count: GP i a private event, fixed j its own. */
static void ck_counts(const struct sim_dump *d, unsigned int gp, uint32_t fixed, u32 flags)
{
	static const u64 fixed_ev[] = { SIM_EV_INST, SIM_EV_CYCLES, SIM_EV_REF, 0x01a4 };
	struct pfm_context *ctx = ck_ctx_new(flags);
	unsigned int i, j;
	u64 fx = 0;

	for (i = 0; i < gp; i++)
		ck_write_pmc(ctx, GP_PMC(i), SEL_U(0x10ULL + i), 0);
	for (j = 0; j < ARRAY_SIZE(fixed_ev); j++)
		if (fixed & (1U << j))
			fx |= PFM_X86_FIXED_USR(j);
	if (fx)
		ck_write_pmc(ctx, FX_PMC, fx, 0);
	ck_load_self(ctx);
	ck_start(ctx);
	for (i = 0; i < gp; i++)
		sim_count(0x10ULL + i, 1000 + i, SIM_USER);
	for (j = 0; j < ARRAY_SIZE(fixed_ev); j++)
		sim_count(fixed_ev[j], 100 + j, SIM_USER);
	ck_stop(ctx);
	for (i = 0; i < gp; i++)
		ck_assert_msg(ck_read_pmd(ctx, GP_PMD(i)) == 1000 + i, "%s: GP counter %u",
			      d->name, i);
	for (j = 0; j < ARRAY_SIZE(fixed_ev); j++)
		if (fixed & (1U << j))
			ck_assert_msg(ck_read_pmd(ctx, FX_PMD(j)) == 100 + j,
				      "%s: fixed counter %u", d->name, j);
	ck_unload(ctx);
	pfm_context_put(ctx);
}

static void ck_found(const struct sim_dump *d, const char *model)
{
	const struct sim_expect *e = &d->expect;
	char line[128];

	ck_assert_msg(!strcmp(model, e->pmu), "%s: %s registered, expected %s (log: %s)",
		      d->name, model, e->pmu, shim_printk_last);
	snprintf(line, sizeof(line), "perfmon: hardware PMU %s: %u counters of %u bits, %u fixed",
		 e->pmu, e->gp, e->gp_width, __builtin_popcount(e->fixed));
	ck_assert_msg(!strncmp(shim_printk_last, line, strlen(line)),
		      "%s: the log says '%s', expected '%s'", d->name, shim_printk_last, line);
	ck_gp(d);
	ck_fixed_global(d);
	ck_counts(d, e->gp, e->fixed, 0);
}

/*
 * A hybrid processor: a machine of two CPUs, one of each core type, probed as a
 * whole; core type c's PMU is what its expect lines say, the unit holds both
 * types' registers, and a context of type c counts every counter of c on a CPU
 * of type c, exactly.
 */
static void ck_hybrid(const struct sim_dump *d, unsigned int c)
{
	const struct sim_expect *e = &d->core[c].expect, *o = &d->core[!c].expect;
	const struct pfm_pmu_type *t;
	const struct pfm_x86_pmu *p;
	struct sim_model m0, m1;
	unsigned int k, i;
	char line[128];

	sim_dump_model(d, 0, &m0);
	sim_dump_model(d, 1, &m1);
	sim_reset_hybrid(&m0, &m1);
	ck_assert_msg(!strcmp(sim_probe(), e->pmu), "%s: %s registered, expected %s (log: %s)",
		      d->name, pfm_pmu.model, e->pmu, shim_printk_last);
	ck_assert_uint_eq(pfm_x86_ntypes, 2);
	ck_assert_ptr_eq(pfm_pmu.typed, pfm_x86_active_unit);
	k = d->core[c].type == 0x40 ? 0 : 1;		/* P cores first */
	t = &pfm_pmu.typed->types[k];
	p = &pfm_x86_types[k].pmu;
	ck_assert_uint_eq(t->id, d->core[c].type);
	ck_assert_str_eq(t->name, d->core[c].type == 0x40 ? "cpu_core" : "cpu_atom");
	snprintf(line, sizeof(line), "%s: %u counters of %u bits, %u fixed", t->name, e->gp,
		 e->gp_width, __builtin_popcount(e->fixed));
	ck_assert_msg(strstr(shim_printk_all, line), "%s: no '%s' in the log", d->name, line);
	ck_assert_msg(p->num_gp == e->gp && p->gp == (1UL << e->gp) - 1,
		      "%s %s: GP %#lx, expected %u", d->name, t->name, p->gp, e->gp);
	for (i = 0; i < PFM_X86_MAX_GP; i++) {
		ck_assert(!!(t->pmcs[i].type & PFM_REG_I) == (i < e->gp));
		if (i >= e->gp)
			continue;
		ck_assert_uint_eq(t->pmcs[i].addr, e->sel0 + i * e->stride);
		ck_assert_uint_eq(t->pmds[i].addr, e->ctr0 + i * e->stride);
		ck_assert_uint_eq(t->pmds[i].width, e->gp_width);
	}
	ck_assert_msg(p->fixed == e->fixed, "%s %s: fixed %#lx, expected %#x", d->name, t->name,
		      p->fixed, e->fixed);
	for (i = 0; i < PFM_X86_MAX_FIXED; i++) {
		const struct pfm_regdesc *f = &t->pmds[PFM_X86_FIRST_FIXED_PMD + i];

		ck_assert(!!(f->type & PFM_REG_I) == !!(e->fixed & (1U << i)));
		if (e->fixed & (1U << i))
			ck_assert_uint_eq(f->width, e->fixed_width);
	}
	ck_assert(p->gctrl_msr == e->gctrl && p->gstatus_msr == e->gstatus &&
		  p->gack_msr == e->gack);
	/* the unit: both types' registers */
	ck_assert_uint_eq(pfm_x86_pmu.gp, ((1UL << e->gp) - 1) | ((1UL << o->gp) - 1));
	ck_assert_uint_eq(pfm_x86_pmu.fixed, e->fixed | o->fixed);
	sim_set_cpu(c);
	ck_counts(d, e->gp, e->fixed, PFM_FL_PMU_TYPE(d->core[c].type));
}

START_TEST(test_real_probe)
{
	unsigned int core;
	const struct sim_dump *d = entry(_i, &core);
	struct sim_model m;
	const char *model;

	if (d->core[core].expect.given) {
		ck_hybrid(d, core);
		return;
	}
	sim_dump_model(d, core, &m);
	ck_claims(d, &m);
	sim_reset_custom(&m);
	model = sim_probe();
	if (d->expect.refused[0])
		ck_refused(d);
	else
		ck_found(d, model);
}
END_TEST

/*
 * A vendor without a driver of its own that implements architectural perfmon
 * (Zhaoxin): pmu_model=intel_arch serves it with the version its leaf 0xA says.
 */
START_TEST(test_real_forced_intel_arch)
{
	const struct sim_dump *d;
	unsigned int n, found = 0;
	struct sim_model m;
	char model[32];

	for (n = 0; (d = sim_dump_nr(n)); n++) {
		if (strcmp(d->expect.refused, "no driver for this CPU"))
			continue;
		sim_dump_model(d, 0, &m);
		if (!m.version)
			continue;
		pfm_pmu_reset();
		sim_reset_custom(&m);
		sim.model_param = "intel_arch";
		snprintf(model, sizeof(model), "intel_arch_v%u", m.version);
		ck_assert_msg(!strcmp(sim_probe(), model), "%s: %s", d->name, pfm_pmu.model);
		ck_counts(d, m.num_gp, (1U << m.num_fixed) - 1, 0);
		found++;
	}
	ck_assert_uint_gt(found, 0);
}
END_TEST

/* The data: read whole, 30 processors at least, both vendors, names unique. */
START_TEST(test_real_dumps)
{
	unsigned int n, k, vendors = 0;
	struct sim_model m;

	ck_assert_msg(!sim_dumps_error(), "tests/sim/cpuid/: %s", sim_dumps_error());
	ck_assert_uint_ge(sim_ndumps(), 30);
	for (n = 0; n < sim_ndumps(); n++) {
		const struct sim_dump *d = sim_dump_nr(n);

		sim_dump_model(d, 0, &m);
		vendors |= 1U << m.vendor;
		for (k = 0; k < n; k++)
			ck_assert_msg(strcmp(d->name, sim_dump_nr(k)->name), "%s twice", d->name);
	}
	ck_assert_uint_eq(vendors & (1U << SIM_INTEL | 1U << SIM_AMD),
			  1U << SIM_INTEL | 1U << SIM_AMD);
	ck_assert_uint_gt(sim_nr_core_models(), SIM_NR_MODELS);
}
END_TEST

Suite *sim_real_suite(void)
{
	Suite *s = suite_create("sim_real");
	TCase *tc = sim_tcase("real");

	tcase_add_test(tc, test_real_dumps);
	tcase_add_loop_test(tc, test_real_probe, 0, nr_entries());
	tcase_add_test(tc, test_real_forced_intel_arch);
	suite_add_tcase(s, tc);
	return s;
}
