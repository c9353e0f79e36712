/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Real processors for the simulator: the files of tests/sim/cpuid/ (their format
 * is in tests/sim/cpuid/README), read into what sim_dump_model() makes a
 * struct sim_model of, with what the probe must find on each.
 */
#ifndef PFM_SIM_DUMP_H
#define PFM_SIM_DUMP_H

#include <stddef.h>

#include "sim.h"

#define SIM_DUMP_MAX_CORES	2
#define SIM_DUMP_MAX_LEAVES	24

/* What the probe must find: a PMU and its registers, or a refusal and its reason. */
struct sim_expect {
	char pmu[32];			/* the model reported; "" when refused */
	char refused[80];		/* the log's reason; "" when a PMU is found */
	unsigned int gp, gp_width;
	uint32_t sel0, ctr0, stride;	/* GP counter i: sel0 + i * stride, ctr0 + ... */
	uint32_t fixed;			/* fixed counters (bit j: IA32_FIXED_CTRj) */
	unsigned int fixed_width;
	uint32_t gctrl, gstatus, gack;	/* 0: no global registers */
	unsigned int given;		/* the expect lines read, bit per kind */
};

/* One core type's leaves (a processor with one type has one). */
struct sim_dump_core {
	char label[8];			/* "P", "E"; "" when there is one type */
	uint32_t type;			/* CPUID.1AH:EAX[31:24] of the CPU read */
	struct sim_expect expect;	/* a hybrid's: this core type's PMU */
	unsigned int gp_hw;		/* GP counters it has beyond CPUID's count */
	uint32_t fixed_hw;		/* and fixed counters (core_hw line) */
	struct sim_leaf leaves[SIM_DUMP_MAX_LEAVES];
	unsigned int nleaves;
};

struct sim_dump {
	char file[64];
	char name[48];
	char cpu[80];
	char source[240];
	bool hybrid, leaf23;		/* what the file says CPUID shows */
	bool has_caps;
	uint64_t caps;			/* IA32_PERF_CAPABILITIES, from the docs */
	uint32_t fixed_hw;		/* fixed counters CPUID does not enumerate */
	unsigned int fixed_hw_width;
	struct sim_expect expect;
	struct sim_dump_core core[SIM_DUMP_MAX_CORES];
	unsigned int ncores;
};

/* One file into *d; 0, or -1 with the reason (and line) in err. */
int sim_dump_read(const char *path, struct sim_dump *d, char *err, size_t len);
/* Every *.cpuid file of dir, in name order, into *out (malloc'd); the count or -1. */
int sim_dumps_read_dir(const char *dir, struct sim_dump **out, char *err, size_t len);
/* The simulator's model of core c of d, which stays d's (leaves and names). */
void sim_dump_model(const struct sim_dump *d, unsigned int c, struct sim_model *m);

#endif /* PFM_SIM_DUMP_H */
