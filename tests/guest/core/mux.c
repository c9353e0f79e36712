// SPDX-License-Identifier: GPL-2.0
/*
 * mux: the set switch log ("mux" format), randomised timeouts, and libperfmon's
 * estimates read from the log.
 *
 * The log and the kernel's own accounting must agree exactly: the runs the log
 * shows for a set add up to its live duration and its runs (pfm_getinfo_evtsets),
 * and the counts they show add up to the set's final values.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mux.h"
#include "util.h"
#include "suites.h"

#define LOG_SIZE	(256 << 10)
#define MAX_RUNS	4096

static int mux_ctx(size_t size)
{
	struct pfm_mux_smpl_arg arg = { .buf_size = size };

	return pfm_create_context(PFM_FL_SMPL_FMT, PFM_MUX_SMPL_NAME, &arg, sizeof(arg));
}

static void ck_mux_set(int fd, unsigned int id, unsigned int flags, uint64_t timeout,
		       uint64_t mask)
{
	struct pfarg_setdesc d;
	struct pfarg_pmc pc;
	struct pfarg_pmd pd;
	int i;

	memset(&d, 0, sizeof(d));
	d.set_id = id;
	d.set_flags = flags;
	d.set_timeout = timeout;
	d.set_timeout_mask = mask;
	ck_assert_ok(pfm_create_evtsets(fd, &d, sizeof(d)));
	/* system calls and task-clock, in this register order */
	for (i = 0; i < 2; i++) {
		pmc_init(&pc, SW_PMC(i), PFM_SW_PMC(i ? PFM_SW_EV_TASK_CLOCK : PFM_SW_EV_SYSCALLS));
		pc.reg_set = id;
		ck_assert_ok(pfm_write_pmcs(fd, &pc, sizeof(pc)));
		pmd_init(&pd, SW_PMD(i), 0);
		pd.reg_set = id;
		ck_assert_ok(pfm_write_pmds(fd, &pd, sizeof(pd)));
	}
}

START_TEST(test_mux_format_errors)
{
	struct pfm_mux_smpl_arg arg = { .buf_size = LOG_SIZE };
	int fd;

	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, PFM_MUX_SMPL_NAME, &arg,
					   sizeof(arg) - 8), EINVAL);
	arg.buf_size = PFM_MUX_SMPL_MIN_SIZE - 1;
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, PFM_MUX_SMPL_NAME, &arg,
					   sizeof(arg)), EINVAL);
	arg.buf_size = LOG_SIZE;
	arg.buf_flags = 1;
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, PFM_MUX_SMPL_NAME, &arg,
					   sizeof(arg)), EINVAL);
	arg.buf_flags = 0;
	arg.reserved[0] = 1;
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, PFM_MUX_SMPL_NAME, &arg,
					   sizeof(arg)), EINVAL);
	fd = mux_ctx(PFM_MUX_SMPL_MIN_SIZE);
	ck_assert_int_ge(fd, 0);
	/* the header as laid out */
	{
		const struct pfm_mux_smpl_hdr *h = mmap(NULL, PFM_MUX_SMPL_MIN_SIZE, PROT_READ,
							MAP_SHARED, fd, 0);

		ck_assert_ptr_ne(h, MAP_FAILED);
		ck_assert_uint_eq(h->hdr_version, PFM_MUX_SMPL_VERSION);
		ck_assert_uint_eq(h->hdr_cur_offs, sizeof(*h));
		ck_assert_uint_eq(h->hdr_count, 0);
		munmap((void *)h, PFM_MUX_SMPL_MIN_SIZE);
	}
	close(fd);
}
END_TEST

/* Every bad random timeout is EINVAL, through the real door. */
START_TEST(test_mux_random_timeout_errors)
{
	const unsigned int T = PFM_SETFL_TIME_SWITCH, R = PFM_SETFL_RANDOM_TIMEOUT;
	static const struct {
		unsigned int flags;
		uint64_t timeout, mask;
	} bad[] = {
		{ R, 1000000, 0xffff },			/* no timer */
		{ T | R, 1000000, 0 },			/* no range */
		{ T, 1000000, 0xffff },			/* range without the flag */
		{ 0, 0, 1 },
		{ T | R, 1000000, 1000000 },		/* nothing left of the timeout */
		{ T | R, 1000000, 995000 },		/* a run below the minimum */
	};
	struct pfarg_setdesc d;
	unsigned int k;
	int fd = ck_ctx_create();

	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		memset(&d, 0, sizeof(d));
		d.set_id = 1;
		d.set_flags = bad[k].flags;
		d.set_timeout = bad[k].timeout;
		d.set_timeout_mask = bad[k].mask;
		ck_assert_errno(pfm_create_evtsets(fd, &d, sizeof(d)), EINVAL);
	}
	memset(&d, 0, sizeof(d));
	d.set_id = 1;
	d.set_timeout_mask = 1;
	ck_assert_errno(pfm_delete_evtsets(fd, &d, sizeof(d)), EINVAL);
	close(fd);
}
END_TEST

