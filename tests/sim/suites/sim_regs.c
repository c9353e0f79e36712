// SPDX-License-Identifier: GPL-2.0
/*
 * regs: what a user may write.  Every bit of every register is tried: the ones the
 * architecture reserves (and the ones the kernel keeps for itself) are refused
 * with EINVAL, kernel-level counting needs privilege, the enable and interrupt
 * bits follow the documented rule (<perfmon/perfmon_x86.h>), and whatever is
 * accepted runs on the simulated hardware without a #GP.
 */
#include "sim_test.h"

/* Which event-select bits the SDM/APM let a user set, computed apart from the driver. */
static bool sim_anythread(void)
{
	const struct sim_model *m = sim_m();

	return m->vendor == SIM_INTEL && m->version >= 3 &&
	       !(m->version >= 5 && m->anythread_deprecated);
}

static u64 legal_sel(void)
{
	const struct sim_model *m = sim_m();
	u64 ok = 0xffffffffULL & ~PFM_X86_SEL_PC;

	if (m->vendor == SIM_INTEL)
		return sim_anythread() ? ok : ok & ~PFM_X86_SEL_ANY;
	ok &= ~PFM_X86_SEL_ANY;
	if (m->family >= 0x10)
		ok |= PFM_X86_SEL_AMD_EVENT_HI;
	return ok;
}

static u64 legal_fixed(void)
{
	u64 ok = 0;
	unsigned int j;

	for (j = 0; j < sim_num_fixed(); j++)
		ok |= PFM_X86_FIXED_OS(j) | PFM_X86_FIXED_USR(j) | PFM_X86_FIXED_PMI(j) |
		      (sim_anythread() ? PFM_X86_FIXED_ANY(j) : 0);
	return ok;
}

static u64 priv_fixed(void)
{
	u64 p = 0;
	unsigned int j;

	for (j = 0; j < sim_num_fixed(); j++)
		p |= PFM_X86_FIXED_OS(j) | (sim_anythread() ? PFM_X86_FIXED_ANY(j) : 0);
	return p;
}

/* The hardware PMCs of the model, in logical numbers. */
static unsigned int hw_pmcs(unsigned int *pmcs)
{
	unsigned int n = 0, i;

	for (i = 0; i < sim_m()->num_gp; i++)
		pmcs[n++] = GP_PMC(i);
	if (sim_has_fixed())
		pmcs[n++] = FX_PMC;
	return n;
}

static u64 legal(unsigned int pmc)
{
	return pmc == FX_PMC ? legal_fixed() : legal_sel();
}

START_TEST(test_every_bit)
{
	struct pfm_context *ctx;
	unsigned int pmcs[PFM_X86_NUM_PMCS], n, k, b;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	n = hw_pmcs(pmcs);
	for (k = 0; k < n; k++) {
		const struct pfm_regdesc *d = pfm_pmu.pmc[pmcs[k]].desc;

		ck_assert_msg(d->rsvd_msk == ~legal(pmcs[k]), "PMC%u rsvd_msk %#llx, want %#llx",
			      pmcs[k], (unsigned long long)d->rsvd_msk,
			      (unsigned long long)~legal(pmcs[k]));
		for (b = 0; b < 64; b++) {
			u64 v = 1ULL << b;
			long ret = pfm_host_write_pmc(ctx, 0, pmcs[k], v, 0);

			ck_assert_msg(ret == ((legal(pmcs[k]) & v) ? 0 : -EINVAL),
				      "PMC%u bit %u: %ld", pmcs[k], b, ret);
		}
	}
	/* the refused ones changed nothing, and nothing reached the hardware */
	ck_msr("writes while unloaded", 0, 0);
	pfm_context_put(ctx);
}
END_TEST

