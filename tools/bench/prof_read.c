// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest, for tools/bench/prof-read.sh: one read of n counts made again and
 * again until the host's debugger, having single-stepped one of them through the
 * kernel, sets prof_stop.
 *
 *   prof_read pfm|perf N
 *   prof_read pfm-four|perf-four
 *   prof_read csw-none|csw-pfm|csw-perf
 *
 * pfm: pfm_read_pmds() of N software counters of a started context on this thread,
 * as the bench's read sweep makes it; perf: read() of a group of N software events.
 * pfm-four, perf-four: the same of bench-ops' four events, the task clock first (its
 * read row).
 * csw-*: one round trip of bench-ops' ctxsw (a byte to a second process on the
 * same CPU and one back, two context switches each way), with nothing counting or
 * with the bench's four events counting on this thread (perfmon's or perf's): the
 * difference between two traces is what monitoring adds to a switch.
 * smp-none|smp-shim|smp-perf: one page fault of bench-ops' sample row, nothing
 * sampling or every fault sampled into a perf ring, through perfmon's
 * perf_event_open or the kernel's; the ring is emptied between calls, so that
 * every call writes a sample.
 * ses-pfm: one session of bench-ops' session row: a context created, its four
 * events programmed, attached to this thread, and closed.
 * inh-none|inh-shim|inh-perf: one child of bench-inherit's fork row (fork, _exit
 * in the child, waitpid), nothing counting or its four events opened with
 * attr.inherit on this thread, through perfmon's perf_event_open or the
 * kernel's: the child's copies, its exit's fold and the parent's wait.  The
 * debugger follows the one CPU, the child too; what RCU or a worker does later
 * is not in the trace.
 * The debugger stops at prof_call() (its address from the symbol table), steps to
 * its return and attributes each instruction to the function it is in.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "perfmon.h"
#include "bench_common.h"
#include "ops_sample.h"

#define MAXN	8

volatile int prof_stop;

static const int pfm_ev[3] = {
	PFM_SW_EV_CTX_SWITCHES, PFM_SW_EV_PAGE_FAULTS, PFM_SW_EV_CPU_MIGRATIONS,
};

static const int perf_ev[3] = {
	PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_CPU_MIGRATIONS,
};

static int fd0, nr;
static int use_perf, use_csw, use_smp, use_ses, use_inh;
static struct sample_session smp;
/* the pages the fault mode touches, one a call, given back when all were */
#define SMP_PAGES	256
static char *smp_pages;
static long smp_next, smp_psz;
static int ping[2], pong[2];
static pid_t ponger;
static struct pfarg_pmd pd[MAXN];
static uint64_t buf[1 + MAXN];

/* bench-ops' session of the four events, opened and closed */
static int session_call(void)
{
	int fd = bench_pfm_four(), ret;

	if (fd < 0)
		return 1;
	ret = pfm_load_context(fd, 0, gettid());
	close(fd);
	return ret != 0;
}

/* bench-inherit's child: forked, exits at once, waited for */
static int child_call(void)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return 1;
	if (!pid)
		_exit(0);
	return waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st);
}

/* the call the debugger follows, from its first instruction to its return */
__attribute__((noinline)) int prof_call(void)
{
	if (use_inh)
		return child_call();
	if (use_ses)
		return session_call();
	if (use_smp) {
		((volatile char *)smp_pages)[smp_next * smp_psz] = 1;
		return 0;
	}
	if (use_csw)
		return bench_round_trip(ping, pong);
	if (use_perf)
		return read(fd0, buf, (1 + nr) * sizeof(buf[0])) !=
		       (ssize_t)((1 + nr) * sizeof(buf[0]));
	return pfm_read_pmds(fd0, pd, nr * sizeof(pd[0]));
}

static void setup_pfm(void)
{
	struct pfarg_pmc pc[MAXN];
	int i;

	fd0 = pfm_create_context(0);
	if (fd0 < 0)
		die("pfm_create_context");
	memset(pc, 0, sizeof(pc));
	for (i = 0; i < nr; i++) {
		pc[i].reg_num = PFM_SW_FIRST_PMC + i;
		pc[i].reg_value = PFM_SW_PMC(pfm_ev[i % 3]) | PFM_SW_PMC_OS;
		pd[i].reg_num = PFM_SW_FIRST_PMD + i;
	}
	if (pfm_write_pmcs(fd0, pc, nr * sizeof(pc[0])) ||
	    pfm_write_pmds(fd0, pd, nr * sizeof(pd[0])) ||
	    pfm_load_context(fd0, 0, gettid()) || pfm_start(fd0, 0))
		die("perfmon setup");
}

