// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon's multiplexed-count estimator (libpfm-glue/mux.c), on the host, on
 * programs whose exact count is known in closed form: sets switched round-robin
 * over a cumulative count F(t), each run observing F at its two ends as the
 * kernel's log would.  Also the log reader on a buffer laid out as the kernel's.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mux.h"

#define MAX_RUNS	4096

/* A program: cumulative count at live time t (ns). */
struct prog {
	double (*f)(const struct prog *p, double t);
	double r1, r2;		/* rates (events per ns) */
	double p1, p2;		/* phase lengths (ns), or the ramp's length */
	double shift;		/* phase offset */
};

static double f_const(const struct prog *p, double t)
{
	return p->r1 * t;
}

/* The rate ramps linearly from r1 at 0 to r2 at p1. */
static double f_ramp(const struct prog *p, double t)
{
	return p->r1 * t + (p->r2 - p->r1) * t * t / (2 * p->p1);
}

/* Phases: r1 for p1, then r2 for p2, repeated, starting shift into the cycle. */
static double f_phased_from0(const struct prog *p, double t)
{
	double cyc = p->p1 + p->p2, n = floor(t / cyc), x = t - n * cyc;

	return n * (p->r1 * p->p1 + p->r2 * p->p2) +
	       (x < p->p1 ? p->r1 * x : p->r1 * p->p1 + p->r2 * (x - p->p1));
}

static double f_phased(const struct prog *p, double t)
{
	return f_phased_from0(p, t + p->shift) - f_phased_from0(p, p->shift);
}

static double rnd(void)
{
	return (double)random() / RAND_MAX;
}

/*
 * The runs of set s among nsets switched every timeout ns (less a random part up to
 * jitter ns if non-zero) over total ns; counts rounded down as a counter would.
 */
static unsigned int simulate(const struct prog *p, int nsets, int s, double timeout,
			     double jitter, double total, struct pfm_mux_run *runs)
{
	double t = 0;
	unsigned int n = 0;
	int cur = 0;

	while (t < total) {
		double len = timeout - (jitter ? rnd() * jitter : 0);
		double end = fmin(t + len, total);

		if (cur == s) {
			ck_assert_uint_lt(n, MAX_RUNS);
			runs[n].t0 = (uint64_t)t;
			runs[n].t1 = (uint64_t)end;
			runs[n].c0 = (uint64_t)p->f(p, runs[n].t0);
			runs[n].c1 = (uint64_t)p->f(p, runs[n].t1);
			n++;
		}
		t = end;
		cur = (cur + 1) % nsets;
	}
	return n;
}

static double rel(double est, double exact)
{
	return fabs(est - exact) / exact;
}

static struct pfm_mux_run runs[MAX_RUNS];

/* A steady rate: both methods are exact, whatever the set. */
START_TEST(test_constant)
{
	struct prog p = { .f = f_const, .r1 = 0.5 };
	struct pfm_mux_est lin, in;
	const double T = 100e6;
	int s;

	for (s = 0; s < 4; s++) {
		unsigned int n = simulate(&p, 4, s, 1e6, 0, T, runs);

		ck_assert_int_eq(pfm_mux_estimate(runs, n, T, &lin, &in), 0);
		ck_assert_msg(rel(lin.value, p.f(&p, T)) < 1e-4, "lin %f", lin.value);
		ck_assert_msg(rel(in.value, p.f(&p, T)) < 1e-4, "int %f", in.value);
		ck_assert_uint_eq(in.runs, n);
		ck_assert(fabs(in.live_frac - 0.25) < 0.01);
		/* no variation: only the count noise is left */
		ck_assert_msg(in.bound < 0.01 * in.value, "bound %f", in.bound);
	}
}
END_TEST

/*
 * A rate that grows over the program: linear scaling credits a set with the mean
 * of the rates it saw, early or late in each cycle; interpolation follows the
 * trend.  With 8 sets and 6 cycles the first set is off by several percent linearly
 * and within 0.5% interpolated, for every set.
 */
