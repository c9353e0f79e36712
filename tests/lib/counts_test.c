// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon's counts page readers (libpfm-glue/counts.c, counts_reader.c) on the
 * host, on a page this test writes as the kernel does (uapi perfmon.h, COUNTS
 * PAGE): under the sequence count, with a new layout_gen whenever set_id or
 * mapped_pmds change.  The prepared reader against pfm_read_mapped(), its
 * re-checks when the generation moves, every bad input, and reads racing a writer
 * that switches sets.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "perfmon.h"

#define P0	(PFM_SW_FIRST_PMD + 0)
#define P1	(PFM_SW_FIRST_PMD + 1)
#define P2	(PFM_SW_FIRST_PMD + 2)

static struct pfm_counts_page page;

static void wr_begin(void)
{
	__atomic_store_n(&page.seq, page.seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void wr_end(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&page.seq, page.seq + 1, __ATOMIC_RELAXED);
}

static void wr_show(unsigned int pmd, int on)
{
	uint64_t bit = 1ULL << (pmd % 64), *w = (uint64_t *)&page.mapped_pmds[pmd / 64];

	__atomic_store_n(w, on ? *w | bit : *w & ~bit, __ATOMIC_RELAXED);
}

static void wr_value(unsigned int pmd, uint64_t v)
{
	__atomic_store_n((uint64_t *)&page.pmds[pmd], v, __ATOMIC_RELAXED);
}

/* A layout change, as the kernel makes it: set and shown PMDs, the generation on. */
static void wr_layout(unsigned int set, const unsigned int *shown, unsigned int n)
{
	unsigned int k;

	wr_begin();
	memset((void *)page.mapped_pmds, 0, sizeof(page.mapped_pmds));
	for (k = 0; k < n; k++)
		wr_show(shown[k], 1);
	__atomic_store_n(&page.set_id, (__u16)set, __ATOMIC_RELAXED);
	__atomic_store_n(&page.layout_gen, page.layout_gen + 1, __ATOMIC_RELAXED);
	wr_end();
}

static const unsigned int p012[] = { P0, P1, P2 };

/* Set 0 showing P0..P2 with the values 10, 11, 12. */
static void page_init(void)
{
	memset(&page, 0, sizeof(page));
	page.version = PFM_COUNTS_PAGE_VERSION;
	wr_layout(0, p012, 3);
	wr_value(P0, 10);
	wr_value(P1, 11);
	wr_value(P2, 12);
}

/* The reader reads what pfm_read_mapped() reads, in the order asked, repeats too. */
START_TEST(test_reader_equals_read_mapped)
{
	static const unsigned int pmds[] = { P2, P0, P2, P1 };
	struct pfm_counts_reader r;
	uint64_t v[4], m[4];

	page_init();
	ck_assert_int_eq(pfm_counts_prepare(&page, 0, pmds, 4, &r), 0);
	ck_assert_uint_eq(r.gen, page.layout_gen);
	ck_assert_int_eq(pfm_counts_read(&r, v), 0);
	ck_assert_int_eq(pfm_read_mapped(&page, 0, pmds, m, 4), 0);
	ck_assert_mem_eq(v, m, sizeof(v));
	ck_assert_uint_eq(v[0], 12);
	ck_assert_uint_eq(v[1], 10);
	ck_assert_uint_eq(v[2], 12);
	ck_assert_uint_eq(v[3], 11);
	/* values move without a layout change: read as they are, no re-check */
	wr_begin();
	wr_value(P1, 1000);
	wr_end();
	ck_assert_int_eq(pfm_counts_read(&r, v), 0);
	ck_assert_uint_eq(v[3], 1000);
	/* one count, and the most a reader holds */
	ck_assert_int_eq(pfm_counts_prepare(&page, 0, pmds + 1, 1, &r), 0);
	ck_assert_int_eq(pfm_counts_read(&r, v), 0);
	ck_assert_uint_eq(v[0], 10);
	{
		unsigned int many[PFM_COUNTS_READ_MAX];
		uint64_t mv[PFM_COUNTS_READ_MAX];
		unsigned int k;

		for (k = 0; k < PFM_COUNTS_READ_MAX; k++)
			many[k] = p012[k % 3];
		ck_assert_int_eq(pfm_counts_prepare(&page, 0, many, k, &r), 0);
		ck_assert_int_eq(pfm_counts_read(&r, mv), 0);
		for (k = 0; k < PFM_COUNTS_READ_MAX; k++)
			ck_assert_uint_eq(mv[k], page.pmds[many[k]]);
	}
}
END_TEST

/*
 * The generation moved: the reader checks again.  Still the set and its PMDs
 * shown: it reads and notes the new generation.  Another set, or a PMD hidden:
 * ENOENT, values and reader untouched, until the layout is back.
 */
START_TEST(test_reader_rechecks)
{
	static const unsigned int p01[] = { P0, P1 }, p1[] = { P1 };
	struct pfm_counts_reader r, before;
	uint64_t v[2];
	uint32_t gen0;

	page_init();
	ck_assert_int_eq(pfm_counts_prepare(&page, 0, p01, 2, &r), 0);
	gen0 = r.gen;
	/* P2 hidden: a new layout that still shows P0 and P1 */
	wr_layout(0, p01, 2);
	ck_assert_uint_eq(page.layout_gen, gen0 + 1);
	ck_assert_int_eq(pfm_counts_read(&r, v), 0);
	ck_assert_uint_eq(v[0], 10);
	ck_assert_uint_eq(v[1], 11);
	ck_assert_uint_eq(r.gen, gen0 + 1);
	/* a switch to set 1 */
	wr_layout(1, p01, 2);
	v[0] = v[1] = 77;
	before = r;
	ck_assert_int_eq(pfm_counts_read(&r, v), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_mem_eq(&r, &before, sizeof(r));
	ck_assert_uint_eq(v[0], 77);
	ck_assert_uint_eq(v[1], 77);
	/* back to set 0, P0 not shown */
	wr_layout(0, p1, 1);
	ck_assert_int_eq(pfm_counts_read(&r, v), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_mem_eq(&r, &before, sizeof(r));
	ck_assert_uint_eq(v[0], 77);
	/* shown again: the same reader reads */
	wr_layout(0, p012, 3);
	ck_assert_int_eq(pfm_counts_read(&r, v), 0);
	ck_assert_uint_eq(v[0], 10);
	ck_assert_uint_eq(v[1], 11);
	ck_assert_uint_eq(r.gen, page.layout_gen);
	ck_assert_uint_eq(r.gen, gen0 + 4);
}
END_TEST

/* A reader only trusts the generation: a layout changed under the same one is missed. */
START_TEST(test_reader_trusts_the_generation)
{
	struct pfm_counts_reader r;
	uint64_t v;

	page_init();
	ck_assert_int_eq(pfm_counts_prepare(&page, 0, p012, 1, &r), 0);
	/* what the kernel never does: P0 hidden, set 1, the generation kept */
	wr_begin();
	wr_show(P0, 0);
	page.set_id = 1;
	wr_end();
	ck_assert_int_eq(pfm_counts_read(&r, &v), 0);
	ck_assert_int_eq(pfm_read_mapped(&page, 0, p012, &v, 1), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* Every bad input: its errno, and neither the reader nor the values changed. */
/*
 * A hardware PMD (below PFM_RDPMC_PMDS) in the page: out of live time (no rdpmc[]
 * entry) pmds[] is its value, and both readers give it; live with an entry,
 * pmds[] is only an offset, and a reader on another CPU than rdpmc_cpu must not
 * take it for the value: ENOENT from both (the caller reads with
 * pfm_read_pmds()), without executing rdpmc.  The prepared reader takes this
 * path on every read, as the entry changes at each switch without a new
 * generation.
 */
START_TEST(test_reader_hardware_pmd)
{
	const unsigned int hw[] = { 1, P0 };
	struct pfm_counts_reader r;
	uint64_t v[2] = { 0, 0 };

	page_init();
	wr_layout(0, (const unsigned int[]){ 1, P0, P1, P2 }, 4);
	wr_value(1, 5000);
	ck_assert_int_eq(pfm_counts_prepare(&page, 0, hw, 2, &r), 0);
	ck_assert_int_eq(pfm_counts_read(&r, v), 0);
	ck_assert_uint_eq(v[0], 5000);
	ck_assert_uint_eq(v[1], 10);
	/* live on CPU 0xffff, no CPU of this host: an offset, not a value */
	wr_begin();
	__atomic_store_n(&page.rdpmc[1], (__u16)(1 | 48 << 8), __ATOMIC_RELAXED);
	__atomic_store_n(&page.rdpmc_cpu, (__u16)0xffff, __ATOMIC_RELAXED);
	wr_value(1, -1000ULL);
	wr_end();
	v[0] = v[1] = 7;
	errno = 0;
	ck_assert_int_eq(pfm_counts_read(&r, v), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_uint_eq(v[0], 7);
	ck_assert_int_eq(pfm_read_mapped(&page, 0, hw, v, 2), -1);
	ck_assert_int_eq(errno, ENOENT);
	/* switched out again: the whole value */
	wr_begin();
	__atomic_store_n(&page.rdpmc[1], (__u16)0, __ATOMIC_RELAXED);
	wr_value(1, 6000);
	wr_end();
	ck_assert_int_eq(pfm_counts_read(&r, v), 0);
	ck_assert_uint_eq(v[0], 6000);
}
END_TEST

START_TEST(test_reader_bad_inputs)
{
	static const unsigned int unshown[] = { P0, P2 + 1 }, beyond[] = { P0, PFM_MAX_PMDS };
	unsigned int many[PFM_COUNTS_READ_MAX + 1];
	struct pfm_counts_reader r, before, zero;
	uint64_t v[2] = { 5, 6 };
	unsigned int k;

	page_init();
	for (k = 0; k <= PFM_COUNTS_READ_MAX; k++)
		many[k] = P0;
	memset(&r, 0xa5, sizeof(r));
	before = r;
#define CK_PREP_ERR(call, e) do {						\
		errno = 0;							\
		ck_assert_int_eq(call, -1);					\
		ck_assert_int_eq(errno, e);					\
		ck_assert_mem_eq(&r, &before, sizeof(r));			\
	} while (0)
	CK_PREP_ERR(pfm_counts_prepare(NULL, 0, p012, 1, &r), EINVAL);
	CK_PREP_ERR(pfm_counts_prepare(&page, 0, NULL, 1, &r), EINVAL);
	CK_PREP_ERR(pfm_counts_prepare(&page, 0, p012, 1, NULL), EINVAL);
	CK_PREP_ERR(pfm_counts_prepare(&page, 0, p012, 0, &r), EINVAL);
	CK_PREP_ERR(pfm_counts_prepare(&page, PFM_MAX_SET_ID + 1, p012, 1, &r), EINVAL);
	CK_PREP_ERR(pfm_counts_prepare(&page, 0, beyond, 2, &r), EINVAL);
	CK_PREP_ERR(pfm_counts_prepare(&page, 0, many, PFM_COUNTS_READ_MAX + 1, &r), E2BIG);
	/* E2BIG before a PMD's number is looked at */
	many[0] = PFM_MAX_PMDS;
	CK_PREP_ERR(pfm_counts_prepare(&page, 0, many, PFM_COUNTS_READ_MAX + 1, &r), E2BIG);
	CK_PREP_ERR(pfm_counts_prepare(&page, 0, unshown, 2, &r), ENOENT);
	CK_PREP_ERR(pfm_counts_prepare(&page, 1, p012, 1, &r), ENOENT);
	CK_PREP_ERR(pfm_counts_prepare(&page, PFM_MAX_SET_ID, p012, 1, &r), ENOENT);
	/* a page without layout_gen: its reads would miss set switches */
	page.version = 1;
	CK_PREP_ERR(pfm_counts_prepare(&page, 0, p012, 1, &r), EOPNOTSUPP);
	page.version = PFM_COUNTS_PAGE_VERSION;
#undef CK_PREP_ERR

	/* the read: NULL reader or values, a reader never prepared (zeroed) */
	ck_assert_int_eq(pfm_counts_prepare(&page, 0, p012, 2, &r), 0);
	before = r;
	errno = 0;
	ck_assert_int_eq(pfm_counts_read(NULL, v), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(pfm_counts_read(&r, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_mem_eq(&r, &before, sizeof(r));
	memset(&zero, 0, sizeof(zero));
	errno = 0;
	ck_assert_int_eq(pfm_counts_read(&zero, v), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(v[0], 5);
	ck_assert_uint_eq(v[1], 6);
}
END_TEST

/*
 * Reads racing a writer that counts P0 and P1 together (always equal in one
 * snapshot) and switches between set 0 and set 1 every 16 writes, set 1's values
 * far above set 0's: a read of set 0 never sees set 1's, nor two values apart,
 * nor a value below the last; while set 1 is shown it fails with ENOENT.
 */
#define RACE_READS	200000	/* of each outcome at least, or 10 s */
#define SET1_BASE	(1ULL << 40)

static volatile int race_go, race_done;

/* A set switch: the layout and the new set's values in one write, as the kernel's. */
static void wr_switch(unsigned int set, uint64_t value)
{
	wr_begin();
	__atomic_store_n(&page.set_id, (__u16)set, __ATOMIC_RELAXED);
	__atomic_store_n(&page.layout_gen, page.layout_gen + 1, __ATOMIC_RELAXED);
	wr_value(P0, value);
	wr_value(P1, value);
	wr_end();
}

static void *race_writer(void *arg)
{
	uint64_t c[2] = { 0, SET1_BASE };
	unsigned int i, set = 0;

	(void)arg;
	race_go = 1;
	for (i = 0; !race_done; i++) {
		if (i % 16 == 15) {
			set ^= 1;
			wr_switch(set, c[set]);
		}
		c[set]++;
		wr_begin();
		wr_value(P0, c[set]);
		wr_value(P1, c[set]);
		wr_end();
	}
	return NULL;
}

START_TEST(test_reader_races_a_writer)
{
	static const unsigned int p01[] = { P0, P1 };
	long reads = 0, fails = 0, bad = 0;
	struct pfm_counts_reader r;
	uint64_t v[2], last = 0;
	pthread_t w;
	time_t t0;

	page_init();
	wr_switch(0, 0);
	ck_assert_int_eq(pfm_counts_prepare(&page, 0, p01, 2, &r), 0);
	race_go = race_done = 0;
	ck_assert_int_eq(pthread_create(&w, NULL, race_writer, NULL), 0);
	while (!race_go)
		;
	t0 = time(NULL);
	while ((reads < RACE_READS || fails < RACE_READS) && time(NULL) - t0 < 10) {
		if (pfm_counts_read(&r, v)) {
			fails += errno == ENOENT;
			bad += errno != ENOENT;
			continue;
		}
		reads++;
		if (v[0] != v[1] || v[0] >= SET1_BASE || v[0] < last)
			bad++;
		last = v[0];
	}
	race_done = 1;
	ck_assert_int_eq(pthread_join(w, NULL), 0);
	printf("counts_test: race: %ld reads of set 0, %ld while set 1 was shown, %ld bad\n",
	       reads, fails, bad);
	ck_assert_int_eq(bad, 0);
	ck_assert_int_gt(reads, 0);
	ck_assert_int_gt(fails, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("counts");
	TCase *tc = tcase_create("counts");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_reader_equals_read_mapped);
	tcase_add_test(tc, test_reader_rechecks);
	tcase_add_test(tc, test_reader_trusts_the_generation);
	tcase_add_test(tc, test_reader_hardware_pmd);
	tcase_add_test(tc, test_reader_bad_inputs);
	tcase_add_test(tc, test_reader_races_a_writer);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
