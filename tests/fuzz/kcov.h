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
/* in executor e (0 .. FZ_PROCS_MAX - 1): its programs' PCs go to its own array */
void fz_kcov_slot(int e);
/* executor e's program's PCs into the run's; now: seconds into the run; how many are new */
size_t fz_kcov_merge(int e, unsigned int now);
/* the run's PCs so far */
size_t fz_kcov_reached(void);
/*
 * the PCs operation 'code' reached first in the run (fz_nops: the targets' own;
 * fz_nops + 1 + FZ_ST_*: a scenario's or perf_smpl's body of that kind)
 */
unsigned long fz_kcov_op_new(int code);
/* per file and in all, with the time of the last new PC; now: the run's length */
void fz_kcov_report(FILE *out, unsigned int now);

#endif /* PFM_FUZZ_KCOV_H */
