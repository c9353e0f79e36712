// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 PMU register model (see sim.h).
 */
#include <string.h>

#include "sim.h"

struct sim_state sim;

const char *const sim_class_names[SIM_NR_CLASSES] = {
	[SIM_C_SEL] = "evtsel", [SIM_C_CTR] = "counter", [SIM_C_FIXED_CTR] = "fixed_ctr",
	[SIM_C_FIXED_CTRL] = "fixed_ctrl", [SIM_C_GCTRL] = "global_ctrl",
	[SIM_C_GSTATUS] = "global_status", [SIM_C_GACK] = "global_ack",
	[SIM_C_GSET] = "global_set", [SIM_C_CAPS] = "capabilities", [SIM_C_OTHER] = "other",
};

#define MSR_INTEL_PMC0		0x0c1
#define MSR_INTEL_EVTSEL0	0x186
#define MSR_INTEL_CAPS		0x345
#define MSR_INTEL_A_PMC0	0x4c1
#define MSR_INTEL_FIXED_CTR0	0x309
#define MSR_INTEL_FIXED_CTRL	0x38d
#define MSR_INTEL_GSTATUS	0x38e
#define MSR_INTEL_GCTRL		0x38f
#define MSR_INTEL_GOVF		0x390
#define MSR_INTEL_GSET		0x391
#define MSR_K7_EVNTSEL0		0xc0010000U
#define MSR_K7_PERFCTR0		0xc0010004U
#define MSR_F15H_CTL0		0xc0010200U
#define MSR_F15H_CTR0		0xc0010201U
#define MSR_AMD_GSTATUS		0xc0000300U
#define MSR_AMD_GCTL		0xc0000301U
#define MSR_AMD_GCLR		0xc0000302U
#define MSR_AMD_GSET		0xc0000303U

#define SEL_USR		(1ULL << 16)
#define SEL_OS		(1ULL << 17)
#define SEL_INT		(1ULL << 20)
#define SEL_EN		(1ULL << 22)
#define AMD_GUEST	(1ULL << 40)
#define AMD_HOST	(1ULL << 41)

static const uint64_t sim_fixed_events[SIM_MAX_FIXED] = {
	0x00c0, 0x003c, 0x013c, 0x01a4, ~0ULL, ~0ULL, ~0ULL, ~0ULL,
};

