// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz runtime: the state of a running program, how slots and argument
 * kinds turn into real values, and the loop that runs operations.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

struct fz_state fz;
unsigned long (*fz_results)[3];
int *fz_global_dirty;
unsigned long (*fz_stats)[2];
__thread int fz_cur_op = -1, fz_cur_st = -1;
void (*fz_cov_task_start)(void);
void (*fz_cov_collect)(void);

/*
 * The scratch buffer lives at a fixed address, so that a logged raw argument
 * that points into it points to the same bytes when the program runs again.
 */
#define FZ_SCRATCH_ADDR	((void *)0x100000000000UL)
#define FZ_PAGE		4096UL

/*
 * Where the program's mappings of perfmon's fds go (fz_map_hint()): a range the
 * kernel places nothing in of its own accord, so that the executor unmaps what
 * a program left with one munmap of it (fz_map_window_clear()) instead of
 * listing its mappings.
 */
#define FZ_WIN_ADDR	0x200000000000UL
#define FZ_WIN_LEN	0x400000000000UL
static unsigned long fz_win_next;

void *fz_map_hint(size_t len)
{
	unsigned long step = ((len + FZ_PAGE - 1) & ~(FZ_PAGE - 1)) + FZ_PAGE;
	unsigned long off = __atomic_fetch_add(&fz_win_next, step, __ATOMIC_RELAXED);

	/* a length past the window (or a wrapped one): wherever the kernel puts it */
	if (step < len || off + step > FZ_WIN_LEN)
		return NULL;
	return (void *)(FZ_WIN_ADDR + off);
}

void fz_map_window_clear(void)
{
	munmap((void *)FZ_WIN_ADDR, FZ_WIN_LEN);
	__atomic_store_n(&fz_win_next, 0, __ATOMIC_RELAXED);
}

static void fz_nop_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si;
	fz_fault_note_signal(uc);
}

__thread sigjmp_buf *fz_touch_jmp;

/*
 * The process's one SIGSEGV and SIGBUS handler (a handler swapped in and
 * out by one thread would be another's too): a touch's fault goes back to
 * the touch, a fault injection's SIGSEGV is taken (fault.c), any other
 * takes the default action.
 */
