// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz: kernel coverage through KCOV, kept to perfmon's own code.
 *
 * Every task of a program (threads, forked targets, children) traces the PCs
 * it reaches into its own KCOV buffer; fz_kcov_collect() folds the ones of
 * kernel/perfmon/ and arch/x86/perfmon/ into a bitmap shared by all of them,
 * one bit per instrumented call site.  The call sites come from the kernel
 * image (tests/fuzz/pcs.sh writes the table when the kernel is built):
 *
 *   F <index> <file>
 *   <pc hex> <file index> <function>      sorted by pc
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "executor.h"
#include "kcov.h"

#define KCOV_INIT_TRACE		_IOR('c', 1, unsigned long)
#define KCOV_ENABLE		_IO('c', 100)
#define KCOV_DISABLE		_IO('c', 101)
#define KCOV_TRACE_PC		0
#define KCOV_WORDS		(1UL << 16)
#define FZ_FILES_MAX		256

struct fz_pc {
	uint64_t pc;
	uint16_t file;
	char *func;
};

static struct fz_pc *pcs;
static size_t npcs;
static char *files[FZ_FILES_MAX];
static int nfiles;

/*
 * One byte per PC: shared by the manager and every task of a program, one
 * array per executor (FZ_PROCS_MAX), so that what a program found is its own
 * while another runs beside it.
 */
static uint8_t *cov_progs;
static uint8_t *fz_cov_prog;
/* The run's PCs (written by the manager only), and the second of the run each was first reached */
static uint8_t *total;
/*
 * The PCs some task has collected, claimed once: the operation that collected
 * one first finds it new to the run, whichever executor ran it
 */
static uint8_t *claimed;
/*
 * the PCs reached first in the run: per operation code, then the targets' own
 * tracing, then per kind of scenario and perf_smpl body (FZ_ST_*)
 */
static unsigned long *op_new;
#define OP_NEW_NR	(fz_nops + 1 + FZ_ST_NR)
static unsigned int *first;
static size_t reached;
static unsigned int last_new;

static __thread int kcov_fd = -1;
static __thread uint64_t *kcov_area;
/* the fd is this task's own, not one of the pool's */
static __thread int kcov_own;

size_t fz_kcov_npcs(void)
{
	return npcs;
}

/*
 * The table's PCs by hash, for kcov_collect(): a task's trace holds every PC
 * of the kernel it reached, thousands per call, and only a few are perfmon's.
 * Open addressing, a quarter full at most; each slot holds an index + 1.
 */
static uint32_t *pc_hash;
static unsigned int pc_hash_bits;

static size_t pc_slot(uint64_t pc)
{
	return (size_t)((pc * 0x9e3779b97f4a7c15ULL) >> (64 - pc_hash_bits));
}

static int pc_hash_build(void)
{
	size_t i, h, mask;

	for (pc_hash_bits = 4; (1UL << pc_hash_bits) < 4 * npcs; pc_hash_bits++)
		;
	pc_hash = calloc(1UL << pc_hash_bits, sizeof(*pc_hash));
	if (!pc_hash)
		return -1;
	mask = (1UL << pc_hash_bits) - 1;
	for (i = 0; i < npcs; i++) {
		for (h = pc_slot(pcs[i].pc); pc_hash[h]; h = (h + 1) & mask)
			;
		pc_hash[h] = (uint32_t)(i + 1);
	}
	return 0;
}

static long pc_index(uint64_t pc)
{
	size_t h, mask = (1UL << pc_hash_bits) - 1;

	for (h = pc_slot(pc); pc_hash[h]; h = (h + 1) & mask)
		if (pcs[pc_hash[h] - 1].pc == pc)
			return (long)pc_hash[h] - 1;
	return -1;
}

