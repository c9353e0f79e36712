// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz operations on file descriptors: read, poll, mmap and what happens to
 * mappings, close, dup, O_ASYNC; and perf_event_open through perfmon with the
 * perf_event fd's own operations in a table (fz_perf_ops) that grows with the
 * shim.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "fuzz.h"

static uint64_t gen_slot(uint64_t *rng)
{
	if (fz_one_in(rng, 16))
		return FZ_FDS + fz_below(rng, 4);
	return fz_one_in(rng, 4) ? fz_below(rng, FZ_FDS) : fz_below(rng, 4);
}

/*
 * A blocking call gets 10 ms, then SIGALRM interrupts it, and again every 10
 * ms until disarmed: a thread that does not run for 10 ms (the guest busy
 * with other programs) takes the first signal before its call blocks.  The
 * timer is the calling thread's and signals that thread alone: with the
 * process's timer (setitimer), an async thread's disarm cancelled another
 * thread's alarm, or its SIGALRM went to a thread not blocked, and the read
 * blocked for good.
 */
static __thread timer_t alarm_timer;
/* the thread that made it (a fork has none); minus it: the process's timer instead */
static __thread pid_t alarm_tid;
/*
 * Calls on it not yet matched by calls off: an operation that may block gets
 * its alarm before its fault is armed (fz_op_run()), since the fault could
 * otherwise fall on the timer's own calls (timer_settime() copies its
 * argument in) and leave the call that blocks without an alarm.
 */
static __thread int alarm_depth;

static void process_alarm(int on)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	if (on)
		it.it_value.tv_usec = it.it_interval.tv_usec = 10000;
	setitimer(ITIMER_REAL, &it, NULL);
}

void fz_alarm(int on)
{
	struct itimerspec it;
	struct sigevent sev;

	/* a fork's copy of the count is not its own: it has no timer */
	if (alarm_tid != gettid() && alarm_tid != -gettid())
		alarm_depth = 0;
	if (!on) {
		if (alarm_depth > 0 && --alarm_depth)
			return;
		if (alarm_tid == gettid())
			timer_delete(alarm_timer);
		else if (alarm_tid == -gettid())
			process_alarm(0);
		alarm_tid = 0;
		return;
	}
	if (alarm_depth++)
		return;
	if (alarm_tid != gettid()) {
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = SIGALRM;
		sev._sigev_un._tid = gettid();	/* sigev_notify_thread_id */
		if (timer_create(CLOCK_MONOTONIC, &sev, &alarm_timer)) {
			/* no timer to be had: the process's, better than none */
			alarm_tid = -gettid();
			process_alarm(1);
			return;
		}
		alarm_tid = gettid();
	}
	memset(&it, 0, sizeof(it));
	it.it_value.tv_nsec = it.it_interval.tv_nsec = 10000000;
	timer_settime(alarm_timer, 0, &it, NULL);
}

/*
 * Every read the fuzzer makes of a program's fd, with the alarm: a context's
 * read waits for a message, and even a read meant not to wait (a perf
 * event's count, a context made O_NONBLOCK) may meet a context that waits:
 * another thread of the program may have closed that number and opened a
 * context under it, or made the open file blocking again.
 */
ssize_t fz_read_alarmed(int fd, void *buf, size_t len)
{
	ssize_t r;

	fz_alarm(1);
	r = read(fd, buf, len);
	fz_alarm(0);
	return r;
}

/* Off whatever was left on: a program's end. */
void fz_alarm_stop(void)
{
	alarm_depth = 0;
	fz_alarm(0);
}

/* ---- perf_event_open ---------------------------------------------------- */

/*
 * a0 slot, a1 attr seed, a2 pid kind, a3 cpu, a4 group slot, a5 flags.  Mostly
 * what perf tools open: a software event perfmon counts, counting (no period),
 * for the caller or a thread of the program, on any CPU, or for a CPU (pid -1,
 * FZ_TGT_CPU), alone or in a group; now and then anything.
 */