START_TEST(test_ramp)
{
	struct prog p = { .f = f_ramp, .r1 = 0.05, .r2 = 1.0, .p1 = 48e6 };
	struct pfm_mux_est lin, in;
	double exact = p.f(&p, 48e6), worst_lin = 0;
	int s;

	for (s = 0; s < 8; s++) {
		unsigned int n = simulate(&p, 8, s, 1e6, 0, 48e6, runs);

		ck_assert_int_eq(pfm_mux_estimate(runs, n, 48e6, &lin, &in), 0);
		ck_assert_msg(rel(in.value, exact) < 0.005, "set %d: int err %f", s,
			      rel(in.value, exact));
		worst_lin = fmax(worst_lin, rel(lin.value, exact));
		ck_assert_msg(fabs(in.value - exact) <= in.bound, "set %d outside", s);
	}
	ck_assert_msg(worst_lin > 0.05, "linear worst %f", worst_lin);
}
END_TEST

/*
 * Phases of syscalls and faults longer than a cycle of sets, at a random offset, with
 * randomised timeouts: over 400 programs the 95% bound holds in at least 95% of them
 * for both methods, and interpolation is on average at least as good (for steps at
 * random offsets the two are close; trends tell them apart).
 */
START_TEST(test_phased_coverage)
{
	static const int nsets[] = { 2, 4, 8 };
	unsigned int k, trial, in_cov = 0, lin_cov = 0, total = 0;
	double sum_in = 0, sum_lin = 0;

	srandom(1);
	for (k = 0; k < 3; k++) {
		for (trial = 0; trial < 400 / 3 + 1; trial++) {
			struct prog p = { .f = f_phased, .r1 = 0.4, .r2 = 0.02,
					  .p1 = 20e6 + rnd() * 10e6, .p2 = 10e6 + rnd() * 5e6 };
			struct pfm_mux_est lin, in;
			double T = 300e6, exact;
			int s = random() % nsets[k];
			unsigned int n;

			p.shift = rnd() * (p.p1 + p.p2);
			exact = p.f(&p, T);
			n = simulate(&p, nsets[k], s, 1e6, 0.25e6, T, runs);
			ck_assert_int_eq(pfm_mux_estimate(runs, n, T, &lin, &in), 0);
			in_cov += fabs(in.value - exact) <= in.bound;
			lin_cov += fabs(lin.value - exact) <= lin.bound;
			sum_in += rel(in.value, exact);
			sum_lin += rel(lin.value, exact);
			total++;
		}
	}
	printf("mux: phased: int mean err %.4f cover %u/%u, lin mean err %.4f cover %u/%u\n",
	       sum_in / total, in_cov, total, sum_lin / total, lin_cov, total);
	ck_assert_msg(in_cov >= 0.95 * total, "interpolation bound held %u/%u", in_cov, total);
	ck_assert_msg(lin_cov >= 0.95 * total, "linear bound held %u/%u", lin_cov, total);
	ck_assert_msg(sum_in <= sum_lin, "mean err int %f lin %f", sum_in / total,
		      sum_lin / total);
	ck_assert_msg(sum_in / total < 0.02, "mean err int %f", sum_in / total);
}
END_TEST

/*
 * The estimate reported: interpolation when within linear scaling's bound of it and
 * the more precise, with linear scaling's bound; linear scaling when they disagree
 * more, when interpolation's bound is not the narrower, or when linear scaling saw
 * fewer than two runs.
 */
