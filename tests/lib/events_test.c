// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon's hardware event names (libpfm-glue/events.c), on the host, with
 * libpfm4 told to take an Intel Skylake PMU as active (LIBPFM_FORCE_PMU=skl, set
 * by lib.mk): encodings, errors and counter assignment.
 *
 * INST_RETIRED:ANY_P at user level encodes as 0x5100c0, the value the x86
 * simulator's tests program (SEL_U(SIM_EV_INST), tests/sim/), so what libpfm4
 * names is what the drivers are tested with.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <perfmon/perfmon_x86.h>

#include "events.h"

static void ck_encode(const char *name, unsigned int plm, uint64_t code, int fixed)
{
	struct pfmg_event ev;

	ck_assert_msg(!pfmg_encode(name, plm, &ev), "%s: errno %d", name, errno);
	ck_assert_msg(ev.code == code && ev.fixed == fixed, "%s: %#llx fixed %d", name,
		      (unsigned long long)ev.code, ev.fixed);
}

static void ck_encode_errno(const char *name, unsigned int plm, int err)
{
	struct pfmg_event ev;

	errno = 0;
	ck_assert_msg(pfmg_encode(name, plm, &ev) == -1 && errno == err,
		      "%s: errno %d, not %d", name, errno, err);
}

START_TEST(test_encode)
{
	ck_encode("INST_RETIRED:ANY_P", PFMG_PLM_USR, 0x5100c0, -1);
	ck_encode("INST_RETIRED:ANY_P", PFMG_PLM_USR | PFMG_PLM_OS, 0x5300c0, -1);
	ck_encode("INST_RETIRED:ANY_P:k", PFMG_PLM_USR, 0x5200c0, -1);	/* the name wins */
	ck_encode("INST_RETIRED:ANY_P:c=2", PFMG_PLM_USR, 0x25100c0, -1);
	ck_encode("BR_MISP_RETIRED", PFMG_PLM_USR, 0x5100c5, -1);
	ck_encode("skl::BR_MISP_RETIRED:ALL_BRANCHES", PFMG_PLM_USR, 0x5100c5, -1);
	/* fixed-counter-only: fixed counter 2, at the levels asked */
	ck_encode("UNHALTED_REFERENCE_CYCLES", PFMG_PLM_USR, PFM_X86_FIXED_USR(2), 2);
	ck_encode("UNHALTED_REFERENCE_CYCLES", PFMG_PLM_USR | PFMG_PLM_OS,
		  PFM_X86_FIXED_USR(2) | PFM_X86_FIXED_OS(2), 2);
}
END_TEST

START_TEST(test_encode_errors)
{
	struct pfmg_event ev;

	ck_encode_errno("NO_SUCH_EVENT", PFMG_PLM_USR, ENOENT);
	ck_encode_errno("INST_RETIRED:BOGUS", PFMG_PLM_USR, EINVAL);
	ck_encode_errno("INST_RETIRED:ANY_P", 0, EINVAL);
	ck_encode_errno("INST_RETIRED:ANY_P", 0x4, EINVAL);
	ck_encode_errno(NULL, PFMG_PLM_USR, EINVAL);
	errno = 0;
	ck_assert_int_eq(pfmg_encode("INST_RETIRED:ANY_P", PFMG_PLM_USR, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	(void)ev;
}
END_TEST

static struct pfmg_event ev_of(const char *name)
{
	struct pfmg_event ev;

	ck_assert_int_eq(pfmg_encode(name, PFMG_PLM_USR, &ev), 0);
	return ev;
}

START_TEST(test_assign)
{
	struct pfmg_event ev[3] = {
		ev_of("INST_RETIRED:ANY_P"), ev_of("UNHALTED_REFERENCE_CYCLES"),
		ev_of("BR_MISP_RETIRED"),
	};
	struct pfarg_pmc pmc[4];
	unsigned int npmc;
	uint16_t pmd[3];

	ck_assert_int_eq(pfmg_assign(ev, 3, 8, 3, pmc, &npmc, pmd), 0);
	ck_assert_uint_eq(npmc, 3);
	ck_assert_uint_eq(pmc[0].reg_num, 0);
	ck_assert_uint_eq(pmc[0].reg_value, 0x5100c0);
	ck_assert_uint_eq(pmc[1].reg_num, 1);
	ck_assert_uint_eq(pmc[1].reg_value, 0x5100c5);
	ck_assert_uint_eq(pmc[2].reg_num, PFM_X86_FIXED_CTRL_PMC);
	ck_assert_uint_eq(pmc[2].reg_value, PFM_X86_FIXED_USR(2));
	ck_assert_uint_eq(pmd[0], 0);
	ck_assert_uint_eq(pmd[1], PFM_X86_FIRST_FIXED_PMD + 2);
	ck_assert_uint_eq(pmd[2], 1);
}
END_TEST

START_TEST(test_assign_nospc)
{
	struct pfmg_event gp = ev_of("INST_RETIRED:ANY_P"), ref = ev_of("UNHALTED_REFERENCE_CYCLES");
	struct pfmg_event three[3] = { gp, gp, gp }, two_ref[2] = { ref, ref };
	struct pfarg_pmc pmc[4];
	unsigned int npmc;
	uint16_t pmd[3];

	errno = 0;
	ck_assert_int_eq(pfmg_assign(three, 3, 2, 3, pmc, &npmc, pmd), -1);
	ck_assert_int_eq(errno, ENOSPC);
	errno = 0;
	ck_assert_int_eq(pfmg_assign(two_ref, 2, 8, 3, pmc, &npmc, pmd), -1);
	ck_assert_int_eq(errno, ENOSPC);
	errno = 0;
	ck_assert_int_eq(pfmg_assign(&ref, 1, 8, 2, pmc, &npmc, pmd), -1);	/* no fixed 2 */
	ck_assert_int_eq(errno, ENOSPC);
	ck_assert_int_eq(pfmg_assign(three, 2, 2, 0, pmc, &npmc, pmd), 0);
	ck_assert_uint_eq(npmc, 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("events");
	TCase *tc = tcase_create("libpfm4");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_encode);
	tcase_add_test(tc, test_encode_errors);
	tcase_add_test(tc, test_assign);
	tcase_add_test(tc, test_assign_nospc);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
