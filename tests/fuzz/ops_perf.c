// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz operations on what the perf shim and the counts page add: a sampling
 * session through pfm_perf_event_open() (perf_smpl) and the counts page of a
 * context (counts).
 *
 * perf_smpl is a scenario (ops_scen.c says how those work: one seed draws every
 * choice, each step's result is ignored, the event stays in its fd slot): a
 * sampling event (sample_period, or sample_freq) with any of the sample fields
 * the shim writes, side-band records asked for, for the caller, a thread or
 * process of the program, a child that execs into it (enable_on_exec), or the
 * caller and its inheriting children; its ring mapped at sizes right and wrong,
 * read-only (overwriting) or writable (data_tail respected, so that a ring left
 * full loses records); a second event in its group or redirected into its ring
 * (SET_OUTPUT); output paused and resumed, periods and refreshes asked for,
 * polls that wait for the wakeup; now and then a low perf_max_sample_rate, so
 * that events are throttled (the manager puts the knob back).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "fuzz.h"

#define PS_PAGE		4096UL

/* The fields perf/sample.c writes; any other is EOPNOTSUPP. */
#define PS_SAMPLE_OK	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
			 PERF_SAMPLE_READ)

enum { PS_SELF, PS_TARGET, PS_EXEC, PS_INHERIT, PS_NR };

static const uint64_t ps_configs[] = {
	PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_PAGE_FAULTS_MIN, PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_CPU_MIGRATIONS,
};

static int ps_is_clock(uint64_t config)
{
	return config == PERF_COUNT_SW_TASK_CLOCK || config == PERF_COUNT_SW_CPU_CLOCK;
}

/*
 * A sampling attr: periods short enough that the workload overflows them many
 * times (clocks in ns), or a frequency (over the default maximum now and then).
 */
static void ps_attr(uint64_t *rng, struct perf_event_attr *a, int inherit)
{
	static const uint64_t freqs[] = { 10, 1000, 4000, 100000, 200000 };

	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = ps_configs[fz_below(rng, 6)];
	if (fz_one_in(rng, 4)) {
		a->freq = 1;
		a->sample_freq = freqs[fz_below(rng, 5)];
	} else if (ps_is_clock(a->config)) {
		a->sample_period = 10000 + fz_below(rng, 500000);
	} else {
		a->sample_period = 1 + fz_below(rng, fz_one_in(rng, 4) ? 64 : 4);
	}
	a->sample_type = fz_rand(rng) & PS_SAMPLE_OK;
	if (fz_one_in(rng, 16))
		a->sample_type |= 1ULL << fz_below(rng, 26);
	a->read_format = fz_below(rng, PERF_FORMAT_MAX);
	if ((a->sample_type & PERF_SAMPLE_READ) && !fz_one_in(rng, 8))
		a->read_format &= ~PERF_FORMAT_GROUP;
	a->disabled = fz_below(rng, 2);
	a->exclude_kernel = !fz_one_in(rng, 4);
	a->exclude_hv = 1;
	a->sample_id_all = fz_below(rng, 2);
	a->mmap = fz_one_in(rng, 3);
	a->mmap2 = fz_below(rng, 2);
	a->comm = fz_below(rng, 2);
	a->comm_exec = a->comm && fz_below(rng, 2);
	a->task = fz_one_in(rng, 4);
	if (fz_one_in(rng, 3)) {
		a->watermark = 1;
		a->wakeup_watermark = fz_below(rng, 4) ? 8 * (1 + fz_below(rng, 1024)) :
			(uint32_t)fz_rand(rng);
	} else {
		a->wakeup_events = fz_below(rng, 4);
	}
	a->inherit = inherit;
	if (inherit && !fz_one_in(rng, 8))
		a->sample_type &= ~PERF_SAMPLE_READ;
}

/* perf_max_sample_rate: low (a sample or a few per tick: throttling), or refused. */
static void ps_rate(uint64_t *rng)
{
	static const char *const rates[] = { "250", "1000", "4000", "1", "0", "-1", "x" };
	const char *v = rates[fz_below(rng, fz_one_in(rng, 4) ? 7 : 4)];
	int fd;

	fz_mark_global(FZ_KNOB_SAMPLE_RATE);
	fd = open("/sys/kernel/perfmon/perf_max_sample_rate", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, v, strlen(v)) < 0)
		v = NULL;
	close(fd);
}

struct ps_ring {
	struct perf_event_mmap_page *pg;
	size_t len;		/* the mapping */
	uint64_t data_size;	/* 0: the user page alone, or no mapping */
	int writable;
};

