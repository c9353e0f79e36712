// SPDX-License-Identifier: GPL-2.0
/*
 * csw_bench's ring (csw_ring.h).
 *
 * Every thread waits on a futex word of its own; a hand-off sets the next
 * thread's word and wakes it, then the passer waits on its own word.  The
 * threads are SCHED_FIFO at one priority (the caller's policy, inherited): a
 * woken thread never preempts its waker, so on one CPU the passer runs on to its
 * futex wait and exactly one switch, passer to next, follows each hand-off.
 *
 * The main thread is not in the ring and counts nothing: it starts the clock,
 * passes the first token, and the last hand-off comes back to it.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "perfmon.h"
#include "bench_common.h"
#include "csw_ring.h"

#define MAX_EVENTS	16
#define MAX_SETS	8

/* A futex word alone in its cache line. */
struct slot {
	_Atomic int tok;
} __attribute__((aligned(64)));

struct ring {
	const struct csw_conf *conf;
	enum csw_tool tool;
	struct slot *slot;	/* one per thread, then the main thread's */
	atomic_long left;	/* passes still to make */
	atomic_int ready;	/* threads counting, waiting for the token */
	atomic_int stop;
	atomic_llong switches, set_runs;
};

struct member {
	struct ring *ring;
	int idx;
	pthread_t th;
};

