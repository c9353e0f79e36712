// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon x86: the hardware PMU unit, the same for every model.
 *
 * The vendor probes (intel.c, amd.c) describe the registers and probe.c registers
 * the unit; this file runs them.
 *
 * Writes.  Each CPU keeps a shadow of the registers it wrote (event selects, fixed
 * control, global control, counters) and writes a register only when its value
 * must change.  While the PMU is disabled nothing counts, so the configuration is
 * only recorded and written at enable(), and only where it differs: the values the
 * core writes to quiesce a set that is leaving, followed by the same values
 * coming back (a context switch out and in, a set switch between sets that share
 * registers), cost nothing.  A counter read while it does not count is known until
 * it counts again, and writing it the value it holds is skipped.  The shadows of a
 * CPU are forgotten when the registers may have changed behind us: when the
 * counters are taken anew, when the CPU comes online, after a resume.
 *
 * Counting.  With global control (Intel v2+, AMD PerfMonV2) the event selects of
 * counters that are on keep EN and INT set, and IA32_PERF_GLOBAL_CTRL (or
 * PerfCntrGlobalCtl) starts and stops them all in one write.  Without it, EN is
 * set in each event select at enable() and cleared at disable().
 *
 * Overflows.  Counters run armed (struct pfm_x86_pmu): an offset makes each
 * overflow at most half its range after the last, so the core's 64-bit
 * emulation, which syncs at every overflow, never misses a wrap.  The PMU
 * interrupt is an NMI.  Its handler finds our overflowed counters from the global
 * status (acknowledging only our bits) or, without one, from the counters having
 * left their armed range, and hands them to an irq_work on the same CPU, which
 * re-arms them with our counters stopped and calls pfm_pmu_overflow_at() with
 * interrupts off, and with where the NMI interrupted the CPU (the sampled IP):
 * neither the shadows nor the core's locks are touched in NMI context.
 *
 * Coexistence.  The counters are reserved with the kernel's reservation calls
 * when the first context attaches, and given back (after every CPU was quiesced)
 * when the last one detaches.  Counters someone else holds are never touched:
 * not their registers, not their global control or status bits.
 */
#include "x86.h"
#include "perf_x86.h"

#define SEL_EN		PFM_X86_SEL_EN
#define SEL_INT		PFM_X86_SEL_INT
#define FIXED_ON_BITS	0x3ULL		/* OS | USR of one fixed counter */
#define FIXED_PMI_BIT	0x8ULL
#define FIXED_PMC	PFM_X86_FIXED_CTRL_PMC
#define FIXED_PMD	PFM_X86_FIRST_FIXED_PMD

/*
 * Ownership of the counters, under pfm_x86_res_lock.  The generation changes each
 * time the shadows of every CPU must be forgotten.
 */
PFM_HW_DEFINE_LOCK(pfm_x86_res_lock);
static unsigned int pfm_x86_users;	/* get() - put() */
static bool pfm_x86_held;		/* the reservations below are taken */
static unsigned long pfm_x86_owned_gp;	/* GP counters reserved */
static bool pfm_x86_owned_fixed;	/* the fixed counters are ours too */
static unsigned long pfm_x86_gen = 1;

/* What one CPU's PMU holds; touched on that CPU only, interrupts off. */
struct pfm_x86_cpu {
	unsigned long gen;		/* the shadows below belong to this generation */
	bool enabled;			/* between enable() and disable() */
	bool lvtpc;			/* the LVT entry was programmed */
	bool used;			/* a counter of ours ran here */
	u64 want[PFM_X86_NUM_PMCS];	/* the core's values, as the user wrote them */
	u64 pmc[PFM_X86_NUM_PMCS];	/* the registers' values... */
	unsigned long pmc_known;	/* ...where known */
	u64 ctr[PFM_X86_NUM_PMDS];	/* a counter's value when last read or written... */
	unsigned long ctr_known;	/* ...and still its value (it has not counted since) */
	u64 off[PFM_X86_NUM_PMDS];	/* hardware value - exported value (x86.h) */
	u64 gctrl;			/* global control as written (ours only) */
	bool gctrl_known;
	u64 on;				/* global bits of the owned counters turned on */
	u64 pending;			/* unit-local PMD bits overflowed, for the irq_work */
	struct pfm_ovfl_where at;	/* where the first PMI of pending hit */
};

