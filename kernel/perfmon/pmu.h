/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the PMU description.
 *
 * A PMU is made of units: the software-event unit is always there, and a hardware
 * driver (arch/x86/perfmon/) adds its own.  Each unit describes its registers in
 * tables and gives the few operations the core needs to move a set's image on and off
 * the PMU of the CPU it runs on.  The core maps each unit's registers to logical PMC
 * and PMD numbers and never touches hardware itself, so a driver plugs in without a
 * change to the core.
 */
#ifndef _PERFMON_PMU_H
#define _PERFMON_PMU_H

/* pfm_regdesc.type */
#define PFM_REG_I	0x01	/* implemented */
#define PFM_REG_C64	0x02	/* PMD: counter exported as 64 bits (emulated above width) */
#define PFM_REG_RO	0x04	/* PMD: read-only */
#define PFM_REG_INTR	0x08	/* PMD: can raise an overflow interrupt */
#define PFM_REG_NO64	0x10	/* PMC: accepts PFM_PMCFL_NO_EMUL64 */

#include <uapi/perfmon/perfmon.h>
#include <uapi/perfmon/perfmon_sw.h>

/*
 * The kernel's register numbers: those the ABI's bit vectors name (below
 * PFM_MAX_PMCS and PFM_MAX_PMDS), then the software PMU's counters past them,
 * which count but take no part in sampling or overflow handling
 * (<perfmon/perfmon_sw.h>).  Every table and bitmap of the core covers them
 * all; only what goes out in the ABI's bit vectors stops at PFM_MAX_PMDS.
 */
#define PFM_NUM_PMCS	(PFM_SW_FIRST_PMC + PFM_SW_NUM_COUNTERS)
#define PFM_NUM_PMDS	(PFM_SW_FIRST_PMD + PFM_SW_NUM_COUNTERS)

#define PFM_MAX_UNITS	4
#define PFM_MAX_PMU_TYPES	4

struct pfm_event_set;
struct perf_event_attr;
struct pfm_pmu_unit;
struct pt_regs;

/*
 * One type of CPU of a unit whose CPUs are not all alike (hybrid x86: P cores
 * and E cores, each with a PMU of its own): id names it to users
 * (PFM_FL_PMU_TYPE()), pmcs and pmds describe the registers CPUs of the type
 * have, with the unit's num_pmcs and num_pmds entries, a subset of the unit's
 * own tables (which describe every type's registers).
 */
struct pfm_pmu_type {
	u32 id;
	const char *name;
	/*
	 * The type number perf_events gives this type's PMU (its sysfs
	 * event_source type), which perf_event_open(2) callers name it by.
	 */
	u32 perf_type;
	const struct pfm_regdesc *pmcs;
	const struct pfm_regdesc *pmds;
};

struct pfm_regdesc {
	const char *name;
	u64 addr;		/* hardware address (MSR), 0 for software registers */
	u64 dfl_val;		/* quiescent value, also the value of a fresh set */
	u64 rsvd_msk;		/* PMC: bits the user may not set */
	u64 priv_msk;		/* PMC: bits that need privilege (kernel-level counting) */
	u16 type;		/* PFM_REG_* */
	u8 width;		/* PMD: counter width in bits (1..64) */
	u16 dep_pmc;		/* PMD: index, inside the unit, of its PMC */
};

/*
 * How a unit would count a perf_event_open(2) attr (encode_attr()), in its own
 * terms: bit i of gp, its i-th general-purpose counter, may count it with the
 * event select value sel; bit j of fixed, its j-th fixed counter, may count it
 * with the fixed counters' control value fixed_ctrl.  Neither: the attr counts
 * nothing (every level excluded).  What those counters are called in a layer
 * above is that layer's business.  type: on a unit whose CPUs are of several
 * types, the one whose PMU the attr names (index + 1), whose CPUs alone it may
 * count on; 0 on a unit with one.
 */
struct pfm_attr_enc {
	u32 gp;
	u32 fixed;
	u64 sel;
	u64 fixed_ctrl;
	u8 type;
};

