// SPDX-License-Identifier: GPL-2.0
/*
 * counts_page: the counts page (mmap at PFM_MMAP_COUNTS_OFFSET) and
 * pfm_read_mapped(): exact counts without a system call, equal to what
 * pfm_read_pmds() returns at the same point, across set switches, detach,
 * close and munmap; read-only; readable by a process other than the monitored
 * thread.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

static const unsigned int pmd0[] = { SW_PMD(0) };

/*
 * PMD 0 through the page, or ~0 if the page does not show it: no assertion, which
 * would write to the runner's pipe (a system call) while counting.
 */
static uint64_t raw0(const struct pfm_counts_page *pg, unsigned int set)
{
	uint64_t v;

	return pfm_read_mapped(pg, set, pmd0, &v, 1) ? ~0ULL : v;
}

/* PMD 0 through the page; the test fails if the page does not show it. */
static uint64_t mapped0(const struct pfm_counts_page *pg, unsigned int set)
{
	uint64_t v = 0;

	ck_assert_ok(pfm_read_mapped(pg, set, pmd0, &v, 1));
	return v;
}

/*
 * Self-monitoring: the page holds the count the thread made so far, and a
 * pfm_read_pmds() after it counts its own system call (the page read makes none).
 */
START_TEST(test_page_exact_self)
{
	int fd = syscall_ctx();
	const struct pfm_counts_page *pg = ck_map_counts(fd);
	struct pfarg_pmd pd;
	uint64_t m1, m2, m3;
	int rs, rt;

	pmd_init(&pd, SW_PMD(0), 0);

	ck_load_self(fd);
	ck_assert_uint_eq(mapped0(pg, 0), 0);
	rs = pfm_start(fd, 0);
	do_getppid(1000);
	m1 = raw0(pg, 0);
	m2 = raw0(pg, 0);
	do_getppid(7);
	m3 = raw0(pg, 0);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(m1, 1000);
	ck_assert_uint_eq(m2, 1000);
	ck_assert_uint_eq(m3, 1007);
	/* stopped: the page and the call agree, pfm_stop()'s own call counted */
	ck_assert_uint_eq(mapped0(pg, 0), 1008);
	ck_assert_uint_eq(count(fd), 1008);

	rs = pfm_start(fd, 0);
	m1 = raw0(pg, 0);
	m2 = pfm_read_pmds(fd, &pd, sizeof(pd)) ? ~0ULL : pd.reg_value;	/* counts itself */
	m3 = raw0(pg, 0);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(m1, 1008);
	ck_assert_uint_eq(m2, 1009);
	ck_assert_uint_eq(m3, 1009);
	ck_assert_uint_eq(mapped0(pg, 0), 1010);
	pfm_munmap_counts(pg);
	close(fd);
}
END_TEST

/* Page faults, on another counter: exact, and every counter of the set shown. */
START_TEST(test_page_faults_exact)
{
	static const unsigned int pmds[] = { SW_PMD(0), SW_PMD(1) };
	char *warm = ck_fresh_pages(1), *p = ck_fresh_pages(50);
	int fd = syscall_ctx();
	const struct pfm_counts_page *pg;
	uint64_t before[2], after[2];
	int r1, r2;

	ck_counter(fd, 1, PFM_SW_EV_PAGE_FAULTS);
	pg = ck_map_counts(fd);
	ck_load_self(fd);
	ck_assert_ok(pfm_start(fd, 0));
	touch_pages(warm, 1);
	r1 = pfm_read_mapped(pg, 0, pmds, before, 2);
	touch_pages(p, 50);
	r2 = pfm_read_mapped(pg, 0, pmds, after, 2);
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_int_eq(r1, 0);
	ck_assert_int_eq(r2, 0);
	ck_assert_uint_eq(after[1] - before[1], 50);
	ck_assert_uint_eq(after[0], before[0]);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), after[1]);
	pfm_munmap_counts(pg);
	close(fd);
}
END_TEST

