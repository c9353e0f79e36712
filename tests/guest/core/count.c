// SPDX-License-Identifier: GPL-2.0
/*
 * count: the software events count exactly what the thread does.
 *
 * Between pfm_start() and pfm_stop() the tests call nothing but the workload:
 * no assertion, no output (a check assertion writes to the runner), so every
 * system call and page fault in the window is one the test made on purpose.
 * The pfm_stop() is itself counted as a system call (perfmon_sw.h).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <sys/resource.h>

#include "util.h"
#include "suites.h"

/* A context loaded on this thread, counting 'event' on software counter 0. */
static int counting_ctx(int event)
{
	int fd = ck_ctx_create();

	ck_counter(fd, 0, event);
	ck_load_self(fd);
	return fd;
}

/* start, n getppid, stop: the count of software counter 0 afterwards */
static uint64_t syscall_window(int fd, long n)
{
	int rs, rt;

	rs = pfm_start(fd, 0);
	do_getppid(n);
	rt = pfm_stop(fd, 0);
	ck_assert_msg(rs == 0 && rt == 0, "start %d, stop %d: %s", rs, rt,
		      strerror(errno));
	return ck_read_pmd(fd, SW_PMD(0));
}

static const long syscall_n[] = { 0, 1, 1000, 100000 };

#define PFM_STATS	"/sys/kernel/debug/perfmon/stats"

/* The "<name>_hook_on" line of the statistics, or -1. */
static int hook_on(const char *name)
{
	char buf[1024], key[32], *p;

	if (sysfs_read(PFM_STATS, buf, sizeof(buf)))
		return -1;
	snprintf(key, sizeof(key), "%s_hook_on ", name);
	p = strstr(buf, key);
	return p ? atoi(p + strlen(key)) : -1;
}

/* Polls the statistics for up to 5 s (the probes linger 1 s after their last user). */
static int wait_hook(const char *name, int want)
{
	int i;

	for (i = 0; i < 500 && hook_on(name) != want; i++)
		usleep(10000);
	return hook_on(name);
}

/*
 * The probes that tax every thread of the system are attached only while a
 * context that counts their events is: the system call probe (every thread down
 * the slow system call path), counting system calls at user level, and the page
 * fault probes (every fault of the system through them), counting page faults.
 * Each case: the hook, an event that does not need it, one that does.
 */
static const struct {
	const char *hook;
	int other, needs;
} hook_cases[] = {
	{ "syscall", PFM_SW_EV_PAGE_FAULTS, PFM_SW_EV_SYSCALLS },
	{ "fault", PFM_SW_EV_TASK_CLOCK, PFM_SW_EV_PAGE_FAULTS },
};

START_TEST(test_hook_only_when_counted)
{
	const char *hook = hook_cases[_i].hook;
	int fd;

	ck_assert_int_eq(wait_hook(hook, 0), 0);
	fd = counting_ctx(hook_cases[_i].other);		/* attached */
	ck_assert_ok(pfm_start(fd, 0));
	ck_assert_int_eq(hook_on(hook), 0);
	/* a counter that needs it, written while attached, takes it at once */
	ck_write_pmc(fd, SW_PMC(1), PFM_SW_PMC(hook_cases[_i].needs));
	ck_assert_int_eq(hook_on(hook), 1);
	close(fd);
	ck_assert_int_eq(wait_hook(hook, 0), 0);

	/* one attached with such a counter takes it with the attach */
	fd = counting_ctx(hook_cases[_i].needs);
	ck_assert_int_eq(hook_on(hook), 1);
	close(fd);
	ck_assert_int_eq(wait_hook(hook, 0), 0);
}
END_TEST

START_TEST(test_syscalls_exact)
{
	long n = syscall_n[_i];
	int fd = counting_ctx(PFM_SW_EV_SYSCALLS);

	ck_assert_uint_eq(syscall_window(fd, n), n + 1);
	close(fd);
}
END_TEST