/*
 * Operations run on the CPU whose PMU they touch, with interrupts off.  The enable
 * bit a user writes in a PMC is honoured only between enable() and disable().
 *
 * A CPU's PMU serves two sessions at once: the CPU's own (system_wide) and the
 * session of the thread running there.  A unit that counts into memory (bind())
 * has a bank of registers for each, and its operations act on the bank that
 * system_wide names.  A hardware unit has one set of registers: the core drives
 * it for one session at a time, the one that holds the hardware (res.c: the two
 * kinds of session never hold it at once), and it may ignore system_wide.
 */
struct pfm_pmu_unit {
	const char *name;
	u16 first_pmc;			/* logical number of pmcs[0] */
	u16 first_pmd;			/* logical number of pmds[0] */
	u16 num_pmcs;
	u16 num_pmds;
	const struct pfm_regdesc *pmcs;
	const struct pfm_regdesc *pmds;

	/* Value checks beyond the reserved-bit mask; 0 or -EINVAL. */
	int (*pmc_check)(unsigned int idx, u64 value);

	void (*write_pmc)(bool system_wide, unsigned int idx, u64 value);
	void (*write_pmd)(bool system_wide, unsigned int idx, u64 value);
	u64 (*read_pmd)(bool system_wide, unsigned int idx);
	/*
	 * Optional: the reload of PMD idx after its overflow, value what it counted
	 * moved back by its reset, where write_pmd() would count afresh from value:
	 * a unit that owes the PMD time since it last folded it (a task clock)
	 * keeps owing it, so the overflow's handling is counted.
	 */
	void (*reload_pmd)(bool system_wide, unsigned int idx, u64 value);
	void (*enable)(bool system_wide);	/* system-wide: count for every thread */
	void (*disable)(bool system_wide);

	/*
	 * Resources held while a context using the unit is attached (may sleep); a
	 * CPU session (system_wide) may need more than a per-thread one.
	 */
	int (*get)(bool system_wide);
	void (*put)(bool system_wide);	/* must not sleep */

	/*
	 * Optional, for what only some events need (a tracepoint that costs every
	 * thread something): the unit-local bits a PMC value needs, held while a
	 * context that ever wrote such a value is attached.
	 */
	u32 (*pmc_needs)(unsigned int idx, u64 value);
	int (*needs_get)(u32 bits);	/* may sleep */
	void (*needs_put)(u32 bits);	/* must not sleep */

	/*
	 * Optional: whether the counts page can show PMD idx, counting as PMC value
	 * says, exactly: the unit then calls pfm_upage_publish() (upage.h) wherever
	 * the count changes while live.  Without it, the unit's PMDs are not shown.
	 */
	bool (*pmd_in_page)(unsigned int idx, u64 pmc_value);

	/*
	 * Optional, for a unit with registers: user-mode reads of its counters (the
	 * counts page's rdpmc[], uapi perfmon.h).  On the CPU where PMD idx is live,
	 * interrupts off: the code of the counter the monitored thread may read (0
	 * if it may not, now), and in *raw the counter's value that stands for the
	 * exported value v (its low width bits), as of the last read or write.
	 */
	u8 (*user_read)(unsigned int idx, u64 v, u64 *raw);

	/*
	 * Optional, for a unit that counts into memory rather than into registers of
	 * its own (the software unit): its PMDs' values are the set's own (struct
	 * pfm_pmd.value) at all times, so nothing of it moves at a context switch.
	 * In place of enable(), bind() points this CPU's unit at the set going live
	 * (its PMCs, its PMDs, its ovfl_pending for the carries the unit sees), at
	 * time now; in place of disable(), unbind() stops it counting there at time
	 * now.  The core never saves nor restores such a unit's registers, and
	 * read_pmd() returns the set's value brought up to date.
	 */
	void (*bind)(struct pfm_event_set *set, bool system_wide, u64 now);
	void (*unbind)(bool system_wide, u64 now);
	/*
	 * With bind(), on the CPU it is bound on: brings every PMD of the set up to
	 * date in memory at once, as read_pmd() does one, for a read of several.
	 */
	void (*sync)(bool system_wide);