static void fz_segv_handler(int sig, siginfo_t *si, void *uc)
{
	if (fz_touch_jmp)
		siglongjmp(*fz_touch_jmp, sig);
	if (sig == SIGSEGV && fz_fault_segv(si, uc))
		return;
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * The state a program starts from: empty slots, a scratch buffer of zeroes
 * (raw arguments may point past what an operation placed there).
 */
void fz_state_reset(void)
{
	int i;

	memset(fz.tgt, 0, sizeof(fz.tgt));
	memset(fz.map, 0, sizeof(fz.map));
	for (i = 0; i < FZ_FDS; i++)
		fz.fd[i] = -1;
	mprotect(fz.scratch, FZ_SCRATCH, PROT_READ | PROT_WRITE);
	memset(fz.scratch, 0, FZ_SCRATCH);
	mprotect(fz.scratch + FZ_SCRATCH, FZ_PAGE, PROT_NONE);
	mprotect(fz.rdonly, FZ_PAGE, PROT_READ);
}

/*
 * SIGIO and SIGUSR1 are what O_ASYNC contexts send; SIGALRM interrupts a
 * blocking read (no SA_RESTART).  Their default actions would end the
 * executor.  SIGTRAP, what a perf event with attr.sigtrap sends, is ignored
 * (the manager's choice, made explicit): a handler would turn a sigtrap event
 * of a small period into a thread that only ever enters it.
 */
void fz_signals_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fz_nop_handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGIO, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGTRAP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	sa.sa_sigaction = fz_segv_handler;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

void fz_state_init(const char *self_exe, pid_t manager)
{
	char *p;

	memset(&fz, 0, sizeof(fz));
	fz.self_exe = self_exe;
	fz.manager = manager;
	fz.door = pfm_door();

	/* scratch, guard, read-only page */
	p = mmap(FZ_SCRATCH_ADDR, FZ_SCRATCH + 2 * FZ_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED) {
		perror("fuzz: scratch mmap");
		exit(2);
	}
	fz.scratch = p;
	fz.rdonly = p + FZ_SCRATCH + FZ_PAGE;
	fz_state_reset();
	fz_signals_init();
}

void *fz_ptr(uint64_t kind, size_t len)
{
	switch (kind % FZ_PTR_NR) {
	case FZ_PTR_OK:
		return fz.scratch;
	case FZ_PTR_NULL:
		return NULL;
	case FZ_PTR_KERNEL:
		return (void *)0xffffffff81000000UL;
	case FZ_PTR_GUARD:
		return fz.scratch + FZ_SCRATCH;
	case FZ_PTR_STRADDLE:
		/* at least the last byte is in the guard page */
		if (len > FZ_SCRATCH)
			return fz.scratch;
		return fz.scratch + FZ_SCRATCH - len + (len > 1 ? len / 2 : 0) + 1;
	case FZ_PTR_UNALIGNED:
		return fz.scratch + 1;
	case FZ_PTR_RDONLY:
		return fz.rdonly;
	default:
		return (void *)0x8000000000000000UL;
	}
}

/*
 * A pointer of that kind holding what is readable of data: the call then finds
 * the intended bytes wherever the pointer is valid.
 */
void *fz_place(uint64_t kind, const void *data, size_t len)
{
	char *p = fz_ptr(kind, len);
	char *end = fz.scratch + FZ_SCRATCH;

	if (p >= fz.scratch && p < end) {
		size_t room = (size_t)(end - p);

		memcpy(p, data, len < room ? len : room);
	}
	return p;
}

/*
 * Slots 0..FZ_FDS-1; then special fds: -1, a file that is not perfmon's, a
 * number no fd has, standard input.
 */
int fz_fd(uint64_t slot)
{
	if (slot < FZ_FDS)
		return fz.fd[slot];
	switch (slot - FZ_FDS) {
	case 0:
		return -1;
	case 1:
		return open("/dev/null", O_RDONLY | O_CLOEXEC);	/* leaks: cheap */
	case 2:
		return 1000;
	default:
		return 0;
	}
}

void fz_set_fd(uint64_t slot, int fd)
{
	if (slot >= FZ_FDS) {
		if (fd >= 0)
			close(fd);
		return;
	}
	/* the old fd of the slot goes: a bounded number of fds per program */
	if (fz.fd[slot] >= 0)
		close(fz.fd[slot]);
	fz.fd[slot] = fd;
}

pid_t fz_tid(uint64_t kind, uint64_t slot)
{
	switch (kind % FZ_TGT_NR) {
	case FZ_TGT_SELF:
		return gettid();
	case FZ_TGT_SLOT:
		return fz.tgt[slot % FZ_TGTS].tid;
	case FZ_TGT_PARENT:
		return fz.manager;
	case FZ_TGT_KTHREAD:
		return 2;
	case FZ_TGT_NONE:
		return 4194303;
	default:
		return (pid_t)slot;
	}
}

long fz_sysbase(void)
{
	static long base = -1;
	FILE *f;

	if (base < 0) {
		base = 0;
		f = fopen("/sys/kernel/perfmon/syscall", "r");
		if (f) {
			if (fscanf(f, "%ld", &base) != 1)
				base = 0;
			fclose(f);
		}
	}
	return base;
}

int fz_devfd(void)
{
	static int fd = -2;

	if (fd == -2)
		fd = open("/dev/perfmon", O_RDWR | O_CLOEXEC);
	return fd;
}

void fz_stat_add(int st, const struct timespec *t0)
{
	struct timespec t;

	if (!fz_stats)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t);
	__atomic_fetch_add(&fz_stats[st][0], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&fz_stats[st][1], (t.tv_sec - t0->tv_sec) * 1000000 +
			   (t.tv_nsec - t0->tv_nsec) / 1000, __ATOMIC_RELAXED);
}

void fz_mark_global(int what)
{
	if (fz_global_dirty)
		__atomic_fetch_or(fz_global_dirty, 1 << what, __ATOMIC_RELAXED);
}

