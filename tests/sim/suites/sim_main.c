// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_sim_tests: the x86 PMU drivers and the perfmon core on the simulated PMUs
 * (see sim_test.h).  Every test runs in its own process (CK_FORK); CK_RUN_SUITE and
 * CK_RUN_CASE select, as for any check program.  Exit status 0 when all passed.
 */
#include "sim_test.h"

int main(void)
{
	SRunner *sr;
	int failed;

	sim_dumps_init();	/* before the suites: their loops count the processors */
	sr = srunner_create(sim_model_suite());
	srunner_add_suite(sr, sim_probe_suite());
	srunner_add_suite(sr, sim_regs_suite());
	srunner_add_suite(sr, sim_count_suite());
	srunner_add_suite(sr, sim_emul_suite());
	srunner_add_suite(sr, sim_sets_suite());
	srunner_add_suite(sr, sim_ctxsw_suite());
	srunner_add_suite(sr, sim_coexist_suite());
	srunner_add_suite(sr, sim_rdpmc_suite());
	srunner_add_suite(sr, sim_real_suite());
	srunner_add_suite(sr, sim_leaf23_suite());
	srunner_add_suite(sr, sim_hybrid_suite());
#ifndef PFM_HOST_NOPERF
	/* the perf_event_open layer's, built without it by PFM_HOST_PERF=n (host.mk) */
	srunner_add_suite(sr, sim_perf_suite());
	srunner_add_suite(sr, sim_perf_sets_suite());
	srunner_add_suite(sr, sim_perf_sample_suite());
	srunner_add_suite(sr, sim_perf_hybrid_suite());
#endif
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
