// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_sim_bench (make bench-msr): the MSR accesses each perfmon operation makes on
 * each simulated PMU model, counted by the simulator.  Printed as a table, and
 * written as JSON to the file named by the first argument.
 *
 * The scenario, the same for every model: one context on the calling thread
 * counting instructions and cycles on GP counters 0 and 1 (user level), in set 0;
 * set 1 counts something else on counter 0 and the same on counter 1; the sets
 * switch on a timeout.  Accesses are reads and writes of MSRs; LVT (APIC) writes
 * are counted apart.  It runs under check (no fork) because the core's host
 * environment reports through it.
 */
#include <stdio.h>

#include "sim_test.h"

enum bench_op {
	OP_LOAD, OP_START, OP_READ, OP_STOP, OP_RESTART, OP_SW_OUT, OP_SW_IN,
	OP_SET_SWITCH, OP_SINGLE_SET, OP_PMI, OP_OVERFLOW, OP_UNLOAD, OP_NR,
};

static const char *const bench_ops[OP_NR] = {
	[OP_LOAD] = "load", [OP_START] = "start (first)", [OP_READ] = "read 2 PMDs (started)",
	[OP_STOP] = "stop", [OP_RESTART] = "start again", [OP_SW_OUT] = "context switch out",
	[OP_SW_IN] = "context switch in", [OP_SET_SWITCH] = "set switch (timeout)",
	[OP_SINGLE_SET] = "timeout, single set", [OP_PMI] = "PMI (counter wrap)",
	[OP_OVERFLOW] = "PMI + 64-bit overflow", [OP_UNLOAD] = "unload",
};

static const char *const bench_keys[OP_NR] = {
	[OP_LOAD] = "load", [OP_START] = "start", [OP_READ] = "read", [OP_STOP] = "stop",
	[OP_RESTART] = "restart", [OP_SW_OUT] = "ctxsw_out", [OP_SW_IN] = "ctxsw_in",
	[OP_SET_SWITCH] = "set_switch", [OP_SINGLE_SET] = "single_set_timeout",
	[OP_PMI] = "pmi_wrap", [OP_OVERFLOW] = "pmi_overflow64", [OP_UNLOAD] = "unload",
};

struct bench_cell {
	unsigned long rd, wr, apic;
};

static struct bench_cell bench[SIM_NR_MODELS][OP_NR];
static bool bench_done[SIM_NR_MODELS];

static void take(enum sim_model_id m, enum bench_op op)
{
	struct sim_counts c = sim_since();

	bench[m][op] = (struct bench_cell){ sim_reads(&c), sim_writes(&c), c.apic };
}

static void fire(struct pfm_context *ctx)
{
	pfm_host_env.clock_ns += 1000000;
	ck_assert(shim_hrtimer_fire(&ctx->timer));
}

