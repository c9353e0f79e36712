/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfm_fuzz: the log in memory shared with the host (logring.c).
 */
#ifndef PFM_FUZZ_LOGRING_H
#define PFM_FUZZ_LOGRING_H

#include <stdio.h>

/*
 * A stream into the shared memory of QEMU's ivshmem-plain device, or with ram
 * ("ADDR,SIZE") into that physical memory, which goes on in fallback once
 * full; NULL if the guest has no such device or memory.
 */
FILE *fz_logring_open(FILE *fallback, const char *ram);

#endif /* PFM_FUZZ_LOGRING_H */
