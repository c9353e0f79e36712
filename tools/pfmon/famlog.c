// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: estimates and error bounds of multiplexed counts of an inherit
 * context (pfmon.h).
 *
 * An inherit context has no sampling format, so no mux log of its set switches
 * (perfmon.h, INHERITANCE), and its inheritors switch their own sets, each on
 * its own time.  What a read of it gives is the family's: each event's count
 * and its set's active time summed over the opened thread and its inheritors,
 * live or folded, and the sum of the sets' active times is the family's whole
 * time.  Linear scaling of that sum, count x whole time / the set's time, is
 * what perf stat prints for inherited events (time_enabled / time_running).
 *
 * For a bound, pfmon reads the context every FAMLOG_MIN_NS (or one rotation
 * of the sets, if longer) while it runs, and each interval between two reads
 * becomes a run for libperfmon's estimators (mux.h): the family time it spans,
 * the set's active time in it placed at its middle, and what the event counted.
 * The bound then comes from how the count's rate moves from one interval to the
 * next, as the mux log's runs give it, at the resolution of the reads instead of
 * the switches: a phase shorter than an interval is averaged in with its
 * neighbours, which narrows the bound it would have widened.
 *
 * A context keeps FAMLOG_MAX reads: when full, every other one is dropped (two
 * intervals become one) and the reads' interval doubles, so a log costs at
 * most FAMLOG_MAX x (2 x events + 1) values, and a long run still has between
 * FAMLOG_MAX / 2 and FAMLOG_MAX intervals.  A read whose times or counts went
 * backwards (a live thread's time read from another CPU ahead of its counts)
 * is merged into the next one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mux.h"
#include "pfmon.h"

#define FAMLOG_MIN_NS	10000000ULL
#define FAMLOG_MAX	256

struct famlog {
	int n;
	uint64_t *v;	/* per read: enabled, then each event's raw and running */
};

static uint64_t famlog_every;

#define STRIDE	(1 + 2 * opts.nev)

struct famlog *famlog_new(void)
{
	struct famlog *f = calloc(1, sizeof(*f));

	if (!f) {
		perror("pfmon");
		exit(1);
	}
	return f;
}

void famlog_free(struct famlog *f)
{
	if (!f)
		return;
	free(f->v);
	free(f);
}

/* The time between two reads; first: of a run's first read. */
uint64_t famlog_interval_ns(int first)
{
	uint64_t rot = opts.nsets * opts.switch_ns;

	if (first || !famlog_every)
		famlog_every = rot > FAMLOG_MIN_NS ? rot : FAMLOG_MIN_NS;
	return famlog_every;
}

/* Keeps the reads 1, 3, 5 ... (0-based): each new interval is two old ones. */
static void famlog_halve(struct famlog *f)
{
	int k;

	for (k = 0; 2 * k + 1 < f->n; k++)
		memcpy(f->v + k * STRIDE, f->v + (2 * k + 1) * STRIDE,
		       STRIDE * sizeof(*f->v));
	f->n = k;
}

/* One read of the context fd into f; 1 when the log was halved (see above). */
int famlog_take(struct famlog *f, int fd)
{
	struct pfmon_count one[PFMON_MAX_EVENTS];
	uint64_t *p;
	int i, halved = 0;

	memset(one, 0, opts.nev * sizeof(one[0]));
	if (evsel_read(fd, one))
		return 0;	/* the final read says why, if it fails too */
	if (!f->v) {
		f->v = malloc(FAMLOG_MAX * STRIDE * sizeof(*f->v));
		if (!f->v) {
			perror("pfmon");
			exit(1);
		}
	}
	if (f->n == FAMLOG_MAX) {
		famlog_halve(f);
		halved = 1;
	}
	p = f->v + f->n++ * STRIDE;
	p[0] = opts.nev ? one[0].enabled : 0;
	for (i = 0; i < opts.nev; i++) {
		p[1 + 2 * i] = one[i].raw;
		p[2 + 2 * i] = one[i].running;
	}
	return halved;
}

/* After a halving, the reads of every context are half as frequent. */
void famlog_slower(void)
{
	famlog_every *= 2;
}

/*
 * Event i's runs (see above) from the reads and the final count o, into runs;
 * returns how many.
 */
static unsigned int famlog_runs(const struct famlog *f, int i, const struct pfmon_count *o,
				struct pfm_mux_run *runs)
{
	uint64_t pe = 0, pd = 0, pc = 0, e, d, c, de, dd;
	unsigned int n = 0;
	int k;

	for (k = 0; k <= f->n; k++) {
		if (k < f->n) {
			e = f->v[k * STRIDE];
			c = f->v[k * STRIDE + 1 + 2 * i];
			d = f->v[k * STRIDE + 2 + 2 * i];
		} else {
			e = o->enabled;
			c = o->raw;
			d = o->running;
		}
		/* the final counts stand: a read past them, or the same time, is dropped */
		if (k < f->n && (e <= pe || d < pd || c < pc || e >= o->enabled ||
				 d > o->running || c > o->raw))
			continue;
		de = e - pe;
		dd = d - pd;
		if (dd > de)
			dd = de;
		runs[n].t0 = pe + (de - dd) / 2;
		runs[n].t1 = runs[n].t0 + dd;
		runs[n].c0 = pc;
		runs[n].c1 = c;
		n++;
		pe = e;
		pd = d;
		pc = c;
	}
	return n;
}

/*
 * Adds the context's estimates to c[] from its reads f and its final counts
 * one[] (as muxlog_estimate() does from a log).
 */
void famlog_estimate(const struct famlog *f, const struct pfmon_count *one,
		     struct pfmon_count *c)
{
	struct pfm_mux_run *runs = malloc((f->n + 1) * sizeof(*runs));
	struct pfm_mux_est lin, in;
	unsigned int n;
	int i, ok;

	if (!runs) {
		perror("pfmon");
		exit(1);
	}
	for (i = 0; i < opts.nev; i++) {
		const struct pfmon_count *o = &one[i];

		if (o->running == o->enabled) {
			c[i].est += o->raw;
			continue;
		}
		n = famlog_runs(f, i, o, runs);
		ok = o->running && !pfm_mux_estimate(runs, n, o->enabled, &lin, &in);
		muxlog_add(&c[i], o, ok ? &lin : NULL, &in);
	}
	free(runs);
}
