// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: sampling buffer memory, charged as locked memory, and its mapping.
 *
 * The buffer cannot be swapped while the PMU interrupt writes into it, so it is
 * locked memory and is charged where the kernel charges other pinned memory that
 * outlives a single mm: to the creating user's locked_vm, against RLIMIT_MEMLOCK,
 * unless the creator has CAP_IPC_LOCK (as io_uring does for registered buffers).
 * A layer whose buffers follow another interface's rules brings its own charge
 * (struct pfm_smpl_charge), so that its users see that interface's errno.
 * smpl_buffer_mem_max caps all sampling buffers together, whoever made them.
 */
#include <linux/capability.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>
#include <linux/vmalloc.h>
#include <asm/shmparam.h>

#include "access.h"
#include "compat.h"
#include "internal.h"
#include "smpl.h"

atomic_long_t pfm_smpl_mem_cur = ATOMIC_LONG_INIT(0);
unsigned long pfm_smpl_mem_max = ULONG_MAX;

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
static int pfm_smpl_charge_memlock(struct pfm_smpl_buf *b, unsigned long pages)
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

void pfm_smpl_uncharge_user(struct pfm_smpl_buf *b)
{
	if (!b->user)
		return;
	atomic_long_sub(b->charged_pages, &b->user->locked_vm);
	free_uid(b->user);
	b->user = NULL;
	b->charged_pages = 0;
}

const struct pfm_smpl_charge pfm_smpl_charge_locked = {
	.charge = pfm_smpl_charge_memlock,
	.uncharge = pfm_smpl_uncharge_user,
};

static void pfm_smpl_uncharge(struct pfm_smpl_buf *b)
{
	if (b->charge)
		b->charge->uncharge(b);
	b->charge = NULL;
}

/*
 * Zeroed memory for a buffer user space maps.  Its size is the user's: failing
 * is that user's ENOMEM, not a kernel problem to report with a stack (as
 * vmalloc_user() does).  A module has only vmalloc_user().
 */
static void *pfm_smpl_vmalloc(unsigned long size)
{
#ifndef MODULE
	return __vmalloc_node_range(size, SHMLBA, VMALLOC_START, VMALLOC_END,
				    GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN, PAGE_KERNEL,
				    VM_USERMAP, NUMA_NO_NODE, __builtin_return_address(0));
#else
	return vmalloc_user(size);
#endif
}

/*
 * A zeroed buffer of at least size bytes, charged by charge's rule, or not at all
 * (NULL: a kernel-only format's state, which no user maps); 0, -ENOMEM, or the
 * charge's errno.
 */
int pfm_smpl_buf_alloc(struct pfm_smpl_buf *b, u64 size, const struct pfm_smpl_charge *charge)
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
	if (charge) {
		ret = charge->charge(b, pages);
		if (ret)
			goto err_mem;
		b->charge = charge;
	}
	b->addr = pfm_smpl_vmalloc(b->size);
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

/*
 * A buffer whose memory must wait (for writers that may still hold it) gives
 * back what it is charged with at once, as munmap() gives back perf_events' ring
 * charge: the user's limits and smpl_buffer_mem_cur see it gone.
 */
void pfm_smpl_buf_uncharge(struct pfm_smpl_buf *b)
{
	if (!b->size)
		return;
	pfm_smpl_uncharge(b);
	pfm_smpl_mem_put(b->size);
	b->size = 0;
}

/* Sleeps: called from the fd's release, when nothing can map the buffer any more. */
void pfm_smpl_buf_free(struct pfm_smpl_buf *b)
{
	if (!b->addr)
		return;
	vfree(b->addr);
	b->addr = NULL;
	pfm_smpl_buf_uncharge(b);
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