int fz_kcov_load(const char *table)
{
	char line[512], name[256];
	unsigned long long pc;
	size_t cap = 0;
	unsigned int f;
	FILE *in;

	in = fopen(table, "r");
	if (!in)
		return -1;
	while (fgets(line, sizeof(line), in)) {
		if (line[0] == 'F') {
			if (sscanf(line, "F %u %255s", &f, name) == 2 && f < FZ_FILES_MAX) {
				files[f] = strdup(name);
				if ((int)f >= nfiles)
					nfiles = f + 1;
			}
			continue;
		}
		/* a PC of a file past the table would index past files[] in the report */
		if (sscanf(line, "%llx %u %255s", &pc, &f, name) != 3 || f >= FZ_FILES_MAX)
			continue;
		if (npcs == cap) {
			cap = cap ? 2 * cap : 4096;
			pcs = realloc(pcs, cap * sizeof(*pcs));
			if (!pcs)
				return -1;
		}
		pcs[npcs].pc = pc;
		pcs[npcs].file = (uint16_t)f;
		pcs[npcs].func = strdup(name);
		npcs++;
	}
	fclose(in);
	if (!npcs)
		return -1;
	total = fz_shared(npcs);
	claimed = fz_shared(npcs);
	op_new = fz_shared(OP_NEW_NR * sizeof(*op_new));
	first = calloc(npcs, sizeof(*first));
	if (total == MAP_FAILED || claimed == MAP_FAILED || op_new == MAP_FAILED || !first ||
	    pc_hash_build())
		return -1;
	cov_progs = fz_shared(FZ_PROCS_MAX * npcs);
	if (cov_progs == MAP_FAILED)
		return -1;
	fz_cov_prog = cov_progs;
	return 0;
}

void fz_kcov_slot(int e)
{
	if (cov_progs)
		fz_cov_prog = cov_progs + (size_t)e * npcs;
}

