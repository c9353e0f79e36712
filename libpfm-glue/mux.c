// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon: multiplexed counts, estimates and bounds (the formulas are in mux.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfmon.h"
#include "mux.h"

#define Z95	1.96
#define MUX_BATCHES	10
#define MUX_REGULAR	2

static int check_runs(const struct pfm_mux_run *runs, unsigned int n, uint64_t total_ns,
		      double *dsum)
{
	uint64_t last = 0;
	unsigned int k;

	*dsum = 0;
	for (k = 0; k < n; k++) {
		if (runs[k].t0 < last || runs[k].t1 < runs[k].t0 || runs[k].t1 > total_ns ||
		    runs[k].c1 < runs[k].c0)
			return -1;
		last = runs[k].t1;
		*dsum += runs[k].t1 - runs[k].t0;
	}
	return *dsum > 0 ? 0 : -1;
}

static double run_rate(const struct pfm_mux_run *r)
{
	return (double)(r->c1 - r->c0) / (double)(r->t1 - r->t0);
}

static double run_mid(const struct pfm_mux_run *r)
{
	return ((double)r->t0 + (double)r->t1) / 2;
}

/*
 * The runs with a duration, as rate points.  Runs of no duration (a start followed
 * at once by a stop) count, but give no rate.
 */
static unsigned int rate_points(const struct pfm_mux_run *runs, unsigned int n,
				const struct pfm_mux_run **pts)
{
	unsigned int k, m = 0;

	for (k = 0; k < n; k++)
		if (runs[k].t1 > runs[k].t0)
			pts[m++] = &runs[k];
	return m;
}

/* s^2: weighted half mean squared successive difference of the rates. */
static double rate_var_successive(const struct pfm_mux_run **p, unsigned int m)
{
	double num = 0, den = 0;
	unsigned int k;

	for (k = 0; k + 1 < m; k++) {
		double w = fmin(p[k]->t1 - p[k]->t0, p[k + 1]->t1 - p[k + 1]->t0);
		double dr = run_rate(p[k + 1]) - run_rate(p[k]);

		num += w * dr * dr;
		den += w;
	}
	return den > 0 ? num / (2 * den) : 0;
}

/* The rate at time t on the line through points a and b (a before b). */
static double rate_between(const struct pfm_mux_run *a, const struct pfm_mux_run *b, double t)
{
	double ma = run_mid(a), mb = run_mid(b);

	return run_rate(a) + (run_rate(b) - run_rate(a)) * (t - ma) / (mb - ma);
}

/*
 * Between two runs: their pooled rate, each weighted by its duration, which is the
 * line through their rates at the gap's middle when the runs are as long as each
 * other.  Weighting by duration keeps a run that the host stalled (long, at a low
 * rate) from being under-weighted, as linear scaling does.
 */
static double rate_pooled(const struct pfm_mux_run *a, const struct pfm_mux_run *b)
{
	return (double)(a->c1 - a->c0 + b->c1 - b->c0) /
	       (double)(a->t1 - a->t0 + b->t1 - b->t0);
}

static void interp_estimate(const struct pfm_mux_run **p, unsigned int m, double total,
			    double c, double d, struct pfm_mux_est *e)
{
	double s2 = rate_var_successive(p, m), gsq = 0, pois = 0, sum = c;
	double floor_rate = 1 / d;
	unsigned int j;

	/* gap j lies before point j (j < m), the last one after point m - 1 */
	for (j = 0; j <= m; j++) {
		double start = j ? p[j - 1]->t1 : 0;
		double end = j < m ? p[j]->t0 : total;
		double g = end - start, r;

		if (g <= 0)
			continue;
		if (m == 1)
			r = run_rate(p[0]);
		else if (j == 0)
			r = fmax(rate_between(p[0], p[1], (start + end) / 2), 0);
		else if (j == m)
			r = fmax(rate_between(p[m - 2], p[m - 1], (start + end) / 2), 0);
		else
			r = rate_pooled(p[j - 1], p[j]);
		sum += g * r;
		gsq += g * g;
		pois += g * fmax(r, floor_rate);
	}
	e->value = sum;
	e->bound = m < 2 ? sum : Z95 * sqrt(s2 * gsq + pois);
}

/* Student's t, 97.5% quantile, for 1 to MUX_BATCHES - 1 degrees of freedom */
static const double t975[MUX_BATCHES] = { 0, 12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36,
					  2.31, 2.26 };

