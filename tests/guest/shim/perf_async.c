// SPDX-License-Identifier: GPL-2.0
/*
 * perf_async: signals at overflows (O_ASYNC, F_SETOWN / F_SETOWN_EX, F_SETSIG)
 * and PERF_EVENT_IOC_REFRESH, as a self-monitoring program uses them: one
 * signal per overflow (si_code POLL_IN, si_fd the event), REFRESH(n) takes n
 * samples then disables the event with a POLL_HUP signal.  Exact counts come
 * from page faults the test makes: period 1, N fresh pages, N overflows.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "util.h"
#include "perf_ring_util.h"
#include "suites.h"

static volatile sig_atomic_t nr_in, nr_hup, nr_other, nr_sigio;
static volatile int last_fd;

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig == SIGIO && si->si_code == SI_KERNEL) {
		nr_sigio++;
		return;
	}
	last_fd = si->si_fd;
	if (si->si_code == POLL_IN)
		nr_in++;
	else if (si->si_code == POLL_HUP)
		nr_hup++;
	else
		nr_other++;
}

static void catch(int sig)
{
	struct sigaction sa = { .sa_sigaction = on_sig, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	ck_assert_ok(sigaction(sig, &sa, NULL));
	nr_in = nr_hup = nr_other = nr_sigio = 0;
	last_fd = -1;
}

/* fd's owner is this thread, its signal sig (0: SIGIO), O_ASYNC on. */
static void own(int fd, int sig)
{
	struct f_owner_ex o = { .type = F_OWNER_TID, .pid = self_tid() };

	ck_assert_ok(fcntl(fd, F_SETOWN_EX, &o));
	ck_assert_ok(fcntl(fd, F_SETSIG, sig));
	ck_assert_ok(fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK));
}

static int open_faults(int inherit)
{
	struct perf_event_attr a;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);
	a.inherit = inherit;
	return ck_open(&a, 0);
}

/* One F_SETSIG signal per overflow, POLL_IN, si_fd the event's; none without O_ASYNC. */
START_TEST(test_signal_per_overflow)
{
	const long n = 16;
	char *p = ck_fresh_pages(2 * n);
	int fd = open_faults(0);
	uint64_t pos;
	struct ring r;

	catch(SIGRTMIN + 1);
	ck_map(&r, fd, 8, PROT_READ | PROT_WRITE);
	ck_assert_ok(fcntl(fd, F_SETSIG, SIGRTMIN + 1));
	fault_on(fd, p, n);
	ck_assert_int_eq(nr_in + nr_hup + nr_other, 0);
	own(fd, SIGRTMIN + 1);
	pos = head(&r);
	fault_on(fd, p + n * page_size(), n);
	/* one signal per sample: the test's n faults (and any other of the window) */
	ck_assert_int_eq(samples_of(&r, ANY_ID, p + n * page_size(), n), n);
	ck_assert_int_eq(nr_in, samples_from(&r, pos));
	ck_assert_int_eq(nr_hup + nr_other, 0);
	ck_assert_int_eq(last_fd, fd);
	unmap(&r);
	close(fd);
}
END_TEST

/* Without F_SETSIG the owner gets plain SIGIO. */
START_TEST(test_plain_sigio)
{
	char *p = ck_fresh_pages(4);
	int fd = open_faults(0);

	catch(SIGIO);
	own(fd, 0);
	fault_on(fd, p, 4);
	ck_assert_int_eq(nr_sigio, 4);	/* one per fault: each returns to user mode */
	ck_assert_int_eq(nr_in + nr_hup + nr_other, 0);
	close(fd);
}
END_TEST

/*
 * REFRESH(3): three samples, two POLL_IN and a POLL_HUP, then the event is
 * disabled (its count stops at 3); REFRESH(2) enables it for two more.
 */
START_TEST(test_refresh_counts_down)
{
	const long n = 8;
	char *p = ck_fresh_pages(2 * n);
	int fd = open_faults(0), on, on2;
	struct ring r;

	catch(SIGRTMIN + 1);
	ck_map(&r, fd, 8, PROT_READ | PROT_WRITE);
	own(fd, SIGRTMIN + 1);
	/* no check in between: a passing check may fault (see fault_on()) */
	on = ioctl(fd, PERF_EVENT_IOC_REFRESH, 3);
	touch_pages(p, n);
	ck_assert_int_eq(on, 0);
	ck_assert_int_eq(samples_of(&r, ANY_ID, p, n), 3);
	ck_assert_int_eq(nr_in, 2);
	ck_assert_int_eq(nr_hup, 1);
	ck_assert_int_eq(last_fd, fd);
	ck_assert_uint_eq(ck_read1(fd), 3);
	/* REFRESH enables it again, for two */
	on2 = ioctl(fd, PERF_EVENT_IOC_REFRESH, 2);
	touch_pages(p + n * page_size(), n);
	ck_assert_int_eq(on2, 0);
	ck_assert_int_eq(samples_of(&r, ANY_ID, p + n * page_size(), n), 2);
	ck_assert_int_eq(nr_in, 3);
	ck_assert_int_eq(nr_hup, 2);
	ck_assert_uint_eq(ck_read1(fd), 5);
	unmap(&r);
	close(fd);
}
END_TEST

/* After the limit, a plain ENABLE samples again, without a limit. */
START_TEST(test_enable_after_limit)
{
	const long n = 8;
	char *p = ck_fresh_pages(n + 1);
	int fd = open_faults(0), on;
	struct ring r;

	ck_map(&r, fd, 8, PROT_READ | PROT_WRITE);
	on = ioctl(fd, PERF_EVENT_IOC_REFRESH, 1);
	touch_pages(p, 1);
	ck_assert_int_eq(on, 0);
	ck_assert_uint_eq(ck_read1(fd), 1);
	fault_on(fd, p + page_size(), n);
	ck_assert_int_eq(samples_of(&r, ANY_ID, p, n + 1), n + 1);
	unmap(&r);
	close(fd);
}
END_TEST

/* REFRESH needs a sampling event without inherit: EINVAL, and nothing enabled. */
START_TEST(test_refresh_errnos)
{
	char *p = ck_fresh_pages(2);
	struct perf_event_attr a;
	int fd;

	fd = open_faults(1);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1), EINVAL);
	close(fd);
	attr_sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
	fd = ck_open(&a, 0);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1), EINVAL);
	touch_pages(p, 2);
	ck_assert_uint_eq(ck_read1(fd), 0);
	close(fd);
}
END_TEST

Suite *pfm_perf_async_suite(void)
{
	Suite *s = suite_create("perf_async");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_signal_per_overflow);
	tcase_add_test(tc, test_plain_sigio);
	tcase_add_test(tc, test_refresh_counts_down);
	tcase_add_test(tc, test_enable_after_limit);
	tcase_add_test(tc, test_refresh_errnos);
	suite_add_tcase(s, tc);
	return s;
}
