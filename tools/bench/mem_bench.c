// SPDX-License-Identifier: GPL-2.0
/*
 * mem_bench: the kernel memory each monitoring object costs, perfmon against
 * perf_events, for the same monitoring, in the same guest run.
 *
 * NT threads (forked processes asleep on a pipe) are the targets.  Each case opens
 * one object per target, for each tool, and takes the rise of the guest's memory
 * over a baseline taken just before, divided by the number of objects:
 *
 *   context  a thread monitored for four software events (task-clock, context
 *            switches, page faults, migrations): one perfmon context, programmed
 *            and attached / one perf group of four events on the thread
 *   set      one more event set of the same four events in that context / one
 *            more group of four on the thread (perf multiplexes groups as perfmon
 *            multiplexes sets)
 *   smpl     a 64 KiB sampling buffer, mapped: a context with the default format
 *            / a task-clock sampling event with a ring of 64 KiB, mapped (perf
 *            adds its user page: 17 pages)
 *   page     the counts page of a context, mapped / the user page of an event
 *            (mmap of one page, no ring)
 *
 * The case's objects (and their fds, files and mappings) are the measured cost; the
 * objects a case builds on (the contexts under "set" and "page", the events under
 * "page") are opened before its baseline.  Sets are created before attaching (after,
 * it is EBUSY), so those contexts stay detached.  Three measures of the rise
 * (mem_meas.h): slab objects, vmalloc, and total (the fall of free pages:
 * whatever took them, slab, vmalloc, page tables, the counts page, perf's ring).
 *
 * The tools alternate first place from round to round; each figure is the median
 * over ROUNDS rounds with the 25th and 75th percentiles.  The guest runs nothing
 * else, but slab caches grow by whole slabs and per-CPU lists, hence NT objects.
 *
 * Output: a table, the context and set rows per event (their totals over their
 * four events), then one line "BENCH-MEM-JSON: {...}" for the host to collect.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfmon.h"
#include "bench_common.h"
#include "mem_meas.h"

#define NT		128		/* targets: objects per case and tool */
#define NEV		BENCH_NEV
#define ROUNDS		5
#define SMPL_BYTES	(64 * 1024)

enum tool { PERFMON, PERF, NTOOLS };
enum { CASE_CONTEXT, CASE_SET, CASE_SMPL, CASE_PAGE, NCASES };

static const char *const case_name[NCASES] = { "context", "set", "smpl", "page" };
static const char *const tool_name[NTOOLS] = { "perfmon", "perf" };

static pid_t target[NT];
static long page_size;

/* What one case and tool opened, to close after the measure. */
struct objs {
	int fd[NT][2 * NEV];
	int nfd[NT];
	void *map[NT];
	size_t map_len;
};

/* The four events in set of fd. */
static void pfm_program(int fd, unsigned int set)
{
	if (bench_pfm_program(fd, set, NEV))
		die("perfmon programming");
}