	/*
	 * Optional: clears, in unit-local bitmaps of num_pmcs/num_pmds bits, the
	 * registers someone else holds now (the NMI watchdog, perf_events).  The core
	 * reports them unavailable and refuses writes to them (EBUSY).
	 */
	void (*avail)(unsigned long *pmcs, unsigned long *pmds);

	/*
	 * Optional, for a unit that counts perf's hardware events: how it would count
	 * attr (PERF_TYPE_HARDWARE, HW_CACHE, RAW, or a type's perf_type), *enc
	 * zeroed by the caller; 0, or the errno perf_event_open(2) gives for attr
	 * on this PMU (ENOENT for a type it does not serve).  cpu is the CPU the
	 * event is opened on, -1 for anywhere, online (perf_events' hybrid PMUs
	 * refuse a CPU not of their type).  Depends on attr, cpu and the unit's
	 * description only: any context, any CPU.
	 */
	int (*encode_attr)(const struct perf_event_attr *attr, int cpu,
			   struct pfm_attr_enc *enc);

	/*
	 * Optional, for a hardware unit whose CPUs are of several types (struct
	 * pfm_pmu_type): num_types of them in types[], the first the default;
	 * cpu_type(cpu) the index of the type of an online CPU (any context, may
	 * run a function on that CPU; cheap on the calling CPU).  A context is
	 * bound to one type (pmu_type.h) and counts only on CPUs of that type.
	 */
	unsigned int num_types;
	const struct pfm_pmu_type *types;
	unsigned int (*cpu_type)(int cpu);
	/*
	 * Optional, with types: pmc_check() for type k, the values a context of
	 * that type may not write (an event only the other type counts); 0 or
	 * -EINVAL.
	 */
	int (*type_pmc_check)(unsigned int k, unsigned int idx, u64 value);
};

/* pfm_reg.dep_pmd: no register */
#define PFM_NO_REG	0xffff
/* pfm_pmu.pmd_off[] of a PMD not implemented: past any set's array */
#define PFM_PMD_NO_OFF	U16_MAX

/* One logical register: where it lives. */
struct pfm_reg {
	const struct pfm_regdesc *desc;
	const struct pfm_pmu_unit *unit;
	u16 idx;			/* index inside the unit */
	/*
	 * A PMC's first PMD, a PMD's next one controlled by the same PMC, or
	 * PFM_NO_REG: a write of a PMC finds the PMDs it controls at once rather
	 * than by looking at every PMD of its unit.
	 */
	u16 dep_pmd;
};

