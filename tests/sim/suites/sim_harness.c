// SPDX-License-Identifier: GPL-2.0
/*
 * Fixtures and shortcuts of the simulator suite (see sim_test.h).
 */
#include <string.h>

#include "sim_test.h"
#include "sim_dump.h"

TCase *sim_tcase(const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, sim_setup, sim_teardown);
	tcase_set_timeout(tc, 20);
	return tc;
}

void sim_setup(void)
{
	pfm_host_setup_bare();
	sim_reset(SIM_INTEL_V5);
}

void sim_teardown(void)
{
	pfm_host_teardown();
	ck_assert_msg(!sim.gp, "%lu #GP from the driver; the last: %s MSR %#x value %#llx: %s",
		      sim.gp, sim.gp_write ? "wrmsr" : "rdmsr", sim.gp_msr,
		      (unsigned long long)sim.gp_val, sim.gp_why);
	ck_assert_msg(!sim.pmis_lost, "%lu PMIs lost (LVT entry masked)", sim.pmis_lost);
	ck_assert_msg(!sim.nmis_unclaimed, "%lu NMIs unclaimed", sim.nmis_unclaimed);
	ck_assert_msg(!sim.other_touched, "%lu accesses to someone else's counters",
		      sim.other_touched);
	ck_assert_msg(sim.perfctr_owner == sim.perfctr_other &&
		      sim.evntsel_owner == sim.evntsel_other,
		      "reservations not given back: perfctr %#llx evntsel %#llx",
		      (unsigned long long)(sim.perfctr_owner & ~sim.perfctr_other),
		      (unsigned long long)(sim.evntsel_owner & ~sim.evntsel_other));
}

const char *sim_probe(void)
{
	ck_assert_int_eq(pfm_x86_probe(), 0);
	ck_assert_int_eq(pfm_pmu_add_unit(&pfm_sw_unit), 0);
	return pfm_pmu.model;
}

void sim_start_named(const char *name)
{
	const struct sim_dump *d;
	struct sim_model p, e;
	unsigned int n;

	for (n = 0; (d = sim_dump_nr(n)); n++)
		if (!strcmp(d->name, name))
			break;
	ck_assert_msg(d != NULL, "no processor %s in tests/sim/cpuid/", name);
	sim_dump_model(d, 0, &p);
	if (d->ncores > 1) {
		sim_dump_model(d, 1, &e);
		sim_reset_hybrid(&p, &e);
		shim_cpu_online |= 2;
	} else {
		sim_reset_custom(&p);
	}
	ck_assert_str_eq(sim_probe(), d->ncores > 1 ? d->core[0].expect.pmu : d->expect.pmu);
}

void sim_start_hybrid(const char *name)
{
	sim_start_named(name);
	ck_assert_uint_eq(pfm_x86_ntypes, 2);
}

const char *sim_start_param(unsigned int id, const char *param)
{
	const struct sim_model *e = sim_model_e_of(id);

	if (e) {
		sim_reset_hybrid(sim_model_of(id), e);
		shim_cpu_online |= 2;
	} else {
		sim_reset_custom(sim_model_of(id));
	}
	sim.model_param = param;
	return sim_probe();
}

void sim_start(unsigned int id)
{
	const char *model = sim_start_param(id, "auto");

	ck_assert_str_eq(model, sim_model_of(id)->driver_model);
	ck_assert_ptr_eq(pfm_x86_active_unit, pfm_pmu.units[0]);
	sim_mark();
}

const struct sim_model *sim_m(void)
{
	return sim.m;
}

bool sim_has_fixed(void)
{
	return sim_num_fixed() != 0;
}

bool sim_has_global(void)
{
	return pfm_x86_pmu.gctrl_msr != 0;
}

unsigned int sim_num_fixed(void)
{
	const struct sim_model *m = sim.m;

	if (m->vendor != SIM_INTEL || m->version < 2)
		return 0;
	return m->num_fixed;
}

unsigned int sim_view_width(void)
{
	return sim.m->width;
}

uint64_t sim_cycles_event(void)
{
	return sim.m->vendor == SIM_INTEL ? SIM_EV_CYCLES : SIM_EV_AMD_CYC;
}

static struct sim_counts sim_base;
static unsigned long sim_trace_base;

void sim_mark(void)
{
	sim_base = sim.n;
	sim_trace_base = sim.ntrace;
}

unsigned long sim_msr_writes(uint32_t msr)
{
	return sim_traced(msr, true, sim_trace_base);
}

unsigned long sim_msr_reads(uint32_t msr)
{
	return sim_traced(msr, false, sim_trace_base);
}

struct sim_counts sim_since(void)
{
	struct sim_counts d;

	sim_counts_since(&d, &sim_base);
	sim_trace_base = sim.ntrace;
	return d;
}

unsigned long sim_reads(const struct sim_counts *c)
{
	return sim_total(c, false);
}

unsigned long sim_writes(const struct sim_counts *c)
{
	return sim_total(c, true);
}

bool sim_avail_pmc(struct pfm_context *ctx, unsigned int n)
{
	struct pfarg_setinfo info;

	ck_getinfo(ctx, 0, &info);
	return info.set_avail_pmcs[n / 64] & (1ULL << (n % 64));
}

bool sim_avail_pmd(struct pfm_context *ctx, unsigned int n)
{
	struct pfarg_setinfo info;

	ck_getinfo(ctx, 0, &info);
	return info.set_avail_pmds[n / 64] & (1ULL << (n % 64));
}
