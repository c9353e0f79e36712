// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff's sampling case: perf's ring, read as a program following
 * perf_event_open(2) reads it, compared record by record between the kernel and
 * the shim.  The test thread samples its own page faults, one per sample, on
 * fresh pages: the number of samples, each record's type, misc and size, its
 * pid/tid, the page its fault address is in, its period, and the count read()
 * gives are all fixed by the workload, so all are compared exactly.
 *
 * The other cases here compare what the shim added to perf's ring beyond plain
 * samples, each on the test thread's own faults (exact): a group read in every
 * sample (PERF_SAMPLE_READ with PERF_FORMAT_GROUP), REFRESH's limit, IOC_PERIOD,
 * SET_OUTPUT into another event's ring, the FORK record of a fork, and the COMM
 * and MMAP records of an exec that enables the event (perf record's workload).
 *
 * One case samples a clock instead (task-clock every 1 ms of a spin): there the
 * number of samples is the machine's, but each sample's period and tid, and that
 * the count covers the whole spin, are exact.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diff.h"

#define RING_PAGES	8	/* data pages: 64 samples of 48 bytes fit without a wrap */
#define FAULTS		64

/* the test thread's user page faults, sampled every period, disabled */
static int open_faults(const struct backend *be, struct trace *t, unsigned long long period,
		       unsigned long long sample_type, unsigned long long read_format,
		       const char *what)
{
	struct perf_event_attr a;
	int fd;

	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	a.sample_period = period;
	a.sample_type = sample_type;
	a.read_format = read_format;
	fd = be->open(&a, 0, -1, -1, 0);
	obs_call(t, fd, 0, "open %s", what);
	return fd;
}

static unsigned long long event_id(int fd)
{
	unsigned long long id = 0;

	ioctl(fd, PERF_EVENT_IOC_ID, &id);
	return id;
}

static unsigned long long read1(int fd)
{
	unsigned long long v = ~0ULL;

	return read(fd, &v, sizeof(v)) == sizeof(v) ? v : ~0ULL;
}

/* ---- plain samples ---------------------------------------------------------- */

struct ring_walk {
	struct trace *t;
	unsigned long long base;	/* the fresh pages' address */
	unsigned long long samples, other;
};

/* IP, TID (pid, tid), ADDR, PERIOD */
static void sample_rec(const struct perf_event_header *h, const unsigned long long *w,
		       void *arg)
{
	struct ring_walk *rw = arg;
	long psz = sysconf(_SC_PAGESIZE);

	if (h->type != PERF_RECORD_SAMPLE) {
		rw->other++;
		return;
	}
	obs_call(rw->t, 0, 1, "sample %llu", rw->samples++);
	obs_val(rw->t, h->misc, 'e');
	obs_val(rw->t, h->size, 'e');
	obs_val(rw->t, (unsigned int)w[1] == (unsigned int)getpid() &&
		       (unsigned int)(w[1] >> 32) == (unsigned int)gettid(), 'e');
	obs_val(rw->t, w[2] >= rw->base ? (w[2] - rw->base) / psz : ~0ULL, 'e');
	obs_val(rw->t, w[3], 'e');
}

void case_sample_ring(const struct backend *be, struct trace *t)
{
	volatile char *p = fresh(FAULTS);
	struct ring_walk rw = { .t = t };
	struct dring r;
	int fd;

	if (!p)
		return;
	rw.base = (unsigned long)p;
	fd = open_faults(be, t, 1, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			 PERF_SAMPLE_PERIOD, 0, "page-faults, period 1");
	if (fd < 0 || dring_map(t, &r, fd, RING_PAGES))
		goto out;
	obs_val(t, r.pg->data_offset, 'e');
	obs_val(t, r.pg->data_size, 'e');
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 1, "ENABLE");
	touch(p, 0, FAULTS);
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE");
	obs_val(t, r.pg->data_head <= r.pg->data_size, 'e');
	dring_walk(&r, sample_rec, &rw);
	obs_call(t, 0, 1, "records");
	obs_vals(t, (unsigned long long[]){ rw.samples, rw.other, read1(fd) }, 3, "eee");
	munmap(r.pg, r.len);
out:
	if (fd >= 0)
		close(fd);
	munmap((void *)p, FAULTS * sysconf(_SC_PAGESIZE));
}

