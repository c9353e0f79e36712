// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: estimates and error bounds of multiplexed counts (pfmon.h).
 *
 * When the events need more than one event set, each context is created with the
 * "mux" sampling format, whose mapped buffer logs every set switch with the
 * counters at both ends of each run.  At the end, libperfmon's pfm_mux_count()
 * turns a counter's runs into an estimate of what it would have counted over the
 * whole time, with a 95% bound (the formulas are in <mux.h>).  pfmon prints
 * the estimate pfm_mux_choose() picks: interpolation when the runs are as regular
 * as the timeouts make them, it lies within linear scaling's bound of linear
 * scaling's estimate and its bound is the narrower; linear scaling otherwise.
 *
 * A context gives no bound when its log lost records or when the event's set
 * never ran there (a thread that lived less than a switch interval); its count
 * is then the linearly scaled one, or 0.  A switch's record takes 32 + 16 bytes
 * a counter of the set, so the log is sized for MUXLOG_SWITCHES of the largest
 * set, between 1 and 8 MiB: 6 s at 1 ms whatever the sets' size (below 8
 * counters a set, longer).  Where the locked-memory limit refuses that, the
 * first context halves it down to 1 MiB, and every context takes the size the
 * first got.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mux.h"
#include "pfmon.h"

#define MUXLOG_MIN	(1UL << 20)
#define MUXLOG_MAX	(8UL << 20)
#define MUXLOG_SWITCHES	6000

static size_t muxlog_size;	/* every context's, set by the first */

/* The log for MUXLOG_SWITCHES switches of the largest set, a power of 2. */
static size_t muxlog_want(void)
{
	size_t per_set = (opts.nev + opts.nsets - 1) / opts.nsets;
	size_t want = MUXLOG_SWITCHES * (32 + 16 * per_set), size = MUXLOG_MIN;

	while (size < want && size < MUXLOG_MAX)
		size <<= 1;
	return size;
}

int muxlog_open(int flags, const void **log)
{
	struct pfm_mux_smpl_arg arg;
	size_t size = muxlog_size ? muxlog_size : muxlog_want();
	void *p;
	int fd, err;

	for (;;) {
		arg = (struct pfm_mux_smpl_arg){ .buf_size = size };
		fd = pfm_create_context(flags | PFM_FL_SMPL_FMT, PFM_MUX_SMPL_NAME, &arg,
					sizeof(arg));
		if (fd >= 0 || errno != ENOMEM || muxlog_size || size <= MUXLOG_MIN)
			break;
		size >>= 1;
	}
	if (fd < 0)
		return -1;
	muxlog_size = size;
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	*log = p;
	return fd;
}

void muxlog_close(const void *log)
{
	munmap((void *)log, muxlog_size);
}

/* The position of the event's PMD among those of its set, in register order. */
static unsigned int value_index(int i)
{
	unsigned int idx = 0;
	int k;

	for (k = 0; k < opts.nev; k++)
		if (opts.ev[k].set == opts.ev[i].set && opts.ev[k].pmd < opts.ev[i].pmd)
			idx++;
	return idx;
}

/*
 * Adds to c an event's estimate from one context's runs: the one
 * pfm_mux_choose() picks of lin and in, or with lin NULL (no runs to estimate
 * from), the count o scaled, or nothing seen at all, without a bound.
 */
void muxlog_add(struct pfmon_count *c, const struct pfmon_count *o,
		const struct pfm_mux_est *lin, struct pfm_mux_est *in)
{
	const struct pfm_mux_est *best;

	if (lin) {
		best = pfm_mux_choose(lin, in);
		c->est += best->value;
		c->bound2 += best->bound * best->bound;
		return;
	}
	c->est += o->running ? (double)o->raw * o->enabled / o->running : 0;
	c->unbounded++;
}

/*
 * Adds one context's estimates to c[] (its raw counts, times and number of
 * contexts are added by evsel_read()).  log is the context's mapped log, or NULL
 * when it has none (one set: the counts are exact).
 */
void muxlog_estimate(int fd, const void *log, const struct pfmon_count *one,
		     struct pfmon_count *c)
{
	struct pfm_mux_est lin, in;
	int i, ok;

	for (i = 0; i < opts.nev; i++) {
		const struct pfmon_count *o = &one[i];

		if (!log || o->running == o->enabled) {
			c[i].est += o->raw;
			continue;
		}
		ok = o->running &&
		     !pfm_mux_count(fd, log, opts.ev[i].set, opts.ev[i].pmd, value_index(i),
				    &lin, &in);
		muxlog_add(&c[i], o, ok ? &lin : NULL, &in);
	}
}
