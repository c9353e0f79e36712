// SPDX-License-Identifier: GPL-2.0
/*
 * model: the simulator itself, without the driver.  The other suites prove the
 * driver causes no #GP and loses no PMI; that means something only if the model
 * faults where the hardware does and counts as the hardware does.
 */
#include "sim_test.h"

static bool wr(uint32_t msr, uint64_t v)
{
	return sim_wrmsr(msr, v);
}

static uint64_t rd(uint32_t msr)
{
	uint64_t v;

	ck_assert_msg(sim_rdmsr(msr, &v), "rdmsr %#x faulted", msr);
	return v;
}

START_TEST(test_intel_faults)
{
	sim_reset(SIM_INTEL_V5);
	ck_assert(!wr(0x186, 1ULL << 32));		/* reserved event-select bit */
	ck_assert(!wr(0x186, PFM_X86_SEL_ANY));		/* AnyThread deprecated on v5 */
	ck_assert(wr(0x186, PFM_X86_SEL_PC));		/* pin control is hardware's */
	ck_assert(!wr(0x186 + 8, 0));			/* 8 counters only */
	ck_assert(!wr(0x4c1, 1ULL << 48));		/* above the width */
	ck_assert(!wr(0x309 + 4, 0));			/* 4 fixed counters */
	ck_assert(!wr(0x38d, 1ULL << 16));		/* fixed counter 4's nibble */
	ck_assert(!wr(0x38f, 1ULL << 8));		/* no GP counter 8 */
	ck_assert(wr(0x38f, 0xfULL << 32 | 0xff));
	ck_assert(!wr(0x38e, 0));			/* status is read-only */
	ck_assert(!wr(0x345, 0));			/* capabilities too */
	ck_assert(wr(0x391, 1));			/* v4+: STATUS_SET */
	ck_assert_uint_eq(rd(0x38e), 1);
	ck_assert(wr(0x390, 1));
	ck_assert_uint_eq(rd(0x38e), 0);
	ck_assert(!wr(0x1234, 0));
	sim_reset(SIM_INTEL_V2);
	ck_assert(!wr(0x391, 1));			/* no STATUS_SET before v4 */
	ck_assert(!wr(0x4c1, 0));			/* no full-width alias */
	ck_assert(!wr(0x186, PFM_X86_SEL_ANY));		/* no AnyThread before v3 */
	sim_reset(SIM_INTEL_V1);
	ck_assert(!wr(0x38f, 0));			/* no global control in v1 */
	sim_reset(SIM_INTEL_V4);
	ck_assert(wr(0x186, PFM_X86_SEL_ANY));
}
END_TEST

/* IA32_PMCx takes bits 31:0 sign-extended; IA32_A_PMCx the whole width. */
START_TEST(test_intel_pmc_writes)
{
	sim_reset(SIM_INTEL_V5);
	ck_assert(wr(0xc1, 0x80000005));
	ck_assert_uint_eq(rd(0xc1), 0xffff80000005ULL);
	ck_assert_uint_eq(rd(0x4c1), 0xffff80000005ULL);
	ck_assert(wr(0xc1, 0x1234500000005ULL));	/* EDX ignored */
	ck_assert_uint_eq(rd(0xc1), 5);
	ck_assert(wr(0x4c1, 0x123456789abcULL));
	ck_assert_uint_eq(rd(0xc1), 0x123456789abcULL);
}
END_TEST

START_TEST(test_amd_faults_and_aliases)
{
	sim_reset(SIM_AMD_V2);
	ck_assert(!wr(0xc0010200, 1ULL << 42));		/* reserved */
	ck_assert(!wr(0xc0010200, 1ULL << 19));
	ck_assert(wr(0xc0010200, 1ULL << 40 | 0xfULL << 32));
	ck_assert(!wr(0xc0010201, 1ULL << 48));
	ck_assert(wr(0xc0010203, 77));			/* CTR1 */
	ck_assert_uint_eq(rd(0xc0010005), 77);		/* its legacy alias */
	ck_assert(!wr(0xc0010200 + 12, 0));		/* six counters */
	ck_assert(!wr(0xc0000301, 1ULL << 6));
	ck_assert(!wr(0xc0000300, 0));
	sim_reset(SIM_AMD_LEGACY);
	ck_assert(!wr(0xc0010200, 0));			/* no PerfCtrExtCore */
	ck_assert(!wr(0xc0000301, 0));
	ck_assert(!wr(0xc0010000, 1ULL << 32));		/* family 0Fh: 8-bit events */
}
END_TEST

