// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the side-band records perf report needs to name what was sampled:
 * PERF_RECORD_COMM (with PERF_RECORD_MISC_COMM_EXEC) and PERF_RECORD_MMAP2 (or
 * MMAP) of the monitored thread's executable mappings.
 *
 * A module has no hook on mmap(), and the overflow path cannot read the address
 * space (interrupts off, perhaps a timer interrupt).  So mappings are reported
 * from the thread itself, in process context, where its mm can be read:
 *   - at an exec that enables events (enable_on_exec: perf record's workload),
 *     COMM and every executable mapping the new image has (the program and its
 *     interpreter);
 *   - after a sample whose IP falls in no mapping the ring has been told of (a
 *     library the dynamic loader mapped later, a JIT), a task_work item on the
 *     sampled thread, before it returns to user mode, reports every executable
 *     mapping not yet reported.  Its records carry (sample_id_all) the time of
 *     that sample less 1 ns, so that perf, which orders records by time, knows
 *     the mapping before the sample that revealed it.  Without TIME (perf record
 *     --per-thread) the first sample of each new mapping comes before its record
 *     in the ring and stays unresolved.
 * Each ring remembers the mappings it was told of (PFM_PERF_SB_KNOWN of them;
 * past that, new mappings are reported again); an exec forgets them.  FORK and
 * EXIT records are not written.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched/clock.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/task_work.h>

#include "layer.h"
#include "event.h"
#include "ring.h"
#include "sample.h"
#include "sideband.h"

/* Is addr in a mapping r was told of?  r->lock held. */
static bool pfm_perf_sb_known_locked(const struct pfm_perf_ring *r, u64 addr)
{
	unsigned int i;

	for (i = 0; i < r->nr_known; i++)
		if (addr >= r->known[i].start && addr < r->known[i].end)
			return true;
	return false;
}

static bool pfm_perf_sb_known(struct pfm_perf_ring *r, u64 addr, bool add, u64 end)
{
	unsigned long flags;
	bool known;

	raw_spin_lock_irqsave(&r->lock, flags);
	known = pfm_perf_sb_known_locked(r, addr);
	if (!known && add) {
		if (r->nr_known == PFM_PERF_SB_KNOWN)
			r->nr_known = 0;
		r->known[r->nr_known].start = addr;
		r->known[r->nr_known].end = end;
		r->nr_known++;
	}
	raw_spin_unlock_irqrestore(&r->lock, flags);
	return known;
}

static bool pfm_perf_sb_wants_mmap(const struct pfm_perf_event *ev)
{
	return ev->attr.mmap2 || ev->attr.mmap;
}

/*
 * One MMAP2 (or MMAP) record of vma for ev, in buf (a page and a path); the
 * trailer at time.
 */
static void pfm_perf_sb_mmap(struct pfm_perf_event *ev, struct vm_area_struct *vma,
			     u64 time, u64 *buf, char *path)
{
	struct perf_event_header *h = (struct perf_event_header *)buf;
	const char *name = "//anon";
	struct inode *inode = NULL;
	unsigned int n = 1;
	size_t len;

	if (vma->vm_file) {
		name = d_path(&vma->vm_file->f_path, path, PATH_MAX);
		if (IS_ERR(name))
			name = "//toolong";
		inode = file_inode(vma->vm_file);
	} else if (vma->vm_ops && vma->vm_ops->name) {
		/* a special mapping: "[vdso]" is how perf finds the vDSO's symbols */
		const char *special = vma->vm_ops->name(vma);

		if (special)
			name = special;
	}
	buf[n++] = (u64)(u32)task_tgid_vnr(current) | (u64)(u32)task_pid_vnr(current) << 32;
	buf[n++] = vma->vm_start;
	buf[n++] = vma->vm_end - vma->vm_start;
	buf[n++] = (u64)vma->vm_pgoff << PAGE_SHIFT;
	if (ev->attr.mmap2) {
		buf[n++] = inode ? (u64)MAJOR(inode->i_sb->s_dev) |
			   (u64)MINOR(inode->i_sb->s_dev) << 32 : 0;
		buf[n++] = inode ? inode->i_ino : 0;
		buf[n++] = inode ? inode->i_generation : 0;
		buf[n++] = (u64)(PROT_EXEC | (vma->vm_flags & VM_READ ? PROT_READ : 0) |
				 (vma->vm_flags & VM_WRITE ? PROT_WRITE : 0)) |
			   (u64)(vma->vm_flags & VM_SHARED ? MAP_SHARED : MAP_PRIVATE) << 32;
	}
	len = strlen(name) + 1;
	memset((char *)(buf + n), 0, ALIGN(len, sizeof(u64)));
	memcpy(buf + n, name, len);
	n += ALIGN(len, sizeof(u64)) / sizeof(u64);
	n += pfm_perf_id_trailer_at(ev, buf + n, time);
	h->type = ev->attr.mmap2 ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = n * sizeof(u64);
	pfm_perf_ring_write(ev, buf, false);
}

/*
 * Every executable mapping of the current thread (t's) that a ring of t's events
 * was not told of, with time on its trailer; ctx->mutex held.
 */
static void pfm_perf_sb_mappings(struct pfm_perf_target *t, u64 time)
{
	struct mm_struct *mm = current->mm;
	struct pfm_perf_event *ev;
	struct vm_area_struct *vma;
	struct pfm_perf_ring *r;
	char *path;
	u64 *buf;

	if (!mm)
		return;
	buf = kmalloc(PAGE_SIZE + PATH_MAX, GFP_KERNEL);
	if (!buf)
		return;
	path = (char *)buf + PAGE_SIZE;
	mmap_read_lock(mm);
	list_for_each_entry(ev, &t->events, entry) {
		VMA_ITERATOR(vmi, mm, 0);

		if (!pfm_perf_sb_wants_mmap(ev))
			continue;
		/* held: SET_OUTPUT or munmap() may take it from ev meanwhile */
		r = pfm_perf_ring_get(ev);
		if (!r)
			continue;
		for_each_vma(vmi, vma) {
			if (!(vma->vm_flags & VM_EXEC) ||
			    pfm_perf_sb_known(r, vma->vm_start, true, vma->vm_end))
				continue;
			pfm_perf_sb_mmap(ev, vma, time, buf, path);
		}
		pfm_perf_ring_put(r);
	}
	mmap_read_unlock(mm);
	kfree(buf);
}

static void pfm_perf_sb_work(struct callback_head *head)
{
	struct pfm_perf_target *t = container_of(head, struct pfm_perf_target, sb_work);
	u64 time = t->sb_time;

	/* the thread's own flag: a sample from now on may queue the work again */
	clear_bit(0, &t->sb_queued);
	mutex_lock(pfm_ctx_mutex(t->ctx));
	pfm_perf_sb_mappings(t, time);
	mutex_unlock(pfm_ctx_mutex(t->ctx));
	pfm_perf_target_put(t);
}

/*
 * A sample of ev at ip, time (overflow path, in the sampled thread): if ip is in
 * no mapping its ring knows, the thread reports its mappings before it returns
 * to user mode.
 */
void pfm_perf_sb_sample(struct pfm_perf_event *ev, u64 ip, u64 time)
{
	struct pfm_perf_ring *r = pfm_perf_out_ring(ev);
	struct pfm_perf_target *t = ev->target;

	if (!pfm_perf_sb_wants_mmap(ev) || !r || !ip || pfm_perf_sb_known(r, ip, false, 0))
		return;
	if (!pfm_perf_target_claim(t, &t->sb_queued))
		return;
	t->sb_time = time - 1;
	pfm_perf_target_queue(t, &t->sb_queued, &t->sb_work, pfm_perf_sb_work);
}

/* A COMM record of the current thread for ev, with the exec flag. */
static void pfm_perf_sb_comm(struct pfm_perf_event *ev, u64 time)
{
	char comm[TASK_COMM_LEN];
	struct pfm_perf_task_rec tr = {
		.type = PERF_RECORD_COMM, .comm = comm, .exec = true, .time = time,
		.pid = task_tgid_vnr(current), .tid = task_pid_vnr(current),
	};

	get_task_comm(comm, current);
	pfm_perf_task_record(ev, &tr);
}

/*
 * t's thread has exec'd (its task_work, before the new image's first
 * instruction; ctx->mutex held): COMM, the rings forget the old mappings, the
 * new image's are reported.
 */
void pfm_perf_sb_exec(struct pfm_perf_target *t)
{
	struct pfm_perf_event *ev;
	struct pfm_perf_ring *r;
	unsigned long flags;
	u64 time = local_clock();

	list_for_each_entry(ev, &t->events, entry) {
		if (ev->attr.comm)
			pfm_perf_sb_comm(ev, time);
		rcu_read_lock();
		r = pfm_perf_out_ring(ev);
		if (r) {
			raw_spin_lock_irqsave(&r->lock, flags);
			r->nr_known = 0;
			raw_spin_unlock_irqrestore(&r->lock, flags);
		}
		rcu_read_unlock();
	}
	pfm_perf_sb_mappings(t, time);
}