void fz_gen_perf_open(uint64_t *rng, struct fz_op *op)
{
	int plausible = !fz_one_in(rng, 4);

	op->a[0] = gen_slot(rng) % FZ_FDS;
	op->a[1] = (fz_rand(rng) & ~1ULL) | plausible;
	if (plausible) {
		op->a[2] = fz_below(rng, 3) ? FZ_TGT_SELF : FZ_TGT_SLOT;
		op->a[3] = (uint64_t)-1;
		/* a CPU event now and then: pid -1 on CPU 0 or 1 (perf stat -a) */
		if (fz_one_in(rng, 6)) {
			op->a[2] = FZ_TGT_CPU;
			op->a[3] = fz_below(rng, 2);
		}
		op->a[4] = fz_below(rng, 3) ? FZ_FDS : fz_below(rng, 4);
		op->a[5] = PERF_FLAG_FD_CLOEXEC;
		return;
	}
	op->a[2] = fz_below(rng, FZ_TGT_NR);
	op->a[3] = fz_one_in(rng, 2) ? (uint64_t)-1 : fz_below(rng, 3);
	op->a[4] = fz_one_in(rng, 2) ? FZ_FDS : gen_slot(rng);
	op->a[5] = fz_one_in(rng, 4) ? fz_below(rng, 16) : PERF_FLAG_FD_CLOEXEC;
}

/* The software events perfmon counts (perf/event.c), then two it does not. */
const uint64_t fz_perf_sw[] = {
	PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_PAGE_FAULTS_MIN, PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_CPU_MIGRATIONS, PERF_COUNT_SW_PAGE_FAULTS_MAJ, PERF_COUNT_SW_DUMMY,
};

/* Bit 0 of the seed: a plausible attr, else a hostile one. */
static void gen_attr(uint64_t seed, struct perf_event_attr *a)
{
	static const uint32_t sizes[] = {
		PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER5, sizeof(*a), 0, 4096,
	};

	memset(a, 0, sizeof(*a));
	if (seed & 1) {
		a->type = PERF_TYPE_SOFTWARE;
		a->size = fz_below(&seed, 8) ? sizeof(*a) : PERF_ATTR_SIZE_VER0;
		a->config = fz_perf_sw[fz_below(&seed, fz_below(&seed, 8) ? 6 : 8)];
		a->read_format = fz_below(&seed, PERF_FORMAT_MAX);
		a->disabled = fz_below(&seed, 2);
		a->exclude_kernel = !fz_one_in(&seed, 4);
		a->exclude_user = fz_one_in(&seed, 8);
		a->exclude_hv = 1;
		a->inherit = fz_one_in(&seed, 3);
		a->inherit_stat = a->inherit && fz_one_in(&seed, 2);
		a->enable_on_exec = a->disabled && fz_one_in(&seed, 3);
		a->pinned = fz_one_in(&seed, 8);
		if (fz_one_in(&seed, 8))
			a->sample_period = 1 + fz_below(&seed, 10000);
		return;
	}
	a->type = fz_below(&seed, 8) ? fz_below(&seed, PERF_TYPE_MAX) : (uint32_t)fz_rand(&seed);
	a->size = fz_below(&seed, 4) ? sizeof(*a) : sizes[fz_below(&seed, 5)];
	a->config = fz_below(&seed, 4) ? fz_below(&seed, 10) : fz_rand(&seed);
	a->sample_period = fz_below(&seed, 2) ? 0 : 1 + fz_below(&seed, 10000);
	a->sample_type = fz_below(&seed, 2) ? 0 : fz_rand(&seed) & 0x3ff;
	a->read_format = fz_below(&seed, 4);
	a->disabled = fz_below(&seed, 2);
	a->exclude_kernel = fz_below(&seed, 2);
	a->exclude_hv = 1;
	a->inherit = fz_one_in(&seed, 4);
	a->wakeup_events = fz_below(&seed, 3);
	if (fz_one_in(&seed, 8))
		((uint64_t *)a)[5] = fz_rand(&seed);	/* the flag bits, all of them */
}

long fz_run_perf_open(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	struct perf_event_attr attr;
	int fd;

	(void)p, (void)idx;
	gen_attr(op->a[1], &attr);
	fd = pfm_perf_event_open(fz_place(!(op->a[1] & 1) && fz_one_in(&(uint64_t){ op->a[1] }, 8) ?
					  FZ_PTR_NULL : FZ_PTR_OK, &attr, sizeof(attr)),
				 op->a[2] % FZ_TGT_NR == FZ_TGT_CPU ? -1 : fz_tid(op->a[2], 0),
				 (int)op->a[3], fz_fd(op->a[4]),
				 op->a[5]);
	if (fd < 0)
		return -errno;
	fz_set_fd(op->a[0], fd);
	return fd;
}