/* a read while started observes the count, and counts itself */
START_TEST(test_syscalls_read_while_started)
{
	int fd = counting_ctx(PFM_SW_EV_SYSCALLS);
	struct pfarg_pmd pd;
	int rs, rr, rt;

	pmd_init(&pd, SW_PMD(0), 0);
	rs = pfm_start(fd, 0);
	do_getppid(500);
	rr = pfm_read_pmds(fd, &pd, sizeof(pd));
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rr, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(pd.reg_value, 500 + 1);
	/* 500, the read, the stop */
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 500 + 2);
	close(fd);
}
END_TEST

#define FAULT_PAGES	256

START_TEST(test_page_faults_exact)
{
	int fd = counting_ctx(PFM_SW_EV_PAGE_FAULTS);
	char *warm = ck_fresh_pages(1);
	char *p = ck_fresh_pages(FAULT_PAGES);
	int rs, rt;

	/*
	 * Fault in everything the window runs besides the pages: the touch
	 * loop and pfm_stop() (a stop of a stopped context is allowed).  The
	 * stack and pfm_start() are warm already.
	 */
	touch_pages(warm, 1);
	ck_assert_ok(pfm_stop(fd, 0));

	rs = pfm_start(fd, 0);
	touch_pages(p, FAULT_PAGES);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), FAULT_PAGES);

	/* touched pages fault no more */
	rs = pfm_start(fd, 0);
	touch_pages(p, FAULT_PAGES);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), FAULT_PAGES);
	close(fd);
}
END_TEST

/*
 * A fault the kernel takes with page faults disabled is not counted, as
 * perf_events does not count it: perfmon's read copies a vector so, under its
 * context's lock.  With a kernel-level fault counter one short of wrapping, a read
 * of a bad address fails with EFAULT, and only the fault of the copy that reports
 * it (page faults enabled, no lock held) is counted: the counter wraps to 0 there.
 * Counting the first one would overflow the counter under the lock the overflow
 * path takes: the CPU would hang with interrupts off.
 */
START_TEST(test_fault_under_read_lock)
{
	struct pfarg_pmd *bad = (struct pfarg_pmd *)16;
	int fd = ck_ctx_create(), ret, err;

	ck_write_pmc(fd, SW_PMC(0), PFM_SW_EV_PAGE_FAULTS | PFM_SW_PMC_OS | PFM_SW_PMC_EN);
	ck_write_pmd(fd, SW_PMD(0), ~0ULL);
	ck_load_self(fd);
	ck_assert_ok(pfm_start(fd, 0));
	ret = pfm_read_pmds(fd, bad, sizeof(*bad));
	err = errno;
	ck_assert_ok(pfm_stop(fd, 0));
	ck_assert_int_eq(ret, -1);
	ck_assert_int_eq(err, EFAULT);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 0);
	close(fd);
}
END_TEST

#define SPIN_NS		(200 * NSEC_PER_MSEC)

/*
 * running time: what the thread CPU clock says, within 5%: at least the spin
 * between start and stop, at most the thread's time around the two calls
 * (which a loaded debug kernel stretches by milliseconds).
 */
START_TEST(test_task_clock_spin)
{
	int fd = counting_ctx(PFM_SW_EV_TASK_CLOCK);
	uint64_t before, t0, t1, after, tc, delta, around;
	int rs, rt;

	before = thread_cpu_ns();
	rs = pfm_start(fd, 0);
	t0 = thread_cpu_ns();
	t1 = spin_until(t0 + SPIN_NS);
	rt = pfm_stop(fd, 0);
	after = thread_cpu_ns();
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);

	tc = ck_read_pmd(fd, SW_PMD(0));
	delta = t1 - t0;
	around = after - before;
	ck_assert_msg(tc >= delta - delta / 20 && tc <= around + around / 20,
		      "task-clock %llu ns, thread CPU time %llu ns (%llu ns around start and stop)",
		      (unsigned long long)tc, (unsigned long long)delta,
		      (unsigned long long)around);
	close(fd);
}
END_TEST