/* ---- PERF_SAMPLE_READ of a group ------------------------------------------- */

struct group_walk {
	struct trace *t;
	unsigned long long id[3];
	unsigned long long samples;
};

/*
 * { nr, ena, run, { value, id } x 3 }: the times not 0, running within enabled,
 * the leader's and the member's counts, the dummy's 0
 */
static void group_rec(const struct perf_event_header *h, const unsigned long long *w,
		      void *arg)
{
	struct group_walk *g = arg;
	int i;

	if (h->type != PERF_RECORD_SAMPLE)
		return;
	obs_call(g->t, 0, 1, "sample %llu", g->samples++);
	obs_val(g->t, h->size, 'e');
	obs_val(g->t, w[0], 'e');
	/*
	 * Natively too, time_running can fall short of time_enabled in a sample on a
	 * busy host: running within enabled, and the values shown.
	 * Both may be 0 in the first sample, on either side: the guest's TSC is
	 * unstable, and local_clock(), both tools' clock, stands still at a tick's
	 * length past the last tick until the next (natively and through the shim)
	 */
	obs_val(g->t, w[2] <= w[1], 'e');
	obs_vals(g->t, w + 1, 2, "xx");
	for (i = 0; i < 3; i++) {
		obs_val(g->t, w[3 + 2 * i], 'e');
		obs_val(g->t, w[4 + 2 * i] == g->id[i], 'e');
	}
}

void case_sample_group(const struct backend *be, struct trace *t)
{
	struct group_walk g = { .t = t };
	volatile char *p = fresh(64);
	struct perf_event_attr a;
	struct dring r;
	int fd[3] = { -1, -1, -1 }, i;

	if (!p)
		return;
	fd[0] = open_faults(be, t, 8, PERF_SAMPLE_READ, PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
			    "leader, period 8, READ of the group");
	if (fd[0] < 0)
		goto out;
	for (i = 1; i < 3; i++) {
		attr_sw(&a, i == 1 ? PERF_COUNT_SW_PAGE_FAULTS : PERF_COUNT_SW_DUMMY);
		a.exclude_kernel = 1;
		a.disabled = 0;
		fd[i] = be->open(&a, 0, -1, fd[0], 0);
		obs_call(t, fd[i], 0, "open member %d", i);
	}
	for (i = 0; i < 3; i++)
		g.id[i] = fd[i] >= 0 ? event_id(fd[i]) : 0;
	if (dring_map(t, &r, fd[0], RING_PAGES))
		goto out;
	obs_call(t, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0), 1, "ENABLE");
	touch(p, 0, 64);
	obs_call(t, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE");
	dring_walk(&r, group_rec, &g);
	obs_call(t, 0, 1, "samples");
	obs_val(t, g.samples, 'e');
	munmap(r.pg, r.len);
out:
	for (i = 2; i >= 0; i--)
		if (fd[i] >= 0)
			close(fd[i]);
	munmap((void *)p, 64 * sysconf(_SC_PAGESIZE));
}

/* ---- REFRESH, IOC_PERIOD, SET_OUTPUT: samples counted and their fields ---- */

struct count_walk {
	struct trace *t;
	unsigned long long base;	/* the fresh pages' address */
	unsigned long long id[2];	/* STREAM_IDs told apart, when asked */
	unsigned long long samples, per_id[2], other;
	int fields;			/* observe each sample's ADDR page and PERIOD */
};

