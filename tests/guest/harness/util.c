// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the guest test suites.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

TCase *pfm_tcase(const char *name)
{
	TCase *tc = tcase_create(name);

	/* QEMU without KVM runs 100000 system calls in seconds, not ms */
	tcase_set_timeout(tc, 120);
	return tc;
}

pid_t self_tid(void)
{
	return gettid();
}

pid_t unused_tid(void)
{
	char path[64];
	pid_t tid;

	/* /proc/<tid> exists for every thread, listed or not */
	for (tid = 999999; tid > 1; tid--) {
		snprintf(path, sizeof(path), "/proc/%d", tid);
		if (access(path, F_OK) && errno == ENOENT)
			return tid;
	}
	ck_abort_msg("no unused thread id");
	return -1;
}

void pmc_init(struct pfarg_pmc *pc, unsigned int num, uint64_t value)
{
	memset(pc, 0, sizeof(*pc));
	pc->reg_num = num;
	pc->reg_value = value;
}

void pmd_init(struct pfarg_pmd *pd, unsigned int num, uint64_t value)
{
	memset(pd, 0, sizeof(*pd));
	pd->reg_num = num;
	pd->reg_value = value;
}

int ck_ctx_create(void)
{
	int fd = pfm_create_context(0);

	ck_assert_msg(fd >= 0, "pfm_create_context(0): %s", strerror(errno));
	return fd;
}

void ck_write_pmc(int fd, unsigned int num, uint64_t value)
{
	struct pfarg_pmc pc;

	pmc_init(&pc, num, value);
	ck_assert_msg(!pfm_write_pmcs(fd, &pc, sizeof(pc)),
		      "pfm_write_pmcs(PMC%u = %#llx): %s", num,
		      (unsigned long long)value, strerror(errno));
}

void ck_write_pmd(int fd, unsigned int num, uint64_t value)
{
	struct pfarg_pmd pd;

	pmd_init(&pd, num, value);
	ck_assert_msg(!pfm_write_pmds(fd, &pd, sizeof(pd)),
		      "pfm_write_pmds(PMD%u = %#llx): %s", num,
		      (unsigned long long)value, strerror(errno));
}

uint64_t ck_read_pmd(int fd, unsigned int num)
{
	struct pfarg_pmd pd;

	pmd_init(&pd, num, 0);
	ck_assert_msg(!pfm_read_pmds(fd, &pd, sizeof(pd)),
		      "pfm_read_pmds(PMD%u): %s", num, strerror(errno));
	return pd.reg_value;
}

void ck_counter(int fd, int i, int event)
{
	ck_write_pmc(fd, SW_PMC(i), PFM_SW_PMC(event));
	ck_write_pmd(fd, SW_PMD(i), 0);
}

void ck_load_self(int fd)
{
	ck_assert_msg(!pfm_load_context(fd, 0, self_tid()),
		      "pfm_load_context(self): %s", strerror(errno));
}

void do_getppid(long n)
{
	long i;

	/* syscall(), not getppid(): a libc might answer from a cache */
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

uint64_t spin_until(uint64_t until)
{
	volatile unsigned long x = 0;
	uint64_t now;
	int i;

	do {
		for (i = 0; i < 10000; i++)
			x++;
		now = thread_cpu_ns();
	} while (now < until);
	return now;
}

long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

const struct pfm_counts_page *ck_map_counts(int fd)
{
	const struct pfm_counts_page *pg = pfm_mmap_counts(fd);

	ck_assert_msg(pg != NULL, "pfm_mmap_counts: %s", strerror(errno));
	ck_assert_uint_eq(pg->version, PFM_COUNTS_PAGE_VERSION);
	return pg;
}

char *ck_fresh_pages(long n)
{
	char *p;

	p = mmap(NULL, n * page_size(), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_msg(p != MAP_FAILED, "mmap: %s", strerror(errno));
	/* a huge page would serve 512 first touches with one fault */
	ck_assert_ok(madvise(p, n * page_size(), MADV_NOHUGEPAGE));
	return p;
}

void touch_pages(char *p, long n)
{
	volatile char *v = p;
	long psz = page_size();
	long i;

	/* a write, so that each page gets its own frame (one fault each) */
	for (i = 0; i < n; i++)
		v[i * psz] = 1;
}

int sysfs_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n < 0) {
		errno = err;
		return -1;
	}
	buf[n] = '\0';
	return 0;
}