/*
 * A sleeping thread does not accumulate task-clock: what is counted across a 200 ms
 * sleep is the thread's own CPU time in that window (the system calls around the
 * sleep take some of it, milliseconds on a slow debug kernel), give or take 5%: the
 * scheduler's accounting and perfmon's switch hooks take their stamps at different
 * points of a switch.
 */
START_TEST(test_task_clock_sleep)
{
	struct timespec ts = { 0, 200 * NSEC_PER_MSEC };
	int fd = counting_ctx(PFM_SW_EV_TASK_CLOCK);
	uint64_t tc, t0, t1;
	int rs, rt;

	t0 = thread_cpu_ns();
	rs = pfm_start(fd, 0);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	rt = pfm_stop(fd, 0);
	t1 = thread_cpu_ns();
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);

	tc = ck_read_pmd(fd, SW_PMD(0));
	ck_assert_msg(tc <= t1 - t0 + (t1 - t0) / 20 + 100000,
		      "task-clock %llu ns, thread cpu %llu ns",
		      (unsigned long long)tc, (unsigned long long)(t1 - t0));
	ck_assert_msg(tc < 20 * NSEC_PER_MSEC, "task-clock %llu ns asleep",
		      (unsigned long long)tc);
	close(fd);
}
END_TEST

/*
 * Across context switches the task clock is the thread's CPU time as the scheduler
 * counts it (CLOCK_THREAD_CPUTIME_ID): each run of the thread counts from the
 * scheduler's stamp of the switch in to its stamp of the switch out (thread.c).
 * The thread ping-pongs with a second one on CPU 0, 100 round trips and then 900,
 * each window between a start and a stop: what it counted is never more than its
 * CPU time around the window, and short of it by what the start, the stop and the
 * clock readings outside the window cost, the same however many switches there
 * were.  A switch stamped with a clock read in the hooks, or with the switch in's
 * exec_start as it is, without going back to the pick's (ticks and wakeups come
 * between the pick and the hook), loses time at every round trip, which the
 * window of many round trips shows.
 *
 * Each window is run TC_TRIES times and the least shortfall kept: the start and
 * stop calls are in the CPU time and not in the count, and once in a while one of
 * them takes a millisecond more (an interrupt's or softirq's work charged to the
 * thread, a host that stops the virtual CPU), and seldom in every try.  A loss
 * at each switch is in
 * every try.
 */
#define TC_FEW		100
#define TC_MANY		900
#define TC_TRIES	3

struct tc_echo {
	int in, out;
};

static void *tc_echo_thread(void *arg)
{
	struct tc_echo *e = arg;
	char c;

	ck_pin(0);
	while (read(e->in, &c, 1) == 1)
		if (write(e->out, &c, 1) != 1)
			abort();
	return NULL;
}

