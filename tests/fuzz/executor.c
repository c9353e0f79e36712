// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz: the executor, one process that runs program after program.
 *
 * Forking a process per program costs more than most programs: the executor
 * stays, and after each program puts itself back as it was (fz_exec_clean()):
 * the async threads done, the threads and processes of the slots ended, every
 * fd and file mapping the program made closed, the CPU mask whole.  What it
 * cannot put back retires it: a thread or child left, an fd it started with
 * gone.  (Operations that would leave state in the process, the library's
 * pmc and perf_counter calls, run in a child of their own.)  The manager then kills its process group, checks that every
 * process of it dies, and forks the next executor.
 *
 * The manager writes the program into shared memory and a byte into the "go"
 * pipe; the executor answers on the "done" pipe, FZ_DONE_KEPT or
 * FZ_DONE_RETIRED.  Its death (a fault, a signal) shows on a pidfd.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "executor.h"
#include "health.h"
#include "kcov.h"

#define FD_KEEP_MAX	32
#define MAP_KEEP_MAX	128
/* the async threads of a program get this long to end after it */
#define ASYNC_WAIT_MS	2000

/* the steps of fz_exec_clean(), timed apart */
enum { PB_ASYNC, PB_TARGETS, PB_TASKS, PB_FDS, PB_MAPS, PB_NR };
static const char *const pb_names[PB_NR] = { "async", "targets", "tasks", "fds", "maps" };

struct fz_shm {
	struct fz_prog prog;
	unsigned long putback_us[PB_NR];	/* the executors' time in fz_exec_clean() */
	unsigned long maps_listed;		/* programs after which the maps were listed */
};

/* the executors, as the manager sees them */
static struct fz_exec {
	pid_t pid;
	int status;		/* how it ended, once known (a wait status); -1 if not */
	int pidfd, go_w, done_r;
	int busy;		/* a program runs in it */
	int refused;		/* it could not be given the program: dead */
	struct timespec t0;	/* when that program was handed to it */
} ex[FZ_PROCS_MAX] = {
	[0 ... FZ_PROCS_MAX - 1] = { .status = -1, .pidfd = -1, .go_w = -1, .done_r = -1 },
};
/* one each, carved once from the memory shared with the executors */
static struct fz_shm *shms;
/* in an executor: its own */
static struct fz_shm *shm;
/* how many executors run side by side */
static int exec_procs = 1;

/* in the executor: what it started with */
static struct {
	int fd;
	dev_t dev;
	ino_t ino;
} keep_fd[FD_KEEP_MAX];
static int nkeep_fd;
static unsigned long keep_map[MAP_KEEP_MAX];
static int nkeep_map;
/* the process's size when its mappings were last listed */
static long listed_pages = -1;
/* /sys/kernel/perfmon/contexts_count, opened once */
static int ctx_count_fd = -1;

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* the time since *t goes to put-back step 'step'; *t is now */
static void pb_step(int step, struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	shm->putback_us[step] += (now.tv_sec - t->tv_sec) * 1000000 +
				 (now.tv_nsec - t->tv_nsec) / 1000;
	*t = now;
}

static int fd_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void keep_fds(void)
{
	struct dirent *d;
	struct stat st;
	DIR *dir = opendir("/proc/self/fd");
	int fd;

	nkeep_fd = 0;
	while (dir && (d = readdir(dir))) {
		fd = atoi(d->d_name);
		if (d->d_name[0] < '0' || d->d_name[0] > '9' || fd == dirfd(dir) ||
		    nkeep_fd == FD_KEEP_MAX || fstat(fd, &st))
			continue;
		keep_fd[nkeep_fd].fd = fd;
		keep_fd[nkeep_fd].dev = st.st_dev;
		keep_fd[nkeep_fd].ino = st.st_ino;
		nkeep_fd++;
	}
	if (dir)
		closedir(dir);
	qsort(keep_fd, nkeep_fd, sizeof(keep_fd[0]), fd_cmp);
}