/* Written values show at once, attached or not; unwritten PMDs are not shown. */
START_TEST(test_page_writes_and_unshown)
{
	static const unsigned int unused[] = { SW_PMD(5) };
	int fd = syscall_ctx();
	const struct pfm_counts_page *pg = ck_map_counts(fd);
	uint64_t v;

	ck_write_pmd(fd, SW_PMD(0), 123456789);
	ck_assert_uint_eq(mapped0(pg, 0), 123456789);
	ck_assert_errno(pfm_read_mapped(pg, 0, unused, &v, 1), ENOENT);
	ck_assert_errno(pfm_read_mapped(pg, 1, pmd0, &v, 1), ENOENT);
	/* the task clock ticks between events: read it with pfm_read_pmds() */
	ck_counter(fd, 0, PFM_SW_EV_TASK_CLOCK);
	ck_assert_errno(pfm_read_mapped(pg, 0, pmd0, &v, 1), ENOENT);
	ck_counter(fd, 0, PFM_SW_EV_SYSCALLS);
	ck_write_pmd(fd, SW_PMD(0), 42);
	ck_assert_uint_eq(mapped0(pg, 0), 42);
	pfm_munmap_counts(pg);
	close(fd);
}
END_TEST

/*
 * Detach, munmap, a new mapping, close: the values stay those of pfm_read_pmds
 * (300 calls and pfm_stop()'s own).
 */
START_TEST(test_page_detach_close_munmap)
{
	int fd = syscall_ctx();
	const struct pfm_counts_page *pg = ck_map_counts(fd), *pg2;
	int rs, rt;

	ck_load_self(fd);
	rs = pfm_start(fd, 0);
	do_getppid(300);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_assert_uint_eq(mapped0(pg, 0), 301);
	ck_assert_uint_eq(count(fd), 301);
	do_getppid(10);
	ck_assert_uint_eq(mapped0(pg, 0), 301);
	/* a second mapping shows the same page */
	pg2 = ck_map_counts(fd);
	ck_assert_uint_eq(mapped0(pg2, 0), 301);
	ck_assert_ok(pfm_munmap_counts(pg));
	ck_assert_uint_eq(mapped0(pg2, 0), 301);
	/* the mapping keeps the page after the last close */
	close(fd);
	ck_assert_uint_eq(mapped0(pg2, 0), 301);
	ck_assert_ok(pfm_munmap_counts(pg2));
}
END_TEST

START_TEST(test_page_read_only)
{
	long psz = page_size();
	int fd = ck_ctx_create();
	void *p;

	ck_assert(mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       PFM_MMAP_COUNTS_OFFSET) == MAP_FAILED);
	ck_assert_int_eq(errno, EACCES);
	ck_assert(mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
		       PFM_MMAP_COUNTS_OFFSET) == MAP_FAILED);
	ck_assert_int_eq(errno, EACCES);
	/* one page exactly */
	ck_assert(mmap(NULL, 2 * psz, PROT_READ, MAP_SHARED, fd,
		       PFM_MMAP_COUNTS_OFFSET) == MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	/* any other offset is the sampling buffer's, which this context has not */
	ck_assert(mmap(NULL, psz, PROT_READ, MAP_SHARED, fd,
		       PFM_MMAP_COUNTS_OFFSET + psz) == MAP_FAILED);
	ck_assert_int_eq(errno, ENODEV);
	p = mmap(NULL, psz, PROT_READ, MAP_SHARED, fd, PFM_MMAP_COUNTS_OFFSET);
	ck_assert(p != MAP_FAILED);
	ck_assert_errno(mprotect(p, psz, PROT_READ | PROT_WRITE), EACCES);
	munmap(p, psz);
	close(fd);
}
END_TEST

static void write_page(void *arg)
{
	*(volatile __u32 *)arg = 1;
	_exit(0);
}

