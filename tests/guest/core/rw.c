// SPDX-License-Identifier: GPL-2.0
/*
 * rw: validation of the register vectors of pfm_write_pmcs, pfm_write_pmds
 * and pfm_read_pmds, on the software PMU, and exact read-back.
 *
 * The PMD tests run twice, once per call (write, read): both take the same
 * vector and must reject it the same way.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

typedef int (*pmd_call_t)(int fd, struct pfarg_pmd *req, size_t size);

static const struct {
	const char *name;
	pmd_call_t call;
} pmd_calls[] = {
	{ "pfm_write_pmds", pfm_write_pmds },
	{ "pfm_read_pmds", pfm_read_pmds },
};
#define NUM_PMD_CALLS	((int)ARRAY_SIZE(pmd_calls))

/* not a PMC or PMD of any PMU: below, past and far past the software PMU */
static const unsigned int unknown_regs[] = { 20, 63, 1088, 1089, 65535 };
/* sets that were never created (set 0 always exists) */
static const unsigned int unknown_sets[] = { 1, PFM_MAX_SET_ID };

/* 'expr' must fail with 'err', and say which PMD call it was */
#define ck_assert_pmd_errno(i, expr, err) do {				\
	long __r;							\
	int __e;							\
	errno = 0;							\
	__r = (expr);							\
	__e = errno;							\
	ck_assert_msg(__r == -1 && __e == (err),			\
		      "%s: %s: returned %ld, errno %d (%s); expected %s",\
		      pmd_calls[i].name, #expr, __r, __e, strerror(__e),\
		      #err);						\
} while (0)

/* --- sizes and pointers ------------------------------------------------ */

START_TEST(test_pmcs_size_zero)
{
	struct pfarg_pmc pc;
	int fd = ck_ctx_create();

	pmc_init(&pc, SW_PMC(0), 0);
	ck_assert_errno(pfm_write_pmcs(fd, &pc, 0), EINVAL);
	close(fd);
}
END_TEST

START_TEST(test_pmcs_size_not_multiple)
{
	struct pfarg_pmc pc[3];
	int fd = ck_ctx_create();

	pmc_init(&pc[0], SW_PMC(0), 0);
	pmc_init(&pc[1], SW_PMC(1), 0);
	pmc_init(&pc[2], SW_PMC(2), 0);
	ck_assert_errno(pfm_write_pmcs(fd, pc, sizeof(pc[0]) - 1), EINVAL);
	ck_assert_errno(pfm_write_pmcs(fd, pc, sizeof(pc[0]) + 1), EINVAL);
	ck_assert_errno(pfm_write_pmcs(fd, pc, 2 * sizeof(pc[0]) + 8), EINVAL);
	ck_assert_errno(pfm_write_pmcs(fd, pc, 1), EINVAL);
	close(fd);
}
END_TEST

START_TEST(test_pmcs_bad_pointer)
{
	int fd = ck_ctx_create();

	ck_assert_errno(pfm_write_pmcs(fd, NULL, sizeof(struct pfarg_pmc)),
			EFAULT);
	ck_assert_errno(pfm_write_pmcs(fd, (void *)1, sizeof(struct pfarg_pmc)),
			EFAULT);
	close(fd);
}
END_TEST

START_TEST(test_pmds_size_zero)
{
	struct pfarg_pmd pd;
	int fd = ck_ctx_create();

	pmd_init(&pd, SW_PMD(0), 0);
	ck_assert_pmd_errno(_i, pmd_calls[_i].call(fd, &pd, 0), EINVAL);
	close(fd);
}
END_TEST

