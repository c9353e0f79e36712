// SPDX-License-Identifier: GPL-2.0
/*
 * perf_sideband: the records perf report needs beside the samples: MMAP2 of the
 * executable mapping a sampled IP is in, before the sample in time; COMM with
 * the exec flag and the new image's mappings at an exec that enables events;
 * FORK and EXIT (attr.task), COMM at a rename; and those of a DUMMY tracking
 * event that counts nothing: MMAP2 of each mapping made (mmap_data: the data
 * ones too), SWITCH, COMM of a rename of another thread.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "perf_ring_util.h"
#include "suites.h"

/*
 * Faults sampled with mmap2: the test binary's text, mapped before the event was
 * enabled, is the tool's to synthesize (6.1 writes no record of it); a mapping
 * of the binary made while the event is enabled comes once, as an MMAP2 with
 * its address, length and name, after the samples taken before it.
 */
START_TEST(test_mmap2_of_new_mapping)
{
	char *p = ck_fresh_pages(8), self[256];
	struct perf_event_attr a;
	uint64_t pos = 0, hd, mtime = 0, stime = 0;
	struct ring r;
	struct rec rec;
	long mmaps = 0, samples = 0;
	ssize_t len;
	void *m;
	int fd, efd;

	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	ck_assert_int_gt(len, 0);
	self[len] = 0;
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		  PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR);
	a.mmap2 = 1;
	a.sample_id_all = 1;
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 8, PROT_READ | PROT_WRITE);
	fault_on(fd, p, 8);
	efd = open(self, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(efd, 0);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	m = mmap(NULL, page_size(), PROT_READ | PROT_EXEC, MAP_PRIVATE, efd, 0);
	ck_assert_ok(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ck_assert(m != MAP_FAILED);
	close(efd);
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		if (rec.h.type == PERF_RECORD_SAMPLE) {
			/* the test's pages; a stack page may fault too */
			if (rec.w[3] < (uintptr_t)p || rec.w[3] >= (uintptr_t)(p + 8 * page_size()))
				continue;
			stime = rec.w[2];
			samples++;
			continue;
		}
		ck_assert_uint_eq(rec.h.type, PERF_RECORD_MMAP2);
		ck_assert_uint_eq(rec.h.misc, PERF_RECORD_MISC_USER);
		/* pid/tid, addr, len, pgoff, maj/min, ino, gen, prot/flags, name */
		ck_assert_uint_eq((uint32_t)rec.w[0], getpid());
		ck_assert_uint_eq(rec.w[0] >> 32, self_tid());
		ck_assert_uint_eq((uint32_t)rec.w[7] & PROT_EXEC, PROT_EXEC);
		ck_assert_str_eq((char *)&rec.w[8], self);
		ck_assert_uint_eq(rec.w[1], (uintptr_t)m);
		ck_assert_uint_eq(rec.w[2], page_size());
		ck_assert_uint_eq(rec.w[3], 0);
		mtime = rec.w[(rec.h.size - 8) / 8 - 1];	/* trailer: tid, time */
		mmaps++;
	}
	ck_assert_int_eq(samples, 8);
	ck_assert_int_eq(mmaps, 1);
	ck_assert_uint_gt(mtime, stime);
	munmap(m, page_size());
	unmap(&r);
	close(fd);
}
END_TEST

/*
 * enable_on_exec on a child that execs: COMM with the exec flag and the new
 * image's name, then the MMAP2 of the new program.
 */
