// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff: the sample fields after RAW (perf record's --call-graph dwarf,
 * -d, -W, --user-regs, --intr-regs, --transaction, --phys-data,
 * --data-page-size, --code-page-size, --all-cgroups), compared record by
 * record on the test thread's own page faults, one a sample, on fresh pages:
 * the record's size and misc, the registers' ABI and the relations the
 * workload fixes (the user registers' IP is the sample's IP, the interrupted
 * registers of a user fault are the user registers), CS and SS themselves,
 * the stack copy's sizes, WEIGHT, DATA_SRC, TRANSACTION, PHYS_ADDR and
 * DATA_PAGE_SIZE of a page not yet mapped, CODE_PAGE_SIZE, the cgroup id, the
 * AUX size (no AUX event), all exactly.  Then the masks and sizes 6.1 refuses, and what it answers.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <asm/perf_regs.h>

#include "diff.h"

#define TAIL_PAGES	16
#define TAIL_STACK	64	/* bytes of user stack a sample copies */

/* AX, SP, IP, CS, SS, R15: six registers, in the bits' order */
#define TAIL_REGS	((1ULL << PERF_REG_X86_AX) | (1ULL << PERF_REG_X86_SP) | \
			 (1ULL << PERF_REG_X86_IP) | (1ULL << PERF_REG_X86_CS) | \
			 (1ULL << PERF_REG_X86_SS) | (1ULL << PERF_REG_X86_R15))
#define TAIL_NREGS	6

#define TAIL_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_REGS_USER | \
			 PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | \
			 PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | \
			 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | \
			 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | \
			 PERF_SAMPLE_AUX)

struct tail_walk {
	struct trace *t;
	unsigned long long samples, other;
};

static void tail_rec(const struct perf_event_header *h, const unsigned long long *w,
		     void *arg)
{
	const unsigned long long *u, *s, *x, *i;
	struct tail_walk *tw = arg;

	if (h->type != PERF_RECORD_SAMPLE) {
		tw->other++;
		return;
	}
	obs_call(tw->t, 0, 1, "sample %llu", tw->samples++);
	obs_val(tw->t, h->misc, 'e');
	obs_val(tw->t, h->size, 'e');
	u = w + 2;			/* abi, AX, SP, IP, CS, SS, R15 */
	s = u + 1 + TAIL_NREGS;		/* size, the copy, the bytes copied */
	x = s + 2 + TAIL_STACK / 8;	/* weight, data_src, transaction */
	i = x + 3;			/* abi, the six registers */
	obs_val(tw->t, u[0], 'e');
	obs_val(tw->t, u[3] == w[0], 'e');
	obs_vals(tw->t, (unsigned long long[]){ u[4], u[5] }, 2, "ee");
	obs_vals(tw->t, (unsigned long long[]){ s[0], s[1 + TAIL_STACK / 8] }, 2, "ee");
	obs_vals(tw->t, x, 3, "eee");
	obs_val(tw->t, i[0], 'e');
	obs_val(tw->t, !memcmp(u + 1, i + 1, TAIL_NREGS * sizeof(*u)), 'e');
	/* PHYS_ADDR, CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE, AUX's size */
	obs_vals(tw->t, i + 1 + TAIL_NREGS, 5, "eeeee");
}

/* the test thread's user page faults, each sampled with st, the masks and the stack */
static void tail_attr(struct perf_event_attr *a, unsigned long long st, unsigned long long ur,
		      unsigned long long ir, unsigned int stack)
{
	attr_sw(a, PERF_COUNT_SW_PAGE_FAULTS);
	a->exclude_kernel = 1;
	a->sample_period = 1;
	a->sample_type = st;
	a->sample_regs_user = ur;
	a->sample_regs_intr = ir;
	a->sample_stack_user = stack;
}

