// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUID instruction of the simulated CPU (sim.h): a real processor's leaves
 * when the model carries them (sim_model.leaves, read from tests/sim/cpuid/),
 * otherwise the leaves the model's fields describe.
 */
#include <string.h>

#include "sim.h"

static void vendor_string(uint32_t r[4])
{
	static const char *const v[] = {
		[SIM_INTEL] = "GenuineIntel", [SIM_AMD] = "AuthenticAMD",
		[SIM_VIA] = "CentaurHauls",
	};
	const char *s = v[sim.m->vendor];

	memcpy(&r[1], s, 4);
	memcpy(&r[3], s + 4, 4);
	memcpy(&r[2], s + 8, 4);
}

static uint32_t signature(void)
{
	const struct sim_model *m = sim.m;
	unsigned int fam = m->family, ext = 0;

	if (fam > 0xf) {
		ext = fam - 0xf;
		fam = 0xf;
	}
	return (m->model & 0xf) << 4 | fam << 8 | ((m->model >> 4) & 0xf) << 16 | ext << 20;
}

/* The leaves a model's fields describe: subleaves of 7 and 0x23 only. */
static void described(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	const struct sim_model *m = sim.m;

	switch (leaf) {
	case 0:
		r[0] = m->vendor == SIM_INTEL ? (m->leaf23 ? 0x23 : 0x1f) : 0x10;
		vendor_string(r);
		break;
	case 1:
		r[0] = signature();
		r[2] = (m->pdcm ? 1U << 15 : 0) | (m->hypervisor ? 1U << 31 : 0);
		break;
	case 7:
		if (sub == 0) {
			r[0] = 1;		/* the highest subleaf */
			if (m->hybrid)
				r[3] = 1U << 15;
		} else if (sub == 1 && m->leaf23) {
			r[0] = 1U << 8;		/* leaf 0x23 */
		}
		break;
	case 0x23:
		if (!m->leaf23)
			break;
		if (sub == 0) {
			r[0] = 1U << 1;		/* subleaf 1 valid */
			if (m->events23)
				r[0] |= 1U << 3;
		} else if (sub == 1) {
			r[0] = m->gp23;
			r[1] = m->fixed23;
		} else if (sub == 3) {
			r[0] = m->events23;
		}
		break;
	case 0xa:
		if (m->vendor == SIM_AMD)
			break;
		r[0] = m->version | m->num_gp << 8 | m->width << 16 | m->events_len << 24;
		r[1] = m->events_unavail;
		r[2] = m->version >= 5 ? m->fixed_bitmap : 0;
		if (m->version >= 2)
			r[3] = m->num_fixed | m->fixed_width << 5 |
			       (m->anythread_deprecated ? 1U << 15 : 0);
		break;
	case 0x80000000:
		r[0] = m->vendor == SIM_AMD && m->version >= 2 ? 0x80000022 : 0x80000008;
		break;
	case 0x80000001:
		if (m->vendor == SIM_AMD && m->version >= 1)
			r[2] = 1U << 23;
		break;
	case 0x80000022:
		if (m->vendor == SIM_AMD && m->version >= 2) {
			r[0] = 1;
			r[1] = m->num_gp;
		}
		break;
	}
}

/*
 * A real processor's leaf: the subleaf asked for of the leaves that have
 * subleaves (7 and 0x23 among those kept), subleaf 0's of the others, which
 * ignore ECX.  A leaf the dump does not hold reads 0, as a leaf past the
 * maximum would on AMD (Intel repeats its highest basic leaf, which no probe
 * reads: each checks the maximum first).
 */
const struct sim_leaf *sim_leaf_find(const struct sim_model *m, uint32_t leaf, uint32_t sub)
{
	bool indexed = leaf == 7 || leaf == 0x23;
	unsigned int i;

	for (i = 0; i < m->nleaves; i++)
		if (m->leaves[i].leaf == leaf && m->leaves[i].sub == (indexed ? sub : 0))
			return &m->leaves[i];
	return NULL;
}

void sim_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	const struct sim_leaf *l;

	sim.n.cpuid++;
	memset(r, 0, 4 * sizeof(*r));
	if (!sim.m->leaves) {
		described(leaf, sub, r);
		return;
	}
	l = sim_leaf_find(sim.m, leaf, sub);
	if (l)
		memcpy(r, l->r, 4 * sizeof(*r));
}