static PFM_HW_DEFINE_PER_CPU(struct pfm_x86_cpu, pfm_x86_cpu);

static bool pfm_x86_global(void)
{
	return pfm_x86_pmu.gctrl_msr != 0;
}

static u64 pfm_x86_owned_gbits(void)
{
	u64 bits = pfm_x86_owned_gp;

	if (pfm_x86_owned_fixed)
		bits |= (u64)pfm_x86_pmu.fixed << PFM_X86_GBIT_FIXED;
	return bits;
}

/* Someone else holds GP counters: the global control holds their bits too. */
static bool pfm_x86_shared(void)
{
	return pfm_x86_owned_gp != pfm_x86_pmu.gp;
}

static unsigned int pfm_x86_gbit_of_pmd(unsigned int idx)
{
	return idx < FIXED_PMD ? idx : PFM_X86_GBIT_FIXED + idx - FIXED_PMD;
}

static u64 pfm_x86_gbits_to_pmds(u64 gbits)
{
	u64 pmds = gbits & ((1ULL << PFM_X86_MAX_GP) - 1);

	pmds |= ((gbits >> PFM_X86_GBIT_FIXED) & ((1ULL << PFM_X86_MAX_FIXED) - 1)) << FIXED_PMD;
	return pmds;
}

static u32 pfm_x86_pmd_msr(unsigned int idx)
{
	if (idx < FIXED_PMD)
		return pfm_x86_pmu.ctr_msr[idx];
	return pfm_x86_pmu.fixed_ctr_msr0 + idx - FIXED_PMD;
}

/*
 * Ours, and on this CPU: a hybrid CPU lacks some of the unit's counters (a
 * context's set carries every fixed counter of the unit's fixed control, its
 * type's or not), which are then kept as someone else's are.
 */
static bool pfm_x86_pmd_owned(unsigned int idx)
{
	if (!(pfm_x86_cpu_gbits() & (1ULL << pfm_x86_gbit_of_pmd(idx))))
		return false;
	if (idx < FIXED_PMD)
		return test_bit(idx, &pfm_x86_owned_gp);
	return pfm_x86_owned_fixed && test_bit(idx - FIXED_PMD, &pfm_x86_pmu.fixed);
}

/* This CPU's state, its shadows forgotten if they are from another generation. */
static struct pfm_x86_cpu *pfm_x86_this_cpu(void)
{
	struct pfm_x86_cpu *c = pfm_hw_this_cpu_ptr(pfm_x86_cpu);
	unsigned long gen = READ_ONCE(pfm_x86_gen);

	if (c->gen != gen) {
		c->gen = gen;
		c->pmc_known = 0;
		c->ctr_known = 0;
		c->gctrl_known = false;
		c->lvtpc = false;
		c->used = false;
	}
	return c;
}

/* Global bits of the counters counting now. */
static u64 pfm_x86_counting(const struct pfm_x86_cpu *c)
{
	return c->enabled ? c->on : 0;
}

static void pfm_x86_update_on(struct pfm_x86_cpu *c)
{
	u64 on = 0;
	unsigned int i;

	for_each_set_bit(i, &pfm_x86_pmu.gp, PFM_X86_MAX_GP)
		if (c->want[i] & SEL_EN)
			on |= 1ULL << i;
	for_each_set_bit(i, &pfm_x86_pmu.fixed, PFM_X86_MAX_FIXED)
		if ((c->want[FIXED_PMC] >> (4 * i)) & FIXED_ON_BITS)
			on |= 1ULL << (PFM_X86_GBIT_FIXED + i);
	/*
	 * A context that counts on every core type (the perf layer's, which keeps
	 * each event's counter off on the other type) may want a counter this CPU
	 * lacks: it stays off, its registers untouched.
	 */
	c->on = on & pfm_x86_owned_gbits() & pfm_x86_cpu_gbits();
}

