// SPDX-License-Identifier: GPL-2.0
/*
 * smpl_bench: sampling cost against the rate, perfmon against perf_events in the
 * same guest boot.
 *
 * Two workloads, each sampled by three samplers: perf_events natively, the perf
 * shim (pfm_perf_event_open: perfmon's perf layer and its ring) and perfmon's own
 * default sampling format:
 *
 *   clock   a CPU-bound loop of SMPL_CPU_MS ms (40), or longer for the rate to
 *           take SMPL_CLOCK_SAMPLES samples (240: 240 ms at 1 kHz), sampled by
 *           the task clock at 1, 10 and 50 kHz (sample_freq; the default
 *           format: the period 1e9 / rate ns, which is what both perfs make of
 *           a software clock's frequency)
 *   faults  a first touch of each of SMPL_FAULTS fresh pages (3000), sampled
 *           every 1, 4, 16 and 64 page faults
 *
 * each per thread (pid 0) and CPU-wide (pid -1 on CPU 0; perfmon's own: a CPU
 * session, PFM_FL_SYSTEM_WIDE).  A sample is IP, TID and TIME into a ring sized
 * for the batch, or a default-format entry; no reader runs.  Per point and
 * sampler: the total overhead over the unmonitored batch, the samples taken,
 * the cost per sample (the overhead over the samples), and for faults the cost
 * net of counting (the batch under the same event counting alone taken away
 * instead), each with its ratio to perf_events' (of the medians, ratio3()).
 *
 * Every batch of a workload runs in each round, in an order that alternates
 * from round to round, SMPL_ROUNDS rounds (7): medians and quartiles (stat3).
 * The whole sweep runs twice (SMPL_PHASES, "default,raised"): under the sample
 * rate limits the guest boots with (perf_event_max_sample_rate, and perfmon's
 * perf_max_sample_rate), where each side throttles as it would for a user
 * (THROTTLE and LOST records are counted), then with both raised as run-ops.sh
 * raises them, so that every overflow is a sample and the costs per sample
 * compare.  The goals are judged on the last phase.
 *
 * Output: the tables, the goals, and one line "BENCH-SMPL-JSON: {...}".
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "smpl_bench.h"

#define MAXROUNDS	31
#define MAXJOBS		(1 + NSCOPES * (NSAMPLERS - 1) * (1 + MAXPTS))

const unsigned long clock_hz[NCLOCK_RATES] = { 1000, 10000, 50000 };
const unsigned long fault_every[NFAULT_EVERY] = { 1, 4, 16, 64 };
const char *const wl_name[NWL] = { "clock", "faults" };
const char *const scope_name[NSCOPES] = { "thread", "cpu" };
const char *const smp_name[NSAMPLERS] = { "none", "shim", "perf", "dfl" };

static const enum sampler samplers[] = { SMP_PERF, SMP_SHIM, SMP_DFL };

/* One batch: a workload, unmonitored (how SMP_NONE), counted (pt -1) or sampled. */
struct job {
	enum wl wl;
	enum scope scope;
	enum sampler how;
	int pt;
};

static struct smpl_cfg cfg = {
	.rounds = 7, .cpu_ms = 40, .clock_samples = 240, .faults = 3000,
};
static int dump;	/* SMPL_DUMP=1: every batch of every round printed */
static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void cpu_work(long iters)
{
	uint64_t x = sink;

	while (iters--) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	sink = x;
}

/* The loop's speed, on the guest's clock. */
static void cpu_calibrate(void)
{
	const long n = 1000000;
	uint64_t t = 0;
	int i;

	for (i = 0; i < 3; i++) {
		t = now_ns();
		cpu_work(n);
		t = now_ns() - t;
	}
	cfg.iters_per_ms = 1e6 / ((double)t / n);
}

/*
 * At least cfg.cpu_ms, and cfg.clock_samples samples at the rate: a cost that the
 * samples do not bring (per batch, per tick) weighs as little at 1 kHz as at 10.
 */
double clock_ms(int pt)
{
	double ms = 1e3 * cfg.clock_samples / clock_hz[pt];

	return ms > cfg.cpu_ms ? ms : cfg.cpu_ms;
}

static unsigned int pow2_pages(double bytes)
{
	long psz = sysconf(_SC_PAGESIZE);
	unsigned int p = 1;

	while ((double)p * psz < bytes)
		p <<= 1;
	return p;
}

static void job_cfg(const struct job *j, struct sample_cfg *c)
{
	double samples;

	memset(c, 0, sizeof(*c));
	c->cpu = j->scope == SC_CPU ? 0 : -1;
	if (j->wl == WL_CLOCK) {
		c->event = SMP_EV_CLOCK;
		c->freq = clock_hz[j->pt];
		/* the overhead lengthens the batch: room for twice its samples */
		samples = 2 * clock_ms(j->pt) * 1e-3 * c->freq;
	} else {
		c->event = SMP_EV_FAULTS;
		c->period = j->pt < 0 ? 0 : fault_every[j->pt];
		samples = c->period ? (double)cfg.faults / c->period : 0;
	}
	/* the default format's entries, and its room for the largest one */
	c->data_pages = pow2_pages(64 * samples + 4 * 4096);
}

