// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: -F, sampling at a frequency (pfmon.h).
 *
 * perfmon samples every `period` events: it has no frequency mode.  perf record -F
 * asks the kernel to adapt the period to the event's rate; pfmon does it from user
 * space.  The first event is sampled from a period of FREQ_START_PERIOD events,
 * then, every FREQ_ADAPT_MS of wall-clock time, each context's period becomes
 *
 *   period = (events counted / ns elapsed) since the last adaptation * 1e9 / HZ
 *
 * in wall-clock time: the set's live time is brought up to date only at set
 * switches and context switches, too seldom to measure a rate by (a thread
 * that sleeps half the time is thus sampled up to twice as often while it runs).
 * (up at once, down by half at most per step), written as the sampled counter's
 * reset values (the events already counted
 * towards the next sample are kept, unless they exceed the new period), so that
 * samples come about HZ times per second of the thread's time, as far as the
 * rate over the last interval foretells the next.  A new context starts from the
 * period last computed.  The event's count is exact all the same: a second
 * counter of the same event in the same set counts it (the hidden event, not
 * printed), whatever the periods.
 *
 * Time itself cannot be sampled so: task-clock is brought up to date only when
 * its thread is switched out or read, so it would overflow at those points
 * only, and -F refuses it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pfmon.h"

#define FREQ_START_PERIOD	1000
#define FREQ_ADAPT_MS		10

static uint64_t period_min, period_max;

/*
 * The sampled event's exact count, beside the sampler and in its set (its
 * group): -F's, and -P's where the kernel's inheritors sample (their sampling
 * counters are not summed).
 */
void smpl_shadow_setup(const char *opt)
{
	if (opts.nev == PFMON_MAX_EVENTS) {
		fprintf(stderr, "pfmon: at most %d events with %s\n", PFMON_MAX_EVENTS - 1, opt);
		exit(2);
	}
	opts.ev[opts.nev] = opts.ev[0];
	opts.ev[opts.nev].hidden = 1;
	opts.shadow = opts.nev++;
}

void freq_setup(uint64_t hz)
{
	struct pfmon_event *e = &opts.ev[0];

	opts.smpl_freq = hz;
	if (e->sw == PFM_SW_EV_TASK_CLOCK || !strncmp(e->name, "task-clock", 10)) {
		fprintf(stderr, "pfmon: -F: task-clock is brought up to date only when its "
			"thread is switched out, so it cannot be sampled by time: sample an "
			"event (-e page-faults -F %llu) or use -P\n", (unsigned long long)hz);
		exit(2);
	}
	smpl_shadow_setup("-F");
	opts.smpl_period = FREQ_START_PERIOD;
	period_min = period_max = FREQ_START_PERIOD;
}

unsigned int freq_adapt_ms(void)
{
	return FREQ_ADAPT_MS;
}

/* Adapts the period of one context; f holds what it saw at the last adaptation. */
void freq_adapt(int fd, struct freq_state *f, uint64_t now)
{
	struct pfarg_pmd pd[2];
	uint64_t count, period, left;
	double rate;

	memset(pd, 0, sizeof(pd));
	pd[0].reg_num = opts.ev[0].pmd;
	pd[0].reg_set = opts.ev[0].set;
	pd[1].reg_num = opts.ev[opts.shadow].pmd;
	pd[1].reg_set = opts.ev[opts.shadow].set;
	if (pfm_read_pmds(fd, pd, sizeof(pd)))
		return;		/* its thread ended: the end message comes */
	count = pd[1].reg_value;
	if (now < f->at + 1000000)
		return;		/* under a millisecond: too little to tell */
	if (count == f->count)
		return;		/* nothing counted (not started, asleep): nothing learnt */
	rate = (double)(count - f->count) / (double)(now - f->at);
	f->count = count;
	f->at = now;
	period = rate * 1e9 / opts.smpl_freq;
	/*
	 * Up at once, down by half at most: a lull (a start-up, a pause) must not
	 * leave a tiny period for the next burst to flood the buffer with
	 */
	if (period < f->period / 2)
		period = f->period / 2;
	if (period < 1)
		period = 1;
	if (period == f->period)
		return;
	f->period = period;
	opts.smpl_period = period;
	period_min = period < period_min ? period : period_min;
	period_max = period > period_max ? period : period_max;
	/* the counter counts up from -period: what is left to the next sample */
	left = -pd[0].reg_value;
	pd[0].reg_flags = PFM_PMDFL_SMPL;
	pd[0].reg_value = left > period ? -period : pd[0].reg_value;
	pd[0].reg_short_reset = -period;
	pd[0].reg_long_reset = -period;
	pfm_write_pmds(fd, pd, sizeof(pd[0]));
}

/* ns: the time the sampled event's set was live, over every thread */
void freq_report(FILE *f, uint64_t nsamples, uint64_t ns)
{
	fprintf(f, "%20.0f  per second of the threads' time (%llu asked; periods of %llu "
		"to %llu %s)\n", ns ? nsamples / (ns / 1e9) : 0.0,
		(unsigned long long)opts.smpl_freq, (unsigned long long)period_min,
		(unsigned long long)period_max, opts.ev[0].name);
}