START_TEST(test_exec_comm_mmap2)
{
	struct perf_event_attr a;
	uint64_t pos = 0, hd;
	int go[2], status, fd;
	bool comm = false, prog = false;
	struct ring r;
	struct rec rec;
	pid_t pid;
	char c;

	ck_assert_ok(pipe(go));
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		execl("/bin/workload", "workload", "-p", "64", (char *)NULL);
		_exit(2);
	}
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1000, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	a.enable_on_exec = 1;
	a.comm = 1;
	a.comm_exec = 1;
	a.mmap2 = 1;
	fd = ck_open(&a, pid);
	ck_map(&r, fd, 8, PROT_READ | PROT_WRITE);
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		if (rec.h.type == PERF_RECORD_COMM) {
			ck_assert(!comm);
			ck_assert_uint_eq(rec.h.misc, PERF_RECORD_MISC_COMM_EXEC);
			ck_assert_uint_eq((uint32_t)rec.w[0], pid);
			ck_assert_str_eq((char *)&rec.w[1], "workload");
			comm = true;
		} else if (rec.h.type == PERF_RECORD_MMAP2) {
			ck_assert(comm);
			if (!strcmp((char *)&rec.w[8], "/bin/workload"))
				prog = true;
		}
	}
	ck_assert(comm);
	ck_assert(prog);
	unmap(&r);
	close(fd);
	close(go[0]);
	close(go[1]);
}
END_TEST

/*
 * attr.task with inherit: one FORK in the parent at the fork, one EXIT in the
 * child at its exit, with the kernel's pid/ppid/tid/ptid and trailers.
 */
START_TEST(test_fork_exit_records)
{
	char *p = ck_fresh_pages(2);
	struct perf_event_attr a;
	uint64_t pos = 0, hd, me = getpid() | (uint64_t)self_tid() << 32, kid;
	long forks = 0, exits = 0, kid_faults = 0;
	struct ring r;
	struct rec rec;
	int fd, status, on, off;
	pid_t pid;

	/* a per-CPU event, as perf record's: everything on CPU 0 */
	ck_pin(0);
	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1,
		  PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR);
	a.task = 1;
	a.inherit = 1;
	a.sample_id_all = 1;
	fd = pfm_perf_event_open(&a, 0, 0, -1, 0);
	ck_assert_int_ge(fd, 0);
	ck_map(&r, fd, 16, PROT_READ | PROT_WRITE);
	on = ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	pid = fork();
	if (!pid) {
		touch_pages(p, 2);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	off = ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ck_pin(-1);
	ck_assert_int_eq(on | off, 0);
	ck_assert_int_eq(status, 0);
	kid = (uint32_t)pid | (uint64_t)pid << 32;
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		uint64_t *w = rec.w;

		/* the child's own faults on the two pages, sampled as the child's */
		if (rec.h.type == PERF_RECORD_SAMPLE && w[0] == kid &&
		    w[2] >= (uintptr_t)p && w[2] < (uintptr_t)p + 2 * page_size()) {
			ck_assert_uint_eq(w[2], (uintptr_t)p + kid_faults * page_size());
			kid_faults++;
		}
		if (rec.h.type != PERF_RECORD_FORK && rec.h.type != PERF_RECORD_EXIT)
			continue;
		/* u32 pid, ppid, tid, ptid; u64 time; trailer tid, time */
		ck_assert_uint_eq(rec.h.size, 8 + 5 * 8);
		ck_assert_uint_eq(rec.h.misc, 0);
		ck_assert_uint_eq((uint32_t)w[0], pid);
		ck_assert_uint_eq(w[0] >> 32, getpid());
		ck_assert_uint_eq((uint32_t)w[1], pid);
		ck_assert_uint_eq(w[2], w[4]);
		if (rec.h.type == PERF_RECORD_FORK) {
			ck_assert_uint_eq(w[1] >> 32, self_tid());
			ck_assert_uint_eq(w[3], me);
			forks++;
		} else {
			/* 6.1 puts the parent's pid in ptid too */
			ck_assert_uint_eq(w[1] >> 32, getpid());
			ck_assert_uint_eq(w[3], kid);
			exits++;
		}
	}
	ck_assert_int_eq(forks, 1);
	ck_assert_int_eq(exits, 1);
	ck_assert_int_eq(kid_faults, 2);
	unmap(&r);
	close(fd);
}
END_TEST