START_TEST(test_pmds_size_not_multiple)
{
	struct pfarg_pmd pd[3];
	int fd = ck_ctx_create();

	pmd_init(&pd[0], SW_PMD(0), 0);
	pmd_init(&pd[1], SW_PMD(1), 0);
	pmd_init(&pd[2], SW_PMD(2), 0);
	ck_assert_pmd_errno(_i, pmd_calls[_i].call(fd, pd, sizeof(pd[0]) - 1),
			    EINVAL);
	ck_assert_pmd_errno(_i, pmd_calls[_i].call(fd, pd, sizeof(pd[0]) + 1),
			    EINVAL);
	ck_assert_pmd_errno(_i, pmd_calls[_i].call(fd, pd, 2 * sizeof(pd[0]) + 8),
			    EINVAL);
	ck_assert_pmd_errno(_i, pmd_calls[_i].call(fd, pd, 1), EINVAL);
	close(fd);
}
END_TEST

START_TEST(test_pmds_bad_pointer)
{
	int fd = ck_ctx_create();

	ck_assert_pmd_errno(_i, pmd_calls[_i].call(fd, NULL,
				sizeof(struct pfarg_pmd)), EFAULT);
	ck_assert_pmd_errno(_i, pmd_calls[_i].call(fd, (void *)1,
				sizeof(struct pfarg_pmd)), EFAULT);
	close(fd);
}
END_TEST

/* read_pmds writes its vector back: a read-only vector cannot take it */
START_TEST(test_read_pmds_readonly)
{
	struct pfarg_pmd *pd;
	int fd = ck_ctx_create();

	pd = mmap(NULL, page_size(), PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(pd != MAP_FAILED);
	pmd_init(pd, SW_PMD(0), 0);
	ck_assert_ok(mprotect(pd, page_size(), PROT_READ));
	ck_assert_errno(pfm_read_pmds(fd, pd, sizeof(*pd)), EFAULT);
	/* writing needs only to read the vector */
	ck_assert_ok(pfm_write_pmds(fd, pd, sizeof(*pd)));
	munmap(pd, page_size());
	close(fd);
}
END_TEST

/* --- register fields --------------------------------------------------- */

START_TEST(test_pmcs_unknown_reg)
{
	struct pfarg_pmc pc;
	int fd = ck_ctx_create();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unknown_regs); i++) {
		pmc_init(&pc, unknown_regs[i], 0);
		ck_assert_errno(pfm_write_pmcs(fd, &pc, sizeof(pc)), EINVAL);
	}
	close(fd);
}
END_TEST

static const uint64_t pmc_reserved_bits[] = {
	1ULL << 8, 1ULL << 20, 1ULL << 21, 1ULL << 23, 1ULL << 32, 1ULL << 63,
};

START_TEST(test_pmcs_reserved_bits)
{
	struct pfarg_pmc pc;
	int fd = ck_ctx_create();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pmc_reserved_bits); i++) {
		pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS) |
			 pmc_reserved_bits[i]);
		ck_assert_msg(pfm_write_pmcs(fd, &pc, sizeof(pc)) == -1 &&
			      errno == EINVAL,
			      "reserved bit %#llx accepted or errno %s",
			      (unsigned long long)pmc_reserved_bits[i],
			      strerror(errno));
	}
	close(fd);
}
END_TEST

START_TEST(test_pmcs_bad_event)
{
	static const unsigned int events[] = { PFM_SW_EV_MAX + 1, 0x40, 0x80, 0xff };
	struct pfarg_pmc pc;
	int fd = ck_ctx_create();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(events[i]));
		ck_assert_msg(pfm_write_pmcs(fd, &pc, sizeof(pc)) == -1 &&
			      errno == EINVAL, "event %#x accepted or errno %s",
			      events[i], strerror(errno));
		/* an event is checked even on a disabled counter */
		pmc_init(&pc, SW_PMC(0), events[i]);
		ck_assert_msg(pfm_write_pmcs(fd, &pc, sizeof(pc)) == -1 &&
			      errno == EINVAL, "event %#x (EN clear) accepted "
			      "or errno %s", events[i], strerror(errno));
	}
	close(fd);
}
END_TEST

START_TEST(test_pmcs_unknown_flags)
{
	static const uint32_t flags[] = { 0x2, 0x80000000u };
	struct pfarg_pmc pc;
	int fd = ck_ctx_create();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
		pc.reg_flags = flags[i];
		ck_assert_errno(pfm_write_pmcs(fd, &pc, sizeof(pc)), EINVAL);
	}
	close(fd);
}
END_TEST