static void kcov_collect(void)
{
	uint64_t n, i;
	long k;

	if (!kcov_area)
		return;
	n = __atomic_load_n(&kcov_area[0], __ATOMIC_RELAXED);
	if (n >= KCOV_WORDS)
		n = KCOV_WORDS - 1;
	for (i = 0; i < n; i++) {
		k = pc_index(kcov_area[i + 1]);
		if (k < 0 || fz_cov_prog[k] ||
		    __atomic_exchange_n(&fz_cov_prog[k], 1, __ATOMIC_RELAXED) || claimed[k] ||
		    __atomic_exchange_n(&claimed[k], 1, __ATOMIC_RELAXED))
			continue;
		__atomic_fetch_add(&op_new[fz_cur_st >= 0 ? fz_nops + 1 + fz_cur_st :
				   fz_cur_op >= 0 && fz_cur_op < fz_nops ? fz_cur_op : fz_nops],
				   1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&kcov_area[0], 0, __ATOMIC_RELAXED);
}

/*
 * Buffers set up once by the executor, whose fds every task it makes inherits:
 * a task takes the first one no other live task traces into (KCOV_ENABLE
 * fails on those; a task's exit frees its buffer for the next), instead of a
 * buffer of its own, whose allocation costs more than most operations on the
 * debug kernel.  Their mappings are not copied by fork() (a page table entry
 * per page of each, at every fork): a forked process maps the one it takes.
 */
#define KCOV_POOL		10
#define KCOV_BYTES		(KCOV_WORDS * sizeof(uint64_t))

static struct {
	int fd;
	uint64_t *area;		/* in process pool_pid; NULL: not mapped there */
} pool[KCOV_POOL];
static int npool;
static pid_t pool_pid;

static uint64_t *kcov_map(int fd)
{
	uint64_t *a = mmap(NULL, KCOV_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	return a == MAP_FAILED ? NULL : a;
}

/* a buffer set up (not enabled): its fd, or -1 */
static int kcov_open(void)
{
	int fd = open("/sys/kernel/debug/kcov", O_RDWR | O_CLOEXEC);

	if (fd >= 0 && ioctl(fd, KCOV_INIT_TRACE, KCOV_WORDS)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * The pool, made by the first task that traces (the executor's); a forked
 * process has its fds but none of its mappings.
 */
static void pool_here(void)
{
	pid_t me = getpid();
	int i;

	if (pool_pid == me)
		return;
	if (pool_pid) {
		pool_pid = me;
		for (i = 0; i < npool; i++)
			pool[i].area = NULL;
		return;
	}
	pool_pid = me;
	for (; npool < KCOV_POOL; npool++) {
		pool[npool].fd = kcov_open();
		if (pool[npool].fd < 0)
			break;
		pool[npool].area = kcov_map(pool[npool].fd);
		if (!pool[npool].area || madvise(pool[npool].area, KCOV_BYTES, MADV_DONTFORK)) {
			close(pool[npool].fd);
			break;
		}
	}
}

/* 0 if this task traces into fd's buffer, mapped at *area (mapped first if NULL) */
static int kcov_use(int fd, uint64_t **area)
{
	if (ioctl(fd, KCOV_ENABLE, KCOV_TRACE_PC))
		return -1;
	if (!*area)
		*area = kcov_map(fd);
	if (!*area) {
		ioctl(fd, KCOV_DISABLE, 0);
		return -1;
	}
	kcov_fd = fd;
	kcov_area = *area;
	/* what a killed task left uncollected was its program's */
	__atomic_store_n(&kcov_area[0], 0, __ATOMIC_RELAXED);
	return 0;
}

/* This task traces from now on (a forked task drops what it inherited). */
static void kcov_task_start(void)
{
	uint64_t *area = NULL;
	int i, fd;

	if (kcov_fd >= 0 && kcov_own) {
		munmap(kcov_area, KCOV_BYTES);
		close(kcov_fd);
	}
	kcov_fd = -1;
	kcov_area = NULL;
	kcov_own = 0;
	pool_here();
	for (i = 0; i < npool; i++)
		if (!kcov_use(pool[i].fd, &pool[i].area))
			return;
	fd = kcov_open();
	if (fd < 0)
		return;
	if (kcov_use(fd, &area)) {
		if (area)
			munmap(area, KCOV_BYTES);
		close(fd);
		return;
	}
	kcov_own = 1;
}

/* 0 if this kernel traces: then every program's tasks report coverage. */
int fz_kcov_enable(void)
{
	int fd = open("/sys/kernel/debug/kcov", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -1;
	close(fd);
	fz_cov_task_start = kcov_task_start;
	fz_cov_collect = kcov_collect;
	return 0;
}

/*
 * Adds the program's PCs to the run's, noting when each was first reached
 * (now: seconds into the run); returns how many are new.
 */
size_t fz_kcov_merge(int e, unsigned int now)
{
	uint8_t *prog = cov_progs + (size_t)e * npcs;
	size_t i, n = 0;

	for (i = 0; i < npcs; i++) {
		if (prog[i] && !total[i]) {
			total[i] = 1;
			first[i] = now;
			n++;
		}
		prog[i] = 0;
	}
	reached += n;
	if (n)
		last_new = now;
	return n;
}

size_t fz_kcov_reached(void)
{
	return reached;
}

unsigned long fz_kcov_op_new(int code)
{
	return op_new ? op_new[code] : 0;
}

/*
 * Per file, then in all: PCs reached of those instrumented, and when the last
 * new one was (its plateau); the functions never entered.
 */
void fz_kcov_report(FILE *out, unsigned int now)
{
	size_t i, j, all = 0, hit = 0;
	int f;

	for (f = 0; f < nfiles; f++) {
		size_t fa = 0, fh = 0;
		unsigned int last = 0;

		for (i = 0; i < npcs; i++) {
			if (pcs[i].file != f)
				continue;
			fa++;
			fh += total[i];
			if (total[i] && first[i] > last)
				last = first[i];
		}
		if (!fa)
			continue;
		fprintf(out, "fuzz: coverage %-36s %5zu / %5zu PCs  %5.1f%%", files[f] ? files[f] : "?",
			fh, fa, 100.0 * fh / fa);
		if (fh)
			fprintf(out, "  last new at %5u s\n", last);
		else
			fprintf(out, "\n");
		all += fa;
		hit += fh;
	}
	fprintf(out, "fuzz: coverage %-36s %5zu / %5zu PCs  %5.1f%%  last new at %5u s\n",
		"kernel/perfmon + arch/x86/perfmon", hit, all, all ? 100.0 * hit / all : 0.0,
		last_new);
	fprintf(out, "fuzz: coverage plateau: no new PC for the last %u s of %u\n",
		now - last_new, now);
	/* functions with no PC reached, one line each */
	for (i = 0; i < npcs; i = j) {
		int any = 0;

		for (j = i; j < npcs && !strcmp(pcs[j].func, pcs[i].func) &&
		     pcs[j].file == pcs[i].file; j++)
			any |= total[j];
		if (!any)
			fprintf(out, "fuzz: never entered: %s %s\n",
				files[pcs[i].file] ? files[pcs[i].file] : "?", pcs[i].func);
	}
}
