/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host test shim: the system's uapi <linux/types.h> (__u8..__u64, also what the uapi
 * perfmon headers use), then the kernel names from ../kshim.h.
 */
#ifndef _PFM_SHIM_LINUX_TYPES_H
#define _PFM_SHIM_LINUX_TYPES_H
#include_next <linux/types.h>
#include <kshim.h>
#endif
