// SPDX-License-Identifier: GPL-2.0
/*
 * perf_output: where a perf event's records go.  PERF_EVENT_IOC_SET_OUTPUT
 * sends one event's records into another's ring (perf record's per-CPU form),
 * with Linux 6.1's rules and errnos; -1 takes the output away; munmap() of a
 * ring's last mapping detaches every event from it; a redirected event maps
 * the ring it writes to; PERF_FLAG_FD_OUTPUT at open.  Exact counts: N fresh pages touched with a period
 * of 1 are N samples per event, told apart by STREAM_ID.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "util.h"
#include "perf_ring_util.h"
#include "suites.h"
#include "users.h"

/* addr, stream_id: sample words 0 and 1 */
#define OUT_FIELDS	(PERF_SAMPLE_ADDR | PERF_SAMPLE_STREAM_ID)

static int open_faults(pid_t pid, int cpu)
{
	struct perf_event_attr a;
	int fd;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, OUT_FIELDS);
	fd = pfm_perf_event_open(&a, pid, cpu, -1, 0);
	ck_assert_msg(fd >= 0, "open: %s", strerror(errno));
	return fd;
}

/*
 * Two events of one thread, one ring: each page's fault is there twice, once
 * per event; -1 takes the second event's output away, and its own mmap() then
 * makes it a ring of its own, of another size.
 */
START_TEST(test_set_output_shares_ring)
{
	const long n = 16;
	char *p = ck_fresh_pages(3 * n);
	int fd[2] = { open_faults(0, -1), open_faults(0, -1) };
	uint64_t id0 = ck_id(fd[0]), id1 = ck_id(fd[1]);
	struct ring r, r1;

	ck_map(&r, fd[0], 8, PROT_READ | PROT_WRITE);
	ck_assert_ok(ioctl(fd[1], PERF_EVENT_IOC_SET_OUTPUT, fd[0]));
	fault_all(fd, 2, p, n);
	ck_assert_int_eq(samples_of(&r, id0, p, n), n);
	ck_assert_int_eq(samples_of(&r, id1, p, n), n);

	/* unset: the second event's records go nowhere */
	ck_assert_ok(ioctl(fd[1], PERF_EVENT_IOC_SET_OUTPUT, -1));
	fault_all(fd, 2, p + n * page_size(), n);
	ck_assert_int_eq(samples_of(&r, id0, p + n * page_size(), n), n);
	ck_assert_int_eq(samples_of(&r, id1, p + n * page_size(), n), 0);

	/* and it may have a ring of its own now */
	ck_map(&r1, fd[1], 4, PROT_READ | PROT_WRITE);
	fault_all(fd, 2, p + 2 * n * page_size(), n);
	ck_assert_int_eq(samples_of(&r, id0, p + 2 * n * page_size(), n), n);
	ck_assert_int_eq(samples_of(&r, id1, p + 2 * n * page_size(), n), 0);
	ck_assert_int_eq(samples_of(&r1, id1, p + 2 * n * page_size(), n), n);
	unmap(&r1);
	unmap(&r);
	close(fd[1]);
	close(fd[0]);
}
END_TEST