void case_sample_tail(const struct backend *be, struct trace *t)
{
	volatile char *p = fresh(TAIL_PAGES);
	struct tail_walk tw = { .t = t };
	struct perf_event_attr a;
	struct dring r;
	int fd;

	if (!p)
		return;
	tail_attr(&a, TAIL_TYPE, TAIL_REGS, TAIL_REGS, TAIL_STACK);
	fd = do_open(be, t, &a, 0, -1, -1, 0, "page-faults, every field after RAW");
	if (fd < 0 || dring_map(t, &r, fd, 16))
		goto out;
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 1, "ENABLE");
	touch(p, 0, TAIL_PAGES);
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE");
	dring_walk(&r, tail_rec, &tw);
	obs_call(t, 0, 1, "records");
	obs_vals(t, (unsigned long long[]){ tw.samples, tw.other }, 2, "ee");
	munmap(r.pg, r.len);
out:
	if (fd >= 0)
		close(fd);
	munmap((void *)p, TAIL_PAGES * sysconf(_SC_PAGESIZE));
}

/* one open of a sampling page-fault event with st, the masks and the stack size */
static void tail_open(const struct backend *be, struct trace *t, unsigned long long st,
		      unsigned long long ur, unsigned long long ir, unsigned int stack,
		      const char *what)
{
	struct perf_event_attr a;
	int fd;

	tail_attr(&a, st, ur, ir, stack);
	fd = do_open(be, t, &a, 0, -1, -1, 0, what);
	if (fd >= 0)
		close(fd);
}

void case_sample_tail_bad(const struct backend *be, struct trace *t)
{
	const unsigned long long ru = PERF_SAMPLE_REGS_USER, ri = PERF_SAMPLE_REGS_INTR;
	struct perf_event_attr a;
	int fd;

	tail_open(be, t, ru, 0, 0, 0, "REGS_USER, no register");
	tail_open(be, t, ru, 1ULL << PERF_REG_X86_DS, 0, 0, "REGS_USER with DS");
	tail_open(be, t, ru, 1ULL << PERF_REG_X86_GS, 0, 0, "REGS_USER with GS");
	tail_open(be, t, ru, 1ULL << PERF_REG_X86_64_MAX, 0, 0, "REGS_USER, a reserved bit");
	tail_open(be, t, ru, 1ULL << PERF_REG_X86_XMM0, 0, 0, "REGS_USER with XMM0");
	tail_open(be, t, ru, 0xff0fffULL, 0, 0, "REGS_USER, every register");
	tail_open(be, t, ri, 0, 0, 0, "REGS_INTR, no register");
	tail_open(be, t, ri, 0, 1ULL << PERF_REG_X86_ES, 0, "REGS_INTR with ES");
	tail_open(be, t, ri, 0, 1ULL << (PERF_REG_X86_XMM0 + 2), 0, "REGS_INTR with XMM1");
	tail_open(be, t, ri | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, 0, 0, 0,
		  "REGS_INTR, no register, and both weights");
	tail_open(be, t, 0, 1ULL << PERF_REG_X86_XMM0, 0, 0, "XMM0 in the mask, not asked");
	tail_open(be, t, PERF_SAMPLE_STACK_USER, 0, 0, 65535, "STACK_USER 65535");
	tail_open(be, t, PERF_SAMPLE_STACK_USER, 0, 0, 65528, "STACK_USER 65528");
	tail_open(be, t, PERF_SAMPLE_STACK_USER, 0, 0, 12, "STACK_USER 12");
	tail_open(be, t, PERF_SAMPLE_STACK_USER | ru, 0xff0fffULL, 0, 8192,
		  "perf record --call-graph dwarf");
	tail_open(be, t, PERF_SAMPLE_AUX, 0, 0, 0, "AUX without an AUX event");
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_AUX;
	a.aux_sample_size = 4096;
	fd = do_open(be, t, &a, 0, -1, -1, 0, "AUX, aux_sample_size 4096, no AUX event");
	if (fd >= 0)
		close(fd);
	/* a counting event with XMM bits: refused as well */
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_regs_intr = 1ULL << PERF_REG_X86_XMM0;
	fd = do_open(be, t, &a, 0, -1, -1, 0, "counting, XMM0 in sample_regs_intr");
	if (fd >= 0)
		close(fd);
}
