// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff's breakpoint cases (PERF_TYPE_BREAKPOINT): watchpoints and an
 * instruction breakpoint on the test's own variables and function, whose hits
 * the workload fixes, so every count, sample and signal is compared exactly.
 * Both backends run in one process: the addresses (a sample's IP after the
 * store, ADDR, si_addr) are the same in both traces.
 *
 *   bp-count     W, RW and X count each access; R and bad lengths, types,
 *                alignments and a kernel address are refused (EINVAL on x86);
 *                a disabled watchpoint does not slow its thread down
 *   bp-slots     four breakpoints on the thread fit, the fifth is ENOSPC; one
 *                closed, a fifth fits again
 *   bp-sample    period 1: one sample per write, IP the instruction after the
 *                store, ADDR the watched address, TID, PERIOD; O_ASYNC's SIGIO
 *                at each overflow
 *   bp-modify    PERF_EVENT_IOC_MODIFY_ATTRIBUTES moves the watchpoint to
 *                another variable and changes its type; other fields EINVAL,
 *                other types EOPNOTSUPP, another type EINVAL; attr.disabled
 *                of the new attr decides the state afterwards
 *   bp-sigtrap   sigtrap with sig_data on another thread's watchpoint: one
 *                SIGTRAP per write, in that thread, si_code TRAP_PERF, si_addr,
 *                si_perf_data, si_perf_type; MODIFY_ATTRIBUTES changes
 *                sig_data; sigtrap on page faults (every event type); the
 *                open rules of sigtrap and remove_on_exec
 *   bp-inherit   a watchpoint's copies in a forked child and a thread
 *                (inherit), in the thread only (inherit_thread)
 *   remove-on-exec  a child's page faults count up to its exec, none after,
 *                and ENABLE does not bring the event back
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>

#include "diff.h"

#ifndef TRAP_PERF
#define TRAP_PERF	6
#endif

#define HITS		10

/* the watched variables: each store to them is one instruction */
static volatile unsigned long bp_var __attribute__((aligned(8)));
static volatile unsigned long bp_var2 __attribute__((aligned(8)));

static __attribute__((noinline)) void bp_write(volatile unsigned long *v, long n)
{
	long i;

	for (i = 0; i < n; i++)
		*v = i;
}

static __attribute__((noinline)) unsigned long bp_read(volatile unsigned long *v, long n)
{
	unsigned long s = 0;
	long i;

	for (i = 0; i < n; i++)
		s += *v;
	return s;
}

static __attribute__((noinline)) void bp_func(void)
{
	__asm__ volatile("" ::: "memory");
}

static void attr_bp(struct perf_event_attr *a, unsigned int type, const volatile void *addr,
		    unsigned long long len)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_BREAKPOINT;
	a->size = sizeof(*a);
	a->bp_type = type;
	a->bp_addr = (unsigned long)addr;
	a->bp_len = len;
	a->disabled = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

static void record_count(struct trace *t, int fd, const char *what)
{
	unsigned long long v[3];

	if (do_read(t, fd, v, sizeof(v[0]), what) == sizeof(v[0]))
		obs_val(t, v[0], 'e');
}

static void close_fd(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* ---- counting ----------------------------------------------------------------- */

static void count_one(const struct backend *be, struct trace *t, unsigned int type,
		      const volatile void *addr, unsigned long long len, const char *what,
		      void (*work)(void))
{
	struct perf_event_attr a;
	int fd;

	attr_bp(&a, type, addr, len);
	fd = do_open(be, t, &a, 0, -1, -1, 0, what);
	if (fd < 0)
		return;
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	work();
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "DISABLE");
	/* disabled: nothing more is counted */
	work();
	record_count(t, fd, what);
	close(fd);
}

static void work_w(void)
{
	bp_write(&bp_var, HITS);
}

/* HITS reads and HITS writes */
static void work_rw(void)
{
	bp_read(&bp_var, HITS);
	bp_write(&bp_var, HITS);
}

