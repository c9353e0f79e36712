// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff's CPU-wide sampling cases (perf record -a, perf top): sampling
 * events on one CPU (pid -1, cpu N), the test pinned there, and where a sample
 * says it was taken.
 *
 * cpu-sample: page faults at user level on the CPU, every one sampled, with the
 * side-band records perf record -a asks for.  The test's own faults on fresh
 * pages are exact; a child forked on the CPU (it inherits the pinning) touches
 * fresh pages of its own ('f', as a fresh child's faults are); its FORK and EXIT
 * records and the test's COMM (PR_SET_NAME) come once each.  Nothing else in
 * the guest faults at user level on that CPU meanwhile.
 *
 * cpu-clock-sample: cpu-clock every 1 ms on the CPU while the test spins, then
 * while the CPU idles, with call chains: the number of samples is the host's (under TCG a loaded
 * host delays the guest's timers by several periods, which both skip), but that
 * the spin's samples are the test's at user level, and the idle ones pid 0 at a
 * kernel IP (misc KERNEL) whose chain is the kernel's, its callers included, is
 * fixed.
 *
 * cpu-switches: context switches counted on the CPU while the test, alone there,
 * sleeps SLEEPS times: each sleep is two switches (to the idle task and back),
 * so a count between 2 times SLEEPS, less a few (a sleep that ended early, its
 * timer already past), and 2.5 times (the CPU's kernel threads add a few) is
 * what both must read.
 *
 * kernel-fault-ip: the test's own page faults sampled, kernel level included,
 * where the kernel takes them for it (read() into fresh pages): each sample's
 * IP is the kernel's copy to user memory, misc KERNEL; the user-level ones are
 * the test's own code, misc USER.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diff.h"

#define RING_PAGES	16
#define OWN_PAGES	32
#define CHILD_PAGES	16
#define SPIN_MS		100
#define IDLE_MS		50
#define KERNEL_START	0xffff800000000000ULL

extern char __executable_start[], etext[];

static int test_cpu(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
}

static int in_text(unsigned long long ip)
{
	return ip >= (unsigned long long)__executable_start && ip < (unsigned long long)etext;
}

/* ---- cpu-sample ---------------------------------------------------------------- */

struct cpu_walk {
	struct trace *t;
	unsigned long long base;	/* the test's fresh pages */
	pid_t child;
	int cpu;
	unsigned long long own, own_text, own_other, child_samples, other;
	unsigned long long bad_cpu, forks, exits, comms, lost, unknown;
};

/* IP, TID, ADDR, CPU, PERIOD; side-band: {pid, ppid, tid, ptid, time} or COMM */
static void cpu_rec(const struct perf_event_header *h, const unsigned long long *w, void *arg)
{
	struct cpu_walk *cw = arg;
	long psz = sysconf(_SC_PAGESIZE);
	unsigned int pid, tid;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		pid = (unsigned int)w[1];
		tid = (unsigned int)(w[1] >> 32);
		if ((unsigned int)w[3] != (unsigned int)cw->cpu)
			cw->bad_cpu++;
		if (pid == (unsigned int)getpid() && tid == (unsigned int)gettid()) {
			if (w[2] >= cw->base && w[2] < cw->base + OWN_PAGES * psz) {
				cw->own++;
				cw->own_text += h->misc == PERF_RECORD_MISC_USER && in_text(w[0]) &&
						w[4] == 1;
			} else {
				cw->own_other++;
			}
		} else if (pid == (unsigned int)cw->child) {
			cw->child_samples++;
		} else {
			cw->other++;
		}
		break;
	case PERF_RECORD_FORK:
		cw->forks += (unsigned int)w[0] == (unsigned int)cw->child &&
			     (unsigned int)(w[0] >> 32) == (unsigned int)getpid();
		break;
	case PERF_RECORD_EXIT:
		cw->exits += (unsigned int)w[0] == (unsigned int)cw->child;
		break;
	case PERF_RECORD_COMM:
		cw->comms += (unsigned int)w[0] == (unsigned int)getpid() &&
			     !strncmp((const char *)(w + 1), "cpu-sampled", 16);
		break;
	case PERF_RECORD_LOST:
		cw->lost++;
		break;
	default:
		cw->unknown++;
	}
}

static void child_touch(long pages)
{
	volatile char *p = fresh(pages);

	if (p)
		touch(p, 0, pages);
}

void case_cpu_sample(const struct backend *be, struct trace *t)
{
	struct cpu_walk cw = { .t = t, .cpu = test_cpu() };
	struct child ch = { 0 };
	char name[16] = { 0 };
	struct perf_event_attr a;
	volatile char *p;
	struct dring r;
	int fd;

	p = fresh(OWN_PAGES);
	if (!p)
		return;
	cw.base = (unsigned long long)p;
	prctl(PR_GET_NAME, name);
	pin(cw.cpu);
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	a.task = 1;
	a.comm = 1;
	fd = do_open(be, t, &a, -1, cw.cpu, -1, 0, "page-faults:u sampling on the CPU");
	if (fd < 0 || dring_map(t, &r, fd, RING_PAGES))
		goto out;
	/* the child waits on its pipe, made before the events start */
	if (child_start(&ch, child_touch, CHILD_PAGES))
		goto out_ring;
	cw.child = ch.pid;
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	touch(p, 0, OWN_PAGES);
	child_go(&ch);
	obs_call(t, child_wait(&ch), 1, "child touches %d pages and exits", CHILD_PAGES);
	prctl(PR_SET_NAME, "cpu-sampled");
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "DISABLE");
	prctl(PR_SET_NAME, name);
	dring_walk(&r, cpu_rec, &cw);
	obs_call(t, 0, 1, "own samples on the fresh pages, at user level in the test's code");
	obs_vals(t, (unsigned long long[]){ cw.own, cw.own_text }, 2, "ee");
	obs_call(t, 0, 1, "the child's samples");
	obs_val(t, cw.child_samples, 'f');
	obs_call(t, 0, 1, "others' samples, samples of another CPU, LOST, unknown records");
	obs_vals(t, (unsigned long long[]){ cw.other, cw.bad_cpu, cw.lost, cw.unknown }, 4,
		 "eeee");
	/* the fork happened before the enable: no FORK; its exit and the rename after */
	obs_call(t, 0, 1, "FORK, EXIT, COMM records");
	obs_vals(t, (unsigned long long[]){ cw.forks, cw.exits, cw.comms }, 3, "eee");
out_ring:
	munmap(r.pg, r.len);
out:
	pin(-1);
	if (fd >= 0)
		close(fd);
	munmap((void *)p, OWN_PAGES * sysconf(_SC_PAGESIZE));
}