static uint64_t mask_of(unsigned int width)
{
	return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

uint64_t sim_width_mask(void)
{
	return mask_of(sim.m->width);
}

uint64_t sim_fixed_width_mask(void)
{
	return mask_of(sim.m->fixed_width);
}

/* Intel's registers (Centaur/Zhaoxin implement architectural perfmon too) */
static bool intel(void)
{
	return sim.m->vendor != SIM_AMD;
}

static bool has_global(void)
{
	return sim.m->version >= 2;
}

uint32_t sim_fixed_present(const struct sim_model *m)
{
	if (m->vendor == SIM_AMD || m->version < 2)
		return 0;
	if (m->leaf23)
		return m->fixed23;
	return (uint32_t)mask_of(m->num_fixed) | (m->version >= 5 ? m->fixed_bitmap : 0);
}

uint32_t sim_gp_present(const struct sim_model *m)
{
	return m->leaf23 && m->vendor != SIM_AMD ? m->gp23 : (uint32_t)mask_of(m->num_gp);
}

static uint32_t fixed_present(void)
{
	return sim_fixed_present(sim.m);
}

static bool gp_present(unsigned int i)
{
	return sim_gp_present(sim.m) & (1U << i);
}

static uint64_t gbits_valid(void)
{
	return sim_gp_present(sim.m) | ((uint64_t)fixed_present() << 32);
}

static void reset_registers(void)
{
	memset(sim.sel, 0, sizeof(sim.sel));
	memset(sim.ctr, 0, sizeof(sim.ctr));
	memset(sim.fixed_ctr, 0, sizeof(sim.fixed_ctr));
	sim.fixed_ctrl = 0;
	sim.gstatus = 0;
	/* Power-on: the GP counters globally enabled, for software unaware of it. */
	sim.gctrl = has_global() ? sim_gp_present(sim.m) : 0;
	sim.lvtpc = SIM_APIC_LVT_MASKED;
}

void sim_reset_custom(const struct sim_model *m)
{
	memset(&sim, 0, sizeof(sim));
	sim.custom = *m;
	sim.m = &sim.custom;
	sim.vendor = m->vendor;
	sim.model_param = "auto";
	reset_registers();
}

static void bank_save(struct sim_bank *b)
{
	memcpy(b->sel, sim.sel, sizeof(b->sel));
	memcpy(b->ctr, sim.ctr, sizeof(b->ctr));
	memcpy(b->fixed_ctr, sim.fixed_ctr, sizeof(b->fixed_ctr));
	b->fixed_ctrl = sim.fixed_ctrl;
	b->gctrl = sim.gctrl;
	b->gstatus = sim.gstatus;
	b->lvtpc = sim.lvtpc;
}

static void bank_load(const struct sim_bank *b)
{
	memcpy(sim.sel, b->sel, sizeof(b->sel));
	memcpy(sim.ctr, b->ctr, sizeof(b->ctr));
	memcpy(sim.fixed_ctr, b->fixed_ctr, sizeof(b->fixed_ctr));
	sim.fixed_ctrl = b->fixed_ctrl;
	sim.gctrl = b->gctrl;
	sim.gstatus = b->gstatus;
	sim.lvtpc = b->lvtpc;
}

void sim_reset_hybrid(const struct sim_model *cpu0, const struct sim_model *cpu1)
{
	sim_reset_custom(cpu1);
	bank_save(&sim.bank[1]);
	sim.custom = *cpu0;
	reset_registers();
	sim.ncpus = 2;
	sim.cpu = 0;
	sim.cpu_model[0] = *cpu0;
	sim.cpu_model[1] = *cpu1;
}

void sim_switch_cpu(unsigned int cpu)
{
	if (cpu == sim.cpu || cpu >= sim.ncpus)
		return;
	bank_save(&sim.bank[sim.cpu]);
	bank_load(&sim.bank[cpu]);
	sim.custom = sim.cpu_model[cpu];
	sim.cpu = cpu;
}

void sim_reset(enum sim_model_id id)
{
	sim_reset_custom(&sim_models[id]);
}

/* --- decoding ------------------------------------------------------------- */

enum sim_kind {
	K_NONE, K_SEL, K_CTR32, K_CTR, K_FIXED_CTR, K_FIXED_CTRL, K_GSTATUS, K_GCTRL,
	K_GACK, K_GSET, K_CAPS,
};

static enum sim_kind decode(uint32_t msr, unsigned int *idx)
{
	const struct sim_model *m = sim.m;

	*idx = 0;
	if (m->vendor != SIM_AMD) {
		if (m->version >= 1 && msr >= MSR_INTEL_EVTSEL0 && msr < MSR_INTEL_EVTSEL0 + m->num_gp &&
		    gp_present(msr - MSR_INTEL_EVTSEL0)) {
			*idx = msr - MSR_INTEL_EVTSEL0;
			return K_SEL;
		}
		if (m->version >= 1 && msr >= MSR_INTEL_PMC0 && msr < MSR_INTEL_PMC0 + m->num_gp &&
		    gp_present(msr - MSR_INTEL_PMC0)) {
			*idx = msr - MSR_INTEL_PMC0;
			return K_CTR32;
		}
		if (m->fw_write && msr >= MSR_INTEL_A_PMC0 && msr < MSR_INTEL_A_PMC0 + m->num_gp &&
		    gp_present(msr - MSR_INTEL_A_PMC0)) {
			*idx = msr - MSR_INTEL_A_PMC0;
			return K_CTR;
		}
		if (msr == MSR_INTEL_CAPS && m->pdcm)
			return K_CAPS;
		if (m->version < 2)
			return K_NONE;
		if (msr >= MSR_INTEL_FIXED_CTR0 && msr < MSR_INTEL_FIXED_CTR0 + SIM_MAX_FIXED &&
		    (fixed_present() & (1U << (msr - MSR_INTEL_FIXED_CTR0)))) {
			*idx = msr - MSR_INTEL_FIXED_CTR0;
			return K_FIXED_CTR;
		}
		switch (msr) {
		case MSR_INTEL_FIXED_CTRL:
			return K_FIXED_CTRL;
		case MSR_INTEL_GSTATUS:
			return K_GSTATUS;
		case MSR_INTEL_GCTRL:
			return K_GCTRL;
		case MSR_INTEL_GOVF:
			return K_GACK;
		case MSR_INTEL_GSET:
			return m->version >= 4 ? K_GSET : K_NONE;
		}
		return K_NONE;
	}
	if (msr >= MSR_K7_EVNTSEL0 && msr < MSR_K7_EVNTSEL0 + 4) {
		*idx = msr - MSR_K7_EVNTSEL0;
		return K_SEL;
	}
	if (msr >= MSR_K7_PERFCTR0 && msr < MSR_K7_PERFCTR0 + 4) {
		*idx = msr - MSR_K7_PERFCTR0;
		return K_CTR;
	}
	if (m->version >= 1 && msr >= MSR_F15H_CTL0 && msr < MSR_F15H_CTL0 + 2 * m->num_gp) {
		*idx = (msr - MSR_F15H_CTL0) / 2;
		return (msr - MSR_F15H_CTL0) % 2 ? K_CTR : K_SEL;
	}
	if (m->version >= 2) {
		switch (msr) {
		case MSR_AMD_GSTATUS:
			return K_GSTATUS;
		case MSR_AMD_GCTL:
			return K_GCTRL;
		case MSR_AMD_GCLR:
			return K_GACK;
		case MSR_AMD_GSET:
			return K_GSET;
		}
	}
	return K_NONE;
}

enum sim_class sim_msr_class(uint32_t msr)
{
	static const enum sim_class cls[] = {
		[K_NONE] = SIM_C_OTHER, [K_SEL] = SIM_C_SEL, [K_CTR32] = SIM_C_CTR,
		[K_CTR] = SIM_C_CTR, [K_FIXED_CTR] = SIM_C_FIXED_CTR,
		[K_FIXED_CTRL] = SIM_C_FIXED_CTRL, [K_GSTATUS] = SIM_C_GSTATUS,
		[K_GCTRL] = SIM_C_GCTRL, [K_GACK] = SIM_C_GACK, [K_GSET] = SIM_C_GSET,
		[K_CAPS] = SIM_C_CAPS,
	};
	unsigned int idx;

	return cls[decode(msr, &idx)];
}

uint32_t sim_sel_msr(unsigned int i)
{
	if (intel())
		return MSR_INTEL_EVTSEL0 + i;
	if (sim.m->version >= 1)
		return MSR_F15H_CTL0 + 2 * i;
	return MSR_K7_EVNTSEL0 + i;
}

uint32_t sim_ctr_msr(unsigned int i)
{
	if (intel())
		return (sim.m->fw_write ? MSR_INTEL_A_PMC0 : MSR_INTEL_PMC0) + i;
	if (sim.m->version >= 1)
		return MSR_F15H_CTR0 + 2 * i;
	return MSR_K7_PERFCTR0 + i;
}

/* Event-select bits the hardware takes; the rest faults. */
static uint64_t sel_ok(void)
{
	const struct sim_model *m = sim.m;
	uint64_t ok = 0xffffffffULL;

	if (intel()) {
		if (m->version < 3 || (m->version >= 5 && m->anythread_deprecated))
			ok &= ~(1ULL << 21);
		return ok;
	}
	ok &= ~((1ULL << 19) | (1ULL << 21));
	if (m->family >= 0x10)
		ok |= 0xfULL << 32 | AMD_GUEST | AMD_HOST;
	return ok;
}

static uint64_t fixed_ctrl_ok(void)
{
	const struct sim_model *m = sim.m;
	uint32_t present = fixed_present();
	uint64_t ok = 0, nib = 0xb;
	unsigned int j;

	if (m->version >= 3 && !(m->version >= 5 && m->anythread_deprecated))
		nib = 0xf;
	for (j = 0; j < SIM_MAX_FIXED; j++)
		if (present & (1U << j))
			ok |= nib << (4 * j);
	return ok;
}

static uint64_t gack_ok(void)
{
	uint64_t ok = gbits_valid();

	if (intel()) {
		ok |= 1ULL << 55 | 1ULL << 61 | 1ULL << 62 | 1ULL << 63;
		if (sim.m->version >= 4)
			ok |= 7ULL << 58;
	}
	return ok;
}

/* --- someone else's counters ---------------------------------------------- */

static bool others(enum sim_kind k, unsigned int idx)
{
	switch (k) {
	case K_SEL:
	case K_CTR32:
	case K_CTR:
		return sim.other_gp & (1ULL << idx);
	case K_FIXED_CTR:
	case K_FIXED_CTRL:
		return sim.other_fixed;
	default:
		return false;
	}
}

static void note_gp(uint32_t msr, uint64_t val, bool write, const char *why)
{
	sim.gp_msr = msr;
	sim.gp_val = val;
	sim.gp_write = write;
	sim.gp_why = why;
}

static void trace(uint32_t msr, bool write, uint64_t val)
{
	struct sim_access *a = &sim.trace[sim.ntrace++ % SIM_TRACE];

	a->msr = msr;
	a->write = write;
	a->val = val;
}

unsigned long sim_traced(uint32_t msr, bool write, unsigned long since)
{
	unsigned long i, n = 0;

	if (sim.ntrace - since > SIM_TRACE)
		since = sim.ntrace - SIM_TRACE;
	for (i = since; i < sim.ntrace; i++)
		if (sim.trace[i % SIM_TRACE].msr == msr && sim.trace[i % SIM_TRACE].write == write)
			n++;
	return n;
}

bool sim_rdmsr(uint32_t msr, uint64_t *val)
{
	unsigned int idx;
	enum sim_kind k = decode(msr, &idx);

	sim.n.rd[sim_msr_class(msr)]++;
	trace(msr, false, 0);
	*val = 0;
	if (k == K_NONE) {
		note_gp(msr, 0, false, "unknown MSR");
		return false;
	}
	if (sim.fault_all) {
		note_gp(msr, 0, false, "the hypervisor faults PMU MSRs");
		return false;
	}
	if (sim.ignore_writes)
		return true;
	if (others(k, idx))
		sim.other_touched++;
	switch (k) {
	case K_SEL:
		*val = sim.sel[idx];
		break;
	case K_CTR32:
	case K_CTR:
		*val = sim.ctr[idx];
		break;
	case K_FIXED_CTR:
		*val = sim.fixed_ctr[idx];
		break;
	case K_FIXED_CTRL:
		*val = sim.fixed_ctrl;
		break;
	case K_GSTATUS:
		*val = sim.gstatus;
		break;
	case K_GCTRL:
		*val = sim.gctrl;
		break;
	case K_CAPS:
		*val = sim.m->perf_caps | (sim.m->fw_write ? 1ULL << 13 : 0);
		break;
	default:
		break;		/* the status reset and set registers read as 0 */
	}
	return true;
}

bool sim_wrmsr(uint32_t msr, uint64_t val)
{
	const struct sim_model *m = sim.m;
	uint64_t w = mask_of(m->width);
	unsigned int idx;
	enum sim_kind k = decode(msr, &idx);

	sim.n.wr[sim_msr_class(msr)]++;
	trace(msr, true, val);
	if (k == K_NONE) {
		note_gp(msr, val, true, "unknown MSR");
		return false;
	}
	if (sim.fault_all) {
		note_gp(msr, val, true, "the hypervisor faults PMU MSRs");
		return false;
	}
	if (sim.ignore_writes)
		return true;
	if (others(k, idx))
		sim.other_touched++;
	switch (k) {
	case K_SEL:
		if (val & ~sel_ok()) {
			note_gp(msr, val, true, "reserved event-select bit");
			return false;
		}
		sim.sel[idx] = val;
		return true;
	case K_CTR32:
		/* IA32_PMCx: bits 31:0, sign-extended; EDX is ignored */
		sim.ctr[idx] = (uint64_t)(int64_t)(int32_t)(uint32_t)val & w;
		return true;
	case K_CTR:
		if (val & ~w) {
			note_gp(msr, val, true, "counter bit above the width");
			return false;
		}
		sim.ctr[idx] = val;
		return true;
	case K_FIXED_CTR:
		if (val & ~mask_of(m->fixed_width)) {
			note_gp(msr, val, true, "fixed counter bit above the width");
			return false;
		}
		sim.fixed_ctr[idx] = val;
		return true;
	case K_FIXED_CTRL:
		if (val & ~fixed_ctrl_ok()) {
			note_gp(msr, val, true, "reserved fixed-control bit");
			return false;
		}
		sim.fixed_ctrl = val;
		return true;
	case K_GCTRL:
		if (val & ~gbits_valid()) {
			note_gp(msr, val, true, "reserved global-control bit");
			return false;
		}
		if ((val ^ sim.gctrl) & (sim.other_gp | (sim.other_fixed ?
				(uint64_t)fixed_present() << 32 : 0)))
			sim.other_touched++;
		sim.gctrl = val;
		return true;
	case K_GSTATUS:
		note_gp(msr, val, true, "write to the read-only global status");
		return false;
	case K_GACK:
		if (val & ~gack_ok()) {
			note_gp(msr, val, true, "reserved status-reset bit");
			return false;
		}
		if (val & (sim.other_gp | (sim.other_fixed ? (uint64_t)fixed_present() << 32 : 0)))
			sim.other_touched++;
		sim.gstatus &= ~val;
		return true;
	case K_GSET:
		if (val & ~gack_ok()) {
			note_gp(msr, val, true, "reserved status-set bit");
			return false;
		}
		sim.gstatus |= val;
		return true;
	case K_CAPS:
		note_gp(msr, val, true, "write to the read-only capabilities");
		return false;
	default:
		return false;
	}
}

bool sim_rdpmc(uint32_t ecx, uint64_t *val)
{
	const struct sim_model *m = sim.m;
	uint32_t i = ecx & ~(1U << 30);

	sim.rdpmcs++;
	*val = 0;
	if (!sim.cr4_pce || sim.fault_all)
		goto gp;
	if (m->vendor == SIM_AMD) {
		if (ecx >= (m->version ? 6U : 4U))
			goto gp;
		*val = sim.ctr[ecx] & sim_width_mask();
		return true;
	}
	if (ecx & (1U << 30)) {
		if (i >= SIM_MAX_FIXED || !(fixed_present() & (1U << i)))
			goto gp;
		*val = sim.fixed_ctr[i] & sim_fixed_width_mask();
		return true;
	}
	if (m->version < 1 || ecx >= m->num_gp || !gp_present(ecx))
		goto gp;
	*val = sim.ctr[ecx] & sim_width_mask();
	return true;
gp:
	sim.rdpmc_gp++;
	return false;
}

uint64_t sim_peek(uint32_t msr)
{
	unsigned int idx;

	switch (decode(msr, &idx)) {
	case K_SEL:
		return sim.sel[idx];
	case K_CTR32:
	case K_CTR:
		return sim.ctr[idx];
	case K_FIXED_CTR:
		return sim.fixed_ctr[idx];
	case K_FIXED_CTRL:
		return sim.fixed_ctrl;
	case K_GSTATUS:
		return sim.gstatus;
	case K_GCTRL:
		return sim.gctrl;
	default:
		return 0;
	}
}

/* --- reservation ---------------------------------------------------------- */

void sim_other_take(unsigned int i)
{
	sim.perfctr_owner |= 1ULL << i;
	sim.evntsel_owner |= 1ULL << i;
	sim.perfctr_other |= 1ULL << i;
	sim.evntsel_other |= 1ULL << i;
	sim.other_gp |= 1ULL << i;
}

void sim_other_give(unsigned int i)
{
	sim.perfctr_owner &= ~(1ULL << i);
	sim.evntsel_owner &= ~(1ULL << i);
	sim.perfctr_other &= ~(1ULL << i);
	sim.evntsel_other &= ~(1ULL << i);
	sim.other_gp &= ~(1ULL << i);
}

/*
 * perf_events reserves the counters through the addresses it uses: with full-width
 * writes that is IA32_A_PMCx, which the reservation does not track, so only the
 * event selects are marked.
 */
void sim_perf_take_all(void)
{
	unsigned int i;

	for (i = 0; i < sim.m->num_gp; i++) {
		sim.evntsel_owner |= 1ULL << i;
		sim.evntsel_other |= 1ULL << i;
		if (!(intel() && sim.m->fw_write)) {
			sim.perfctr_owner |= 1ULL << i;
			sim.perfctr_other |= 1ULL << i;
		}
		sim.other_gp |= 1ULL << i;
	}
	sim.other_fixed = fixed_present() != 0;
}

void sim_other_program(unsigned int i, uint64_t event, uint64_t value)
{
	sim.sel[i] = event | SEL_USR | SEL_OS | SEL_INT | SEL_EN;
	sim.ctr[i] = value & mask_of(sim.m->width);
	if (sim.ctr[i] >> (sim.m->width - 1))
		sim.other_armed |= 1ULL << i;
	if (has_global())
		sim.gctrl |= 1ULL << i;
}

/* --- counting -------------------------------------------------------------- */

static bool gp_counts(unsigned int i, uint64_t event, enum sim_ring ring)
{
	uint64_t s = sim.sel[i];
	uint64_t evmask = intel() ? 0xffffULL : 0xf0000ffffULL;

	if (!(s & SEL_EN) || (s & evmask) != event)
		return false;
	if (has_global() && !(sim.gctrl & (1ULL << i)))
		return false;
	if (!intel() && (s & AMD_GUEST) && !(s & AMD_HOST))
		return false;
	return s & (ring == SIM_USER ? SEL_USR : SEL_OS);
}

static bool fixed_counts(unsigned int j, uint64_t event, enum sim_ring ring)
{
	uint64_t nib = (sim.fixed_ctrl >> (4 * j)) & 0xf;

	if (!(fixed_present() & (1U << j)) || sim_fixed_events[j] != event)
		return false;
	if (!(sim.gctrl & (1ULL << (32 + j))))
		return false;
	return nib & (ring == SIM_USER ? 2 : 1);
}

/* Someone else's NMI handler, after ours: it takes its own overflows. */
static bool other_nmi(void)
{
	uint64_t mine = sim.gstatus & sim.other_gp;
	bool any = false;
	unsigned int i;

	if (has_global()) {
		if (mine) {
			sim.gstatus &= ~mine;
			sim.other_pmis++;
			any = true;
		}
		return any;
	}
	/* as perf_events does: a counter it programmed negative that is not any more */
	for (i = 0; i < sim.m->num_gp; i++) {
		if (!(sim.other_armed & (1ULL << i)) || (sim.ctr[i] >> (sim.m->width - 1)))
			continue;
		sim.other_armed &= ~(1ULL << i);
		sim.other_pmis++;
		any = true;
	}
	return any;
}

static void deliver_pmi(void)
{
	bool claimed = false;

	sim.pmis++;
	if (sim.lvtpc != SIM_APIC_DM_NMI) {
		sim.pmis_lost++;
		return;
	}
	if (intel())
		sim.lvtpc |= SIM_APIC_LVT_MASKED;
	sim.nmis++;
	if (sim.nmi)
		claimed = sim.nmi();
	if (other_nmi())
		claimed = true;
	if (!claimed)
		sim.nmis_unclaimed++;
	/* The NMI returns to code that runs with interrupts on: the irq_work runs. */
	if (!sim.hold_work)
		sim_run_work();
}

void sim_run_work(void)
{
	while (sim.work_pending) {
		sim.work_pending = false;
		if (sim.work)
			sim.work();
	}
}

void sim_count(uint64_t event, uint64_t n, enum sim_ring ring)
{
	const struct sim_model *m = sim.m;
	uint64_t w = mask_of(m->width), fw = mask_of(m->fixed_width);
	unsigned int i;

	if (sim.ignore_writes || sim.fault_all)
		return;
	sim.ring = ring;
	while (n) {
		uint64_t gp = 0, fx = 0, step = n;
		bool pmi = false;

		for (i = 0; i < m->num_gp; i++) {
			if (!gp_counts(i, event, ring))
				continue;
			gp |= 1ULL << i;
			if (w - sim.ctr[i] + 1 != 0 && w - sim.ctr[i] + 1 < step)
				step = w - sim.ctr[i] + 1;
		}
		for (i = 0; i < SIM_MAX_FIXED; i++) {
			if (!fixed_counts(i, event, ring))
				continue;
			fx |= 1ULL << i;
			if (fw - sim.fixed_ctr[i] + 1 != 0 && fw - sim.fixed_ctr[i] + 1 < step)
				step = fw - sim.fixed_ctr[i] + 1;
		}
		if (!gp && !fx)
			return;
		for (i = 0; i < m->num_gp; i++) {
			if (!(gp & (1ULL << i)))
				continue;
			if (step > w - sim.ctr[i]) {	/* wraps */
				if (has_global())
					sim.gstatus |= 1ULL << i;
				if (sim.sel[i] & SEL_INT)
					pmi = true;
			}
			sim.ctr[i] = (sim.ctr[i] + step) & w;
		}
		for (i = 0; i < SIM_MAX_FIXED; i++) {
			if (!(fx & (1ULL << i)))
				continue;
			if (step > fw - sim.fixed_ctr[i]) {
				sim.gstatus |= 1ULL << (32 + i);
				if ((sim.fixed_ctrl >> (4 * i)) & 8)
					pmi = true;
			}
			sim.fixed_ctr[i] = (sim.fixed_ctr[i] + step) & fw;
		}
		n -= step;
		if (pmi)
			deliver_pmi();
	}
}

/* --- statistics ------------------------------------------------------------ */

unsigned long sim_total(const struct sim_counts *c, bool write)
{
	unsigned long t = 0;
	unsigned int k;

	for (k = 0; k < SIM_NR_CLASSES; k++)
		t += write ? c->wr[k] : c->rd[k];
	return t;
}

void sim_counts_since(struct sim_counts *delta, struct sim_counts *base)
{
	unsigned int k;

	for (k = 0; k < SIM_NR_CLASSES; k++) {
		delta->rd[k] = sim.n.rd[k] - base->rd[k];
		delta->wr[k] = sim.n.wr[k] - base->wr[k];
	}
	delta->apic = sim.n.apic - base->apic;
	delta->cpuid = sim.n.cpuid - base->cpuid;
	*base = sim.n;
}