/* Everything accepted at once runs, with EN and INT as the kernel wants them. */
START_TEST(test_all_legal_bits_run)
{
	struct pfm_context *ctx;
	unsigned int i;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	for (i = 0; i < sim_m()->num_gp; i++)
		ck_write_pmc(ctx, GP_PMC(i), legal_sel(), 0);
	if (sim_has_fixed())
		ck_write_pmc(ctx, FX_PMC, legal_fixed(), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	for (i = 0; i < sim_m()->num_gp; i++)
		ck_assert_uint_eq(sim.sel[i], legal_sel() | SEL_EN | SEL_INT);
	if (sim_has_fixed())
		ck_assert_uint_eq(sim.fixed_ctrl, legal_fixed());
	ck_stop(ctx);
	ck_unload(ctx);
	pfm_context_put(ctx);
	ck_assert_uint_eq(sim.sel[0], 0);		/* given back clean */
	ck_assert_uint_eq(sim.fixed_ctrl, 0);
}
END_TEST

/* Kernel-level counting (and AnyThread) need privilege: paranoid >= 2, unprivileged. */
START_TEST(test_privileged_bits)
{
	struct pfm_context *ctx;
	unsigned int i;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	pfm_host_env.unprivileged = true;
	for (i = 0; i < sim_m()->num_gp; i++) {
		const struct pfm_regdesc *d = pfm_pmu.pmc[GP_PMC(i)].desc;

		ck_assert_uint_eq(d->priv_msk, SEL_OS | (sim_anythread() ? PFM_X86_SEL_ANY : 0));
		/* access.c at paranoid 2 without CAP_PERFMON: EPERM iff value & priv_msk */
		ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(i), SEL_UK(SIM_EV_INST), 0),
				 -EPERM);
		ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(i), SEL_K(SIM_EV_INST), 0),
				 -EPERM);
		ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(i), SEL_U(SIM_EV_INST), 0), 0);
		if (sim_anythread())
			ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(i),
							    SEL_U(SIM_EV_INST) | PFM_X86_SEL_ANY,
							    0), -EPERM);
	}
	if (sim_has_fixed()) {
		const struct pfm_regdesc *d = pfm_pmu.pmc[FX_PMC].desc;

		ck_assert_uint_eq(d->priv_msk, priv_fixed());
		for (i = 0; i < sim_num_fixed(); i++) {
			ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, FX_PMC, PFM_X86_FIXED_OS(i), 0),
					 -EPERM);
			ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, FX_PMC, PFM_X86_FIXED_USR(i) |
							    PFM_X86_FIXED_PMI(i), 0), 0);
		}
	}
	pfm_host_env.unprivileged = false;
	pfm_context_put(ctx);
}
END_TEST

/*
 * EN is the counter's switch: without it the counter does not count (INT or not);
 * with it, it counts while started, INT or not, and the kernel runs it with INT.
 */
START_TEST(test_en_int_rule)
{
	struct pfm_context *ctx;
	u64 ev = SIM_EV_INST;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, GP_PMC(0), ev | SEL_USR | SEL_INT, 0);	/* no EN */
	ck_write_pmc(ctx, GP_PMC(1), ev | SEL_USR | SEL_EN, 0);	/* no INT */
	ck_write_pmd(ctx, GP_PMD(0), 0);
	ck_write_pmd(ctx, GP_PMD(1), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(ev, 1000, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 0);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(1)), 1000);
	ck_assert(!(sim.sel[0] & SEL_EN));
	ck_assert_uint_eq(sim.sel[1], ev | SEL_USR | SEL_EN | SEL_INT);
	/* EN and INT are the kernel's: stopped, nothing counts */
	ck_stop(ctx);
	sim_count(ev, 1000, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(1)), 1000);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* A fixed counter is on with OS or USR; PMI is the kernel's too. */
START_TEST(test_fixed_on_rule)
{
	struct pfm_context *ctx;

	sim_start(_i);
	if (!sim_has_fixed())
		goto out;
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, FX_PMC, PFM_X86_FIXED_USR(0) | PFM_X86_FIXED_PMI(1), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	ck_assert_uint_eq(sim.fixed_ctrl, PFM_X86_FIXED_USR(0) | PFM_X86_FIXED_PMI(0));
	sim_count(SIM_EV_INST, 10, SIM_USER);
	sim_count(SIM_EV_CYCLES, 20, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(0)), 10);
	ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(1)), 0);
	ck_unload(ctx);
	pfm_context_put(ctx);
out:;
}
END_TEST

/* Not a register of this PMU: EINVAL, for PMCs and PMDs. */
START_TEST(test_unknown_registers)
{
	struct pfm_context *ctx;
	struct pfarg_pmd pd;
	unsigned int n;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	for (n = 0; n < PFM_SW_FIRST_PMC; n++) {
		bool impl = n < sim_m()->num_gp || (n == FX_PMC && sim_has_fixed());

		if (impl)
			continue;
		ck_assert_msg(pfm_host_write_pmc(ctx, 0, n, SEL_U(SIM_EV_INST), 0) == -EINVAL,
			      "PMC%u", n);
	}
	for (n = 0; n < PFM_SW_FIRST_PMD; n++) {
		bool impl = n < sim_m()->num_gp ||
			    (n >= FX_PMD(0) && n < FX_PMD(sim_num_fixed()));

		if (impl)
			continue;
		memset(&pd, 0, sizeof(pd));
		pd.reg_num = n;
		ck_assert_msg(pfm_write_pmds(ctx, &pd, 1) == -EINVAL, "PMD%u", n);
		ck_assert_msg(pfm_read_pmds(ctx, &pd, 1) == -EINVAL, "PMD%u", n);
	}
	ck_msr("unknown registers", 0, 0);
	pfm_context_put(ctx);
}
END_TEST

