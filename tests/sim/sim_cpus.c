// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUs the simulator can be (sim.h, struct sim_model): what CPUID reports and
 * which PMU registers exist.
 */
#include <string.h>

#include "sim.h"

/*
 * The models.  The first two are the current generation of each vendor: Intel
 * architectural perfmon v5 with 8 GP and 4 fixed counters of 48 bits (a Sapphire
 * Rapids core), and AMD PerfMonV2 with 6 counters of 48 bits (Zen 4).  The others
 * cover the driver's other paths: v4 with AnyThread (Skylake), v2 without
 * full-width writes and an architectural event missing (Core 2), v1 (Core Duo),
 * PerfCtrExtCore without PerfMonV2 (Zen 2), and the four legacy counters of family
 * 0Fh (what QEMU's TCG CPU claims to be).
 */
const struct sim_model sim_models[SIM_NR_MODELS] = {
	[SIM_INTEL_V5] = {
		.name = "intel_v5", .driver_model = "intel_arch_v5", .vendor = SIM_INTEL,
		.family = 6, .model = 0x8f, .version = 5, .num_gp = 8, .num_fixed = 4,
		.fixed_bitmap = 0xf, .width = 48, .fixed_width = 48, .pdcm = true,
		.fw_write = true, .anythread_deprecated = true, .events_len = 8,
	},
	[SIM_AMD_V2] = {
		.name = "amd_v2", .driver_model = "amd64_perfmon_v2", .vendor = SIM_AMD,
		.family = 0x19, .model = 0x11, .version = 2, .num_gp = 6, .width = 48,
	},
	[SIM_INTEL_V4] = {
		.name = "intel_v4", .driver_model = "intel_arch_v4", .vendor = SIM_INTEL,
		.family = 6, .model = 0x55, .version = 4, .num_gp = 4, .num_fixed = 3,
		.width = 48, .fixed_width = 48, .pdcm = true, .fw_write = true,
		.events_len = 7,
	},
	[SIM_INTEL_V2] = {
		.name = "intel_v2", .driver_model = "intel_arch_v2", .vendor = SIM_INTEL,
		.family = 6, .model = 0x17, .version = 2, .num_gp = 2, .num_fixed = 3,
		.width = 40, .fixed_width = 40, .events_len = 7,
		.events_unavail = 1U << 6,	/* no Branch Misses Retired */
	},
	[SIM_INTEL_V1] = {
		.name = "intel_v1", .driver_model = "intel_arch_v1", .vendor = SIM_INTEL,
		.family = 6, .model = 0x0e, .version = 1, .num_gp = 2, .width = 40,
		.events_len = 7,
	},
	[SIM_AMD_CORE] = {
		.name = "amd_core", .driver_model = "amd64_core", .vendor = SIM_AMD,
		.family = 0x17, .model = 0x31, .version = 1, .num_gp = 6, .width = 48,
	},
	[SIM_AMD_LEGACY] = {
		.name = "amd_legacy", .driver_model = "amd64", .vendor = SIM_AMD,
		.family = 0xf, .model = 0x6b, .version = 0, .num_gp = 4, .width = 48,
	},
};

static uint32_t subleaf_reg(const struct sim_model *m, uint32_t leaf, uint32_t sub,
			   unsigned int reg)
{
	const struct sim_leaf *l = sim_leaf_find(m, leaf, sub);

	return l ? l->r[reg] : 0;
}

static uint32_t leaf_reg(const struct sim_model *m, uint32_t leaf, unsigned int reg)
{
	return subleaf_reg(m, leaf, 0, reg);
}

static enum sim_vendor vendor_of(const struct sim_model *m)
{
	static const struct {
		const char *s;
		enum sim_vendor v;
	} names[] = {
		{ "GenuineIntel", SIM_INTEL }, { "AuthenticAMD", SIM_AMD },
		{ "HygonGenuine", SIM_AMD },
	};
	char s[13];
	uint32_t r[3] = { leaf_reg(m, 0, 1), leaf_reg(m, 0, 3), leaf_reg(m, 0, 2) };
	unsigned int i;