static void linear_estimate(const struct pfm_mux_run **p, unsigned int m, double total,
			    double c, double d, struct pfm_mux_est *e)
{
	double mean = c / d, v = 0, gap = total - d;
	unsigned int b, k, nb = m / 2 < MUX_BATCHES ? m / 2 : MUX_BATCHES;

	e->value = c * total / d;
	if (m < 2) {
		e->bound = e->value;
		return;
	}
	if (nb < 2) {
		/* two or three runs: taken as independent */
		for (k = 0; k < m; k++) {
			double dr = run_rate(p[k]) - mean;

			v += (p[k]->t1 - p[k]->t0) * dr * dr;
		}
		e->bound = Z95 * sqrt(gap * gap * v / d / m + gap * fmax(mean, 1 / d));
		return;
	}
	/* batches of consecutive runs: what each counted beyond the mean rate */
	for (b = 0; b < nb; b++) {
		double cb = 0, db = 0;

		for (k = b * m / nb; k < (b + 1) * m / nb; k++) {
			cb += p[k]->c1 - p[k]->c0;
			db += p[k]->t1 - p[k]->t0;
		}
		v += (cb - mean * db) * (cb - mean * db);
	}
	v = v / (d * d) * nb / (nb - 1);
	e->bound = t975[nb - 1] * sqrt(gap * gap * v + gap * fmax(mean, 1 / d));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Runs as the timeouts make them: the 90th percentile of their durations within
 * MUX_REGULAR times the median.  Runs stretched by a long system call or a stalled
 * (virtual) CPU break that, and with it interpolation's premise.
 */
static int regular_runs(const struct pfm_mux_run **p, unsigned int m)
{
	double *d;
	unsigned int k;
	int ok;

	if (m < 4)
		return 1;
	d = malloc(m * sizeof(*d));
	if (!d)
		return 0;
	for (k = 0; k < m; k++)
		d[k] = p[k]->t1 - p[k]->t0;
	qsort(d, m, sizeof(*d), cmp_double);
	ok = d[m * 9 / 10] <= MUX_REGULAR * d[m / 2];
	free(d);
	return ok;
}

int pfm_mux_estimate(const struct pfm_mux_run *runs, unsigned int n, uint64_t total_ns,
		     struct pfm_mux_est *lin, struct pfm_mux_est *interp)
{
	const struct pfm_mux_run **pts;
	struct pfm_mux_est base;
	double c = 0, d;
	unsigned int k, m;

	if (!runs || check_runs(runs, n, total_ns, &d)) {
		errno = EINVAL;
		return -1;
	}
	pts = malloc(n * sizeof(*pts));
	if (!pts) {
		errno = ENOMEM;
		return -1;
	}
	for (k = 0; k < n; k++)
		c += runs[k].c1 - runs[k].c0;
	m = rate_points(runs, n, pts);
	memset(&base, 0, sizeof(base));
	base.observed = c;
	base.live_frac = d / total_ns;
	base.runs = m;
	if (lin) {
		*lin = base;
		linear_estimate(pts, m, total_ns, c, d, lin);
	}
	if (interp) {
		*interp = base;
		interp_estimate(pts, m, total_ns, c, d, interp);
		if (!regular_runs(pts, m)) {
			struct pfm_mux_est l = base;

			linear_estimate(pts, m, total_ns, c, d, &l);
			interp->bound = fmax(interp->bound,
					     fabs(interp->value - l.value) + l.bound);
		}
	}
	free(pts);
	return 0;
}

/* The values that follow a record: prev's, then next's. */
static const uint64_t *rec_values(const struct pfm_mux_smpl_entry *e)
{
	return (const uint64_t *)(e + 1);
}

static const struct pfm_mux_smpl_entry *rec_next(const struct pfm_mux_smpl_entry *e)
{
	return (const void *)(rec_values(e) + e->nr_prev + e->nr_next);
}

static int log_header_ok(const struct pfm_mux_smpl_hdr *h)
{
	return h->hdr_version >> 16 == PFM_MUX_SMPL_VERSION >> 16 &&
	       h->hdr_cur_offs >= sizeof(*h) && h->hdr_cur_offs <= h->hdr_buf_size;
}

int pfm_mux_log_runs(const void *buf, uint16_t set, unsigned int idx, uint64_t end_ns,
		     uint64_t end_value, struct pfm_mux_run *runs, unsigned int max,
		     unsigned int *n)
{
	const struct pfm_mux_smpl_hdr *h = buf;
	const struct pfm_mux_smpl_entry *e;
	uint64_t count, k;
	unsigned int got = 0;
	int open = 0;

	if (!h || !runs || !n || !log_header_ok(h)) {
		errno = EINVAL;
		return -1;
	}
	if (h->hdr_lost) {
		errno = ENOBUFS;
		return -1;
	}
	count = __atomic_load_n(&h->hdr_count, __ATOMIC_ACQUIRE);
	e = (const void *)((const char *)buf + sizeof(*h));
	for (k = 0; k < count; k++, e = rec_next(e)) {
		if ((e->flags & PFM_MUX_PREV) && e->prev_set == set && open) {
			if (idx >= e->nr_prev)
				goto einval;
			runs[got].t1 = e->live_ns;
			runs[got++].c1 = rec_values(e)[idx];
			open = 0;
		}
		if (e->next_set == set) {
			if (idx >= e->nr_next)
				goto einval;
			if (got == max) {
				errno = ENOBUFS;
				return -1;
			}
			runs[got].t0 = e->live_ns;
			runs[got].c0 = rec_values(e)[e->nr_prev + idx];
			open = 1;
		}
	}
	if (open) {
		runs[got].t1 = end_ns;
		runs[got++].c1 = end_value;
	}
	*n = got;
	return 0;
einval:
	errno = EINVAL;
	return -1;
}

/*
 * The work clock (mux.h): each run of the log, of whatever set, lasts at most
 * MUX_STALL times the median run of its set (with at least MUX_STALL_RUNS of them);
 * the time beyond is a stall.
 */
#define MUX_STALL	1.5
#define MUX_STALL_CREDIT	0.5
#define MUX_STALL_RUNS	4

struct seg {
	uint16_t set;
	uint64_t len;
};

static int cmp_seg(const void *a, const void *b)
{
	const struct seg *x = a, *y = b;

	if (x->set != y->set)
		return x->set < y->set ? -1 : 1;
	return (x->len > y->len) - (x->len < y->len);
}

/*
 * The longest each of the sets' runs may last, in seg[] order (cap), and the work
 * of a run that lasts longer (credit).
 */
static void stall_caps(struct seg *seg, unsigned int n, uint64_t *cap, uint64_t *credit)
{
	struct seg *sorted = malloc(n * sizeof(*sorted));
	unsigned int i, j, k;

	for (k = 0; k < n; k++)
		cap[k] = UINT64_MAX;
	if (!sorted)
		return;
	memcpy(sorted, seg, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_seg);
	for (i = 0; i < n; i = j) {
		unsigned int z = i;
		uint64_t c;

		for (j = i; j < n && sorted[j].set == sorted[i].set; j++)
			if (!sorted[j].len)
				z = j + 1;
		/* runs of no length (a start at once stopped) are none */
		if (j - z < MUX_STALL_RUNS)
			continue;
		c = sorted[z + (j - z) / 2].len;
		for (k = 0; k < n; k++)
			if (seg[k].set == sorted[i].set) {
				cap[k] = MUX_STALL * c;
				credit[k] = MUX_STALL_CREDIT * c;
			}
	}
	free(sorted);
}

/*
 * t[0..nrec]: the live times of the records and end_ns; w[0..nrec]: their work
 * times.  The time before the first record is taken as it is.
 */
static uint64_t *log_work_clock(const struct pfm_mux_smpl_hdr *h, uint64_t end_ns,
				uint64_t **live, unsigned int *nrec)
{
	const struct pfm_mux_smpl_entry *e = (const void *)((const char *)h + sizeof(*h));
	uint64_t count = __atomic_load_n(&h->hdr_count, __ATOMIC_ACQUIRE), k;
	uint64_t *t, *w = NULL, *cap = NULL, *credit = NULL;
	struct seg *seg = NULL;

	t = malloc((count + 1) * sizeof(*t));
	w = malloc((count + 1) * sizeof(*w));
	cap = malloc((count + 1) * sizeof(*cap));
	credit = malloc((count + 1) * sizeof(*credit));
	seg = malloc((count + 1) * sizeof(*seg));
	if (!t || !w || !cap || !credit || !seg) {
		errno = ENOMEM;
		goto err;
	}
	for (k = 0; k < count; k++, e = rec_next(e)) {
		t[k] = e->live_ns;
		seg[k].set = e->next_set;
	}
	t[count] = end_ns;
	for (k = 0; k < count; k++) {
		if (t[k + 1] < t[k]) {
			errno = EINVAL;
			goto err;
		}
		seg[k].len = t[k + 1] - t[k];
	}
	stall_caps(seg, count, cap, credit);
	w[0] = t[0];
	for (k = 0; k < count; k++)
		w[k + 1] = w[k] + (seg[k].len <= cap[k] ? seg[k].len : credit[k]);
	free(seg);
	free(credit);
	free(cap);
	*live = t;
	*nrec = count;
	return w;
err:
	free(seg);
	free(credit);
	free(cap);
	free(w);
	free(t);
	return NULL;
}

/* The work time of live time x, a switch time of the log or its end. */
static uint64_t work_at(const uint64_t *t, const uint64_t *w, unsigned int nrec, uint64_t x)
{
	unsigned int lo = 0, hi = nrec + 1;

	/* the first i with t[i] >= x: t[0..nrec] is sorted */
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (t[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > nrec)
		return w[nrec] + (x - t[nrec]);
	if (t[lo] == x || !lo)
		return lo || t[0] == x ? w[lo] : x;
	/* between switches: a caller's own time, clipped as its run */
	return w[lo - 1] + (x - t[lo - 1] < w[lo] - w[lo - 1] ? x - t[lo - 1] : w[lo] - w[lo - 1]);
}

int pfm_mux_work_clock(const void *buf, uint64_t end_ns, struct pfm_mux_run *runs,
		       unsigned int n, uint64_t *total_ns)
{
	const struct pfm_mux_smpl_hdr *h = buf;
	uint64_t *t, *w;
	unsigned int k, nrec;

	if (!h || (!runs && n) || !total_ns || !log_header_ok(h)) {
		errno = EINVAL;
		return -1;
	}
	for (k = 0; k < n; k++)
		if (runs[k].t1 < runs[k].t0 || runs[k].t1 > end_ns) {
			errno = EINVAL;
			return -1;
		}
	w = log_work_clock(h, end_ns, &t, &nrec);
	if (!w)
		return -1;
	for (k = 0; k < n; k++) {
		runs[k].t0 = work_at(t, w, nrec, runs[k].t0);
		runs[k].t1 = work_at(t, w, nrec, runs[k].t1);
	}
	*total_ns = w[nrec];
	free(t);
	free(w);
	return 0;
}

/*
 * The sets the log names: the sum of their durations, and whether all of them
 * switch on their timeouts alone (*timed), whose runs the work clock knows.
 */
static int log_total_ns(int fd, const void *buf, uint64_t *total, int *timed)
{
	const struct pfm_mux_smpl_hdr *h = buf;
	const struct pfm_mux_smpl_entry *e = (const void *)((const char *)buf + sizeof(*h));
	uint64_t count = __atomic_load_n(&h->hdr_count, __ATOMIC_ACQUIRE), k;
	unsigned char seen[(PFM_MAX_SET_ID + 1) / 8];

	memset(seen, 0, sizeof(seen));
	*total = 0;
	*timed = 1;
	for (k = 0; k < count; k++, e = rec_next(e)) {
		struct pfarg_setinfo si;

		if (seen[e->next_set / 8] & (1 << (e->next_set % 8)))
			continue;
		seen[e->next_set / 8] |= 1 << (e->next_set % 8);
		memset(&si, 0, sizeof(si));
		si.set_id = e->next_set;
		if (pfm_getinfo_evtsets(fd, &si, sizeof(si)))
			return -1;
		*total += si.set_act_duration;
		if ((si.set_flags & (PFM_SETFL_TIME_SWITCH | PFM_SETFL_OVFL_SWITCH)) !=
		    PFM_SETFL_TIME_SWITCH)
			*timed = 0;
	}
	return 0;
}

int pfm_mux_count(int fd, const void *buf, uint16_t set, uint16_t pmd, unsigned int idx,
		  struct pfm_mux_est *lin, struct pfm_mux_est *interp)
{
	const struct pfm_mux_smpl_hdr *h = buf;
	struct pfm_mux_run *runs;
	struct pfarg_pmd pd;
	uint64_t total;
	unsigned int n, max;
	int ret = -1, timed;

	if (!h || !log_header_ok(h)) {
		errno = EINVAL;
		return -1;
	}
	memset(&pd, 0, sizeof(pd));
	pd.reg_num = pmd;
	pd.reg_set = set;
	if (pfm_read_pmds(fd, &pd, sizeof(pd)) || log_total_ns(fd, buf, &total, &timed))
		return -1;
	/* a run begins at a record at most */
	max = h->hdr_count + 1;
	runs = malloc(max * sizeof(*runs));
	if (!runs) {
		errno = ENOMEM;
		return -1;
	}
	if (!pfm_mux_log_runs(buf, set, idx, total, pd.reg_value, runs, max, &n) &&
	    (!timed || !pfm_mux_work_clock(buf, total, runs, n, &total)))
		ret = pfm_mux_estimate(runs, n, total, lin, interp);
	free(runs);
	return ret;
}

const struct pfm_mux_est *pfm_mux_choose(const struct pfm_mux_est *lin,
					 struct pfm_mux_est *interp)
{
	if (lin->runs < 2 || fabs(interp->value - lin->value) > lin->bound ||
	    interp->bound >= lin->bound)
		return lin;
	/* its own bound takes the gaps' errors as independent: see mux.h */
	interp->bound = lin->bound;
	return interp;
}