/* sample_type ADDR and PERIOD or READ (the count), or STREAM_ID alone (SET_OUTPUT) */
static void count_rec(const struct perf_event_header *h, const unsigned long long *w,
		      void *arg)
{
	struct count_walk *c = arg;
	long psz = sysconf(_SC_PAGESIZE);

	if (h->type != PERF_RECORD_SAMPLE) {
		c->other++;
		return;
	}
	c->samples++;
	if (c->fields) {
		obs_call(c->t, 0, 1, "sample %llu", c->samples);
		obs_val(c->t, w[0] >= c->base ? (w[0] - c->base) / psz : ~0ULL, 'e');
		obs_val(c->t, w[1], 'e');
	} else {
		c->per_id[0] += w[0] == c->id[0];
		c->per_id[1] += w[0] == c->id[1];
	}
}

/* The ring's records counted, then the samples, the others and the count observed. */
static void walk_counts(struct trace *t, struct dring *r, struct count_walk *c, int fd)
{
	dring_walk(r, count_rec, c);
	obs_call(t, 0, 1, "records");
	obs_vals(t, (unsigned long long[]){ c->samples, c->other, read1(fd) }, 3, "eee");
	munmap(r->pg, r->len);
}

/* REFRESH(3) enables the event for 3 overflows: of 8 faults, 3 samples, 3 counted. */
void case_refresh(const struct backend *be, struct trace *t)
{
	volatile char *p = fresh(8);
	struct count_walk c = { .t = t, .fields = 1 };
	struct dring r;
	int fd;

	if (!p)
		return;
	c.base = (unsigned long)p;
	fd = open_faults(be, t, 1, PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD, 0, "period 1");
	if (fd < 0 || dring_map(t, &r, fd, RING_PAGES))
		goto out;
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_REFRESH, 3), 1, "REFRESH 3");
	touch(p, 0, 8);
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE");
	walk_counts(t, &r, &c, fd);
out:
	if (fd >= 0)
		close(fd);
	munmap((void *)p, 8 * sysconf(_SC_PAGESIZE));
}

/*
 * Period 4 for 18 faults, IOC_PERIOD 8 while disabled, 30 more: which pages are
 * sampled, and the count at each (READ).  Not PERIOD: with it a software event
 * samples every fault whatever its period, and PERIOD would go unseen.  (On an
 * enabled event 6.1 samples the very next fault, then runs the new period less
 * one; the shim does not: said in the uapi header.)
 */
void case_ioc_period(const struct backend *be, struct trace *t)
{
	volatile char *p = fresh(48);
	struct count_walk c = { .t = t, .fields = 1 };
	unsigned long long period = 8;
	struct dring r;
	int fd;

	if (!p)
		return;
	c.base = (unsigned long)p;
	fd = open_faults(be, t, 4, PERF_SAMPLE_ADDR | PERF_SAMPLE_READ, 0, "period 4");
	if (fd < 0 || dring_map(t, &r, fd, RING_PAGES))
		goto out;
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 1, "ENABLE");
	touch(p, 0, 18);
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE");
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period), 1, "PERIOD 8");
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 1, "ENABLE");
	touch(p, 18, 30);
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE");
	walk_counts(t, &r, &c, fd);
out:
	if (fd >= 0)
		close(fd);
	munmap((void *)p, 48 * sysconf(_SC_PAGESIZE));
}

/* Two events, the second's records SET_OUTPUT into the first's ring: 16 each. */
void case_set_output(const struct backend *be, struct trace *t)
{
	volatile char *p = fresh(16);
	struct count_walk c = { .t = t };
	struct dring r;
	int fd[2], i;

	if (!p)
		return;
	for (i = 0; i < 2; i++)
		fd[i] = open_faults(be, t, 1, PERF_SAMPLE_STREAM_ID, 0, "period 1, STREAM_ID");
	if (fd[0] < 0 || fd[1] < 0 || dring_map(t, &r, fd[0], RING_PAGES))
		goto out;
	obs_call(t, ioctl(fd[1], PERF_EVENT_IOC_SET_OUTPUT, fd[0]), 1, "SET_OUTPUT");
	for (i = 0; i < 2; i++)
		c.id[i] = event_id(fd[i]);
	obs_call(t, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0) |
		    ioctl(fd[1], PERF_EVENT_IOC_ENABLE, 0), 1, "ENABLE both");
	touch(p, 0, 16);
	obs_call(t, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0) |
		    ioctl(fd[1], PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE both");
	dring_walk(&r, count_rec, &c);
	obs_call(t, 0, 1, "records");
	obs_vals(t, (unsigned long long[]){ c.samples, c.per_id[0], c.per_id[1], c.other },
		 4, "eeee");
	munmap(r.pg, r.len);
out:
	for (i = 1; i >= 0; i--)
		if (fd[i] >= 0)
			close(fd[i]);
	munmap((void *)p, 16 * sysconf(_SC_PAGESIZE));
}

