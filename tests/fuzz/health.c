// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz: is the kernel still well after a program?
 *
 * - Every process of the program dies on SIGKILL (an unkillable process is a
 *   task stuck in the kernel: its stack goes to the log).
 * - Once they are gone, perfmon holds nothing: no context, session, hook or
 *   sampling buffer memory (the leak check of both doors; kmemleak adds its own
 *   on the debug kernel, and rmmod the module's).
 * - The kernel log has no report (the debug kernel panics first, on any; the
 *   stock kernel goes on, so the manager looks).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "health.h"

#define PFM_SYSFS	"/sys/kernel/perfmon/"
#define KNOBS_MAX	12

static char saved[KNOBS_MAX][64];
static int kmsg_fd = -1;

/* what must be 0 once a program's processes are gone */
static const char *const counts[] = {
	"contexts_count", "task_sessions_count", "sys_sessions_count",
	"task_hooks_count", "smpl_buffer_mem_cur",
};
#define NCOUNTS	(sizeof(counts) / sizeof(counts[0]))
/*
 * Opened once: read after every program, an open of each (a path walk, an
 * allocation) cost more than the reads.
 */
static int count_fd[NCOUNTS] = { -1, -1, -1, -1, -1 };
/* per count: the checks that found it above 0 at first, and the microseconds until 0 */
static unsigned long count_waits[NCOUNTS], count_wait_us[NCOUNTS];
/* what the last check found at first; where a long wait is noted (the log) */
static char first_left[256];
static FILE *log_waits;

int fz_file_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int file_write(const char *path, const char *s)
{
	ssize_t n;
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n < 0 ? -1 : 0;
}

void fz_check_init(FILE *log)
{
	char path[128];
	int i;

	for (i = 0; i < KNOBS_MAX && fz_knob_file(i); i++) {
		snprintf(path, sizeof(path), PFM_SYSFS "%s", fz_knob_file(i));
		if (fz_file_read(path, saved[i], sizeof(saved[i])))
			saved[i][0] = '\0';
	}
	for (i = 0; i < (int)NCOUNTS; i++) {
		snprintf(path, sizeof(path), PFM_SYSFS "%s", counts[i]);
		count_fd[i] = open(path, O_RDONLY | O_CLOEXEC);
	}
	log_waits = log;
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
}

/* the signal masks of a status file: pending, blocked, ignored, caught */
static void dump_sig_lines(const char *status, FILE *log)
{
	const char *l;

	for (l = status; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, "SigQ", 4) || !strncmp(l, "SigPnd", 6) ||
		    !strncmp(l, "ShdPnd", 6) || !strncmp(l, "SigBlk", 6) ||
		    !strncmp(l, "SigIgn", 6) || !strncmp(l, "SigCgt", 6))
			fprintf(log, "  %.*s\n", (int)strcspn(l, "\n"), l);
}

/*
 * The call a task is in (number, arguments, user stack and PC, from which
 * addr2line on the static binary names the caller) and, for a read, its file.
 */
static void dump_syscall(int pid, int tid, FILE *log)
{
	char path[96], buf[256], link[128];
	long nr, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", pid, tid);
	if (fz_file_read(path, buf, sizeof(buf)))
		return;
	buf[strcspn(buf, "\n")] = '\0';
	fprintf(log, "  syscall %s\n", buf);
	if (sscanf(buf, "%ld %lx", &nr, &fd) != 2 || (nr != SYS_read && nr != SYS_pread64))
		return;
	snprintf(path, sizeof(path), "/proc/%d/fd/%ld", pid, fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		fprintf(log, "  fd %ld %s\n", fd, link);
	}
}