/*
 * The ring of fd: 1 + 2^n pages mostly (n up to 4), the user page alone, or what
 * the kernel refuses (a data part not a power of two, a length not a whole
 * page, a private mapping, an offset).  A second mapping of the same ring must
 * ask for the same size.
 */
static void ps_map(uint64_t *rng, int fd, struct ps_ring *r)
{
	static const size_t odd[] = { 3, 4, 6, 0 };
	size_t pages = fz_one_in(rng, 6) ? odd[fz_below(rng, 4)] :
		fz_one_in(rng, 8) ? 1 : 1 + (1UL << fz_below(rng, 5));
	size_t len = pages * PS_PAGE - (fz_one_in(rng, 10) ? 100 : 0);
	int prot = fz_below(rng, 2) ? PROT_READ | PROT_WRITE : PROT_READ;
	int flags = fz_one_in(rng, 16) ? MAP_PRIVATE : MAP_SHARED;
	off_t off = fz_one_in(rng, 16) ? (off_t)PS_PAGE : 0;
	void *p = mmap(fz_map_hint(len), len, prot, flags, fd, off);

	memset(r, 0, sizeof(*r));
	r->pg = MAP_FAILED;
	if (p == MAP_FAILED)
		return;
	r->pg = p;
	r->len = len;
	r->writable = prot & PROT_WRITE;
	r->data_size = ((len + PS_PAGE - 1) / PS_PAGE - 1) * PS_PAGE;
}

/*
 * Walks the records from data_tail to data_head (the headers only, bounded);
 * a writable ring's tail moves past all of them, part of them or none, so that
 * the ring fills and records are lost.
 */
