// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: perf's ring buffer, as a sampling format of the core.
 *
 * perf has a ring per event fd, perfmon a sampling buffer per context.  The
 * perf layer's contexts (one per monitored thread, target.c) use the
 * "perf_ring" format, which the core drives like any other: a sampling PMD
 * overflows, ovfl.c calls the format's handler, then resets the PMD to its
 * short reset value (-period).  The format's buffer is not where samples go but
 * a routing table, (set, PMD) -> the perf event that owns that counter there
 * (each event set has its own PMDs: sched.c); the handler
 * hands the overflow to the event (sample.c), which writes its record into
 * the ring of the event that receives its output: its own, or for an inherited
 * copy the opened event's.  The handler never asks the core to mask: a record
 * that does not fit is counted and reported by a PERF_RECORD_LOST, as perf does.
 *
 * The ring itself is made by the event's first mmap(): 1 + 2^n pages (n >= 0, or
 * the user page alone), counted as sampling memory (smpl_buf.c) and charged to
 * locked memory by perf_mmap()'s rule (pfm_perf_ring_mlock, below); its lifetime,
 * SET_OUTPUT and poll() are output.c's.  Writers (the overflow path of any thread of the
 * family, interrupts off) are serialised by the ring's lock; data_head is
 * published with release semantics after the record is whole, data_tail is read
 * before the space check when the ring is mapped writable (else the ring
 * overwrites, as perf's read-only mappings do).  Wakeups come at the watermark
 * (attr.wakeup_watermark bytes with attr.watermark, half the ring otherwise) or
 * every attr.wakeup_events samples, and make poll() say EPOLLIN once.
 *
 * attr.write_backward (perf record --overwrite) writes as 6.1's
 * perf_output_begin_backward(): each record (a LOST before it included) goes
 * just below the last, data_head going down from 0 (mod 2^64) to the newest
 * record's start, so that a reader walks from data_head up, newest first; the
 * space check of a writable mapping is the reverse one (tail to head), and the
 * watermark counts the bytes written (-head).
 */
#include <linux/capability.h>
#include <linux/circ_buf.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "layer.h"
#include "counters.h"
#include "event.h"
#include "perf.h"
#include "ring.h"
#include "sample.h"

#define PFM_PERF_SMPL_NAME	"perf_ring"

/* ---- the format ------------------------------------------------------------- */

static int pfm_perf_smpl_validate(u32 ctx_flags, const void *arg)
{
	return 0;
}

static u64 pfm_perf_smpl_getsize(const void *arg)
{
	return sizeof(struct pfm_perf_routes);
}

static void pfm_perf_smpl_init_buf(void *buf, size_t size, const void *arg)
{
}

static bool pfm_perf_smpl_handler(struct pfm_smpl_buf *b, struct pfm_context *ctx,
				  struct pfm_event_set *set, unsigned int pmd)
{
	struct pfm_perf_event *ev = pfm_perf_route_find(b->addr, set->id, pmd);

	if (ev)
		pfm_perf_sample_overflow(ev, ctx, set, pmd);
	return false;
}

static struct pfm_smpl_fmt pfm_perf_smpl_fmt = {
	.name = PFM_PERF_SMPL_NAME,
	.version = 0x10000,
	.validate = pfm_perf_smpl_validate,
	.getsize = pfm_perf_smpl_getsize,
	.init = pfm_perf_smpl_init_buf,
	.handler = pfm_perf_smpl_handler,
	.kernel_only = true,
	.owner = THIS_MODULE,
};

int pfm_perf_smpl_init(void)
{
	return pfm_smpl_fmt_register(&pfm_perf_smpl_fmt);
}

void pfm_perf_smpl_exit(void)
{
	pfm_smpl_fmt_unregister(&pfm_perf_smpl_fmt);
}

/*
 * ev's overflows in set s go to ev (on) or nowhere (off); ctx->mutex held.  The target's
 * context takes the format with its first sampling event: a context that never
 * samples charges nothing.
 */
int pfm_perf_route(struct pfm_perf_event *ev, unsigned int s, bool on)
{
	struct pfm_context *ctx = ev->target->ctx;
	struct pfm_smpl_buf nb;
	unsigned long flags;
	int ret;

	if (on && !pfm_ctx_smpl(ctx)->fmt) {
		ret = pfm_smpl_setup_kernel(&nb, PFM_PERF_SMPL_NAME, NULL);
		if (ret)
			return ret;
		raw_spin_lock_irqsave(pfm_ctx_lock(ctx), flags);
		*pfm_ctx_smpl(ctx) = nb;
		raw_spin_unlock_irqrestore(pfm_ctx_lock(ctx), flags);
	}
	if (pfm_ctx_smpl(ctx)->fmt != &pfm_perf_smpl_fmt)
		return on ? -EINVAL : 0;
	raw_spin_lock_irqsave(pfm_ctx_lock(ctx), flags);
	pfm_perf_route_set(pfm_ctx_smpl(ctx)->addr, s, ev->counter, on ? ev : NULL);
	raw_spin_unlock_irqrestore(pfm_ctx_lock(ctx), flags);
	return 0;
}

/* ---- the ring --------------------------------------------------------------- */

/* Every event whose output is this ring is woken, as perf wakes an rb's events. */
static void pfm_perf_ring_wake(struct irq_work *w)
{
	struct pfm_perf_ring *r = container_of(w, struct pfm_perf_ring, wake_work);
	struct pfm_perf_event *ev;
	unsigned long flags;

	raw_spin_lock_irqsave(&r->evs_lock, flags);
	list_for_each_entry(ev, &r->evs, ring_entry)
		wake_up_all(&ev->wait);
	raw_spin_unlock_irqrestore(&r->evs_lock, flags);
}

/* perf_event_mlock_kb's default: 512 KiB and the control page, per CPU */
unsigned long pfm_perf_mlock_kb = 512 + (PAGE_SIZE >> 10);

/*
 * A ring's pages, as perf_mmap() charges them, so that perf tools see perf's errno
 * and advice: the user's locked_vm up to perf_mlock_kb per online CPU, what is over
 * to the mapping process's pinned_vm, which RLIMIT_MEMLOCK bounds; past that EPERM,
 * unless perfmon is not paranoid (-1, as perf_is_paranoid()) or the caller has
 * CAP_IPC_LOCK.
 */
static int pfm_perf_ring_charge(struct pfm_smpl_buf *b, unsigned long pages)
{
	struct pfm_perf_ring *r = container_of(b, struct pfm_perf_ring, buf);
	unsigned long allow = (READ_ONCE(pfm_perf_mlock_kb) >> (PAGE_SHIFT - 10)) *
			      num_online_cpus();
	struct user_struct *user = get_current_user();
	unsigned long locked = atomic_long_read(&user->locked_vm), extra = 0;

	/* the allowance may have been lowered below what the user has */
	locked = min(locked, allow) + pages;
	if (locked > allow)
		extra = locked - allow;
	if (atomic64_read(&current->mm->pinned_vm) + extra >
	    rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT &&
	    pfm_paranoid_level() > -1 && !capable(CAP_IPC_LOCK)) {
		free_uid(user);
		return -EPERM;
	}
	atomic_long_add(pages - extra, &user->locked_vm);
	b->user = user;
	b->charged_pages = pages - extra;
	if (extra) {
		atomic64_add(extra, &current->mm->pinned_vm);
		mmgrab(current->mm);
		r->mm = current->mm;
		r->pinned_pages = extra;
	}
	return 0;
}

static void pfm_perf_ring_uncharge(struct pfm_smpl_buf *b)
{
	struct pfm_perf_ring *r = container_of(b, struct pfm_perf_ring, buf);

	if (r->mm) {
		atomic64_sub(r->pinned_pages, &r->mm->pinned_vm);
		mmdrop(r->mm);
		r->mm = NULL;
		r->pinned_pages = 0;
	}
	pfm_smpl_uncharge_user(b);
}

static const struct pfm_smpl_charge pfm_perf_ring_mlock = {
	.charge = pfm_perf_ring_charge,
	.uncharge = pfm_perf_ring_uncharge,
};

/* A ring for ev's first mapping, one reference held (output.c). */
struct pfm_perf_ring *pfm_perf_ring_alloc(const struct pfm_perf_event *ev,
					  unsigned long data_pages, bool writable)
{
	struct pfm_perf_ring *r;
	u64 max;
	int ret;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	ret = pfm_smpl_buf_alloc(&r->buf, (1 + data_pages) << PAGE_SHIFT, &pfm_perf_ring_mlock);
	if (ret) {
		kfree(r);
		return ERR_PTR(ret);
	}
	r->page = r->buf.addr;
	r->data = r->buf.addr + PAGE_SIZE;
	r->data_size = (u64)data_pages << PAGE_SHIFT;
	r->writable = writable;
	r->backward = ev->attr.write_backward;	/* SET_OUTPUT keeps one direction */
	raw_spin_lock_init(&r->lock);
	refcount_set(&r->ref, 1);
	raw_spin_lock_init(&r->evs_lock);
	INIT_LIST_HEAD(&r->evs);
	init_irq_work(&r->wake_work, pfm_perf_ring_wake);
	max = r->data_size;
	r->watermark = ev->attr.watermark ? min_t(u64, max, ev->attr.wakeup_watermark) : 0;
	if (!r->watermark)
		r->watermark = max / 2;
	r->page->pmc_width = 64;	/* index 0: no user-mode read */
	r->page->data_offset = PAGE_SIZE;
	r->page->data_size = r->data_size;
	return r;
}

/* No writer can reach the ring any more (output.c waited for them). */
void pfm_perf_ring_destroy(struct pfm_perf_ring *r)
{
	irq_work_sync(&r->wake_work);
	pfm_smpl_buf_free(&r->buf);
	kfree(r);
}

/*
 * The ring ev's records go to: an inherited copy's go to the opened event's.
 * Under RCU (interrupts off will do): a ring SET_OUTPUT or munmap() took away
 * is freed after a grace period (output.c).
 */
struct pfm_perf_ring *pfm_perf_out_ring(const struct pfm_perf_event *ev)
{
	const struct pfm_perf_event *o = ev->parent ? ev->parent : ev;

	return rcu_dereference_check(o->ring, 1);
}

/* PAUSE_OUTPUT: while paused, records are lost (and counted); EINVAL without a ring. */
int pfm_perf_ring_pause(struct pfm_perf_event *ev, unsigned long arg)
{
	struct pfm_perf_ring *r;
	unsigned long flags;
	int ret = -EINVAL;

	rcu_read_lock();
	r = pfm_perf_out_ring(ev);
	if (r && r->data_size) {
		raw_spin_lock_irqsave(&r->lock, flags);
		r->paused = !!arg;
		raw_spin_unlock_irqrestore(&r->lock, flags);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}

/*
 * Copies len bytes at the ring position pos, across the end if need be.  Records
 * are whole u64 words at word positions (their sizes are, and the head moves by
 * them): copied a word at a time, a sample's few words cost less than memcpy()'s
 * setup (and its byte-counting string move).
 */
static void pfm_perf_ring_copy(struct pfm_perf_ring *r, u64 pos, const u64 *src,
			       size_t len)
{
	u64 *data = r->data;
	size_t mask = (r->data_size >> 3) - 1, i, at = pos >> 3;

	for (i = 0; i < len >> 3; i++)
		data[(at + i) & mask] = src[i];
}

/* The PERF_RECORD_LOST that precedes the next record, in w; its size in bytes. */
static unsigned int pfm_perf_lost_record(const struct pfm_perf_event *ev, u64 lost, u64 *w)
{
	struct perf_event_header *h = (struct perf_event_header *)w;
	unsigned int n = 1;

	w[n++] = ev->id;
	w[n++] = lost;
	n += pfm_perf_id_trailer(ev, w + n);
	h->type = PERF_RECORD_LOST;
	h->misc = 0;
	h->size = n * sizeof(u64);
	return h->size;
}

static void pfm_perf_ring_wakeup(struct pfm_perf_ring *r)
{
	atomic_set(&r->poll, EPOLLIN);
	irq_work_queue(&r->wake_work);
}

/*
 * Writes the record rec (its header first, sizes in u64 words) into r, whole or
 * not at all, after the LOST record lrec of lsize bytes if lsize; r->lock held.
 */
static __always_inline void pfm_perf_ring_store(struct pfm_perf_event *ev,
						struct pfm_perf_ring *r, const u64 *rec,
						bool sample, const u64 *lrec, unsigned int lsize)
{
	const struct perf_event_header *h = (const void *)rec;
	unsigned int size = lsize + h->size;
	u64 tail, space, pos, written;
	bool wake = false;

	if (r->writable) {
		tail = READ_ONCE(r->page->data_tail);
		/* the reader's loads of the data before its store of the tail */
		smp_mb();
		space = r->backward ? CIRC_SPACE(tail, r->head, r->data_size) :
				      CIRC_SPACE(r->head, tail, r->data_size);
		if (space < size) {
			r->lost++;
			return;
		}
	}
	/* backward: the block ends at the head, which goes down to its start */
	pos = r->backward ? r->head - size : r->head;
	r->head = r->backward ? pos : r->head + size;
	if (lsize) {
		pfm_perf_ring_copy(r, pos, lrec, lsize);
		r->lost = 0;
	}
	pfm_perf_ring_copy(r, pos + lsize, rec, h->size);
	/* the record before the head that shows it */
	smp_store_release(&r->page->data_head, r->head);
	written = r->backward ? -r->head : r->head;
	if (written - r->wakeup > r->watermark) {
		r->wakeup += r->watermark;
		wake = true;
	}
	if (sample && !ev->attr.watermark && ev->attr.wakeup_events &&
	    ++r->events >= ev->attr.wakeup_events) {
		r->events -= ev->attr.wakeup_events;
		wake = true;
	}
	if (wake)
		pfm_perf_ring_wakeup(r);
}

/* The same after records were lost: a LOST record first (out of line, seldom). */
static noinline void pfm_perf_ring_put_lost(struct pfm_perf_event *ev, struct pfm_perf_ring *r,
					    const u64 *rec, bool sample)
{
	u64 lrec[16];

	pfm_perf_ring_store(ev, r, rec, sample, lrec, pfm_perf_lost_record(ev, r->lost, lrec));
}

/* A record into r, r->lock held: whole, or lost and counted. */
static __always_inline void pfm_perf_ring_put_locked(struct pfm_perf_event *ev,
						     struct pfm_perf_ring *r, const u64 *rec,
						     bool sample)
{
	if (r->paused)
		r->lost++;
	else if (unlikely(r->lost))
		pfm_perf_ring_put_lost(ev, r, rec, sample);
	else
		pfm_perf_ring_store(ev, r, rec, sample, NULL, 0);
}

/*
 * Writes the record rec into the ring ev's output goes to (a record that is
 * not a sample); interrupts may be on or off.
 */
void pfm_perf_ring_write(struct pfm_perf_event *ev, const u64 *rec)
{
	struct pfm_perf_ring *r;
	unsigned long flags;

	rcu_read_lock();
	r = pfm_perf_out_ring(ev);
	if (r && r->data_size) {
		raw_spin_lock_irqsave(&r->lock, flags);
		pfm_perf_ring_put_locked(ev, r, rec, false);
		raw_spin_unlock_irqrestore(&r->lock, flags);
	}
	rcu_read_unlock();
}

/*
 * The same for a sample, on the overflow path: interrupts are off, which keeps
 * the ring (an RCU reader, output.c) and leaves nothing to save around its lock.
 */
void pfm_perf_ring_write_irqs_off(struct pfm_perf_event *ev, const u64 *rec)
{
	struct pfm_perf_ring *r = pfm_perf_out_ring(ev);

	lockdep_assert_irqs_disabled();
	if (!r || !r->data_size)
		return;
	raw_spin_lock(&r->lock);
	pfm_perf_ring_put_locked(ev, r, rec, true);
	raw_spin_unlock(&r->lock);
}
