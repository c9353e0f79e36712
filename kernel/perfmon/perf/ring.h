/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: a perf event's ring: the layer's sampling format and the rings'
 * memory and records (ring.c); where an event's records go, its mappings,
 * SET_OUTPUT and poll() (output.c).
 */
#ifndef _PERFMON_PERF_RING_H
#define _PERFMON_PERF_RING_H

#include <linux/irq_work.h>
#include <linux/perf_event.h>
#include <linux/poll.h>

#include "layer.h"

struct file;
struct pfm_perf_event;
struct pfm_perf_value;
struct vm_area_struct;

/* Executable mappings a ring remembers having reported (sideband.c). */
#define PFM_PERF_SB_KNOWN	32

/*
 * An event's mapping (ring.c): the user page, then 2^n data pages (none
 * for a one-page mapping) where records are written, whole, in order.
 */
struct pfm_perf_ring {
	struct pfm_smpl_buf buf;	/* the pages, charged as sampling memory */
	struct mm_struct *mm;		/* pinned_vm charged (perf_mmap()'s rule), or NULL */
	unsigned long pinned_pages;
	struct perf_event_mmap_page *page;
	void *data;
	u64 data_size;			/* 0 for a user page alone */
	bool writable;			/* mapped PROT_WRITE: data_tail is honoured */
	bool backward;			/* attr.write_backward: head goes down from 0 */
	raw_spinlock_t lock;		/* writers, from any thread of the family */
	u64 head;			/* where the next record goes (backward: ends) */
	u64 lost;			/* records dropped since the last LOST */
	u64 wakeup;			/* head at the last watermark wakeup */
	u64 watermark;			/* bytes between wakeups */
	unsigned int events;		/* samples since the last wakeup */
	bool paused;			/* PAUSE_OUTPUT: records are lost */
	atomic_t poll;			/* EPOLLIN once a wakeup came */
	struct irq_work wake_work;	/* wakes the readers from any context */
	struct rcu_work free_work;	/* its memory, after the writers' grace period */
	/* its lifetime and readers (output.c) */
	refcount_t ref;			/* the events attached */
	atomic_t mmap_count;		/* mappings of it, through any event */
	raw_spinlock_t evs_lock;	/* evs: changed under the output mutex too */
	struct list_head evs;		/* the events attached, woken at a wakeup */
	unsigned int nr_known;		/* mappings reported (sideband.c), lock */
	struct { u64 start, end; } known[PFM_PERF_SB_KNOWN];
};

/* ring.c: the layer's sampling format, and its rings' memory */
struct pfm_perf_ring *pfm_perf_ring_alloc(const struct pfm_perf_event *ev,
					  unsigned long data_pages, bool writable);
void pfm_perf_ring_destroy(struct pfm_perf_ring *r);
void pfm_perf_ring_write(struct pfm_perf_event *ev, const u64 *rec);
void pfm_perf_ring_write_irqs_off(struct pfm_perf_event *ev, const u64 *rec);
int pfm_perf_route(struct pfm_perf_event *ev, unsigned int s, bool on);
struct pfm_perf_ring *pfm_perf_out_ring(const struct pfm_perf_event *ev);
int pfm_perf_ring_pause(struct pfm_perf_event *ev, unsigned long arg);

/* output.c */
void pfm_perf_output_init(struct pfm_perf_event *ev);
int pfm_perf_output_mmap(struct pfm_perf_event *ev, struct vm_area_struct *vma);
long pfm_perf_set_output(struct pfm_perf_event *ev, struct pfm_perf_event *out);
void pfm_perf_output_release(struct pfm_perf_event *ev);
struct pfm_perf_ring *pfm_perf_ring_get(const struct pfm_perf_event *ev);
void pfm_perf_ring_put(struct pfm_perf_ring *r);
int pfm_perf_output_layer_init(void);
void pfm_perf_output_layer_exit(void);
__poll_t pfm_perf_ring_poll(struct pfm_perf_event *ev, struct file *file, poll_table *wait);
void pfm_perf_update_page(struct pfm_perf_event *ev, const struct pfm_perf_value *v);

#endif /* _PERFMON_PERF_RING_H */