static void pfm_x86_set_pmc(struct pfm_x86_cpu *c, unsigned int idx, u64 v)
{
	bool fixed = idx == FIXED_PMC;
	u32 msr = fixed ? pfm_x86_pmu.fixed_ctrl_msr : pfm_x86_pmu.sel_msr[idx];
	u64 ok = fixed ? pfm_x86_pmu.fixed_ctrl_hw_ok : pfm_x86_pmu.sel_hw_ok;

	if (test_bit(idx, &c->pmc_known) && c->pmc[idx] == v)
		return;
	/* The descriptions refuse more than the hardware does: never a #GP. */
	if (WARN_ON_ONCE(v & ~ok))
		return;
	pfm_hw_wrmsr(msr, v);
	c->pmc[idx] = v;
	__set_bit(idx, &c->pmc_known);
}

/* The hardware form of a GP event select that is on: INT always, EN if running. */
static u64 pfm_x86_sel_hw(const struct pfm_x86_cpu *c, unsigned int i, bool run)
{
	return (c->want[i] & ~(SEL_EN | SEL_INT)) | SEL_INT | (run ? SEL_EN : 0);
}

/* PMI for every fixed counter that is on, none for the others. */
static u64 pfm_x86_fixed_hw(const struct pfm_x86_cpu *c)
{
	u64 v = 0, nib;
	unsigned int j;

	for_each_set_bit(j, &pfm_x86_pmu.fixed, PFM_X86_MAX_FIXED) {
		nib = (c->want[FIXED_PMC] >> (4 * j)) & 0xf & ~FIXED_PMI_BIT;
		if ((nib & FIXED_ON_BITS) && (c->on & (1ULL << (PFM_X86_GBIT_FIXED + j))))
			v |= (nib | FIXED_PMI_BIT) << (4 * j);
	}
	return v;
}

/*
 * The global control, ours bits only.  When someone else holds counters, their
 * bits are read and written back as they are.
 */
static void pfm_x86_set_gctrl(struct pfm_x86_cpu *c, u64 ours)
{
	u64 cur, v;

	if (pfm_x86_shared()) {
		cur = pfm_hw_rdmsr(pfm_x86_pmu.gctrl_msr);
		v = (cur & ~pfm_x86_owned_gbits()) | ours;
		if (v != cur)
			pfm_hw_wrmsr(pfm_x86_pmu.gctrl_msr, v);
	} else if (!c->gctrl_known || c->gctrl != ours) {
		pfm_hw_wrmsr(pfm_x86_pmu.gctrl_msr, ours);
	}
	c->gctrl = ours;
	c->gctrl_known = true;
}

/*
 * Makes the hardware count what the wanted values say, if enabled.  Registers
 * never written since the counters were taken are left as found unless a counter
 * needs them: a context with no hardware counter on touches nothing.
 */
static void pfm_x86_apply(struct pfm_x86_cpu *c)
{
	bool global = pfm_x86_global();
	u64 counting = pfm_x86_counting(c);
	unsigned int i;

	if (counting && !c->lvtpc) {
		pfm_hw_lvtpc_nmi();
		c->lvtpc = true;
	}
	if (counting)
		c->used = true;
	for_each_set_bit(i, &pfm_x86_owned_gp, PFM_X86_MAX_GP) {
		if (c->on & (1ULL << i))
			pfm_x86_set_pmc(c, i, pfm_x86_sel_hw(c, i, global || c->enabled));
		else if (!global && test_bit(i, &c->pmc_known) && (c->pmc[i] & SEL_EN))
			pfm_x86_set_pmc(c, i, c->pmc[i] & ~SEL_EN);
	}
	if (pfm_x86_pmu.fixed_ctrl_msr && (c->on >> PFM_X86_GBIT_FIXED))
		pfm_x86_set_pmc(c, FIXED_PMC, pfm_x86_fixed_hw(c));
	if (global && (counting || c->gctrl_known))
		pfm_x86_set_gctrl(c, counting);
}