int sysfs_write(const char *path, const char *s)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	err = errno;
	close(fd);
	if (n < 0) {
		errno = err;
		return -1;
	}
	return 0;
}

long ck_sysfs_read_long(const char *path)
{
	char buf[64], *end;
	long v;

	ck_assert_msg(!sysfs_read(path, buf, sizeof(buf)), "read %s: %s",
		      path, strerror(errno));
	v = strtol(buf, &end, 0);
	ck_assert_msg(end != buf && (!*end || *end == '\n'),
		      "%s: not a number: '%s'", path, buf);
	return v;
}

void knob_save(struct knob *k)
{
	if (sysfs_read(k->path, k->saved, sizeof(k->saved)))
		k->saved[0] = '\0';
}

void knob_restore(const struct knob *k)
{
	if (k->saved[0] && sysfs_write(k->path, k->saved))
		fprintf(stderr, "pfm_tests: cannot restore %s to %s", k->path, k->saved);
}

static struct knob arg_mem_max_knob = { .path = PFM_ARG_MEM_MAX };

void arg_mem_max_save(void)
{
	knob_save(&arg_mem_max_knob);
}

void arg_mem_max_restore(void)
{
	knob_restore(&arg_mem_max_knob);
}

static int pin_to(int cpu)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	if (cpu >= 0) {
		CPU_SET(cpu, &set);
	} else {
		for (i = 0; i < CPU_SETSIZE; i++)
			CPU_SET(i, &set);
	}
	return sched_setaffinity(0, sizeof(set), &set);
}

void ck_pin(int cpu)
{
	ck_assert_msg(!pin_to(cpu), "sched_setaffinity(cpu %d): %s", cpu,
		      strerror(errno));
}

int possible_cpus(void)
{
	char buf[64], *p;

	/* "0-1", "0", "0-3,5": the last number is the highest CPU */
	ck_assert_msg(!sysfs_read("/sys/devices/system/cpu/possible", buf,
				  sizeof(buf)), "read possible CPUs: %s",
		      strerror(errno));
	buf[strcspn(buf, "\n")] = '\0';
	p = buf + strlen(buf);
	while (p > buf && p[-1] >= '0' && p[-1] <= '9')
		p--;
	ck_assert_msg(*p, "possible CPUs: '%s'", buf);
	return atoi(p) + 1;
}

/* 1 if thread tid is blocked in system call nr (with first argument a0 if >= 0). */
static int in_syscall(pid_t tid, long nr, long a0)
{
	char path[64], buf[256];
	unsigned long arg;
	long n;

	/*
	 * /proc/<tid>/syscall names the system call a blocked thread is in
	 * ("running" while it runs): "nr 0xarg0 ...".
	 */
	snprintf(path, sizeof(path), "/proc/%d/syscall", tid);
	if (sysfs_read(path, buf, sizeof(buf)))
		return -1;
	return sscanf(buf, "%ld 0x%lx", &n, &arg) == 2 && n == nr &&
	       (a0 < 0 || arg == (unsigned long)a0);
}

int in_read(pid_t tid, int fd)
{
	return in_syscall(tid, SYS_read, fd);
}

static int wait_in_syscall(pid_t tid, long nr, long a0)
{
	int i, r;

	for (i = 0; i < 20000; i++) {
		r = in_syscall(tid, nr, a0);
		if (r)
			return r > 0 ? 0 : -1;
		usleep(1000);
	}
	errno = ETIMEDOUT;
	return -1;
}

int wait_blocked_read(pid_t tid, int fd)
{
	return wait_in_syscall(tid, SYS_read, fd);
}

int wait_paused(pid_t tid)
{
	return wait_in_syscall(tid, SYS_pause, -1);
}

int wait_stopped(pid_t pid)
{
	char path[64], buf[512], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (i = 0; i < 20000; i++) {
		/* "pid (comm) S ...": the state follows the last ')' */
		if (sysfs_read(path, buf, sizeof(buf)))
			return -1;
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'T')
			return 0;
		usleep(1000);
	}
	errno = ETIMEDOUT;
	return -1;
}

