/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: what differs between the kernels the module builds for, in one place.
 *
 * Each entry gives an older kernel the interface a newer one requires, so the code
 * is written once, against the newer interface.
 */
#ifndef _PERFMON_COMPAT_H
#define _PERFMON_COMPAT_H

#include <linux/mm.h>
#include <linux/version.h>

/*
 * 6.3 made vma->vm_flags read-only (the accessors also assert the mmap lock is held
 * for writing); before it, the field is written directly, as the accessors then do.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void vm_flags_clear(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}

static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}
#endif

#endif /* _PERFMON_COMPAT_H */