/* rounds round trips counted from 0: the task clock, and the CPU time around it */
static uint64_t tc_window(int fd, const int *ping, const int *pong, int rounds,
			  uint64_t *cpu)
{
	struct pfarg_pmd pd = { .reg_num = SW_PMD(0) };
	uint64_t t0, t1;
	int rs, rt, i;
	char c = 0;

	ck_assert_ok(pfm_write_pmds(fd, &pd, sizeof(pd)));
	t0 = thread_cpu_ns();
	rs = pfm_start(fd, 0);
	for (i = 0; i < rounds; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			break;
	rt = pfm_stop(fd, 0);
	t1 = thread_cpu_ns();
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_int_eq(i, rounds);
	*cpu = t1 - t0;
	return ck_read_pmd(fd, SW_PMD(0));
}

/*
 * The least shortfall of the task clock against the thread's CPU time in TC_TRIES
 * windows of rounds round trips; each window's count within its CPU time.
 */
static uint64_t tc_short(int fd, const int *ping, const int *pong, int rounds)
{
	uint64_t tc, cpu, least = UINT64_MAX;
	int i;

	for (i = 0; i < TC_TRIES; i++) {
		tc = tc_window(fd, ping, pong, rounds, &cpu);
		printf("task_clock_switches: %d round trips: task-clock %llu ns, "
		       "thread CPU %llu ns\n", rounds, (unsigned long long)tc,
		       (unsigned long long)cpu);
		ck_assert_msg(tc <= cpu, "task-clock over the thread's CPU time: "
			      "%llu > %llu ns in %d round trips", (unsigned long long)tc,
			      (unsigned long long)cpu, rounds);
		if (cpu - tc < least)
			least = cpu - tc;
	}
	return least;
}

START_TEST(test_task_clock_switches)
{
	uint64_t cpu, short_few, short_many;
	int ping[2], pong[2], fd;
	struct tc_echo echo;
	pthread_t th;

	ck_pin(0);
	ck_assert_ok(pipe(ping));
	ck_assert_ok(pipe(pong));
	echo = (struct tc_echo){ .in = ping[0], .out = pong[1] };
	ck_assert_int_eq(pthread_create(&th, NULL, tc_echo_thread, &echo), 0);
	fd = counting_ctx(PFM_SW_EV_TASK_CLOCK);
	/* once before: the window's code and data are in */
	tc_window(fd, ping, pong, 1, &cpu);
	short_few = tc_short(fd, ping, pong, TC_FEW);
	short_many = tc_short(fd, ping, pong, TC_MANY);
	close(ping[1]);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	close(fd);
	close(ping[0]);
	close(pong[0]);
	close(pong[1]);

	ck_assert_msg(short_many <= 2 * short_few + 50000,
		      "task-clock short of the thread's CPU time by %llu ns in %d round trips, "
		      "%llu ns in %d (the least of %d windows each)",
		      (unsigned long long)short_many, TC_MANY,
		      (unsigned long long)short_few, TC_FEW, TC_TRIES);
}
END_TEST

#define SLEEPS		10

static long thread_switches(void)
{
	struct rusage ru;

	ck_assert_int_eq(getrusage(RUSAGE_THREAD, &ru), 0);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/*
 * Switches counted match the kernel's own count for the thread (the start and stop
 * calls may add one each outside the window).  A 1 ms sleep whose timer has already
 * expired returns without blocking, so the number of sleeps is only a lower bound on
 * average: half of them must block.
 */
START_TEST(test_ctx_switches_sleep)
{
	int fd = counting_ctx(PFM_SW_EV_CTX_SWITCHES);
	long k0, k1;
	uint64_t v;
	int i, rs, rt;

	k0 = thread_switches();
	rs = pfm_start(fd, 0);
	for (i = 0; i < SLEEPS; i++)
		usleep(1000);
	rt = pfm_stop(fd, 0);
	k1 = thread_switches();
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);

	v = ck_read_pmd(fd, SW_PMD(0));
	ck_assert_msg(v <= (uint64_t)(k1 - k0) && v + 2 >= (uint64_t)(k1 - k0),
		      "counted %llu switches, the kernel %ld", (unsigned long long)v, k1 - k0);
	ck_assert_uint_ge(v, SLEEPS / 2);
	close(fd);
}
END_TEST

/*
 * Two monitored threads take turns on one CPU, each switching the other in, so
 * that every switch hands the CPU's software counters from one context to the
 * other; their counters are laid out differently, so the events each counter
 * counts change at each switch too.  Each thread's counts are its own, exactly:
 * the pages it touched, not the other's, its system calls, and its switches as
 * the kernel counted them.  A count lost at a switch, or counted into the other's
 * context, shows here; and the counts page agrees with pfm_read_pmds(), read by
 * pfm_read_mapped() and by a reader prepared before the start.
 */
#define PP_ROUNDS	300
#define PP_NEV		3

static const int pp_events[PP_NEV] = {
	PFM_SW_EV_PAGE_FAULTS, PFM_SW_EV_SYSCALLS, PFM_SW_EV_CTX_SWITCHES,
};

struct pp {
	pthread_t thread;
	pthread_barrier_t *barrier;
	int in, out;			/* the token comes in on in, goes on out */
	bool first;			/* holds the token first */
	unsigned int rot;		/* event e is on counter (e + rot) % PP_NEV */
	int rs, rt;
	long k0, k1;			/* the kernel's switches of the thread */
	uint64_t v[PP_NEV];		/* by event: pfm_read_pmds() after the stop */
	uint64_t mapped[PP_NEV];	/* by event: the counts page after the stop */
	int mapped_ret;
	uint64_t reader[PP_NEV];	/* the same, by a reader prepared before the start */
	int prep_ret, reader_ret;
};

/* One turn: the token in, a page touched, the token on (the first thread starts). */
static void pp_turn(struct pp *t, char *page)
{
	char c = 0;

	if (!t->first && read(t->in, &c, 1) != 1)
		abort();
	touch_pages(page, 1);
	if (write(t->out, &c, 1) != 1)
		abort();
	if (t->first && read(t->in, &c, 1) != 1)
		abort();
}

static void *pp_thread(void *arg)
{
	struct pp *t = arg;
	const struct pfm_counts_page *pg;
	unsigned int pmds[PP_NEV];
	struct pfarg_pmd pd[PP_NEV];
	struct pfm_counts_reader rd;
	long psz = page_size();
	char *pages;
	int fd, e, i;

	ck_pin(0);
	fd = ck_ctx_create();
	for (e = 0; e < PP_NEV; e++) {
		ck_counter(fd, (e + t->rot) % PP_NEV, pp_events[e]);
		pmds[e] = SW_PMD((e + t->rot) % PP_NEV);
		pmd_init(&pd[e], pmds[e], 0);
	}
	ck_load_self(fd);
	pg = pfm_mmap_counts(fd);
	ck_assert_msg(pg != NULL, "pfm_mmap_counts: %s", strerror(errno));
	t->prep_ret = pfm_counts_prepare(pg, 0, pmds, PP_NEV, &rd);
	pages = ck_fresh_pages(PP_ROUNDS + 1);
	pthread_barrier_wait(t->barrier);
	/* a turn and a stop before the window: the code and stack they use are in */
	pp_turn(t, pages + PP_ROUNDS * psz);
	ck_assert_ok(pfm_stop(fd, 0));
	t->k0 = thread_switches();

	t->rs = pfm_start(fd, 0);
	for (i = 0; i < PP_ROUNDS; i++)
		pp_turn(t, pages + i * psz);
	t->rt = pfm_stop(fd, 0);
	t->k1 = thread_switches();

	ck_assert_ok(pfm_read_pmds(fd, pd, sizeof(pd)));
	t->mapped_ret = pfm_read_mapped(pg, 0, pmds, t->mapped, PP_NEV);
	t->reader_ret = t->prep_ret ? -1 : pfm_counts_read(&rd, t->reader);
	for (e = 0; e < PP_NEV; e++)
		t->v[e] = pd[e].reg_value;
	pfm_munmap_counts(pg);
	close(fd);
	return NULL;
}

START_TEST(test_switches_between_contexts)
{
	int ab[2], ba[2], i, e;
	struct pp t[2];
	pthread_barrier_t barrier;

	ck_assert_ok(pipe(ab));
	ck_assert_ok(pipe(ba));
	ck_assert_int_eq(pthread_barrier_init(&barrier, NULL, 2), 0);
	memset(t, 0, sizeof(t));
	t[0] = (struct pp){ .barrier = &barrier, .in = ba[0], .out = ab[1], .first = true };
	t[1] = (struct pp){ .barrier = &barrier, .in = ab[0], .out = ba[1], .rot = 1 };
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i].thread, NULL, pp_thread, &t[i]), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(t[i].thread, NULL), 0);

	for (i = 0; i < 2; i++) {
		long k = t[i].k1 - t[i].k0;
		uint64_t sw = t[i].v[2];

		ck_assert_int_eq(t[i].rs, 0);
		ck_assert_int_eq(t[i].rt, 0);
		ck_assert_msg(t[i].v[0] == PP_ROUNDS, "thread %d: %llu faults, touched %d",
			      i, (unsigned long long)t[i].v[0], PP_ROUNDS);
		/* a read and a write a turn, and the stop */
		ck_assert_msg(t[i].v[1] == 2 * PP_ROUNDS + 1, "thread %d: %llu system calls",
			      i, (unsigned long long)t[i].v[1]);
		/* every turn waits for the other's: one switch out at least */
		ck_assert_msg(sw >= PP_ROUNDS - 1 && sw <= (uint64_t)k && sw + 2 >= (uint64_t)k,
			      "thread %d: counted %llu switches, the kernel %ld", i,
			      (unsigned long long)sw, k);
		ck_assert_int_eq(t[i].mapped_ret, 0);
		ck_assert_int_eq(t[i].prep_ret, 0);
		ck_assert_int_eq(t[i].reader_ret, 0);
		for (e = 0; e < PP_NEV; e++) {
			ck_assert_uint_eq(t[i].mapped[e], t[i].v[e]);
			ck_assert_uint_eq(t[i].reader[e], t[i].v[e]);
		}
	}
	pthread_barrier_destroy(&barrier);
	for (i = 0; i < 2; i++) {
		close(ab[i]);
		close(ba[i]);
	}
}
END_TEST

