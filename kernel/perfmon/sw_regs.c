// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the software PMU's registers (sw_pmu.c): their descriptions,
 * SW_PMC0..SW_PMC1023 and SW_PMD0..SW_PMD1023, each PMD controlled by its own PMC,
 * and what a PMC value is allowed, needs and shows.
 */
#include "internal.h"
#include "env.h"
#include "sw_bank.h"

/*
 * Only a user-level system call counter needs the system call tracepoint, and
 * only a page fault counter the page fault ones.
 */
u32 pfm_sw_pmc_needs(unsigned int idx __always_unused, u64 value)
{
	switch (pfm_sw_event(value)) {
	case PFM_SW_EV_SYSCALLS:
		return value & PFM_SW_PMC_USR ? PFM_SW_NEED_SYSCALLS : 0;
	case PFM_SW_EV_PAGE_FAULTS:
		return PFM_SW_NEED_FAULTS;
	default:
		return 0;
	}
}

/* Counts of events are exact in the counts page; the task clock ticks between them. */
bool pfm_sw_pmd_in_page(unsigned int idx __always_unused, u64 pmc_value)
{
	return pfm_sw_event(pmc_value) != PFM_SW_EV_TASK_CLOCK;
}

/* A key belongs to a keyed event only; whether the key names anything is its source's. */
int pfm_sw_pmc_check(unsigned int idx __always_unused, u64 value)
{
	unsigned int ev = value & PFM_SW_PMC_EVENT_MASK;

	if (ev > PFM_SW_EV_MAX)
		return -EINVAL;
	if (!pfm_sw_keyed(ev) && PFM_SW_PMC_KEY(value))
		return -EINVAL;
	return 0;
}

#define PFM_SW_PMC_DESC(n) {						\
	.name = "SW_PMC" #n, .type = PFM_REG_I | PFM_REG_NO64,		\
	.rsvd_msk = ~(PFM_SW_PMC_EVENT_MASK | PFM_SW_LEVELS | PFM_SW_PMC_EN | \
		      PFM_SW_PMC_KEY_MASK),				\
	.priv_msk = PFM_SW_PMC_OS,					\
}
#define PFM_SW_PMD_DESC(n) {						\
	.name = "SW_PMD" #n, .type = PFM_REG_I | PFM_REG_C64,		\
	.width = 64, .dep_pmc = n,					\
}

/*
 * D(n) for n = 0..1023, as literal numbers, which the register names are made of
 * (SW_PMC0 .. SW_PMC1023).  The tens are pasted onto the units: 1##0 is 10,
 * 10##0 is 100 and 100##0 is 1000.
 */
#define PFM_SW_TEN(D, t)						\
	D(t##0), D(t##1), D(t##2), D(t##3), D(t##4),			\
	D(t##5), D(t##6), D(t##7), D(t##8), D(t##9)
#define PFM_SW_HUNDRED(D, h)						\
	PFM_SW_TEN(D, h##0), PFM_SW_TEN(D, h##1), PFM_SW_TEN(D, h##2),	\
	PFM_SW_TEN(D, h##3), PFM_SW_TEN(D, h##4), PFM_SW_TEN(D, h##5),	\
	PFM_SW_TEN(D, h##6), PFM_SW_TEN(D, h##7), PFM_SW_TEN(D, h##8),	\
	PFM_SW_TEN(D, h##9)
#define PFM_SW_ALL(D)							\
	D(0), D(1), D(2), D(3), D(4), D(5), D(6), D(7), D(8), D(9),	\
	PFM_SW_TEN(D, 1), PFM_SW_TEN(D, 2), PFM_SW_TEN(D, 3),		\
	PFM_SW_TEN(D, 4), PFM_SW_TEN(D, 5), PFM_SW_TEN(D, 6),		\
	PFM_SW_TEN(D, 7), PFM_SW_TEN(D, 8), PFM_SW_TEN(D, 9),		\
	PFM_SW_HUNDRED(D, 1), PFM_SW_HUNDRED(D, 2), PFM_SW_HUNDRED(D, 3), \
	PFM_SW_HUNDRED(D, 4), PFM_SW_HUNDRED(D, 5), PFM_SW_HUNDRED(D, 6), \
	PFM_SW_HUNDRED(D, 7), PFM_SW_HUNDRED(D, 8), PFM_SW_HUNDRED(D, 9), \
	PFM_SW_TEN(D, 100), PFM_SW_TEN(D, 101),				\
	D(1020), D(1021), D(1022), D(1023)

const struct pfm_regdesc pfm_sw_pmcs[] = { PFM_SW_ALL(PFM_SW_PMC_DESC) };
const struct pfm_regdesc pfm_sw_pmds[] = { PFM_SW_ALL(PFM_SW_PMD_DESC) };
static_assert(ARRAY_SIZE(pfm_sw_pmcs) == PFM_SW_NUM_COUNTERS && ARRAY_SIZE(pfm_sw_pmds) == PFM_SW_NUM_COUNTERS);