/* Every refusal of perf_event_set_output(), with its errno; none changes anything. */
START_TEST(test_set_output_errnos)
{
	int fd = open_faults(0, -1), other = open_faults(0, -1);
	int cpu0 = open_faults(0, 0), devnull = open("/dev/null", O_RDONLY);
	struct perf_event_attr a;
	struct kid k = KID_INIT;
	struct ring r, r2;
	int kfd, kfd0, cfd;

	/* first: a kid forked later would hold a copy of the mappings */
	ck_kid_start(&k);
	/* not a perf event: EBADF, before anything else */
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, devnull), EBADF);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, 999), EBADF);
	/* itself */
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, fd), EINVAL);
	/* a ring that does not exist */
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, other), EINVAL);
	ck_map(&r, other, 2, PROT_READ | PROT_WRITE);
	/* another CPU */
	ck_assert_errno(ioctl(cpu0, PERF_EVENT_IOC_SET_OUTPUT, other), EINVAL);
	/* another thread's per-thread ring; per-CPU rings may mix threads */
	kfd = open_faults(k.pid, -1);
	kfd0 = open_faults(k.pid, 0);
	ck_assert_errno(ioctl(kfd, PERF_EVENT_IOC_SET_OUTPUT, other), EINVAL);
	ck_map(&r2, cpu0, 2, PROT_READ | PROT_WRITE);
	ck_assert_ok(ioctl(kfd0, PERF_EVENT_IOC_SET_OUTPUT, cpu0));
	/* another clock, another direction */
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, OUT_FIELDS);
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	cfd = ck_open(&a, 0);
	ck_assert_errno(ioctl(cfd, PERF_EVENT_IOC_SET_OUTPUT, other), EINVAL);
	close(cfd);
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, OUT_FIELDS);
	a.write_backward = 1;
	cfd = ck_open(&a, 0);
	ck_assert_errno(ioctl(cfd, PERF_EVENT_IOC_SET_OUTPUT, other), EINVAL);
	close(cfd);
	/* an event mapped itself cannot redirect, not even to nothing */
	ck_assert_errno(ioctl(other, PERF_EVENT_IOC_SET_OUTPUT, -1), EINVAL);
	ck_assert_errno(ioctl(cpu0, PERF_EVENT_IOC_SET_OUTPUT, -1), EINVAL);
	/* nothing changed: fd has no ring, other still its own */
	ck_assert_int_eq(poll_now(fd), POLLHUP);
	ck_assert_ok(ioctl(other, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0), EINVAL);
	/* the same again, now allowed */
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, other));
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	/* unmapped: no ring anyone reads, EINVAL */
	unmap(&r);
	ck_assert_errno(ioctl(kfd, PERF_EVENT_IOC_SET_OUTPUT, other), EINVAL);
	ck_assert_errno(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, other), EINVAL);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, -1));
	unmap(&r2);
	close(kfd0);
	close(kfd);
	ck_kid_run_exit(&k, 0);
	close(devnull);
	close(cpu0);
	close(other);
	close(fd);
}
END_TEST

/*
 * The last munmap() of a ring detaches every event redirected into it: no ring
 * (POLLHUP, PAUSE_OUTPUT EINVAL); the owner's next mmap() makes a fresh ring,
 * of any size.
 */
