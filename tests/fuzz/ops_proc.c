// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz operations on tasks and the machine: threads and processes to
 * monitor (they may exec, stop, be killed), children that use inherited
 * contexts (as nobody too), operations running concurrently on the same fds,
 * the sysfs knobs, CPUs going offline, and the load that makes counters move.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>

#include "fuzz.h"


/*
 * Ending and filling a target slot, made one step: an async thread may work on
 * the same slot at once, and two joins of one thread, or a stop flag cleared
 * after it was set, leave a thread that never ends.
 */
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

static int become_nobody(void)
{
	if (setgroups(0, NULL) || setresgid(FZ_NOBODY, FZ_NOBODY, FZ_NOBODY) ||
	    setresuid(FZ_NOBODY, FZ_NOBODY, FZ_NOBODY))
		return -1;
	return 0;
}

/*
 * fork(); the child dies with its parent, traces its own coverage and, if
 * asked, becomes nobody (or exits).
 */
pid_t fz_fork_task(int nobody)
{
	pid_t parent = getpid(), pid;
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid) {
		fz_stat_add(FZ_ST_FORK, &t0);
		return pid;
	}
	/* another thread of the parent may have held it */
	pthread_mutex_init(&slots_lock, NULL);
	fz_spawn_forget();
	if (fz_cov_task_start)
		fz_cov_task_start();
	if (nobody && become_nobody())
		_exit(1);
	/*
	 * After the change of user, which clears it: a nobody left alive by its
	 * parent would hold the program's fds until the executor's whole group
	 * is killed.  A parent gone before this never sends it.
	 */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	return 0;
}

/* ---- sysfs --------------------------------------------------------------- */

static const struct fz_knob {
	const char *file;
	const char *vals[6];
} fz_knobs[] = {
	{ "paranoid",		{ "-1", "0", "1", "2", "3", "4" } },
	{ "sys_group",		{ "-1", "0", "65534", "-2", "2147483647", "x" } },
	{ "task_group",		{ "-1", "0", "65534", "-2", "2147483647", "" } },
	{ "ctx_per_user_max",	{ "1", "2", "8", "0", "-1", "100000" } },
	{ "arg_mem_max",	{ "200", "4096", "48", "65536", "2147483648", "0x1000" } },
	{ "smpl_buffer_mem_max", { "0", "4096", "65536", "18446744073709551615", "-1", "1" } },
	{ "perf_event_mlock_kb", { "0", "4", "516", "2147483648", "-1", "8" } },
	{ "version",		{ "" } },
	{ "contexts_count",	{ "" } },
	{ "task_sessions_count", { "" } },
	{ "sys_sessions_count",	{ "" } },
	{ "task_hooks_count",	{ "" } },
	{ "smpl_buffer_mem_cur", { "" } },
	{ "syscall",		{ "" } },
	{ "pmu_desc/model",	{ "" } },
	{ "pmu_desc/pmc64/rsvd_msk", { "" } },
	{ "pmu_desc/pmd64/width", { "" } },
	{ "formats/default/version", { "" } },
	{ "formats/mux/version", { "" } },
	{ "perf_targets_count",	{ "" } },
	{ "perf_events_count",	{ "" } },
	{ "pmu_desc/pmc64/name", { "" } },
	{ "pmu_desc/pmc64/addr", { "" } },
	{ "pmu_desc/pmc64/dfl_val", { "" } },
	{ "pmu_desc/pmc64/priv_msk", { "" } },
	{ "pmu_desc/pmd71/name", { "" } },
	/* the debugfs statistics: a write zeroes them */
	{ "../debug/perfmon/stats", { "0", NULL, "1", NULL, "", NULL } },
};
#define FZ_KNOBS	(sizeof(fz_knobs) / sizeof(fz_knobs[0]))
/* the writable ones come first (FZ_RW_KNOBS); the manager puts them back after a program */

