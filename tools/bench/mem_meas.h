/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's memory, as the memory benchmarks measure it (mem_bench, memscale):
 * a snapshot of three counters, taken after the kernel's deferred frees settled.
 *
 *   slab     /proc/slabinfo: the sum of active objects times their size
 *   vmalloc  /proc/meminfo VmallocUsed
 *   total    minus the free pages (/proc/zoneinfo, the per-CPU lists' included),
 *            in bytes: a rise is pages taken, whatever took them (slab, vmalloc,
 *            page tables, mapped buffers)
 */
#ifndef _PFM_BENCH_MEM_MEAS_H
#define _PFM_BENCH_MEM_MEAS_H

enum { M_SLAB, M_VMALLOC, M_TOTAL, NMEAS };
extern const char *const mem_meas_name[NMEAS];

/* m[M_*] now, in bytes; sleeps 0.3 s first (RCU and deferred frees) */
void mem_now(long long *m);

/* a /proc/meminfo field, in kB, or -1 */
long long meminfo_kb(const char *field);

#endif /* _PFM_BENCH_MEM_MEAS_H */
