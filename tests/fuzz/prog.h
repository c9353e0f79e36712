/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfm_fuzz: programs made, mutated, written and read (prog.c).
 */
#ifndef PFM_FUZZ_PROG_H
#define PFM_FUZZ_PROG_H

#include <stdio.h>

#include "fuzz.h"

/*
 * The log's format, first in its header line: 2 added the scenario operation,
 * plausible perf_event attrs (bit 0 of perf_open's seed) and the "mux" format
 * (create's a2 = 4); 3 perf_op's set_bpf, query_bpf and filter_string (a1
 * picks among more); 4 a CPU scenario's seed offlines its CPU one time in
 * eight, not two.  A log of another version replays with a warning.
 */
#define FZ_LOG_VERSION	4

void fz_prog_gen(uint64_t *rng, struct fz_prog *p);
/* other: a second corpus program to splice from, or NULL */
void fz_prog_mutate(uint64_t *rng, struct fz_prog *p, const struct fz_prog *other);
void fz_prog_write(FILE *out, const struct fz_prog *p);
int fz_op_parse(const char *line, struct fz_op *op);
int fz_log_read(FILE *in, struct fz_prog **progs, long **ids);

#endif /* PFM_FUZZ_PROG_H */