/* An architectural event CPUID.0AH:EBX says is missing is refused. */
START_TEST(test_missing_arch_event)
{
	struct pfm_context *ctx;

	sim_start(SIM_INTEL_V2);		/* no Branch Misses Retired */
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(0x00c5), 0), -EINVAL);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(0x00c4), 0), 0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(0x01a4), 0), -EINVAL);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(0x01c5), 0), 0); /* not arch */
	/* v6's events past EBX's 7 bits: the model's own (UOPS_RETIRED.RETIRE_SLOTS ...) */
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(0x02c2), 0), 0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(0x019c), 0), 0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(0x0073), 0), 0);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_v5_all_arch_events)
{
	struct pfm_context *ctx;

	sim_start(SIM_INTEL_V5);
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(0x00c5), 0), 0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), SEL_U(0x01a4), 0), 0);
	pfm_context_put(ctx);
}
END_TEST

/* A bad element anywhere in a vector: nothing of it applied, not even live. */
START_TEST(test_vector_all_or_nothing)
{
	struct pfm_context *ctx;
	struct pfarg_pmc pc[2] = {
		{ .reg_num = GP_PMC(0), .reg_value = SEL_U(SIM_EV_CYCLES) },
		{ .reg_num = GP_PMC(1), .reg_value = SEL_U(SIM_EV_INST) | PFM_X86_SEL_PC },
	};

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_mark();
	ck_assert_int_eq(pfm_write_pmcs(ctx, pc, 2), -EINVAL);
	ck_msr("a refused vector", 0, 0);
	sim_count(SIM_EV_INST, 7, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 7);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* Any 64-bit value may be written to a counter, live or not; none faults. */
START_TEST(test_pmd_any_value)
{
	static const u64 vals[] = {
		0, 1, (1ULL << 31) - 1, 1ULL << 31, 1ULL << 32, (1ULL << 47) - 1, 1ULL << 47,
		(1ULL << 48) - 1, 1ULL << 48, 1ULL << 63, ~0ULL, 0x123456789abcdefULL,
	};
	struct pfm_context *ctx;
	unsigned int k, j;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	if (sim_has_fixed())
		ck_write_pmc(ctx, FX_PMC, PFM_X86_FIXED_USR(0), 0);
	ck_load_self(ctx);
	for (k = 0; k < ARRAY_SIZE(vals); k++) {
		ck_write_pmd(ctx, GP_PMD(0), vals[k]);		/* stopped */
		ck_start(ctx);
		ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), vals[k]);
		ck_write_pmd(ctx, GP_PMD(0), vals[k] ^ 0x5a5a);	/* live */
		sim_count(SIM_EV_INST, 3, SIM_USER);
		ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), (vals[k] ^ 0x5a5a) + 3);
		for (j = 0; j < sim_num_fixed(); j++) {
			ck_write_pmd(ctx, FX_PMD(j), vals[k]);
			ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(j)), vals[k]);
		}
		ck_stop(ctx);
	}
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_amd_event_select_hi)
{
	struct pfm_context *ctx;
	u64 v = SEL_U(SIM_EV_INST) | (1ULL << 32);

	sim_start(SIM_AMD_V2);
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), v, 0), 0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), v | (1ULL << 40), 0), -EINVAL);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST | (1ULL << 32), 5, SIM_USER);
	sim_count(SIM_EV_INST, 5, SIM_USER);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 5);
	ck_unload(ctx);
	pfm_context_put(ctx);
	pfm_pmu_reset();
	sim_start(SIM_AMD_LEGACY);			/* family 0Fh: 8-bit events */
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, GP_PMC(0), v, 0), -EINVAL);
	pfm_context_put(ctx);
}
END_TEST

/* NO_EMUL64 is accepted on every hardware PMC. */
START_TEST(test_no_emul64_accepted)
{
	struct pfm_context *ctx;
	unsigned int pmcs[PFM_X86_NUM_PMCS], n, k;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	n = hw_pmcs(pmcs);
	for (k = 0; k < n; k++)
		ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, pmcs[k], 0, PFM_PMCFL_NO_EMUL64), 0);
	pfm_context_put(ctx);
}
END_TEST

Suite *sim_regs_suite(void)
{
	Suite *s = suite_create("sim_regs");
	TCase *tc = sim_tcase("regs");

	tcase_add_loop_test(tc, test_every_bit, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_all_legal_bits_run, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_privileged_bits, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_en_int_rule, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_fixed_on_rule, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_unknown_registers, 0, SIM_NR_MODELS);
	tcase_add_test(tc, test_missing_arch_event);
	tcase_add_test(tc, test_v5_all_arch_events);
	tcase_add_loop_test(tc, test_vector_all_or_nothing, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_pmd_any_value, 0, SIM_NR_MODELS);
	tcase_add_test(tc, test_amd_event_select_hi);
	tcase_add_loop_test(tc, test_no_emul64_accepted, 0, SIM_NR_MODELS);
	suite_add_tcase(s, tc);
	return s;
}
