// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon: hardware events by name through libpfm4 (events.h).
 */
#include <errno.h>
#include <string.h>
#include <perfmon/pfmlib.h>
#include <perfmon/perfmon_x86.h>

#include "events.h"

static int pfmg_init(void)
{
	static int ret = -1;

	if (ret == -1)
		ret = pfm_initialize();
	return ret;
}

static int pfmg_errno(int ret)
{
	switch (ret) {
	case PFM_ERR_NOTFOUND:
		return ENOENT;
	case PFM_ERR_NOINIT:
	case PFM_ERR_NOTSUPP:
		return ENODEV;
	case PFM_ERR_NOMEM:
		return ENOMEM;
	default:
		return EINVAL;
	}
}

int pfmg_encode(const char *name, unsigned int plm, struct pfmg_event *ev)
{
	pfm_pmu_encode_arg_t arg;
	int lib_plm = 0, ret;
	uint64_t code;

	if (!name || !ev || !plm || (plm & ~(PFMG_PLM_USR | PFMG_PLM_OS))) {
		errno = EINVAL;
		return -1;
	}
	ret = pfmg_init();
	if (ret != PFM_SUCCESS) {
		errno = pfmg_errno(ret);
		return -1;
	}
	if (plm & PFMG_PLM_USR)
		lib_plm |= PFM_PLM3;
	if (plm & PFMG_PLM_OS)
		lib_plm |= PFM_PLM0;
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, lib_plm, PFM_OS_NONE, &arg);
	if (ret != PFM_SUCCESS) {
		errno = pfmg_errno(ret);
		return -1;
	}
	code = arg.codes[0];
	/* Event code 0 is no event: Intel's pseudo code for a fixed counter. */
	if (!(code & PFM_X86_SEL_EVENT) && (code & PFM_X86_SEL_UMASK)) {
		ev->fixed = ((code & PFM_X86_SEL_UMASK) >> 8) - 1;
		ev->code = 0;
		if (code & PFM_X86_SEL_USR)
			ev->code |= PFM_X86_FIXED_USR(ev->fixed);
		if (code & PFM_X86_SEL_OS)
			ev->code |= PFM_X86_FIXED_OS(ev->fixed);
	} else {
		ev->fixed = -1;
		ev->code = code;
	}
	return 0;
}

int pfmg_assign(const struct pfmg_event *ev, unsigned int n, unsigned int num_gp,
		unsigned int num_fixed, struct pfarg_pmc *pmc, unsigned int *npmc,
		uint16_t *pmd)
{
	uint64_t fixed_ctrl = 0;
	unsigned int i, gp = 0, used_fixed = 0;

	memset(pmc, 0, (n + 1) * sizeof(*pmc));
	for (i = 0; i < n; i++) {
		if (ev[i].fixed >= 0) {
			if ((unsigned int)ev[i].fixed >= num_fixed ||
			    (used_fixed & (1U << ev[i].fixed)))
				goto nospc;
			used_fixed |= 1U << ev[i].fixed;
			fixed_ctrl |= ev[i].code;
			pmd[i] = PFM_X86_FIRST_FIXED_PMD + ev[i].fixed;
			continue;
		}
		if (gp == num_gp)
			goto nospc;
		pmc[gp].reg_num = PFM_X86_FIRST_GP_PMC + gp;
		pmc[gp].reg_value = ev[i].code;
		pmd[i] = PFM_X86_FIRST_GP_PMD + gp;
		gp++;
	}
	*npmc = gp;
	if (used_fixed) {
		pmc[gp].reg_num = PFM_X86_FIXED_CTRL_PMC;
		pmc[gp].reg_value = fixed_ctrl;
		*npmc = gp + 1;
	}
	return 0;
nospc:
	errno = ENOSPC;
	return -1;
}
