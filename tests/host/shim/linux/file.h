/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: a file held by a system call (the host tests open no file). */
#ifndef _HOST_LINUX_FILE_H
#define _HOST_LINUX_FILE_H

struct file;

struct fd {
	struct file *file;
	unsigned int flags;
};

static inline void fdput(struct fd f)
{
	(void)f;
}

#endif
