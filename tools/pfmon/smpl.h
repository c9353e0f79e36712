/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfmon's sampling mode: the first event is sampled every `period` occurrences
 * into a "default"-format buffer; the parent drains it at each buffer-full
 * notification and at the end, and reports the instruction pointers seen most.
 */
#ifndef PFMON_SMPL_H
#define PFMON_SMPL_H

#include <stdint.h>

/* A context with a sampling buffer, or -1 with errno. */
int smpl_create(void);
/* The PMD flags and values that make PMD pmd sample every period events. */
void smpl_pmd(struct pfarg_pmd *pd, uint64_t period);
/* Maps the buffer; then drains it while the command runs, until it exits. */
void smpl_map(int fd);
void smpl_service(int fd);
/* Takes the last samples; returns how many there were in all. */
uint64_t smpl_finish(void);
/* Prints the report. */
void smpl_report(uint64_t period, const char *event);

#endif