/* ---- cpu-clock-sample ------------------------------------------------------------ */

/*
 * ms of CPU time in user mode: the clock is a system call here (the guest's
 * clocksource has no vDSO path), looked at once per million increments.
 */
static void spin_user(long ms)
{
	struct timespec a, b;
	volatile unsigned long x = 0;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (i = 0; i < 1000000; i++)
			x++;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

struct clock_walk {
	unsigned long long own, own_user, own_user_text, idle, idle_kernel, user_zero, other;
	unsigned long long idle_kchain, own_uchain;
};

/* IP, TID, CALLCHAIN {nr, marks and addresses} */
static void clock_rec(const struct perf_event_header *h, const unsigned long long *w, void *arg)
{
	struct clock_walk *cw = arg;
	unsigned int pid = (unsigned int)w[1];
	int user = h->misc == PERF_RECORD_MISC_USER;

	if (h->type != PERF_RECORD_SAMPLE)
		return;
	cw->user_zero += user && !w[0];
	if (pid == (unsigned int)getpid()) {
		cw->own++;
		cw->own_user += user;
		cw->own_user_text += user && in_text(w[0]);
		/* a user sample's chain: the user mark and the IP first */
		cw->own_uchain += user && w[2] >= 2 && w[3] == (unsigned long long)PERF_CONTEXT_USER &&
				  w[4] == w[0];
	} else if (!pid) {
		cw->idle++;
		cw->idle_kernel += h->misc == PERF_RECORD_MISC_KERNEL && w[0] >= KERNEL_START;
		/* the idle loop's: the kernel mark, the IP, its callers; no user part */
		cw->idle_kchain += w[2] >= 3 && w[3] == (unsigned long long)PERF_CONTEXT_KERNEL &&
				   w[4] == w[0] && w[5] >= KERNEL_START;
	} else {
		cw->other++;
	}
}

void case_cpu_clock_sample(const struct backend *be, struct trace *t)
{
	struct timespec idle = { 0, IDLE_MS * 1000000L };
	struct clock_walk cw = { 0 };
	struct perf_event_attr a;
	int cpu = test_cpu(), fd;
	struct dring r;

	pin(cpu);
	attr_sw(&a, PERF_COUNT_SW_CPU_CLOCK);
	a.sample_period = 1000000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	fd = do_open(be, t, &a, -1, cpu, -1, 0, "cpu-clock sampling every 1 ms on the CPU");
	if (fd < 0 || dring_map(t, &r, fd, RING_PAGES))
		goto out;
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	spin_user(SPIN_MS);
	nanosleep(&idle, NULL);
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "DISABLE");
	dring_walk(&r, clock_rec, &cw);
	/* how many, under TCG, is the host's load: a late timer skips periods */
	obs_call(t, 0, 1, "some samples of the spin, some idle");
	obs_vals(t, (unsigned long long[]){ cw.own > 0, cw.idle > 0 }, 2, "ee");
	/* the spin is in user mode, in the test's code */
	obs_call(t, 0, 1, "some own at user level in the test's code, some idle at a kernel IP");
	obs_vals(t, (unsigned long long[]){ cw.own_user_text > 0, cw.idle_kernel > 0,
					    cw.idle_kernel == cw.idle }, 3, "eee");
	obs_call(t, 0, 1, "user-level samples at IP 0");
	obs_val(t, cw.user_zero, 'e');
	obs_call(t, 0, 1, "idle chains kernel with callers, own user ones user first");
	obs_vals(t, (unsigned long long[]){ cw.idle_kchain == cw.idle,
					    cw.own_uchain == cw.own_user }, 2, "ee");
	munmap(r.pg, r.len);
out:
	pin(-1);
	if (fd >= 0)
		close(fd);
}