static int fd_kept(int fd)
{
	int i;

	for (i = 0; i < nkeep_fd; i++)
		if (keep_fd[i].fd == fd)
			return 1;
	return 0;
}

/* the fds not kept closed by the list of /proc/self/fd: where close_range() is missing */
static int close_listed(void)
{
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	int fd;

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		fd = atoi(d->d_name);
		if (d->d_name[0] >= '0' && d->d_name[0] <= '9' && fd != dirfd(dir) &&
		    !fd_kept(fd))
			close(fd);
	}
	closedir(dir);
	return 0;
}

/*
 * Closes every fd the executor did not start with; -1 if one of those changed.
 * The ranges between the ones kept (sorted) go in one call each, with no
 * listing of /proc/self/fd.
 */
static int clean_fds(void)
{
	struct stat st;
	unsigned int from = 0;
	int i, bad = 0;

	for (i = 0; i < nkeep_fd && !bad; i++) {
		if ((unsigned int)keep_fd[i].fd > from &&
		    syscall(SYS_close_range, from, keep_fd[i].fd - 1, 0))
			bad = -1;
		from = keep_fd[i].fd + 1;
	}
	if (bad || syscall(SYS_close_range, from, ~0U, 0))
		bad = close_listed();
	for (i = 0; i < nkeep_fd; i++)
		if (fstat(keep_fd[i].fd, &st) || st.st_dev != keep_fd[i].dev ||
		    st.st_ino != keep_fd[i].ino)
			bad = -1;
	return bad;
}

/*
 * The file mappings of the process, by start address; with keep != 0 they are
 * recorded, else the ones not recorded are unmapped (rings, sampling buffers,
 * counts pages a program left mapped; their files would outlive the program).
 */
static void file_maps(int keep)
{
	char line[512], path[256];
	unsigned long a, b;
	FILE *f = fopen("/proc/self/maps", "re");
	int i, known;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		path[0] = '\0';
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %255s", &a, &b, path) < 2 ||
		    !path[0] || path[0] == '[')
			continue;
		if (keep) {
			if (nkeep_map < MAP_KEEP_MAX)
				keep_map[nkeep_map++] = a;
			continue;
		}
		for (known = 0, i = 0; i < nkeep_map && !known; i++)
			known = keep_map[i] == a;
		if (!known)
			munmap((void *)a, b - a);
	}
	fclose(f);
}

/* the pages the process maps, all kinds (statm's first field); -1 if unknown */
static long vm_pages(void)
{
	char buf[128];

	return fz_file_read("/proc/self/statm", buf, sizeof(buf)) ? -1 : atol(buf);
}

