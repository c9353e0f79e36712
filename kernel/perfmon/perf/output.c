// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: where a perf event's records go: its ring's lifetime, mmap() and
 * munmap(), PERF_EVENT_IOC_SET_OUTPUT, poll(), as Linux 6.1 has them.
 *
 * An event's output is a ring (ev->ring): the one its own first mmap() made, or
 * the one SET_OUTPUT named, another event's.  perf record opens one event per
 * CPU and per event of its list, maps the first of each CPU and sends the
 * others' records into that ring.  A ring is counted twice: references (the
 * events attached to it) keep its memory, mappings (through any event) keep it
 * attached.  As in the kernel:
 *   - an event's last munmap() detaches it from its ring; a ring's last one
 *     detaches every event redirected into it, so that a ring nobody can read
 *     takes no record, and the next mmap() makes a fresh one, of any size;
 *   - SET_OUTPUT(fd) needs an fd of this layer (EBADF), another event (EINVAL)
 *     on the same CPU (EINVAL), of the same thread if that CPU is -1 (EINVAL),
 *     with the same clock and direction (EINVAL), an event of its own without a
 *     mapping (EINVAL), and a ring mapped now (EINVAL); SET_OUTPUT(-1) detaches.
 *     A redirected event mapped with its ring's size maps that ring.
 * Writers find a ring under RCU (the overflow path has interrupts off), so a
 * ring's memory goes only after a grace period, from a work item: its charge
 * goes at its last put.  Attaching and detaching take
 * pfm_perf_output_mutex, after mmap_lock (mmap() and munmap() hold it), never
 * with a context's mutex.
 *
 * poll() waits on the event's own queue; a ring's wakeup wakes every event
 * attached to it, and says EPOLLIN once (to whichever event is polled first).
 */
#include <linux/file.h>
#include <linux/mm.h>
#include <linux/rculist.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "layer.h"
#include "event.h"
#include "ring.h"

static DEFINE_MUTEX(pfm_perf_output_mutex);

void pfm_perf_output_init(struct pfm_perf_event *ev)
{
	INIT_LIST_HEAD(&ev->ring_entry);
	init_waitqueue_head(&ev->wait);
}

/* ev's ring with a reference, or NULL; the caller may sleep with it. */
struct pfm_perf_ring *pfm_perf_ring_get(const struct pfm_perf_event *ev)
{
	struct pfm_perf_ring *r;

	rcu_read_lock();
	r = pfm_perf_out_ring(ev);
	if (r && !refcount_inc_not_zero(&r->ref))
		r = NULL;
	rcu_read_unlock();
	return r;
}

/* Rings whose memory waits for a grace period; drained at the layer's exit. */
static struct workqueue_struct *pfm_perf_free_wq;

static void pfm_perf_ring_free_work(struct work_struct *work)
{
	pfm_perf_ring_destroy(container_of(to_rcu_work(work), struct pfm_perf_ring, free_work));
}

/*
 * The last reference: the ring's charge is given back now, its memory once the
 * writers that may still hold it are gone.  The caller does not wait for them: a
 * grace period is a scheduler tick or more, and perf tools close and unmap many
 * rings (perf_events frees its rings by RCU too).
 */
void pfm_perf_ring_put(struct pfm_perf_ring *r)
{
	if (!r || !refcount_dec_and_test(&r->ref))
		return;
	pfm_smpl_buf_uncharge(&r->buf);
	INIT_RCU_WORK(&r->free_work, pfm_perf_ring_free_work);
	queue_rcu_work(pfm_perf_free_wq, &r->free_work);
}

int pfm_perf_output_layer_init(void)
{
	pfm_perf_free_wq = alloc_workqueue("pfm_perf_free", 0, 0);
	return pfm_perf_free_wq ? 0 : -ENOMEM;
}

/* No event is left: the rings put last are freed before the module goes. */
void pfm_perf_output_layer_exit(void)
{
	rcu_barrier();
	destroy_workqueue(pfm_perf_free_wq);
}

/*
 * ev's output becomes r (whose reference the caller gives), or none; the ring
 * it leaves is returned with its reference, to be put without the mutex.
 */