START_TEST(test_pmcs_reserved_field)
{
	struct pfarg_pmc pc;
	int fd = ck_ctx_create();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pc.reg_reserved2); i++) {
		pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
		pc.reg_reserved2[i] = 1;
		ck_assert_msg(pfm_write_pmcs(fd, &pc, sizeof(pc)) == -1 &&
			      errno == EINVAL, "reg_reserved2[%zu] accepted "
			      "or errno %s", i, strerror(errno));
	}
	close(fd);
}
END_TEST

START_TEST(test_pmcs_unknown_set)
{
	struct pfarg_pmc pc;
	int fd = ck_ctx_create();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unknown_sets); i++) {
		pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
		pc.reg_set = unknown_sets[i];
		ck_assert_errno(pfm_write_pmcs(fd, &pc, sizeof(pc)), EINVAL);
	}
	close(fd);
}
END_TEST

#define PMCS_PER_PAGE	(4096 / sizeof(struct pfarg_pmc))

/*
 * every software PMC takes every event, enabled or not, in vectors of a page (the
 * default arg_mem_max); the keyed events (their sources say which keys exist) are
 * tested with their sources
 */
START_TEST(test_pmcs_valid)
{
	struct pfarg_pmc pc[PFM_SW_NUM_COUNTERS];
	int fd = ck_ctx_create();
	int ev, i, k, m;

	for (ev = PFM_SW_EV_NONE; ev < PFM_SW_EV_TRACEPOINT; ev++) {
		for (i = 0; i < PFM_SW_NUM_COUNTERS; i++)
			pmc_init(&pc[i], SW_PMC(i), (i & 1) ? PFM_SW_PMC(ev)
							    : (uint64_t)ev);
		for (k = 0; k < PFM_SW_NUM_COUNTERS; k += m) {
			m = PFM_SW_NUM_COUNTERS - k < (int)PMCS_PER_PAGE ?
			    PFM_SW_NUM_COUNTERS - k : (int)PMCS_PER_PAGE;
			ck_assert_ok(pfm_write_pmcs(fd, pc + k, m * sizeof(pc[0])));
		}
	}
	close(fd);
}
END_TEST

START_TEST(test_pmds_unknown_reg)
{
	struct pfarg_pmd pd;
	int fd = ck_ctx_create();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unknown_regs); i++) {
		pmd_init(&pd, unknown_regs[i], 0);
		ck_assert_pmd_errno(_i, pmd_calls[_i].call(fd, &pd, sizeof(pd)),
				    EINVAL);
	}
	close(fd);
}
END_TEST

START_TEST(test_pmds_unknown_flags)
{
	static const uint32_t flags[] = { 0x10, 0x100, 0x80000000u };
	struct pfarg_pmd pd;
	int fd = ck_ctx_create();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		pmd_init(&pd, SW_PMD(0), 0);
		pd.reg_flags = flags[i];
		ck_assert_pmd_errno(_i, pmd_calls[_i].call(fd, &pd, sizeof(pd)),
				    EINVAL);
	}
	close(fd);
}
END_TEST

START_TEST(test_pmds_reserved_field)
{
	struct pfarg_pmd pd;
	int fd = ck_ctx_create();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pd.reg_reserved2); i++) {
		pmd_init(&pd, SW_PMD(0), 0);
		pd.reg_reserved2[i] = 1;
		ck_assert_msg(pmd_calls[_i].call(fd, &pd, sizeof(pd)) == -1 &&
			      errno == EINVAL, "%s: reg_reserved2[%zu] accepted "
			      "or errno %s", pmd_calls[_i].name, i,
			      strerror(errno));
	}
	close(fd);
}
END_TEST