static void ps_consume(uint64_t *rng, struct ps_ring *r)
{
	const char *data;
	uint64_t head, tail, pos;
	int n = 0;

	if (r->pg == MAP_FAILED || !r->data_size)
		return;
	data = (const char *)r->pg + PS_PAGE;
	head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	tail = r->writable ? r->pg->data_tail : head > r->data_size ? head - r->data_size : 0;
	for (pos = tail; pos < head && n < 4096; n++) {
		const struct perf_event_header *h =
			(const void *)(data + (pos & (r->data_size - 1)));

		if (h->size < sizeof(*h) || h->size % 8)
			break;
		pos += h->size;
		if (n == 0 || !fz_one_in(rng, 4))
			tail = pos;
	}
	if (r->writable && !fz_one_in(rng, 4))
		__atomic_store_n(&r->pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* What the sampling event counts, done by the caller. */
static void ps_work(uint64_t *rng, uint64_t config)
{
	cpu_set_t set;
	long i, n;

	switch (config) {
	case PERF_COUNT_SW_PAGE_FAULTS:
	case PERF_COUNT_SW_PAGE_FAULTS_MIN:
		/*
		 * up to 128 fresh pages, 64 at a time: past a low maximum rate
		 * (a few samples a tick) already, and each page is costly
		 */
		for (i = 0, n = 1 + (long)fz_below(rng, 2); i < n; i++)
			fz_workload(1, 63);
		return;
	case PERF_COUNT_SW_CONTEXT_SWITCHES:
		fz_workload(fz_below(rng, 2) ? 3 : 4, 1 + fz_below(rng, 200));
		return;
	case PERF_COUNT_SW_CPU_MIGRATIONS:
		for (i = 0; i < 4; i++) {
			CPU_ZERO(&set);
			CPU_SET(i & 1, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		for (i = 0; i < CPU_SETSIZE; i++)
			CPU_SET(i, &set);
		sched_setaffinity(0, sizeof(set), &set);
		return;
	default:
		fz_workload(2, 1 + fz_below(rng, 300));
		return;
	}
}

/*
 * A child that execs the fuzzer as a target once *go says so (or exits if *go
 * closes first): perf record's workload, for enable_on_exec.  *done reads end
 * of file once the child has exec'd (or died): its end closes at the exec.
 */
static pid_t ps_exec_child(uint64_t *rng, int *go, int *done)
{
	int gp[2], dp[2];
	char kind[8];
	pid_t pid;

	*go = *done = -1;
	if (fz_pipe_pair(gp, dp))
		return -1;
	if (fz_one_in(rng, 4))
		snprintf(kind, sizeof(kind), "exit");
	else
		snprintf(kind, sizeof(kind), "%d", (int)fz_below(rng, 4));
	pid = fz_spawn_target(&(struct fz_spawn){ .close_fd = { gp[1], dp[0] }, .wait_fd = gp[0],
						  .kind = kind });
	if (fz_pipe_parent(pid, gp, dp))
		return -1;
	*go = gp[1];
	*done = dp[0];
	return pid;
}

/* One of the event's ioctls, with a plausible argument mostly. */
static void ps_ioctl(uint64_t *rng, int fd, int other)
{
	uint64_t v = fz_below(rng, 2) ? 1 + fz_below(rng, 100000) : fz_rand(rng);
	int grp = fz_below(rng, 2) ? PERF_IOC_FLAG_GROUP : 0;

	switch (fz_below(rng, 8)) {
	case 0:
		ioctl(fd, PERF_EVENT_IOC_PERIOD, &v);
		break;
	case 1:
		ioctl(fd, PERF_EVENT_IOC_REFRESH, (int)fz_below(rng, 3));
		break;
	case 2:
		ioctl(fd, PERF_EVENT_IOC_RESET, grp);
		break;
	case 3:
		ioctl(fd, PERF_EVENT_IOC_DISABLE, grp);
		break;
	case 4:
		ioctl(fd, PERF_EVENT_IOC_ID, &v);
		break;
	case 5:
		ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, fz_below(rng, 2) ? other : -1);
		break;
	case 6:
		ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, (unsigned long)fz_below(rng, 2));
		break;
	default:
		ioctl(fd, PERF_EVENT_IOC_ENABLE, grp);
		break;
	}
}

static void ps_session(uint64_t *rng, uint64_t fd_slot, uint64_t tgt_slot, int variant)
{
	struct perf_event_attr a, b;
	struct ps_ring r1, r2, r3;
	int fd, fd2 = -1, wfd = -1, rfd = -1, i, wait_ms, rounds, self = variant == PS_SELF ||
		variant == PS_INHERIT;
	pid_t pid = 0, child = -1;
	uint64_t buf[64];
	struct fz_target *t;

	r1.pg = r2.pg = r3.pg = MAP_FAILED;
	if (fz_one_in(rng, 4))
		ps_rate(rng);
	ps_attr(rng, &a, variant == PS_INHERIT && !fz_one_in(rng, 4));
	if (variant == PS_TARGET) {
		pid = fz_scen_target(rng, tgt_slot);
	} else if (variant == PS_EXEC) {
		pid = child = ps_exec_child(rng, &wfd, &rfd);
		if (child < 0)
			return;
		a.disabled = 1;
		a.enable_on_exec = !fz_one_in(rng, 4);
	}
	fd = pfm_perf_event_open(&a, pid, fz_one_in(rng, 8) ? (int)fz_below(rng, 2) : -1, -1,
				 PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		goto out;
	fz_set_fd(fd_slot, fd);
	/* a second event: in the group, or its own whose output may go to the first's ring */
	if (fz_below(rng, 2)) {
		ps_attr(rng, &b, a.inherit);
		fd2 = pfm_perf_event_open(&b, pid, -1, fz_below(rng, 2) ? fd : -1,
					  PERF_FLAG_FD_CLOEXEC);
	}
	ps_map(rng, fd, &r1);
	if (fz_one_in(rng, 4))
		ps_map(rng, fd, &r2);	/* the same ring again, or a size refused */
	if (fd2 >= 0) {
		if (fz_below(rng, 2))
			ps_map(rng, fd2, &r3);
		ioctl(fd2, PERF_EVENT_IOC_SET_OUTPUT, fz_one_in(rng, 4) ? fd2 : fd);
	}
	if (wfd >= 0) {
		/* go, and wait (half a second at most) for the exec that enables */
		if (write(wfd, "x", 1) != 1)
			goto out;
		poll(&(struct pollfd){ .fd = rfd, .events = POLLIN }, 1, 500);
	}
	if (!a.enable_on_exec || fz_one_in(rng, 4))
		ioctl(fd, PERF_EVENT_IOC_ENABLE, fz_below(rng, 2) ? PERF_IOC_FLAG_GROUP : 0);
	rounds = 1 + (int)fz_below(rng, 4);
	for (i = 0; i < rounds; i++) {
		if (self)
			ps_work(rng, a.config);
		else
			fz_wait_event(fd, 500 + fz_below(rng, 3000));
		if (fz_one_in(rng, 3))
			ps_ioctl(rng, fz_below(rng, 4) || fd2 < 0 ? fd : fd2, fz_below(rng, 2) ? fd : fd2);
		/*
		 * A wakeup may come while the target runs on: up to 4 ms more
		 * of it (the wait above gave it its time to run already).
		 * Nothing samples the caller while it waits, so it only asks
		 * whether one came.
		 */
		wait_ms = (int)fz_below(rng, 20) / 4;
		poll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1, self ? 0 : wait_ms);
		ps_consume(rng, &r1);
		ps_consume(rng, &r3);
		if (fz_below(rng, 2) && fz_read_alarmed(fd, buf, 8 * (1 + fz_below(rng, 64))) < 0 &&
		    errno == EINTR)
			break;
	}
	/* the caller's children: their copies write into the opened event's ring */
	if (variant == PS_INHERIT) {
		child = fz_fork_task(0);
		if (!child) {
			ps_work(rng, a.config);
			fz_cov_flush();
			if (fz_below(rng, 2))
				execl(fz.self_exe, fz.self_exe, "--fz-target", "exit", (char *)NULL);
			_exit(0);
		}
		if (child > 0)
			waitpid(child, NULL, 0);
		child = -1;
		ps_consume(rng, &r1);
		if (fz_read_alarmed(fd, buf, sizeof(buf)) < 0)
			buf[0] = 0;
	}
	ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0UL);
	if (r1.pg != MAP_FAILED && fz_below(rng, 2))
		munmap(r1.pg, r1.len);
	if (r2.pg != MAP_FAILED)
		munmap(r2.pg, r2.len);
	if (fd2 >= 0 && fz_below(rng, 2))
		close(fd2);
out:
	if (wfd >= 0)
		close(wfd);
	if (rfd >= 0)
		close(rfd);
	if (child <= 0)
		return;
	/* the exec'd child: killed now, or left in the slot for what follows */
	t = &fz.tgt[tgt_slot % FZ_TGTS];
	if (t->tid || fz_below(rng, 2)) {
		kill(child, SIGKILL);
		waitpid(child, NULL, __WALL);
	} else {
		t->tid = child;
		t->is_thread = 0;
	}
}

static void ps_body(uint64_t *rng, uint64_t slot, uint64_t tgt_slot, uint64_t which)
{
	ps_session(rng, slot, tgt_slot, (int)(which % PS_NR));
}

/* a scenario's arguments (fz_scen_gen()); a3 the variant */
void fz_gen_perf_smpl(uint64_t *rng, struct fz_op *op)
{
	fz_scen_gen(rng, op, PS_NR);
}

long fz_run_perf_smpl(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	(void)p, (void)idx;
	return fz_scen_run(op, ps_body, FZ_ST_SMPL, PS_NR);
}

/* ---- the counts page ------------------------------------------------------- */

/*
 * a0 fd slot, a1 map slot, a2 how: 0 as documented (one page, read-only,
 * shared), 1 writable, 2 two pages, 3 private, 4 at offset 0 instead; a3 reads
 * of the page (sequence count, set, mapped PMDs, values).  The mapping goes to
 * the map slot, for munmap, touch and the rest.
 */
void fz_gen_counts(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_below(rng, 4);
	op->a[1] = fz_below(rng, FZ_MAPS);
	op->a[2] = fz_below(rng, 4) ? 0 : fz_below(rng, 5);
	op->a[3] = fz_below(rng, 64);
}

long fz_run_counts(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	struct fz_map *m = &fz.map[op->a[1] % FZ_MAPS];
	const volatile struct pfm_counts_page *pg;
	size_t len = op->a[2] % 5 == 2 ? 2 * PS_PAGE : PS_PAGE;
	int prot = op->a[2] % 5 == 1 ? PROT_READ | PROT_WRITE : PROT_READ;
	int flags = op->a[2] % 5 == 3 ? MAP_PRIVATE : MAP_SHARED;
	off_t off = op->a[2] % 5 == 4 ? 0 : (off_t)PFM_MMAP_COUNTS_OFFSET;
	uint64_t sum = 0;
	unsigned int i, k, seq;
	void *a;

	(void)p, (void)idx;
	a = mmap(fz_map_hint(len), len, prot, flags, fz_fd(op->a[0]), off);
	if (a == MAP_FAILED)
		return -errno;
	fz_map_set(m, a, len);
	if (off)
		mprotect(a, len, PROT_READ | PROT_WRITE);	/* refused: never writable */
	pg = a;
	for (i = 0; i < op->a[3] % 64; i++) {
		seq = pg->seq;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		sum += pg->set_id;
		for (k = 0; k < PFM_PMD_BV; k++)
			sum += pg->mapped_pmds[k];
		for (k = 0; k < PFM_MAX_PMDS; k++)
			sum += pg->pmds[k];
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (pg->seq == seq && !(seq & 1))
			break;
	}
	return (long)(sum & 0x7fffffff);
}