static void work_x(void)
{
	int i;

	for (i = 0; i < HITS; i++)
		bp_func();
}

static void refused(const struct backend *be, struct trace *t, unsigned int type,
		    unsigned long long addr, unsigned long long len, int exclude_kernel,
		    const char *what)
{
	struct perf_event_attr a;

	attr_bp(&a, type, (const void *)(uintptr_t)addr, len);
	a.exclude_kernel = exclude_kernel;
	close_fd(do_open(be, t, &a, 0, -1, -1, 0, what));
}

/* Reads of w made in ms milliseconds. */
static unsigned long reads_in(volatile unsigned long *w, long ms)
{
	struct timespec s, n;
	unsigned long k = 0;

	clock_gettime(CLOCK_MONOTONIC, &s);
	do {
		bp_read(w, 256);
		k += 256;
		clock_gettime(CLOCK_MONOTONIC, &n);
	} while ((n.tv_sec - s.tv_sec) * 1000 + (n.tv_nsec - s.tv_nsec) / 1000000 < ms);
	return k;
}

/*
 * A disabled watchpoint costs its thread nothing: with the event disabled (as
 * opened, then after an ENABLE and a DISABLE), reads of the watched word go at
 * least a quarter as fast as reads of another.  An armed breakpoint takes a
 * debug exception at every read, a thousand times slower and more under TCG.
 */
static void disabled_cost(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	unsigned long free_reads, watched;
	int fd, i;

	attr_bp(&a, HW_BREAKPOINT_RW, &bp_var, HW_BREAKPOINT_LEN_8);
	fd = do_open(be, t, &a, 0, -1, -1, 0, "RW, left disabled");
	if (fd < 0)
		return;
	for (i = 0; i < 2; i++) {
		if (i) {
			do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
			work_rw();
			do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "DISABLE");
		}
		free_reads = reads_in(&bp_var2, 100);
		watched = reads_in(&bp_var, 100);
		obs_call(t, watched * 4 >= free_reads, 1,
			 "reads of the disabled watchpoint's word at least 1/4 as fast as of another");
	}
	record_count(t, fd, "RW, disabled but for one round");
	close(fd);
}

void case_bp_count(const struct backend *be, struct trace *t)
{
	unsigned long var = (unsigned long)&bp_var;

	count_one(be, t, HW_BREAKPOINT_W, &bp_var, HW_BREAKPOINT_LEN_8, "W len 8", work_w);
	count_one(be, t, HW_BREAKPOINT_W, &bp_var, HW_BREAKPOINT_LEN_4, "W len 4", work_w);
	count_one(be, t, HW_BREAKPOINT_RW, &bp_var, HW_BREAKPOINT_LEN_8, "RW", work_rw);
	count_one(be, t, HW_BREAKPOINT_W, &bp_var2, HW_BREAKPOINT_LEN_8, "W elsewhere", work_w);
	count_one(be, t, HW_BREAKPOINT_X, (void *)bp_func, sizeof(long), "X", work_x);
	/* x86 has no read-only watchpoint */
	refused(be, t, HW_BREAKPOINT_R, var, HW_BREAKPOINT_LEN_8, 1, "R");
	refused(be, t, HW_BREAKPOINT_EMPTY, var, HW_BREAKPOINT_LEN_8, 1, "EMPTY");
	refused(be, t, HW_BREAKPOINT_INVALID, var, HW_BREAKPOINT_LEN_8, 1, "INVALID");
	refused(be, t, HW_BREAKPOINT_W | HW_BREAKPOINT_X, var, HW_BREAKPOINT_LEN_8, 1, "W|X");
	refused(be, t, HW_BREAKPOINT_W, var, 3, 1, "len 3");
	refused(be, t, HW_BREAKPOINT_W, var, 0, 1, "len 0");
	refused(be, t, HW_BREAKPOINT_W, var, 16, 1, "len 16");
	refused(be, t, HW_BREAKPOINT_X, (unsigned long)bp_func, 4, 1, "X len 4");
	refused(be, t, HW_BREAKPOINT_W, var + 4, HW_BREAKPOINT_LEN_8, 1, "misaligned");
	refused(be, t, HW_BREAKPOINT_W, -8ULL, HW_BREAKPOINT_LEN_8, 1, "wraps");
	refused(be, t, HW_BREAKPOINT_W, 0xffffffff81000000ULL, HW_BREAKPOINT_LEN_8, 1,
		"kernel address, exclude_kernel");
	disabled_cost(be, t);
}

