/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfm_fuzz: KCOV coverage of perfmon's code (kcov.c).
 */
#ifndef PFM_FUZZ_KCOV_H
#define PFM_FUZZ_KCOV_H

#include <stdint.h>
#include <stdio.h>

/* the PC table; 0, or -1 if it cannot be read */
int fz_kcov_load(const char *table);
size_t fz_kcov_npcs(void);
/* 0 if the kernel has KCOV: the coverage hooks are set */
int fz_kcov_enable(void);
size_t fz_kcov_merge(uint8_t *total);
void fz_kcov_report(const uint8_t *total, FILE *out);

#endif /* PFM_FUZZ_KCOV_H */
