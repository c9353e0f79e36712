// SPDX-License-Identifier: GPL-2.0
/*
 * isolation: a counter counts only its own thread, and only when its PMC
 * says so.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

/*
 * One thread with its own context on itself.  Threads must not call check
 * assertions (they end the process from the wrong thread): a worker records
 * the step that failed, and the main thread asserts.
 */
struct worker {
	pthread_t thread;
	pthread_barrier_t *barrier;
	long n;			/* getppid calls to make */
	uint64_t count;		/* out: syscalls counted */
	const char *failed;	/* out: the call that failed, or NULL */
	int err;
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	struct pfarg_pmc pc;
	struct pfarg_pmd pd;
	bool waited = false;
	int fd, rs, rt;

	fd = pfm_create_context(0);
	if (fd < 0) {
		w->failed = "pfm_create_context";
		goto err;
	}
	pmc_init(&pc, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	pmd_init(&pd, SW_PMD(0), 0);
	if (pfm_write_pmcs(fd, &pc, sizeof(pc))) {
		w->failed = "pfm_write_pmcs";
		goto err;
	}
	if (pfm_write_pmds(fd, &pd, sizeof(pd))) {
		w->failed = "pfm_write_pmds";
		goto err;
	}
	if (pfm_load_context(fd, 0, gettid())) {
		w->failed = "pfm_load_context";
		goto err;
	}

	/* both threads count at the same time */
	pthread_barrier_wait(w->barrier);
	waited = true;

	rs = pfm_start(fd, 0);
	do_getppid(w->n);
	rt = pfm_stop(fd, 0);
	if (rs || rt) {
		w->failed = rs ? "pfm_start" : "pfm_stop";
		goto err;
	}
	if (pfm_read_pmds(fd, &pd, sizeof(pd))) {
		w->failed = "pfm_read_pmds";
		goto err;
	}
	w->count = pd.reg_value;
	close(fd);
	return NULL;
err:
	w->err = errno;
	if (fd >= 0)
		close(fd);
	/* do not leave the other thread at the barrier */
	if (!waited)
		pthread_barrier_wait(w->barrier);
	return NULL;
}

START_TEST(test_two_threads)
{
	struct worker w[2] = { { .n = 1000 }, { .n = 3000 } };
	pthread_barrier_t barrier;
	int i;

	ck_assert_int_eq(pthread_barrier_init(&barrier, NULL, 2), 0);
	for (i = 0; i < 2; i++) {
		w[i].barrier = &barrier;
		ck_assert_int_eq(pthread_create(&w[i].thread, NULL, worker_run,
						&w[i]), 0);
	}
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(w[i].thread, NULL), 0);
	pthread_barrier_destroy(&barrier);

	for (i = 0; i < 2; i++) {
		ck_assert_msg(!w[i].failed, "thread %d: %s: %s", i,
			      w[i].failed, strerror(w[i].err));
		ck_assert_msg(w[i].count == (uint64_t)w[i].n + 1,
			      "thread %d: %ld getppid, counted %llu", i,
			      w[i].n, (unsigned long long)w[i].count);
	}
}
END_TEST

/* start, n getppid, stop on a loaded context */
static void window(int fd, long n)
{
	int rs, rt;

	rs = pfm_start(fd, 0);
	do_getppid(n);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
}

/* without EN a counter stays still, beside one that counts */
START_TEST(test_en_clear)
{
	int fd = ck_ctx_create();

	ck_write_pmc(fd, SW_PMC(0), PFM_SW_EV_SYSCALLS);
	ck_write_pmd(fd, SW_PMD(0), 0);
	ck_counter(fd, 1, PFM_SW_EV_SYSCALLS);
	ck_load_self(fd);
	window(fd, 100);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 0);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), 100 + 1);
	close(fd);
}
END_TEST

/* event 0 counts nothing, even enabled */
START_TEST(test_event_none)
{
	int fd = ck_ctx_create();

	ck_counter(fd, 0, PFM_SW_EV_NONE);
	ck_counter(fd, 1, PFM_SW_EV_SYSCALLS);
	ck_load_self(fd);
	window(fd, 100);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 0);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), 100 + 1);
	close(fd);
}
END_TEST

/* counters are independent: the same event twice counts the same */
START_TEST(test_same_event_twice)
{
	int fd = ck_ctx_create();

	ck_counter(fd, 2, PFM_SW_EV_SYSCALLS);
	ck_counter(fd, 7, PFM_SW_EV_SYSCALLS);
	ck_load_self(fd);
	window(fd, 300);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(2)), 300 + 1);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(7)), 300 + 1);
	close(fd);
}
END_TEST

Suite *pfm_isolation_suite(void)
{
	Suite *s = suite_create("isolation");
	TCase *tc = pfm_tcase("isolation");

	tcase_add_test(tc, test_two_threads);
	tcase_add_test(tc, test_en_clear);
	tcase_add_test(tc, test_event_none);
	tcase_add_test(tc, test_same_event_twice);
	suite_add_tcase(s, tc);
	return s;
}
