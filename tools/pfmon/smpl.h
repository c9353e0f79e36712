/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfmon's sampling mode: the first event is sampled every `period` occurrences
 * into a "default"-format buffer per context (shared with the kernel's
 * inheritors: smpl.c); pfmon drains each at its buffer-full notification, at
 * its ticks and at the end, and reports where the samples fell:
 * by function and source line (sym.c), by thread and by mapped file (DSO).
 */
#ifndef PFMON_SMPL_H
#define PFMON_SMPL_H

#include <stdint.h>
#include <stdio.h>

struct smpl_buf;

/* A context of these flags with a mapped sampling buffer, or -1 with errno. */
int smpl_open(int flags, struct smpl_buf **b);
/* Takes the samples out of the buffer; after a notification, resumes. */
void smpl_drain(struct smpl_buf *b);
int smpl_restart(int fd, struct smpl_buf *b);
/* Samples the buffer held over its life, and frees it. */
uint64_t smpl_count(const struct smpl_buf *b);
void smpl_close(struct smpl_buf *b);
/* Remembers the mappings of process pid, to place the samples of its IPs. */
void smpl_snapshot_maps(int pid);
/* --smpl-out: every sample as one text line to f. */
void smpl_set_out(FILE *f);
/* Prints the report; period 0: -F's, over live_ns of the threads' time. */
void smpl_report(FILE *f, uint64_t period, const char *event, uint64_t live_ns);

#endif
