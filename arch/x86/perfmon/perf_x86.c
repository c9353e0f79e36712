// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon x86: perf's hardware events (PERF_TYPE_HARDWARE, HW_CACHE, RAW) as the
 * registers of the model found, the unit's encode_attr() (kernel/perfmon/pmu.h):
 * which general-purpose and fixed counters may count the event, and the event
 * select and fixed-counter control values each needs.  The layer that asked
 * numbers those counters its own way; nothing here knows that numbering.
 *
 * The value is what perf_events would program, from the same attr:
 *   - the event code: the generic and cache tables (perf_tables.c), or a RAW
 *     config's event, unit mask, EDGE, INV, counter mask, Intel's AnyThread and
 *     AMD's event bits 11:8;
 *   - the levels from exclude_user and exclude_kernel (USR, OS); a RAW config's
 *     own USR, OS, INT and EN bits are ignored, as perf_events ignores them
 *     (INT and EN are the kernel's, see <perfmon/perfmon_x86.h>).
 * Intel's fixed counters count instructions (0x00c0), core cycles (0x003c) and,
 * by the pseudo-encodings 0x0300, 0x0400, ..., fixed counter 2, 3, ... only;
 * an event with a filter (EDGE, INV, counter mask) needs a general-purpose one.
 *
 * The errnos are Linux 6.1's where it has one (see perf_tables.c and
 * <perfmon/perfmon_x86.h>); where 6.1 accepts what this PMU description cannot
 * do, the answer is the one perfmon gives that value: EINVAL for bits the model
 * reserves (6.1 drops them silently).  Without this unit registered there is no
 * hardware PMU, and the core answers ENOENT for it.
 */
#include <linux/perf_event.h>

#include "x86.h"
#include "perf_x86.h"

/* A raw config's bits that perf_events sets itself, from attr and for itself. */
#define PFM_RAW_KERNEL_BITS	(PFM_X86_SEL_USR | PFM_X86_SEL_OS | PFM_X86_SEL_INT | \
				 PFM_X86_SEL_EN)
/* What a fixed counter cannot do. */
#define PFM_SEL_FILTERS		(PFM_X86_SEL_EDGE | PFM_X86_SEL_INV | PFM_X86_SEL_CMASK)
#define PFM_SEL_CODE		(PFM_X86_SEL_EVENT | PFM_X86_SEL_UMASK)

/* The PMU type perf_events' x86 PMU has, and on a hybrid machine the P cores'. */
#define PFM_X86_PERF_TYPE	PERF_TYPE_RAW

static int pfm_x86_perf_raw(const struct pfm_x86_pmu *p, u64 config, u64 *code)
{
	*code = config & ~PFM_RAW_KERNEL_BITS;
	if (*code & p->pmcs[0].rsvd_msk)
		return -EINVAL;
	/* an architectural event CPUID says the PMU (core type) lacks: refused */
	if (p->vendor == PFM_X86_INTEL && pfm_intel_event_missing(p, *code))
		return -EINVAL;
	return 0;
}

/*
 * The fixed counter that counts code, or -1; *only when no general-purpose
 * counter can (a pseudo-encoding).  -ENOENT: a pseudo-encoding for a fixed
 * counter the model lacks, or with a filter it cannot apply.
 */
static int pfm_x86_perf_fixed(const struct pfm_x86_pmu *p, u64 code, bool *only)
{
	u64 ev = code & PFM_SEL_CODE;
	unsigned int umask = ev >> 8;
	int j = -1;

	*only = false;
	if (pfm_x86_pmu.vendor != PFM_X86_INTEL)
		return -1;
	if (ev == 0x00c0)
		j = 0;
	else if (ev == 0x003c)
		j = 1;
	else if (!(ev & PFM_X86_SEL_EVENT) && umask >= 3) {
		j = umask - 1;
		*only = true;
	}
	if (j < 0)
		return -1;
	if (j >= PFM_X86_MAX_FIXED || !(p->fixed & (1UL << j)) ||
	    (code & PFM_SEL_FILTERS))
		return *only ? -ENOENT : -1;
	return j;
}

/* The core type whose PMU perf_events registered with type number perf_type, or -1. */
static int pfm_x86_perf_type_of(u64 perf_type)
{
	unsigned int k;

	for (k = 0; k < pfm_x86_ntypes; k++)
		if (pfm_x86_unit_types[k].perf_type == perf_type)
			return k;
	return -1;
}