/* A thread's own session: perfmon's context, or perf's groups (leaders first). */
struct session {
	int fd;
	int perf_fd[MAX_SETS][MAX_EVENTS];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void token_wait(struct slot *s)
{
	while (!atomic_exchange(&s->tok, 0))
		syscall(SYS_futex, &s->tok, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
}

static void token_give(struct slot *s)
{
	atomic_store(&s->tok, 1);
	syscall(SYS_futex, &s->tok, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Counter i's event, of bench_common.h's four */
static int ev_index(const struct csw_conf *c, int i)
{
	return c->only >= 0 ? c->only : i % BENCH_NEV;
}

/* Counter 1 counts context switches, for the check of one switch a hand-off. */
static bool counts_switches(const struct csw_conf *c)
{
	return c->events > 1 && bench_perf_ev[ev_index(c, 1)] == PERF_COUNT_SW_CONTEXT_SWITCHES;
}

static void pfm_open_self(struct session *s, const struct csw_conf *c)
{
	struct pfarg_setdesc sd[MAX_SETS];
	struct pfarg_pmc pc[MAX_EVENTS];
	struct pfarg_pmd pd[MAX_EVENTS];
	int set, i;

	s->fd = pfm_create_context(0);
	if (s->fd < 0)
		die("pfm_create_context");
	memset(sd, 0, sizeof(sd));
	for (set = 0; set < c->sets; set++) {
		sd[set].set_id = set;
		sd[set].set_flags = c->timeout_ns ? PFM_SETFL_TIME_SWITCH : 0;
		sd[set].set_timeout = c->timeout_ns;
	}
	if (c->timeout_ns && pfm_create_evtsets(s->fd, sd, c->sets * sizeof(sd[0])))
		die("pfm_create_evtsets");
	for (set = 0; set < c->sets; set++) {
		memset(pc, 0, sizeof(pc));
		memset(pd, 0, sizeof(pd));
		for (i = 0; i < c->events; i++) {
			pc[i].reg_num = PFM_SW_FIRST_PMC + i;
			pc[i].reg_set = set;
			pc[i].reg_value = PFM_SW_PMC(bench_pfm_ev[ev_index(c, i)]) | PFM_SW_PMC_OS;
			pd[i].reg_num = PFM_SW_FIRST_PMD + i;
			pd[i].reg_set = set;
		}
		if (pfm_write_pmcs(s->fd, pc, c->events * sizeof(pc[0])) ||
		    pfm_write_pmds(s->fd, pd, c->events * sizeof(pd[0])))
			die("perfmon registers");
	}
	if (pfm_load_context(s->fd, 0, gettid()) || pfm_start(s->fd, 0))
		die("perfmon load and start");
}

static void perf_open_self(struct session *s, const struct csw_conf *c)
{
	int g, i, *fd;

	for (g = 0; g < c->sets; g++) {
		fd = s->perf_fd[g];
		fd[0] = bench_perf_open(0, bench_perf_ev[ev_index(c, 0)], -1, 0);
		for (i = 1; i < c->events; i++)
			fd[i] = bench_perf_open(0, bench_perf_ev[ev_index(c, i)], fd[0],
						0);
		if (ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
			die("PERF_EVENT_IOC_ENABLE");
	}
}

/* Stopped, the context switches counted (event 1 of each set or group) and closed. */
static void pfm_close_self(struct session *s, struct ring *r)
{
	const struct csw_conf *c = r->conf;
	struct pfarg_setinfo si;
	struct pfarg_pmd pd;
	int set;

	if (pfm_stop(s->fd, 0))
		die("pfm_stop");
	for (set = 0; set < c->sets; set++) {
		memset(&pd, 0, sizeof(pd));
		pd.reg_num = PFM_SW_FIRST_PMD + 1;
		pd.reg_set = set;
		if (counts_switches(c) && !pfm_read_pmds(s->fd, &pd, sizeof(pd)))
			atomic_fetch_add(&r->switches, pd.reg_value);
		memset(&si, 0, sizeof(si));
		si.set_id = set;
		if (pfm_getinfo_evtsets(s->fd, &si, sizeof(si)))
			die("pfm_getinfo_evtsets");
		atomic_fetch_add(&r->set_runs, si.set_runs);
	}
	close(s->fd);
}

static void perf_close_self(struct session *s, struct ring *r)
{
	const struct csw_conf *c = r->conf;
	uint64_t buf[1 + MAX_EVENTS];
	ssize_t len = (1 + c->events) * sizeof(buf[0]);
	int g, i;

	if (ioctl(s->perf_fd[0][0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP))
		die("PERF_EVENT_IOC_DISABLE");
	if (counts_switches(c) && read(s->perf_fd[0][0], buf, len) == len)
		atomic_fetch_add(&r->switches, buf[2]);
	for (g = c->sets - 1; g >= 0; g--)
		for (i = c->events - 1; i >= 0; i--)
			close(s->perf_fd[g][i]);
}

static void *ring_thread(void *arg)
{
	struct member *m = arg;
	struct ring *r = m->ring;
	int n = r->conf->threads, next;
	struct session s;

	if (r->tool == CSW_PERFMON)
		pfm_open_self(&s, r->conf);
	else if (r->tool == CSW_PERF)
		perf_open_self(&s, r->conf);
	if (atomic_fetch_add(&r->ready, 1) + 1 == n)
		token_give(&r->slot[n]);
	for (;;) {
		token_wait(&r->slot[m->idx]);
		if (atomic_load(&r->stop))
			break;
		next = m->idx + 1 < n ? m->idx + 1 : 0;
		if (atomic_fetch_sub(&r->left, 1) == 1)
			next = n;
		token_give(&r->slot[next]);
	}
	if (r->tool == CSW_PERFMON)
		pfm_close_self(&s, r);
	else if (r->tool == CSW_PERF)
		perf_close_self(&s, r);
	return NULL;
}

void csw_batch(const struct csw_conf *c, enum csw_tool tool, long handoffs,
	       struct csw_run *out)
{
	int n = c->threads, i;
	struct member *m;
	pthread_attr_t attr;
	struct ring r;
	uint64_t t0, t;

	if (c->events > MAX_EVENTS || c->sets > MAX_SETS || n < 2)
		die("csw_batch: configuration out of range");
	memset(&r, 0, sizeof(r));
	r.conf = c;
	r.tool = tool;
	/* the main thread's pass is one of the hand-offs */
	atomic_store(&r.left, handoffs - 1);
	r.slot = aligned_alloc(64, (n + 1) * sizeof(*r.slot));
	m = calloc(n, sizeof(*m));
	if (!r.slot || !m)
		die("csw_batch");
	memset(r.slot, 0, (n + 1) * sizeof(*r.slot));
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		m[i].ring = &r;
		m[i].idx = i;
		errno = pthread_create(&m[i].th, &attr, ring_thread, &m[i]);
		if (errno)
			die("pthread_create");
	}
	/* every thread counting and waiting for the token */
	token_wait(&r.slot[n]);
	t0 = now_ns();
	token_give(&r.slot[0]);
	token_wait(&r.slot[n]);
	t = now_ns() - t0;
	atomic_store(&r.stop, 1);
	for (i = 0; i < n; i++)
		token_give(&r.slot[i]);
	for (i = 0; i < n; i++)
		pthread_join(m[i].th, NULL);
	pthread_attr_destroy(&attr);
	out->ns = (double)t / handoffs;
	out->switches = counts_switches(c) ? (double)atomic_load(&r.switches) / handoffs : -1;
	out->set_runs = (double)atomic_load(&r.set_runs) / n;
	free(m);
	free(r.slot);
}
