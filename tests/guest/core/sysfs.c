// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs: what /sys/kernel/perfmon publishes.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

START_TEST(test_version)
{
	char buf[64];

	ck_assert_msg(!sysfs_read(PFM_SYSFS "/version", buf, sizeof(buf)),
		      "read version: %s", strerror(errno));
	buf[strcspn(buf, "\n")] = '\0';
	ck_assert_str_eq(buf, "2.90");
}
END_TEST

/* a file that exists and reads as something */
static void ck_nonempty(const char *path)
{
	char buf[256];

	ck_assert_msg(!sysfs_read(path, buf, sizeof(buf)), "read %s: %s",
		      path, strerror(errno));
	ck_assert_msg(buf[0] && buf[0] != '\n', "%s is empty", path);
}

START_TEST(test_pmu_desc_model)
{
	ck_nonempty(PFM_SYSFS "/pmu_desc/model");
}
END_TEST

/* the software PMU is always there, first and last register */
START_TEST(test_pmu_desc_sw_regs)
{
	char path[128];
	int reg[] = { PFM_SW_FIRST_PMC, PFM_SW_FIRST_PMC + PFM_SW_NUM_COUNTERS - 1 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(reg); i++) {
		snprintf(path, sizeof(path), PFM_SYSFS "/pmu_desc/pmc%d/name",
			 reg[i]);
		ck_nonempty(path);
		snprintf(path, sizeof(path), PFM_SYSFS "/pmu_desc/pmd%d/name",
			 reg[i] - PFM_SW_FIRST_PMC + PFM_SW_FIRST_PMD);
		ck_nonempty(path);
	}
}
END_TEST

static uint64_t ck_read_mask(const char *path)
{
	char buf[64], *end;
	uint64_t v;

	ck_assert_msg(!sysfs_read(path, buf, sizeof(buf)), "read %s: %s", path,
		      strerror(errno));
	v = strtoull(buf, &end, 16);
	ck_assert_msg(!strncmp(buf, "0x", 2) && *end == '\n', "%s: '%s'", path, buf);
	return v;
}

/* each software PMC says which bits are reserved and which need privilege */
START_TEST(test_pmu_desc_sw_masks)
{
	char path[128];
	uint64_t v;
	int i;

	for (i = 0; i < PFM_SW_NUM_COUNTERS; i++) {
		snprintf(path, sizeof(path), PFM_SYSFS "/pmu_desc/pmc%d/priv_msk", SW_PMC(i));
		v = ck_read_mask(path);
		ck_assert_msg(v == PFM_SW_PMC_OS, "%s: %#llx", path, (unsigned long long)v);
		snprintf(path, sizeof(path), PFM_SYSFS "/pmu_desc/pmc%d/rsvd_msk", SW_PMC(i));
		v = ck_read_mask(path);
		ck_assert_msg(v == ~(PFM_SW_PMC_EVENT_MASK | PFM_SW_PMC_USR | PFM_SW_PMC_OS |
				     PFM_SW_PMC_EN | PFM_SW_PMC_KEY_MASK),
			      "%s: %#llx", path, (unsigned long long)v);
	}
}
END_TEST

START_TEST(test_arg_mem_max_write)
{
	long old = ck_sysfs_read_long(PFM_ARG_MEM_MAX);

	ck_assert_int_gt(old, 0);
	ck_assert_ok(sysfs_write(PFM_ARG_MEM_MAX, "8192\n"));
	ck_assert_int_eq(ck_sysfs_read_long(PFM_ARG_MEM_MAX), 8192);
	arg_mem_max_restore();
	ck_assert_int_eq(ck_sysfs_read_long(PFM_ARG_MEM_MAX), old);
}
END_TEST

static const char *const bad_arg_mem_max[] = { "0\n", "garbage\n", "-1\n" };

START_TEST(test_arg_mem_max_invalid)
{
	long old = ck_sysfs_read_long(PFM_ARG_MEM_MAX);
	const char *s = bad_arg_mem_max[_i];
	int r, err;

	errno = 0;
	r = sysfs_write(PFM_ARG_MEM_MAX, s);
	err = errno;
	ck_assert_msg(r == -1 && err == EINVAL, "writing '%s' to arg_mem_max: %s",
		      s, r ? strerror(err) : "accepted");
	ck_assert_int_eq(ck_sysfs_read_long(PFM_ARG_MEM_MAX), old);
}
END_TEST

Suite *pfm_sysfs_suite(void)
{
	Suite *s = suite_create("sysfs");
	TCase *tc;

	tc = pfm_tcase("sysfs");
	tcase_add_test(tc, test_version);
	tcase_add_test(tc, test_pmu_desc_model);
	tcase_add_test(tc, test_pmu_desc_sw_regs);
	tcase_add_test(tc, test_pmu_desc_sw_masks);
	suite_add_tcase(s, tc);

	/* these change arg_mem_max: the runner puts it back whatever happens */
	tc = pfm_tcase("arg_mem_max");
	tcase_add_unchecked_fixture(tc, arg_mem_max_save, arg_mem_max_restore);
	tcase_add_test(tc, test_arg_mem_max_write);
	tcase_add_loop_test(tc, test_arg_mem_max_invalid, 0,
			    ARRAY_SIZE(bad_arg_mem_max));
	suite_add_tcase(s, tc);
	return s;
}