START_TEST(test_pmds_unknown_set)
{
	struct pfarg_pmd pd;
	int fd = ck_ctx_create();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unknown_sets); i++) {
		pmd_init(&pd, SW_PMD(0), 0);
		pd.reg_set = unknown_sets[i];
		ck_assert_pmd_errno(_i, pmd_calls[_i].call(fd, &pd, sizeof(pd)),
				    EINVAL);
	}
	close(fd);
}
END_TEST

/* --- a failed call changes no state ------------------------------------ */

START_TEST(test_pmds_failed_vector)
{
	struct pfarg_pmd pd[2];
	int fd = ck_ctx_create();

	ck_write_pmd(fd, SW_PMD(0), 5);
	ck_write_pmd(fd, SW_PMD(1), 0);
	pmd_init(&pd[0], SW_PMD(1), 7);
	pmd_init(&pd[1], 1999, 1);
	ck_assert_errno(pfm_write_pmds(fd, pd, sizeof(pd)), EINVAL);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 5);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), 0);
	close(fd);
}
END_TEST

/*
 * Every PMD flag is known; sampling needs a sampling buffer, and a vector asking for
 * it on a context without one changes nothing.
 */
START_TEST(test_pmds_flags)
{
	static const uint32_t ok[] = {
		PFM_PMDFL_SWITCH, PFM_PMDFL_OVFL_NOTIFY, PFM_PMDFL_RANDOM,
		PFM_PMDFL_SWITCH | PFM_PMDFL_OVFL_NOTIFY | PFM_PMDFL_RANDOM,
	};
	struct pfarg_pmd pd[2];
	int fd = ck_ctx_create();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		pmd_init(&pd[0], SW_PMD(0), 0);
		pd[0].reg_flags = ok[i];
		ck_assert_ok(pfm_write_pmds(fd, pd, sizeof(pd[0])));
	}
	ck_write_pmd(fd, SW_PMD(1), 5);
	pmd_init(&pd[0], SW_PMD(1), 7);
	pmd_init(&pd[1], SW_PMD(0), 1);
	pd[1].reg_flags = PFM_PMDFL_SMPL;
	ck_assert_errno(pfm_write_pmds(fd, pd, sizeof(pd)), EINVAL);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), 5);
	close(fd);
}
END_TEST

/* output is written back only on success */
START_TEST(test_read_pmds_failed_no_writeback)
{
	struct pfarg_pmd pd[2];
	int fd = ck_ctx_create();

	ck_write_pmd(fd, SW_PMD(0), 5);
	pmd_init(&pd[0], SW_PMD(0), 0x5a5a5a5a);
	pmd_init(&pd[1], 1999, 0);
	ck_assert_errno(pfm_read_pmds(fd, pd, sizeof(pd)), EINVAL);
	ck_assert_uint_eq(pd[0].reg_value, 0x5a5a5a5a);
	close(fd);
}
END_TEST

/*
 * PMC state is only visible through counting: a failed vector that would have
 * enabled the syscall event on PMC 65 must leave PMD 65 still.  PMC 64 counts
 * the same event as a witness that counting works.
 */
START_TEST(test_pmcs_failed_vector)
{
	struct pfarg_pmc pc[2];
	uint64_t witness, victim;
	int fd = ck_ctx_create();
	int rs, rt;

	ck_counter(fd, 0, PFM_SW_EV_SYSCALLS);
	ck_write_pmc(fd, SW_PMC(1), 0);
	ck_write_pmd(fd, SW_PMD(1), 0);

	/* bad register after a good one */
	pmc_init(&pc[0], SW_PMC(1), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	pmc_init(&pc[1], 1999, 0);
	ck_assert_errno(pfm_write_pmcs(fd, pc, sizeof(pc)), EINVAL);
	/* bad value after a good one */
	pmc_init(&pc[1], SW_PMC(2), PFM_SW_PMC(PFM_SW_EV_SYSCALLS) | (1ULL << 8));
	ck_assert_errno(pfm_write_pmcs(fd, pc, sizeof(pc)), EINVAL);

	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	do_getppid(10);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);

	witness = ck_read_pmd(fd, SW_PMD(0));
	victim = ck_read_pmd(fd, SW_PMD(1));
	ck_assert_uint_eq(witness, 11);
	ck_assert_uint_eq(victim, 0);
	close(fd);
}
END_TEST