/*
 * Three sets with random timeouts: the log's runs of each set add up to its runs and
 * its live duration exactly, their counts to its final values, and the run lengths
 * vary; libperfmon's estimates of the system calls hold the exact count within
 * their bounds' reach (the calls are the workload's own, so known).
 */
START_TEST(test_mux_log_agrees)
{
	static struct pfm_mux_run runs[MAX_RUNS];
	const long N = 30000;
	int fd = mux_ctx(LOG_SIZE), s;
	const struct pfm_mux_smpl_hdr *h;
	uint64_t total = 0, nrec = 0;

	ck_assert_int_ge(fd, 0);
	h = mmap(NULL, LOG_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(h, MAP_FAILED);
	for (s = 0; s < 3; s++)
		ck_mux_set(fd, s, PFM_SETFL_TIME_SWITCH | PFM_SETFL_RANDOM_TIMEOUT, 500000,
			   0x3ffff);
	ck_load_self(fd);
	pfm_start(fd, 0);
	do_getppid(N);
	pfm_stop(fd, 0);
	ck_assert_uint_eq(h->hdr_lost, 0);
	for (s = 0; s < 3; s++) {
		struct pfarg_setinfo si;

		memset(&si, 0, sizeof(si));
		si.set_id = s;
		ck_assert_ok(pfm_getinfo_evtsets(fd, &si, sizeof(si)));
		total += si.set_act_duration;
		nrec += si.set_runs;
	}
	/* one record per activation: three sets never take themselves again */
	ck_assert_uint_eq(h->hdr_count, nrec);
	for (s = 0; s < 3; s++) {
		struct pfarg_setinfo si;
		struct pfarg_pmd pd;
		uint64_t dur = 0, cnt = 0, dmin = ~0ULL, dmax = 0;
		struct pfm_mux_est lin, in;
		unsigned int n, k;

		memset(&si, 0, sizeof(si));
		si.set_id = s;
		ck_assert_ok(pfm_getinfo_evtsets(fd, &si, sizeof(si)));
		pmd_init(&pd, SW_PMD(0), 0);
		pd.reg_set = s;
		ck_assert_ok(pfm_read_pmds(fd, &pd, sizeof(pd)));
		ck_assert_ok(pfm_mux_log_runs(h, s, 0, total, pd.reg_value, runs, MAX_RUNS, &n));
		ck_assert_uint_eq(n, si.set_runs);
		for (k = 0; k < n; k++) {
			uint64_t d = runs[k].t1 - runs[k].t0;

			dur += d;
			cnt += runs[k].c1 - runs[k].c0;
			if (k + 1 < n) {
				dmin = d < dmin ? d : dmin;
				dmax = d > dmax ? d : dmax;
			}
		}
		ck_assert_uint_eq(dur, si.set_act_duration);
		ck_assert_uint_eq(cnt, pd.reg_value);
		ck_assert_msg(n < 4 || dmax > dmin, "set %d: runs all %llu ns", s,
			      (unsigned long long)dmin);
		ck_assert_ok(pfm_mux_count(fd, h, s, SW_PMD(0), 0, &lin, &in));
		ck_assert_uint_eq((uint64_t)lin.observed, pd.reg_value);
		printf("mux: set %d: %u runs, calls %llu: linear %.0f +- %.0f, "
		       "interpolated %.0f +- %.0f, exact %ld\n", s, n,
		       (unsigned long long)pd.reg_value, lin.value, lin.bound, in.value,
		       in.bound, N + 1);
	}
	munmap((void *)h, LOG_SIZE);
	close(fd);
}
END_TEST

Suite *pfm_mux_suite(void)
{
	Suite *s = suite_create("mux");
	TCase *tc = pfm_tcase("mux");

	tcase_add_test(tc, test_mux_format_errors);
	tcase_add_test(tc, test_mux_random_timeout_errors);
	tcase_add_test(tc, test_mux_log_agrees);
	suite_add_tcase(s, tc);
	return s;
}