static void pfm_x86_forget_counting(struct pfm_x86_cpu *c)
{
	c->ctr_known &= ~pfm_x86_gbits_to_pmds(pfm_x86_counting(c));
}

/* --- the unit's operations (on the CPU whose PMU they touch, interrupts off) --- */

static void pfm_x86_write_pmc(bool system_wide __always_unused, unsigned int idx, u64 value)
{
	struct pfm_x86_cpu *c = pfm_x86_this_cpu();

	if (idx == FIXED_PMC ? !pfm_x86_owned_fixed : !test_bit(idx, &pfm_x86_owned_gp))
		return;
	c->want[idx] = value;
	pfm_x86_update_on(c);
	if (c->enabled) {
		pfm_x86_forget_counting(c);
		pfm_x86_apply(c);
	}
}

static u64 pfm_x86_ctr_mask(unsigned int idx)
{
	return idx < FIXED_PMD ? pfm_x86_pmu.gp_mask : pfm_x86_pmu.fixed_mask;
}

static u64 pfm_x86_ctr_period(unsigned int idx)
{
	return idx < FIXED_PMD ? pfm_x86_pmu.gp_period : pfm_x86_pmu.fixed_period;
}

/* Armed: at most one period of events before the counter overflows. */
static bool pfm_x86_armed(unsigned int idx, u64 hw)
{
	return hw >= ((0 - pfm_x86_ctr_period(idx)) & pfm_x86_ctr_mask(idx));
}

/* The armed hardware value that holds exported value v; sets the offset. */
static u64 pfm_x86_arm(struct pfm_x86_cpu *c, unsigned int idx, u64 v)
{
	u64 mask = pfm_x86_ctr_mask(idx), period = pfm_x86_ctr_period(idx);
	u64 hw = (0 - (period - (v & (period - 1)))) & mask;

	c->off[idx] = (hw - v) & mask;
	return hw;
}

static u64 pfm_x86_view(struct pfm_x86_cpu *c, unsigned int idx, u64 hw)
{
	return (hw - c->off[idx]) & pfm_x86_ctr_mask(idx);
}

static bool pfm_x86_ctr_counts(struct pfm_x86_cpu *c, unsigned int idx)
{
	return pfm_x86_counting(c) & (1ULL << pfm_x86_gbit_of_pmd(idx));
}

static void pfm_x86_set_ctr(struct pfm_x86_cpu *c, unsigned int idx, u64 v)
{
	bool counts = pfm_x86_ctr_counts(c, idx);
	u64 hw;

	if (!counts && test_bit(idx, &c->ctr_known) && pfm_x86_view(c, idx, c->ctr[idx]) == v)
		return;
	hw = pfm_x86_arm(c, idx, v);
	pfm_hw_wrmsr(pfm_x86_pmd_msr(idx), hw);
	c->ctr[idx] = hw;
	if (counts)
		__clear_bit(idx, &c->ctr_known);
	else
		__set_bit(idx, &c->ctr_known);
}

static void pfm_x86_write_pmd(bool system_wide __always_unused, unsigned int idx, u64 value)
{
	struct pfm_x86_cpu *c = pfm_x86_this_cpu();

	/* Someone else's: never touched; it keeps what it was given. */
	if (!pfm_x86_pmd_owned(idx)) {
		c->ctr[idx] = value & pfm_x86_ctr_mask(idx);
		c->off[idx] = 0;
		return;
	}
	pfm_x86_set_ctr(c, idx, value & pfm_x86_ctr_mask(idx));
}