/* --- read-back --------------------------------------------------------- */

static const uint64_t pmd_values[] = {
	0, 1, 5, 0xffffffffULL, 0x100000000ULL, 0x123456789abcdef0ULL,
	0x8000000000000000ULL, 0xffffffffffffff00ULL, 0xffffffffffffffffULL,
};

/* PMDs are 64-bit whatever the hardware: every value comes back exactly */
START_TEST(test_pmds_readback)
{
	struct pfarg_pmd pd;
	int fd = ck_ctx_create();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pmd_values); i++) {
		ck_write_pmd(fd, SW_PMD(3), pmd_values[i]);
		/* the read must overwrite this */
		pmd_init(&pd, SW_PMD(3), ~pmd_values[i]);
		ck_assert_ok(pfm_read_pmds(fd, &pd, sizeof(pd)));
		ck_assert_msg(pd.reg_value == pmd_values[i],
			      "wrote %#llx, read %#llx",
			      (unsigned long long)pmd_values[i],
			      (unsigned long long)pd.reg_value);
	}
	close(fd);
}
END_TEST

/*
 * All software PMDs, in vectors of as many as a page holds (the default
 * arg_mem_max: 23 of 176 bytes), each way.
 */
#define PMDS_PER_PAGE	(4096 / sizeof(struct pfarg_pmd))

START_TEST(test_pmds_readback_all)
{
	struct pfarg_pmd pd[PFM_SW_NUM_COUNTERS];
	int fd = ck_ctx_create();
	int i, k, m;

	for (i = 0; i < PFM_SW_NUM_COUNTERS; i++)
		pmd_init(&pd[i], SW_PMD(i),
			 0xffffffffffffff00ULL + (uint64_t)i * 0x11);
	for (k = 0; k < PFM_SW_NUM_COUNTERS; k += m) {
		m = PFM_SW_NUM_COUNTERS - k < (int)PMDS_PER_PAGE ? PFM_SW_NUM_COUNTERS - k :
							   (int)PMDS_PER_PAGE;
		ck_assert_ok(pfm_write_pmds(fd, pd + k, m * sizeof(pd[0])));
	}

	/* read in the reverse order, to see values follow reg_num */
	for (i = 0; i < PFM_SW_NUM_COUNTERS; i++)
		pmd_init(&pd[i], SW_PMD(PFM_SW_NUM_COUNTERS - 1 - i), 0);
	for (k = 0; k < PFM_SW_NUM_COUNTERS; k += m) {
		m = PFM_SW_NUM_COUNTERS - k < (int)PMDS_PER_PAGE ? PFM_SW_NUM_COUNTERS - k :
							   (int)PMDS_PER_PAGE;
		ck_assert_ok(pfm_read_pmds(fd, pd + k, m * sizeof(pd[0])));
	}
	for (i = 0; i < PFM_SW_NUM_COUNTERS; i++) {
		int reg = PFM_SW_NUM_COUNTERS - 1 - i;

		ck_assert_uint_eq(pd[i].reg_num, SW_PMD(reg));
		ck_assert_uint_eq(pd[i].reg_value,
				  0xffffffffffffff00ULL + (uint64_t)reg * 0x11);
	}
	close(fd);
}
END_TEST

/*
 * --- the read's one visit and its hand-offs to the long way ----------------
 *
 * A vector of up to 16 requests is read under the context's lock with page
 * faults off; a page not at hand, a request that fails a check or a longer
 * vector goes the long way.  Either way the answer must be the same.
 */