/* 1 if perfmon counts a context anywhere (the executor's fds are closed by now) */
static int contexts_counted(void)
{
	char buf[32];
	ssize_t n;

	if (ctx_count_fd < 0)
		return 1;
	n = pread(ctx_count_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 1;
	buf[n] = '\0';
	return atol(buf) != 0;
}

/*
 * The file mappings a program left, unmapped.  Listing them costs more than
 * many operations (a seq_file walk of every mapping, each path formatted), so
 * the mappings the operations made in the window of fz_map_hint() go with one
 * munmap(), and the process is listed only when its size moved since the last
 * listing (a mapping placed elsewhere, moved by mremap(), or a library's) or,
 * its fds closed, a context is still counted: a mapping of one (a buffer, a
 * ring, a counts page) holds it, whatever the size says (another mapping may
 * have shrunk as much).  Beside other executors the count is theirs too: the
 * manager's check once none runs finds such a context, and retires them.
 */
static void clean_maps(void)
{
	long pages;

	fz_map_window_clear();
	pages = vm_pages();

	if (pages >= 0 && pages == listed_pages && (exec_procs > 1 || !contexts_counted()))
		return;
	shm->maps_listed++;
	file_maps(0);
	listed_pages = vm_pages();
}

/* 1 while a child of the executor lives (the zombies are reaped) */
static int children_left(void)
{
	int status;
	pid_t w;

	while ((w = waitpid(-1, &status, WNOHANG | __WALL)) > 0)
		;
	return w == 0;
}

/* the threads of this process, from /proc/self/stat (cheaper than status) */
static int threads_counted(void)
{
	char buf[1024], *t;
	int i;

	if (fz_file_read("/proc/self/stat", buf, sizeof(buf)))
		return -1;
	/* pid (comm) state ... num_threads is the 20th field, the 18th after ')' */
	t = strrchr(buf, ')');
	for (i = 0; t && i < 18; i++)
		t = strchr(t + 1, ' ');
	return t ? atoi(t + 1) : -1;
}

/*
 * 1 while a thread other than this one is counted: a joined thread is still
 * counted until it has done exiting, a little after join returns.  It needs
 * the CPU to get there, maybe the other one: this one sleeps (a yield would
 * spin while a guest's CPUs, one host thread, run the other only when this
 * one stops), 100 ms at most.
 */
static int threads_left(void)
{
	struct timespec t0;
	int k;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 0; ms_since(&t0) < 100; k++) {
		if (threads_counted() == 1)
			return 0;
		usleep(k < 20 ? 50 : 200);
	}
	return 1;
}

/*
 * After a program: the executor as it started (FZ_DONE_KEPT), or why it cannot
 * be (FZ_DONE_*).
 */
static char fz_exec_clean(void)
{
	struct timespec t;
	cpu_set_t all;
	int i;
	char why = FZ_DONE_KEPT;

	clock_gettime(CLOCK_MONOTONIC, &t);
	if (fz_async_wait(ASYNC_WAIT_MS))
		return FZ_DONE_ASYNC;
	fz_alarm_stop();
	pb_step(PB_ASYNC, &t);
	fz_targets_end();
	pb_step(PB_TARGETS, &t);
	/* a thread or child nobody waits for may still use what is closed next */
	if (children_left())
		return FZ_DONE_CHILD;
	if (threads_left())
		return FZ_DONE_THREAD;
	pb_step(PB_TASKS, &t);
	for (i = 0; i < FZ_MAPS; i++)
		fz_map_set(&fz.map[i], NULL, 0);
	if (clean_fds())
		why = FZ_DONE_FDS;
	pb_step(PB_FDS, &t);
	clean_maps();
	CPU_ZERO(&all);
	for (i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &all);
	sched_setaffinity(0, sizeof(all), &all);
	pb_step(PB_MAPS, &t);
	return why;
}

static void __attribute__((noreturn)) exec_loop(int e, int go, int done, int verbose, int fresh)
{
	struct fz_prog p;
	long runs = 0;
	char c;

	setpgid(0, 0);
	shm = &shms[e];
	fz_kcov_slot(e);
	fz_state_init("/proc/self/exe", getppid());
	fz.verbose = verbose;
	if (fz_cov_task_start)
		fz_cov_task_start();
	/* the fds opened once per process, before the ones a program opens */
	fz_devfd();
	fz_sysbase();
	ctx_count_fd = open("/sys/kernel/perfmon/contexts_count", O_RDONLY | O_CLOEXEC);
	keep_fds();
	file_maps(1);
	listed_pages = vm_pages();
	while (read(go, &c, 1) == 1) {
		p = shm->prog;
		fz_state_reset();
		fz_prog_run(&p, 0, p.n);
		c = fresh ? FZ_DONE_FRESH : fz_exec_clean();
		if (c == FZ_DONE_KEPT && ++runs >= FZ_EXEC_RUNS_MAX)
			c = FZ_DONE_RUNS;
		if (write(done, &c, 1) != 1 || c != FZ_DONE_KEPT)
			break;
	}
	_exit(0);
}