/* ---- the debug registers run out --------------------------------------------- */

void case_bp_slots(const struct backend *be, struct trace *t)
{
	static volatile unsigned long vars[6] __attribute__((aligned(8)));
	struct perf_event_attr a;
	int fd[6], i;

	for (i = 0; i < 6; i++) {
		attr_bp(&a, HW_BREAKPOINT_W, &vars[i], HW_BREAKPOINT_LEN_8);
		fd[i] = do_open(be, t, &a, 0, -1, -1, 0, "W");
	}
	close_fd(fd[0]);
	fd[0] = -1;
	attr_bp(&a, HW_BREAKPOINT_RW, &vars[5], HW_BREAKPOINT_LEN_8);
	fd[5] = do_open(be, t, &a, 0, -1, -1, 0, "RW after a close");
	for (i = 0; i < 6; i++)
		close_fd(fd[i]);
}

/* ---- sampling and O_ASYNC ------------------------------------------------------ */

static volatile int sigio_count;

static void on_sigio(int sig __attribute__((unused)), siginfo_t *si __attribute__((unused)),
		     void *uc __attribute__((unused)))
{
	sigio_count++;
}

struct bp_walk {
	struct trace *t;
	unsigned long long samples, other;
};

/* IP, TID, ADDR, PERIOD */
static void bp_rec(const struct perf_event_header *h, const unsigned long long *w, void *arg)
{
	struct bp_walk *bw = arg;

	if (h->type != PERF_RECORD_SAMPLE) {
		bw->other++;
		return;
	}
	obs_call(bw->t, 0, 1, "sample %llu", bw->samples++);
	obs_vals(bw->t, (unsigned long long[]){ h->misc, h->size, w[0],
		 (unsigned int)w[1] == (unsigned int)getpid() &&
		 (unsigned int)(w[1] >> 32) == (unsigned int)gettid(),
		 w[2] == (unsigned long)&bp_var, w[3] }, 6, "eeeeee");
}

void case_bp_sample(const struct backend *be, struct trace *t)
{
	struct sigaction sa = { .sa_sigaction = on_sigio, .sa_flags = SA_SIGINFO }, old;
	struct bp_walk bw = { .t = t };
	struct perf_event_attr a;
	unsigned long long v;
	struct dring r;
	int fd;

	attr_bp(&a, HW_BREAKPOINT_W, &bp_var, HW_BREAKPOINT_LEN_8);
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD;
	fd = do_open(be, t, &a, 0, -1, -1, 0, "W, period 1");
	if (fd < 0 || dring_map(t, &r, fd, 8))
		goto out;
	sigaction(SIGIO, &sa, &old);
	sigio_count = 0;
	obs_call(t, fcntl(fd, F_SETFL, O_RDWR | O_NONBLOCK | O_ASYNC), 1, "O_ASYNC");
	obs_call(t, fcntl(fd, F_SETOWN, getpid()), 1, "F_SETOWN");
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	bp_write(&bp_var, HITS);
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "DISABLE");
	dring_walk(&r, bp_rec, &bw);
	obs_call(t, 0, 1, "records");
	v = ~0ULL;
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		v = ~0ULL;
	obs_vals(t, (unsigned long long[]){ bw.samples, bw.other, v, sigio_count }, 4, "eeee");
	sigaction(SIGIO, &old, NULL);
	munmap(r.pg, r.len);
out:
	close_fd(fd);
}