static u64 pfm_x86_read_pmd(bool system_wide __always_unused, unsigned int idx)
{
	struct pfm_x86_cpu *c = pfm_x86_this_cpu();
	bool counts;
	u64 v;

	if (!pfm_x86_pmd_owned(idx))
		return c->ctr[idx];
	counts = pfm_x86_ctr_counts(c, idx);
	if (!counts && test_bit(idx, &c->ctr_known))
		return pfm_x86_view(c, idx, c->ctr[idx]);
	v = pfm_hw_rdmsr(pfm_x86_pmd_msr(idx));
	c->ctr[idx] = v;
	if (!counts)
		__set_bit(idx, &c->ctr_known);
	return pfm_x86_view(c, idx, v);
}

/*
 * User-mode reads (the counts page's rdpmc[]): GP counter i is code i + 1, fixed
 * counter j 0x80 | (j + 1) (PFM_X86_RDPMC_ECX()).  The counter holds the exported
 * value plus the offset of its arming, wherever it was last read or written.
 */
static u8 pfm_x86_user_read(unsigned int idx, u64 v, u64 *raw)
{
	struct pfm_x86_cpu *c = pfm_x86_this_cpu();

	if (!pfm_x86_pmd_owned(idx) || !pfm_hw_user_rdpmc())
		return 0;
	*raw = (v + c->off[idx]) & pfm_x86_ctr_mask(idx);
	return idx < FIXED_PMD ? idx + 1 : 0x80 | (idx - FIXED_PMD + 1);
}

static void pfm_x86_enable(bool system_wide __always_unused)
{
	struct pfm_x86_cpu *c = pfm_x86_this_cpu();

	c->enabled = true;
	pfm_x86_forget_counting(c);
	pfm_x86_apply(c);
}

static void pfm_x86_disable(bool system_wide __always_unused)
{
	struct pfm_x86_cpu *c = pfm_x86_this_cpu();
	unsigned int i;

	if (!c->enabled)
		return;
	c->enabled = false;
	if (pfm_x86_global()) {
		if (c->gctrl_known)
			pfm_x86_set_gctrl(c, 0);
		return;
	}
	for_each_set_bit(i, &pfm_x86_owned_gp, PFM_X86_MAX_GP)
		if (c->on & (1ULL << i))
			pfm_x86_set_pmc(c, i, pfm_x86_sel_hw(c, i, false));
}

static int pfm_x86_pmc_check(unsigned int idx, u64 value)
{
	if (pfm_x86_pmu.pmc_check)
		return pfm_x86_pmu.pmc_check(idx, value);
	return 0;
}

/* --- ownership ------------------------------------------------------------- */

/* Counters free now, without keeping them. */
static unsigned long pfm_x86_probe_free(void)
{
	unsigned long free = 0;
	unsigned int i;

	for_each_set_bit(i, &pfm_x86_pmu.gp, PFM_X86_MAX_GP) {
		if (!pfm_hw_reserve(pfm_x86_pmu.res_msr[i], pfm_x86_pmu.sel_msr[i]))
			continue;
		pfm_hw_release(pfm_x86_pmu.res_msr[i], pfm_x86_pmu.sel_msr[i]);
		__set_bit(i, &free);
	}
	return free;
}