/* attr.comm: prctl(PR_SET_NAME) is one COMM, without the exec flag, while enabled. */
START_TEST(test_comm_at_rename)
{
	struct perf_event_attr a;
	char old[16] = "", name[16];
	uint64_t pos = 0, hd;
	long comms = 0;
	struct ring r;
	struct rec rec;
	int fd, on, off, ren;

	attr_smpl(&a, PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_TID);
	a.comm = 1;
	a.comm_exec = 1;
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 4, PROT_READ | PROT_WRITE);
	ck_assert_ok(prctl(PR_GET_NAME, old));
	on = ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	ren = prctl(PR_SET_NAME, "pfm-renamed");
	off = ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	/* disabled: no record */
	ck_assert_ok(prctl(PR_SET_NAME, old));
	ck_assert_int_eq(on | off | ren, 0);
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		if (rec.h.type != PERF_RECORD_COMM)
			continue;
		ck_assert_uint_eq(rec.h.misc, 0);
		ck_assert_uint_eq(rec.w[0], getpid() | (uint64_t)self_tid() << 32);
		memcpy(name, &rec.w[1], sizeof(name));
		ck_assert_str_eq(name, "pfm-renamed");
		comms++;
	}
	ck_assert_int_eq(comms, 1);
	unmap(&r);
	close(fd);
}
END_TEST

/* The last word of a record: the trailer's TIME with sample_type TID | TIME. */
static uint64_t rec_time(const struct rec *rec)
{
	return rec->w[(rec->h.size - 8) / 8 - 1];
}

/*
 * A counting DUMMY with mmap2, mmap_data and comm: an executable mapping of
 * the test binary, a read-only anonymous one, then a rename, give exactly
 * MMAP2 (exec), MMAP2 (MMAP_DATA, "//anon"), COMM, in that order, each
 * mapping as mmap() returned it, with the time of the mmap() (before the
 * rename's COMM; the test is on one CPU).
 */
START_TEST(test_dummy_mmap_records)
{
	long psz = page_size();
	struct perf_event_attr a;
	uint64_t pos = 0, hd, me = getpid() | (uint64_t)self_tid() << 32, t[3] = {};
	char self[256], old[16] = "";
	int fd, efd, n = 0, on, off;
	struct ring r;
	struct rec rec;
	ssize_t len;
	void *x, *d;

	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	ck_assert_int_gt(len, 0);
	self[len] = 0;
	efd = open(self, O_RDONLY);
	ck_assert_int_ge(efd, 0);
	ck_pin(0);
	attr_sw(&a, PERF_COUNT_SW_DUMMY);
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	a.mmap2 = 1;
	a.mmap_data = 1;
	a.comm = 1;
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 8, PROT_READ | PROT_WRITE);
	ck_assert_ok(prctl(PR_GET_NAME, old));
	on = ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	x = mmap(NULL, 2 * psz, PROT_READ | PROT_EXEC, MAP_PRIVATE, efd, psz);
	d = mmap(NULL, 3 * psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	prctl(PR_SET_NAME, "pfm-dummy");
	off = ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ck_assert_ok(prctl(PR_SET_NAME, old));
	ck_pin(-1);
	ck_assert_int_eq(on | off, 0);
	ck_assert(x != MAP_FAILED && d != MAP_FAILED);
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		ck_assert_int_lt(n, 3);
		/* the trailer: this thread */
		ck_assert_uint_eq(rec.w[(rec.h.size - 8) / 8 - 2], me);
		t[n] = rec_time(&rec);
		switch (n++) {
		case 0:
		case 1:
			/* pid/tid, addr, len, pgoff, maj/min, ino, gen, prot/flags, name */
			ck_assert_uint_eq(rec.h.type, PERF_RECORD_MMAP2);
			ck_assert_uint_eq(rec.w[0], me);
			ck_assert_uint_eq(rec.w[1], (uintptr_t)(n == 1 ? x : d));
			ck_assert_uint_eq(rec.w[2], (n == 1 ? 2 : 3) * psz);
			/* an anonymous mapping's offset is its address, as 6.1 has vm_pgoff */
			ck_assert_uint_eq(rec.w[3], (n == 1 ? (uintptr_t)psz : (uintptr_t)d));
			ck_assert_uint_eq(rec.w[7], ((n == 1 ? PROT_READ | PROT_EXEC : PROT_READ) |
						     (uint64_t)MAP_PRIVATE << 32));
			ck_assert_uint_eq(rec.h.misc, (n == 1 ? PERF_RECORD_MISC_USER :
					  PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA));
			ck_assert_str_eq((char *)&rec.w[8], (n == 1 ? self : "//anon"));
			/* the file's inode, none for anonymous memory */
			ck_assert(n == 1 ? rec.w[5] != 0 : rec.w[5] == 0);
			break;
		case 2:
			ck_assert_uint_eq(rec.h.type, PERF_RECORD_COMM);
			ck_assert_uint_eq(rec.h.misc, 0);
			ck_assert_str_eq((char *)&rec.w[1], "pfm-dummy");
			break;
		}
	}
	ck_assert_int_eq(n, 3);
	/*
	 * In the order they came, not always apart: in a guest whose TSC the
	 * kernel found unstable, local_clock() stops at the next tick's time when
	 * the TSC runs ahead of the ticks, so records a few microseconds apart may
	 * carry one time (natively too: perf's clock is the same).
	 */
	ck_assert_uint_le(t[0], t[1]);
	ck_assert_uint_le(t[1], t[2]);
	munmap(x, 2 * psz);
	munmap(d, 3 * psz);
	close(efd);
	unmap(&r);
	close(fd);
}
END_TEST