/* ---- MODIFY_ATTRIBUTES ------------------------------------------------------------ */

static long modify(struct trace *t, int fd, struct perf_event_attr *a, const char *what)
{
	long ret = ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, a);

	obs_call(t, ret, 1, "MODIFY %s", what);
	return ret;
}

void case_bp_modify(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a, m;
	int fd, sw;

	attr_bp(&a, HW_BREAKPOINT_W, &bp_var, HW_BREAKPOINT_LEN_8);
	fd = do_open(be, t, &a, 0, -1, -1, 0, "W on var");
	if (fd < 0)
		return;
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	bp_write(&bp_var, HITS);
	record_count(t, fd, "var written");

	/* moved, enabled by the new attr's disabled = 0 */
	m = a;
	m.bp_addr = (unsigned long)&bp_var2;
	m.disabled = 0;
	modify(t, fd, &m, "to var2");
	bp_write(&bp_var, HITS);
	record_count(t, fd, "var written again: not counted");
	bp_write(&bp_var2, 3);
	record_count(t, fd, "var2 written 3 times");

	/* RW now, left disabled by disabled = 1 */
	m.bp_type = HW_BREAKPOINT_RW;
	m.disabled = 1;
	modify(t, fd, &m, "RW, disabled");
	bp_read(&bp_var2, HITS);
	record_count(t, fd, "disabled: not counted");
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	bp_read(&bp_var2, 4);
	record_count(t, fd, "var2 read 4 times");

	/* refusals: nothing changes but the state (the open-time disabled = 1) */
	m.bp_len = 3;
	modify(t, fd, &m, "len 3");
	bp_read(&bp_var2, 2);
	record_count(t, fd, "after a refused modify: disabled");
	m.bp_len = HW_BREAKPOINT_LEN_8;
	m.sample_period = 7;
	modify(t, fd, &m, "sample_period changed");
	m.sample_period = 0;
	m.type = PERF_TYPE_SOFTWARE;
	modify(t, fd, &m, "another type");
	m.type = PERF_TYPE_BREAKPOINT;
	m.bp_addr = (unsigned long)&bp_var + 4;
	modify(t, fd, &m, "misaligned");
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, NULL), 1, "MODIFY NULL");
	m.bp_addr = (unsigned long)&bp_var2;
	m.disabled = 0;
	modify(t, fd, &m, "back to a valid attr");
	bp_read(&bp_var2, 2);
	record_count(t, fd, "var2 read twice more");
	close(fd);

	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	sw = do_open(be, t, &a, 0, -1, -1, 0, "page-faults");
	if (sw >= 0) {
		modify(t, sw, &a, "a software event");
		close(sw);
	}
}

/* ---- sigtrap ------------------------------------------------------------------------- */

struct sigtrap_seen {
	volatile int count, foreign, bad_code, bad_type, bad_addr, bad_flags;
	volatile unsigned long long data;
	volatile unsigned long addr;
	volatile pid_t tid;		/* the thread that should get them */
	unsigned long want_addr;
	unsigned int want_type;
};

static struct sigtrap_seen seen;

/* x86-64's siginfo: _sigfault's address, then _perf { data, type, flags } */
static void on_sigtrap(int sig __attribute__((unused)), siginfo_t *si,
		       void *uc __attribute__((unused)))
{
	const char *raw = (const char *)si;
	unsigned long long data;
	unsigned int type, flags;

	memcpy(&data, raw + 24, sizeof(data));
	memcpy(&type, raw + 32, sizeof(type));
	memcpy(&flags, raw + 36, sizeof(flags));
	seen.count++;
	seen.foreign += gettid() != seen.tid;
	seen.bad_code += si->si_code != TRAP_PERF;
	seen.bad_type += type != seen.want_type;
	seen.bad_addr += (unsigned long)si->si_addr != seen.want_addr;
	seen.bad_flags += flags != 0;
	seen.data = data;
}

struct writer {
	int go[2], ready[2];
	long n;
	pid_t tid;
};