static void ts_add(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	while (t->tv_nsec >= 1000000000) {
		t->tv_nsec -= 1000000000;
		t->tv_sec++;
	}
}

/*
 * Every batch starts just after a tick that the CPU was busy for: it idles
 * first, so that the work the last batch left (RCU callbacks, freed pages,
 * kworkers) runs then, wakes SMPL_WAKE_NS before a tick and spins through it
 * (the timers that waited for the CPU to wake run in that tick), its sampler
 * opened meanwhile.  So no batch, unmonitored or not, pays for the wakeup, and
 * a batch of a given length always spans as many ticks.  Idle guest time costs
 * no host time (sleep=off).  The tick is the coarse clock's step: it reads the
 * time of the last tick while the CPU is busy.
 */
#define SMPL_WAKE_NS	500000

/*
 * perfmon keeps its page-fault tracepoint probe a second after its last context
 * closes (kernel/perfmon/sw_hooks.c), and every fault meanwhile pays for the
 * probe (about 80 ns each here); the probe goes in a work item that runs a
 * second after a close, a kworker's run and two switches in whatever batch it
 * falls in.  A batch after a perfmon one idles that out first: an unmonitored
 * or perf_events batch pays for nothing of perfmon's, and no perfmon batch for
 * what the one before it left.
 */
#define PFM_HOOKS_LINGER_NS	1200000000L
static bool pfm_hooks_maybe_on;

/*
 * Under instruction counting every round runs to the same schedule, so a
 * periodic kernel event (a 1 s timer) would fall in the same batch of every
 * round and the median keep it.  Up to SMPL_SPREAD_TICKS more ticks of idle
 * before each batch, in a fixed pseudo-random sequence, move the batches
 * against such events from round to round.
 */
#define SMPL_SPREAD_TICKS	64
static unsigned int spread_seed = 1;

static void tick_sleep(struct timespec *coarse, enum sampler how)
{
	struct timespec res, t;
	long ticks = 3;

	clock_getres(CLOCK_MONOTONIC_COARSE, &res);
	clock_gettime(CLOCK_MONOTONIC_COARSE, coarse);
	t = *coarse;
	if (pfm_hooks_maybe_on)
		ticks += PFM_HOOKS_LINGER_NS / res.tv_nsec;
	ticks += rand_r(&spread_seed) % SMPL_SPREAD_TICKS;
	pfm_hooks_maybe_on = how == SMP_SHIM || how == SMP_DFL;
	/* a whole tick idle at least */
	ts_add(&t, ticks * res.tv_nsec - SMPL_WAKE_NS);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL))
		;
	clock_gettime(CLOCK_MONOTONIC_COARSE, coarse);
}

static void tick_spin(const struct timespec *coarse)
{
	struct timespec c;

	do
		clock_gettime(CLOCK_MONOTONIC_COARSE, &c);
	while (c.tv_sec == coarse->tv_sec && c.tv_nsec == coarse->tv_nsec);
}