START_TEST(test_munmap_detaches)
{
	const long n = 8;
	char *p = ck_fresh_pages(n);
	int fd[2] = { open_faults(0, -1), open_faults(0, -1) };
	struct ring r;

	ck_map(&r, fd[0], 2, PROT_READ | PROT_WRITE);
	ck_assert_ok(ioctl(fd[1], PERF_EVENT_IOC_SET_OUTPUT, fd[0]));
	ck_assert_ok(ioctl(fd[1], PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	ck_assert_int_eq(poll_now(fd[1]), 0);
	unmap(&r);
	ck_assert_int_eq(poll_now(fd[1]), POLLHUP);
	ck_assert_int_eq(poll_now(fd[0]), POLLHUP);
	ck_assert_errno(ioctl(fd[1], PERF_EVENT_IOC_PAUSE_OUTPUT, 0), EINVAL);
	ck_assert_errno(ioctl(fd[0], PERF_EVENT_IOC_PAUSE_OUTPUT, 0), EINVAL);
	ck_map(&r, fd[0], 4, PROT_READ | PROT_WRITE);
	ck_assert_uint_eq(head(&r), 0);
	fault_all(fd, 2, p, n);
	ck_assert_int_eq(samples_of(&r, ck_id(fd[0]), p, n), n);
	ck_assert_int_eq(samples_of(&r, ck_id(fd[1]), p, n), 0);
	unmap(&r);
	close(fd[1]);
	close(fd[0]);
}
END_TEST

/*
 * A redirected event maps the ring it writes to, with that ring's size only;
 * the ring lives while any mapping does.  A forked child gets no copy of the
 * mapping (VM_DONTCOPY, as perf's), so its exit changes nothing.
 */
START_TEST(test_redirected_mmap)
{
	long psz = page_size();
	int fd[2] = { open_faults(0, -1), open_faults(0, -1) };
	struct perf_event_mmap_page *m;
	struct ring r;
	pid_t pid;
	int status;

	ck_map(&r, fd[0], 2, PROT_READ | PROT_WRITE);
	ck_assert_ok(ioctl(fd[1], PERF_EVENT_IOC_SET_OUTPUT, fd[0]));
	ck_assert_ptr_eq(mmap(NULL, 5 * psz, PROT_READ, MAP_SHARED, fd[1], 0), MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	m = mmap(NULL, 3 * psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd[1], 0);
	ck_assert_ptr_ne(m, MAP_FAILED);
	r.pg->data_tail = 4242;
	ck_assert_uint_eq(m->data_tail, 4242);
	r.pg->data_tail = 0;
	/* mapped now: it cannot redirect */
	ck_assert_errno(ioctl(fd[1], PERF_EVENT_IOC_SET_OUTPUT, -1), EINVAL);
	/* the owner's mapping goes, the redirected one keeps the ring */
	unmap(&r);
	ck_assert_int_eq(poll_now(fd[0]), POLLHUP);
	ck_assert_int_eq(poll_now(fd[1]), 0);
	/* not mapped in a child (msync: ENOMEM), and its exit leaves ours */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(msync(m, psz, MS_ASYNC) == -1 && errno == ENOMEM ? 0 : 1);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(status, 0);
	ck_assert_int_eq(poll_now(fd[1]), 0);
	ck_assert_ok(ioctl(fd[0], PERF_EVENT_IOC_SET_OUTPUT, fd[1]));
	munmap(m, 3 * psz);
	ck_assert_int_eq(poll_now(fd[0]), POLLHUP);
	ck_assert_int_eq(poll_now(fd[1]), POLLHUP);
	close(fd[1]);
	close(fd[0]);
}
END_TEST

/* A wakeup of the shared ring wakes a poller of the redirected event. */
START_TEST(test_redirected_poll_wakeup)
{
	char *p = ck_fresh_pages(4);
	struct perf_event_attr a;
	struct pollfd pfd;
	struct ring r;
	int fd[2];

	fd[0] = open_faults(0, -1);
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, OUT_FIELDS);
	a.wakeup_events = 1;
	fd[1] = ck_open(&a, 0);
	ck_map(&r, fd[0], 8, PROT_READ | PROT_WRITE);
	ck_assert_ok(ioctl(fd[1], PERF_EVENT_IOC_SET_OUTPUT, fd[0]));
	ck_assert_int_eq(poll_now(fd[1]), 0);
	fault_on(fd[1], p, 1);
	pfd.fd = fd[1];
	pfd.events = POLLIN;
	ck_assert_int_eq(poll(&pfd, 1, 5000), 1);
	ck_assert_int_eq(pfd.revents, POLLIN);
	ck_assert_int_eq(samples_of(&r, ck_id(fd[1]), p, 1), 1);
	unmap(&r);
	close(fd[1]);
	close(fd[0]);
}
END_TEST

/*
 * PERF_FLAG_FD_OUTPUT: the new event's records go to group_fd's ring, with
 * SET_OUTPUT's rules; a refusal refuses the open and takes no fd.
 */
START_TEST(test_flag_fd_output)
{
	const long n = 8;
	char *p = ck_fresh_pages(n);
	struct perf_event_attr a;
	int fd[2], probe;
	struct ring r;

	fd[0] = open_faults(0, -1);
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, OUT_FIELDS);
	probe = dup(0);
	close(probe);
	ck_assert_errno(pfm_perf_event_open(&a, 0, -1, fd[0], PERF_FLAG_FD_OUTPUT), EINVAL);
	ck_assert_errno(pfm_perf_event_open(&a, 0, -1, fd[0], PERF_FLAG_FD_OUTPUT |
					    PERF_FLAG_FD_NO_GROUP), EINVAL);
	/* the fd the refused opens would have taken is still free */
	ck_assert_int_eq(dup(0), probe);
	close(probe);
	ck_map(&r, fd[0], 4, PROT_READ | PROT_WRITE);
	fd[1] = pfm_perf_event_open(&a, 0, -1, fd[0], PERF_FLAG_FD_OUTPUT |
				    PERF_FLAG_FD_NO_GROUP);
	ck_assert_int_ge(fd[1], 0);
	fault_all(fd, 2, p, n);
	ck_assert_int_eq(samples_of(&r, ck_id(fd[0]), p, n), n);
	ck_assert_int_eq(samples_of(&r, ck_id(fd[1]), p, n), n);
	unmap(&r);
	close(fd[1]);
	close(fd[0]);
}
END_TEST

#define MLOCK_KB	PFM_SYSFS "/perf_event_mlock_kb"
#define PARANOID	PFM_SYSFS "/paranoid"

/* mmap of a ring of 1 + data pages, left mapped: 0, or -1 and errno */
static int map_ring(int fd, long data)
{
	void *m = mmap(NULL, (1 + data) * page_size(), PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, 0);

	return m == MAP_FAILED ? -1 : 0;
}

static int open_child_faults(void)
{
	struct perf_event_attr a;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, OUT_FIELDS);
	return pfm_perf_event_open(&a, 0, -1, -1, 0);
}