/* ---- cpu-switches ---------------------------------------------------------------- */

#define SLEEPS		200

void case_cpu_switches(const struct backend *be, struct trace *t)
{
	struct timespec ms = { 0, 1000000 };
	struct perf_event_attr a;
	int cpu = test_cpu(), fd, i;
	unsigned long long v = 0;

	pin(cpu);
	attr_sw(&a, PERF_COUNT_SW_CONTEXT_SWITCHES);
	fd = do_open(be, t, &a, -1, cpu, -1, 0, "context-switches on the CPU");
	if (fd < 0)
		goto out;
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	for (i = 0; i < SLEEPS; i++)
		nanosleep(&ms, NULL);
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "DISABLE");
	do_read(t, fd, &v, sizeof(v), "context-switches");
	obs_val(t, v >= 2 * SLEEPS - 10 && v <= 5 * SLEEPS / 2, 'e');
	obs_val(t, v, 's');
	close(fd);
out:
	pin(-1);
}

/* ---- thread-on-cpu ---------------------------------------------------------------- */

/*
 * The test's own page faults, one event per CPU (pid 0, cpu N, as perf record
 * opens them): each counts only what the thread does on its CPU.  Pinned to
 * the last CPU the test touches ON_LAST pages, then on the first ON_FIRST:
 * exactly those, each on its CPU's event, and none on the others.
 */
#define ON_LAST		24
#define ON_FIRST	8
#define MAX_CPUS	64

