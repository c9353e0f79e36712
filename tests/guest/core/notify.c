// SPDX-License-Identifier: GPL-2.0
/*
 * notify: overflow notification.  A PMD written with PFM_PMDFL_OVFL_NOTIFY and a
 * value of -P overflows at its P-th event: monitoring stops there ("masked"), a
 * PFM_MSG_OVFL message is queued, read()/poll()/SIGIO tell the controller, and
 * pfm_start(PFM_STARTFL_RESTART) resumes from the long reset value.  The events
 * are system calls, so every count is exact.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util.h"
#include "suites.h"

#define P		100	/* the sampling period, in system calls */

extern char __executable_start[], etext[];

/* PMD64 notifies every P system calls; PMD65 counts them all. */
static int notify_ctx(int flags, uint64_t period)
{
	struct pfarg_pmd pd[2];
	int fd = pfm_create_context(flags);

	ck_assert_msg(fd >= 0, "pfm_create_context(%#x): %s", flags, strerror(errno));
	ck_write_pmc(fd, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_write_pmc(fd, SW_PMC(1), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	pmd_init(&pd[0], SW_PMD(0), -period);
	pd[0].reg_flags = PFM_PMDFL_OVFL_NOTIFY;
	pd[0].reg_long_reset = -period;
	pmd_init(&pd[1], SW_PMD(1), 0);
	ck_assert_ok(pfm_write_pmds(fd, pd, sizeof(pd)));
	return fd;
}

static void ck_ovfl_msg(int fd, pid_t pid, pid_t tid)
{
	union pfarg_msg m;
	ssize_t n;

	n = read(fd, &m, sizeof(m));
	ck_assert_msg(n == sizeof(m), "read: %zd (%s)", n, n < 0 ? strerror(errno) : "");
	ck_assert_uint_eq(m.type, PFM_MSG_OVFL);
	ck_assert_int_eq(m.pfm_ovfl_msg.msg_ovfl_pid, pid);
	ck_assert_int_eq(m.pfm_ovfl_msg.msg_ovfl_tid, tid);
	ck_assert_uint_eq(m.pfm_ovfl_msg.msg_active_set, 0);
	ck_assert_int_lt(m.pfm_ovfl_msg.msg_ovfl_cpu, possible_cpus());
	ck_assert_uint_eq(m.pfm_ovfl_msg.msg_ovfl_pmds[SW_PMD(0) / 64],
			  1ULL << (SW_PMD(0) % 64));
	ck_assert_uint_eq(m.pfm_ovfl_msg.msg_ovfl_pmds[0], 0);
}

static void ck_no_msg(int fd)
{
	union pfarg_msg m;

	ck_assert_errno(read(fd, &m, sizeof(m)), EAGAIN);
}

/* Self-monitoring: masked at exactly the P-th call, resumed by the restart. */
START_TEST(test_self_notify)
{
	int fd = notify_ctx(0, P);
	union pfarg_msg m;
	uint64_t ip;
	int r;

	ck_assert_ok(fcntl(fd, F_SETFL, O_NONBLOCK));
	ck_load_self(fd);
	pfm_start(fd, 0);
	do_getppid(P + 10);		/* the P-th masks: 10 not counted */
	r = pfm_start(fd, PFM_STARTFL_RESTART);
	do_getppid(5);
	pfm_stop(fd, 0);
	ck_assert_int_eq(r, 0);
	/* from the restart: 5 calls and the stop */
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), -(uint64_t)P + 6);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), P + 6);
	ck_assert_int_eq(read(fd, &m, sizeof(m)), sizeof(m));
	ck_assert_uint_eq(m.type, PFM_MSG_OVFL);
	ck_assert_int_eq(m.pfm_ovfl_msg.msg_ovfl_tid, self_tid());
	ck_assert_int_eq(m.pfm_ovfl_msg.msg_ovfl_pid, getpid());
	/* the user-mode IP: in this static binary's text */
	ip = m.pfm_ovfl_msg.msg_ovfl_ip;
	ck_assert_msg(ip >= (uintptr_t)__executable_start && ip < (uintptr_t)etext,
		      "msg_ovfl_ip %#llx outside the text", (unsigned long long)ip);
	ck_no_msg(fd);
	/* nothing left to resume */
	ck_assert_errno(pfm_start(fd, PFM_STARTFL_RESTART), EBUSY);
	close(fd);
}
END_TEST

/* Restart is refused while nothing is masked, and names no set. */
START_TEST(test_restart_refusals)
{
	int fd = notify_ctx(0, P);

	ck_assert_errno(pfm_start(fd, PFM_STARTFL_RESTART), EINVAL);	/* detached */
	ck_load_self(fd);
	ck_assert_errno(pfm_start(fd, PFM_STARTFL_RESTART), EBUSY);
	ck_assert_errno(pfm_start(fd, PFM_STARTFL_RESTART | PFM_STARTFL_SET, 0), EINVAL);
	close(fd);
}
END_TEST

/*
 * Another process: each round the kid makes P system calls, the controller
 * waits in poll(), reads the message and restarts.  The kid's counter has
 * stopped exactly at each P-th call.
 */
