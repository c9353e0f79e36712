/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kmem and percpu tracepoints' events as the ring buffer holds them
 * (tracefs per_cpu/cpuN/trace_pipe_raw: pages of binary events, their fields
 * where each event's format file puts them), and the kernel's text symbols
 * (/proc/kallsyms) to name their call sites.  kmem_trace.c matches them.
 */
#ifndef _PFM_BENCH_KMEM_RAW_H
#define _PFM_BENCH_KMEM_RAW_H

#include <stdint.h>

#define KMEM_TRACEFS	"/sys/kernel/tracing/"

enum kr_what { KR_ALLOC, KR_FREE, KR_PERCPU_ALLOC, KR_PERCPU_FREE, KR_PAGE_ALLOC, KR_PAGE_FREE };

/* ptr: the object's address, or the page's frame number; bytes: or the page's order */
struct kmem_raw_event {
	uint64_t ts, seq;
	enum kr_what what;
	uint64_t ptr, call_site;
	long long bytes;
};

/*
 * The events on (not yet recording), raw addresses, a ring buffer of buffer_kb
 * per CPU, the symbols read: how many.  Dies on failure.
 */
int kmem_raw_init(unsigned int buffer_kb);
/* the ring buffers emptied */
void kmem_raw_clear(void);
/* fn on every recorded event, in time order; dies if events were lost */
void kmem_raw_read(void (*fn)(const struct kmem_raw_event *ev));

/* The index of the text symbol addr lies in (or -1), its name. */
int kmem_raw_symbol(uint64_t addr);
const char *kmem_raw_symbol_name(int i);

#endif /* _PFM_BENCH_KMEM_RAW_H */