START_TEST(test_choose)
{
	struct pfm_mux_est lin = { .value = 1000, .bound = 50, .runs = 10 };
	struct pfm_mux_est in = { .value = 1030, .bound = 20, .runs = 10 };

	ck_assert_ptr_eq(pfm_mux_choose(&lin, &in), &in);
	ck_assert(fabs(in.value - 1030) < 1e-9);
	ck_assert(fabs(in.bound - 50) < 1e-9);
	ck_assert(fabs(lin.value - 1000) < 1e-9 && fabs(lin.bound - 50) < 1e-9);
	in.bound = 50;
	ck_assert_ptr_eq(pfm_mux_choose(&lin, &in), &lin);
	in.bound = 20;
	in.value = 1051;
	ck_assert_ptr_eq(pfm_mux_choose(&lin, &in), &lin);
	in.value = 949;
	ck_assert_ptr_eq(pfm_mux_choose(&lin, &in), &lin);
	in.value = 1000;
	lin.runs = 1;
	ck_assert_ptr_eq(pfm_mux_choose(&lin, &in), &lin);
}
END_TEST

/*
 * Stretched runs (every fifth run of a set ten times as long, at a tenth of the
 * rate, as a long system call or a stalled CPU makes them): interpolation's bound
 * is widened to hold linear scaling's interval, so linear scaling is reported.
 */
START_TEST(test_stretched_runs)
{
	struct pfm_mux_est lin, in;
	uint64_t t = 0, c = 0;
	unsigned int k, n = 0;

	for (k = 0; k < 200; k++) {
		/* 1000 events a run: a stretched run has a tenth of the rate */
		uint64_t d = k % 5 ? 1000000 : 10000000;

		if (k % 2 == 0)
			runs[n++] = (struct pfm_mux_run){ t, t + d, c, c + 1000 };
		t += d;
		c += 1000;
	}
	ck_assert_int_eq(pfm_mux_estimate(runs, n, t, &lin, &in), 0);
	ck_assert(in.bound >= fabs(in.value - lin.value) + lin.bound - 1e-6);
	ck_assert_ptr_eq(pfm_mux_choose(&lin, &in), &lin);
}
END_TEST