/* ---- a fork: one PERF_RECORD_FORK with the child's and the parent's ids ---- */

struct fork_walk {
	pid_t child;
	unsigned long long forks, fields_ok, samples;
};

static void fork_rec(const struct perf_event_header *h, const unsigned long long *w,
		     void *arg)
{
	const unsigned int *u = (const unsigned int *)w;
	struct fork_walk *f = arg;

	if (h->type == PERF_RECORD_SAMPLE)
		f->samples++;
	if (h->type != PERF_RECORD_FORK)
		return;
	f->forks++;
	/* pid, ppid, tid, ptid */
	f->fields_ok += u[0] == (unsigned int)f->child && u[1] == (unsigned int)getpid() &&
			u[2] == (unsigned int)f->child && u[3] == (unsigned int)gettid();
}

void case_fork_record(const struct backend *be, struct trace *t)
{
	volatile char *p = fresh(4);
	struct fork_walk f = { 0 };
	struct perf_event_attr a;
	struct dring r;
	int fd, status;

	if (!p)
		return;
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID;
	a.task = 1;
	fd = be->open(&a, 0, -1, -1, 0);
	obs_call(t, fd, 0, "open period 1, task");
	if (fd < 0 || dring_map(t, &r, fd, RING_PAGES))
		goto out;
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 1, "ENABLE");
	touch(p, 0, 4);
	f.child = fork();
	if (!f.child)
		_exit(0);
	waitpid(f.child, &status, 0);
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE");
	dring_walk(&r, fork_rec, &f);
	obs_call(t, 0, 1, "records");
	obs_vals(t, (unsigned long long[]){ f.forks, f.fields_ok }, 2, "ee");
	munmap(r.pg, r.len);
out:
	if (fd >= 0)
		close(fd);
	munmap((void *)p, 4 * sysconf(_SC_PAGESIZE));
}

/* ---- an exec: COMM, and an MMAP of each executable mapping, the vDSO's too ---- */

#define EXEC_MMAPS	8

struct exec_mmap {
	unsigned long long addr, len, pgoff, misc, ids_ok;
	char name[64];
};

struct exec_walk {
	pid_t child;
	unsigned long long comms, comm_exec, comm_ids_ok, mmaps;
	unsigned long long other;	/* the types of any other record, a bit each */
	char comm[16];
	struct exec_mmap m[EXEC_MMAPS];
};

/* a record's name, cut to what dst holds */
static void copy_name(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = 0;
}

static void exec_rec(const struct perf_event_header *h, const unsigned long long *w,
		     void *arg)
{
	const unsigned int *u = (const unsigned int *)w;
	struct exec_walk *e = arg;
	struct exec_mmap *m;

	if (h->type == PERF_RECORD_COMM) {
		e->comms++;
		e->comm_exec += !!(h->misc & PERF_RECORD_MISC_COMM_EXEC);
		e->comm_ids_ok += u[0] == (unsigned int)e->child && u[1] == (unsigned int)e->child;
		copy_name(e->comm, sizeof(e->comm), (const char *)(u + 2));
		return;
	}
	if (h->type != PERF_RECORD_MMAP) {
		e->other |= 1ULL << (h->type & 63);
		return;
	}
	if (e->mmaps == EXEC_MMAPS) {
		e->mmaps++;
		return;
	}
	/* pid, tid, addr, len, pgoff, filename */
	m = &e->m[e->mmaps++];
	m->ids_ok = u[0] == (unsigned int)e->child && u[1] == (unsigned int)e->child;
	m->addr = w[1];
	m->len = w[2];
	m->pgoff = w[3];
	m->misc = h->misc;
	copy_name(m->name, sizeof(m->name), (const char *)(w + 4));
}