struct switch_waker {
	pid_t tid;
	int pipe[2];
	long base;	/* the main thread's count once its event is enabled */
};

/* the thread's voluntary context switches so far (its blocking switch-outs) */
static long nvcsw(pid_t tid)
{
	char path[64], line[128];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

/*
 * Wakes the main thread's 4 reads, each only once the main thread has switched
 * out blocking: a sleep's timer can fire before its thread reaches schedule()
 * in a guest whose CPU the host took away, and then the thread never blocks.
 */
static void *switch_waker(void *arg)
{
	struct switch_waker *w = arg;
	long last, n, i;

	last = w->base;
	for (i = 0; i < 4; i++) {
		while ((n = nvcsw(w->tid)) <= last && n >= 0)
			usleep(200);
		last = n;
		if (write(w->pipe[1], "x", 1) != 1)
			break;
	}
	return NULL;
}

/*
 * context_switch on a counting DUMMY: each of 4 blocking reads is a SWITCH out,
 * not preempted, then a SWITCH in; header and trailer only, this thread's; outs
 * and ins alternate (a switch inside ENABLE or DISABLE may leave one alone
 * at either end).
 */
START_TEST(test_switch_records)
{
	struct switch_waker w = { .tid = self_tid() };
	struct perf_event_attr a;
	uint64_t pos = 0, hd, me = getpid() | (uint64_t)self_tid() << 32;
	long outs = 0, ins = 0, blocked = 0, i;
	int last = -1, out;
	struct ring r;
	struct rec rec;
	int fd, on, off;
	pthread_t th;
	char c;

	attr_sw(&a, PERF_COUNT_SW_DUMMY);
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	a.context_switch = 1;
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 8, PROT_READ | PROT_WRITE);
	ck_assert_ok(pipe(w.pipe));
	on = ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	w.base = nvcsw(w.tid);
	ck_assert_int_ge(w.base, 0);
	ck_assert_ok(pthread_create(&th, NULL, switch_waker, &w));
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(read(w.pipe[0], &c, 1), 1);
	off = ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ck_assert_int_eq(on | off, 0);
	ck_assert_ok(pthread_join(th, NULL));
	close(w.pipe[0]);
	close(w.pipe[1]);
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		ck_assert_uint_eq(rec.h.type, PERF_RECORD_SWITCH);
		ck_assert_uint_eq(rec.h.size, 8 + 2 * 8);
		ck_assert_uint_eq(rec.w[0], me);
		out = !!(rec.h.misc & PERF_RECORD_MISC_SWITCH_OUT);
		ck_assert_int_ne(out, last);
		last = out;
		if (out) {
			outs++;
			blocked += !(rec.h.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
		} else {
			ck_assert_uint_eq(rec.h.misc, 0);
			ins++;
		}
	}
	ck_assert_int_ge(blocked, 4);
	ck_assert_int_le(labs(outs - ins), 1);
	unmap(&r);
	close(fd);
}
END_TEST