int wait_pid_timeout(pid_t pid, int timeout_ms)
{
	int status, i;
	pid_t r;

	for (i = 0; i < timeout_ms; i++) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r < 0)
			return -1;
		usleep(1000);
	}
	errno = ETIMEDOUT;
	return -1;
}

static void kid_close(struct kid *k)
{
	int i, j;

	for (i = 0; i < 2; i++) {
		for (j = 0; j < 2; j++) {
			if (k->cmd[i][j] >= 0)
				close(k->cmd[i][j]);
			k->cmd[i][j] = -1;
		}
	}
	k->pid = -1;
}

/* KID_PAUSE's wake-up call: it only ends the pause(). */
static void kid_on_usr1(int sig)
{
	(void)sig;
}

static void __attribute__((noreturn)) kid_main(struct kid *k)
{
	unsigned int lo, hi;
	sigset_t usr1;
	long n;

	/*
	 * Hold nothing but the read ends of the order pipes: an inherited
	 * context fd would keep the context open after the test closes it.
	 */
	lo = k->cmd[0][0] < k->cmd[1][0] ? k->cmd[0][0] : k->cmd[1][0];
	hi = k->cmd[0][0] ^ k->cmd[1][0] ^ lo;
	if ((lo > 3 && close_range(3, lo - 1, 0)) ||
	    (hi > lo + 1 && close_range(lo + 1, hi - 1, 0)) ||
	    close_range(hi + 1, ~0U, 0))
		_exit(119);

	if (k->uid) {
		if (setgroups(0, NULL) || setresgid(k->gid, k->gid, k->gid) ||
		    setresuid(k->uid, k->uid, k->uid))
			_exit(120);
		/*
		 * A change of user makes the process undumpable, which would
		 * refuse it to every tracer of that same user: undo that.
		 */
		if (prctl(PR_SET_DUMPABLE, 1))
			_exit(121);
	}
	/* After the change of user, which clears it. */
	if (!k->no_pdeath)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (k->cpu >= 0 && pin_to(k->cpu))
		_exit(122);
	/* caught, and let through whatever mask the kid was forked with */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (signal(SIGUSR1, kid_on_usr1) == SIG_ERR || sigprocmask(SIG_UNBLOCK, &usr1, NULL))
		_exit(124);
	for (;;) {
		if (read(k->cmd[k->turn][0], &n, sizeof(n)) != sizeof(n))
			_exit(123);
		k->turn ^= 1;
		if (n == KID_SPIN) {
			for (;;)
				__asm__ volatile("" ::: "memory");
		}
		if (n == KID_PAUSE) {
			pause();
			continue;
		}
		if (n < 0) {
			do_getppid(-n - 1);
			_exit(0);
		}
		do_getppid(n);
	}
}

int kid_pipes(struct kid *k)
{
	int i;

	memset(k->cmd, 0xff, sizeof(k->cmd));
	k->turn = 0;
	for (i = 0; i < 2; i++)
		if (pipe2(k->cmd[i], O_CLOEXEC))
			return -1;
	return 0;
}

int kid_spawn(struct kid *k)
{
	k->pid = fork();
	if (k->pid < 0)
		return -1;
	if (!k->pid)
		kid_main(k);
	return wait_blocked_read(k->pid, k->cmd[k->turn][0]);
}

int kid_start(struct kid *k)
{
	if (kid_pipes(k))
		return -1;
	return kid_spawn(k);
}

int kid_order(struct kid *k, long n)
{
	ssize_t r = write(k->cmd[k->turn][1], &n, sizeof(n));

	k->turn ^= 1;
	return r == sizeof(n) ? 0 : -1;
}

int kid_run(struct kid *k, long n)
{
	if (kid_order(k, n))
		return -1;
	return wait_blocked_read(k->pid, k->cmd[k->turn][0]);
}

int kid_run_exit(struct kid *k, long n)
{
	int status;

	if (kid_order(k, -n - 1))
		return -1;
	if (waitpid(k->pid, &status, 0) != k->pid)
		return -1;
	kid_close(k);
	return status;
}

void kid_kill(struct kid *k)
{
	if (k->pid > 0) {
		kill(k->pid, SIGKILL);
		waitpid(k->pid, NULL, 0);
	}
	kid_close(k);
}