START_TEST(test_estimate_errors)
{
	struct pfm_mux_run r[2] = { { 0, 10, 0, 5 }, { 20, 30, 5, 9 } };
	struct pfm_mux_est e;

	ck_assert_int_eq(pfm_mux_estimate(r, 2, 30, &e, NULL), 0);
	ck_assert_int_eq(pfm_mux_estimate(r, 2, 30, NULL, NULL), 0);
	errno = 0;
	ck_assert_int_eq(pfm_mux_estimate(r, 2, 29, &e, &e), -1);	/* past the end */
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(pfm_mux_estimate(r, 0, 30, &e, &e), -1);	/* no run */
	ck_assert_int_eq(errno, EINVAL);
	r[1].t0 = 5;							/* overlap */
	errno = 0;
	ck_assert_int_eq(pfm_mux_estimate(r, 2, 30, &e, &e), -1);
	ck_assert_int_eq(errno, EINVAL);
	r[1].t0 = 20;
	r[1].c1 = 4;							/* backwards */
	errno = 0;
	ck_assert_int_eq(pfm_mux_estimate(r, 2, 30, &e, &e), -1);
	ck_assert_int_eq(errno, EINVAL);
	r[0].t1 = 0;
	r[1].t1 = 20;							/* no duration */
	r[1].c1 = 9;
	errno = 0;
	ck_assert_int_eq(pfm_mux_estimate(r, 2, 30, &e, &e), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(pfm_mux_estimate(NULL, 2, 30, &e, &e), -1);
	/* one run: the bound is the estimate */
	r[0] = (struct pfm_mux_run){ 0, 10, 0, 5 };
	ck_assert_int_eq(pfm_mux_estimate(r, 1, 40, &e, NULL), 0);
	ck_assert(fabs(e.value - 20) < 1e-9 && fabs(e.bound - 20) < 1e-9);
}
END_TEST

/* Builds a log as the kernel writes it. */
static uint64_t logbuf[1 << 17];
static size_t log_off;

static void log_reset(void)
{
	struct pfm_mux_smpl_hdr *h = (void *)logbuf;

	memset(logbuf, 0, sizeof(logbuf));
	h->hdr_version = PFM_MUX_SMPL_VERSION;
	h->hdr_buf_size = sizeof(logbuf);
	log_off = sizeof(*h);
	h->hdr_cur_offs = log_off;
}

static void log_add(uint64_t t, int prev, uint16_t next, unsigned int np,
		    const uint64_t *pv, unsigned int nn, const uint64_t *nv)
{
	struct pfm_mux_smpl_hdr *h = (void *)logbuf;
	struct pfm_mux_smpl_entry *e = (void *)((char *)logbuf + log_off);
	uint64_t *v = (uint64_t *)(e + 1);

	e->live_ns = t;
	e->flags = prev >= 0 ? PFM_MUX_PREV : PFM_MUX_START;
	e->prev_set = prev >= 0 ? prev : 0;
	e->next_set = next;
	e->nr_prev = np;
	e->nr_next = nn;
	memcpy(v, pv, np * 8);
	memcpy(v + np, nv, nn * 8);
	log_off += sizeof(*e) + (np + nn) * 8;
	h->hdr_cur_offs = log_off;
	h->hdr_count++;
}

START_TEST(test_log_runs)
{
	uint64_t a0[2] = { 0, 0 }, b0[1] = { 7 }, a1[2] = { 10, 20 }, b1[1] = { 9 };
	uint64_t a2[2] = { 15, 40 };
	struct pfm_mux_smpl_hdr *h = (void *)logbuf;
	unsigned int n;

	log_reset();
	log_add(0, -1, 0, 0, NULL, 2, a0);			/* start: set 0 */
	log_add(100, 0, 1, 2, a1, 1, b0);			/* 0 -> 1 */
	log_add(250, 1, 0, 1, b1, 2, a1);			/* 1 -> 0 */
	log_add(300, 0, 1, 2, a2, 1, b1);			/* 0 -> 1, open at stop */
	ck_assert_int_eq(pfm_mux_log_runs(logbuf, 0, 1, 999, 0, runs, 10, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert(runs[0].t0 == 0 && runs[0].t1 == 100 && runs[0].c0 == 0 && runs[0].c1 == 20);
	ck_assert(runs[1].t0 == 250 && runs[1].t1 == 300 && runs[1].c0 == 20 &&
		  runs[1].c1 == 40);
	ck_assert_int_eq(pfm_mux_log_runs(logbuf, 1, 0, 400, 12, runs, 10, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert(runs[0].t0 == 100 && runs[0].t1 == 250 && runs[0].c0 == 7 && runs[0].c1 == 9);
	ck_assert(runs[1].t0 == 300 && runs[1].t1 == 400 && runs[1].c0 == 9 &&
		  runs[1].c1 == 12);
	/* a set not in the log has no run */
	ck_assert_int_eq(pfm_mux_log_runs(logbuf, 5, 0, 400, 0, runs, 10, &n), 0);
	ck_assert_uint_eq(n, 0);

	errno = 0;
	ck_assert_int_eq(pfm_mux_log_runs(logbuf, 1, 1, 400, 0, runs, 10, &n), -1);
	ck_assert_int_eq(errno, EINVAL);			/* set 1 has one value */
	errno = 0;
	ck_assert_int_eq(pfm_mux_log_runs(logbuf, 0, 0, 400, 0, runs, 1, &n), -1);
	ck_assert_int_eq(errno, ENOBUFS);			/* room for one run */
	h->hdr_lost = 1;
	errno = 0;
	ck_assert_int_eq(pfm_mux_log_runs(logbuf, 0, 0, 400, 0, runs, 10, &n), -1);
	ck_assert_int_eq(errno, ENOBUFS);
	h->hdr_lost = 0;
	h->hdr_version = 0x20000;
	errno = 0;
	ck_assert_int_eq(pfm_mux_log_runs(logbuf, 0, 0, 400, 0, runs, 10, &n), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST


/*
 * The work clock on a log of two sets taking turns every 100 ns, but for one run
 * of set 1 that lasted 1000: beyond 1.5 times its set's median run (100) it is a
 * stall, and the run counts half a median run of work (50).  Every bad input is
 * EINVAL and changes nothing.
 */
START_TEST(test_work_clock)
{
	static const uint64_t t[] = { 0, 100, 200, 300, 400, 500, 1500, 1600, 1700, 1800 };
	static const uint64_t w1[][2] = { { 100, 200 }, { 300, 400 }, { 500, 550 },
					  { 650, 750 }, { 850, 950 } };
	struct pfm_mux_smpl_hdr *h = (void *)logbuf;
	uint64_t v[2] = { 0, 0 }, total;
	struct pfm_mux_run saved;
	unsigned int k, n;

	log_reset();
	for (k = 0; k < 10; k++) {
		uint64_t pv = v[(k + 1) % 2], nv = v[k % 2];

		log_add(t[k], k ? (int)(k + 1) % 2 : -1, k % 2, k ? 1 : 0, &pv, 1, &nv);
		v[k % 2] += 10;
	}
	ck_assert_int_eq(pfm_mux_log_runs(logbuf, 1, 0, 1900, 50, runs, MAX_RUNS, &n), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_int_eq(pfm_mux_work_clock(logbuf, 1900, runs, n, &total), 0);
	ck_assert_uint_eq(total, 950);
	for (k = 0; k < n; k++) {
		ck_assert_uint_eq(runs[k].t0, w1[k][0]);
		ck_assert_uint_eq(runs[k].t1, w1[k][1]);
	}
	/* set 0's runs are all regular: shifted, not shortened */
	ck_assert_int_eq(pfm_mux_log_runs(logbuf, 0, 0, 1900, 50, runs, MAX_RUNS, &n), 0);
	ck_assert_int_eq(pfm_mux_work_clock(logbuf, 1900, runs, n, &total), 0);
	ck_assert(runs[3].t0 == 550 && runs[3].t1 == 650 && runs[4].t1 == 850);
	/* no run: the total alone */
	ck_assert_int_eq(pfm_mux_work_clock(logbuf, 1900, NULL, 0, &total), 0);
	ck_assert_uint_eq(total, 950);

	runs[0] = (struct pfm_mux_run){ 0, 100, 0, 10 };
	saved = runs[0];
	total = 7;
	errno = 0;
	ck_assert_int_eq(pfm_mux_work_clock(NULL, 1900, runs, 1, &total), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(pfm_mux_work_clock(logbuf, 1900, NULL, 1, &total), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(pfm_mux_work_clock(logbuf, 1900, runs, 1, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	runs[0].t1 = 2000;					/* past the end */
	errno = 0;
	ck_assert_int_eq(pfm_mux_work_clock(logbuf, 1900, runs, 1, &total), -1);
	ck_assert_int_eq(errno, EINVAL);
	runs[0] = (struct pfm_mux_run){ 200, 100, 0, 10 };	/* ends before it begins */
	errno = 0;
	ck_assert_int_eq(pfm_mux_work_clock(logbuf, 1900, runs, 1, &total), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert(runs[0].t0 == 200 && runs[0].t1 == 100);
	runs[0] = saved;
	errno = 0;						/* the log ends after end_ns */
	ck_assert_int_eq(pfm_mux_work_clock(logbuf, 1700, runs, 1, &total), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert(runs[0].t0 == saved.t0 && runs[0].t1 == saved.t1);
	h->hdr_version = 0x20000;				/* a bad header */
	errno = 0;
	ck_assert_int_eq(pfm_mux_work_clock(logbuf, 1900, runs, 1, &total), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(total, 7);
}
END_TEST

/*
 * Stalls: the machine stops the program now and then while its clock runs on (a
 * descheduled virtual CPU, as TCG's host makes them), so a run lasts the stall on
 * top of its work, and a stall that outlasts the run's timeout ends the run when
 * it ends.  Programs of known phases (on the work clock) switched among 2, 4 and
 * 8 sets, one run in 8 stalled for 0.2 to 40 timeouts: on the work clock each
 * set's reported estimate is within 2% on average and its 95% bound holds the
 * exact count at least 95% of the time; the same runs on the live clock (linear
 * scaling there, perf's method) are off by several times more.
 */
static void stalled_log(const struct prog *p, int nsets, double timeout, double work,
				uint64_t *live_end)
{
	double w = 0, t = 0;
	uint64_t prev_val = 0;
	int cur = 0, first = 1;

	log_reset();
	while (w < work) {
		double tau = timeout - rnd() * timeout / 4, u = tau, len = tau;
		uint64_t v = (uint64_t)p->f(p, w);

		log_add((uint64_t)t, first ? -1 : (cur + nsets - 1) % nsets, cur,
			first ? 0 : 1, &prev_val, 1, &v);
		first = 0;
		if (w + tau >= work) {
			/* the program ends first */
			u = len = work - w;
		} else if (random() % 8 == 0) {
			double at = rnd() * tau, stall = (0.2 + rnd() * 40) * timeout;

			/* the timer fires at tau of live time, or when the stall ends */
			u = at + stall >= tau ? at : tau - stall;
			len = fmax(tau, at + stall);
		}
		w += u;
		t += len;
		prev_val = (uint64_t)p->f(p, w);
		cur = (cur + 1) % nsets;
	}
	*live_end = (uint64_t)t;
}

START_TEST(test_stalls)
{
	static const int nsets[] = { 2, 4, 8 };
	unsigned int k, trial, cov = 0, total = 0;
	double err = 0, err_live = 0, worst = 0;

	srandom(2);
	for (k = 0; k < 3; k++) {
		for (trial = 0; trial < 50; trial++) {
			struct prog p = { .f = f_phased, .r1 = 0.4, .r2 = 0.02,
					  .p1 = 20e6 + rnd() * 10e6, .p2 = 10e6 + rnd() * 5e6 };
			const double W = 300e6;
			struct pfm_mux_est lin, in;
			const struct pfm_mux_est *best;
			uint64_t end, wtotal, last;
			double exact, e;
			int s = random() % nsets[k];
			unsigned int n;

			p.shift = rnd() * (p.p1 + p.p2);
			exact = p.f(&p, W);
			stalled_log(&p, nsets[k], 1e6, W, &end);
			/* the run under way at the end reads the final count */
			last = (uint64_t)exact;
			ck_assert_int_eq(pfm_mux_log_runs(logbuf, s, 0, end, last, runs, MAX_RUNS,
							  &n), 0);
			ck_assert_int_eq(pfm_mux_estimate(runs, n, end, &lin, NULL), 0);
			err_live += rel(lin.value, exact);
			ck_assert_int_eq(pfm_mux_work_clock(logbuf, end, runs, n, &wtotal), 0);
			ck_assert_uint_le(wtotal, end);
			ck_assert_int_eq(pfm_mux_estimate(runs, n, wtotal, &lin, &in), 0);
			best = pfm_mux_choose(&lin, &in);
			e = rel(best->value, exact);
			err += e;
			worst = fmax(worst, e);
			cov += fabs(best->value - exact) <= best->bound;
			total++;
		}
	}
	printf("mux: stalls: work clock mean err %.4f worst %.4f cover %u/%u; "
	       "live clock linear mean err %.4f\n", err / total, worst, cov, total,
	       err_live / total);
	ck_assert_msg(err / total < 0.02, "mean err %f", err / total);
	ck_assert_msg(cov >= 0.95 * total, "bound held %u/%u", cov, total);
	ck_assert_msg(err_live > 3 * err, "live clock %f work clock %f", err_live / total,
		      err / total);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("mux");
	TCase *tc = tcase_create("mux");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_constant);
	tcase_add_test(tc, test_ramp);
	tcase_add_test(tc, test_phased_coverage);
	tcase_add_test(tc, test_choose);
	tcase_add_test(tc, test_stretched_runs);
	tcase_add_test(tc, test_estimate_errors);
	tcase_add_test(tc, test_log_runs);
	tcase_add_test(tc, test_work_clock);
	tcase_add_test(tc, test_stalls);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