/* stop freezes the count, start resumes from it */
START_TEST(test_counts_accumulate)
{
	int fd = counting_ctx(PFM_SW_EV_SYSCALLS);

	ck_assert_uint_eq(syscall_window(fd, 1000), 1000 + 1);
	ck_assert_uint_eq(syscall_window(fd, 1000), 2 * 1000 + 2);
	close(fd);
}
END_TEST

/* a written value replaces the count */
START_TEST(test_write_resets_count)
{
	int fd = counting_ctx(PFM_SW_EV_SYSCALLS);

	ck_assert_uint_eq(syscall_window(fd, 50), 50 + 1);
	ck_write_pmd(fd, SW_PMD(0), 1000);
	ck_assert_uint_eq(syscall_window(fd, 200), 1000 + 200 + 1);
	close(fd);
}
END_TEST

/* the count is 64 bits wide: near the top, it still adds */
START_TEST(test_count_64bit)
{
	int fd = counting_ctx(PFM_SW_EV_SYSCALLS);

	ck_write_pmd(fd, SW_PMD(0), 0xfffffffffffffff0ULL);
	ck_assert_uint_eq(syscall_window(fd, 5), 0xfffffffffffffff0ULL + 6);
	close(fd);
}
END_TEST

static int set_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* a pinned thread migrates exactly when its affinity moves it */
START_TEST(test_cpu_migrations)
{
	int fd, rs, r1, c1, r2, c2, rt;
	cpu_set_t allowed;

	ck_assert_ok(sched_getaffinity(0, sizeof(allowed), &allowed));
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || !CPU_ISSET(0, &allowed) ||
	    !CPU_ISSET(1, &allowed)) {
		printf("test_cpu_migrations: skipped, needs CPUs 0 and 1\n");
		return;
	}

	fd = counting_ctx(PFM_SW_EV_CPU_MIGRATIONS);
	ck_assert_ok(set_cpu(0));
	ck_assert_int_eq(sched_getcpu(), 0);

	rs = pfm_start(fd, 0);
	r1 = set_cpu(1);
	c1 = sched_getcpu();
	r2 = set_cpu(0);
	c2 = sched_getcpu();
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(r1, 0);
	ck_assert_int_eq(c1, 1);
	ck_assert_int_eq(r2, 0);
	ck_assert_int_eq(c2, 0);
	ck_assert_int_eq(rt, 0);

	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 2);
	close(fd);
}
END_TEST