/* A store into the page kills the writer: it is mapped read-only. */
START_TEST(test_page_store_faults)
{
	int fd = ck_ctx_create(), status;
	void *p = (void *)pfm_mmap_counts(fd);
	pid_t pid;

	ck_assert(p != NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		write_page(p);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
		      "writer status %#x", status);
	munmap(p, page_size());
	close(fd);
}
END_TEST

/* The controller reads the counts of a thread of another process from the page. */
START_TEST(test_page_other_process)
{
	struct kid k = KID_INIT;
	int fd = syscall_ctx();
	const struct pfm_counts_page *pg = ck_map_counts(fd);

	ck_kid_start(&k);
	ck_load(fd, k.pid);
	ck_assert_ok(pfm_start(fd, 0));
	ck_kid_run(&k, 1000);
	/* 1000 getppid and the read of the next order, as attach.c counts */
	ck_assert_uint_eq(mapped0(pg, 0), 1000 + 1);
	ck_assert_uint_eq(count(fd), 1000 + 1);
	ck_kid_run(&k, 500);
	ck_assert_uint_eq(mapped0(pg, 0), 1000 + 1 + 500 + 1);
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_uint_eq(count(fd), mapped0(pg, 0));
	ck_assert_ok(pfm_unload_context(fd, 0));
	ck_kid_run_exit(&k, 0);
	pfm_munmap_counts(pg);
	close(fd);
}
END_TEST

/*
 * Reads racing with context and set switches.  Set 0 counts system calls on two
 * counters, set 1 page faults on two, switching every 200 us of the thread's time;
 * the thread makes system calls, faults and yields to a sibling on its CPU, while
 * another process reads the page without pause until the thread is done, by
 * pfm_read_mapped() and by prepared readers in turn.  Every snapshot must hold one
 * set: its two counters equal and never below the last snapshot of that set.
 */
struct race {
	volatile int go;
	volatile int done;
	long snapshots[2];
	long prepared[2];	/* of them, by pfm_counts_read() */
	long torn;
	long backwards;
};

/* By pfm_read_mapped() and a reader of each set in turn, prepared when it can be. */
static void race_reader(const struct pfm_counts_page *pg, struct race *r)
{
	static const unsigned int pmds[] = { SW_PMD(0), SW_PMD(1) };
	uint64_t last[2] = { 0, 0 }, v[2];
	struct pfm_counts_reader rd[2];
	bool ready[2] = { false, false };
	unsigned int set;
	long i;
	int ret;

	while (!r->go)
		;
	for (i = 0; !r->done; i++) {
		set = __atomic_load_n(&pg->set_id, __ATOMIC_RELAXED) & 1;
		if (i % 2 && !ready[set])
			ready[set] = !pfm_counts_prepare(pg, set, pmds, 2, &rd[set]);
		if (i % 2 && ready[set])
			ret = pfm_counts_read(&rd[set], v);
		else
			ret = pfm_read_mapped(pg, set, pmds, v, 2);
		if (ret)
			continue;	/* switched meanwhile */
		r->snapshots[set]++;
		r->prepared[set] += i % 2 && ready[set];
		if (v[0] != v[1])
			r->torn++;
		if (v[0] < last[set])
			r->backwards++;
		last[set] = v[0];
	}
	_exit(0);
}