struct pfm_pmu {
	const char *model;
	const struct pfm_pmu_unit *units[PFM_MAX_UNITS];
	unsigned int num_units;
	unsigned int pmc_end;		/* highest implemented PMC + 1 */
	unsigned int pmd_end;
	/*
	 * A set keeps the implemented registers alone, in logical order: its
	 * pmcs[] and pmds[] have num_pmc_slots and num_pmd_slots entries, and
	 * register i is entry pmc_slot[i] or pmd_slot[i] (sets.h: pfm_set_pmc(),
	 * pfm_set_pmd()); slot_pmd[] is the way back.  The registers of a unit
	 * that implements all of its own are contiguous in a set as they are in
	 * logical numbers (the software unit's bank points at its first PMD and
	 * strides over the others).
	 * pmd_off[i] is PMD i's entry as a byte offset in pmds[], so that the hot
	 * paths reach it in one load, as they reached it by its number; it is
	 * PFM_PMD_NO_OFF for a PMD not implemented, past every set's array, so
	 * that the read's one compare against a set's array length also tells a
	 * PMD not implemented from the others (pfm_pmd_read_at()).
	 */
	unsigned int num_pmc_slots;
	unsigned int num_pmd_slots;
	u16 pmc_slot[PFM_NUM_PMCS];
	u16 pmd_slot[PFM_NUM_PMDS];
	u16 pmd_off[PFM_NUM_PMDS];
	u16 slot_pmd[PFM_NUM_PMDS];
	u64 dfl_pmcs[PFM_NUM_PMCS];	/* a fresh set's pmcs[]: the quiescent values */
	struct pfm_reg pmc[PFM_NUM_PMCS];
	struct pfm_reg pmd[PFM_NUM_PMDS];
	DECLARE_BITMAP(impl_pmcs, PFM_NUM_PMCS);
	DECLARE_BITMAP(impl_pmds, PFM_NUM_PMDS);
	/* the registers that move at a switch: those of units without bind() */
	DECLARE_BITMAP(moved_pmcs, PFM_NUM_PMCS);
	DECLARE_BITMAP(moved_pmds, PFM_NUM_PMDS);
	bool any_moved;			/* some register moves: a unit has no bind() */
	/* the units with bind(), which a read syncs once each (pfm_pmu_sync_bound()) */
	const struct pfm_pmu_unit *bound[PFM_MAX_UNITS];
	unsigned int num_bound;
	/* their syncs in one call: the one unit's own when it is alone, as it mostly is */
	void (*sync_bound)(bool system_wide);
	/* the unit whose CPUs are of several types (pmu_type.h), if any */
	const struct pfm_pmu_unit *typed;
};

extern struct pfm_pmu pfm_pmu;

int pfm_pmu_add_unit(const struct pfm_pmu_unit *unit);
unsigned int pfm_pmu_unit_index(const struct pfm_pmu_unit *unit);
void pfm_pmu_reset(void);
void pfm_pmu_avail(unsigned long *pmcs, unsigned long *pmds);
int pfm_pmu_encode_attr(const struct perf_event_attr *attr, int cpu, struct pfm_attr_enc *enc);
/* The index of cpu's type on the unit with types (pmu.h), -1 on a machine of one type. */
int pfm_pmu_cpu_type(int cpu);

/*
 * A unit's counters overflowed: bits are unit-local PMD indices.  Called on the CPU
 * whose PMU overflowed, with interrupts off (from its PMU interrupt, or where a
 * software counter wrapped); the core syncs the PMDs, handles 64-bit overflows
 * (reset, set switching) and leaves the PMU running.  A hardware unit's go to the
 * session that holds the hardware on the CPU; a unit counting into memory names
 * the bank that carried (pfm_pmu_bank_overflow_at()).
 */
void pfm_pmu_overflow(const struct pfm_pmu_unit *unit, u64 bits);

/*
 * Where a PMU interrupt found the CPU: the interrupted instruction, and whether it
 * was in kernel mode.  A unit whose overflows come from an interrupt hands it to
 * the core with them, as perfmon2 handed the interrupt's regs to its formats; the
 * software unit hands the instruction of a fault, or what its timer interrupted.
 * regs, where the source has them, are the interrupted or faulting context's
 * registers, valid only for the length of the overflow's handling (a format
 * that records registers reads them then); NULL where they are not known.
 */
struct pfm_ovfl_where {
	u64 ip;
	bool kernel;
	struct pt_regs *regs;
};

void pfm_pmu_overflow_at(const struct pfm_pmu_unit *unit, u64 bits,
			 const struct pfm_ovfl_where *at);
void pfm_pmu_bank_overflow_at(const struct pfm_pmu_unit *unit, bool system_wide, u64 bits,
			      const struct pfm_ovfl_where *at);
/* The same for a keyed hit's carries, under whatever locks the hit came with (hold.h). */
void pfm_pmu_bank_overflow_hit(const struct pfm_pmu_unit *unit, bool system_wide, u64 bits,
			       const struct pfm_ovfl_where *at);

static inline u64 pfm_pmd_ovfl_mask(const struct pfm_regdesc *d)
{
	return d->width >= 64 ? ~0ULL : (1ULL << d->width) - 1;
}

#endif /* _PERFMON_PMU_H */
