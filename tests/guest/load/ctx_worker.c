// SPDX-License-Identifier: GPL-2.0
/*
 * A perfmon context on its own thread, with two or three event sets that switch
 * on a timeout of the thread's time, each counting system calls on counter 0.
 * Every system call of a window is counted in the set active when it was made,
 * so the sets' counts together are exact: a window of k getppid() counts k + 1
 * (pfm_stop() is counted, perfmon_sw.h).  The context's counts page shows the
 * active set's count: after the stop it equals pfm_read_pmds() exactly, and the
 * page reader (pages_reader.c) polls it all the while.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "load.h"

#define MAX_SETS	3

static const uint16_t set_ids[MAX_SETS] = { 0, 7, 300 };

static int setup(int fd, int nsets, unsigned int *seed)
{
	struct pfarg_setdesc d[MAX_SETS];
	struct pfarg_pmc pc[MAX_SETS];
	struct pfarg_pmd pd[MAX_SETS];
	int i;

	memset(d, 0, sizeof(d));
	memset(pc, 0, sizeof(pc));
	memset(pd, 0, sizeof(pd));
	for (i = 0; i < nsets; i++) {
		d[i].set_id = set_ids[i];
		d[i].set_flags = PFM_SETFL_TIME_SWITCH;
		d[i].set_timeout = load_rand(seed, 1, 4) * 500000ULL;
		if (load_rand(seed, 0, 1)) {
			d[i].set_flags |= PFM_SETFL_RANDOM_TIMEOUT;
			d[i].set_timeout_mask = 0x3ffff;	/* up to 262 us less */
		}
		pc[i].reg_num = SW_PMC(0);
		pc[i].reg_set = set_ids[i];
		pc[i].reg_value = PFM_SW_PMC(PFM_SW_EV_SYSCALLS);
		pd[i].reg_num = SW_PMD(0);
		pd[i].reg_set = set_ids[i];
	}
	if (pfm_create_evtsets(fd, d, nsets * sizeof(d[0])) ||
	    pfm_write_pmcs(fd, pc, nsets * sizeof(pc[0])) ||
	    pfm_write_pmds(fd, pd, nsets * sizeof(pd[0])))
		return -1;
	return 0;
}

/* the count of every set, in the order of set_ids[] */
static int read_sets(int fd, int nsets, uint64_t *v)
{
	struct pfarg_pmd pd[MAX_SETS];
	int i;

	memset(pd, 0, sizeof(pd));
	for (i = 0; i < nsets; i++) {
		pd[i].reg_num = SW_PMD(0);
		pd[i].reg_set = set_ids[i];
	}
	if (pfm_read_pmds(fd, pd, nsets * sizeof(pd[0])))
		return -1;
	for (i = 0; i < nsets; i++)
		v[i] = pd[i].reg_value;
	return 0;
}

static uint64_t set_runs(int fd, int nsets)
{
	struct pfarg_setinfo si[MAX_SETS];
	uint64_t runs = 0;
	int i;

	memset(si, 0, sizeof(si));
	for (i = 0; i < nsets; i++)
		si[i].set_id = set_ids[i];
	if (pfm_getinfo_evtsets(fd, si, nsets * sizeof(si[0]))) {
		load_fail("ctx: pfm_getinfo_evtsets: %s", strerror(errno));
		return 0;
	}
	for (i = 0; i < nsets; i++)
		runs += si[i].set_runs;
	return runs;
}

/* After a stop: the page shows the active set's count as pfm_read_pmds() gave it. */
static void check_page(const struct pfm_counts_page *pg, int nsets, const uint64_t *v,
		       int slot)
{
	static const unsigned int pmd0[] = { SW_PMD(0) };
	uint16_t set = pg->set_id;
	uint64_t m;
	int i;

	for (i = 0; i < nsets && set_ids[i] != set; i++)
		;
	if (i == nsets) {
		load_fail("ctx %d: the counts page shows set %u, not one of the context's",
			  slot, set);
		return;
	}
	if (pfm_read_mapped(pg, set, pmd0, &m, 1)) {
		load_fail("ctx %d: pfm_read_mapped(set %u): %s", slot, set, strerror(errno));
		return;
	}
	if (m != v[i])
		load_fail("ctx %d: counts page %llu, pfm_read_pmds %llu (set %u, stopped)",
			  slot, (unsigned long long)m, (unsigned long long)v[i], set);
}

void *ctx_worker(void *arg)
{
	struct slot *s = arg;
	int nsets = load_rand(&s->seed, 2, MAX_SETS);
	int rounds = load_rand(&s->seed, 3, 20), r, rs, rt, i, fd;
	uint64_t prev[MAX_SETS] = { 0 }, now[MAX_SETS], got, k;
	const struct pfm_counts_page *pg = NULL;

	if (s->cpu >= 0)
		load_pin(s->cpu);
	fd = pfm_create_context(0);
	if (fd < 0) {
		load_fail("ctx %d: pfm_create_context: %s", s->index, strerror(errno));
		goto out;
	}
	if (setup(fd, nsets, &s->seed)) {
		load_fail("ctx %d: sets and registers: %s", s->index, strerror(errno));
		goto out_close;
	}
	pg = pfm_mmap_counts(fd);
	if (!pg) {
		load_fail("ctx %d: pfm_mmap_counts: %s", s->index, strerror(errno));
		goto out_close;
	}
	if (pfm_load_context(fd, 0, load_tid())) {
		load_fail("ctx %d: pfm_load_context: %s", s->index, strerror(errno));
		goto out_unmap;
	}
	pages_publish(s->index, pg);
	for (r = 0; r < rounds && !load.stop; r++) {
		k = load_size(&s->seed, 100, 3000, 10);
		rs = pfm_start(fd, 0);
		load_getppid(k);
		rt = pfm_stop(fd, 0);
		if (rs || rt || read_sets(fd, nsets, now)) {
			load_fail("ctx %d: start %d, stop %d, read: %s", s->index, rs, rt,
				  strerror(errno));
			break;
		}
		for (got = 0, i = 0; i < nsets; i++)
			got += now[i] - prev[i];
		if (got != k + 1)
			load_fail("ctx %d: round %d of %llu getppid counted %llu in %d sets, not %llu",
				  s->index, r, (unsigned long long)k, (unsigned long long)got,
				  nsets, (unsigned long long)(k + 1));
		check_page(pg, nsets, now, s->index);
		memcpy(prev, now, sizeof(prev));
		STAT_ADD(rounds, 1);
		STAT_ADD(ctx_syscalls, k + 1);
		if (s->cpu == 0)
			STAT_ADD(cpu0_syscalls_min, k);
	}
	STAT_ADD(set_runs, set_runs(fd, nsets));
	pages_withdraw(s->index);
out_unmap:
	pfm_munmap_counts(pg);
out_close:
	close(fd);
out:
	s->done = 1;
	return NULL;
}
