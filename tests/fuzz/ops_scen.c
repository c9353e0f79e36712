// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz scenarios: whole sessions, well formed, that reach the states random
 * sequences seldom do: overflows with notification and restart, blocked
 * threads, sampling buffers, set switching on overflow and on time, CPU sessions
 * whose CPU goes offline, perf_event groups with children.  Each step's result
 * is ignored (an earlier hostile operation may have changed the ground); the
 * context or event stays in its fd slot, so that the operations after a
 * scenario act on a session in the middle of its life.
 *
 * One seed (a1) draws every choice, so that a logged scenario runs again alike.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "fuzz.h"

enum { SC_OVFL, SC_SETS, SC_CPU, SC_PERF, SC_NR };

#define SC_COUNTERS	3

/*
 * Reads the queued messages (a blocking read is cut at 10 ms); how many.  The
 * fd is left blocking or not as asked.
 */
static int sc_drain(int fd, int block)
{
	union pfarg_msg msg;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int n = 0, fl = fcntl(fd, F_GETFL), asked = block;

	if (fl < 0)
		return 0;
	fcntl(fd, F_SETFL, block ? fl & ~O_NONBLOCK : fl | O_NONBLOCK);
	poll(&pfd, 1, 0);
	for (;;) {
		ssize_t r = fz_read_alarmed(fd, &msg, sizeof(msg));

		if (r != sizeof(msg) || ++n >= 16)
			break;
		/*
		 * One read waits for a message; the others take what is queued: a
		 * thread held by NOTIFY_BLOCK sends no other until its restart,
		 * and a second blocking read would only wait for the alarm.
		 */
		if (block) {
			fcntl(fd, F_SETFL, fl | O_NONBLOCK);
			block = 0;
		}
	}
	if (asked && !block)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return n;
}

/*
 * Up to us microseconds for a target to run: a message (an overflow it
 * caused) ends the wait early, where a sleep would always wait the whole time.
 */
void fz_wait_event(int fd, long us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = us % 1000000 * 1000 };

	ppoll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1, &ts, NULL);
}

/* The counters of set 'set': events, overflow a few events away. */
static void sc_program(int fd, uint64_t *rng, uint16_t set, uint32_t pmd_flags, int os)
{
	static const int events[] = {
		PFM_SW_EV_SYSCALLS, PFM_SW_EV_SYSCALLS, PFM_SW_EV_PAGE_FAULTS,
		PFM_SW_EV_CTX_SWITCHES, PFM_SW_EV_TASK_CLOCK, PFM_SW_EV_CPU_MIGRATIONS,
	};
	struct pfarg_pmc pc[SC_COUNTERS];
	struct pfarg_pmd pd[SC_COUNTERS];
	int n = 1 + (int)fz_below(rng, SC_COUNTERS), i;
	/* now and then the counters of a later word of the software unit's */
	int base = fz_one_in(rng, 4) ? 64 * (1 + (int)fz_below(rng, 3)) : 0;
	int word = (PFM_SW_FIRST_PMD + base) / 64;

	memset(pc, 0, sizeof(pc));
	memset(pd, 0, sizeof(pd));
	for (i = 0; i < n; i++) {
		uint64_t period = 1 + fz_below(rng, fz_one_in(rng, 4) ? 2000 : 40);

		pc[i].reg_num = PFM_SW_FIRST_PMC + base + i;
		pc[i].reg_set = set;
		pc[i].reg_value = PFM_SW_PMC(events[fz_below(rng, 6)]);
		if (os)
			pc[i].reg_value |= PFM_SW_PMC_OS;
		pd[i].reg_num = PFM_SW_FIRST_PMD + base + i;
		pd[i].reg_set = set;
		pd[i].reg_flags = i && fz_one_in(rng, 2) ? 0 : pmd_flags;
		if (fz_one_in(rng, 4))
			pd[i].reg_flags |= PFM_PMDFL_RANDOM;
		pd[i].reg_value = -period;
		pd[i].reg_long_reset = -period;
		pd[i].reg_short_reset = -(1 + fz_below(rng, 40));
		pd[i].reg_random_mask = fz_below(rng, 16);
		pd[i].reg_ovfl_switch_cnt = 1 + fz_below(rng, 2);
		if (n > 1 && fz_one_in(rng, 2))
			pd[i].reg_reset_pmds[word] |= 1ULL << ((i + 1) % n);
		if (pmd_flags & PFM_PMDFL_SMPL)
			pd[i].reg_smpl_pmds[word] = (1ULL << n) - 1;
		pd[i].reg_smpl_eventid = i;
	}
	pfm_write_pmcs(fd, pc, n * sizeof(pc[0]));
	pfm_write_pmds(fd, pd, n * sizeof(pd[0]));
}