int fz_group_each(pid_t pgid, void (*fn)(const struct fz_proc *p, void *arg), void *arg)
{
	struct fz_proc p;
	struct dirent *d;
	char path[64], buf[512], *r, *l;
	int n = 0, pg;
	DIR *proc = opendir("/proc");

	while (proc && (d = readdir(proc))) {
		p.pid = atoi(d->d_name);
		if (p.pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", p.pid);
		/* pid (comm) state ppid pgrp: comm may hold spaces, skip past the last ')' */
		if (fz_file_read(path, buf, sizeof(buf)) || !(r = strrchr(buf, ')')) ||
		    sscanf(r + 1, " %c %d %d", &p.state, &p.ppid, &pg) != 3 || pg != pgid)
			continue;
		*r = '\0';
		l = strchr(buf, '(');
		snprintf(p.comm, sizeof(p.comm), "%s", l ? l + 1 : "?");
		fn(&p, arg);
		n++;
	}
	if (proc)
		closedir(proc);
	return n;
}

struct dump_arg {
	FILE *log;
	long id;
	const char *tag, *what;
};

static void dump_proc(const struct fz_proc *p, void *arg)
{
	const struct dump_arg *a = arg;
	char path[96], buf[4096];
	struct dirent *t;
	DIR *tasks;
	char state;

	snprintf(path, sizeof(path), "/proc/%d/task", p->pid);
	tasks = opendir(path);
	while (tasks && (t = readdir(tasks))) {
		int tid = atoi(t->d_name);

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", p->pid, tid);
		if (fz_file_read(path, buf, sizeof(buf)) || !strrchr(buf, ')') ||
		    sscanf(strrchr(buf, ')') + 1, " %c", &state) != 1)
			continue;
		fprintf(a->log, "%s %ld %s: pid %d tid %d state %c\n", a->tag, a->id, a->what,
			p->pid, tid, state);
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stack", p->pid, tid);
		if (!fz_file_read(path, buf, sizeof(buf)))
			fprintf(a->log, "%s", buf);
		snprintf(path, sizeof(path), "/proc/%d/task/%d/wchan", p->pid, tid);
		if (!fz_file_read(path, buf, sizeof(buf)))
			fprintf(a->log, "  wchan %s\n", buf);
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", p->pid, tid);
		if (!fz_file_read(path, buf, sizeof(buf)))
			dump_sig_lines(buf, a->log);
		dump_syscall(p->pid, tid, a->log);
	}
	if (tasks)
		closedir(tasks);
	/* a thread that should have been woken: were its timers armed? */
	snprintf(path, sizeof(path), "/proc/%d/timers", p->pid);
	if (!fz_file_read(path, buf, sizeof(buf)) && *buf)
		fprintf(a->log, "  timers:\n%s", buf);
}

/*
 * What each thread of each process of the group is doing (state, kernel stack,
 * wait channel), to the log, under lines "<tag> <program> <what>: pid tid state".
 */
static void dump_tasks(pid_t pgid, FILE *log, long id, const char *tag, const char *what)
{
	struct dump_arg a = { .log = log, .id = id, .tag = tag, .what = what };

	fz_group_each(pgid, dump_proc, &a);
}

void fz_dump_timeout(pid_t pgid, FILE *log, long id)
{
	dump_tasks(pgid, log, id, "T", "timeout");
}

/* A stuck group: to the log, and (sysrq w) the blocked tasks to the kernel log. */
static void dump_group(pid_t pgid, FILE *log, long id)
{
	dump_tasks(pgid, log, id, "F", "unkillable");
	file_write("/proc/sys/kernel/sysrq", "1");
	file_write("/proc/sysrq-trigger", "w");
}

void fz_check_reap(void (*reaped)(pid_t pid, int status))
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG | __WALL)) > 0)
		if (reaped)
			reaped(pid, status);
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * Between polls: most waits are short (a task that must run once more, on the
 * other CPU or after us), so first 50 us, then 200 us, then 10 ms.  Asleep,
 * never a yield: a guest's CPUs share one host thread, and the other CPU runs
 * only once this one stops.
 */
static void poll_sleep(int k)
{
	usleep(k < 10 ? 50 : k < 60 ? 200 : 10000);
}

int fz_check_group_dies(pid_t pgid, FILE *log, long id)
{
	struct timespec t0;
	int i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; ms_since(&t0) < 30000; i++) {
		kill(-pgid, SIGKILL);
		fz_check_reap(NULL);
		if (kill(-pgid, 0) < 0 && errno == ESRCH)
			return 0;
		poll_sleep(i);
	}
	fprintf(log, "F %ld unkillable: processes of the program live 30 s after SIGKILL\n", id);
	dump_group(pgid, log, id);
	fflush(log);
	return -1;
}