/* a thread that writes bp_var n times once told, then waits to be told to end */
static void *writer_main(void *arg)
{
	struct writer *w = arg;
	char c;

	w->tid = gettid();
	if (write(w->ready[1], "r", 1) != 1)
		return NULL;
	while (read(w->go[0], &c, 1) == 1 && c == 'g') {
		bp_write(&bp_var, w->n);
		if (write(w->ready[1], "d", 1) != 1)
			break;
	}
	return NULL;
}

static void sigtrap_round(struct trace *t, struct writer *w, const char *what)
{
	char c;

	seen.count = seen.foreign = seen.bad_code = seen.bad_type = 0;
	seen.bad_addr = seen.bad_flags = 0;
	seen.data = 0;
	if (write(w->go[1], "g", 1) != 1 || read(w->ready[0], &c, 1) != 1)
		return;
	obs_call(t, 0, 1, "%s", what);
	obs_vals(t, (unsigned long long[]){ seen.count, seen.foreign, seen.bad_code,
		 seen.bad_type, seen.bad_addr, seen.bad_flags, seen.data }, 7, "eeeeeee");
}

void case_bp_sigtrap(const struct backend *be, struct trace *t)
{
	struct sigaction sa = { .sa_sigaction = on_sigtrap, .sa_flags = SA_SIGINFO }, old;
	struct writer w = { .n = HITS };
	struct perf_event_attr a, m;
	pthread_t th;
	char c;
	int fd;

	/* the open rules: sigtrap needs remove_on_exec, which excludes enable_on_exec */
	attr_bp(&a, HW_BREAKPOINT_W, &bp_var, HW_BREAKPOINT_LEN_8);
	a.sigtrap = 1;
	close_fd(do_open(be, t, &a, 0, -1, -1, 0, "sigtrap without remove_on_exec"));
	a.remove_on_exec = 1;
	a.enable_on_exec = 1;
	close_fd(do_open(be, t, &a, 0, -1, -1, 0, "remove_on_exec with enable_on_exec"));
	a.enable_on_exec = 0;
	close_fd(do_open(be, t, &a, -1, 0, -1, 0, "sigtrap on a CPU"));

	if (pipe(w.go) || pipe(w.ready))
		return;
	sigaction(SIGTRAP, &sa, &old);
	if (pthread_create(&th, NULL, writer_main, &w))
		goto out_pipes;
	if (read(w.ready[0], &c, 1) != 1)
		goto out_thread;
	seen.tid = w.tid;
	seen.want_addr = (unsigned long)&bp_var;
	seen.want_type = PERF_TYPE_BREAKPOINT;

	a.sample_period = 1;
	a.sig_data = 0x5eed;
	a.disabled = 0;
	fd = do_open(be, t, &a, w.tid, -1, -1, 0, "W, sigtrap, on the writer thread");
	if (fd >= 0) {
		sigtrap_round(t, &w, "writer wrote: its SIGTRAPs");
		bp_write(&bp_var, 3);
		obs_call(t, 0, 1, "this thread wrote: none here");
		obs_val(t, seen.count, 'e');
		m = a;
		m.sig_data = 0xda7a;
		modify(t, fd, &m, "sig_data");
		sigtrap_round(t, &w, "writer wrote after MODIFY: the new sig_data");
		record_count(t, fd, "hits");
		close(fd);
	}

	/* every type: the test thread's own page faults, si_addr each fault's */
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	a.sample_period = 1;
	a.sigtrap = 1;
	a.remove_on_exec = 1;
	a.sig_data = 0xfa17;
	fd = do_open(be, t, &a, 0, -1, -1, 0, "page-faults, sigtrap");
	if (fd >= 0) {
		volatile char *p = fresh(1);

		seen.tid = gettid();
		seen.want_type = PERF_TYPE_SOFTWARE;
		seen.want_addr = (unsigned long)p;
		seen.count = seen.foreign = seen.bad_code = seen.bad_type = 0;
		seen.bad_addr = seen.bad_flags = 0;
		if (p) {
			do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
			touch(p, 0, 1);
			do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "DISABLE");
			obs_call(t, 0, 1, "one fault");
			obs_vals(t, (unsigned long long[]){ seen.count, seen.foreign,
				 seen.bad_code, seen.bad_type, seen.bad_addr, seen.data },
				 6, "eeeeee");
			munmap((void *)p, sysconf(_SC_PAGESIZE));
		}
		close(fd);
	}
