/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: mapping the counts page (upage_map.c).
 */
#ifndef _PERFMON_UPAGE_MAP_H
#define _PERFMON_UPAGE_MAP_H

struct vm_area_struct;

/* the counts page's offset in the context fd, in pages */
#define PFM_UPAGE_PGOFF		(PFM_MMAP_COUNTS_OFFSET >> PAGE_SHIFT)

int pfm_upage_mmap(struct pfm_context *ctx, struct vm_area_struct *vma);

#endif /* _PERFMON_UPAGE_MAP_H */