/* the manager's ends of an executor's pipes and its pidfd */
static void exec_close(struct fz_exec *x)
{
	if (x->go_w >= 0)
		close(x->go_w);
	if (x->done_r >= 0)
		close(x->done_r);
	if (x->pidfd >= 0)
		close(x->pidfd);
	x->go_w = x->done_r = x->pidfd = -1;
}

static int exec_start(int e, int verbose, int fresh)
{
	struct fz_exec *x = &ex[e];
	int gp[2], dp[2], i;
	pid_t pid;

	if (!shms) {
		shms = fz_shared(FZ_PROCS_MAX * sizeof(*shms));
		if (shms == MAP_FAILED) {
			shms = NULL;
			return -1;
		}
	}
	if (fz_pipe_pair(gp, dp))
		return -1;
	pid = fork();
	if (!pid) {
		close(gp[1]);
		close(dp[0]);
		/* the other executors' pipes are the manager's alone */
		for (i = 0; i < FZ_PROCS_MAX; i++)
			exec_close(&ex[i]);
		exec_loop(e, gp[0], dp[1], verbose, fresh);
	}
	if (fz_pipe_parent(pid, gp, dp))
		return -1;
	setpgid(pid, pid);
	x->pid = pid;
	x->status = -1;
	x->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	x->go_w = gp[1];
	x->done_r = dp[0];
	return 0;
}

void fz_exec_procs(int n)
{
	exec_procs = n;
}

void fz_exec_forget(int e)
{
	exec_close(&ex[e]);
	ex[e].pid = 0;
	ex[e].busy = 0;
}

pid_t fz_exec_pid(int e)
{
	return ex[e].pid;
}

int fz_exec_busy(int e)
{
	return ex[e].busy;
}

const char *fz_exec_putback(int step, unsigned long *ms)
{
	unsigned long us = 0;
	int i, e;

	if (step >= PB_NR)
		return NULL;
	for (e = 0; shms && e < FZ_PROCS_MAX; e++)
		for (i = 0; i < PB_NR; i++)
			if (step < 0 || step == i)
				us += shms[e].putback_us[i];
	*ms = us / 1000;
	return step < 0 ? "put-back" : pb_names[step];
}

unsigned long fz_exec_maps_listed(void)
{
	unsigned long n = 0;
	int e;

	for (e = 0; shms && e < FZ_PROCS_MAX; e++)
		n += shms[e].maps_listed;
	return n;
}

int fz_exec_status(int e)
{
	int st = ex[e].status;

	ex[e].status = -1;
	return st;
}

int fz_exec_give(int e, const struct fz_prog *p, int verbose, int fresh)
{
	struct fz_exec *x = &ex[e];
	char c = 'g';

	if (!x->pid && exec_start(e, verbose, fresh))
		return FZ_EXEC_FAILED;
	shms[e].prog = *p;
	x->busy = 1;
	clock_gettime(CLOCK_MONOTONIC, &x->t0);
	/* an executor that cannot take it is dead: fz_exec_wait() says so */
	x->refused = write(x->go_w, &c, 1) != 1;
	return 0;
}

/* 1 if the line names one of perfmon's files (a context's or a perf event's) */
static int perfmon_file(const char *s)
{
	return strstr(s, "[pfmfd]") || strstr(s, "[perf_event]");
}

/* 1 if process pid maps or has open a file of perfmon's; each one logged */
static int pid_holds(int e, pid_t pid, FILE *log)
{
	char path[64], line[512], link[128];
	struct dirent *d;
	int held = 0;
	ssize_t n;
	FILE *f;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (!perfmon_file(line))
			continue;
		held = 1;
		fprintf(log, "# held by executor %d (pid %d): a mapping %s", e, pid, line);
	}
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		snprintf(line, sizeof(line), "%s/%s", path, d->d_name);
		n = readlink(line, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (!perfmon_file(link))
			continue;
		held = 1;
		fprintf(log, "# held by executor %d (pid %d): fd %s %s\n", e, pid, d->d_name, link);
	}
	if (dir)
		closedir(dir);
	return held;
}