static void pfm_x86_avail(unsigned long *pmcs, unsigned long *pmds)
{
	unsigned long gp, flags;
	bool fixed;
	unsigned int i;

	raw_spin_lock_irqsave(&pfm_x86_res_lock, flags);
	if (pfm_x86_held) {
		gp = pfm_x86_owned_gp;
		fixed = pfm_x86_owned_fixed;
	} else {
		gp = pfm_x86_probe_free();
		fixed = gp != 0;
	}
	raw_spin_unlock_irqrestore(&pfm_x86_res_lock, flags);

	for_each_set_bit(i, &pfm_x86_pmu.gp, PFM_X86_MAX_GP) {
		if (test_bit(i, &gp))
			continue;
		__clear_bit(i, pmcs);
		__clear_bit(i, pmds);
	}
	if (!fixed && pfm_x86_pmu.fixed) {
		__clear_bit(FIXED_PMC, pmcs);
		for (i = 0; i < PFM_X86_MAX_FIXED; i++)
			__clear_bit(FIXED_PMD + i, pmds);
	}
}

/*
 * The first context to attach takes every counter it can.  perf_events reserves
 * all the GP counters while it has any event and uses the fixed counters without
 * reserving them: the fixed counters are ours only with at least one GP counter,
 * which keeps perf_events out while we hold it.
 */
static int pfm_x86_get(bool system_wide __always_unused)
{
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&pfm_x86_res_lock, flags);
	if (!pfm_x86_users++ && !pfm_x86_held) {
		pfm_x86_owned_gp = 0;
		for_each_set_bit(i, &pfm_x86_pmu.gp, PFM_X86_MAX_GP)
			if (pfm_hw_reserve(pfm_x86_pmu.res_msr[i], pfm_x86_pmu.sel_msr[i]))
				__set_bit(i, &pfm_x86_owned_gp);
		pfm_x86_owned_fixed = pfm_x86_owned_gp && pfm_x86_pmu.fixed;
		pfm_x86_held = true;
		WRITE_ONCE(pfm_x86_gen, pfm_x86_gen + 1);
	}
	raw_spin_unlock_irqrestore(&pfm_x86_res_lock, flags);
	return 0;
}

/* The last one gives the counters back, from process context (pfm_x86_release()). */
static void pfm_x86_put(bool system_wide __always_unused)
{
	unsigned long flags;
	bool last;

	raw_spin_lock_irqsave(&pfm_x86_res_lock, flags);
	WARN_ON_ONCE(!pfm_x86_users);
	last = pfm_x86_users && !--pfm_x86_users;
	raw_spin_unlock_irqrestore(&pfm_x86_res_lock, flags);
	if (last)
		pfm_hw_defer();
}

/*
 * Leaves this CPU's counters as a new owner expects them: what we set in the event
 * selects and fixed control cleared, the global control back at its power-on value
 * (GP counters enabled), our status bits acknowledged.  Registers we never wrote are
 * as we found them.  A CPU that did not use the PMU since the counters were taken
 * has nothing to undo; one where a context is live (it attached after the last
 * detach) is left alone.
 */
static void pfm_x86_quiesce_cpu(void *arg __always_unused)
{
	struct pfm_x86_cpu *c = pfm_hw_this_cpu_ptr(pfm_x86_cpu);
	unsigned int i;

	if (c->gen != READ_ONCE(pfm_x86_gen) || c->enabled || !c->used)
		return;
	c->used = false;
	memset(c->want, 0, sizeof(c->want));
	c->on = 0;
	for_each_set_bit(i, &c->pmc_known, PFM_X86_NUM_PMCS)
		if (c->pmc[i])
			pfm_x86_set_pmc(c, i, 0);
	if (pfm_x86_global()) {
		/* only the bits of the counters this CPU has (hybrid.c) */
		u64 mine = pfm_x86_owned_gbits() & pfm_x86_cpu_gbits();

		if (c->gctrl_known)
			pfm_x86_set_gctrl(c, pfm_x86_owned_gp & mine);
		if (pfm_hw_rdmsr(pfm_x86_pmu.gstatus_msr) & mine)
			pfm_hw_wrmsr(pfm_x86_pmu.gack_msr, mine);
	}
}

