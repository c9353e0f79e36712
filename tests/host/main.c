// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_host_tests: host unit tests of the perfmon core (see harness.h).
 *
 * Every test runs in its own process (CK_FORK): the core's globals (the PMU
 * description, the software PMU's register bank) start fresh in each.
 * Exit status: 0 when every test passed.
 */
#include "harness.h"

int main(void)
{
	SRunner *sr;
	int failed;

	sr = srunner_create(pfm_args_suite());
	srunner_add_suite(sr, pfm_ctx_suite());
	srunner_add_suite(sr, pfm_pmu_suite());
	srunner_add_suite(sr, pfm_sets_suite());
	srunner_add_suite(sr, pfm_set_room_suite());
	srunner_add_suite(sr, pfm_notify_suite());
	srunner_add_suite(sr, pfm_mux_smpl_suite());
	srunner_add_suite(sr, pfm_rw_suite());
	srunner_add_suite(sr, pfm_read_user_suite());
	srunner_add_suite(sr, pfm_emul64_suite());
	srunner_add_suite(sr, pfm_state_suite());
	srunner_add_suite(sr, pfm_sw_suite());
	srunner_add_suite(sr, pfm_sw_banks_suite());
	srunner_add_suite(sr, pfm_sw_words_suite());
	srunner_add_suite(sr, pfm_sw_keyed_suite());
	srunner_add_suite(sr, pfm_upage_suite());
	srunner_add_suite(sr, pfm_calls_suite());
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