/*
 * The perf_event fd's own operations.  Argument kinds: none, an int, a pointer
 * to a u64 in the scratch buffer, an fd slot.
 */
enum { PA_NONE, PA_INT, PA_PTR, PA_FD, PA_STR };

/* tracepoint filters: right for sched_switch or the syscalls, wrong, empty */
static const char *const fz_filters[] = {
	"common_pid != 0", "prev_pid == 1 && next_pid > 0", "common_pid == 1 || id == 110",
	"", "nosuchfield == 1", "common_pid ==", "(((((", "next_comm ~ \"pfm*\"",
};

const char *fz_tp_filter(uint64_t n)
{
	return fz_filters[n % 8];
}

static const struct fz_perf_op {
	const char *name;
	unsigned long cmd;
	int arg;
} fz_perf_ops[] = {
	{ "enable",		PERF_EVENT_IOC_ENABLE,		PA_INT },
	{ "disable",		PERF_EVENT_IOC_DISABLE,		PA_INT },
	{ "reset",		PERF_EVENT_IOC_RESET,		PA_INT },
	{ "refresh",		PERF_EVENT_IOC_REFRESH,		PA_INT },
	{ "period",		PERF_EVENT_IOC_PERIOD,		PA_PTR },
	{ "id",			PERF_EVENT_IOC_ID,		PA_PTR },
	{ "set_output",		PERF_EVENT_IOC_SET_OUTPUT,	PA_FD },
	{ "set_filter",		PERF_EVENT_IOC_SET_FILTER,	PA_PTR },
	{ "pause_output",	PERF_EVENT_IOC_PAUSE_OUTPUT,	PA_INT },
	{ "modify_attributes",	PERF_EVENT_IOC_MODIFY_ATTRIBUTES, PA_PTR },
	{ "read",		0,				PA_NONE },
	{ "set_bpf",		PERF_EVENT_IOC_SET_BPF,		PA_FD },
	{ "query_bpf",		PERF_EVENT_IOC_QUERY_BPF,	PA_PTR },
	{ "filter_string",	PERF_EVENT_IOC_SET_FILTER,	PA_STR },
};
#define FZ_PERF_OPS	(sizeof(fz_perf_ops) / sizeof(fz_perf_ops[0]))

/* a0 slot, a1 which, a2 int argument, a3 pointer kind, a4 fd slot */
void fz_gen_perf_op(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = gen_slot(rng);
	op->a[1] = fz_below(rng, FZ_PERF_OPS);
	op->a[2] = fz_one_in(rng, 4) ? fz_rand(rng) : fz_below(rng, 2);
	op->a[3] = fz_gen_ptr(rng);
	op->a[4] = gen_slot(rng);
}

long fz_run_perf_op(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	const struct fz_perf_op *po = &fz_perf_ops[op->a[1] % FZ_PERF_OPS];
	int fd = fz_fd(op->a[0]);
	unsigned long arg = 0;
	char buf[256];

	(void)p, (void)idx;
	switch (po->arg) {
	case PA_NONE:
		return fz_ret(fz_read_alarmed(fd, buf, op->a[2] % sizeof(buf)));
	case PA_INT:
		arg = op->a[2];
		break;
	case PA_PTR:
		*(uint64_t *)fz.scratch = op->a[2];
		arg = (unsigned long)fz_ptr(op->a[3], 8);
		break;
	case PA_STR:
		arg = (unsigned long)fz_place(op->a[3], fz_filters[op->a[2] % 8],
					      strlen(fz_filters[op->a[2] % 8]) + 1);
		break;
	default:
		arg = (unsigned long)fz_fd(op->a[4]);
		break;
	}
	return fz_ret(ioctl(fd, po->cmd, arg));
}

/* ---- read, poll ---------------------------------------------------------- */

