// SPDX-License-Identifier: GPL-2.0
/*
 * counts_reader: the counts page's prepared reader (pfm_counts_prepare(),
 * pfm_counts_read()) on the kernel's page.  Its reads equal pfm_read_pmds() and
 * pfm_read_mapped() while the thread counts, migrates and switches sets; the
 * page's layout generation moves at a set switch and at a write that shows or
 * hides a PMD, and only then; the reader checks again when it moved; every bad
 * input has its errno.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

/* PMDs pmds[0..n-1] of set by pfm_read_pmds(). */
static void ck_read_set(int fd, unsigned int set, const unsigned int *pmds, uint64_t *v,
			unsigned int n)
{
	struct pfarg_pmd pd[8];
	unsigned int k;

	ck_assert_uint_le(n, ARRAY_SIZE(pd));
	for (k = 0; k < n; k++) {
		pmd_init(&pd[k], pmds[k], 0);
		pd[k].reg_set = set;
	}
	ck_assert_ok(pfm_read_pmds(fd, pd, n * sizeof(pd[0])));
	for (k = 0; k < n; k++)
		v[k] = pd[k].reg_value;
}

/* The reader, pfm_read_mapped() and pfm_read_pmds() read the same n values. */
static void ck_reader_exact(int fd, struct pfm_counts_reader *r, const unsigned int *pmds)
{
	uint64_t v[8], m[8], s[8];
	unsigned int k;

	ck_assert_ok(pfm_counts_read(r, v));
	ck_assert_ok(pfm_read_mapped(r->pg, r->set, pmds, m, r->n));
	ck_read_set(fd, r->set, pmds, s, r->n);
	for (k = 0; k < r->n; k++) {
		ck_assert_uint_eq(v[k], s[k]);
		ck_assert_uint_eq(m[k], s[k]);
	}
}

/*
 * Self-monitoring: system calls and page faults, exact between two reads that make
 * no system call, and after the stop what pfm_read_pmds() reads.
 */
START_TEST(test_reader_exact_self)
{
	static const unsigned int pmds[] = { SW_PMD(0), SW_PMD(1) };
	char *warm = ck_fresh_pages(1), *p = ck_fresh_pages(20);
	int fd = syscall_ctx(), r0, r1, r2, rs, rt;
	const struct pfm_counts_page *pg;
	struct pfm_counts_reader r;
	uint64_t a[2], b[2], c[2];

	ck_counter(fd, 1, PFM_SW_EV_PAGE_FAULTS);
	pg = ck_map_counts(fd);
	/* before the first start the page shows set 0 */
	ck_assert_ok(pfm_counts_prepare(pg, 0, pmds, 2, &r));
	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	touch_pages(warm, 1);
	r0 = pfm_counts_read(&r, a);
	do_getppid(1000);
	r1 = pfm_counts_read(&r, b);
	touch_pages(p, 20);
	r2 = pfm_counts_read(&r, c);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(r0, 0);
	ck_assert_int_eq(r1, 0);
	ck_assert_int_eq(r2, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(b[0] - a[0], 1000);
	ck_assert_uint_eq(b[1], a[1]);
	ck_assert_uint_eq(c[0], b[0]);
	ck_assert_uint_eq(c[1] - b[1], 20);
	ck_reader_exact(fd, &r, pmds);
	pfm_munmap_counts(pg);
	close(fd);
}
END_TEST

#define MOVES	20

/* Migrations: each move counted at once in the page, the reader exact across CPUs. */
START_TEST(test_reader_migrations)
{
	static const unsigned int pmds[] = { SW_PMD(0), SW_PMD(1) };
	uint64_t v[MOVES + 1][2];
	int ret[MOVES + 1], moved[MOVES], rs, rt, fd, i;
	const struct pfm_counts_page *pg;
	struct pfm_counts_reader r;
	cpu_set_t allowed, cpu[2];

	ck_assert_ok(sched_getaffinity(0, sizeof(allowed), &allowed));
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || !CPU_ISSET(0, &allowed) ||
	    !CPU_ISSET(1, &allowed)) {
		printf("test_reader_migrations: skipped, needs CPUs 0 and 1\n");
		return;
	}
	fd = ck_ctx_create();
	ck_counter(fd, 0, PFM_SW_EV_CPU_MIGRATIONS);
	ck_counter(fd, 1, PFM_SW_EV_SYSCALLS);
	pg = ck_map_counts(fd);
	ck_assert_ok(pfm_counts_prepare(pg, 0, pmds, 2, &r));
	for (i = 0; i < 2; i++) {
		CPU_ZERO(&cpu[i]);
		CPU_SET(i, &cpu[i]);
	}
	ck_pin(0);
	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	ret[0] = pfm_counts_read(&r, v[0]);
	for (i = 0; i < MOVES; i++) {
		/* not ck_pin(): a passed assertion writes to the runner's pipe */
		moved[i] = sched_setaffinity(0, sizeof(cpu[0]), &cpu[(i + 1) % 2]) ||
			   sched_getcpu() != (i + 1) % 2;
		ret[i + 1] = pfm_counts_read(&r, v[i + 1]);
	}
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	for (i = 0; i <= MOVES; i++) {
		ck_assert_int_eq(ret[i], 0);
		/* one migration and one system call (sched_setaffinity) a move */
		ck_assert_uint_eq(v[i][0], (uint64_t)i);
		ck_assert_uint_eq(v[i][1], (uint64_t)i);
		if (i < MOVES)
			ck_assert_int_eq(moved[i], 0);
	}
	ck_reader_exact(fd, &r, pmds);
	ck_assert_uint_eq(v[MOVES][0], MOVES);
	ck_pin(-1);
	pfm_munmap_counts(pg);
	close(fd);
}
END_TEST

