/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator suite: arch/x86/perfmon/ and the perfmon core, compiled for the
 * host, end to end on the register model of sim.h.
 *
 * The core runs exactly as in tests/host/ (same shim, same environment stubs in
 * tests/host/env.c, same leak and reference checks at teardown); instead of the
 * fake unit, the hardware unit is whatever pfm_x86_probe() makes of the simulated
 * CPU, registered before the software unit as the module does.
 *
 * Most tests run once per model (a check loop test: _i is the model); each starts
 * its machine with sim_start().  The teardown also fails a test on any #GP the
 * driver caused, a PMI lost or NMI left unclaimed, an access to a counter someone
 * else holds, or a reservation not given back.
 */
#ifndef PFM_SIM_TEST_H
#define PFM_SIM_TEST_H

#include "harness.h"		/* tests/host */
#include "sim.h"
#include "x86.h"		/* arch/x86/perfmon */

Suite *sim_model_suite(void);
Suite *sim_probe_suite(void);
Suite *sim_regs_suite(void);
Suite *sim_count_suite(void);
Suite *sim_emul_suite(void);
Suite *sim_sets_suite(void);
Suite *sim_ctxsw_suite(void);
Suite *sim_coexist_suite(void);
Suite *sim_rdpmc_suite(void);
Suite *sim_perf_suite(void);
Suite *sim_perf_sets_suite(void);
Suite *sim_perf_sample_suite(void);
Suite *sim_perf_hybrid_suite(void);
Suite *sim_real_suite(void);
Suite *sim_leaf23_suite(void);
Suite *sim_hybrid_suite(void);

/*
 * Real processors (tests/sim/cpuid/, sim_dumps.c): read by sim_dumps_init() before
 * the suites are made; sim_dumps_error() says why not (NULL: read).
 */
struct sim_dump;
void sim_dumps_init(void);
const char *sim_dumps_error(void);
unsigned int sim_ndumps(void);
const struct sim_dump *sim_dump_nr(unsigned int i);
/*
 * The models the core suites (count, sets, emul) loop over: ids below
 * SIM_NR_MODELS are sim_models[], the next ones the real processors that have
 * a PMU, up to sim_nr_core_models().
 */
unsigned int sim_nr_core_models(void);
const struct sim_model *sim_model_of(unsigned int id);
/* A hybrid processor's E core model (its CPU 1), NULL for one of one type. */
const struct sim_model *sim_model_e_of(unsigned int id);

/* A test case whose tests start their own machine; 20 s timeout. */
TCase *sim_tcase(const char *name);
void sim_setup(void);
void sim_teardown(void);

/*
 * The machine of model id (sim_model_of()), the module's probe run on it, then the
 * software unit.
 */
void sim_start(unsigned int id);
/*
 * A hybrid processor of tests/sim/cpuid/ by name: CPU 0 of its first core type
 * (P), CPU 1 of its second (E), both online, the probe run; the thread on CPU 0.
 */
void sim_start_hybrid(const char *name);
/* Any processor of tests/sim/cpuid/ by name: a hybrid one as above, else one CPU. */
void sim_start_named(const char *name);
/* The same with a pmu_model parameter; returns the model registered or "software". */
const char *sim_start_param(unsigned int id, const char *param);
/* The probe on a machine set up by the caller (sim_reset*() and knobs). */
const char *sim_probe(void);

const struct sim_model *sim_m(void);
bool sim_has_fixed(void);
/* The model has a global control register (Intel v2+, AMD PerfMonV2). */
bool sim_has_global(void);
unsigned int sim_num_fixed(void);	/* fixed counters the model has */
unsigned int sim_view_width(void);	/* GP PMD width the driver should export */
uint64_t sim_cycles_event(void);	/* unhalted cycles on this vendor */

/* Event-select values as libpfm4 writes them (EN and INT set) */
#define SEL_USR		PFM_X86_SEL_USR
#define SEL_OS		PFM_X86_SEL_OS
#define SEL_INT		PFM_X86_SEL_INT
#define SEL_EN		PFM_X86_SEL_EN
#define SEL_U(ev)	((ev) | SEL_USR | SEL_INT | SEL_EN)
#define SEL_UK(ev)	((ev) | SEL_USR | SEL_OS | SEL_INT | SEL_EN)
#define SEL_K(ev)	((ev) | SEL_OS | SEL_INT | SEL_EN)

/* Register numbers */
#define GP_PMC(i)	(PFM_X86_FIRST_GP_PMC + (i))
#define GP_PMD(i)	(PFM_X86_FIRST_GP_PMD + (i))
#define FX_PMC		PFM_X86_FIXED_CTRL_PMC
#define FX_PMD(j)	(PFM_X86_FIRST_FIXED_PMD + (j))
/* SW_PMC(i), SW_PMD(i): harness.h */

/* Access counts since the last sim_mark() */
void sim_mark(void);
/* Writes (or reads) of one MSR since the last sim_mark() */
unsigned long sim_msr_writes(uint32_t msr);
unsigned long sim_msr_reads(uint32_t msr);
struct sim_counts sim_since(void);
unsigned long sim_reads(const struct sim_counts *c);
unsigned long sim_writes(const struct sim_counts *c);
/* Asserts the reads and writes of the MSRs since the mark, and marks again. */
#define ck_msr(what, nrd, nwr) do {						\
	struct sim_counts __c = sim_since();					\
	ck_assert_msg(sim_reads(&__c) == (nrd) && sim_writes(&__c) == (nwr),	\
		      "%s on %s: %lu MSR reads, %lu writes; expected %lu, %lu",	\
		      (what), sim_m()->name, sim_reads(&__c), sim_writes(&__c),	\
		      (unsigned long)(nrd), (unsigned long)(nwr));		\
} while (0)

/* Core shortcuts beyond harness.h */
bool sim_avail_pmc(struct pfm_context *ctx, unsigned int n);
bool sim_avail_pmd(struct pfm_context *ctx, unsigned int n);

#endif /* PFM_SIM_TEST_H */
