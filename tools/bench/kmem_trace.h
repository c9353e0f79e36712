/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel memory a stretch of a program takes and keeps, object by object:
 * the kmem and percpu tracepoints of the guest's kernel, recorded from
 * kmem_trace_start() to kmem_trace_stop(), then matched in pairs.
 *
 * Counting slab objects (what each allocation got, bytes_alloc) rather than the
 * slabs and pages the allocator took gives the same figure for one object as for
 * a thousand: a slab cache grows by whole slabs, so the pages one object takes
 * are either none or a slab of several.  What the stretch allocates and frees
 * again counts nothing; what it frees that was there before is not counted
 * either (its size is not in the trace).
 *
 *   objects  slab objects, kmalloc()'s large allocations included
 *   pages    pages from the page allocator that no slab object of the stretch
 *            lies in (page tables, buffers, pages a driver takes itself)
 *   percpu   per-CPU allocations, all CPUs' copies
 *
 * Needs tracefs at /sys/kernel/tracing (kmem_raw.h reads it) and one kernel
 * virtual address for all slab objects' pages, the direct map, covering physical
 * memory within its first GiB (the guest has 1 GiB): an object's page is found
 * from its address.
 */
#ifndef _PFM_BENCH_KMEM_TRACE_H
#define _PFM_BENCH_KMEM_TRACE_H

#include <stddef.h>

enum { KT_OBJECTS, KT_PAGES, KT_PERCPU, KT_N };
extern const char *const kmem_trace_name[KT_N];

/* the events on, the ring buffer of buffer_kb per CPU; dies on failure */
void kmem_trace_init(unsigned int buffer_kb);
void kmem_trace_start(void);
/* bytes[KT_*]: what the stretch took and kept; dies if the ring buffer lost events */
void kmem_trace_stop(long long *bytes);
/*
 * The last stretch's objects by call site, and its pages by their flags, per
 * thread (or per event ...: divided by per): all of them on stdout, or the n
 * largest in buf, "site bytes, ...".
 */
void kmem_trace_print_sites(long long per);
void kmem_trace_top(char *buf, size_t len, long long per, int n);

#endif /* _PFM_BENCH_KMEM_TRACE_H */