static void pfm_x86_release(void)
{
	unsigned long flags;
	unsigned int i;
	bool go;

	raw_spin_lock_irqsave(&pfm_x86_res_lock, flags);
	go = !pfm_x86_users && pfm_x86_held;
	raw_spin_unlock_irqrestore(&pfm_x86_res_lock, flags);
	if (!go)
		return;
	pfm_hw_on_each_cpu(pfm_x86_quiesce_cpu, NULL);
	raw_spin_lock_irqsave(&pfm_x86_res_lock, flags);
	if (!pfm_x86_users && pfm_x86_held) {
		for_each_set_bit(i, &pfm_x86_owned_gp, PFM_X86_MAX_GP)
			pfm_hw_release(pfm_x86_pmu.res_msr[i], pfm_x86_pmu.sel_msr[i]);
		pfm_x86_owned_gp = 0;
		pfm_x86_owned_fixed = false;
		pfm_x86_held = false;
	}
	raw_spin_unlock_irqrestore(&pfm_x86_res_lock, flags);
}

/* --- the PMU interrupt ----------------------------------------------------- */

/*
 * The NMI only finds out: it may interrupt the driver in the middle of an access
 * (interrupts are off there, NMIs are not), so it reads registers but changes no
 * shadow.  It acknowledges our status bits, unmasks the LVT entry, and leaves the
 * rest to the irq_work, which cannot interrupt the driver.
 */
static bool pfm_x86_nmi(u64 ip, bool kernel)
{
	struct pfm_x86_cpu *c = pfm_hw_this_cpu_ptr(pfm_x86_cpu);
	unsigned long pmds = 0;
	unsigned int i;
	u64 status;

	if (!READ_ONCE(pfm_x86_held) || c->gen != READ_ONCE(pfm_x86_gen) || !c->used)
		return false;
	/*
	 * Intel masks the LVT entry at each PMI: unmask it whoever's PMI this is, as
	 * perf_events does, or the next one of ours would be lost.
	 */
	pfm_hw_lvtpc_nmi();
	if (pfm_x86_pmu.gstatus_msr) {
		status = pfm_hw_rdmsr(pfm_x86_pmu.gstatus_msr) & pfm_x86_owned_gbits();
		if (!status)
			return false;
		pfm_hw_wrmsr(pfm_x86_pmu.gack_msr, status);
		pmds = pfm_x86_gbits_to_pmds(status);
	} else {
		/* a counter that is on and below its armed range overflowed */
		for_each_set_bit(i, &pfm_x86_owned_gp, PFM_X86_MAX_GP)
			if ((c->on & (1ULL << i)) &&
			    !pfm_x86_armed(i, pfm_hw_rdmsr(pfm_x86_pmu.ctr_msr[i])))
				__set_bit(i, &pmds);
		if (!pmds)
			return false;
	}
	/* the sampled IP: where the first overflow not yet handled interrupted */
	if (!READ_ONCE(c->pending)) {
		c->at.ip = ip;
		c->at.kernel = kernel;
		c->at.regs = NULL;	/* the irq_work runs after the PMI's frame is gone */
	}
	c->pending |= pmds;
	pfm_hw_pmi_raise();
	return true;
}

/*
 * Stops our counters on this CPU for the length of a re-arm, so that no event is
 * lost between reading a counter and writing it back; and starts them again.
 */
static void pfm_x86_freeze(struct pfm_x86_cpu *c, bool freeze)
{
	u64 others = 0;

	if (pfm_x86_shared())
		others = pfm_hw_rdmsr(pfm_x86_pmu.gctrl_msr) & ~pfm_x86_owned_gbits();
	pfm_hw_wrmsr(pfm_x86_pmu.gctrl_msr, others | (freeze ? 0 : c->gctrl));
}

/*
 * Counters that overflowed go back to their armed range, their values unchanged;
 * one written since it overflowed is armed already.
 */
