// SPDX-License-Identifier: GPL-2.0
/*
 * mux_accuracy: the accuracy goals for multiplexed counts, asserted on the
 * benchmark's phased workload of known counts (tools/bench/mux_work.h), every set
 * counting system calls and page faults, switched every 1 ms less a random part.
 *
 * The goals hold only where the guest's clock follows the program's work: make
 * check-mux boots the guest under QEMU's instruction counting and sets
 * PFM_MUX_ACCURACY=1.  Under plain TCG (make check-guest) the clock runs on while
 * the host deschedules QEMU, and these tests say so and pass without measuring.
 * PFM_MUX_REPS=n changes the runs per configuration.
 *
 * Phased, 2, 4 and 8 sets, 8 runs each: the reported estimate (pfm_mux_choose())
 * within 2% on average over the runs, every event of every run within 5%, the
 * 95% bounds holding at least 95% of the time.  Linear scaling (perf's method)
 * meets these too, so at 2 and 4 sets the reported estimate must also be at
 * most 3/4 as far off as linear scaling on average over the same runs: that
 * fails if interpolation is turned off.
 * The work clock (pfm_mux_work_clock()) is hardly exercised here: an instruction
 * counted guest's clock stops while QEMU is descheduled, so no run is stretched
 * by the host; the library's tests (tests/lib/mux_test.c) cover it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "mux_work.h"
#include "util.h"
#include "suites.h"

#define MUX_TIMEOUT	NSEC_PER_MSEC
#define MAX_REPS	64

static int reps(int dfl)
{
	const char *v = getenv("PFM_MUX_REPS");
	int n = v ? atoi(v) : dfl;

	return n < 2 ? 2 : n > MAX_REPS ? MAX_REPS : n;
}

static int measured(void)
{
	if (getenv("PFM_MUX_ACCURACY"))
		return 1;
	printf("mux_accuracy: not measured: the guest's clock is not instruction counted "
	       "(make check-mux)\n");
	return 0;
}

/*
 * n runs of workload w under nsets sets; the figures of the three methods are
 * printed and returned.
 */
static void ck_mux_runs(enum mux_workload w, const char *name, int nsets, int n,
			struct mux_figures f[MUX_METHODS])
{
	static const char *const method[MUX_METHODS] = { "linear", "interpolated",
							 "reported" };
	static struct mux_result res[MAX_REPS];
	struct mux_exact ex;
	int i;

	ck_assert_ok(mux_exact(w, &ex));
	for (i = 0; i < n; i++)
		ck_assert_ok(mux_measure(w, nsets, MUX_TIMEOUT, mux_mask_for(MUX_TIMEOUT), &ex,
					 &res[i]));
	for (i = 0; i < MUX_METHODS; i++) {
		mux_summarise(res, n, i, &f[i]);
		printf("mux_accuracy: %s, %d sets, %d runs, %-12s mean error %5.2f%% "
		       "(sd %4.2f%%, median %5.2f%%, max %5.2f%%), worst event %5.2f%% "
		       "(median %5.2f%%), bounds hold %5.1f%%\n", name, nsets, n, method[i],
		       f[i].mean_avg * 100, f[i].mean_sd * 100, f[i].mean_med * 100,
		       f[i].mean_max * 100, f[i].worst_max * 100, f[i].worst_med * 100,
		       f[i].cover * 100);
	}
	fflush(stdout);
}

static void ck_goals(const struct mux_figures *f, int nsets)
{
	ck_assert_msg(f->mean_avg <= MUX_GOAL_MEAN, "%d sets: mean error %.2f%% > 2%%",
		      nsets, f->mean_avg * 100);
	ck_assert_msg(f->worst_max <= MUX_GOAL_WORST, "%d sets: an event %.2f%% off > 5%%",
		      nsets, f->worst_max * 100);
	ck_assert_msg(f->cover >= MUX_GOAL_COVER, "%d sets: bounds held %.1f%% < 95%%",
		      nsets, f->cover * 100);
}

/* Interpolation's gain over linear scaling, where it is clear (above). */
#define MUX_GAIN	0.75

static void ck_phased(int nsets)
{
	struct mux_figures f[MUX_METHODS];

	if (!measured())
		return;
	ck_mux_runs(MUX_PHASED, "phased", nsets, reps(8), f);
	ck_goals(&f[MUX_CHOSEN], nsets);
	if (nsets <= 4)
		ck_assert_msg(f[MUX_CHOSEN].mean_avg <= MUX_GAIN * f[MUX_LINEAR].mean_avg,
			      "%d sets: mean error %.2f%%, linear scaling's %.2f%%", nsets,
			      f[MUX_CHOSEN].mean_avg * 100, f[MUX_LINEAR].mean_avg * 100);
}

START_TEST(test_phased_2sets)
{
	ck_phased(2);
}
END_TEST

START_TEST(test_phased_4sets)
{
	ck_phased(4);
}
END_TEST

START_TEST(test_phased_8sets)
{
	ck_phased(8);
}
END_TEST

Suite *pfm_mux_accuracy_suite(void)
{
	Suite *s = suite_create("mux_accuracy");
	TCase *tc = pfm_tcase("phased");

	/* instruction counted: a run is some 1.7 s of guest time */
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_phased_2sets);
	tcase_add_test(tc, test_phased_4sets);
	tcase_add_test(tc, test_phased_8sets);
	suite_add_tcase(s, tc);
	return s;
}
