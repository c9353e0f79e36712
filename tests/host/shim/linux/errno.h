/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host test shim: the system's uapi <linux/errno.h>, whose numbers are the kernel's.
 * Nothing else: glibc's <errno.h> includes this file too.
 */
#include_next <linux/errno.h>