static void pfm_x86_rearm(struct pfm_x86_cpu *c, unsigned long pmds)
{
	bool global = pfm_x86_global(), frozen = false;
	unsigned int idx;
	u64 hw, armed;

	for_each_set_bit(idx, &pmds, PFM_X86_NUM_PMDS) {
		bool counts = pfm_x86_ctr_counts(c, idx);

		if (!pfm_x86_pmd_owned(idx))
			continue;
		if (counts && global && !frozen) {
			pfm_x86_freeze(c, true);
			frozen = true;
		} else if (counts && !global) {
			pfm_hw_wrmsr(pfm_x86_pmu.sel_msr[idx], c->pmc[idx] & ~SEL_EN);
		}
		if (!counts && test_bit(idx, &c->ctr_known))
			hw = c->ctr[idx];
		else
			hw = pfm_hw_rdmsr(pfm_x86_pmd_msr(idx));
		c->ctr[idx] = hw;
		if (!pfm_x86_armed(idx, hw)) {
			armed = pfm_x86_arm(c, idx, pfm_x86_view(c, idx, hw));
			pfm_hw_wrmsr(pfm_x86_pmd_msr(idx), armed);
			c->ctr[idx] = armed;
		}
		if (counts && !global)
			pfm_hw_wrmsr(pfm_x86_pmu.sel_msr[idx], c->pmc[idx]);
		if (counts)
			__clear_bit(idx, &c->ctr_known);
		else
			__set_bit(idx, &c->ctr_known);
	}
	if (frozen)
		pfm_x86_freeze(c, false);
}

/* After the NMI, interrupts off, same CPU: re-arm, then the core handles them. */
static void pfm_x86_pmi_work(void)
{
	struct pfm_x86_cpu *c = pfm_x86_this_cpu();
	struct pfm_ovfl_where at;
	u64 bits;

	/*
	 * where, before the bits are taken: an NMI in between adds its bits to
	 * these (the first PMI's IP stands for them) or, after, starts anew
	 */
	at = c->at;
	bits = pfm_hw_xchg(&c->pending, 0);
	if (!bits || !pfm_x86_active_unit)
		return;
	pfm_x86_rearm(c, bits);
	pfm_pmu_overflow_at(pfm_x86_active_unit, bits, &at);
}

static void pfm_x86_cpu_online(void)
{
	pfm_hw_this_cpu_ptr(pfm_x86_cpu)->gen = 0;
	pfm_x86_hybrid_online();
}

static void pfm_x86_invalidate(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&pfm_x86_res_lock, flags);
	WRITE_ONCE(pfm_x86_gen, pfm_x86_gen + 1);
	raw_spin_unlock_irqrestore(&pfm_x86_res_lock, flags);
}

const struct pfm_hw_ops pfm_x86_hw_ops = {
	.nmi = pfm_x86_nmi,
	.work = pfm_x86_pmi_work,
	.deferred = pfm_x86_release,
	.online = pfm_x86_cpu_online,
	.invalidate = pfm_x86_invalidate,
};

/* --- the unit -------------------------------------------------------------- */

/* probe.c registers a copy, named after the model. */
const struct pfm_pmu_unit pfm_x86_unit = {
	.first_pmc = PFM_X86_FIRST_GP_PMC,
	.first_pmd = PFM_X86_FIRST_GP_PMD,
	.num_pmcs = PFM_X86_NUM_PMCS,
	.num_pmds = PFM_X86_NUM_PMDS,
	.pmcs = pfm_x86_pmu.pmcs,
	.pmds = pfm_x86_pmu.pmds,
	.pmc_check = pfm_x86_pmc_check,
	.write_pmc = pfm_x86_write_pmc,
	.write_pmd = pfm_x86_write_pmd,
	.read_pmd = pfm_x86_read_pmd,
	.user_read = pfm_x86_user_read,
	.enable = pfm_x86_enable,
	.disable = pfm_x86_disable,
	.get = pfm_x86_get,
	.put = pfm_x86_put,
	.avail = pfm_x86_avail,
	.encode_attr = pfm_x86_encode_attr,
};
