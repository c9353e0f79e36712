// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: sampling buffer memory, charged as locked memory, and its mapping.
 *
 * The buffer cannot be swapped while the PMU interrupt writes into it, so it is
 * locked memory and is charged where the kernel charges other pinned memory that
 * outlives a single mm: to the creating user's locked_vm, against RLIMIT_MEMLOCK,
 * unless the creator has CAP_IPC_LOCK (as io_uring does for registered buffers).
 * A perf ring (perf_ring.c) is charged by perf_mmap()'s rules instead, so that
 * perf tools see perf's errno and advice (pfm_perf_mlock_charge()).
 * smpl_buffer_mem_max caps all sampling buffers together, whoever made them.
 */
#include <linux/capability.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>
#include <linux/vmalloc.h>

#include "access.h"
#include "compat.h"
#include "internal.h"
#include "smpl.h"

atomic_long_t pfm_smpl_mem_cur = ATOMIC_LONG_INIT(0);
unsigned long pfm_smpl_mem_max = ULONG_MAX;
/* perf_event_mlock_kb's default: 512 KiB and the control page, per CPU */
unsigned long pfm_perf_mlock_kb = 512 + (PAGE_SIZE >> 10);

static int pfm_smpl_mem_get(size_t size)
{
	unsigned long max = READ_ONCE(pfm_smpl_mem_max);
	long cur = atomic_long_read(&pfm_smpl_mem_cur);

	do {
		/* the cap may have been lowered below what is in use */
		if ((unsigned long)cur > max || size > max - cur)
			return -ENOMEM;
	} while (!atomic_long_try_cmpxchg(&pfm_smpl_mem_cur, &cur, cur + size));
	return 0;
}

static void pfm_smpl_mem_put(size_t size)
{
	atomic_long_sub(size, &pfm_smpl_mem_cur);
}

/* Charges pages to the calling user's locked memory, within RLIMIT_MEMLOCK. */
static int pfm_smpl_charge(struct pfm_smpl_buf *b, unsigned long pages)
{
	struct user_struct *user;
	unsigned long limit;
	long cur;

	if (capable(CAP_IPC_LOCK))
		return 0;
	limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	user = get_current_user();
	cur = atomic_long_read(&user->locked_vm);
	do {
		if (pages > limit || (unsigned long)cur > limit - pages) {
			free_uid(user);
			return -ENOMEM;
		}
	} while (!atomic_long_try_cmpxchg(&user->locked_vm, &cur, cur + pages));
	b->user = user;
	b->charged_pages = pages;
	return 0;
}

/*
 * A perf ring's pages, as perf_mmap() charges them: the user's locked_vm up to
 * perf_mlock_kb per online CPU, what is over to the mapping process's
 * pinned_vm, which RLIMIT_MEMLOCK bounds; past that EPERM, unless perfmon is
 * not paranoid (-1, as perf_is_paranoid()) or the caller has CAP_IPC_LOCK.
 */
static int pfm_perf_mlock_charge(struct pfm_smpl_buf *b, unsigned long pages)
{
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
	    READ_ONCE(pfm_paranoid) > -1 && !capable(CAP_IPC_LOCK)) {
		free_uid(user);
		return -EPERM;
	}
	atomic_long_add(pages - extra, &user->locked_vm);
	b->user = user;
	b->charged_pages = pages - extra;
	if (extra) {
		atomic64_add(extra, &current->mm->pinned_vm);
		mmgrab(current->mm);
		b->mm = current->mm;
		b->pinned_pages = extra;
	}
	return 0;
}

static void pfm_smpl_uncharge(struct pfm_smpl_buf *b)
{
	if (b->mm) {
		atomic64_sub(b->pinned_pages, &b->mm->pinned_vm);
		mmdrop(b->mm);
		b->mm = NULL;
		b->pinned_pages = 0;
	}
	if (!b->user)
		return;
	atomic_long_sub(b->charged_pages, &b->user->locked_vm);
	free_uid(b->user);
	b->user = NULL;
	b->charged_pages = 0;
}

/*
 * A zeroed buffer of at least size bytes, charged by perfmon's rule, perf's
 * (a perf ring), or not at all (a kernel-only format's state, which no user
 * maps); 0, -ENOMEM, or -EPERM (perf's rule).
 */
int pfm_smpl_buf_alloc(struct pfm_smpl_buf *b, u64 size, enum pfm_smpl_charge charge)
{
	unsigned long pages;
	int ret;

	/* More than the machine has can never be allocated (nor overflow PAGE_ALIGN). */
	if (!size || size > (u64)totalram_pages() << PAGE_SHIFT)
		return -ENOMEM;
	/*
	 * Nor more than it can give now: vmalloc would wake the OOM killer, which
	 * kills processes where this call should fail (a buffer of a user with
	 * CAP_IPC_LOCK is not bounded by RLIMIT_MEMLOCK).
	 */
	if (size > (u64)si_mem_available() << PAGE_SHIFT)
		return -ENOMEM;
	b->size = PAGE_ALIGN(size);
	pages = b->size >> PAGE_SHIFT;
	ret = pfm_smpl_mem_get(b->size);
	if (ret)
		goto err_size;
	if (charge == PFM_CHARGE_PERF)
		ret = pfm_perf_mlock_charge(b, pages);
	else if (charge == PFM_CHARGE_MEMLOCK)
		ret = pfm_smpl_charge(b, pages);
	if (ret)
		goto err_mem;
	b->addr = vmalloc_user(b->size);
	if (!b->addr) {
		ret = -ENOMEM;
		goto err_charge;
	}
	return 0;

err_charge:
	pfm_smpl_uncharge(b);
err_mem:
	pfm_smpl_mem_put(b->size);
err_size:
	b->size = 0;
	return ret;
}

/* Sleeps: called from the fd's release, when nothing can map the buffer any more. */
void pfm_smpl_buf_free(struct pfm_smpl_buf *b)
{
	if (!b->addr)
		return;
	vfree(b->addr);
	b->addr = NULL;
	pfm_smpl_uncharge(b);
	pfm_smpl_mem_put(b->size);
	b->size = 0;
}

/*
 * Read-only, from offset 0, at most the buffer.  The kernel alone writes it, so a
 * writable mapping (even a private one) is refused and cannot be made writable later.
 */
int pfm_smpl_buf_mmap(struct pfm_smpl_buf *b, struct vm_area_struct *vma)
{
	unsigned long size = vma->vm_end - vma->vm_start;

	if (!b->addr)
		return -ENODEV;
	if (vma->vm_flags & VM_WRITE)
		return -EACCES;
	if (vma->vm_pgoff || size > b->size)
		return -EINVAL;
	vm_flags_clear(vma, VM_MAYWRITE);
	return remap_vmalloc_range(vma, b->addr, 0);
}