/* One batch: ns of the workload, and what the buffer held. */
static double run_job(const struct job *j, struct sample_counts *n)
{
	long psz = sysconf(_SC_PAGESIZE), i;
	struct sample_session s;
	struct timespec coarse;
	struct sample_cfg c;
	char *p = NULL;
	uint64_t t;

	memset(n, 0, sizeof(*n));
	if (j->wl == WL_FAULTS) {
		bench_hook_wait_off("fault");
		p = mmap(NULL, cfg.faults * psz, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die("mmap");
		madvise(p, cfg.faults * psz, MADV_NOHUGEPAGE);
	}
	tick_sleep(&coarse, j->how);
	if (j->how != SMP_NONE) {
		job_cfg(j, &c);
		sample_open_cfg(&s, j->how, &c);
	}
	tick_spin(&coarse);
	if (j->how != SMP_NONE)
		sample_start(&s);
	t = now_ns();
	if (p)
		for (i = 0; i < cfg.faults; i++)
			((volatile char *)p)[i * psz] = 1;
	else
		cpu_work((long)(clock_ms(j->pt) * cfg.iters_per_ms));
	t = now_ns() - t;
	if (j->how != SMP_NONE)
		sample_finish(&s, n);
	if (p)
		munmap(p, cfg.faults * psz);
	return (double)t;
}

static int npts(enum wl wl)
{
	return wl == WL_CLOCK ? NCLOCK_RATES : NFAULT_EVERY;
}

/*
 * A workload's batches: unmonitored first (one per point of the clock, whose
 * points differ in length), then (faults) counting alone, then the points.
 */
static int make_jobs(enum wl wl, struct job *jobs)
{
	int n = 0, sc, pt, k;

	for (pt = 0; pt < (wl == WL_CLOCK ? npts(wl) : 1); pt++)
		jobs[n++] = (struct job){ wl, SC_THREAD, SMP_NONE, wl == WL_CLOCK ? pt : -1 };
	for (sc = 0; sc < NSCOPES; sc++)
		for (pt = wl == WL_FAULTS ? -1 : 0; pt < npts(wl); pt++)
			for (k = 0; k < 3; k++)
				jobs[n++] = (struct job){ wl, sc, samplers[k], pt };
	return n;
}

static int find_job(const struct job *jobs, int n, enum scope sc, enum sampler how, int pt)
{
	int i;

	for (i = 0; i < n; i++)
		if (jobs[i].scope == sc && jobs[i].how == how && jobs[i].pt == pt)
			return i;
	abort();
}

static double med_of(const double *v, int n)
{
	double t[MAXROUNDS];

	memcpy(t, v, n * sizeof(*v));
	return stat3(t, n).med;
}

/*
 * A sampler's cost against perf's: the ratio of the medians, between the
 * ratios of the quartiles the other way round (the widest).  Not the median of
 * the rounds' ratios: a kernel event that falls in one batch moves that
 * round's ratio whichever side it hit, where a median of each side leaves it
 * out.
 */
static struct stat3 ratio3(struct stat3 a, struct stat3 b)
{
	if (!b.p25 || !b.med || !b.p75)
		return (struct stat3){ 0, 0, 0 };
	return (struct stat3){ a.p25 / b.p75, a.med / b.med, a.p75 / b.p25 };
}

/* The results of one curve from the rounds' batches. */
static void reduce(struct curve *cv, const struct job *jobs, int nj,
		   double ns[][MAXROUNDS], struct sample_counts cnt[][MAXROUNDS])
{
	double v[8][MAXROUNDS];
	int R = cfg.rounds, pt, k, r, j, jn;

	cv->npts = npts(cv->wl);
	for (pt = 0; pt < cv->npts; pt++)
		cv->x[pt] = cv->wl == WL_CLOCK ? clock_hz[pt] : fault_every[pt];
	for (k = 0; k < 3 && cv->wl == WL_FAULTS; k++) {
		j = find_job(jobs, nj, cv->scope, samplers[k], -1);
		memcpy(v[0], ns[j], R * sizeof(double));
		cv->count_ns[samplers[k]] = stat3(v[0], R);
	}
	for (pt = 0; pt < cv->npts; pt++) {
		jn = find_job(jobs, nj, SC_THREAD, SMP_NONE, cv->wl == WL_CLOCK ? pt : -1);
		memcpy(v[0], ns[jn], R * sizeof(double));
		cv->none_ns[pt] = stat3(v[0], R);

		for (k = 0; k < 3; k++) {
			enum sampler how = samplers[k];
			struct smp_res *x = &cv->r[pt][how];
			int jc = cv->wl == WL_FAULTS ? find_job(jobs, nj, cv->scope, how, -1) : jn;

			j = find_job(jobs, nj, cv->scope, how, pt);
			x->dropped = false;
			for (r = 0; r < R; r++) {
				double s = cnt[j][r].samples;
				double per = s ? (ns[j][r] - ns[jn][r]) / s : 0;
				double net = s ? (ns[j][r] - ns[jc][r]) / s : 0;

				v[0][r] = ns[j][r];
				v[1][r] = ns[j][r] / ns[jn][r] - 1;
				v[2][r] = per;
				v[3][r] = net;
				v[6][r] = s;
				v[7][r] = cnt[j][r].throttle;
				x->dropped |= cnt[j][r].overflowed;
			}
			x->ns = stat3(v[0], R);
			x->over = stat3(v[1], R);
			x->per_sample = stat3(v[2], R);
			x->net = stat3(v[3], R);
			/* perf's comes first (samplers[]) */
			x->ratio = ratio3(x->per_sample, cv->r[pt][SMP_PERF].per_sample);
			x->net_ratio = ratio3(x->net, cv->r[pt][SMP_PERF].net);
			x->samples = med_of(v[6], R);
			x->throttle = med_of(v[7], R);
			for (r = 0; r < R; r++)
				v[0][r] = cnt[j][r].lost;
			x->lost = med_of(v[0], R);
		}
	}
}

static double ns_[MAXJOBS][MAXROUNDS];
static struct sample_counts cnt_[MAXJOBS][MAXROUNDS];

/* Every batch of wl, round by round, each round in the other order. */
static void measure_wl(struct phase *ph, enum wl wl)
{
	struct job jobs[MAXJOBS];
	int nj = make_jobs(wl, jobs), r, k, j, sc;
	struct sample_counts warm;
	uint64_t t0;

	/* the workload's first batch ran longer (in a third of a run): not a round's */
	run_job(&jobs[0], &warm);
	for (r = 0; r < cfg.rounds; r++) {
		t0 = now_ns();
		for (k = 0; k < nj; k++) {
			j = (r & 1) ? nj - 1 - k : k;
			ns_[j][r] = run_job(&jobs[j], &cnt_[j][r]);
			if (dump)
				printf("smpl-dump: %s %s %s %s pt %d round %d: %.0f ns, %ld samples, "
				       "%ld throttle\n", ph->name, wl_name[wl],
				       scope_name[jobs[j].scope], smp_name[jobs[j].how], jobs[j].pt,
				       r, ns_[j][r], cnt_[j][r].samples, cnt_[j][r].throttle);
		}
		printf("smpl_bench: %s %s round %d/%d: %.2f s of guest time\n", ph->name,
		       wl_name[wl], r + 1, cfg.rounds, (now_ns() - t0) * 1e-9);
		fflush(stdout);
	}
	for (sc = 0; sc < NSCOPES; sc++) {
		struct curve *cv = &ph->c[wl * NSCOPES + sc];

		cv->wl = wl;
		cv->scope = sc;
		reduce(cv, jobs, nj, ns_, cnt_);
	}
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f && fscanf(f, "%ld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

static void write_long(const char *path, long v)
{
	FILE *f = fopen(path, "w");

	if (!f || fprintf(f, "%ld\n", v) < 0 || fclose(f))
		die(path);
}

#define PERF_MAX_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"
#define PERF_CPU_PCT	"/proc/sys/kernel/perf_cpu_time_max_percent"
#define PFM_MAX_RATE	"/sys/kernel/perfmon/perf_max_sample_rate"

static void run_phase(struct phase *ph, const char *name)
{
	memset(ph, 0, sizeof(*ph));
	ph->name = name;
	if (!strcmp(name, "raised")) {
		write_long(PERF_MAX_RATE, 100000000);
		write_long(PERF_CPU_PCT, 0);
		write_long(PFM_MAX_RATE, 100000000);
	}
	ph->perf_max_rate = read_long(PERF_MAX_RATE);
	ph->perf_cpu_pct = read_long(PERF_CPU_PCT);
	ph->pfm_max_rate = read_long(PFM_MAX_RATE);
	measure_wl(ph, WL_CLOCK);
	measure_wl(ph, WL_FAULTS);
	smpl_print_phase(ph);
}

static long env_long(const char *name, long def, long lo, long hi)
{
	const char *s = getenv(name);
	long v = s ? atol(s) : def;

	return v < lo ? lo : v > hi ? hi : v;
}

int main(void)
{
	static struct goal goals[MAXGOALS];
	static struct phase ph[2];
	const char *phases = getenv("SMPL_PHASES");
	int nph = 0, ng;
	cpu_set_t set;

	if (!phases || !*phases)
		phases = "default,raised";
	cfg.rounds = env_long("SMPL_ROUNDS", 7, 1, MAXROUNDS);
	cfg.cpu_ms = env_long("SMPL_CPU_MS", 40, 1, 10000);
	cfg.clock_samples = env_long("SMPL_CLOCK_SAMPLES", 240, 1, 100000);
	cfg.faults = env_long("SMPL_FAULTS", 3000, 64, 1000000);
	dump = env_long("SMPL_DUMP", 0, 0, 1);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	/* the sleeps of tick_sleep() end when asked, not up to 50 us later */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	cpu_calibrate();
	printf("smpl_bench: %d rounds; clock: CPU-bound, %.0f ms at 1 kHz, %.0f ms at 10 and "
	       "50 kHz (%.0f iterations a ms); faults: %ld pages first touched; phases %s "
	       "(under -icount shift=0 a ns is an instruction)\n", cfg.rounds, clock_ms(0),
	       clock_ms(1), cfg.iters_per_ms, cfg.faults, phases);
	if (strstr(phases, "default"))
		run_phase(&ph[nph++], "default");
	if (strstr(phases, "raised"))
		run_phase(&ph[nph++], "raised");
	if (!nph)
		die("SMPL_PHASES names neither default nor raised");
	ng = smpl_make_goals(&ph[nph - 1], goals);
	/* the default format has no limit to throttle by: the shim's alone */
	if (!strcmp(ph[0].name, "default"))
		smpl_throttle_goal(&ph[0], SMP_SHIM, &goals[ng++]);
	smpl_print_goals(&ph[nph - 1], goals, ng);
	smpl_json(&cfg, ph, nph, goals, ng);
	return 0;
}