static struct pfm_perf_ring *pfm_perf_attach(struct pfm_perf_event *ev,
					     struct pfm_perf_ring *r)
{
	struct pfm_perf_ring *old = rcu_dereference_protected(ev->ring,
					lockdep_is_held(&pfm_perf_output_mutex));
	unsigned long flags;

	if (old) {
		raw_spin_lock_irqsave(&old->evs_lock, flags);
		list_del_init(&ev->ring_entry);
		raw_spin_unlock_irqrestore(&old->evs_lock, flags);
	}
	if (r) {
		raw_spin_lock_irqsave(&r->evs_lock, flags);
		list_add_tail(&ev->ring_entry, &r->evs);
		raw_spin_unlock_irqrestore(&r->evs_lock, flags);
	}
	rcu_assign_pointer(ev->ring, r);
	/* a poller of ev looks again: its ring changed */
	wake_up_all(&ev->wait);
	return old;
}

static void pfm_perf_vm_open(struct vm_area_struct *vma)
{
	struct pfm_perf_event *ev = vma->vm_file->private_data;

	/* a mapping exists: ev's ring cannot change under it */
	atomic_inc(&ev->mmap_count);
	atomic_inc(&rcu_dereference_protected(ev->ring, 1)->mmap_count);
}

/* A mapping goes: the last of ev's detaches ev, the last of its ring all others. */
static void pfm_perf_vm_close(struct vm_area_struct *vma)
{
	struct pfm_perf_event *ev = vma->vm_file->private_data, *o;
	struct pfm_perf_ring *r;
	unsigned int puts = 0;

	mutex_lock(&pfm_perf_output_mutex);
	r = rcu_dereference_protected(ev->ring, 1);
	refcount_inc(&r->ref);		/* kept until the mutex is dropped */
	if (atomic_dec_and_test(&ev->mmap_count))
		puts += pfm_perf_attach(ev, NULL) == r;
	if (atomic_dec_and_test(&r->mmap_count)) {
		while (!list_empty(&r->evs)) {
			o = list_first_entry(&r->evs, struct pfm_perf_event, ring_entry);
			puts += pfm_perf_attach(o, NULL) == r;
		}
	}
	mutex_unlock(&pfm_perf_output_mutex);
	/* the attached events' references: never the last, ours is held */
	while (puts--)
		refcount_dec(&r->ref);
	pfm_perf_ring_put(r);
}

/* Splitting would break the counts open() and close() keep (as perf does). */
static int pfm_perf_vm_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

static const struct vm_operations_struct pfm_perf_vm_ops = {
	.open = pfm_perf_vm_open,
	.close = pfm_perf_vm_close,
	.may_split = pfm_perf_vm_may_split,
};

/*
 * mmap() of 1 + 2^n pages: the ring ev's output goes to, made now if it has
 * none; a ring that exists is mapped only with its size.  mmap_lock is held.
 */
int pfm_perf_output_mmap(struct pfm_perf_event *ev, struct vm_area_struct *vma)
{
	unsigned long size = vma->vm_end - vma->vm_start;
	unsigned long data_pages = (size >> PAGE_SHIFT) - 1;
	struct pfm_perf_ring *r, *fresh = NULL;
	int ret;

	if (size < PAGE_SIZE || (data_pages && !is_power_of_2(data_pages)))
		return -EINVAL;
	mutex_lock(&pfm_perf_output_mutex);
	r = rcu_dereference_protected(ev->ring, 1);
	if (!r) {
		fresh = pfm_perf_ring_alloc(ev, data_pages, vma->vm_flags & VM_WRITE);
		ret = PTR_ERR(fresh);
		if (IS_ERR(fresh))
			goto out;
		r = fresh;
	}
	ret = -EINVAL;
	if (r->data_size != (u64)data_pages << PAGE_SHIFT)
		goto out;
	/* as perf: a forked child neither keeps the ring nor moves its tail */
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	ret = remap_vmalloc_range(vma, r->buf.addr, 0);
	if (ret)
		goto out;
	if (fresh)
		pfm_perf_attach(ev, fresh);
	fresh = NULL;
	vma->vm_ops = &pfm_perf_vm_ops;
	atomic_inc(&ev->mmap_count);
	atomic_inc(&r->mmap_count);
out:
	mutex_unlock(&pfm_perf_output_mutex);
	if (!IS_ERR_OR_NULL(fresh))
		pfm_perf_ring_destroy(fresh);	/* never seen by a writer */
	return ret;
}