START_TEST(test_other_process_rounds)
{
	struct kid k = KID_INIT;
	struct pollfd p;
	int fd = notify_ctx(0, P), round;

	ck_kid_start(&k);
	ck_load(fd, k.pid);
	ck_assert_ok(pfm_start(fd, 0));
	for (round = 1; round <= 3; round++) {
		ck_kid_run(&k, P - 1);	/* P - 1 getppid and the read of the next order */
		p = (struct pollfd){ .fd = fd, .events = POLLIN };
		ck_assert_int_eq(poll(&p, 1, 10000), 1);
		ck_assert(p.revents & POLLIN);
		ck_ovfl_msg(fd, k.pid, k.pid);
		ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), 0);
		ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), round * P);
		/* masked: the kid's next calls are not counted until the restart */
		ck_kid_run(&k, 9);
		ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), round * P);
		ck_assert_ok(pfm_start(fd, PFM_STARTFL_RESTART));
		ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), -(uint64_t)P);
	}
	kid_kill(&k);
	close(fd);
}
END_TEST

static volatile sig_atomic_t sigio_count;

static void on_sigio(int sig)
{
	(void)sig;
	sigio_count++;
}

/* O_ASYNC: the overflow sends SIGIO to the owner; OVFL_NO_MSG queues nothing. */
START_TEST(test_sigio)
{
	struct sigaction sa = { .sa_handler = on_sigio };
	int flags = _i ? PFM_FL_OVFL_NO_MSG : 0;
	int fd = notify_ctx(flags, P), i;

	ck_assert_ok(sigaction(SIGIO, &sa, NULL));
	sigio_count = 0;
	ck_assert_ok(fcntl(fd, F_SETOWN, getpid()));
	ck_assert_ok(fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK));
	ck_load_self(fd);
	pfm_start(fd, 0);
	do_getppid(P);
	/* the wake-up runs from an irq_work: give it a moment */
	for (i = 0; i < 1000 && !sigio_count; i++)
		usleep(1000);
	pfm_stop(fd, 0);
	ck_assert_int_eq(sigio_count, 1);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), P);
	if (flags)
		ck_no_msg(fd);
	else
		ck_ovfl_msg(fd, getpid(), self_tid());
	close(fd);
	signal(SIGIO, SIG_DFL);
}
END_TEST

/* The queue holds 8 messages; later notifications still mask, without a message. */
START_TEST(test_queue_full)
{
	int fd = notify_ctx(0, 1), i, r = 0;
	union pfarg_msg m[10];

	ck_assert_ok(fcntl(fd, F_SETFL, O_NONBLOCK));
	ck_load_self(fd);
	pfm_start(fd, 0);
	for (i = 0; i < 10; i++) {
		getppid();		/* overflows and masks */
		r |= pfm_start(fd, PFM_STARTFL_RESTART);
	}
	pfm_stop(fd, 0);
	ck_assert_int_eq(r, 0);
	/* each getppid and the stop; a restart is entered while masked */
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), 10 + 1);
	ck_assert_int_eq(read(fd, m, sizeof(m)), 8 * sizeof(m[0]));
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(m[i].type, PFM_MSG_OVFL);
	ck_no_msg(fd);
	close(fd);
}
END_TEST

/*
 * PFM_FL_NOTIFY_BLOCK: the kid's P-th call masks; the kid is held on its way back
 * to user mode until the controller restarts (its next calls are counted), stops
 * or closes (they are not).
 */
START_TEST(test_notify_block)
{
	struct kid k = KID_INIT;
	int fd = notify_ctx(PFM_FL_NOTIFY_BLOCK, P);
	struct pollfd p = { .fd = fd, .events = POLLIN };

	ck_kid_start(&k);
	ck_load(fd, k.pid);
	ck_assert_ok(pfm_start(fd, 0));
	ck_kid_run(&k, P - 1);
	ck_assert_int_eq(poll(&p, 1, 10000), 1);
	ck_ovfl_msg(fd, k.pid, k.pid);
	/* its read returns into the hold: it makes no call and reaches no read */
	ck_assert_ok(kid_order(&k, 10));
	usleep(300000);
	ck_assert_int_eq(in_read(k.pid, k.cmd[k.turn][0]), 0);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), P);
	switch (_i) {
	case 0:
		ck_assert_ok(pfm_start(fd, PFM_STARTFL_RESTART));
		ck_assert_ok(wait_blocked_read(k.pid, k.cmd[k.turn][0]));
		/* the ten calls and the read, all after the restart */
		ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), P + 11);
		break;
	case 1:
		ck_assert_ok(pfm_stop(fd, 0));
		ck_assert_ok(wait_blocked_read(k.pid, k.cmd[k.turn][0]));
		ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), P);
		break;
	default:
		close(fd);
		fd = -1;
		ck_assert_ok(wait_blocked_read(k.pid, k.cmd[k.turn][0]));
		break;
	}
	kid_kill(&k);
	if (fd >= 0)
		close(fd);
}
END_TEST

/* A thread held until it restarts itself would never run again. */
START_TEST(test_notify_block_self)
{
	int fd = notify_ctx(PFM_FL_NOTIFY_BLOCK, P);

	ck_assert_errno(pfm_load_context(fd, 0, self_tid()), EINVAL);
	ck_assert_errno(pfm_start(fd, 0), EINVAL);
	close(fd);
}
END_TEST

Suite *pfm_notify_suite(void)
{
	Suite *s = suite_create("notify");
	TCase *tc = pfm_tcase("notify");

	tcase_add_test(tc, test_self_notify);
	tcase_add_test(tc, test_restart_refusals);
	tcase_add_test(tc, test_other_process_rounds);
	tcase_add_loop_test(tc, test_sigio, 0, 2);
	tcase_add_test(tc, test_queue_full);
	tcase_add_loop_test(tc, test_notify_block, 0, 3);
	tcase_add_test(tc, test_notify_block_self);
	suite_add_tcase(s, tc);
	return s;
}
