/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon: a hardware PMD of the counts page read with the user-mode counter
 * instruction (<perfmon/perfmon.h>, COUNTS PAGE), inside the page's sequence.
 *
 * Inline, and needing nothing of the library, so that the simulator's tests run
 * this very code over their simulated rdpmc: they define PFM_COUNTS_RDPMC(ecx)
 * and PFM_COUNTS_CPU() before including it.
 */
#ifndef PFM_COUNTS_RDPMC_H
#define PFM_COUNTS_RDPMC_H

#include <stdint.h>
#include <perfmon/perfmon.h>
#include <perfmon/perfmon_x86.h>

#ifndef PFM_COUNTS_RDPMC
#if defined(__x86_64__) || defined(__i386__)
#include <sched.h>

static inline uint64_t pfm_counts_rdpmc_insn(uint32_t ecx)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	return lo | (uint64_t)hi << 32;
}

#define PFM_COUNTS_RDPMC(ecx)	pfm_counts_rdpmc_insn(ecx)
#define PFM_COUNTS_CPU()	sched_getcpu()
#else
/* no such instruction: the kernel gives no rdpmc[] entry */
#define PFM_COUNTS_RDPMC(ecx)	((void)(ecx), 0ULL)
#define PFM_COUNTS_CPU()	(-1)
#endif
#endif

#define PFM_COUNTS_CPU_UNKNOWN	(-2)

/*
 * *v is pmds[pmd] as loaded in this pass of the sequence: with an rdpmc[] entry it
 * is an offset, and the counter is added.  Only a thread on rdpmc_cpu may read the
 * counter (the monitored thread, there and then); *cpu holds the caller's CPU for
 * the pass (PFM_COUNTS_CPU_UNKNOWN before it is asked).  0, or -1 for a reader on
 * another CPU, which must ask pfm_read_pmds().
 */
static inline int pfm_counts_add_rdpmc(const struct pfm_counts_page *pg, unsigned int pmd,
				       uint64_t *v, int *cpu)
{
	unsigned int e, w;
	uint64_t c;

	if (pmd >= PFM_RDPMC_PMDS)
		return 0;
	e = __atomic_load_n(&pg->rdpmc[pmd], __ATOMIC_RELAXED);
	if (!PFM_RDPMC_INDEX(e))
		return 0;
	if (*cpu == PFM_COUNTS_CPU_UNKNOWN)
		*cpu = PFM_COUNTS_CPU();
	if (*cpu != (int)__atomic_load_n(&pg->rdpmc_cpu, __ATOMIC_RELAXED))
		return -1;
	c = PFM_COUNTS_RDPMC(PFM_X86_RDPMC_ECX(e));
	w = PFM_RDPMC_WIDTH(e);
	if (w && w < 64)
		c = (uint64_t)((int64_t)(c << (64 - w)) >> (64 - w));
	*v += c;
	return 0;
}

#endif /* PFM_COUNTS_RDPMC_H */