/* What perf_event_set_output() refuses before it looks at the mappings. */
static int pfm_perf_output_check(const struct pfm_perf_event *ev,
				 const struct pfm_perf_event *out)
{
	const struct perf_event_attr *a = &ev->attr, *b = &out->attr;

	if (out == ev)
		return -EINVAL;			/* no circular reference */
	if (out->cpu != ev->cpu)
		return -EINVAL;			/* no ring across CPUs */
	if (out->cpu == -1 && out->target->task != ev->target->task)
		return -EINVAL;			/* a per-thread ring is the thread's */
	if (a->use_clockid != b->use_clockid || (a->use_clockid && a->clockid != b->clockid))
		return -EINVAL;			/* one clock per ring */
	if (a->write_backward != b->write_backward)
		return -EINVAL;			/* one direction per ring */
	return 0;
}

/* PERF_EVENT_IOC_SET_OUTPUT: ev's records go to out's ring, or (NULL) nowhere. */
long pfm_perf_set_output(struct pfm_perf_event *ev, struct pfm_perf_event *out)
{
	struct pfm_perf_ring *r = NULL;
	long ret;

	if (out) {
		ret = pfm_perf_output_check(ev, out);
		if (ret)
			return ret;
	}
	mutex_lock(&pfm_perf_output_mutex);
	ret = -EINVAL;
	if (atomic_read(&ev->mmap_count))
		goto out;			/* its own mapping shows its ring */
	if (out) {
		r = rcu_dereference_protected(out->ring, 1);
		if (!r || !atomic_read(&r->mmap_count))
			goto out;		/* no ring anyone reads */
		refcount_inc(&r->ref);
	}
	r = pfm_perf_attach(ev, r);
	ret = 0;
out:
	mutex_unlock(&pfm_perf_output_mutex);
	if (!ret)
		pfm_perf_ring_put(r);
	return ret;
}

/* ev is being freed: no mapping of it is left (each holds its file). */
void pfm_perf_output_release(struct pfm_perf_event *ev)
{
	struct pfm_perf_ring *r;

	mutex_lock(&pfm_perf_output_mutex);
	r = pfm_perf_attach(ev, NULL);
	mutex_unlock(&pfm_perf_output_mutex);
	pfm_perf_ring_put(r);
}

/* POLLIN once a wakeup of its ring came; POLLHUP without a ring, as perf says. */
__poll_t pfm_perf_ring_poll(struct pfm_perf_event *ev, struct file *file, poll_table *wait)
{
	struct pfm_perf_ring *r;
	__poll_t ret = EPOLLHUP;

	poll_wait(file, &ev->wait, wait);
	rcu_read_lock();
	r = pfm_perf_out_ring(ev);
	if (r)
		ret = atomic_xchg(&r->poll, 0);
	rcu_read_unlock();
	return ret;
}

/*
 * The user page of ev's ring shows ev's count and times (as the kernel's
 * userpage update does, also into a ring SET_OUTPUT shares); the sequence
 * count is odd while the fields change.
 */
void pfm_perf_update_page(struct pfm_perf_event *ev, const struct pfm_perf_value *v)
{
	struct perf_event_mmap_page *pg;
	struct pfm_perf_ring *r;

	rcu_read_lock();
	r = pfm_perf_out_ring(ev);
	if (!r)
		goto out;
	pg = r->page;
	WRITE_ONCE(pg->lock, pg->lock + 1);
	barrier();
	pg->index = 0;
	pg->offset = v->count;
	pg->time_enabled = v->ena_ns;
	pg->time_running = v->run_ns;
	pg->pmc_width = 64;
	barrier();
	WRITE_ONCE(pg->lock, pg->lock + 1);
out:
	rcu_read_unlock();
}