/* knobs that operations other than sysfs write (perf_smpl): put back too */
static const char *const fz_other_knobs[] = { "perf_max_sample_rate" };
#define FZ_OTHER_KNOBS	(sizeof(fz_other_knobs) / sizeof(fz_other_knobs[0]))

const char *fz_knob_file(int i)
{
	if (i < FZ_RW_KNOBS)
		return fz_knobs[i].file;
	i -= FZ_RW_KNOBS;
	return i < (int)FZ_OTHER_KNOBS ? fz_other_knobs[i] : NULL;
}

/* a0 knob, a1 value index, a2 write */
void fz_gen_sysfs(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_below(rng, FZ_KNOBS);
	op->a[1] = fz_below(rng, 6);
	op->a[2] = fz_below(rng, 2);
}

long fz_run_sysfs(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	const struct fz_knob *k = &fz_knobs[op->a[0] % FZ_KNOBS];
	const char *v = k->vals[op->a[1] % 6];
	char path[128], buf[64];
	long r;
	int fd;

	(void)p, (void)idx;
	snprintf(path, sizeof(path), "/sys/kernel/perfmon/%s", k->file);
	if (op->a[2] && v && op->a[0] % FZ_KNOBS < FZ_RW_KNOBS)
		fz_mark_global((int)(op->a[0] % FZ_KNOBS));
	fd = open(path, (op->a[2] ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (op->a[2] && v)
		r = write(fd, v, strlen(v));
	else
		r = read(fd, buf, sizeof(buf));
	r = fz_ret(r);
	close(fd);
	return r;
}

/* ---- threads and processes to monitor ------------------------------------ */

static void *target_thread(void *arg)
{
	struct fz_target *t = arg;
	int kind = t->tid;	/* the creator left the kind there */
	int i = 0;

	__atomic_store_n(&t->tid, gettid(), __ATOMIC_RELEASE);
	syscall(SYS_futex, &t->tid, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	if (fz_cov_task_start)
		fz_cov_task_start();
	while (!t->stop) {
		fz_target_step(kind, 20);
		if (fz_cov_collect && !(++i % 16))
			fz_cov_collect();
	}
	if (fz_cov_collect)
		fz_cov_collect();
	return NULL;
}

/*
 * A thread held by a notification (NOTIFY_BLOCK) is released by a signal,
 * and held again by the next overflow if one comes before it sees its stop:
 * a signal every 10 ms until it has ended, for 2 s; then the join waits for
 * good, and the program's timeout tells.  SIGUSR1 and SIGALRM in turn: a
 * thread held while it runs its handler of one has that one blocked.  And
 * after 100 ms a restart of every context in the fd slots, as a tool would
 * restart it: a thread held on its way out has every signal blocked (glibc
 * blocks them before the thread's end).
 */
static void thread_end(struct fz_target *t)
{
	struct timespec ts;
	int k, i;

	for (k = 0; k < 200; k++) {
		syscall(SYS_tgkill, getpid(), t->tid, k % 2 ? SIGALRM : SIGUSR1);
		for (i = 0; k >= 10 && i < FZ_FDS; i++)
			if (fz.fd[i] >= 0)
				pfm_start(fz.fd[i], PFM_STARTFL_RESTART);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 10000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		if (!pthread_timedjoin_np((pthread_t)t->thread, NULL, &ts))
			return;
	}
	pthread_join((pthread_t)t->thread, NULL);
}

static void target_end(struct fz_target *t)
{
	int status;

	if (!t->tid)
		return;
	if (t->is_thread) {
		t->stop = 1;
		thread_end(t);
	} else {
		kill(t->tid, SIGKILL);
		waitpid(t->tid, &status, __WALL);
	}
	memset(t, 0, sizeof(*t));
}

/* a0 slot, a1 create (else end), a2 workload kind */
void fz_gen_thread(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_below(rng, FZ_TGTS);
	op->a[1] = !fz_one_in(rng, 3);
	op->a[2] = fz_below(rng, 5);
}

long fz_run_thread(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	struct fz_target *t = &fz.tgt[op->a[0] % FZ_TGTS];
	pthread_t th;
	long r = 0;
	pid_t v;

	(void)p, (void)idx;
	pthread_mutex_lock(&slots_lock);
	target_end(t);
	if (!op->a[1])
		goto out;
	t->tid = (pid_t)(op->a[2] % 5);
	t->is_thread = 1;
	if (pthread_create(&th, NULL, target_thread, t)) {
		memset(t, 0, sizeof(*t));
		r = -EAGAIN;
		goto out;
	}
	t->thread = (unsigned long)th;
	/*
	 * The slot names the thread once it runs.  Asleep, not spinning: the
	 * thread may start on the other CPU, which a guest's CPUs in one host
	 * thread run only once this one stops.
	 */
	while ((v = __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE)) < 5)
		syscall(SYS_futex, &t->tid, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
	r = v;
out:
	pthread_mutex_unlock(&slots_lock);
	return r;
}

/* a0 slot, a1 workload kind, a2 mode: 1 nobody, 2 exec after a3 us */
void fz_gen_fork_target(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_below(rng, FZ_TGTS);
	op->a[1] = fz_below(rng, 5);
	op->a[2] = fz_below(rng, 4);
	op->a[3] = fz_below(rng, 20000);
}

long fz_run_fork_target(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	struct fz_target *t = &fz.tgt[op->a[0] % FZ_TGTS];
	char kind[16];
	pid_t pid;

	(void)p, (void)idx;
	pthread_mutex_lock(&slots_lock);
	target_end(t);
	if (op->a[2] & 2) {
		snprintf(kind, sizeof(kind), "%d", (int)(op->a[1] % 5));
		pid = fz_spawn_target(&(struct fz_spawn){
			.close_fd = { -1, -1 }, .nobody = op->a[2] & 1, .wait_fd = -1,
			.sleep_us = (long)(op->a[3] % 20000), .kind = kind });
	} else {
		pid = fz_fork_task(op->a[2] & 1);
	}
	if (pid < 0) {
		pid = -errno;
		pthread_mutex_unlock(&slots_lock);
		return pid;
	}
	if (!pid) {
		for (;;) {
			fz_target_step((int)op->a[1], 20);
			if (fz_cov_collect)
				fz_cov_collect();
		}
	}
	t->tid = pid;
	t->is_thread = 0;
	pthread_mutex_unlock(&slots_lock);
	return pid;
}

/* a0 slot, a1 signal, a2 target kind */
void fz_gen_signal(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_below(rng, FZ_TGTS);
	op->a[1] = fz_below(rng, 6);
	op->a[2] = fz_below(rng, 4) ? FZ_TGT_SLOT : fz_below(rng, FZ_TGT_NR);
}

long fz_run_signal(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	static const int sigs[] = { SIGSTOP, SIGCONT, SIGKILL, SIGIO, SIGUSR1, SIGALRM };
	struct fz_target *t = &fz.tgt[op->a[0] % FZ_TGTS];
	int sig = sigs[op->a[1] % 6];
	pid_t tid = fz_tid(op->a[2], op->a[0]);

	(void)p, (void)idx;
	if (tid <= 0)
		return -ESRCH;
	/*
	 * Stopping or killing a thread stops or kills its whole process: those
	 * signals go to process slots only.  The others are caught everywhere.
	 */
	if (op->a[2] % FZ_TGT_NR == FZ_TGT_SLOT && t->tid && !t->is_thread)
		return fz_ret(kill(tid, sig));
	if (sig == SIGSTOP || sig == SIGCONT || sig == SIGKILL)
		sig = SIGUSR1;
	if (op->a[2] % FZ_TGT_NR == FZ_TGT_PARENT || op->a[2] % FZ_TGT_NR == FZ_TGT_KTHREAD)
		return fz_ret(kill(tid, 0));
	return fz_ret(syscall(SYS_tgkill, getpid(), tid, sig));
}

/* ---- nested: a child process, a concurrent thread ------------------------ */

/* a0 nested operations, a1 mode: 1 nobody, 2 wait, 4 exec after, a2 slot for its pid */
void fz_gen_child(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = 1 + fz_below(rng, 4);
	op->a[1] = fz_below(rng, 8);
	op->a[2] = fz_below(rng, FZ_TGTS);
}

long fz_run_child(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	int k = (int)(op->a[0] % FZ_PROG_MAX), execd[2] = { -1, -1 }, status;
	struct fz_target *t = &fz.tgt[op->a[2] % FZ_TGTS];
	pid_t pid;

	/* a child that execs a target never ends: its exec closes this pipe */
	if ((op->a[1] & 6) == 6 && pipe2(execd, O_CLOEXEC))
		execd[0] = execd[1] = -1;
	pid = fz_fork_task(op->a[1] & 1);
	if (!pid) {
		fz_prog_run(p, idx + 1, idx + 1 + k);
		if (op->a[1] & 4)
			execl(fz.self_exe, fz.self_exe, "--fz-target", "4", (char *)NULL);
		_exit(0);
	}
	status = pid < 0 ? -errno : 0;
	if (execd[1] >= 0)
		close(execd[1]);
	if (pid < 0) {
		if (execd[0] >= 0)
			close(execd[0]);
		return status;
	}
	if (!(op->a[1] & 2)) {
		pthread_mutex_lock(&slots_lock);
		target_end(t);
		t->tid = pid;
		t->is_thread = 0;
		pthread_mutex_unlock(&slots_lock);
		return pid;
	}
	status = fz_wait_or_kill(pid, op->a[1] & 4 ? 30 : 200, execd[0]);
	if (execd[0] >= 0)
		close(execd[0]);
	return status;
}

/* *end: ms milliseconds from now */
static void deadline(struct timespec *end, int ms)
{
	clock_gettime(CLOCK_MONOTONIC, end);
	end->tv_sec += ms / 1000;
	end->tv_nsec += (ms % 1000) * 1000000L;
	if (end->tv_nsec >= 1000000000L) {
		end->tv_sec++;
		end->tv_nsec -= 1000000000L;
	}
}

static long ms_left(const struct timespec *end)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (end->tv_sec - t.tv_sec) * 1000 + (end->tv_nsec - t.tv_nsec) / 1000000;
}

/*
 * Up to ms milliseconds for the child to finish (or, with done >= 0, for done
 * to read end of file: the child exec'd), then SIGKILL wherever it is: it must
 * die.  Its exit wakes the wait (a pidfd), so a child that ends at once costs
 * no more than its work.
 */
int fz_wait_or_kill(pid_t pid, int ms, int done)
{
	struct pollfd pfd[2];
	struct timespec end;
	int status, n = 0, i;
	char c;

	pfd[0] = (struct pollfd){ .fd = (int)syscall(SYS_pidfd_open, pid, 0), .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = done, .events = POLLIN };
	deadline(&end, ms);
	for (;;) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			goto out;
		if (n || ms_left(&end) <= 0)
			break;
		if (pfd[0].fd < 0) {
			/* no pidfd: a millisecond at a time */
			fz_workload(4, 1000);
			continue;
		}
		/* signals (SIGALRM, SIGIO) end a poll early: it goes on until the end */
		i = poll(pfd, done >= 0 ? 2 : 1, (int)ms_left(&end));
		if (i > 0 && pfd[1].revents && read(done, &c, 1) <= 0)
			n = 1;
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
out:
	if (pfd[0].fd >= 0)
		close(pfd[0].fd);
	return status;
}

int fz_async_live;

void fz_targets_end(void)
{
	struct fz_target *t;
	int i;

	pthread_mutex_lock(&slots_lock);
	/* all told first, then waited for: their exits overlap */
	for (i = 0; i < FZ_TGTS; i++) {
		t = &fz.tgt[i];
		if (!t->tid)
			continue;
		if (t->is_thread) {
			t->stop = 1;
			syscall(SYS_tgkill, getpid(), t->tid, SIGUSR1);
		} else {
			kill(t->tid, SIGKILL);
		}
	}
	for (i = 0; i < FZ_TGTS; i++)
		target_end(&fz.tgt[i]);
	pthread_mutex_unlock(&slots_lock);
}

struct async_arg {
	const struct fz_prog *p;
	int from, to;
};

static void *async_thread(void *arg)
{
	struct async_arg a = *(struct async_arg *)arg;

	free(arg);
	if (fz_cov_task_start)
		fz_cov_task_start();
	fz_prog_run(a.p, a.from, a.to);
	/* the executor waits for the count to reach 0 (fz_async_wait()) */
	if (__atomic_sub_fetch(&fz_async_live, 1, __ATOMIC_RELEASE) == 0)
		syscall(SYS_futex, &fz_async_live, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	return NULL;
}

int fz_async_wait(int ms)
{
	struct timespec end, ts;
	long left;
	int v;

	deadline(&end, ms);
	while ((v = __atomic_load_n(&fz_async_live, __ATOMIC_ACQUIRE)) > 0) {
		left = ms_left(&end);
		if (left <= 0)
			return -1;
		ts.tv_sec = left / 1000;
		ts.tv_nsec = (left % 1000) * 1000000L;
		syscall(SYS_futex, &fz_async_live, FUTEX_WAIT_PRIVATE, v, &ts, NULL, 0);
	}
	return 0;
}

/* a0 nested operations: a new thread runs them while the program goes on */
void fz_gen_async(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = 1 + fz_below(rng, 4);
}

long fz_run_async(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	struct async_arg *a = malloc(sizeof(*a));
	pthread_t th;

	if (!a)
		return -ENOMEM;
	a->p = p;
	a->from = idx + 1;
	a->to = idx + 1 + (int)(op->a[0] % FZ_PROG_MAX);
	__atomic_fetch_add(&fz_async_live, 1, __ATOMIC_RELAXED);
	if (pthread_create(&th, NULL, async_thread, a)) {
		__atomic_fetch_sub(&fz_async_live, 1, __ATOMIC_RELAXED);
		free(a);
		return -EAGAIN;
	}
	pthread_detach(th);
	return 0;
}

/* ---- CPUs, load ---------------------------------------------------------- */

/* a0 what: pin, unpin, offline, online; a1 CPU */
void fz_gen_cpu(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_below(rng, 8) ? fz_below(rng, 2) : 2 + fz_below(rng, 2);
	op->a[1] = fz_one_in(rng, 8) ? fz_below(rng, 64) : fz_below(rng, 2);
}

long fz_run_cpu(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	char path[96];
	cpu_set_t set;
	long r;
	int fd, cpu = (int)(op->a[1] % 64);

	(void)p, (void)idx;
	CPU_ZERO(&set);
	switch (op->a[0] % 4) {
	case 0:
		CPU_SET(cpu, &set);
		return fz_ret(sched_setaffinity(0, sizeof(set), &set));
	case 1:
		for (cpu = 0; cpu < 64; cpu++)
			CPU_SET(cpu, &set);
		return fz_ret(sched_setaffinity(0, sizeof(set), &set));
	}
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fz_mark_global(FZ_GLOBAL_CPUS);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = fz_ret(write(fd, op->a[0] % 4 == 2 ? "0" : "1", 1));
	close(fd);
	return r;
}

/* a0 kind (fz_workload), a1 amount */
void fz_gen_work(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_below(rng, 5);
	op->a[1] = fz_below(rng, 300);
}

long fz_run_work(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	(void)p, (void)idx;
	fz_workload((int)op->a[0], (long)(op->a[1] % 100000));
	return 0;
}