static void sc_read_pmds(int fd, uint16_t set)
{
	struct pfarg_pmd pd[SC_COUNTERS];
	int i;

	memset(pd, 0, sizeof(pd));
	for (i = 0; i < SC_COUNTERS; i++) {
		pd[i].reg_num = PFM_SW_FIRST_PMD + i;
		pd[i].reg_set = set;
	}
	pfm_read_pmds(fd, pd, sizeof(pd));
}

/* A thread or process of the program to monitor: slot a2, made if empty. */
pid_t fz_scen_target(uint64_t *rng, uint64_t slot)
{
	struct fz_op op;

	slot %= FZ_TGTS;
	if (fz.tgt[slot].tid)
		return fz.tgt[slot].tid;
	memset(&op, 0, sizeof(op));
	op.a[0] = slot;
	if (fz_below(rng, 2)) {
		op.a[1] = 1;
		op.a[2] = 0;			/* system calls */
		fz_run_thread(&op, NULL, 0);
	} else {
		op.a[1] = 0;
		op.a[2] = fz_below(rng, 4);	/* nobody, exec */
		op.a[3] = fz_below(rng, 2000);
		fz_run_fork_target(&op, NULL, 0);
	}
	return fz.tgt[slot].tid;
}

/*
 * A child of the calling thread doing n getppid(), waited for: an inheritor's
 * samples in a shared buffer.
 */