/*
 * Set changes: the generation moves at each switch and at a write that shows or
 * hides a PMD, not at a value written; a reader of the set not shown fails with
 * ENOENT (its values untouched) and reads again when its set is back.
 */
START_TEST(test_reader_set_changes)
{
	static const unsigned int pmds[] = { SW_PMD(0), SW_PMD(1) };
	struct pfarg_setdesc sd = { .set_id = 1 };
	struct pfm_counts_reader r0, r1, kept;
	const struct pfm_counts_page *pg;
	int fd = ck_ctx_create(), s, rs, rt;
	struct pfarg_pmc pc[4];
	uint64_t v[2], w[2];
	uint32_t gen;

	ck_assert_ok(pfm_create_evtsets(fd, &sd, sizeof(sd)));
	for (s = 0; s < 4; s++) {
		pmc_init(&pc[s], SW_PMC(s % 2),
			 PFM_SW_PMC(s % 2 ? PFM_SW_EV_PAGE_FAULTS : PFM_SW_EV_SYSCALLS) |
			 PFM_SW_PMC_EN);
		pc[s].reg_set = s / 2;
	}
	ck_assert_ok(pfm_write_pmcs(fd, pc, sizeof(pc)));
	pg = ck_map_counts(fd);
	ck_assert_ok(pfm_counts_prepare(pg, 0, pmds, 2, &r0));
	gen = r0.gen;
	ck_assert_uint_eq(gen, pg->layout_gen);
	/* set 1 is not shown yet */
	ck_assert_errno(pfm_counts_prepare(pg, 1, pmds, 2, &r1), ENOENT);
	ck_load_self(fd);

	/* no assertion while counting: a passed one writes to the runner's pipe */
	rs = pfm_start(fd, 0);
	do_getppid(100);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(pg->layout_gen, gen);		/* start, counts, stop */
	ck_reader_exact(fd, &r0, pmds);
	ck_assert_ok(pfm_counts_read(&r0, w));
	ck_assert_uint_eq(w[0], 100 + 1);		/* and pfm_stop()'s own call */
	ck_assert_uint_eq(r0.gen, gen);

	/* to set 1: a new layout */
	rs = pfm_start(fd, PFM_STARTFL_SET, 1);
	do_getppid(50);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(pg->set_id, 1);
	ck_assert_uint_eq(pg->layout_gen, gen + 1);
	v[0] = v[1] = 77;
	kept = r0;
	ck_assert_errno(pfm_counts_read(&r0, v), ENOENT);
	ck_assert_uint_eq(v[0], 77);
	ck_assert_uint_eq(v[1], 77);
	ck_assert_mem_eq(&r0, &kept, sizeof(r0));
	ck_assert_ok(pfm_counts_prepare(pg, 1, pmds, 2, &r1));
	ck_assert_uint_eq(r1.gen, gen + 1);
	ck_reader_exact(fd, &r1, pmds);
	ck_assert_ok(pfm_counts_read(&r1, v));
	ck_assert_uint_eq(v[0], 50 + 1);

	/* back to set 0: r0 checks again and reads, r1 fails */
	ck_assert_ok(pfm_start(fd, PFM_STARTFL_SET, 0));
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_uint_eq(pg->layout_gen, gen + 2);
	ck_reader_exact(fd, &r0, pmds);
	ck_assert_uint_eq(r0.gen, gen + 2);
	ck_assert_errno(pfm_counts_read(&r1, w), ENOENT);

	/* a value written: the same layout */
	ck_write_pmd(fd, SW_PMD(0), 123456789);
	ck_assert_uint_eq(pg->layout_gen, gen + 2);
	ck_assert_ok(pfm_counts_read(&r0, v));
	ck_assert_uint_eq(v[0], 123456789);

	/* PMD 1 made the task clock (not shown), then page faults again (shown) */
	ck_counter(fd, 1, PFM_SW_EV_TASK_CLOCK);
	ck_assert_uint_eq(pg->layout_gen, gen + 3);
	ck_assert_errno(pfm_counts_read(&r0, v), ENOENT);
	ck_assert_errno(pfm_counts_prepare(pg, 0, pmds, 2, &r1), ENOENT);
	ck_assert_ok(pfm_counts_prepare(pg, 0, pmds, 1, &r1));
	ck_assert_ok(pfm_counts_read(&r1, w));
	ck_assert_uint_eq(w[0], 123456789);
	ck_counter(fd, 1, PFM_SW_EV_PAGE_FAULTS);
	ck_assert_uint_eq(pg->layout_gen, gen + 4);
	ck_reader_exact(fd, &r0, pmds);
	ck_assert_uint_eq(r0.gen, gen + 4);
	ck_assert_ok(pfm_counts_read(&r1, w));
	ck_assert_uint_eq(r1.gen, gen + 4);

	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_reader_exact(fd, &r0, pmds);
	pfm_munmap_counts(pg);
	close(fd);
}
END_TEST