out_thread:
	close(w.go[1]);
	w.go[1] = -1;
	pthread_join(th, NULL);
out_pipes:
	sigaction(SIGTRAP, &old, NULL);
	close_fd(w.go[0]);
	close_fd(w.go[1]);
	close(w.ready[0]);
	close(w.ready[1]);
}

/* ---- inheritance: inherit, inherit_thread ------------------------------------------- */

static void *writer5(void *arg)
{
	bp_write(&bp_var, (long)arg);
	return NULL;
}

static void write_child(long n)
{
	bp_write(&bp_var, n);
}

/*
 * A watchpoint on the test thread that its children inherit: a forked child's
 * writes count with inherit alone, a thread's with both; each copy holds a
 * breakpoint of its own.
 */
void case_bp_inherit(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	struct child c = { 0 };
	pthread_t th;
	int fd, thread_only;

	for (thread_only = 0; thread_only < 2; thread_only++) {
		attr_bp(&a, HW_BREAKPOINT_W, &bp_var, HW_BREAKPOINT_LEN_8);
		a.disabled = 0;
		a.inherit = 1;
		a.inherit_thread = thread_only;
		fd = do_open(be, t, &a, 0, -1, -1, 0,
			     thread_only ? "W, inherit_thread" : "W, inherit");
		if (fd < 0)
			continue;
		bp_write(&bp_var, 3);
		if (!child_start(&c, write_child, 10)) {
			child_go(&c);
			obs_call(t, child_wait(&c), 1, "child wrote 10 times");
		}
		if (!pthread_create(&th, NULL, writer5, (void *)5L))
			pthread_join(th, NULL);
		record_count(t, fd, "3 here, 10 in a child, 5 in a thread");
		close(fd);
	}
	attr_bp(&a, HW_BREAKPOINT_W, &bp_var, HW_BREAKPOINT_LEN_8);
	a.inherit_thread = 1;
	close_fd(do_open(be, t, &a, 0, -1, -1, 0, "inherit_thread without inherit"));
}

/* ---- remove_on_exec --------------------------------------------------------------------- */

#define ROE_PAGES	16

/* ROE_PAGES user faults, then an exec whose image faults many more */
static void touch_then_exec(long pages)
{
	int null = open("/dev/null", O_WRONLY);
	volatile char *p;

	/* the image exec'd prints its usage: not into the test's output */
	if (null >= 0) {
		dup2(null, 1);
		dup2(null, 2);
	}
	p = fresh(pages);
	if (p)
		touch(p, 0, pages);
	execl("/proc/self/exe", "perf_diff", (char *)NULL);
	_exit(3);
}

/*
 * A child's user page faults with remove_on_exec: its own faults count, the
 * new image's none (the event is gone before its first instruction), and
 * ENABLE after the exec does not bring it back.
 */
void case_remove_on_exec(const struct backend *be, struct trace *t)
{
	struct perf_event_attr a;
	struct child c = { 0 };
	int fd;

	if (child_start(&c, touch_then_exec, ROE_PAGES))
		return;
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	a.disabled = 0;
	a.remove_on_exec = 1;
	fd = do_open(be, t, &a, c.pid, -1, -1, 0, "page-faults of a child, remove_on_exec");
	child_go(&c);
	child_wait(&c);
	if (fd < 0)
		return;
	record_count(t, fd, "the child's faults before its exec");
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	record_count(t, fd, "the same");
	close(fd);
}