/*
 * On a hybrid machine, the core type whose PMU attr opens on, as 6.1's
 * perf_init_event() finds it: a HARDWARE or HW_CACHE event by its extended
 * type, else PERF_TYPE_RAW, the P cores' PMU, and for an event on one CPU of
 * another type that CPU's type (6.1 tries every PMU once the P cores' refuses
 * the CPU, and the E cores' takes it); RAW and other types by attr->type.  A
 * type no core type has, or a CPU not of the type named: ENOENT, as the
 * hybrid PMUs' event_init refuses a CPU outside their supported CPUs.
 */
static int pfm_x86_perf_hybrid_type(const struct perf_event_attr *attr, u64 ext, int cpu)
{
	int k, here = cpu < 0 ? -1 : (int)pfm_x86_cpu_type(cpu);
	bool generic = attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE;

	k = pfm_x86_perf_type_of(generic ? (ext ? ext : PFM_X86_PERF_TYPE) : attr->type);
	if (generic && !ext && cpu >= 0 && k != here)
		k = here < (int)pfm_x86_ntypes ? here : -1;
	if (k < 0 || (cpu >= 0 && k != here))
		return -ENOENT;
	return k;
}

/*
 * The event code of attr, and its checks, in 6.1's order; *p the registers of
 * the PMU it opens on (a hybrid machine's core type, *type its index + 1).
 */
static int pfm_x86_perf_code(const struct perf_event_attr *attr, int cpu, u64 *code,
			     const struct pfm_x86_pmu **p, u8 *type)
{
	u64 config = attr->config, ext = 0;
	int k;

	*p = &pfm_x86_pmu;
	*type = 0;
	if (attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE) {
		ext = config >> 32;
		config &= 0xffffffffULL;
	}
	if (pfm_x86_ntypes > 1) {
		k = pfm_x86_perf_hybrid_type(attr, ext, cpu);
		if (k < 0)
			return k;
		*p = &pfm_x86_types[k].pmu;
		*type = k + 1;
	} else if ((ext && ext != PFM_X86_PERF_TYPE) ||
		   (attr->type != PERF_TYPE_HARDWARE && attr->type != PERF_TYPE_HW_CACHE &&
		    attr->type != PERF_TYPE_RAW)) {
		/* the upper half may name the PMU: this one only */
		return -ENOENT;
	}
	/* no precise (PEBS, IBS) events: the PMU's "precise" level is 0 */
	if (attr->precise_ip)
		return -EOPNOTSUPP;
	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		return pfm_x86_perf_generic(*p, config, code);
	case PERF_TYPE_HW_CACHE:
		return pfm_x86_perf_cache(config, code);
	case PERF_TYPE_RAW:
		return pfm_x86_perf_raw(*p, config, code);
	}
	if (*type)
		return pfm_x86_perf_raw(*p, config, code);
	return -ENOENT;
}

int pfm_x86_encode_attr(const struct perf_event_attr *attr, int cpu, struct pfm_attr_enc *enc)
{
	bool usr = !attr->exclude_user, os = !attr->exclude_kernel, only;
	const struct pfm_x86_pmu *p;
	u64 code, levels;
	int j, ret;

	ret = pfm_x86_perf_code(attr, cpu, &code, &p, &enc->type);
	if (ret)
		return ret;
	j = pfm_x86_perf_fixed(p, code, &only);
	if (j == -ENOENT)
		return j;
	/* counting in a guest only: perfmon counts a thread, not a guest mode */
	if (attr->exclude_host)
		return -EINVAL;
	if (!usr && !os)
		return 0;		/* counts nothing, on no counter */

	levels = (usr ? PFM_X86_SEL_USR : 0) | (os ? PFM_X86_SEL_OS : 0);
	if (!only) {
		enc->gp = p->gp;
		enc->sel = code | levels;
	}
	if (j >= 0) {
		enc->fixed = 1U << j;
		enc->fixed_ctrl = (usr ? PFM_X86_FIXED_USR(j) : 0) |
				  (os ? PFM_X86_FIXED_OS(j) : 0) |
				  (code & PFM_X86_SEL_ANY ? PFM_X86_FIXED_ANY(j) : 0);
	}
	return 0;
}