static int by_addr(const void *a, const void *b)
{
	const struct exec_mmap *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* the child's work: this very program again, which exits at once (a usage error) */
static void exec_self(long unused)
{
	(void)unused;
	if (!freopen("/dev/null", "w", stderr))
		_exit(4);
	execl("/proc/self/exe", "perf_diff", (char *)NULL);
	_exit(5);
}

/*
 * A forked child's exec, with a sampling event on it that the exec enables
 * (disabled, enable_on_exec, mmap, comm; no sample comes: the period is never
 * reached).  What the ring holds is compared exactly: one COMM of the exec ("exe",
 * the name the exec was made by), and one MMAP of each executable mapping of the
 * new image, in address order: its name (the program's path, "[vdso]"), length,
 * offset and misc (addresses are the exec's own, randomized).
 */
void case_exec_record(const struct backend *be, struct trace *t)
{
	struct child c = { .no_lock = 1 };
	struct exec_walk e = { 0 };
	struct perf_event_attr a;
	struct dring r;
	int fd, status;
	unsigned long long i;

	if (child_start(&c, exec_self, 0))
		return;
	e.child = c.pid;
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_period = 1ULL << 40;
	a.sample_type = PERF_SAMPLE_TID;
	a.enable_on_exec = 1;
	a.mmap = 1;
	a.comm = 1;
	fd = be->open(&a, c.pid, -1, -1, 0);
	obs_call(t, fd, 0, "open on the child, enable_on_exec, mmap, comm");
	if (fd >= 0 && !dring_map(t, &r, fd, RING_PAGES)) {
		child_go(&c);
		waitpid(c.pid, &status, 0);
		dring_walk(&r, exec_rec, &e);
		munmap(r.pg, r.len);
	} else {
		child_go(&c);
		waitpid(c.pid, &status, 0);
	}
	if (fd >= 0)
		close(fd);
	obs_call(t, 0, 1, "records: COMM %s", e.comm);
	obs_vals(t, (unsigned long long[]){ e.comms, e.comm_exec, e.comm_ids_ok, e.mmaps,
					    e.other }, 5, "eeeee");
	if (e.mmaps > EXEC_MMAPS)
		return;
	qsort(e.m, e.mmaps, sizeof(e.m[0]), by_addr);
	for (i = 0; i < e.mmaps; i++) {
		obs_call(t, 0, 1, "MMAP %llu: %s", i, e.m[i].name);
		obs_vals(t, (unsigned long long[]){ e.m[i].len, e.m[i].pgoff, e.m[i].misc,
						    e.m[i].ids_ok }, 4, "eeee");
	}
}

/* ---- a clock sampled: every record at the period, and the count whole ------ */

#define CLOCK_PERIOD_NS	10000000ULL
#define CLOCK_SPIN_MS	200
#define CLOCK_TRIES	3

struct clock_walk {
	unsigned long long samples, other, bad;
};

/* TID (pid, tid), PERIOD */
static void clock_rec(const struct perf_event_header *h, const unsigned long long *w,
		      void *arg)
{
	struct clock_walk *c = arg;

	if (h->type != PERF_RECORD_SAMPLE) {
		c->other++;
		return;
	}
	c->samples++;
	c->bad += (unsigned int)w[0] != (unsigned int)getpid() ||
		  (unsigned int)(w[0] >> 32) != (unsigned int)gettid() ||
		  w[1] != CLOCK_PERIOD_NS;
}

/* One try of case_clock_sample(), recorded; whether the count covered the spin. */
static int clock_sample_once(const struct backend *be, struct trace *t)
{
	struct clock_walk c = { 0 };
	struct perf_event_attr a;
	unsigned long long count;
	long long t0, t1;
	struct dring r;
	int fd, whole = 0;

	attr_sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.sample_period = CLOCK_PERIOD_NS;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
	fd = be->open(&a, 0, -1, -1, 0);
	obs_call(t, fd, 0, "open task-clock, period 10 ms");
	if (fd < 0 || dring_map(t, &r, fd, RING_PAGES))
		goto out;
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 1, "ENABLE");
	t0 = thread_ns();
	work_spin(CLOCK_SPIN_MS);
	t1 = thread_ns();
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE");
	dring_walk(&r, clock_rec, &c);
	count = read1(fd);
	whole = count != ~0ULL && count >= (unsigned long long)(t1 - t0) * 999 / 1000;
	obs_call(t, 0, 1, "records");
	obs_vals(t, (unsigned long long[]){ c.samples, c.bad, c.other, count, whole },
		 5, "reere");
	munmap(r.pg, r.len);
out:
	if (fd >= 0)
		close(fd);
	return whole;
}