/*
 * What executor e's process group holds once its program is done: its own
 * perfmon files, and any other process still in the group, a zombie aside
 * (a task a context is loaded on holds it without a file; an orphan
 * reparented to the manager keeps the group).
 */
struct holds_arg {
	int e;
	FILE *log;
	int held;
};

static void proc_holds(const struct fz_proc *p, void *arg)
{
	struct holds_arg *a = arg;

	if (p->pid == ex[a->e].pid || p->state == 'Z')
		return;
	fprintf(a->log, "# held by executor %d: its group's pid %d (%s) ppid %d state %c\n", a->e,
		p->pid, p->comm, p->ppid, p->state);
	pid_holds(a->e, p->pid, a->log);
	a->held = 1;
}

int fz_exec_holds(int e, FILE *log)
{
	struct holds_arg a = { .e = e, .log = log };

	if (!ex[e].pid)
		return 0;
	a.held = pid_holds(e, ex[e].pid, log);
	fz_group_each(ex[e].pid, proc_holds, &a);
	return a.held;
}

void fz_exec_reaped(pid_t pid, int status)
{
	int i;

	for (i = 0; i < FZ_PROCS_MAX; i++)
		if (ex[i].pid == pid)
			ex[i].status = status;
}

/* what executor e's readable fd (its done pipe or its pidfd) says */
static int exec_answer(int e, int fd, char *why)
{
	struct fz_exec *x = &ex[e];
	char c;

	x->busy = 0;
	if (fd == x->done_r) {
		if (read(x->done_r, &c, 1) != 1)
			return FZ_EXEC_RETIRED;
		*why = c;
		return c == FZ_DONE_KEPT ? FZ_EXEC_KEPT : FZ_EXEC_RETIRED;
	}
	/* its status is known already if the manager's fz_check_reap() came first */
	waitpid(x->pid, &x->status, WNOHANG | __WALL);
	return FZ_EXEC_RETIRED;
}

int fz_exec_wait(int timeout_s, int *e, char *why)
{
	struct pollfd pfd[2 * FZ_PROCS_MAX];
	int at[2 * FZ_PROCS_MAX], n, i, k;
	long left, wait;

	*why = FZ_DONE_DIED;
	for (;;) {
		n = 0;
		wait = -1;
		for (i = 0; i < FZ_PROCS_MAX; i++) {
			if (!ex[i].busy)
				continue;
			if (ex[i].refused) {
				ex[i].busy = 0;
				*e = i;
				return FZ_EXEC_RETIRED;
			}
			left = timeout_s * 1000L - ms_since(&ex[i].t0);
			if (left < 0)
				left = 0;
			if (wait < 0 || left < wait)
				wait = left;
			/* the answer before the death: one that answered, then exited, retired */
			pfd[n] = (struct pollfd){ .fd = ex[i].done_r, .events = POLLIN };
			at[n++] = i;
			if (ex[i].pidfd >= 0) {
				pfd[n] = (struct pollfd){ .fd = ex[i].pidfd, .events = POLLIN };
				at[n++] = i;
			}
		}
		if (!n)
			return -1;
		if (poll(pfd, n, (int)wait) < 0 && errno != EINTR) {
			*e = at[0];
			ex[at[0]].busy = 0;
			return FZ_EXEC_RETIRED;
		}
		for (k = 0; k < n; k++) {
			if (pfd[k].revents) {
				*e = at[k];
				return exec_answer(at[k], pfd[k].fd, why);
			}
		}
		/* only one that has not answered has timed out */
		for (i = 0; i < FZ_PROCS_MAX; i++) {
			if (ex[i].busy && ms_since(&ex[i].t0) >= timeout_s * 1000L) {
				ex[i].busy = 0;
				*e = i;
				return FZ_EXEC_TIMEOUT;
			}
		}
	}
}
