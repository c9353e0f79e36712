// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the side-band records perf report needs to name what was sampled:
 * PERF_RECORD_COMM (with PERF_RECORD_MISC_COMM_EXEC) and PERF_RECORD_MMAP2 (or
 * MMAP) of the monitored thread's mappings, and the thread's work that writes
 * them.
 *
 * The overflow path and the mmap kprobe cannot read the address space or
 * sleep (interrupts off, mmap_lock held for writing), so mappings are written
 * by the thread itself, in process context, before it returns to user mode:
 *   - every mapping the thread makes (mmap.c's queue), as it was when made,
 *     with the time it was made;
 *   - at an exec that enables events (enable_on_exec: perf record's workload),
 *     COMM and every executable mapping the new image has (the program and its
 *     interpreter), to the events the exec enabled;
 *   - only where the kprobe on perf_event_mmap() could not be placed (mmap.c),
 *     after a sample whose IP falls in no mapping the ring has been told of, a
 *     task_work item on the sampled thread reports every executable mapping
 *     not yet reported.  With the kprobe, the mappings made before the event
 *     was enabled are left to the tool to synthesize (from /proc, as perf
 *     does), as 6.1 leaves them: a ring then holds exactly the records 6.1
 *     writes (perf test's backward ring case counts them).  Its records carry (sample_id_all) the time of that
 *     sample less 1 ns, so that perf, which orders records by time, knows the
 *     mapping before the sample that revealed it.  Without TIME (perf record
 *     --per-thread) the first sample of each such mapping comes before its
 *     record in the ring and stays unresolved.
 * Each ring remembers the executable mappings it was told of
 * (PFM_PERF_SB_KNOWN of them; past that, mappings are reported again by the
 * samples); an exec forgets them.
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

/* perf_event_mmap_match(): executable mappings for mmap or mmap2, others for mmap_data. */
bool pfm_perf_sb_map_wanted(const struct pfm_perf_event *ev, unsigned long vm_flags)
{
	return vm_flags & VM_EXEC ? pfm_perf_sb_wants_mmap(ev) : ev->attr.mmap_data;
}

/*
 * m as vma is now, its file not held; an anonymous mapping's name as
 * perf_event_mmap_event() gives it: the special mapping's ("[vdso]"), else
 * "[heap]" or "[stack]" if it holds the heap or the stack's start, else
 * "//anon".  Any context (no lock taken), mmap_lock held.
 */
void pfm_perf_sb_map_fill(struct pfm_perf_mmap_ent *m, struct vm_area_struct *vma)
{
	struct mm_struct *mm = vma->vm_mm;

	m->start = vma->vm_start;
	m->end = vma->vm_end;
	m->pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;
	m->vm_flags = vma->vm_flags;
	m->file = vma->vm_file;
	m->name = NULL;
	if (m->file)
		return;
	if (vma->vm_ops && vma->vm_ops->name)
		m->name = vma->vm_ops->name(vma);
	if (!m->name && vma->vm_start <= mm->start_brk && vma->vm_end >= mm->brk)
		m->name = "[heap]";
	if (!m->name && vma->vm_start <= mm->start_stack && vma->vm_end >= mm->start_stack)
		m->name = "[stack]";
	if (!m->name)
		m->name = "//anon";
}

/*
 * One MMAP2 (or MMAP) record of m for ev, in buf (a page and a path); the
 * trailer at m->time.  prot and flags as 6.1 derives them from vm_flags;
 * misc MMAP_DATA for a mapping that is not executable.
 */
void pfm_perf_sb_map_record(struct pfm_perf_event *ev, const struct pfm_perf_mmap_ent *m,
			    u64 *buf, char *path)
{
	struct perf_event_header *h = (struct perf_event_header *)buf;
	unsigned long vf = m->vm_flags;
	const char *name = m->name;
	struct inode *inode = NULL;
	unsigned int n = 1;
	size_t len;
	u32 prot = 0, flags;

	if (m->file) {
		/* a CPU event's path was made before (mmap.c), path is NULL then */
		if (!name)
			name = d_path(&m->file->f_path, path, PATH_MAX);
		if (IS_ERR(name))
			name = "//toolong";
		inode = file_inode(m->file);
	}
	buf[n++] = (u64)(u32)task_tgid_vnr(current) | (u64)(u32)task_pid_vnr(current) << 32;
	buf[n++] = m->start;
	buf[n++] = m->end - m->start;
	buf[n++] = m->pgoff;
	if (ev->attr.mmap2) {
		prot = (vf & VM_READ ? PROT_READ : 0) | (vf & VM_WRITE ? PROT_WRITE : 0) |
		       (vf & VM_EXEC ? PROT_EXEC : 0);
		flags = (vf & VM_MAYSHARE ? MAP_SHARED : MAP_PRIVATE) |
			(vf & VM_LOCKED ? MAP_LOCKED : 0) | (vf & VM_HUGETLB ? MAP_HUGETLB : 0);
		buf[n++] = inode ? (u64)MAJOR(inode->i_sb->s_dev) |
			   (u64)MINOR(inode->i_sb->s_dev) << 32 : 0;
		buf[n++] = inode ? inode->i_ino : 0;
		buf[n++] = inode ? inode->i_generation : 0;
		buf[n++] = (u64)prot | (u64)flags << 32;
	}
	len = strlen(name) + 1;
	memset((char *)(buf + n), 0, ALIGN(len, sizeof(u64)));
	memcpy(buf + n, name, len);
	n += ALIGN(len, sizeof(u64)) / sizeof(u64);
	n += pfm_perf_id_trailer_at(ev, buf + n, m->time);
	h->type = ev->attr.mmap2 ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP;
	h->misc = PERF_RECORD_MISC_USER | (vf & VM_EXEC ? 0 : PERF_RECORD_MISC_MMAP_DATA);
	h->size = n * sizeof(u64);
	pfm_perf_ring_write(ev, buf);
	/* its ring knows it now: no sample in it reports it again */
	if (vf & VM_EXEC) {
		struct pfm_perf_ring *r = pfm_perf_ring_get(ev);

		if (r) {
			pfm_perf_sb_known(r, m->start, true, m->end);
			pfm_perf_ring_put(r);
		}
	}
}

/*
 * Every executable mapping of the current thread (t's) that a ring of t's events
 * was not told of, with time on its trailer, to the events enabled by the exec
 * just done (exec), or to those enabled now; ctx->mutex held.
 */
void pfm_perf_sb_mappings(struct pfm_perf_target *t, u64 time, bool exec)
{
	struct pfm_perf_mmap_ent m = { .time = time };
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

		if (!pfm_perf_sb_wants_mmap(ev) || (exec ? !ev->exec_fired : !ev->enabled))
			continue;
		/* held: SET_OUTPUT or munmap() may take it from ev meanwhile */
		r = pfm_perf_ring_get(ev);
		if (!r)
			continue;
		for_each_vma(vmi, vma) {
			if (!(vma->vm_flags & VM_EXEC) ||
			    pfm_perf_sb_known(r, vma->vm_start, false, 0))
				continue;
			pfm_perf_sb_map_fill(&m, vma);
			pfm_perf_sb_map_record(ev, &m, buf, path);
		}
		pfm_perf_ring_put(r);
	}
	mmap_read_unlock(mm);
	kfree(buf);
}

/*
 * The thread's own work, before it returns to user mode: the mappings its
 * kprobe queued (mmap.c), then, if a sample asked, what is still unknown.
 */
static void pfm_perf_sb_work(struct callback_head *head)
{
	struct pfm_perf_target *t = container_of(head, struct pfm_perf_target, sb_work);
	u64 time = READ_ONCE(t->sb_time);
	bool lazy;

	/* the thread's own flags: a sample or a mapping from now on queues the work again */
	clear_bit(0, &t->sb_queued);
	lazy = test_and_clear_bit(1, &t->sb_queued);
	mutex_lock(pfm_ctx_mutex(t->ctx));
	pfm_perf_mmap_drain(t);
	if (lazy && pfm_ctx_is_loaded(t->ctx))
		pfm_perf_sb_mappings(t, time, false);
	mutex_unlock(pfm_ctx_mutex(t->ctx));
	pfm_perf_target_put(t);
}

/*
 * The thread (current, t's) runs sb_work before it returns to user mode;
 * atomic context.  Whether it will: not if the thread is exiting past its
 * task_work, or t is going.
 */
bool pfm_perf_sb_kick(struct pfm_perf_target *t)
{
	if (t->task != current)
		return false;
	if (test_bit(0, &t->sb_queued))
		return true;
	if (pfm_perf_target_claim(t, &t->sb_queued))
		pfm_perf_target_queue(t, &t->sb_queued, &t->sb_work, pfm_perf_sb_work);
	return test_bit(0, &t->sb_queued);
}

/*
 * A sample of ev at ip, time (overflow path, in the sampled thread), without the
 * mmap kprobe: if ip is in no mapping its ring knows, the thread reports its mappings before it returns
 * to user mode, with the time of the first such sample less 1 ns.
 */
void pfm_perf_sb_sample(struct pfm_perf_event *ev, u64 ip, u64 time)
{
	struct pfm_perf_ring *r = pfm_perf_out_ring(ev);
	struct pfm_perf_target *t = ev->target;

	if (pfm_perf_mmap_hooked() || !pfm_perf_sb_wants_mmap(ev) || !r || !ip ||
	    pfm_perf_sb_known(r, ip, false, 0))
		return;
	if (t->task != current || test_and_set_bit(1, &t->sb_queued))
		return;
	WRITE_ONCE(t->sb_time, time - 1);
	pfm_perf_sb_kick(t);
}

/* A COMM record of the current thread for ev, with the exec flag. */
static void pfm_perf_sb_comm(struct pfm_perf_event *ev, u64 time)
{
	char comm[TASK_COMM_LEN];
	struct pfm_perf_task_rec tr = {
		.type = PERF_RECORD_COMM, .comm = comm, .time = time,
		.misc = PERF_RECORD_MISC_COMM_EXEC,
		.pid = task_tgid_vnr(current), .tid = task_pid_vnr(current),
	};

	get_task_comm(comm, current);
	pfm_perf_task_record(ev, &tr);
}

/*
 * t's thread has exec'd (its task_work, before the new image's first
 * instruction; ctx->mutex held): the rings forget the old mappings; the events
 * the exec enabled (enable_on_exec) get COMM and the new image's executable
 * mappings, which the events enabled before had as they happened (task.c,
 * mmap.c).
 */
void pfm_perf_sb_exec(struct pfm_perf_target *t)
{
	struct pfm_perf_event *ev;
	struct pfm_perf_ring *r;
	unsigned long flags;
	u64 time = local_clock();

	list_for_each_entry(ev, &t->events, entry) {
		if (ev->attr.comm && ev->exec_fired)
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
	pfm_perf_sb_mappings(t, time, true);
	list_for_each_entry(ev, &t->events, entry)
		ev->exec_fired = false;
}