/* Every bad input on the kernel's page: its errno, the reader and values unchanged. */
START_TEST(test_reader_bad_inputs)
{
	static const unsigned int pmd0[] = { SW_PMD(0) }, unshown[] = { SW_PMD(0), SW_PMD(5) },
				  beyond[] = { PFM_MAX_PMDS };
	unsigned int many[PFM_COUNTS_READ_MAX + 1], k;
	int fd = syscall_ctx();
	const struct pfm_counts_page *pg = ck_map_counts(fd);
	struct pfm_counts_reader r, kept, zero;
	uint64_t v = 5;

	for (k = 0; k <= PFM_COUNTS_READ_MAX; k++)
		many[k] = SW_PMD(0);
	ck_assert_ok(pfm_counts_prepare(pg, 0, pmd0, 1, &r));
	kept = r;
	ck_assert_errno(pfm_counts_prepare(NULL, 0, pmd0, 1, &r), EINVAL);
	ck_assert_errno(pfm_counts_prepare(pg, 0, NULL, 1, &r), EINVAL);
	ck_assert_errno(pfm_counts_prepare(pg, 0, pmd0, 1, NULL), EINVAL);
	ck_assert_errno(pfm_counts_prepare(pg, 0, pmd0, 0, &r), EINVAL);
	ck_assert_errno(pfm_counts_prepare(pg, PFM_MAX_SET_ID + 1, pmd0, 1, &r), EINVAL);
	ck_assert_errno(pfm_counts_prepare(pg, 0, beyond, 1, &r), EINVAL);
	ck_assert_errno(pfm_counts_prepare(pg, 0, many, PFM_COUNTS_READ_MAX + 1, &r), E2BIG);
	ck_assert_errno(pfm_counts_prepare(pg, 0, unshown, 2, &r), ENOENT);
	ck_assert_errno(pfm_counts_prepare(pg, 1, pmd0, 1, &r), ENOENT);
	ck_assert_mem_eq(&r, &kept, sizeof(r));
	/* the most a reader holds */
	ck_assert_ok(pfm_counts_prepare(pg, 0, many, PFM_COUNTS_READ_MAX, &r));
	ck_assert_uint_eq(r.n, PFM_COUNTS_READ_MAX);
	ck_assert_ok(pfm_counts_prepare(pg, 0, pmd0, 1, &r));
	kept = r;

	ck_assert_errno(pfm_counts_read(NULL, &v), EINVAL);
	ck_assert_errno(pfm_counts_read(&r, NULL), EINVAL);
	memset(&zero, 0, sizeof(zero));
	ck_assert_errno(pfm_counts_read(&zero, &v), EINVAL);
	ck_assert_uint_eq(v, 5);
	ck_assert_mem_eq(&r, &kept, sizeof(r));
	ck_assert_ok(pfm_counts_read(&r, &v));
	ck_assert_uint_eq(v, 0);
	pfm_munmap_counts(pg);
	close(fd);
}
END_TEST

Suite *pfm_counts_reader_suite(void)
{
	Suite *s = suite_create("counts_reader");
	TCase *tc = pfm_tcase("counts_reader");

	tcase_add_test(tc, test_reader_exact_self);
	tcase_add_test(tc, test_reader_migrations);
	tcase_add_test(tc, test_reader_set_changes);
	tcase_add_test(tc, test_reader_bad_inputs);
	suite_add_tcase(s, tc);
	return s;
}