struct comm_peer {
	pid_t tid;
	int go[2], done[2];
};

/* the other thread: waits, writes the main thread's comm, then waits to be named */
static void *comm_peer(void *arg)
{
	struct comm_peer *p = arg;
	char path[64], c;
	int fd;

	p->tid = self_tid();
	if (write(p->done[1], "r", 1) != 1 || read(p->go[0], &c, 1) != 1)
		return NULL;
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", getpid());
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "by-peer", 7) != 7)
			c = 0;
		close(fd);
	}
	if (write(p->done[1], "w", 1) != 1 || read(p->go[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

/*
 * A rename by another thread is that thread's record, as 6.1's
 * perf_event_comm() walks the renaming thread's events: the main thread's
 * event gets no COMM when the peer renames it, and one naming the peer when
 * it renames the peer (its /proc/PID/task/TID/comm).
 */
START_TEST(test_comm_other_thread)
{
	struct comm_peer p;
	struct perf_event_attr a;
	char path[64], old[16] = "", c;
	uint64_t pos = 0, hd;
	long comms = 0;
	pthread_t th;
	struct ring r;
	struct rec rec;
	int fd, cfd, on, off;

	ck_assert_ok(pipe(p.go));
	ck_assert_ok(pipe(p.done));
	ck_assert_ok(prctl(PR_GET_NAME, old));
	ck_assert_ok(pthread_create(&th, NULL, comm_peer, &p));
	ck_assert_int_eq(read(p.done[0], &c, 1), 1);
	attr_sw(&a, PERF_COUNT_SW_DUMMY);
	a.comm = 1;
	fd = ck_open(&a, 0);
	ck_map(&r, fd, 4, PROT_READ | PROT_WRITE);
	on = ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	ck_assert_int_eq(write(p.go[1], "g", 1), 1);
	ck_assert_int_eq(read(p.done[0], &c, 1), 1);
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", p.tid);
	cfd = open(path, O_WRONLY);
	ck_assert_int_ge(cfd, 0);
	ck_assert_int_eq(write(cfd, "peer-named", 10), 10);
	close(cfd);
	off = ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ck_assert_int_eq(write(p.go[1], "g", 1), 1);
	pthread_join(th, NULL);
	ck_assert_ok(prctl(PR_SET_NAME, old));
	ck_assert_int_eq(on | off, 0);
	hd = head(&r);
	while (next_rec(&r, &pos, hd, &rec)) {
		ck_assert_uint_eq(rec.h.type, PERF_RECORD_COMM);
		ck_assert_uint_eq(rec.w[0], getpid() | (uint64_t)p.tid << 32);
		ck_assert_str_eq((char *)&rec.w[1], "peer-named");
		comms++;
	}
	ck_assert_int_eq(comms, 1);
	unmap(&r);
	close(fd);
	close(p.go[0]);
	close(p.go[1]);
	close(p.done[0]);
	close(p.done[1]);
}
END_TEST

Suite *pfm_perf_sideband_suite(void)
{
	Suite *s = suite_create("perf_sideband");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_mmap2_of_new_mapping);
	tcase_add_test(tc, test_exec_comm_mmap2);
	tcase_add_test(tc, test_fork_exit_records);
	tcase_add_test(tc, test_comm_at_rename);
	tcase_add_test(tc, test_dummy_mmap_records);
	tcase_add_test(tc, test_switch_records);
	tcase_add_test(tc, test_comm_other_thread);
	suite_add_tcase(s, tc);
	return s;
}