static void sc_child(long n)
{
	pid_t pid = fz_fork_task(0);

	if (!pid) {
		fz_workload(0, n);
		fz_cov_flush();
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/*
 * The restart of sc_ovfl(): a shared buffer's (inherit) hands back what its
 * header counts, now and then one more (EINVAL) or fewer.
 */
static void sc_restart(uint64_t *rng, int fd, int flags, const void *buf)
{
	uint64_t n = buf != MAP_FAILED ? ((const struct pfm_dfl_smpl_hdr *)buf)->hdr_count : 0;

	if (!(flags & PFM_FL_INHERIT) || fz_one_in(rng, 8)) {
		pfm_start(fd, PFM_STARTFL_RESTART);
		return;
	}
	n = fz_one_in(rng, 4) ? n + 1 : fz_one_in(rng, 4) ? n / 2 : n;
	pfm_start(fd, PFM_STARTFL_RESTART | PFM_STARTFL_DRAIN, (unsigned long)n);
}

/* Overflows: notification, messages, restarts, with or without a buffer. */
static void sc_ovfl(uint64_t *rng, uint64_t fd_slot, uint64_t tgt_slot)
{
	static const int ctx_flags[] = {
		0, 0, PFM_FL_NOTIFY_BLOCK, PFM_FL_OVFL_NO_MSG, PFM_FL_SMPL_FMT,
		PFM_FL_SMPL_FMT | PFM_FL_NOTIFY_BLOCK, PFM_FL_SMPL_FMT | PFM_FL_INHERIT,
	};
	int flags = ctx_flags[fz_below(rng, 7)], fd, i, rounds;
	/* an inherit context's children are the calling thread's */
	int self = (flags & PFM_FL_INHERIT) || fz_below(rng, 2);
	struct pfm_dfl_smpl_arg arg;
	uint32_t pmd_flags = PFM_PMDFL_OVFL_NOTIFY;
	pid_t tid;
	void *buf = MAP_FAILED;

	memset(&arg, 0, sizeof(arg));
	arg.buf_size = 4096 * (1 + fz_below(rng, 3));
	if (flags & PFM_FL_SMPL_FMT) {
		/* mux with PFM_FL_INHERIT is EINVAL: one time in eight */
		fd = pfm_create_context(flags, fz_below(rng, flags & PFM_FL_INHERIT ? 8 : 2) ?
					"default" : "mux", &arg, sizeof(arg));
		pmd_flags = PFM_PMDFL_SMPL | (fz_below(rng, 2) ? PFM_PMDFL_OVFL_NOTIFY : 0);
	} else {
		fd = pfm_create_context(flags, NULL, NULL, 0);
	}
	if (fd < 0)
		return;
	fz_set_fd(fd_slot, fd);
	if (flags & PFM_FL_SMPL_FMT)
		buf = mmap(fz_map_hint(arg.buf_size), arg.buf_size, PROT_READ, MAP_SHARED, fd, 0);
	sc_program(fd, rng, 0, pmd_flags, fz_one_in(rng, 4));
	tid = self ? gettid() : fz_scen_target(rng, tgt_slot);
	pfm_load_context(fd, 0, tid);
	pfm_start(fd, 0);
	rounds = 1 + (int)fz_below(rng, 6);
	for (i = 0; i < rounds; i++) {
		/* a fork each time would make this the costliest kind */
		if (self && (flags & PFM_FL_INHERIT) && (!i || fz_one_in(rng, 4)))
			sc_child(1 + fz_below(rng, 400));
		if (self)
			fz_workload(0, 1 + fz_below(rng, 100));
		else
			fz_wait_event(fd, 500 + fz_below(rng, 2000));
		if (fz_one_in(rng, 6) && !self)
			fz_run_signal(&(struct fz_op){ .a = { tgt_slot % FZ_TGTS,
					fz_below(rng, 2), FZ_TGT_SLOT } }, NULL, 0);
		sc_drain(fd, !self && fz_below(rng, 2));
		if (buf != MAP_FAILED)
			(void)*(volatile uint64_t *)buf;
		if (fz_one_in(rng, 8))
			sc_read_pmds(fd, 0);
		sc_restart(rng, fd, flags, buf);
	}
	sc_read_pmds(fd, 0);
	if (fz_below(rng, 2))
		pfm_stop(fd, 0);
	if (fz_below(rng, 2))
		pfm_unload_context(fd, 0);
	if (buf != MAP_FAILED && fz_below(rng, 2))
		munmap(buf, arg.buf_size);
}

/* Event sets: switching on overflow and on time, then their accounts. */
static void sc_sets(uint64_t *rng, uint64_t fd_slot, uint64_t tgt_slot)
{
	static const uint32_t set_flags[] = {
		PFM_SETFL_OVFL_SWITCH, PFM_SETFL_TIME_SWITCH,
		PFM_SETFL_TIME_SWITCH | PFM_SETFL_RANDOM_TIMEOUT, 0,
	};
	struct pfarg_setdesc sd[4];
	struct pfarg_setinfo si[4];
	int nsets = 2 + (int)fz_below(rng, 3), fd, i, self = !fz_one_in(rng, 3);
	uint32_t sf = set_flags[fz_below(rng, 4)];

	fd = pfm_create_context(fz_one_in(rng, 4) ? PFM_FL_OVFL_NO_MSG : 0, NULL, NULL, 0);
	if (fd < 0)
		return;
	fz_set_fd(fd_slot, fd);
	memset(sd, 0, sizeof(sd));
	for (i = 0; i < nsets; i++) {
		sd[i].set_id = i;
		sd[i].set_flags = fz_one_in(rng, 4) ? set_flags[fz_below(rng, 4)] : sf;
		sd[i].set_timeout = 100000 * (1 + fz_below(rng, 20));
		if (sd[i].set_flags & PFM_SETFL_RANDOM_TIMEOUT)
			sd[i].set_timeout_mask = 0xffff;
	}
	pfm_create_evtsets(fd, sd, nsets * sizeof(sd[0]));
	for (i = 0; i < nsets; i++)
		sc_program(fd, rng, i, PFM_PMDFL_SWITCH |
			   (fz_one_in(rng, 3) ? PFM_PMDFL_OVFL_NOTIFY : 0), 0);
	pfm_load_context(fd, 0, self ? gettid() : fz_scen_target(rng, tgt_slot));
	if (fz_below(rng, 2))
		pfm_start(fd, PFM_STARTFL_SET, (int)fz_below(rng, nsets));
	else
		pfm_start(fd, 0);
	for (i = 0; i < 1 + (int)fz_below(rng, 4); i++) {
		if (self)
			fz_workload(0, 50 + fz_below(rng, 300));
		else
			fz_wait_event(fd, 1500);
		sc_drain(fd, 0);
		if (fz_one_in(rng, 2))
			pfm_start(fd, PFM_STARTFL_RESTART);
	}
	memset(si, 0, sizeof(si));
	for (i = 0; i < 4; i++)
		si[i].set_id = i;
	pfm_getinfo_evtsets(fd, si, nsets * sizeof(si[0]));
	for (i = 0; i < nsets; i++)
		sc_read_pmds(fd, i);
	/* deleting a set: refused while attached, allowed after */
	if (fz_below(rng, 2)) {
		pfm_delete_evtsets(fd, &sd[nsets - 1], sizeof(sd[0]));
		pfm_stop(fd, 0);
		pfm_unload_context(fd, 0);
		pfm_delete_evtsets(fd, &sd[1], (nsets - 1) * sizeof(sd[0]));
		pfm_getinfo_evtsets(fd, si, nsets * sizeof(si[0]));
	}
}

static int sc_cpu_online(int cpu, int on)
{
	char path[96];
	int fd, r;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fz_mark_global(FZ_GLOBAL_CPUS);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = write(fd, on ? "1" : "0", 1) == 1 ? 0 : -errno;
	close(fd);
	return r;
}

/* A CPU session; its CPU may go offline under it (hotplug detaches it). */
static void sc_cpu(uint64_t *rng, uint64_t fd_slot)
{
	int cpu = fz_one_in(rng, 4) ? 0 : 1, fd, i;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	fd = pfm_create_context(PFM_FL_SYSTEM_WIDE |
				(fz_one_in(rng, 3) ? PFM_FL_OVFL_NO_MSG : 0), NULL, NULL, 0);
	if (fd < 0)
		goto out;
	fz_set_fd(fd_slot, fd);
	sc_program(fd, rng, 0, fz_below(rng, 2) ? PFM_PMDFL_OVFL_NOTIFY : 0, fz_below(rng, 2));
	pfm_load_context(fd, 0, cpu);
	pfm_start(fd, 0);
	for (i = 0; i < 1 + (int)fz_below(rng, 3); i++) {
		fz_workload((int)fz_below(rng, 4), 100);
		sc_drain(fd, 0);
		pfm_start(fd, PFM_STARTFL_RESTART);
	}
	sc_read_pmds(fd, 0);
	/*
	 * A CPU going offline and back is slow (every CPU stopped, every
	 * subsystem's callbacks): one session in eight.
	 */
	if (cpu && fz_one_in(rng, 8)) {
		/* off this CPU first: the offline moves everything else away */
		CPU_ZERO(&set);
		CPU_SET(0, &set);
		sched_setaffinity(0, sizeof(set), &set);
		sc_cpu_online(cpu, 0);
		sc_drain(fd, 0);
		sc_read_pmds(fd, 0);
		pfm_start(fd, 0);
		pfm_unload_context(fd, 0);
		sc_cpu_online(cpu, 1);
		pfm_load_context(fd, 0, cpu);
	}
	if (fz_below(rng, 2))
		pfm_unload_context(fd, 0);
out:
	for (i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* A perf_event group for the caller or a thread, its ioctls, reads, page, child. */
static void sc_perf(uint64_t *rng, uint64_t fd_slot, uint64_t tgt_slot)
{
	static const uint64_t configs[] = {
		PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
		PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_CPU_MIGRATIONS,
		PERF_COUNT_SW_CPU_CLOCK,
	};
	struct perf_event_attr a;
	int n = 1 + (int)fz_below(rng, 3), fds[3] = { -1, -1, -1 }, i, grp;
	pid_t pid = fz_below(rng, 3) ? 0 : fz_scen_target(rng, tgt_slot), child;
	uint64_t buf[32];
	void *page;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.read_format = fz_below(rng, PERF_FORMAT_MAX);
	a.inherit = fz_below(rng, 2);
	if (a.inherit)
		a.read_format &= ~PERF_FORMAT_GROUP;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	for (i = 0; i < n; i++) {
		a.config = configs[fz_below(rng, 5)];
		a.disabled = i == 0 && fz_below(rng, 2);
		a.enable_on_exec = a.disabled && fz_one_in(rng, 3);
		fds[i] = pfm_perf_event_open(&a, pid, -1, i ? fds[0] : -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fds[0] < 0)
		goto out;
	grp = fz_below(rng, 2) ? PERF_IOC_FLAG_GROUP : 0;
	ioctl(fds[0], PERF_EVENT_IOC_ENABLE, grp);
	page = mmap(fz_map_hint(4096), 4096, PROT_READ, MAP_SHARED, fds[fz_below(rng, n)], 0);
	for (i = 0; i < 1 + (int)fz_below(rng, 3); i++) {
		fz_workload((int)fz_below(rng, 4), 50);
		if (fz_read_alarmed(fds[fz_below(rng, n)], buf, sizeof(buf)) < 0 && errno == EINTR)
			break;
		if (page != MAP_FAILED)
			(void)*(volatile uint32_t *)page;
		switch (fz_below(rng, 4)) {
		case 0:
			ioctl(fds[0], PERF_EVENT_IOC_DISABLE, grp);
			break;
		case 1:
			ioctl(fds[fz_below(rng, n)], PERF_EVENT_IOC_RESET, grp);
			break;
		case 2:
			ioctl(fds[0], PERF_EVENT_IOC_ENABLE, grp);
			break;
		default:
			ioctl(fds[fz_below(rng, n)], PERF_EVENT_IOC_ID, buf);
			break;
		}
	}
	/* a child of the monitored caller: inherited events count it, then fold */
	if (!pid && a.inherit) {
		child = fz_fork_task(0);
		if (!child) {
			fz_workload((int)fz_below(rng, 3), 100);
			fz_cov_flush();
			if (fz_below(rng, 2))
				execl(fz.self_exe, fz.self_exe, "--fz-target", "exit", (char *)NULL);
			_exit(0);
		}
		if (child > 0)
			waitpid(child, NULL, 0);
		if (fz_read_alarmed(fds[0], buf, sizeof(buf)) < 0)
			buf[0] = 0;
	}
	poll(&(struct pollfd){ .fd = fds[0], .events = POLLIN }, 1, 0);
	if (page != MAP_FAILED && fz_below(rng, 2))
		munmap(page, 4096);
out:
	/* the leader stays in the slot; the siblings go in some order */
	for (i = n - 1; i > 0; i--)
		if (fds[i] >= 0 && fz_below(rng, 2))
			close(fds[i]);
	if (fds[0] >= 0)
		fz_set_fd(fd_slot, fds[0]);
}

/*
 * The frame of every scenario (this file's, perf_smpl's): a0 fd slot, a1 seed,
 * a2 target slot, a3 which of 'kinds', a4 1: in a child, as nobody.
 */
void fz_scen_gen(uint64_t *rng, struct fz_op *op, int kinds)
{
	op->a[0] = fz_below(rng, 4);
	op->a[1] = fz_rand(rng);
	op->a[2] = fz_below(rng, FZ_TGTS);
	op->a[3] = fz_below(rng, kinds);
	op->a[4] = fz_one_in(rng, 5);
}

/* body runs with the seed, here or in that child; the result is the fd slot's. */
long fz_scen_run(const struct fz_op *op, fz_scen_body body, int st, int kinds)
{
	uint64_t rng = op->a[1], slot = op->a[0] % FZ_FDS;
	struct timespec t0;
	pid_t pid;

	/* without privilege: the user's own limits and charges, the paranoid levels */
	if (op->a[4] == 1) {
		pid = fz_fork_task(1);
		if (pid < 0)
			return -errno;
		if (pid)
			return fz_wait_or_kill(pid, 300, -1);
	}
	st += (int)(op->a[3] % kinds);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fz_cur_st = st;
	body(&rng, slot, op->a[2], op->a[3]);
	fz_cov_flush();
	fz_cur_st = -1;
	fz_stat_add(st, &t0);
	if (op->a[4] == 1)
		_exit(0);
	return fz.fd[slot];
}

static void sc_body(uint64_t *rng, uint64_t slot, uint64_t tgt_slot, uint64_t which)
{
	switch (which % SC_NR) {
	case SC_OVFL:
		sc_ovfl(rng, slot, tgt_slot);
		break;
	case SC_SETS:
		sc_sets(rng, slot, tgt_slot);
		break;
	case SC_CPU:
		sc_cpu(rng, slot);
		break;
	default:
		sc_perf(rng, slot, tgt_slot);
		break;
	}
}

void fz_gen_scenario(uint64_t *rng, struct fz_op *op)
{
	fz_scen_gen(rng, op, SC_NR);
}

long fz_run_scenario(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	(void)p, (void)idx;
	return fz_scen_run(op, sc_body, FZ_ST_SCEN, SC_NR);
}
