/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Put before a perf_events selftest's source (selftests.mk, -include): the
 * kernel's test harness with a per-case limit of SELFTEST_CASE_LIMIT seconds
 * instead of its 30.  The 6.1 harness runs a case's body after SKIP() in its
 * fixture's setup, and perf_mmap's aux variant, whose setup skips where no PMU
 * has an AUX area (under TCG), then runs until the limit: 30 s for each of its
 * three cases, natively and through the shim, where the cases that work take
 * milliseconds.  The source's own include of the harness is then a no-op.
 */
#include "kselftest_harness.h"
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT SELFTEST_CASE_LIMIT