START_TEST(bench_model)
{
	struct pfm_context *ctx, *one;
	struct pfarg_pmd pd[2] = { { .reg_num = GP_PMD(0) }, { .reg_num = GP_PMD(1) } };
	u64 period;

	sim_start(_i);
	period = pfm_x86_pmu.gp_period;
	ctx = ck_ctx_new(0);
	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_write_set_pmc(ctx, 0, GP_PMC(0), SEL_U(SIM_EV_INST));
	ck_write_set_pmc(ctx, 0, GP_PMC(1), SEL_U(sim_cycles_event()));
	ck_write_set_pmc(ctx, 1, GP_PMC(0), SEL_U(SIM_EV_BRANCH));
	ck_write_set_pmc(ctx, 1, GP_PMC(1), SEL_U(sim_cycles_event()));
	sim_mark();
	ck_load_self(ctx);
	take(_i, OP_LOAD);
	ck_start(ctx);
	take(_i, OP_START);
	sim_count(SIM_EV_INST, 100, SIM_USER);
	sim_mark();
	ck_assert_int_eq(pfm_read_pmds(ctx, pd, 2), 0);
	take(_i, OP_READ);
	ck_stop(ctx);
	take(_i, OP_STOP);
	ck_start(ctx);
	take(_i, OP_RESTART);
	pfm_host_sched_out(ctx);
	take(_i, OP_SW_OUT);
	pfm_host_sched_in(ctx);
	take(_i, OP_SW_IN);
	sim_count(SIM_EV_INST, 100, SIM_USER);
	sim_mark();
	fire(ctx);
	take(_i, OP_SET_SWITCH);
	fire(ctx);				/* back to set 0 */
	/* a wrap of the hardware counter, no 64-bit overflow */
	ck_write_pmd(ctx, GP_PMD(0), period - 10);
	sim_mark();
	sim_count(SIM_EV_INST, 10, SIM_USER);
	take(_i, OP_PMI);
	ck_write_pmd(ctx, GP_PMD(0), -10ULL);
	sim_mark();
	sim_count(SIM_EV_INST, 10, SIM_USER);
	take(_i, OP_OVERFLOW);
	ck_stop(ctx);
	sim_mark();
	ck_unload(ctx);
	take(_i, OP_UNLOAD);
	pfm_context_put(ctx);

	one = ck_ctx_new(0);
	ck_create_set(one, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_write_pmc(one, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_load_self(one);
	ck_start(one);
	sim_mark();
	fire(one);
	take(_i, OP_SINGLE_SET);
	ck_unload(one);
	pfm_context_put(one);
	bench_done[_i] = true;
}
END_TEST

static void print_table(void)
{
	unsigned int m, op;

	printf("\nMSR accesses per operation (reads/writes; +N: LVT writes), a context on\n"
	       "GP counters 0 and 1; set switch: the sets differ in counter 0's event\n\n");
	printf("%-24s", "operation");
	for (m = 0; m < SIM_NR_MODELS; m++)
		printf(" %11s", sim_models[m].name);
	printf("\n");
	for (op = 0; op < OP_NR; op++) {
		printf("%-24s", bench_ops[op]);
		for (m = 0; m < SIM_NR_MODELS; m++) {
			char cell[32];
			const struct bench_cell *b = &bench[m][op];

			if (b->apic)
				snprintf(cell, sizeof(cell), "%lu/%lu+%lu", b->rd, b->wr, b->apic);
			else
				snprintf(cell, sizeof(cell), "%lu/%lu", b->rd, b->wr);
			printf(" %11s", cell);
		}
		printf("\n");
	}
	printf("\nmodels: ");
	for (m = 0; m < SIM_NR_MODELS; m++)
		printf("%s%s = %s", m ? ", " : "", sim_models[m].name, sim_models[m].driver_model);
	printf("\n");
}

static int write_json(const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned int m, op;

	if (!f) {
		perror(path);
		return -1;
	}
	fprintf(f, "{\n  \"scenario\": \"one context, GP counters 0 and 1; two sets differing"
		   " in counter 0\",\n  \"models\": {\n");
	for (m = 0; m < SIM_NR_MODELS; m++) {
		fprintf(f, "    \"%s\": {\n      \"driver_model\": \"%s\",\n", sim_models[m].name,
			sim_models[m].driver_model);
		for (op = 0; op < OP_NR; op++) {
			const struct bench_cell *b = &bench[m][op];

			fprintf(f, "      \"%s\": {\"rdmsr\": %lu, \"wrmsr\": %lu, \"apic\": %lu}%s\n",
				bench_keys[op], b->rd, b->wr, b->apic, op + 1 < OP_NR ? "," : "");
		}
		fprintf(f, "    }%s\n", m + 1 < SIM_NR_MODELS ? "," : "");
	}
	fprintf(f, "  }\n}\n");
	return fclose(f);
}

int main(int argc, char **argv)
{
	Suite *s = suite_create("bench");
	TCase *tc = sim_tcase("msr");
	SRunner *sr;
	unsigned int m;
	int failed;

	tcase_add_loop_test(tc, bench_model, 0, SIM_NR_MODELS);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	for (m = 0; m < SIM_NR_MODELS; m++)
		if (!bench_done[m])
			failed++;
	if (failed) {
		fprintf(stderr, "pfm_sim_bench: %d scenario(s) failed\n", failed);
		return EXIT_FAILURE;
	}
	print_table();
	if (argc > 1) {
		if (write_json(argv[1]))
			return EXIT_FAILURE;
		printf("JSON: %s\n", argv[1]);
	}
	return EXIT_SUCCESS;
}
