// SPDX-License-Identifier: GPL-2.0
/*
 * CPU-wide sessions for the whole run: a perfmon CPU session on CPU 0 counting
 * system calls (its counts page polled by the page reader), and a shim CPU event
 * (pid -1) on CPU 1 counting page faults.  They count every thread there, so
 * their counts only have lower bounds: what the workers pinned to that CPU made
 * exactly (perfmon.h: a thread's software events count for its own session and
 * the CPU's, each exactly as alone).  Polled while the load runs, they never go
 * back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "load.h"

static int cpu_fd = -1, perf_fd = -1;
static const struct pfm_counts_page *cpu_pg;
static uint64_t last_sys, last_faults;

static int start_perfmon_cpu(void)
{
	struct pfarg_pmc pc = { .reg_num = SW_PMC(0),
				.reg_value = PFM_SW_PMC(PFM_SW_EV_SYSCALLS) };
	struct pfarg_pmd pd = { .reg_num = SW_PMD(0) };

	cpu_fd = pfm_create_context(PFM_FL_SYSTEM_WIDE);
	if (cpu_fd < 0 || pfm_write_pmcs(cpu_fd, &pc, sizeof(pc)) ||
	    pfm_write_pmds(cpu_fd, &pd, sizeof(pd)) || pfm_load_context(cpu_fd, 0, 0)) {
		load_fail("CPU session on CPU 0: %s", strerror(errno));
		return -1;
	}
	cpu_pg = pfm_mmap_counts(cpu_fd);
	if (!cpu_pg) {
		load_fail("CPU session: pfm_mmap_counts: %s", strerror(errno));
		return -1;
	}
	pages_publish(LOAD_CTX_SLOTS, cpu_pg);
	if (pfm_start(cpu_fd, 0)) {
		load_fail("CPU session: pfm_start: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int start_shim_cpu(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	perf_fd = pfm_perf_event_open(&a, -1, 1, -1, 0);
	if (perf_fd < 0) {
		load_fail("shim CPU event on CPU 1: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int cpu_wide_start(void)
{
	last_sys = last_faults = 0;
	if (start_perfmon_cpu())
		return -1;
	return load.ncpus > 1 ? start_shim_cpu() : 0;
}

static void read_both(uint64_t *sys, uint64_t *faults)
{
	struct pfarg_pmd pd = { .reg_num = SW_PMD(0) };

	*sys = *faults = 0;
	if (cpu_fd >= 0) {
		if (pfm_read_pmds(cpu_fd, &pd, sizeof(pd)))
			load_fail("CPU session: pfm_read_pmds: %s", strerror(errno));
		*sys = pd.reg_value;
	}
	if (perf_fd >= 0 && read(perf_fd, faults, sizeof(*faults)) != sizeof(*faults))
		load_fail("shim CPU event: read: %s", strerror(errno));
}

void cpu_wide_poll(void)
{
	uint64_t sys, faults;

	read_both(&sys, &faults);
	if (sys < last_sys)
		load_fail("CPU 0 system calls went back from %llu to %llu",
			  (unsigned long long)last_sys, (unsigned long long)sys);
	if (faults < last_faults)
		load_fail("CPU 1 page faults went back from %llu to %llu",
			  (unsigned long long)last_faults, (unsigned long long)faults);
	last_sys = sys;
	last_faults = faults;
}

void cpu_wide_stop(void)
{
	uint64_t sys, faults, min_sys = stats.cpu0_syscalls_min;
	uint64_t min_faults = stats.cpu1_faults_min;

	cpu_wide_poll();
	if (cpu_fd >= 0 && pfm_stop(cpu_fd, 0))
		load_fail("CPU session: pfm_stop: %s", strerror(errno));
	read_both(&sys, &faults);
	load_note("CPU 0 session: %llu system calls (pinned workers made %llu); "
		  "CPU 1 shim event: %llu page faults (pinned samplers made %llu)",
		  (unsigned long long)sys, (unsigned long long)min_sys,
		  (unsigned long long)faults, (unsigned long long)min_faults);
	if (cpu_fd >= 0 && sys < min_sys)
		load_fail("CPU 0 counted %llu system calls, fewer than the %llu of its pinned workers",
			  (unsigned long long)sys, (unsigned long long)min_sys);
	if (perf_fd >= 0 && faults < min_faults)
		load_fail("CPU 1 counted %llu page faults, fewer than the %llu of its pinned samplers",
			  (unsigned long long)faults, (unsigned long long)min_faults);
	if (cpu_pg) {
		pages_withdraw(LOAD_CTX_SLOTS);
		pfm_munmap_counts(cpu_pg);
		cpu_pg = NULL;
	}
	if (cpu_fd >= 0)
		close(cpu_fd);
	if (perf_fd >= 0)
		close(perf_fd);
	cpu_fd = perf_fd = -1;
}