void fz_check_restore(unsigned int marked)
{
	char path[128], buf[64];
	int i;

	/* a knob written may take time (limits recomputed): only those that changed */
	for (i = 0; i < KNOBS_MAX && fz_knob_file(i); i++) {
		if (!saved[i][0] || !(marked & (1U << i)))
			continue;
		snprintf(path, sizeof(path), PFM_SYSFS "%s", fz_knob_file(i));
		if (fz_file_read(path, buf, sizeof(buf)) || strcmp(buf, saved[i]))
			file_write(path, saved[i]);
	}
	/* CPUs are numbered from 0 without holes: the first missing one ends them */
	for (i = 1; i < 64 && (marked & (1U << FZ_GLOBAL_CPUS)); i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", i);
		if (fz_file_read(path, buf, sizeof(buf)))
			break;
		if (buf[0] == '0')
			file_write(path, "1");
	}
}

/* A count: read again through the fd opened once, else by its path. */
static int count_read(int i, char *buf, size_t len)
{
	char path[128];
	ssize_t n;

	if (count_fd[i] < 0) {
		snprintf(path, sizeof(path), PFM_SYSFS "%s", counts[i]);
		return fz_file_read(path, buf, len);
	}
	n = pread(count_fd[i], buf, len - 1, 0);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static long us_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000000 + (t.tv_nsec - t0->tv_nsec) / 1000;
}

int fz_check_nothing_left(FILE *log, long id, int wait_ms)
{
	char buf[32], what[256];
	struct timespec t0;
	unsigned int waited = 0;
	size_t i;
	int k, left;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* contexts go at the last close, hooks when their thread runs: allow wait_ms */
	for (k = 0; k == 0 || ms_since(&t0) <= wait_ms; k++) {
		left = 0;
		what[0] = '\0';
		for (i = 0; i < NCOUNTS; i++) {
			if (count_read(i, buf, sizeof(buf)) || atol(buf) == 0) {
				if (waited & (1U << i)) {
					waited &= ~(1U << i);
					count_wait_us[i] += us_since(&t0);
				}
				continue;
			}
			if (!k) {
				waited |= 1U << i;
				count_waits[i]++;
			}
			left = 1;
			buf[strcspn(buf, "\n")] = '\0';
			snprintf(what + strlen(what), sizeof(what) - strlen(what), " %s=%s",
				 counts[i], buf);
		}
		if (!k)
			snprintf(first_left, sizeof(first_left), "%s", what);
		if (!left) {
			if (k && log_waits && ms_since(&t0) >= 10)
				fprintf(log_waits, "# leftovers: %ld ms for%s\n", ms_since(&t0),
					first_left);
			return 0;
		}
		poll_sleep(k);
	}
	for (i = 0; i < NCOUNTS; i++)
		if (waited & (1U << i))
			count_wait_us[i] += us_since(&t0);
	if (!log) {
		if (log_waits)
			fprintf(log_waits, "# leftovers after %d ms:%s (at first:%s)\n", wait_ms,
				what, first_left);
		return -1;
	}
	fprintf(log, "F %ld leak: after every process of the program is gone:%s\n", id, what);
	fflush(log);
	return -1;
}

void fz_check_report(FILE *out)
{
	size_t i;

	for (i = 0; i < NCOUNTS; i++)
		if (count_waits[i])
			fprintf(out, "fuzz: leftovers waited for %-20s %6lu checks %8lu ms\n",
				counts[i], count_waits[i], count_wait_us[i] / 1000);
}

/* Keep in sync with PROBLEMS in scripts/guest/init. */
static const char *const problems[] = {
	"WARNING:", "BUG:", "kernel BUG at", "Oops", "general protection", "KASAN:",
	"UBSAN:", "unreferenced object", "possible circular locking",
	"possible recursive locking", "inconsistent lock state", "blocked for more than",
	"Call Trace", "Kernel panic",
};

int fz_check_kmsg(FILE *log, long id)
{
	char rec[2048];
	ssize_t n;
	size_t i;
	int bad = 0;

	if (kmsg_fd < 0)
		return 0;
	for (;;) {
		n = read(kmsg_fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: read on */
		if (n <= 0)
			break;
		rec[n] = '\0';
		for (i = 0; i < sizeof(problems) / sizeof(problems[0]); i++) {
			if (strstr(rec, problems[i])) {
				fprintf(log, "F %ld kernel: %s", id, strchr(rec, ';') ? strchr(rec, ';') + 1 : rec);
				bad = 1;
				break;
			}
		}
	}
	fflush(log);
	return bad ? -1 : 0;
}