/* n requests for the software PMDs in turn, each written a value of its own */
static void readback_fill(int fd, struct pfarg_pmd *pd, int n)
{
	int i;

	for (i = 0; i < PFM_SW_NUM_COUNTERS; i++)
		ck_write_pmd(fd, SW_PMD(i), 0x1000 + i);
	for (i = 0; i < n; i++)
		pmd_init(&pd[i], SW_PMD(i % PFM_SW_NUM_COUNTERS), ~0ULL);
}

static void readback_check(const struct pfarg_pmd *pd, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ck_assert_msg(pd[i].reg_value == 0x1000 + (uint64_t)(i % PFM_SW_NUM_COUNTERS),
			      "request %d of %d: %#llx", i, n,
			      (unsigned long long)pd[i].reg_value);
}

/* 1 to 20 requests: the visit's longest vector and the long way's shortest */
START_TEST(test_read_pmds_lengths)
{
	struct pfarg_pmd pd[20];
	int fd = ck_ctx_create();
	int n;

	for (n = 1; n <= 20; n++) {
		readback_fill(fd, pd, n);
		ck_assert_ok(pfm_read_pmds(fd, pd, n * sizeof(*pd)));
		readback_check(pd, n);
	}
	close(fd);
}
END_TEST

/*
 * The vector in pages never touched: a file's pages mapped afresh (the fetch
 * faults) and, privately, written to only by the read (the answer faults).
 */
START_TEST(test_read_pmds_pages_not_at_hand)
{
	struct pfarg_pmd pd[8], *map;
	size_t len = 2 * page_size();
	size_t off = page_size() - 3 * sizeof(*pd);	/* across the two pages */
	int fd = ck_ctx_create();
	int mfd = memfd_create("pfm-vector", 0);
	int flags;

	ck_assert_int_ge(mfd, 0);
	ck_assert_ok(ftruncate(mfd, len));
	readback_fill(fd, pd, 8);
	ck_assert_int_eq(pwrite(mfd, pd, sizeof(pd), off), sizeof(pd));
	for (flags = MAP_SHARED; ; flags = MAP_PRIVATE) {
		map = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, mfd, 0);
		ck_assert(map != MAP_FAILED);
		ck_assert_ok(pfm_read_pmds(fd, (void *)((char *)map + off), sizeof(pd)));
		readback_check((void *)((char *)map + off), 8);
		munmap(map, len);
		if (flags == MAP_PRIVATE)
			break;
		/* the shared mapping wrote the answer into the file: start again */
		ck_assert_int_eq(pwrite(mfd, pd, sizeof(pd), off), sizeof(pd));
	}
	close(mfd);
	close(fd);
}
END_TEST

struct cow_arg {
	int fd;
	struct pfarg_pmd *pd;
};

/* after fork the vector's page is shared copy-on-write: the answer faults */
static void read_after_fork(void *arg)
{
	const struct cow_arg *a = arg;
	int i;

	child_expect(pfm_read_pmds(a->fd, a->pd, 8 * sizeof(*a->pd)), 0);
	for (i = 0; i < 8; i++)
		if (a->pd[i].reg_value != 0x1000 + (uint64_t)i)
			child_fail("request %d: %#llx", i,
				   (unsigned long long)a->pd[i].reg_value);
}

START_TEST(test_read_pmds_copy_on_write)
{
	struct cow_arg a = { .fd = ck_ctx_create() };

	a.pd = (struct pfarg_pmd *)ck_fresh_pages(1);
	readback_fill(a.fd, a.pd, 8);
	ck_child("read after fork", read_after_fork, &a);
	/* the parent's copy is its own */
	ck_assert_uint_eq(a.pd[0].reg_value, ~0ULL);
	munmap(a.pd, page_size());
	close(a.fd);
}
END_TEST