static void setup_perf(void)
{
	int i, fd;

	fd0 = bench_perf_open(0, perf_ev[0], -1, 0);
	for (i = 1; i < nr; i++) {
		fd = bench_perf_open(0, perf_ev[i % 3], fd0, 0);
		(void)fd;
	}
	if (ioctl(fd0, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
		die("PERF_EVENT_IOC_ENABLE");
}

/* bench-ops' session: its four events on this thread, started */
static void setup_four(const char *tool)
{
	int i, fd;

	nr = BENCH_NEV;

	if (!strcmp(tool, "pfm")) {
		fd0 = bench_pfm_four();
		for (i = 0; i < BENCH_NEV; i++)
			pd[i].reg_num = PFM_SW_FIRST_PMD + i;
		if (fd0 < 0 || pfm_load_context(fd0, 0, gettid()) || pfm_start(fd0, 0))
			die("perfmon setup");
	} else if (!strcmp(tool, "perf")) {
		fd0 = bench_perf_open(0, bench_perf_ev[0], -1, 0);
		for (i = 1; i < BENCH_NEV; i++) {
			fd = bench_perf_open(0, bench_perf_ev[i], fd0, 0);
			(void)fd;
		}
		if (ioctl(fd0, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
			die("PERF_EVENT_IOC_ENABLE");
	}
}

/* bench-inherit's four events with attr.inherit, each on its own, as perf stat opens them */
static void setup_inh(const char *how)
{
	struct perf_event_attr a;
	int i, fd;

	use_inh = 1;
	if (!strcmp(how, "none"))
		return;
	for (i = 0; i < BENCH_NEV; i++) {
		bench_inherit_attr(&a, i);
		if (!strcmp(how, "shim"))
			fd = pfm_perf_event_open(&a, 0, -1, -1, 0);
		else
			fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		if (fd < 0)
			die("perf_event_open");
	}
}

/* Between two calls: a fresh page for the next, and the ring read to its head. */
static void between(void)
{
	struct perf_event_mmap_page *pg = smp.ring;

	if (!use_smp)
		return;
	if (++smp_next == SMP_PAGES) {
		madvise(smp_pages, SMP_PAGES * smp_psz, MADV_DONTNEED);
		smp_next = 0;
	}
	if (pg)
		__atomic_store_n(&pg->data_tail, __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
}

static void setup_smp(const char *how)
{
	use_smp = 1;
	smp_psz = sysconf(_SC_PAGESIZE);
	smp_pages = mmap(NULL, SMP_PAGES * smp_psz, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (smp_pages == MAP_FAILED)
		die("mmap");
	madvise(smp_pages, SMP_PAGES * smp_psz, MADV_NOHUGEPAGE);
	if (!strcmp(how, "shim"))
		sample_open(&smp, SMP_SHIM);
	else if (!strcmp(how, "perf"))
		sample_open(&smp, SMP_PERF);
}

int main(int argc, char **argv)
{
	long k;

	if (argc == 2 && (!strcmp(argv[1], "csw-none") || !strcmp(argv[1], "csw-pfm") ||
			  !strcmp(argv[1], "csw-perf"))) {
		use_csw = 1;
		ponger = bench_start_ponger(ping, pong);
		setup_four(argv[1] + 4);
	} else if (argc == 2 && (!strcmp(argv[1], "smp-none") || !strcmp(argv[1], "smp-shim") ||
				 !strcmp(argv[1], "smp-perf"))) {
		setup_smp(argv[1] + 4);
	} else if (argc == 2 && (!strcmp(argv[1], "inh-none") || !strcmp(argv[1], "inh-shim") ||
				 !strcmp(argv[1], "inh-perf"))) {
		setup_inh(argv[1] + 4);
	} else if (argc == 2 && !strcmp(argv[1], "ses-pfm")) {
		use_ses = 1;
	} else if (argc == 2 && (!strcmp(argv[1], "pfm-four") || !strcmp(argv[1], "perf-four"))) {
		use_perf = !strcmp(argv[1], "perf-four");
		setup_four(use_perf ? "perf" : "pfm");
	} else if (argc == 3 && (!strcmp(argv[1], "pfm") || !strcmp(argv[1], "perf"))) {
		use_perf = !strcmp(argv[1], "perf");
		nr = atoi(argv[2]);
		if (nr < 1 || nr > MAXN) {
			fprintf(stderr, "prof_read: N from 1 to %d\n", MAXN);
			return 2;
		}
		if (use_perf)
			setup_perf();
		else
			setup_pfm();
	} else {
		fprintf(stderr, "usage: prof_read pfm|perf N, prof_read pfm-four|perf-four, "
			"prof_read csw-none|csw-pfm|csw-perf, prof_read smp-none|smp-shim|smp-perf, "
			"prof_read inh-none|inh-shim|inh-perf, or prof_read ses-pfm\n");
		return 2;
	}
	/* the caches and the lazy parts of the path warmed up first */
	for (k = 0; k < (use_inh ? 100 : 1000); k++) {
		if (prof_call())
			die("read");
		between();
	}
	printf("PROF-READY\n");
	fflush(stdout);
	while (!prof_stop) {
		if (prof_call())
			die("read");
		between();
	}
	printf("PROF-DONE\n");
	if (use_csw) {
		close(ping[1]);
		waitpid(ponger, NULL, 0);
	}
	return 0;
}