int fz_pipe_pair(int a[2], int b[2])
{
	if (pipe2(a, O_CLOEXEC))
		return -1;
	if (pipe2(b, O_CLOEXEC)) {
		close(a[0]);
		close(a[1]);
		return -1;
	}
	return 0;
}

int fz_pipe_parent(pid_t pid, int a[2], int b[2])
{
	close(a[0]);
	close(b[1]);
	if (pid >= 0)
		return 0;
	close(a[1]);
	close(b[0]);
	return -1;
}

/*
 * Memory the manager shares with every process it makes, carved from one
 * mapping: each mapping more is one more to copy at every fork and to tear
 * down at every exit, the largest part of their cost on the debug kernel.
 * Reserved at the first call, touched only where used; never given back.
 */
#define FZ_SHARED_MAX	(64UL << 20)

void *fz_shared(size_t len)
{
	static char *base;
	static size_t used;
	void *p;

	if (!base) {
		p = mmap(NULL, FZ_SHARED_MAX, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			return MAP_FAILED;
		base = p;
	}
	len = (len + 63) & ~63UL;
	if (len > FZ_SHARED_MAX - used)
		return MAP_FAILED;
	p = base + used;
	used += len;
	return p;
}

long fz_ret(long r)
{
	return r < 0 ? -errno : r;
}

/*
 * Pages that fault afresh: mostly in one area kept for the process, emptied
 * with MADV_DONTNEED, as a map and unmap per call cost the debug kernel more
 * than the faults themselves; one call in eight maps its own, the map and
 * unmap a monitored task's mmap hook sees.
 */
static char *fault_pages;
static unsigned int fault_calls;

static char *fault_area(long n)
{
	char *p, *none = NULL;

	if (!__atomic_load_n(&fault_pages, __ATOMIC_ACQUIRE)) {
		/* two threads may map at once: one keeps its area */
		p = mmap(NULL, 64 * FZ_PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED &&
		    !__atomic_compare_exchange_n(&fault_pages, &none, p, 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			munmap(p, 64 * FZ_PAGE);
	}
	p = __atomic_load_n(&fault_pages, __ATOMIC_ACQUIRE);
	if (p && __atomic_fetch_add(&fault_calls, 1, __ATOMIC_RELAXED) % 8)
		return p;
	p = mmap(NULL, n * FZ_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void fz_workload(int kind, long n)
{
	static volatile char sink;
	struct timespec ts;
	long i;
	char *p;

	switch (kind % 5) {
	case 0:
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		break;
	case 1:
		n = n % 64 + 1;
		p = fault_area(n);
		if (!p)
			break;
		for (i = 0; i < n; i++)
			p[i * FZ_PAGE] = 1;
		if (p == __atomic_load_n(&fault_pages, __ATOMIC_RELAXED))
			madvise(p, n * FZ_PAGE, MADV_DONTNEED);
		else
			munmap(p, n * FZ_PAGE);
		break;
	case 2:
		for (i = 0; i < n * 1000; i++)
			sink++;
		break;
	case 3:
		for (i = 0; i < n % 64; i++)
			sched_yield();
		break;
	default:
		ts.tv_sec = 0;
		ts.tv_nsec = (n % 20000) * 1000;
		nanosleep(&ts, NULL);
		break;
	}
}

/*
 * A monitored target's loop: some work, then a millisecond asleep, so that the
 * program's own tasks get the CPU (a guest's vCPUs share one host thread).
 */
void fz_target_step(int kind, long n)
{
	fz_workload(kind, n);
	fz_workload(4, 1000);
}

long fz_op_run(const struct fz_prog *p, int idx)
{
	const struct fz_op *op = &p->op[idx];
	int outer = fz_cur_op, fault, alarm;
	struct timespec t0, t1;
	unsigned int armed;
	long r;

	if (op->code >= fz_nops)
		return -ENOSYS;
	fz_cur_op = op->code;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	alarm = fz_ops[op->code].blocks && fz_fault_pending();
	if (alarm)
		fz_alarm(1);
	fault = fz_fault_arm(op->code, &armed);
	errno = 0;
	r = fz_ops[op->code].run(op, p, idx);
	if (fault >= 0)
		fz_fault_disarm(fault, op->code, armed, &t0);
	if (alarm)
		fz_alarm(0);
	if (fz_results) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		__atomic_fetch_add(&fz_results[op->code][r < 0], 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&fz_results[op->code][2],
				   (t1.tv_sec - t0.tv_sec) * 1000000 +
				   (t1.tv_nsec - t0.tv_nsec) / 1000, __ATOMIC_RELAXED);
	}
	if (fz_cov_collect)
		fz_cov_collect();
	fz_cur_op = outer;
	return r;
}

/* Runs operations from..to-1 of p, skipping those a nested operation ran. */
void fz_prog_run(const struct fz_prog *p, int from, int to)
{
	char line[256];
	long r;
	int i;

	if (to > p->n)
		to = p->n;
	for (i = from; i < to; i++) {
		const struct fz_op *op = &p->op[i];

		r = fz_op_run(p, i);
		if (fz.verbose) {
			fz_op_format(op, line, sizeof(line));
			fprintf(stderr, "[%d] %d %s = %ld%s%s\n", getpid(), i, line, r,
				r < 0 ? " " : "", r < 0 ? strerror((int)-r) : "");
		}
		if (op->code < fz_nops && fz_ops[op->code].nested)
			i += (int)(op->a[0] % FZ_PROG_MAX);
	}
}

void fz_op_format(const struct fz_op *op, char *buf, size_t len)
{
	const char *name = op->code < fz_nops ? fz_ops[op->code].name : "?";
	int i, n;

	n = snprintf(buf, len, "%s", name);
	for (i = 0; i < FZ_ARGS && n > 0 && (size_t)n < len; i++)
		n += snprintf(buf + n, len - n, " %llx", (unsigned long long)op->a[i]);
}

int fz_op_lookup(const char *name)
{
	int i;

	for (i = 0; i < fz_nops; i++)
		if (!strcmp(fz_ops[i].name, name))
			return i;
	return -1;
}

/* "--fz-target KIND": what an exec'd target runs until it is killed. */
int fz_target_main(int argc, char **argv)
{
	int kind;

	if (argc < 3 || strcmp(argv[1], "--fz-target"))
		return -1;
	/* "exit": an exec that ends at once (inherited perf events fold) */
	if (!strcmp(argv[2], "exit"))
		exit(0);
	kind = atoi(argv[2]);
	signal(SIGIO, SIG_IGN);
	signal(SIGUSR1, SIG_IGN);
	for (;;)
		fz_target_step(kind, 100);
}

#define ROW(n, g, r, w, ...) { .name = n, .gen = fz_gen_##g, .run = fz_run_##r, \
			       .weight = w, __VA_ARGS__ }

/* The operation table.  Append only: a log names operations, not numbers. */
const struct fz_opdef fz_ops[] = {
	ROW("create",		create,		create,		12,
	    .slots = FZ_S_NEW_FD0, .faults = 1),
	ROW("write_pmcs",	vec,		vec,		16, .call = PFM_CALL_WRITE_PMCS,
	    .slots = FZ_S_USE_FD0, .faults = 1),
	ROW("write_pmds",	vec,		vec,		16, .call = PFM_CALL_WRITE_PMDS,
	    .slots = FZ_S_USE_FD0, .faults = 1),
	ROW("read_pmds",	vec,		vec,		10, .call = PFM_CALL_READ_PMDS,
	    .slots = FZ_S_USE_FD0, .faults = 1),
	ROW("create_evtsets",	vec,		vec,		8, .call = PFM_CALL_CREATE_EVTSETS,
	    .slots = FZ_S_USE_FD0, .faults = 1),
	ROW("delete_evtsets",	vec,		vec,		4, .call = PFM_CALL_DELETE_EVTSETS,
	    .slots = FZ_S_USE_FD0, .faults = 1),
	ROW("getinfo_evtsets",	vec,		vec,		6, .call = PFM_CALL_GETINFO_EVTSETS,
	    .slots = FZ_S_USE_FD0, .faults = 1),
	ROW("load",		load,		load,		14,
	    .slots = FZ_S_USE_FD0 | FZ_S_USE_TGT3, .faults = 1),
	ROW("start",		ctl,		ctl,		12, .call = PFM_CALL_START,
	    .slots = FZ_S_USE_FD0, .faults = 1),
	ROW("stop",		ctl,		ctl,		6, .call = PFM_CALL_STOP,
	    .slots = FZ_S_USE_FD0, .faults = 1),
	ROW("unload",		ctl,		ctl,		6, .call = PFM_CALL_UNLOAD_CONTEXT,
	    .slots = FZ_S_USE_FD0, .faults = 1),
	ROW("raw_call",		raw_call,	raw_call,	4, .faults = 1),
	ROW("raw_ioctl",	raw_ioctl,	raw_ioctl,	4, .faults = 1),
	ROW("perf_open",	perf_open,	perf_open,	8,
	    .slots = FZ_S_NEW_FD0, .faults = 1),
	ROW("perf_op",		perf_op,	perf_op,	8,
	    .slots = FZ_S_USE_FD0, .faults = 1, .blocks = 1),
	ROW("read",		read,		read,		6,
	    .slots = FZ_S_USE_FD0, .faults = 1, .blocks = 1),
	ROW("poll",		poll,		poll,		4,
	    .slots = FZ_S_USE_FD0, .faults = 1),
	ROW("mmap",		mmap,		mmap,		6,
	    .slots = FZ_S_USE_FD0 | FZ_S_NEW_MAP1, .faults = 1),
	ROW("munmap",		munmap,		munmap,		2,
	    .slots = FZ_S_USE_MAP0),
	ROW("touch",		touch,		touch,		2,
	    .slots = FZ_S_USE_MAP0),
	ROW("close",		close,		close,		6,
	    .slots = FZ_S_USE_FD0, .faults = 1),
	ROW("dup",		dup,		dup,		4,
	    .slots = FZ_S_USE_FD0 | FZ_S_NEW_FD1, .faults = 1),
	ROW("fasync",		fasync,		fasync,		2,
	    .slots = FZ_S_USE_FD0, .faults = 1),
	ROW("sysfs",		sysfs,		sysfs,		4),
	ROW("thread",		thread,		thread,		6,
	    .slots = FZ_S_NEW_TGT0),
	ROW("fork_target",	fork_target,	fork_target,	3,
	    .slots = FZ_S_NEW_TGT0),
	ROW("signal",		signal,		signal,		4,
	    .slots = FZ_S_USE_TGT0),
	ROW("child",		child,		child,		3, .nested = 1,
	    .slots = FZ_S_NEW_TGT2),
	ROW("async",		async,		async,		4, .nested = 1),
	ROW("cpu",		cpu,		cpu,		2),
	ROW("work",		work,		work,		6),
	ROW("scenario",		scenario,	scenario,	6,
	    .slots = FZ_S_NEW_FD0 | FZ_S_NEW_TGT2),
	ROW("perf_smpl",	perf_smpl,	perf_smpl,	4,
	    .slots = FZ_S_NEW_FD0 | FZ_S_NEW_TGT2),
	ROW("counts",		counts,		counts,		6,
	    .slots = FZ_S_USE_FD0 | FZ_S_NEW_MAP1, .faults = 1),
	ROW("perf_attr",	perf_attr,	perf_attr,	10,
	    .slots = FZ_S_NEW_FD0, .faults = 1),
	ROW("perf_prctl",	perf_prctl,	perf_prctl,	2, .faults = 1),
	ROW("pmc",		lib_seq,	pmc,		1),
	ROW("perf_counter",	lib_seq,	perf_counter,	2),
	ROW("pmc_filter",	pmc_filter,	pmc_filter,	4,
	    .slots = FZ_S_USE_FD0, .faults = 1),
	ROW("fault",		fault,		fault,		8),
};
const int fz_nops = sizeof(fz_ops) / sizeof(fz_ops[0]);