START_TEST(test_page_race_switches)
{
	struct pfarg_setdesc sd = { .set_id = 1, .set_flags = PFM_SETFL_TIME_SWITCH,
				    .set_timeout = 200000 };
	struct pfarg_setdesc sd0 = { .set_id = 0, .set_flags = PFM_SETFL_TIME_SWITCH,
				     .set_timeout = 200000 };
	struct pfarg_pmc pc[4];
	struct pfarg_pmd pd[4];
	const struct pfm_counts_page *pg;
	struct race *r;
	int fd = ck_ctx_create(), i, status;
	pid_t reader, yielder;
	char *pages;
	time_t t0;

	ck_assert_ok(pfm_create_evtsets(fd, &sd0, sizeof(sd0)));
	ck_assert_ok(pfm_create_evtsets(fd, &sd, sizeof(sd)));
	for (i = 0; i < 4; i++) {
		pmc_init(&pc[i], SW_PMC(i % 2),
			 PFM_SW_PMC(i < 2 ? PFM_SW_EV_SYSCALLS : PFM_SW_EV_PAGE_FAULTS));
		pc[i].reg_set = i / 2;
		pmd_init(&pd[i], SW_PMD(i % 2), 0);
		pd[i].reg_set = i / 2;
	}
	ck_assert_ok(pfm_write_pmcs(fd, pc, sizeof(pc)));
	ck_assert_ok(pfm_write_pmds(fd, pd, sizeof(pd)));
	pg = ck_map_counts(fd);
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert(r != MAP_FAILED);
	memset(r, 0, sizeof(*r));
	ck_pin(0);
	reader = fork();
	ck_assert_int_ge(reader, 0);
	if (!reader) {
		ck_pin(possible_cpus() > 1 ? 1 : 0);
		race_reader(pg, r);
	}
	yielder = fork();
	ck_assert_int_ge(yielder, 0);
	if (!yielder) {
		while (!r->done)
			sched_yield();
		_exit(0);
	}
	pages = ck_fresh_pages(2000);
	ck_load_self(fd);
	ck_assert_ok(pfm_start(fd, 0));
	r->go = 1;
	/* 2000 rounds, or 10 s: the debug kernel (KASAN, lockdep) is far slower */
	t0 = time(NULL);
	for (i = 0; i < 2000 && time(NULL) - t0 < 10; i++) {
		do_getppid(20);
		touch_pages(pages + (long)i * page_size(), 1);
		sched_yield();
	}
	ck_assert_ok(pfm_stop(fd, 0));
	r->done = 1;
	ck_assert_int_eq(waitpid(reader, &status, 0), reader);
	ck_assert_int_eq(waitpid(yielder, &status, 0), yielder);
	printf("counts_page: race: %ld snapshots of set 0, %ld of set 1 (%ld, %ld by a reader)\n",
	       r->snapshots[0], r->snapshots[1], r->prepared[0], r->prepared[1]);
	ck_assert_msg(r->snapshots[0] > 0 && r->snapshots[1] > 0,
		      "snapshots of set 0: %ld, set 1: %ld", r->snapshots[0], r->snapshots[1]);
	ck_assert_msg(r->prepared[0] > 0 && r->prepared[1] > 0,
		      "by a reader, of set 0: %ld, set 1: %ld", r->prepared[0], r->prepared[1]);
	ck_assert_msg(!r->torn && !r->backwards, "%ld torn, %ld backwards of %ld + %ld",
		      r->torn, r->backwards, r->snapshots[0], r->snapshots[1]);
	/* stopped: the page's set reads as pfm_read_pmds reads it */
	pmd_init(&pd[0], SW_PMD(0), 0);
	pd[0].reg_set = pg->set_id;
	ck_assert_ok(pfm_read_pmds(fd, pd, sizeof(pd[0])));
	ck_assert_uint_eq(mapped0(pg, pg->set_id), pd[0].reg_value);
	munmap(r, sizeof(*r));
	pfm_munmap_counts(pg);
	close(fd);
}
END_TEST

Suite *pfm_counts_page_suite(void)
{
	Suite *s = suite_create("counts_page");
	TCase *tc = pfm_tcase("counts_page");

	tcase_add_test(tc, test_page_exact_self);
	tcase_add_test(tc, test_page_faults_exact);
	tcase_add_test(tc, test_page_writes_and_unshown);
	tcase_add_test(tc, test_page_detach_close_munmap);
	tcase_add_test(tc, test_page_read_only);
	tcase_add_test(tc, test_page_store_faults);
	tcase_add_test(tc, test_page_other_process);
	tcase_add_test(tc, test_page_race_switches);
	suite_add_tcase(s, tc);
	return s;
}
