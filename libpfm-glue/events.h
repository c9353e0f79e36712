/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon: hardware events by name, through libpfm4, and their assignment to
 * the x86 counters of <perfmon/perfmon_x86.h>.
 *
 * Names are libpfm4's ("INST_RETIRED:ANY_P", "BR_MISP_RETIRED", with modifiers
 * such as ":u" or ":c=2"), looked up among the PMUs libpfm4 finds active on this
 * machine (LIBPFM_FORCE_PMU names one for it).  The code is libpfm4's
 * PFM_OS_NONE encoding: the event select as the hardware takes it, which is what
 * perfmon's event-select PMCs take.  Intel's fixed-counter-only pseudo events
 * (event code 0, unit mask j + 1: UNHALTED_REFERENCE_CYCLES) go to fixed counter j.
 *
 * Link with -lpfm.  The functions return 0, or -1 with errno set.
 */
#ifndef _LIBPERFMON_EVENTS_H
#define _LIBPERFMON_EVENTS_H

#include <stdint.h>
#include <perfmon/perfmon.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Privilege levels, as libpfm4's PFM_PLM3 and PFM_PLM0. */
#define PFMG_PLM_USR	0x1
#define PFMG_PLM_OS	0x2

struct pfmg_event {
	uint64_t code;		/* event select, or the fixed counter's control bits */
	int fixed;		/* fixed counter index, or -1 for a general-purpose one */
};

/*
 * name at the levels plm (the name's own :u/:k modifiers win).  ENOENT: no such
 * event on an active PMU; EINVAL: a bad modifier, or no level; ENODEV: libpfm4
 * found no PMU.
 */
int pfmg_encode(const char *name, unsigned int plm, struct pfmg_event *ev);

/*
 * Registers for n events with num_gp general-purpose and num_fixed fixed counters:
 * the PMC writes (one per general-purpose event, one for the fixed-counter
 * control if any fixed counter is used; *npmc of them, with room for n + 1) and
 * the PMD of each event.  ENOSPC: not enough counters, or a fixed counter twice.
 */
int pfmg_assign(const struct pfmg_event *ev, unsigned int n, unsigned int num_gp,
		unsigned int num_fixed, struct pfarg_pmc *pmc, unsigned int *npmc,
		uint16_t *pmd);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPERFMON_EVENTS_H */