/* Counting: EN, the global enable, USR/OS, the event; wraps set the status. */
START_TEST(test_counting)
{
	sim_reset(SIM_INTEL_V5);
	ck_assert_uint_eq(sim.gctrl, 0xff);		/* power-on: GP enabled */
	wr(0x186, SIM_EV_INST | SEL_USR);		/* no EN */
	sim_count(SIM_EV_INST, 5, SIM_USER);
	ck_assert_uint_eq(sim.ctr[0], 0);
	wr(0x186, SIM_EV_INST | SEL_USR | SEL_EN);
	sim_count(SIM_EV_INST, 5, SIM_USER);
	sim_count(SIM_EV_INST, 7, SIM_KERNEL);
	sim_count(SIM_EV_CYCLES, 9, SIM_USER);
	ck_assert_uint_eq(sim.ctr[0], 5);
	wr(0x38f, 0);
	sim_count(SIM_EV_INST, 5, SIM_USER);
	ck_assert_uint_eq(sim.ctr[0], 5);
	wr(0x38f, 1);
	wr(0x4c1, (1ULL << 48) - 2);
	sim_count(SIM_EV_INST, 5, SIM_USER);		/* wraps, no INT: no PMI */
	ck_assert_uint_eq(sim.ctr[0], 3);
	ck_assert_uint_eq(sim.gstatus, 1);
	ck_assert_uint_eq(sim.pmis, 0);
	/* with INT, a PMI; the LVT entry is masked until programmed */
	wr(0x186, SIM_EV_INST | SEL_USR | SEL_EN | SEL_INT);
	wr(0x4c1, (1ULL << 48) - 1);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_assert_uint_eq(sim.pmis, 1);
	ck_assert_uint_eq(sim.pmis_lost, 1);
	sim.pmis_lost = 0;
	/* delivered as an NMI, masking the entry (Intel) */
	sim.lvtpc = SIM_APIC_DM_NMI;
	wr(0x4c1, (1ULL << 48) - 1);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_assert_uint_eq(sim.nmis, 1);
	ck_assert_uint_eq(sim.lvtpc, SIM_APIC_DM_NMI | SIM_APIC_LVT_MASKED);
	sim.nmis_unclaimed = 0;
	/* fixed counters: enable nibble and global bit 32 + j */
	wr(0x38d, 0x2);
	wr(0x38f, 1ULL << 32);
	sim_count(SIM_EV_INST, 4, SIM_USER);
	ck_assert_uint_eq(sim.fixed_ctr[0], 4);
	ck_assert_uint_eq(sim.ctr[0], 0);
}
END_TEST

/* One call over many wraps stops at each, as the hardware interrupts at each. */
START_TEST(test_one_pmi_per_wrap)
{
	sim_reset(SIM_AMD_LEGACY);
	sim.lvtpc = SIM_APIC_DM_NMI;
	wr(0xc0010000, SIM_EV_INST | SEL_USR | SEL_EN | SEL_INT);
	sim_count(SIM_EV_INST, 3 * (1ULL << 48) + 1, SIM_USER);
	ck_assert_uint_eq(sim.pmis, 3);
	ck_assert_uint_eq(sim.nmis, 3);
	ck_assert_uint_eq(sim.ctr[0], 1);
	ck_assert_uint_eq(sim.lvtpc, SIM_APIC_DM_NMI);	/* AMD does not mask it */
	sim.nmis_unclaimed = 0;
}
END_TEST

START_TEST(test_cpuid)
{
	uint32_t r[4];

	sim_reset(SIM_INTEL_V5);
	sim_cpuid(0xa, 0, r);
	ck_assert_uint_eq(r[0], 5 | 8 << 8 | 48 << 16 | 8 << 24);
	ck_assert_uint_eq(r[3] & 0x1f, 4);
	ck_assert_uint_eq((r[3] >> 5) & 0xff, 48);
	ck_assert(r[3] & (1U << 15));
	sim_reset(SIM_AMD_V2);
	sim_cpuid(0x80000022, 0, r);
	ck_assert_uint_eq(r[0] & 1, 1);
	ck_assert_uint_eq(r[1] & 0xf, 6);
	sim_cpuid(1, 0, r);
	ck_assert_uint_eq((r[0] >> 8 & 0xf) + (r[0] >> 20 & 0xff), 0x19);
}
END_TEST

Suite *sim_model_suite(void)
{
	Suite *s = suite_create("sim_model");
	TCase *tc = sim_tcase("model");

	tcase_add_test(tc, test_intel_faults);
	tcase_add_test(tc, test_intel_pmc_writes);
	tcase_add_test(tc, test_amd_faults_and_aliases);
	tcase_add_test(tc, test_counting);
	tcase_add_test(tc, test_one_pmi_per_wrap);
	tcase_add_test(tc, test_cpuid);
	suite_add_tcase(s, tc);
	return s;
}