/* A bad request first and a fault last: the fault is the answer (EFAULT before EINVAL). */
START_TEST(test_read_pmds_fault_before_invalid)
{
	char *p = ck_fresh_pages(2);
	struct pfarg_pmd *pd = (struct pfarg_pmd *)(p + page_size()) - 2;
	int fd = ck_ctx_create();

	ck_write_pmd(fd, SW_PMD(0), 7);
	pmd_init(&pd[0], 1999, 0x5a);
	pmd_init(&pd[1], SW_PMD(0), 0x5a);
	ck_assert_errno(pfm_read_pmds(fd, pd, sizeof(*pd) * 2), EINVAL);
	/* the second request now runs into a page that is not there */
	ck_assert_ok(mprotect(p + page_size(), page_size(), PROT_NONE));
	ck_assert_errno(pfm_read_pmds(fd, pd, sizeof(*pd) * 3), EFAULT);
	ck_assert_uint_eq(pd[0].reg_value, 0x5a);
	ck_assert_uint_eq(pd[1].reg_value, 0x5a);
	munmap(p, 2 * page_size());
	close(fd);
}
END_TEST

/* Sets named in turn, the active one first and again last, each with its own values. */
START_TEST(test_read_pmds_sets_in_turn)
{
	static const unsigned int sets[] = { 0, 5, 5, 0, 9, 0 };
	struct pfarg_pmd pd[ARRAY_SIZE(sets)];
	struct pfarg_setdesc d;
	int fd = ck_ctx_create();
	unsigned int k, id;

	for (id = 5; id <= 9; id += 4) {
		memset(&d, 0, sizeof(d));
		d.set_id = id;
		ck_assert_ok(pfm_create_evtsets(fd, &d, sizeof(d)));
	}
	for (k = 0; k < ARRAY_SIZE(sets); k++) {
		pmd_init(&pd[k], SW_PMD(k), ((uint64_t)sets[k] << 32) | k);
		pd[k].reg_set = sets[k];
	}
	ck_assert_ok(pfm_write_pmds(fd, pd, sizeof(pd)));
	for (k = 0; k < ARRAY_SIZE(sets); k++)
		pd[k].reg_value = ~0ULL;
	/* loaded on itself and started: set 0 is live */
	ck_load_self(fd);
	ck_assert_ok(pfm_start(fd, 0));
	ck_assert_ok(pfm_read_pmds(fd, pd, sizeof(pd)));
	ck_assert_ok(pfm_stop(fd, 0));
	for (k = 0; k < ARRAY_SIZE(sets); k++)
		ck_assert_uint_eq(pd[k].reg_value, ((uint64_t)sets[k] << 32) | k);
	close(fd);
}
END_TEST

/* --- arg_mem_max ------------------------------------------------------- */

/* A vector one element larger than arg_mem_max allows, of valid elements. */
static void *big_vector(size_t elem, size_t *size)
{
	long max = ck_sysfs_read_long(PFM_ARG_MEM_MAX);
	size_t n, i;
	char *v;

	ck_assert_int_gt(max, 0);
	n = (size_t)max / elem + 1;
	*size = n * elem;
	v = calloc(n, elem);
	ck_assert_ptr_nonnull(v);
	/* every element names a software register, cycling over the 8 */
	for (i = 0; i < n; i++) {
		if (elem == sizeof(struct pfarg_pmc))
			pmc_init((struct pfarg_pmc *)(v + i * elem),
				 SW_PMC(i % PFM_SW_NUM_COUNTERS), 0);
		else
			pmd_init((struct pfarg_pmd *)(v + i * elem),
				 SW_PMD(i % PFM_SW_NUM_COUNTERS), 0);
	}
	return v;
}

static void raise_arg_mem_max(size_t size)
{
	long max = ck_sysfs_read_long(PFM_ARG_MEM_MAX);
	char buf[32];

	/* twice the old value covers the one extra element */
	snprintf(buf, sizeof(buf), "%ld\n", 2 * max);
	ck_assert_msg(!sysfs_write(PFM_ARG_MEM_MAX, buf),
		      "write %s to arg_mem_max: %s", buf, strerror(errno));
	ck_assert_uint_ge((size_t)ck_sysfs_read_long(PFM_ARG_MEM_MAX), size);
}