void case_thread_on_cpu(const struct backend *be, struct trace *t)
{
	int n = sysconf(_SC_NPROCESSORS_ONLN), fd[MAX_CPUS], i;
	volatile char *p = fresh(ON_LAST + ON_FIRST);
	unsigned long long v;
	struct perf_event_attr a;

	if (!p || n < 2)
		return;
	if (n > MAX_CPUS)
		n = MAX_CPUS;
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	for (i = 0; i < n; i++)
		fd[i] = do_open(be, t, &a, 0, i, -1, 0, "page-faults:u of the thread on one CPU");
	for (i = 0; i < n; i++)
		if (fd[i] >= 0)
			do_ioctl(t, fd[i], PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	pin(n - 1);
	touch(p, 0, ON_LAST);
	pin(0);
	touch(p, ON_LAST, ON_FIRST);
	for (i = 0; i < n; i++)
		if (fd[i] >= 0)
			do_ioctl(t, fd[i], PERF_EVENT_IOC_DISABLE, 0, "DISABLE");
	for (i = 0; i < n; i++) {
		if (fd[i] < 0)
			continue;
		do_read(t, fd[i], &v, sizeof(v), "the thread's faults on that CPU");
		/* the fresh pages, exactly; what a migration itself faults in, a few */
		obs_val(t, i == 0 ? v >= ON_FIRST && v < ON_FIRST + 4 :
			   i == n - 1 ? v >= ON_LAST && v < ON_LAST + 4 : v < 4, 'e');
		close(fd[i]);
	}
	pin(-1);
	munmap((void *)p, (ON_LAST + ON_FIRST) * sysconf(_SC_PAGESIZE));
}

/* ---- kernel-fault-ip --------------------------------------------------------------- */

struct kfault_walk {
	unsigned long long user_text, kernel_ip, other;
};

/* IP */
static void kfault_rec(const struct perf_event_header *h, const unsigned long long *w, void *arg)
{
	struct kfault_walk *kw = arg;

	if (h->type != PERF_RECORD_SAMPLE)
		return;
	if (h->misc == PERF_RECORD_MISC_USER && in_text(w[0]))
		kw->user_text++;
	else if (h->misc == PERF_RECORD_MISC_KERNEL && w[0] >= KERNEL_START)
		kw->kernel_ip++;
	else
		kw->other++;
}

void case_kernel_fault_ip(const struct backend *be, struct trace *t)
{
	long psz = sysconf(_SC_PAGESIZE), i;
	struct kfault_walk kw = { 0 };
	struct perf_event_attr a;
	volatile char *p;
	struct dring r;
	int fd, zero;

	p = fresh(2 * OWN_PAGES);
	zero = open("/dev/zero", O_RDONLY);
	if (!p || zero < 0)
		goto out_files;
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP;
	fd = do_open(be, t, &a, 0, -1, -1, 0, "page-faults sampling, kernel level too");
	if (fd < 0 || dring_map(t, &r, fd, RING_PAGES))
		goto out;
	do_ioctl(t, fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
	touch(p, 0, OWN_PAGES);
	/* the kernel's copy to user memory takes these faults for the test */
	for (i = OWN_PAGES; i < 2 * OWN_PAGES; i++)
		if (read(zero, (char *)p + i * psz, 1) != 1)
			break;
	do_ioctl(t, fd, PERF_EVENT_IOC_DISABLE, 0, "DISABLE");
	dring_walk(&r, kfault_rec, &kw);
	obs_call(t, 0, 1, "user-level samples in the test's code, kernel-level at kernel IPs");
	obs_vals(t, (unsigned long long[]){ kw.user_text >= OWN_PAGES,
					    kw.kernel_ip >= OWN_PAGES, kw.other }, 3, "eee");
	munmap(r.pg, r.len);
out:
	if (fd >= 0)
		close(fd);
out_files:
	if (zero >= 0)
		close(zero);
	if (p)
		munmap((void *)p, 2 * OWN_PAGES * psz);
}
