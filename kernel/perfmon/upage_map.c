// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the counts page's memory and its mapping (uapi perfmon.h, COUNTS PAGE;
 * its contents are upage.c's).
 *
 * One zeroed page per context, allocated at the first mmap() of the counts offset
 * (a context never mapped costs nothing) and freed with the context, which a mapping
 * keeps alive through the file it holds.  A plain page rather than vmalloc memory:
 * the context's last reference may go in atomic context, where vfree() may not run.
 * It is not charged as locked memory: one page per context, like the context itself.
 */
#include <linux/gfp.h>
#include <linux/mm.h>

#include "compat.h"
#include "internal.h"
#include "ctx.h"
#include "env.h"
#include "upage.h"
#include "upage_map.h"

void pfm_upage_free(struct pfm_counts_page *pg)
{
	free_page((unsigned long)pg);
}

static struct pfm_counts_page *pfm_upage_get(struct pfm_context *ctx)
{
	struct pfm_counts_page *pg = READ_ONCE(ctx->upage);

	if (pg)
		return pg;
	pg = (struct pfm_counts_page *)get_zeroed_page(GFP_KERNEL);
	if (!pg)
		return NULL;
	/* two first mmaps may race: one page wins */
	if (!pfm_upage_install(ctx, pg))
		free_page((unsigned long)pg);
	return READ_ONCE(ctx->upage);
}

/*
 * Read-only, one page: the kernel alone writes it, so a writable mapping (even a
 * private one) is refused and cannot be made writable later.
 */
int pfm_upage_mmap(struct pfm_context *ctx, struct vm_area_struct *vma)
{
	struct pfm_counts_page *pg;

	if (vma->vm_flags & VM_WRITE)
		return -EACCES;
	if (vma->vm_end - vma->vm_start != PAGE_SIZE)
		return -EINVAL;
	pg = pfm_upage_get(ctx);
	if (!pg)
		return -ENOMEM;
	vm_flags_clear(vma, VM_MAYWRITE);
	return vm_insert_page(vma, vma->vm_start, virt_to_page(pg));
}
