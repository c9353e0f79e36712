// SPDX-License-Identifier: GPL-2.0
/*
 * The program a shell-like child of inherit_bench runs: it exits at once.  No C
 * library: the exec is the kernel's work alone, as small as an image can be.
 */
#include <sys/syscall.h>

void _start(void)
{
	__asm__ volatile ("syscall" : : "a" (SYS_exit), "D" (0));
	__builtin_unreachable();
}
