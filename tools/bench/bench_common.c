// SPDX-License-Identifier: GPL-2.0
/*
 * What the guest's benchmarks against perf_events share (bench_common.h).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfmon.h"
#include "bench_common.h"

const int bench_pfm_ev[BENCH_NEV] = {
	PFM_SW_EV_TASK_CLOCK, PFM_SW_EV_CTX_SWITCHES, PFM_SW_EV_PAGE_FAULTS,
	PFM_SW_EV_CPU_MIGRATIONS,
};

const int bench_perf_ev[BENCH_NEV] = {
	PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_CPU_MIGRATIONS,
};

int bench_pfm_program(int fd, unsigned int set, int n)
{
	struct pfarg_pmc pc[BENCH_PFM_MAX];
	struct pfarg_pmd pd[BENCH_PFM_MAX];
	int i;

	if (n > BENCH_PFM_MAX)
		return -1;
	memset(pc, 0, n * sizeof(pc[0]));
	memset(pd, 0, n * sizeof(pd[0]));
	for (i = 0; i < n; i++) {
		pc[i].reg_num = PFM_SW_FIRST_PMC + i;
		pc[i].reg_set = set;
		pc[i].reg_value = PFM_SW_PMC(bench_pfm_ev[i % BENCH_NEV]) | PFM_SW_PMC_OS;
		pd[i].reg_num = PFM_SW_FIRST_PMD + i;
		pd[i].reg_set = set;
	}
	if (pfm_write_pmcs(fd, pc, n * sizeof(pc[0])) || pfm_write_pmds(fd, pd, n * sizeof(pd[0])))
		return -1;
	return 0;
}

int bench_pfm_four(void)
{
	int fd;

	fd = pfm_create_context(0);
	if (fd < 0)
		return -1;
	if (bench_pfm_program(fd, 0, BENCH_NEV)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct stat3 stat3(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return (struct stat3){ v[n / 4], v[n / 2], v[(3 * n) / 4] };
}

void die(const char *what)
{
	perror(what);
	exit(1);
}

void bench_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

int bench_perf_open(int pid, int config, int group, unsigned long long period)
{
	struct perf_event_attr a;
	int fd;

	bench_perf_attr(&a, config, group, period);
	fd = syscall(SYS_perf_event_open, &a, pid, -1, group, 0);
	if (fd < 0)
		die("perf_event_open");
	return fd;
}

void bench_perf_attr(struct perf_event_attr *a, int config, int group,
		     unsigned long long period)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = config;
	a->disabled = group < 0;
	a->read_format = PERF_FORMAT_GROUP;
	a->sample_period = period;
	a->sample_type = period ? PERF_SAMPLE_IP | PERF_SAMPLE_TID : 0;
}

void bench_inherit_attr(struct perf_event_attr *a, int i)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = bench_perf_ev[i];
	a->inherit = 1;
}

pid_t bench_start_ponger(int ping[2], int pong[2])
{
	pid_t pid;
	char c;

	if (pipe(ping) || pipe(pong))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		/* only its own ends: the parent's close of ping is its end */
		close(ping[1]);
		close(pong[0]);
		while (read(ping[0], &c, 1) == 1)
			if (write(pong[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	return pid;
}

int bench_round_trip(const int ping[2], const int pong[2])
{
	char c = 0;

	return write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1 ? -1 : 0;
}

double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

void bench_put_ns(const char *path, double ns)
{
	FILE *f = fopen(path, "w");

	if (!f)
		die(path);
	fprintf(f, "%.0f\n", ns);
	if (fclose(f))
		die(path);
}

double bench_run_timed(char *const argv[], char *const env[], const char *path)
{
	double ns = 0;
	int st, fd;
	FILE *f;
	pid_t pid;

	unlink(path);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		while (env && *env)
			putenv(*env++);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "bench: %s failed (status %#x)\n", argv[0], st);
		exit(1);
	}
	f = fopen(path, "r");
	if (!f || fscanf(f, "%lf", &ns) != 1)
		die(path);
	fclose(f);
	return ns;
}

/* Whether perfmon's "<name>" probe is attached (debugfs statistics), or -1. */
static int bench_hook_on(const char *name)
{
	char buf[2048], key[32], *p;
	FILE *f = fopen("/sys/kernel/debug/perfmon/stats", "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	snprintf(key, sizeof(key), "%s_hook_on ", name);
	p = strstr(buf, key);
	return p ? atoi(p + strlen(key)) : -1;
}

void bench_hook_wait_off(const char *name)
{
	int i;

	for (i = 0; i < 500 && bench_hook_on(name) > 0; i++)
		usleep(10000);
	if (bench_hook_on(name) != 0)
		die("perfmon's probe still attached (debugfs mounted?)");
}