static void memlock_pages(long soft)
{
	struct rlimit rl = { soft * page_size(), 4 * page_size() };

	child_expect(setrlimit(RLIMIT_MEMLOCK, &rl), 0);
}

/*
 * No allowance (perf_event_mlock_kb 0): each ring is the process's pinned
 * memory, within RLIMIT_MEMLOCK; past it EPERM, and the event can map once the
 * limit allows.
 */
static void rings_over_limit(void *arg)
{
	int fd[2] = { open_child_faults(), open_child_faults() };

	(void)arg;
	if (fd[0] < 0 || fd[1] < 0)
		child_fail("open: %s", strerror(errno));
	memlock_pages(0);
	child_expect(map_ring(fd[0], 1), EPERM);
	memlock_pages(2);
	child_expect(map_ring(fd[0], 1), 0);
	child_expect(map_ring(fd[1], 1), EPERM);
	memlock_pages(4);
	child_expect(map_ring(fd[1], 1), 0);
}

/* 9 pages with no locked memory at all: the default allowance, or not paranoid. */
static void ring_in_allowance(void *arg)
{
	int fd = open_child_faults();

	(void)arg;
	if (fd < 0)
		child_fail("open: %s", strerror(errno));
	memlock_pages(0);
	child_expect(map_ring(fd, 8), 0);
}

/*
 * A ring's locked memory as perf_mmap() counts it: perf_event_mlock_kb per
 * CPU for each user, then RLIMIT_MEMLOCK, EPERM past both (perf's errno, on
 * which perf record explains the two limits); not paranoid (-1), no limit.
 */
START_TEST(test_ring_locked_memory)
{
	struct knob k = { .path = MLOCK_KB }, par = { .path = PARANOID };
	struct run r;

	knob_save(&k);
	knob_save(&par);
	ck_assert_int_eq(ck_sysfs_read_long(MLOCK_KB), 512 + page_size() / 1024);
	ck_assert_errno(sysfs_write(MLOCK_KB, "-1\n"), EINVAL);
	ck_assert_errno(sysfs_write(MLOCK_KB, "8k\n"), EINVAL);
	as_user(&r, USER_NOBODY, ring_in_allowance, NULL);
	ck_run(&r);
	ck_assert_ok(sysfs_write(MLOCK_KB, "0\n"));
	as_user(&r, USER_NOBODY, rings_over_limit, NULL);
	knob_restore(&k);
	ck_run(&r);
	ck_assert_ok(sysfs_write(MLOCK_KB, "0\n"));
	ck_assert_ok(sysfs_write(PARANOID, "-1\n"));
	as_user(&r, USER_NOBODY, ring_in_allowance, NULL);
	knob_restore(&par);
	knob_restore(&k);
	ck_run(&r);
}
END_TEST

Suite *pfm_perf_output_suite(void)
{
	Suite *s = suite_create("perf_output");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_set_output_shares_ring);
	tcase_add_test(tc, test_set_output_errnos);
	tcase_add_test(tc, test_munmap_detaches);
	tcase_add_test(tc, test_redirected_mmap);
	tcase_add_test(tc, test_redirected_poll_wakeup);
	tcase_add_test(tc, test_flag_fd_output);
	tcase_add_test(tc, test_ring_locked_memory);
	suite_add_tcase(s, tc);
	return s;
}