/*
 * Every software counter of one set counts at once, each exactly: most count the
 * system calls of a fixed workload, every eighth the page faults of fresh pages,
 * and every eighth from the fourth counts system calls at kernel level only,
 * where none happens (perfmon_sw.h).  No counter is left for another set: none
 * is multiplexed, so each reads the whole window.
 */
#define ALL_SYSCALLS	10000

static int all_counters_event(unsigned int i, uint64_t *pmc)
{
	if (i % 8 == 7) {
		*pmc = PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS);
		return FAULT_PAGES;
	}
	if (i % 8 == 3) {
		*pmc = PFM_SW_EV_SYSCALLS | PFM_SW_PMC_OS | PFM_SW_PMC_EN;
		return 0;
	}
	*pmc = PFM_SW_PMC(PFM_SW_EV_SYSCALLS);
	return ALL_SYSCALLS + 1;	/* the stop is counted too */
}

START_TEST(test_all_counters_exact)
{
	struct pfarg_pmd pd[PFM_SW_NUM_COUNTERS];
	char *warm = ck_fresh_pages(1);
	char *p = ck_fresh_pages(FAULT_PAGES);
	int fd = ck_ctx_create();
	unsigned int i;
	uint64_t pmc;
	int rs, rt;

	for (i = 0; i < PFM_SW_NUM_COUNTERS; i++) {
		all_counters_event(i, &pmc);
		ck_write_pmc(fd, SW_PMC(i), pmc);
	}
	ck_load_self(fd);
	/* the window's code and stack faulted in, as test_page_faults_exact() */
	touch_pages(warm, 1);
	do_getppid(1);
	ck_assert_ok(pfm_stop(fd, 0));

	rs = pfm_start(fd, 0);
	do_getppid(ALL_SYSCALLS);
	touch_pages(p, FAULT_PAGES);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);

	/* in vectors of 16, which a page (the default arg_mem_max) holds */
	for (i = 0; i < PFM_SW_NUM_COUNTERS; i++)
		pmd_init(&pd[i], SW_PMD(i), 0);
	for (i = 0; i < PFM_SW_NUM_COUNTERS; i += 16)
		ck_assert_ok(pfm_read_pmds(fd, pd + i, 16 * sizeof(pd[0])));
	for (i = 0; i < PFM_SW_NUM_COUNTERS; i++)
		ck_assert_msg(pd[i].reg_value == (uint64_t)all_counters_event(i, &pmc),
			      "counter %u: %llu, not %d", i,
			      (unsigned long long)pd[i].reg_value, all_counters_event(i, &pmc));
	close(fd);
}
END_TEST

Suite *pfm_count_suite(void)
{
	Suite *s = suite_create("count");
	TCase *tc = pfm_tcase("count");

	tcase_add_loop_test(tc, test_syscalls_exact, 0, ARRAY_SIZE(syscall_n));
	tcase_add_test(tc, test_syscalls_read_while_started);
	tcase_add_test(tc, test_page_faults_exact);
	tcase_add_test(tc, test_task_clock_spin);
	tcase_add_test(tc, test_task_clock_sleep);
	tcase_add_test(tc, test_task_clock_switches);
	tcase_add_test(tc, test_fault_under_read_lock);
	tcase_add_test(tc, test_ctx_switches_sleep);
	tcase_add_test(tc, test_switches_between_contexts);
	tcase_add_test(tc, test_counts_accumulate);
	tcase_add_test(tc, test_write_resets_count);
	tcase_add_test(tc, test_count_64bit);
	tcase_add_test(tc, test_cpu_migrations);
	tcase_add_loop_test(tc, test_hook_only_when_counted, 0, ARRAY_SIZE(hook_cases));
	tcase_add_test(tc, test_all_counters_exact);
	suite_add_tcase(s, tc);
	return s;
}
