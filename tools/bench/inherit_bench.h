/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inherit_bench's measurements (inherit_bench.c) and their report
 * (inherit_report.c: the table, the goals, the JSON line).
 */
#ifndef _PFM_INHERIT_BENCH_H
#define _PFM_INHERIT_BENCH_H

#include "bench_common.h"

enum inh_mode {
	INH_NONE, INH_PRELOAD, INH_SHIM, INH_PERF, INH_PFMON, INH_PERF_STAT,
	INH_NMODES
};

/* the comparisons: the shim against perf_events, pfmon against perf stat */
enum inh_cmp { INH_CMP_SHIM, INH_CMP_PFMON, INH_NCMP };

enum inh_kind { INH_FORK, INH_EXEC, INH_THREADS, INH_NKINDS };

#define INH_MAXPTS	16
#define INH_MAXROUNDS	64
/* points of this many tasks or more take INHERIT_BIG_ROUNDS rounds */
#define INH_BIG		1000

extern const char *const inh_mode_name[INH_NMODES];
extern const char *const inh_kind_name[INH_NKINDS];

struct inh_point {
	long n;
	long tasks;			/* n, or n times the batches a run makes */
	int rounds;
	struct stat3 ns[INH_NMODES];	/* the workload's time */
	struct stat3 cost[INH_NMODES];	/* per child or thread, monitored modes */
	struct stat3 ratio[INH_NCMP];
};

struct inh_curve {
	int npts;
	long n[INH_MAXPTS];
	struct inh_point pt[INH_MAXPTS];
};

/* The tables, the goals and the JSON line of every curve, on stdout. */
void inh_report(const struct inh_curve curve[INH_NKINDS]);

#endif /* _PFM_INHERIT_BENCH_H */