/* a0 slot, a1 size kind, a2 pointer kind, a3 blocking mode */
void fz_gen_read(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = gen_slot(rng);
	op->a[1] = fz_one_in(rng, 4) ? fz_below(rng, 6) : 0;
	op->a[2] = fz_gen_ptr(rng);
	op->a[3] = fz_one_in(rng, 4) ? fz_below(rng, 3) : 1;
}

long fz_run_read(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	static const size_t sizes[] = { 64, 63, 128, 8, 64 * 9, 1 << 20 };
	size_t size = sizes[op->a[1] % 6];
	int fd = fz_fd(op->a[0]), fl;
	ssize_t r;

	(void)p, (void)idx;
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && op->a[3] % 3 == 1)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	else if (fl >= 0 && op->a[3] % 3 == 2)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	r = fz_read_alarmed(fd, fz_ptr(op->a[2], size), size);
	return fz_ret(r);
}

/* a0 slot, a1 events, a2 timeout in ms */
void fz_gen_poll(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = gen_slot(rng);
	op->a[1] = fz_one_in(rng, 4) ? fz_rand(rng) & 0xffff : POLLIN;
	op->a[2] = fz_below(rng, 4) ? fz_below(rng, 2) : fz_below(rng, 20);
}

long fz_run_poll(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	struct pollfd pfd = { .fd = fz_fd(op->a[0]), .events = (short)op->a[1] };

	(void)p, (void)idx;
	return fz_ret(poll(&pfd, 1, (int)(op->a[2] % 50)));
}

/* ---- mappings ------------------------------------------------------------ */

/* The mapping a..a+len goes into slot m; the one there before is unmapped. */
void fz_map_set(struct fz_map *m, void *a, size_t len)
{
	if (m->addr)
		munmap(m->addr, m->len);
	m->addr = a;
	m->len = len;
}

/* a0 fd slot, a1 map slot, a2 length kind, a3 prot, a4 flags, a5 offset kind */
void fz_gen_mmap(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = gen_slot(rng);
	op->a[1] = fz_below(rng, FZ_MAPS);
	op->a[2] = fz_one_in(rng, 3) ? fz_below(rng, 7) : 0;
	op->a[3] = fz_one_in(rng, 6) ? PROT_READ | PROT_WRITE : PROT_READ;
	op->a[4] = fz_one_in(rng, 6) ? MAP_PRIVATE : MAP_SHARED;
	op->a[5] = fz_one_in(rng, 6) ? fz_below(rng, 4) : 0;
}

long fz_run_mmap(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	static const size_t lens[] = { 4096, 8192, 16384, 0, 1UL << 40, 12289, 4095 };
	static const off_t offs[] = { 0, 4096, 1, -4096 };
	struct fz_map *m = &fz.map[op->a[1] % FZ_MAPS];
	size_t len = lens[op->a[2] % 7];
	void *a;

	(void)p, (void)idx;
	a = mmap(fz_map_hint(len), len, (int)(op->a[3] & 7), (int)(op->a[4] & (MAP_SHARED | MAP_PRIVATE)),
		 fz_fd(op->a[0]), offs[op->a[5] % 4]);
	if (a == MAP_FAILED)
		return -errno;
	fz_map_set(m, a, len);
	return 0;
}

/* a0 map slot, a1 what: munmap, partial munmap, mprotect, mremap, madvise, fork-copy */
void fz_gen_munmap(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_below(rng, FZ_MAPS);
	op->a[1] = fz_below(rng, 2) ? 0 : fz_below(rng, 6);
}

long fz_run_munmap(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	struct fz_map *m = &fz.map[op->a[0] % FZ_MAPS];
	void *a;
	long r;

	(void)p, (void)idx;
	if (!m->addr)
		return -EINVAL;
	switch (op->a[1] % 6) {
	case 0:
		r = munmap(m->addr, m->len);
		m->addr = NULL;
		return fz_ret(r);
	case 1:
		/* the first page goes, the rest stays mapped */
		if (m->len <= 4096)
			return -EINVAL;
		r = munmap(m->addr, 4096);
		if (!r) {
			m->addr = (char *)m->addr + 4096;
			m->len -= 4096;
		}
		return fz_ret(r);
	case 2:
		return fz_ret(mprotect(m->addr, m->len, PROT_READ | PROT_WRITE));
	case 3:
		a = mremap(m->addr, m->len, m->len + 4096, MREMAP_MAYMOVE);
		if (a == MAP_FAILED)
			return -errno;
		m->addr = a;
		m->len += 4096;
		return 0;
	case 4:
		return fz_ret(madvise(m->addr, m->len, MADV_DONTNEED));
	default:
		return fz_ret(mlock(m->addr, m->len));
	}
}