void ck_kid_start(struct kid *k)
{
	ck_assert_msg(!kid_start(k), "starting a child: %s", strerror(errno));
}

void ck_kid_run(struct kid *k, long n)
{
	ck_assert_msg(!kid_run(k, n), "child %d, %ld getppid: %s", k->pid, n,
		      strerror(errno));
}

void ck_kid_run_exit(struct kid *k, long n)
{
	pid_t pid = k->pid;
	int status = kid_run_exit(k, n);

	ck_assert_msg(status == 0, "child %d, %ld getppid and exit: status %#x (%s)",
		      pid, n, status, status < 0 ? strerror(errno) : "wait status");
}

static char *report;

void child_report_init(void)
{
	if (!report) {
		report = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		ck_assert_msg(report != MAP_FAILED, "mmap: %s", strerror(errno));
	}
	report[0] = '\0';
}

const char *child_report(void)
{
	return report && report[0] ? report : "(no report)";
}

void child_fail(const char *fmt, ...)
{
	va_list ap;

	if (report) {
		va_start(ap, fmt);
		vsnprintf(report, 4096, fmt, ap);
		va_end(ap);
	}
	_exit(1);
}

void ck_child_status(int status, const char *who)
{
	ck_assert_msg(status != -1, "%s: wait: %s", who, strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
		ck_abort_msg("%s: %s", who, child_report());
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "%s: wait status %#x", who, status);
}

void ck_child(const char *who, void (*fn)(void *arg), void *arg)
{
	int status;
	pid_t pid;

	child_report_init();
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		fn(arg);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_child_status(status, who);
}

int ck_sys_ctx(int event)
{
	int fd = pfm_create_context(PFM_FL_SYSTEM_WIDE);

	ck_assert_msg(fd >= 0, "pfm_create_context(PFM_FL_SYSTEM_WIDE): %s",
		      strerror(errno));
	ck_counter(fd, 0, event);
	return fd;
}

void ck_load(int fd, pid_t tid)
{
	ck_assert_msg(!pfm_load_context(fd, 0, tid), "pfm_load_context(%d): %s",
		      tid, strerror(errno));
}

int syscall_ctx(void)
{
	int fd = ck_ctx_create();

	ck_counter(fd, 0, PFM_SW_EV_SYSCALLS);
	return fd;
}

uint64_t count(int fd)
{
	return ck_read_pmd(fd, SW_PMD(0));
}

long tracefs_syscall_id(const char *ev)
{
	return tracefs_event_id("syscalls", ev);
}

long tracefs_event_id(const char *system, const char *ev)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[256], buf[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", roots[i], system, ev);
		if (!sysfs_read(path, buf, sizeof(buf)))
			return atol(buf);
	}
	return -1;
}

int child_syscall_ctx_on(pid_t pid)
{
	struct pfarg_pmc pc;
	struct pfarg_pmd pd;
	int fd;

	child_expect(fd = pfm_create_context(0), 0);
	pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	pmd_init(&pd, SW_PMD(0), 0);
	child_expect(pfm_write_pmcs(fd, &pc, sizeof(pc)), 0);
	child_expect(pfm_write_pmds(fd, &pd, sizeof(pd)), 0);
	child_expect(pfm_load_context(fd, 0, pid), 0);
	child_expect(pfm_start(fd, 0), 0);
	return fd;
}

long wait_sysfs_long(const char *path, long want)
{
	long v = ck_sysfs_read_long(path);
	int i;

	for (i = 0; i < 500 && v != want; i++) {
		usleep(10000);
		v = ck_sysfs_read_long(path);
	}
	return v;
}

pid_t raw_fork(void)
{
	return syscall(SYS_fork);
}

void raw_wait(pid_t pid)
{
	syscall(SYS_wait4, pid, NULL, 0, NULL);
}

void raw_exit(void)
{
	for (;;)
		syscall(SYS_exit_group, 0);
}

void raw_children(pid_t *pid, int n, long k)
{
	int i;

	for (i = 0; i < n; i++) {
		pid[i] = raw_fork();
		if (!pid[i]) {
			do_getppid(k);
			raw_exit();
		}
	}
	for (i = 0; i < n; i++)
		raw_wait(pid[i]);
}
