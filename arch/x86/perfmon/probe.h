/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon x86: what the module's initialisation (kernel/perfmon/main.c) calls.
 *
 * pfm_x86_probe() registers the hardware PMU unit of this CPU, if it has one that
 * works, before the software unit; otherwise it logs why and registers nothing.
 * It never fails the module.  pfm_x86_remove() undoes it, after the units are gone.
 */
#ifndef _PFM_X86_PROBE_H
#define _PFM_X86_PROBE_H

int pfm_x86_probe(void);
void pfm_x86_remove(void);

#endif /* _PFM_X86_PROBE_H */