START_TEST(test_pmcs_e2big)
{
	size_t size;
	void *v = big_vector(sizeof(struct pfarg_pmc), &size);
	int fd = ck_ctx_create();

	ck_assert_errno(pfm_write_pmcs(fd, v, size), E2BIG);
	raise_arg_mem_max(size);
	ck_assert_ok(pfm_write_pmcs(fd, v, size));
	arg_mem_max_restore();
	ck_assert_errno(pfm_write_pmcs(fd, v, size), E2BIG);
	free(v);
	close(fd);
}
END_TEST

START_TEST(test_pmds_e2big)
{
	size_t size;
	void *v = big_vector(sizeof(struct pfarg_pmd), &size);
	int fd = ck_ctx_create();

	ck_assert_pmd_errno(_i, pmd_calls[_i].call(fd, v, size), E2BIG);
	raise_arg_mem_max(size);
	ck_assert_ok(pmd_calls[_i].call(fd, v, size));
	arg_mem_max_restore();
	ck_assert_pmd_errno(_i, pmd_calls[_i].call(fd, v, size), E2BIG);
	free(v);
	close(fd);
}
END_TEST

Suite *pfm_rw_suite(void)
{
	Suite *s = suite_create("rw");
	TCase *tc;

	tc = pfm_tcase("pmcs");
	tcase_add_test(tc, test_pmcs_size_zero);
	tcase_add_test(tc, test_pmds_flags);
	tcase_add_test(tc, test_pmcs_size_not_multiple);
	tcase_add_test(tc, test_pmcs_bad_pointer);
	tcase_add_test(tc, test_pmcs_unknown_reg);
	tcase_add_test(tc, test_pmcs_reserved_bits);
	tcase_add_test(tc, test_pmcs_bad_event);
	tcase_add_test(tc, test_pmcs_unknown_flags);
	tcase_add_test(tc, test_pmcs_reserved_field);
	tcase_add_test(tc, test_pmcs_unknown_set);
	tcase_add_test(tc, test_pmcs_valid);
	tcase_add_test(tc, test_pmcs_failed_vector);
	suite_add_tcase(s, tc);

	tc = pfm_tcase("pmds");
	tcase_add_loop_test(tc, test_pmds_size_zero, 0, NUM_PMD_CALLS);
	tcase_add_loop_test(tc, test_pmds_size_not_multiple, 0, NUM_PMD_CALLS);
	tcase_add_loop_test(tc, test_pmds_bad_pointer, 0, NUM_PMD_CALLS);
	tcase_add_test(tc, test_read_pmds_readonly);
	tcase_add_loop_test(tc, test_pmds_unknown_reg, 0, NUM_PMD_CALLS);
	tcase_add_loop_test(tc, test_pmds_unknown_flags, 0, NUM_PMD_CALLS);
	tcase_add_loop_test(tc, test_pmds_reserved_field, 0, NUM_PMD_CALLS);
	tcase_add_loop_test(tc, test_pmds_unknown_set, 0, NUM_PMD_CALLS);
	tcase_add_test(tc, test_pmds_failed_vector);
	tcase_add_test(tc, test_read_pmds_failed_no_writeback);
	tcase_add_test(tc, test_pmds_readback);
	tcase_add_test(tc, test_pmds_readback_all);
	tcase_add_test(tc, test_read_pmds_lengths);
	tcase_add_test(tc, test_read_pmds_pages_not_at_hand);
	tcase_add_test(tc, test_read_pmds_copy_on_write);
	tcase_add_test(tc, test_read_pmds_fault_before_invalid);
	tcase_add_test(tc, test_read_pmds_sets_in_turn);
	suite_add_tcase(s, tc);

	/* these change arg_mem_max: the runner puts it back whatever happens */
	tc = pfm_tcase("arg_mem_max");
	tcase_add_unchecked_fixture(tc, arg_mem_max_save, arg_mem_max_restore);
	tcase_add_test(tc, test_pmcs_e2big);
	tcase_add_loop_test(tc, test_pmds_e2big, 0, NUM_PMD_CALLS);
	suite_add_tcase(s, tc);
	return s;
}