	memcpy(s, r, 12);
	s[12] = 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].s))
			return names[i].v;
	return SIM_VIA;		/* Centaur, Zhaoxin: Intel's registers, if any */
}

/*
 * The model of a real processor from its CPUID leaves: which registers exist is
 * what CPUID enumerates (Intel SDM vol. 3B "Architectural Performance
 * Monitoring", AMD APM vol. 2 "Performance Monitoring Counters"); the caller
 * corrects what a processor has that its CPUID does not say.
 */
void sim_model_from_cpuid(struct sim_model *m, const struct sim_leaf *leaves, unsigned int n)
{
	uint32_t max, sig, a, d, pm;

	memset(m, 0, sizeof(*m));
	m->leaves = leaves;
	m->nleaves = n;
	m->vendor = vendor_of(m);
	max = leaf_reg(m, 0, 0);
	sig = leaf_reg(m, 1, 0);
	m->family = (sig >> 8) & 0xf;
	m->model = (sig >> 4) & 0xf;
	if (m->family == 0xf)
		m->family += (sig >> 20) & 0xff;
	if (m->family >= 6)		/* as Linux reads it (x86_model()) */
		m->model |= ((sig >> 16) & 0xf) << 4;
	m->pdcm = leaf_reg(m, 1, 2) & (1U << 15);
	m->hypervisor = leaf_reg(m, 1, 2) & (1U << 31);
	m->hybrid = max >= 7 && (leaf_reg(m, 7, 3) & (1U << 15));
	if (m->vendor == SIM_AMD) {
		max = leaf_reg(m, 0x80000000, 0);
		pm = max >= 0x80000022 ? leaf_reg(m, 0x80000022, 1) & 0xf : 0;
		if (pm && (leaf_reg(m, 0x80000022, 0) & 1))
			m->version = 2;
		else if (max >= 0x80000001 && (leaf_reg(m, 0x80000001, 2) & (1U << 23)))
			m->version = 1;
		m->num_gp = m->version == 2 ? pm : m->version ? 6 : 4;
		m->width = 48;
		return;
	}
	if (max < 0xa)
		return;
	a = leaf_reg(m, 0xa, 0);
	d = leaf_reg(m, 0xa, 3);
	m->version = a & 0xff;
	m->num_gp = (a >> 8) & 0xff;
	m->width = (a >> 16) & 0xff;
	m->events_len = a >> 24;
	m->events_unavail = leaf_reg(m, 0xa, 1);
	if (m->version >= 2) {
		m->num_fixed = d & 0x1f;
		m->fixed_width = (d >> 5) & 0xff;
	}
	if (m->version >= 5)
		m->fixed_bitmap = leaf_reg(m, 0xa, 2) & ((1U << SIM_MAX_FIXED) - 1);
	m->anythread_deprecated = d & (1U << 15);
	if (m->num_gp > SIM_MAX_GP)
		m->num_gp = SIM_MAX_GP;
	if (m->num_fixed > SIM_MAX_FIXED)
		m->num_fixed = SIM_MAX_FIXED;
	/* leaf 0x23 where CPUID.(7,1):EAX[8] says so and its subleaf 1 is valid */
	if (max >= 0x23 && leaf_reg(m, 7, 0) >= 1 && (subleaf_reg(m, 7, 1, 0) & (1U << 8)) &&
	    (leaf_reg(m, 0x23, 0) & (1U << 1))) {
		m->leaf23 = true;
		m->gp23 = subleaf_reg(m, 0x23, 1, 0) & ((1U << SIM_MAX_GP) - 1);
		m->fixed23 = subleaf_reg(m, 0x23, 1, 1) & ((1U << SIM_MAX_FIXED) - 1);
		m->num_gp = m->gp23 ? 32 - __builtin_clz(m->gp23) : 0;
		if (leaf_reg(m, 0x23, 0) & (1U << 3))
			m->events23 = subleaf_reg(m, 0x23, 3, 0);
	}
}
