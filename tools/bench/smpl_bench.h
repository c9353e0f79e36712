/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smpl_bench: the cost of sampling against the rate, perf_events natively, the
 * perf shim and perfmon's default format (smpl_bench.c measures, smpl_out.c
 * prints the tables, the goals and the JSON line).
 */
#ifndef _PFM_SMPL_BENCH_H
#define _PFM_SMPL_BENCH_H

#include <stdbool.h>

#include "bench_common.h"
#include "ops_sample.h"

/* The samplers, indexed by enum sampler; SMP_NONE is the unmonitored batch. */
#define NSAMPLERS	4

/* the CPU-bound workload by the task clock, the page-touching one by page faults */
enum wl { WL_CLOCK, WL_FAULTS, NWL };
enum scope { SC_THREAD, SC_CPU, NSCOPES };

#define NCLOCK_RATES	3	/* 1, 10, 50 kHz */
#define NFAULT_EVERY	4	/* every 1, 4, 16, 64 faults */
#define MAXPTS		NFAULT_EVERY

extern const unsigned long clock_hz[NCLOCK_RATES];
extern const unsigned long fault_every[NFAULT_EVERY];
extern const char *const wl_name[NWL], *const scope_name[NSCOPES];
extern const char *const smp_name[NSAMPLERS];

/* One sampler at one point of a curve, over the rounds. */
struct smp_res {
	struct stat3 ns;		/* the batch, ns */
	struct stat3 over;		/* (ns - none) / none */
	struct stat3 per_sample;	/* (ns - none) / samples */
	struct stat3 net;		/* (ns - counting alone) / samples (faults) */
	struct stat3 ratio;		/* per_sample / perf's, within each round */
	struct stat3 net_ratio;		/* net / perf's, within each round */
	double samples, throttle, lost;	/* medians */
	bool dropped;			/* a buffer was full in some round */
};

/* One curve: a workload in a scope, its points and samplers. */
struct curve {
	enum wl wl;
	enum scope scope;
	int npts;
	unsigned long x[MAXPTS];	/* Hz, or every x faults */
	struct smp_res r[MAXPTS][NSAMPLERS];
	struct stat3 count_ns[NSAMPLERS];	/* faults: counting alone */
	struct stat3 none_ns[MAXPTS];		/* the unmonitored batch of each point */
};

/* A run of every curve under one setting of the sample-rate limits. */
struct phase {
	const char *name;		/* "default" or "raised" */
	long perf_max_rate, perf_cpu_pct, pfm_max_rate;	/* the limits in force */
	struct curve c[NWL * NSCOPES];
};

struct smpl_cfg {
	int rounds;
	double iters_per_ms;	/* the CPU-bound loop's */
	double cpu_ms;		/* its shortest unmonitored length */
	long clock_samples;	/* and longer if a rate takes fewer samples */
	long faults;		/* pages the page-touching workload touches */
};

/* A cost goal judged on a phase: met when figure <= limit. */
struct goal {
	char text[192];
	double figure, limit;
	char note[512];		/* what stands in the way, when not met */
};
#define MAXGOALS	(2 * 2 * NWL * NSCOPES + 1)

/* smpl_bench.c: the CPU-bound batch's length at a point of the clock curve */
double clock_ms(int pt);

/* smpl_out.c */
void smpl_print_phase(const struct phase *ph);
int smpl_make_goals(const struct phase *ph, struct goal *g);
void smpl_throttle_goal(const struct phase *ph, enum sampler how, struct goal *g);
void smpl_print_goals(const struct phase *ph, const struct goal *g, int n);
void smpl_json(const struct smpl_cfg *cfg, const struct phase *ph, int nph,
	       const struct goal *g, int ng);

#endif /* _PFM_SMPL_BENCH_H */