/* a0 map slot: read one word of each page (SIGBUS and SIGSEGV are answers) */
void fz_gen_touch(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_below(rng, FZ_MAPS);
}

long fz_run_touch(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	struct fz_map *m = &fz.map[op->a[0] % FZ_MAPS];
	volatile uint64_t sum = 0;
	volatile long ret = 0;
	sigjmp_buf jb;
	size_t off;
	int sig;

	(void)p, (void)idx;
	if (!m->addr)
		return -EINVAL;
	/* the process's SIGSEGV and SIGBUS handler (exec.c) comes back here */
	sig = sigsetjmp(jb, 1);
	if (!sig) {
		fz_touch_jmp = &jb;
		for (off = 0; off < m->len && off < (1UL << 20); off += 4096)
			sum += *(volatile uint64_t *)((char *)m->addr + off);
	} else {
		ret = -1000 - sig;
	}
	fz_touch_jmp = NULL;
	(void)sum;
	return ret;
}

/* ---- close, dup, O_ASYNC ------------------------------------------------- */

void fz_gen_close(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_below(rng, FZ_FDS);
}

long fz_run_close(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	int fd = fz_fd(op->a[0]);

	(void)p, (void)idx;
	fz.fd[op->a[0] % FZ_FDS] = -1;
	/*
	 * Fds 0 to 2 (the raw fd 0 of a slot past the fd slots, a file not
	 * perfmon's) are the executor's, which it must find again after the
	 * program or be replaced: a copy is closed instead, the same call on
	 * the same kind of file.
	 */
	if (fd >= 0 && fd <= 2)
		fd = dup(fd);
	return fz_ret(close(fd));
}

/* a0 source slot, a1 destination slot, a2 how */
void fz_gen_dup(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = gen_slot(rng);
	op->a[1] = fz_below(rng, FZ_FDS);
	op->a[2] = fz_below(rng, 3);
}

long fz_run_dup(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	int fd = fz_fd(op->a[0]), nfd;

	(void)p, (void)idx;
	switch (op->a[2] % 3) {
	case 0:
		nfd = dup(fd);
		break;
	case 1:
		nfd = fcntl(fd, F_DUPFD_CLOEXEC, 100);
		break;
	default:
		/* over the destination's own fd, closing it in the same call */
		nfd = fz.fd[op->a[1] % FZ_FDS];
		if (nfd < 0)
			nfd = dup(fd);
		else
			nfd = dup3(fd, nfd, O_CLOEXEC);
		if (nfd >= 0)
			fz.fd[op->a[1] % FZ_FDS] = -1;
		break;
	}
	if (nfd < 0)
		return -errno;
	fz_set_fd(op->a[1], nfd);
	return nfd;
}

/* a0 slot, a1 owner kind, a2 owner slot, a3 signal choice, a4 on */
void fz_gen_fasync(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = gen_slot(rng);
	op->a[1] = fz_below(rng, FZ_TGT_NR);
	op->a[2] = fz_below(rng, FZ_TGTS);
	op->a[3] = fz_below(rng, 3);
	op->a[4] = !fz_one_in(rng, 4);
}

long fz_run_fasync(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	static const int sigs[] = { 0, SIGIO, SIGUSR1 };
	int fd = fz_fd(op->a[0]), fl;
	struct f_owner_ex own = { .type = F_OWNER_TID };

	(void)p, (void)idx;
	own.pid = fz_tid(op->a[1], op->a[2]);
	if (op->a[1] % FZ_TGT_NR == FZ_TGT_PARENT)
		own.type = F_OWNER_PID;
	if (fcntl(fd, F_SETOWN_EX, &own) < 0)
		return -errno;
	if (fcntl(fd, F_SETSIG, sigs[op->a[3] % 3]) < 0)
		return -errno;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return -errno;
	return fz_ret(fcntl(fd, F_SETFL, op->a[4] ? fl | O_ASYNC : fl & ~O_ASYNC));
}