static void *map_fd(int fd, size_t len, off_t off)
{
	void *p = mmap(NULL, len, PROT_READ | (off ? 0 : PROT_WRITE), MAP_SHARED, fd, off);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

/* The objects a case builds on: contexts for "set" and events for "page". */
static void open_base(enum tool tool, struct objs *o, int t)
{
	int i;

	if (tool == PERFMON) {
		o->fd[t][0] = pfm_create_context(0);
		if (o->fd[t][0] < 0)
			die("pfm_create_context");
		pfm_program(o->fd[t][0], 0);
		o->nfd[t] = 1;
		return;
	}
	o->fd[t][0] = bench_perf_open(target[t], bench_perf_ev[0], -1, 0);
	for (i = 1; i < NEV; i++)
		o->fd[t][i] = bench_perf_open(target[t], bench_perf_ev[i], o->fd[t][0], 0);
	o->nfd[t] = NEV;
}

/* The measured object of case c on target t. */
static void open_obj(int c, enum tool tool, struct objs *o, int t)
{
	struct pfm_dfl_smpl_arg arg;
	struct pfarg_setdesc sd;
	int i, n = o->nfd[t];

	switch (c) {
	case CASE_CONTEXT:
		open_base(tool, o, t);
		if (tool == PERFMON && pfm_load_context(o->fd[t][0], 0, target[t]))
			die("pfm_load_context");
		break;
	case CASE_SET:
		if (tool == PERFMON) {
			memset(&sd, 0, sizeof(sd));
			sd.set_id = 1;
			if (pfm_create_evtsets(o->fd[t][0], &sd, sizeof(sd)))
				die("pfm_create_evtsets");
			pfm_program(o->fd[t][0], 1);
			break;
		}
		o->fd[t][n] = bench_perf_open(target[t], bench_perf_ev[0], -1, 0);
		for (i = 1; i < NEV; i++)
			o->fd[t][n + i] = bench_perf_open(target[t], bench_perf_ev[i], o->fd[t][n], 0);
		o->nfd[t] += NEV;
		break;
	case CASE_SMPL:
		if (tool == PERFMON) {
			memset(&arg, 0, sizeof(arg));
			arg.buf_size = SMPL_BYTES;
			o->fd[t][0] = pfm_create_context(PFM_FL_SMPL_FMT, PFM_DFL_SMPL_NAME,
							 &arg, sizeof(arg));
			if (o->fd[t][0] < 0)
				die("pfm_create_context (sampling)");
			o->map_len = SMPL_BYTES;
			o->map[t] = mmap(NULL, o->map_len, PROT_READ, MAP_SHARED, o->fd[t][0], 0);
			if (o->map[t] == MAP_FAILED)
				die("mmap of the sampling buffer");
		} else {
			o->fd[t][0] = bench_perf_open(target[t], PERF_COUNT_SW_TASK_CLOCK, -1, 1000000);
			o->map_len = SMPL_BYTES + page_size;
			o->map[t] = map_fd(o->fd[t][0], o->map_len, 0);
		}
		o->nfd[t] = 1;
		break;
	case CASE_PAGE:
		o->map_len = page_size;
		if (tool == PERFMON) {
			o->map[t] = (void *)pfm_mmap_counts(o->fd[t][0]);
			if (!o->map[t])
				die("pfm_mmap_counts");
		} else {
			o->map[t] = map_fd(o->fd[t][0], o->map_len, 0);
		}
		break;
	}
}

static void close_objs(struct objs *o)
{
	int t, i;

	for (t = 0; t < NT; t++) {
		if (o->map[t])
			munmap(o->map[t], o->map_len);
		for (i = o->nfd[t] - 1; i >= 0; i--)
			close(o->fd[t][i]);
	}
	memset(o, 0, sizeof(*o));
}

/* Bytes per object of case c for tool, by each measure. */
static void measure(int c, enum tool tool, double *per_obj)
{
	static struct objs o;
	long long before[NMEAS], after[NMEAS];
	int t, m;

	memset(&o, 0, sizeof(o));
	if (c == CASE_SET || c == CASE_PAGE)
		for (t = 0; t < NT; t++)
			open_base(tool, &o, t);
	mem_now(before);
	for (t = 0; t < NT; t++)
		open_obj(c, tool, &o, t);
	mem_now(after);
	for (m = 0; m < NMEAS; m++)
		per_obj[m] = (double)(after[m] - before[m]) / NT;
	close_objs(&o);
}

static int pipefd[2];

static void start_targets(void)
{
	char c;
	int t;

	if (pipe(pipefd))
		die("pipe");
	for (t = 0; t < NT; t++) {
		target[t] = fork();
		if (target[t] < 0)
			die("fork");
		if (!target[t]) {
			close(pipefd[1]);
			while (read(pipefd[0], &c, 1) > 0)
				;
			_exit(0);
		}
	}
	close(pipefd[0]);
}

static void stop_targets(void)
{
	int t;

	close(pipefd[1]);
	for (t = 0; t < NT; t++)
		waitpid(target[t], NULL, 0);
}

static void json_stat(const char *name, struct stat3 s, int digits, const char *sep)
{
	printf("\"%s\": [%.*f, %.*f, %.*f]%s", name, digits, s.p25, digits, s.med, digits,
	       s.p75, sep);
}

int main(void)
{
	static double v[NCASES][NTOOLS][NMEAS][ROUNDS], r[NCASES][ROUNDS];
	struct stat3 s[NCASES][NTOOLS][NMEAS], ratio[NCASES];
	struct rlimit rl = { 4 * NT * NEV, 4 * NT * NEV };
	double one[NMEAS];
	int c, k, m, round;
	enum tool tool;

	page_size = sysconf(_SC_PAGESIZE);
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit");
	start_targets();
	for (c = 0; c < NCASES; c++) {
		for (round = 0; round < ROUNDS; round++) {
			for (k = 0; k < NTOOLS; k++) {
				tool = (round & 1) ? NTOOLS - 1 - k : k;
				measure(c, tool, one);
				for (m = 0; m < NMEAS; m++)
					v[c][tool][m][round] = one[m];
			}
			r[c][round] = v[c][PERFMON][M_TOTAL][round] / v[c][PERF][M_TOTAL][round];
		}
		for (tool = 0; tool < NTOOLS; tool++)
			for (m = 0; m < NMEAS; m++)
				s[c][tool][m] = stat3(v[c][tool][m], ROUNDS);
		ratio[c] = stat3(r[c], ROUNDS);
	}
	stop_targets();

	printf("mem_bench: kernel bytes per object, %d objects, %d rounds; medians "
	       "[25th-75th percentile]\n\n", NT, ROUNDS);
	printf("%-8s %-8s %10s %10s %10s %8s %8s  %s\n", "object", "", "slab", "vmalloc",
	       "total", "", "", "perfmon/perf (total)");
	for (c = 0; c < NCASES; c++) {
		for (tool = 0; tool < NTOOLS; tool++) {
			printf("%-8s %-8s %10.0f %10.0f %10.0f [%6.0f-%6.0f]", tool ? "" : case_name[c],
			       tool_name[tool], s[c][tool][M_SLAB].med, s[c][tool][M_VMALLOC].med,
			       s[c][tool][M_TOTAL].med, s[c][tool][M_TOTAL].p25,
			       s[c][tool][M_TOTAL].p75);
			if (tool == PERFMON)
				printf("  %5.3f [%5.3f-%5.3f]", ratio[c].med, ratio[c].p25,
				       ratio[c].p75);
			printf("\n");
		}
	}
	printf("\nper event (total / %d): context perfmon %.0f, perf %.0f; "
	       "set perfmon %.0f, perf %.0f\n", NEV,
	       s[CASE_CONTEXT][PERFMON][M_TOTAL].med / NEV, s[CASE_CONTEXT][PERF][M_TOTAL].med / NEV,
	       s[CASE_SET][PERFMON][M_TOTAL].med / NEV, s[CASE_SET][PERF][M_TOTAL].med / NEV);

	printf("\nBENCH-MEM-JSON: {\"unit\": \"bytes/object\", \"objects\": %d, \"rounds\": %d, "
	       "\"stat\": \"[p25, median, p75]\"", NT, ROUNDS);
	for (c = 0; c < NCASES; c++) {
		printf(", \"%s\": {", case_name[c]);
		for (tool = 0; tool < NTOOLS; tool++) {
			printf("\"%s\": {", tool_name[tool]);
			for (m = 0; m < NMEAS; m++)
				json_stat(mem_meas_name[m], s[c][tool][m], 0, m < NMEAS - 1 ? ", " : "}, ");
		}
		json_stat("perfmon_over_perf", ratio[c], 4, "}");
	}
	printf(", \"per_event\": {\"events\": %d", NEV);
	for (c = CASE_CONTEXT; c <= CASE_SET; c++)
		printf(", \"%s\": {\"perfmon\": %.0f, \"perf\": %.0f}", case_name[c],
		       s[c][PERFMON][M_TOTAL].med / NEV, s[c][PERF][M_TOTAL].med / NEV);
	printf("}}\n");
	return 0;
}
