// SPDX-License-Identifier: GPL-2.0
/*
 * Multiplexing accuracy on workloads of known counts (see mux_work.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perfmon.h"
#include "mux.h"
#include "mux_work.h"

#define PHASED_ROUNDS	12
#define PHASED_CALLS	40000
#define PHASED_PAGES	2048
#define RAMP_ROUNDS	48
#define RAMP_CALLS	5
#define RAMP_FAULTS_DIV	4
#define LOG_SIZE	(8 << 20)	/* 64 bytes a switch: 0.25 ms switches for 30 s */

static const int events[MUX_EVENTS] = { PFM_SW_EV_SYSCALLS, PFM_SW_EV_PAGE_FAULTS };

static int fail(const char *what)
{
	fprintf(stderr, "mux: %s: %s\n", what, strerror(errno));
	return -1;
}

static void calls(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/* n pages faulted afresh: dropped first, so that each write faults again */
static void faults(char *p, long n)
{
	volatile char *v = (volatile char *)p;
	long psz = sysconf(_SC_PAGESIZE), i;

	madvise(p, n * psz, MADV_DONTNEED);
	for (i = 0; i < n; i++)
		v[i * psz] = 1;
}

static void run_workload(enum mux_workload w, char *pages)
{
	long r;

	if (w == MUX_PHASED) {
		for (r = 0; r < PHASED_ROUNDS; r++) {
			calls(PHASED_CALLS);
			faults(pages, PHASED_PAGES);
		}
		return;
	}
	for (r = 0; r < RAMP_ROUNDS; r++) {
		calls(RAMP_CALLS * (r + 1));
		faults(pages, (RAMP_ROUNDS - r) / RAMP_FAULTS_DIV);
	}
}

static char *pages_get(void)
{
	long len = PHASED_PAGES * sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	/* a huge page would serve 512 first touches with one fault */
	madvise(p, len, MADV_NOHUGEPAGE);
	return p;
}

static void pages_put(char *p)
{
	munmap(p, PHASED_PAGES * sysconf(_SC_PAGESIZE));
}

static int program_set(int fd, int set, uint32_t flags, uint64_t timeout, uint64_t mask)
{
	struct pfarg_setdesc d;
	int e;

	memset(&d, 0, sizeof(d));
	d.set_id = set;
	d.set_flags = flags;
	d.set_timeout = timeout;
	d.set_timeout_mask = mask;
	if (pfm_create_evtsets(fd, &d, sizeof(d)))
		return fail("pfm_create_evtsets");
	for (e = 0; e < MUX_EVENTS; e++) {
		struct pfarg_pmc pc;
		struct pfarg_pmd pd;

		memset(&pc, 0, sizeof(pc));
		memset(&pd, 0, sizeof(pd));
		pc.reg_num = PFM_SW_FIRST_PMC + e;
		pc.reg_set = set;
		pc.reg_value = PFM_SW_PMC(events[e]);
		pd.reg_num = PFM_SW_FIRST_PMD + e;
		pd.reg_set = set;
		if (pfm_write_pmcs(fd, &pc, sizeof(pc)) || pfm_write_pmds(fd, &pd, sizeof(pd)))
			return fail("pfm_write_pmcs/pmds");
	}
	return 0;
}

/* Load on this thread, start, the workload, stop. */
static int monitor(int fd, enum mux_workload w)
{
	char *pages = pages_get();
	int ret = 0;

	if (!pages)
		return fail("mmap");
	if (pfm_load_context(fd, 0, syscall(SYS_gettid))) {
		ret = fail("pfm_load_context");
		goto out;
	}
	/* nothing between start and stop but the workload: every call counts */
	if (pfm_start(fd, 0))
		ret = fail("pfm_start");
	run_workload(w, pages);
	pfm_stop(fd, 0);
out:
	pages_put(pages);
	return ret;
}

int mux_exact(enum mux_workload w, struct mux_exact *ex)
{
	int fd = pfm_create_context(0), e, ret;

	if (fd < 0)
		return fail("pfm_create_context");
	ret = program_set(fd, 0, 0, 0, 0);
	if (!ret)
		ret = monitor(fd, w);
	for (e = 0; !ret && e < MUX_EVENTS; e++) {
		struct pfarg_pmd pd;

		memset(&pd, 0, sizeof(pd));
		pd.reg_num = PFM_SW_FIRST_PMD + e;
		if (pfm_read_pmds(fd, &pd, sizeof(pd)))
			ret = fail("pfm_read_pmds");
		ex->count[e] = pd.reg_value;
	}
	close(fd);
	return ret;
}

static double rel_err(double est, double exact)
{
	return fabs(est - exact) / exact;
}

static void tally(struct mux_result *r, int m, const struct pfm_mux_est *est, double exact)
{
	double err = rel_err(est->value, exact);

	r->err_mean[m] += err;
	if (err > r->err_worst[m])
		r->err_worst[m] = err;
	r->covered[m] += fabs(est->value - exact) <= est->bound;
}

/*
 * MUX_DUMP in the environment: every run of every set, for study off line:
 * "MUXRUN sets set t0 t1 calls0 calls1 faults0 faults1", after a line
 * "MUXDUMP sets timeout total exact_calls exact_faults".
 */
static void dump_runs(int fd, const struct pfm_mux_smpl_hdr *hdr, int nsets,
		      uint64_t timeout, const struct mux_exact *ex)
{
	static struct pfm_mux_run r[MUX_EVENTS][16384];
	uint64_t total = 0, end[MUX_EVENTS];
	unsigned int n[MUX_EVENTS], k;
	int s, e;

	for (s = 0; s < nsets; s++) {
		struct pfarg_setinfo si;

		memset(&si, 0, sizeof(si));
		si.set_id = s;
		if (pfm_getinfo_evtsets(fd, &si, sizeof(si)))
			return;
		total += si.set_act_duration;
	}
	printf("MUXDUMP %d %llu %llu %llu %llu\n", nsets, (unsigned long long)timeout,
	       (unsigned long long)total, (unsigned long long)ex->count[0],
	       (unsigned long long)ex->count[1]);
	for (s = 0; s < nsets; s++) {
		for (e = 0; e < MUX_EVENTS; e++) {
			struct pfarg_pmd pd;

			memset(&pd, 0, sizeof(pd));
			pd.reg_num = PFM_SW_FIRST_PMD + e;
			pd.reg_set = s;
			if (pfm_read_pmds(fd, &pd, sizeof(pd)))
				return;
			end[e] = pd.reg_value;
			if (pfm_mux_log_runs(hdr, s, e, total, end[e], r[e], 16384, &n[e]))
				return;
		}
		for (k = 0; k < n[0]; k++)
			printf("MUXRUN %d %d %llu %llu %llu %llu %llu %llu\n", nsets, s,
			       (unsigned long long)r[0][k].t0, (unsigned long long)r[0][k].t1,
			       (unsigned long long)r[0][k].c0, (unsigned long long)r[0][k].c1,
			       (unsigned long long)r[1][k].c0, (unsigned long long)r[1][k].c1);
	}
}

int mux_measure(enum mux_workload w, int nsets, uint64_t timeout, uint64_t mask,
		const struct mux_exact *ex, struct mux_result *r)
{
	struct pfm_mux_smpl_arg arg = { .buf_size = LOG_SIZE };
	uint32_t flags = PFM_SETFL_TIME_SWITCH | (mask ? PFM_SETFL_RANDOM_TIMEOUT : 0);
	const struct pfm_mux_smpl_hdr *hdr;
	int fd, s, e, ret = 0;

	memset(r, 0, sizeof(*r));
	fd = pfm_create_context(PFM_FL_SMPL_FMT, PFM_MUX_SMPL_NAME, &arg, sizeof(arg));
	if (fd < 0)
		return fail("pfm_create_context(mux)");
	hdr = mmap(NULL, LOG_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (hdr == MAP_FAILED) {
		close(fd);
		return fail("mmap(log)");
	}
	for (s = 0; s < nsets && !ret; s++)
		ret = program_set(fd, s, flags, timeout, mask);
	if (!ret)
		ret = monitor(fd, w);
	if (!ret && getenv("MUX_DUMP"))
		dump_runs(fd, hdr, nsets, timeout, ex);
	for (s = 0; s < nsets && !ret; s++) {
		for (e = 0; e < MUX_EVENTS && !ret; e++) {
			struct pfm_mux_est lin, in;

			if (pfm_mux_count(fd, hdr, s, PFM_SW_FIRST_PMD + e, e, &lin, &in)) {
				ret = fail("pfm_mux_count");
				break;
			}
			tally(r, MUX_LINEAR, &lin, ex->count[e]);
			tally(r, MUX_INTERP, &in, ex->count[e]);
			/* last: it may widen the interpolation's bound */
			tally(r, MUX_CHOSEN, pfm_mux_choose(&lin, &in), ex->count[e]);
			r->estimates++;
		}
	}
	for (e = 0; r->estimates && e < MUX_METHODS; e++)
		r->err_mean[e] /= r->estimates;
	r->switches = hdr->hdr_count;
	munmap((void *)hdr, LOG_SIZE);
	close(fd);
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts v. */
static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void mux_summarise(const struct mux_result *res, int n, int method, struct mux_figures *f)
{
	double mean[n], worst[n];
	unsigned int cov = 0, est = 0;
	int i;

	memset(f, 0, sizeof(*f));
	if (n < 1)
		return;
	for (i = 0; i < n; i++) {
		mean[i] = res[i].err_mean[method];
		worst[i] = res[i].err_worst[method];
		cov += res[i].covered[method];
		est += res[i].estimates;
		f->mean_avg += mean[i] / n;
		f->mean_max = fmax(f->mean_max, mean[i]);
		f->worst_max = fmax(f->worst_max, worst[i]);
	}
	for (i = 0; n > 1 && i < n; i++)
		f->mean_sd += (mean[i] - f->mean_avg) * (mean[i] - f->mean_avg) / (n - 1);
	f->mean_sd = sqrt(f->mean_sd);
	f->mean_med = median(mean, n);
	f->worst_med = median(worst, n);
	f->cover = est ? (double)cov / est : 0;
}

int mux_goals_met(const struct mux_figures *f)
{
	return f->mean_avg <= MUX_GOAL_MEAN && f->worst_max <= MUX_GOAL_WORST &&
	       f->cover >= MUX_GOAL_COVER;
}

uint64_t mux_mask_for(uint64_t timeout)
{
	uint64_t m = 1;

	while ((m << 1) - 1 <= timeout / 5 * 3)
		m <<= 1;
	return m - 1;
}