/*
 * The test thread's task-clock, sampled every 10 ms of a 200 ms spin: about 20
 * samples ('r'), all at the period and of this thread, and a count at least the
 * thread's CPU time spun between ENABLE and DISABLE, less 0.1 % (for the clocks'
 * reading apart; the count covers a little more than the spin).  A sampled clock
 * that lost what ran between its overflow and its reload counts less than the
 * thread ran, in every run.  A loaded host can stretch a run on its own, now and
 * then: a run short of the spin is tried again, up to 3 times,
 * and only the last try is recorded.
 */
void case_clock_sample(const struct backend *be, struct trace *t)
{
	int n = t->n, i;

	for (i = 0; i < CLOCK_TRIES; i++) {
		t->n = n;
		if (clock_sample_once(be, t))
			break;
	}
}

/* ---- perf_event_max_sample_rate: a software event is never throttled -------- */

/* Each backend's knob: the kernel's sysctl, or the shim's sysfs file. */
static const char *max_rate_knob(const struct backend *be)
{
	return strcmp(be->name, "native") ? "/sys/kernel/perfmon/perf_max_sample_rate" :
					      "/proc/sys/kernel/perf_event_max_sample_rate";
}

struct throttle_walk {
	unsigned long long samples, throttles, other;
};

static void throttle_rec(const struct perf_event_header *h, const unsigned long long *w,
			 void *arg)
{
	struct throttle_walk *tw = arg;

	(void)w;
	if (h->type == PERF_RECORD_SAMPLE)
		tw->samples++;
	else if (h->type == PERF_RECORD_THROTTLE || h->type == PERF_RECORD_UNTHROTTLE)
		tw->throttles++;
	else
		tw->other++;
}

/*
 * 6.1 throttles the hardware events and the clocks past the maximum sample
 * rate, never a software event's overflow at an occurrence
 * (perf_swevent_overflow() passes no throttle): FAULTS page faults sampled one
 * by one at a maximum of 100 a second give FAULTS samples and no THROTTLE,
 * however fast they come.
 */
void case_throttle_sw(const struct backend *be, struct trace *t)
{
	volatile char *p = fresh(FAULTS * 4);
	struct throttle_walk tw = {};
	const char *path = max_rate_knob(be);
	char old[32] = "";
	struct dring r;
	int fd = -1;

	if (!p)
		return;
	if (knob(path, "100\n", old, sizeof(old))) {
		obs_call(t, -1, 1, "max sample rate 100");
		goto out_pages;
	}
	obs_call(t, 0, 1, "max sample rate 100");
	fd = open_faults(be, t, 1, PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD, 0, "page-faults, period 1");
	if (fd < 0 || dring_map(t, &r, fd, 16))
		goto out;
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 1, "ENABLE");
	touch(p, 0, FAULTS * 4);
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE");
	dring_walk(&r, throttle_rec, &tw);
	obs_call(t, 0, 1, "records");
	obs_vals(t, (unsigned long long[]){ tw.samples, tw.throttles, tw.other, read1(fd) },
		 4, "eeee");
	munmap(r.pg, r.len);
out:
	if (fd >= 0)
		close(fd);
	knob(path, old, NULL, 0);
out_pages:
	munmap((void *)p, FAULTS * 4 * sysconf(_SC_PAGESIZE));
}
