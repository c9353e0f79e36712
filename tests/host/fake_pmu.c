// SPDX-License-Identifier: GPL-2.0
/*
 * A fake 48-bit hardware PMU unit (see harness.h), with one register file that the
 * tests advance and inspect, and counters of every access the core makes.
 */
#include "harness.h"

struct fake_pmu fake_pmu;

#define FAKE_PMC(n, t, dfl) {						\
	.name = "FAKE_PMC" #n, .addr = 0x186 + (n), .dfl_val = (dfl),	\
	.rsvd_msk = FAKE_PMC_RSVD, .priv_msk = FAKE_OS_BIT, .type = (t),	\
}
#define FAKE_PMD(n) {							\
	.name = "FAKE_PMD" #n, .addr = 0xc1 + (n),			\
	.type = PFM_REG_I | PFM_REG_C64 | PFM_REG_INTR,			\
	.width = FAKE_WIDTH, .dep_pmc = (n),				\
}

const struct pfm_regdesc fake_pmcs[FAKE_NUM] = {
	FAKE_PMC(0, PFM_REG_I | PFM_REG_NO64, 0),
	FAKE_PMC(1, PFM_REG_I | PFM_REG_NO64, 0),
	FAKE_PMC(2, PFM_REG_I | PFM_REG_NO64, 0),
	FAKE_PMC(3, PFM_REG_I, FAKE_PMC3_DFL),
};

const struct pfm_regdesc fake_pmds[FAKE_NUM] = {
	FAKE_PMD(0), FAKE_PMD(1), FAKE_PMD(2), FAKE_PMD(3),
};

static void fake_write_pmc(bool system_wide __always_unused, unsigned int i, u64 value)
{
	ck_assert_uint_lt(i, FAKE_NUM);
	/* The core checked the value: a reserved bit here is a bug. */
	ck_assert_msg(!(value & FAKE_PMC_RSVD), "reserved bits written to PMC%u", i);
	fake_pmu.nr_write_pmc++;
	fake_pmu.pmc[i] = value;
}

static void fake_write_pmd(bool system_wide __always_unused, unsigned int i, u64 value)
{
	ck_assert_uint_lt(i, FAKE_NUM);
	/* Bits above the width would fault on real hardware: the core must not write them. */
	ck_assert_msg(!(value & ~FAKE_MASK), "PMD%u written with bits above 48: %#llx", i,
		      (unsigned long long)value);
	fake_pmu.nr_write_pmd++;
	fake_pmu.pmd[i] = value;
}

static u64 fake_read_pmd(bool system_wide __always_unused, unsigned int i)
{
	ck_assert_uint_lt(i, FAKE_NUM);
	fake_pmu.nr_read_pmd++;
	return fake_pmu.pmd[i];
}

static void fake_enable(bool system_wide)
{
	fake_pmu.nr_enable++;
	fake_pmu.enabled = true;
	fake_pmu.system_wide = system_wide;
}

static void fake_disable(bool system_wide __always_unused)
{
	fake_pmu.nr_disable++;
	fake_pmu.enabled = false;
}

static int fake_get(bool system_wide __always_unused)
{
	if (fake_pmu.get_ret)
		return fake_pmu.get_ret;
	fake_pmu.users++;
	return 0;
}

static void fake_put(bool system_wide __always_unused)
{
	WARN_ON(fake_pmu.users <= 0);
	fake_pmu.users--;
}

const struct pfm_pmu_unit fake_unit = {
	.name = "fake48",
	.first_pmc = 0,
	.first_pmd = 0,
	.num_pmcs = FAKE_NUM,
	.num_pmds = FAKE_NUM,
	.pmcs = fake_pmcs,
	.pmds = fake_pmds,
	.write_pmc = fake_write_pmc,
	.write_pmd = fake_write_pmd,
	.read_pmd = fake_read_pmd,
	.enable = fake_enable,
	.disable = fake_disable,
	.get = fake_get,
	.put = fake_put,
};

void fake_pmu_advance(unsigned int i, u64 delta)
{
	ck_assert_uint_lt(i, FAKE_NUM);
	if (fake_pmu.enabled && (fake_pmu.pmc[i] & FAKE_PMC_EN))
		fake_pmu.pmd[i] = (fake_pmu.pmd[i] + delta) & FAKE_MASK;
}

unsigned int fake_pmu_accesses(void)
{
	return fake_pmu.nr_write_pmc + fake_pmu.nr_write_pmd + fake_pmu.nr_read_pmd +
	       fake_pmu.nr_enable + fake_pmu.nr_disable;
}
