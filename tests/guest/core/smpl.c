// SPDX-License-Identifier: GPL-2.0
/*
 * smpl: sampling buffers of the "default" format: creation and its refusals,
 * the read-only mapping, and the locked-memory limits they are charged to
 * (RLIMIT_MEMLOCK per user, smpl_buffer_mem_max for all).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "users.h"
#include "util.h"
#include "suites.h"

#define PFM_SMPL_MEM_MAX	PFM_SYSFS "/smpl_buffer_mem_max"
#define PFM_SMPL_MEM_CUR	PFM_SYSFS "/smpl_buffer_mem_cur"

/* The smallest buffer the format takes: its header and one entry of every PMD. */
#define MIN_BUF	(sizeof(struct pfm_dfl_smpl_hdr) + sizeof(struct pfm_dfl_smpl_entry) + \
		 PFM_MAX_PMDS * sizeof(uint64_t))

static int smpl_ctx(uint64_t buf_size)
{
	struct pfm_dfl_smpl_arg arg = { .buf_size = buf_size };

	return pfm_create_context(PFM_FL_SMPL_FMT, PFM_DFL_SMPL_NAME, &arg, sizeof(arg));
}

static int ck_smpl_ctx(uint64_t buf_size)
{
	int fd = smpl_ctx(buf_size);

	ck_assert_msg(fd >= 0, "buffer of %llu bytes: %s", (unsigned long long)buf_size,
		      strerror(errno));
	return fd;
}

static long mem_cur(void)
{
	return ck_sysfs_read_long(PFM_SMPL_MEM_CUR);
}

static void *ck_map(int fd, size_t size)
{
	void *p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);

	ck_assert_msg(p != MAP_FAILED, "mmap of %zu bytes: %s", size, strerror(errno));
	return p;
}

/* The buffer is whole pages, mapped read-only, with its header laid out. */
START_TEST(test_buffer_header)
{
	long psz = page_size(), before = mem_cur();
	const struct pfm_dfl_smpl_hdr *h;
	size_t size = 16 * psz;
	int fd;

	fd = ck_smpl_ctx(15 * psz + 1);
	ck_assert_int_eq(mem_cur(), before + size);
	h = ck_map(fd, size);
	ck_assert_uint_eq(h->hdr_version, PFM_DFL_SMPL_VERSION);
	ck_assert_uint_eq(h->hdr_buf_size, size);
	ck_assert_uint_eq(h->hdr_cur_offs, sizeof(*h));
	ck_assert_uint_eq(h->hdr_count, 0);
	ck_assert_uint_eq(h->hdr_overflows, 0);
	ck_assert_uint_eq(h->hdr_min_buf_space, MIN_BUF - sizeof(*h));
	ck_assert_uint_eq(h->hdr_buf_flags, 0);
	/* the rest is zero: nothing of an earlier user of the pages shows */
	for (size_t i = sizeof(*h); i < size; i++)
		ck_assert_msg(!((const char *)h)[i], "byte %zu is not zero", i);
	/* the mapping keeps the buffer after the fd is closed */
	close(fd);
	ck_assert_int_eq(mem_cur(), before + size);
	ck_assert_uint_eq(h->hdr_buf_size, size);
	ck_assert_ok(munmap((void *)h, size));
	ck_assert_int_eq(mem_cur(), before);
}
END_TEST

START_TEST(test_smallest_buffer)
{
	int fd;

	ck_assert_errno(smpl_ctx(MIN_BUF - 1), EINVAL);
	fd = ck_smpl_ctx(MIN_BUF);
	close(fd);
	ck_assert_errno(smpl_ctx(0), EINVAL);
}
END_TEST

/* Every refusal is precise and leaves no buffer behind. */
START_TEST(test_create_refusals)
{
	struct pfm_dfl_smpl_arg arg = { .buf_size = 4 * page_size() };
	char long_name[PFM_SMPL_NAME_MAX + 8];
	long before = mem_cur();
	void *bad = (void *)16;

	memset(long_name, 'd', sizeof(long_name));
	long_name[sizeof(long_name) - 1] = '\0';
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, (char *)bad, &arg, sizeof(arg)),
			EFAULT);
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, "Default", &arg, sizeof(arg)),
			EINVAL);
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, long_name, &arg, sizeof(arg)),
			EINVAL);
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, "default", bad, sizeof(arg)),
			EFAULT);
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, "default", &arg, sizeof(arg) - 1),
			EINVAL);
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, "default", &arg, sizeof(arg) + 8),
			EINVAL);
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, "default", &arg, (size_t)0),
			EINVAL);
	arg.buf_flags = 1;
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, "default", &arg, sizeof(arg)),
			EINVAL);
	arg.buf_flags = 0;
	arg.reserved1 = 1;
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, "default", &arg, sizeof(arg)),
			EINVAL);
	arg.reserved1 = 0;
	arg.reserved[5] = 1;
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, "default", &arg, sizeof(arg)),
			EINVAL);
	/* more than the machine has */
	ck_assert_errno(smpl_ctx(1ULL << 50), ENOMEM);
	ck_assert_errno(smpl_ctx(~0ULL), ENOMEM);
	ck_assert_int_eq(mem_cur(), before);
}
END_TEST

START_TEST(test_mmap_refusals)
{
	long psz = page_size();
	int fd = ck_smpl_ctx(4 * psz), plain = ck_ctx_create();
	void *p;

	/* the fd is read-only: the kernel refuses a shared writable mapping itself */
	ck_assert_ptr_eq(mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
			 MAP_FAILED);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_ptr_eq(mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0),
			 MAP_FAILED);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_ptr_eq(mmap(NULL, psz, PROT_READ, MAP_SHARED, fd, psz), MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_eq(mmap(NULL, 5 * psz, PROT_READ, MAP_SHARED, fd, 0), MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_eq(mmap(NULL, psz, PROT_READ, MAP_SHARED, plain, 0), MAP_FAILED);
	ck_assert_int_eq(errno, ENODEV);
	/* a part of the buffer maps; it cannot be made writable */
	p = ck_map(fd, psz);
	ck_assert_errno(mprotect(p, psz, PROT_READ | PROT_WRITE), EACCES);
	ck_assert_uint_eq(((struct pfm_dfl_smpl_hdr *)p)->hdr_buf_size, 4 * psz);
	ck_assert_ok(munmap(p, psz));
	/* nor can a private read-only mapping, which could otherwise be */
	p = mmap(NULL, 2 * psz, PROT_READ, MAP_PRIVATE, fd, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_errno(mprotect(p, psz, PROT_READ | PROT_WRITE), EACCES);
	ck_assert_uint_eq(((struct pfm_dfl_smpl_hdr *)p)->hdr_version, PFM_DFL_SMPL_VERSION);
	ck_assert_ok(munmap(p, 2 * psz));
	close(plain);
	close(fd);
}
END_TEST

/* The buffer pins no more than it says: the counting path is untouched. */
START_TEST(test_buffer_context_counts)
{
	int fd = ck_smpl_ctx(8 * page_size());

	ck_counter(fd, 0, PFM_SW_EV_SYSCALLS);
	ck_load_self(fd);
	/* no check assertion between start and stop: it would make a system call */
	pfm_start(fd, 0);
	do_getppid(50);
	pfm_stop(fd, 0);
	ck_assert_uint_eq(count(fd), 51);
	close(fd);
}
END_TEST

/*
 * RLIMIT_MEMLOCK: the user's buffers together fit in it; closing gives the
 * pages back.  Run as a user with no CAP_IPC_LOCK.
 */
static void memlock_limit(void *arg)
{
	struct rlimit rl = { .rlim_cur = 16 * page_size(), .rlim_max = 16 * page_size() };
	long psz = page_size();
	int a, b;

	(void)arg;
	child_expect(setrlimit(RLIMIT_MEMLOCK, &rl), 0);
	child_expect(smpl_ctx(17 * psz), ENOMEM);
	child_expect(a = smpl_ctx(12 * psz), 0);
	child_expect(smpl_ctx(5 * psz), ENOMEM);
	child_expect(b = smpl_ctx(4 * psz), 0);
	child_expect(smpl_ctx(MIN_BUF), ENOMEM);
	close(a);
	child_expect(a = smpl_ctx(12 * psz), 0);
	close(a);
	close(b);
	/* the whole limit is free again */
	child_expect(a = smpl_ctx(16 * psz), 0);
	close(a);
	rl.rlim_cur = 0;
	child_expect(setrlimit(RLIMIT_MEMLOCK, &rl), 0);
	child_expect(smpl_ctx(MIN_BUF), ENOMEM);
	/* a context without a buffer needs no locked memory */
	child_expect(a = pfm_create_context(0), 0);
	close(a);
}

START_TEST(test_memlock_limit)
{
	struct run r;

	as_user(&r, USER_NOBODY, memlock_limit, NULL);
	ck_run(&r);
	as_user(&r, USER_PERFMON, memlock_limit, NULL);
	ck_run(&r);
}
END_TEST

/* The charge is the user's, not the process's: two processes share the limit. */
static void memlock_per_user(void *arg)
{
	struct rlimit rl = { .rlim_cur = 16 * page_size(), .rlim_max = 16 * page_size() };
	int up[2], down[2], fd;
	pid_t pid;
	char c;

	(void)arg;
	child_expect(setrlimit(RLIMIT_MEMLOCK, &rl), 0);
	child_expect(pipe(up), 0);
	child_expect(pipe(down), 0);
	child_expect(pid = fork(), 0);
	if (!pid) {
		/* holds 12 pages until the parent has tried */
		fd = smpl_ctx(12 * page_size());
		c = fd >= 0 ? 'y' : 'n';
		if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(2);
		_exit(fd >= 0 ? 0 : 1);
	}
	if (read(up[0], &c, 1) != 1 || c != 'y')
		child_fail("the other process could not make its buffer");
	child_expect(smpl_ctx(8 * page_size()), ENOMEM);
	child_expect(write(down[1], &c, 1), 0);
	if (wait_pid_timeout(pid, 20000) != 0)
		child_fail("the other process failed");
	child_expect(fd = smpl_ctx(8 * page_size()), 0);
	close(fd);
}

START_TEST(test_memlock_per_user)
{
	struct run r;

	as_user(&r, USER_NOBODY, memlock_per_user, NULL);
	ck_run(&r);
}
END_TEST

/* CAP_IPC_LOCK lifts the per-user limit, as it does for mlock(). */
static void memlock_ipc_lock(void *arg)
{
	struct rlimit rl = { 0, 0 };
	int fd;

	(void)arg;
	child_expect(setrlimit(RLIMIT_MEMLOCK, &rl), 0);
	child_expect(fd = smpl_ctx(64 * page_size()), 0);
	close(fd);
}

/*
 * A buffer the machine has room for but not now (all its memory, as root, whose
 * buffers are not charged to RLIMIT_MEMLOCK): ENOMEM, not the OOM killer.  The
 * fuzzer found this one: the OOM killer ran and killed a process (its report
 * in the kernel log fails the guest run too).
 */
START_TEST(test_buffer_beyond_free_memory)
{
	struct pfm_dfl_smpl_arg arg = { 0 };
	struct sysinfo si;

	ck_assert_int_eq(sysinfo(&si), 0);
	arg.buf_size = (uint64_t)si.totalram * si.mem_unit - 16 * page_size();
	ck_assert_errno(smpl_ctx(arg.buf_size), ENOMEM);
	ck_assert_errno(pfm_create_context(PFM_FL_SMPL_FMT, "mux", &arg, sizeof(arg)), ENOMEM);
	ck_assert_int_eq(mem_cur(), 0);
}
END_TEST

START_TEST(test_memlock_ipc_lock)
{
	struct run r;

	as_user(&r, USER_IPC_LOCK, memlock_ipc_lock, NULL);
	ck_run(&r);
}
END_TEST

/*
 * Sampling: PMD64 takes a sample every P system calls; each sample records PMD65
 * (system calls since the start) and PMD66 (page faults).
 */
#define P	50

extern char __executable_start[], etext[];

struct sample {
	struct pfm_dfl_smpl_entry e;
	uint64_t syscalls, faults;
};

static int sampling_ctx_mask(uint64_t buf_size, uint32_t flags, uint64_t random_mask)
{
	int fd = ck_smpl_ctx(buf_size);
	struct pfarg_pmd pd[3];

	ck_write_pmc(fd, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_write_pmc(fd, SW_PMC(1), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_write_pmc(fd, SW_PMC(2), PFM_SW_PMC(PFM_SW_EV_PAGE_FAULTS));
	pmd_init(&pd[0], SW_PMD(0), -(uint64_t)P);
	pd[0].reg_flags = PFM_PMDFL_SMPL | flags;
	pd[0].reg_random_mask = random_mask;
	pd[0].reg_short_reset = -(uint64_t)P;
	pd[0].reg_long_reset = -(uint64_t)P;
	pd[0].reg_smpl_pmds[SW_PMD(1) / 64] = 3ULL << (SW_PMD(1) % 64);
	pd[0].reg_smpl_eventid = 7;
	pmd_init(&pd[1], SW_PMD(1), 0);
	pmd_init(&pd[2], SW_PMD(2), 0);
	ck_assert_ok(pfm_write_pmds(fd, pd, sizeof(pd)));
	return fd;
}

static int sampling_ctx(uint64_t buf_size, uint32_t flags)
{
	return sampling_ctx_mask(buf_size, flags, 0);
}

/* Sample k (from 1) of a run that began with 'base' system calls counted. */
static void ck_sample(const struct sample *s, unsigned int k, uint64_t base, uint64_t prev_ts)
{
	ck_assert_int_eq(s->e.pid, self_tid());
	ck_assert_int_eq(s->e.tgid, getpid());
	ck_assert_uint_eq(s->e.ovfl_pmd, SW_PMD(0));
	ck_assert_uint_eq(s->e.set, 0);
	ck_assert_int_lt(s->e.cpu, possible_cpus());
	ck_assert_msg(s->e.ip >= (uintptr_t)__executable_start && s->e.ip < (uintptr_t)etext,
		      "sample %u: ip %#llx", k, (unsigned long long)s->e.ip);
	ck_assert_uint_ge(s->e.tstamp, prev_ts);
	ck_assert_uint_eq(s->syscalls, base + k * P);
	ck_assert_uint_eq(s->e.last_reset_val, k == 1 && !base ? 0 : -(uint64_t)P);
}

/* Exactly one sample per P system calls, each with the counts of the moment. */
START_TEST(test_samples)
{
	long psz = page_size();
	int fd = sampling_ctx(16 * psz, 0);
	const struct pfm_dfl_smpl_hdr *h = ck_map(fd, 16 * psz);
	const struct sample *s = (const void *)(h + 1);
	uint64_t ts = 0;
	unsigned int k;

	ck_load_self(fd);
	pfm_start(fd, 0);
	do_getppid(10 * P + P / 2);
	pfm_stop(fd, 0);
	ck_assert_uint_eq(h->hdr_count, 10);
	ck_assert_uint_eq(h->hdr_cur_offs, sizeof(*h) + 10 * sizeof(*s));
	ck_assert_uint_eq(h->hdr_overflows, 0);
	for (k = 1; k <= 10; k++) {
		ck_sample(&s[k - 1], k, 0, ts);
		ts = s[k - 1].e.tstamp;
	}
	/* the stop was counted, and the half period */
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), 10 * P + P / 2 + 1);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), -(uint64_t)P + P / 2 + 1);
	/* no message: the buffer did not fill */
	ck_assert_ok(fcntl(fd, F_SETFL, O_NONBLOCK));
	{
		union pfarg_msg m;

		ck_assert_errno(read(fd, &m, sizeof(m)), EAGAIN);
	}
	munmap((void *)h, 16 * psz);
	close(fd);
}
END_TEST

/*
 * One page holds 25 samples before less than hdr_min_buf_space is left: the
 * 25th masks and notifies; the restart empties the buffer and sampling goes on.
 */
START_TEST(test_buffer_full)
{
	long psz = page_size();
	int fd = sampling_ctx(psz, 0), r;
	const struct pfm_dfl_smpl_hdr *h = ck_map(fd, psz);
	const struct sample *s = (const void *)(h + 1);
	union pfarg_msg m;
	unsigned int full = (psz - sizeof(*h) - h->hdr_min_buf_space) / sizeof(*s) + 1;

	ck_assert_uint_eq(full, 25);
	ck_load_self(fd);
	pfm_start(fd, 0);
	do_getppid(full * P + 7);	/* masked at the last sample: 7 not counted */
	ck_assert_uint_eq(h->hdr_count, full);
	r = pfm_start(fd, PFM_STARTFL_RESTART);
	ck_assert_uint_eq(h->hdr_count, 0);
	do_getppid(2 * P);		/* the restart is not counted */
	pfm_stop(fd, 0);
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(h->hdr_count, 2);
	ck_sample(&s[0], 1, full * P, 0);
	ck_sample(&s[1], 2, full * P, s[0].e.tstamp);
	ck_assert_int_eq(read(fd, &m, sizeof(m)), sizeof(m));
	ck_assert_uint_eq(m.type, PFM_MSG_OVFL);
	ck_assert_uint_eq(m.pfm_ovfl_msg.msg_ovfl_pmds[SW_PMD(0) / 64], 1ULL << (SW_PMD(0) % 64));
	munmap((void *)h, psz);
	close(fd);
}
END_TEST

/* SMPL with OVFL_NOTIFY: a sample, then a notification, every period. */
START_TEST(test_sample_and_notify)
{
	long psz = page_size();
	int fd = sampling_ctx(4 * psz, PFM_PMDFL_OVFL_NOTIFY), r = 0, k;
	const struct pfm_dfl_smpl_hdr *h = ck_map(fd, 4 * psz);
	const struct sample *s = (const void *)(h + 1);
	uint64_t counts[3];

	ck_load_self(fd);
	pfm_start(fd, 0);
	for (k = 0; k < 3; k++) {
		do_getppid(P);
		counts[k] = h->hdr_count;
		r |= pfm_start(fd, PFM_STARTFL_RESTART);
	}
	pfm_stop(fd, 0);
	ck_assert_int_eq(r, 0);
	/* one sample per period; each restart empties the buffer */
	for (k = 0; k < 3; k++)
		ck_assert_uint_eq(counts[k], 1);
	ck_assert_uint_eq(h->hdr_count, 0);
	ck_assert_uint_eq(s[0].syscalls, 3 * P);
	munmap((void *)h, 4 * psz);
	close(fd);
}
END_TEST

/*
 * PFM_PMDFL_RANDOM: each period is P plus a random 0..15, and the entry says which:
 * the system calls between two samples are minus the recorded reset value.
 */
START_TEST(test_random_periods)
{
	long psz = page_size();
	int fd = sampling_ctx_mask(16 * psz, PFM_PMDFL_RANDOM, 0xf);
	const struct pfm_dfl_smpl_hdr *h = ck_map(fd, 16 * psz);
	const struct sample *s = (const void *)(h + 1);
	uint64_t period, seen = 0;
	unsigned int k;

	ck_load_self(fd);
	pfm_start(fd, 0);
	do_getppid(40 * P);
	pfm_stop(fd, 0);
	ck_assert_uint_ge(h->hdr_count, 40 * P / (P + 15));
	ck_assert_uint_le(h->hdr_count, 40);
	ck_assert_uint_eq(s[0].syscalls, P);		/* the first period is as written */
	for (k = 1; k < h->hdr_count; k++) {
		period = -s[k].e.last_reset_val;
		ck_assert_msg(period >= P && period <= P + 15, "period %llu",
			      (unsigned long long)period);
		ck_assert_uint_eq(s[k].syscalls - s[k - 1].syscalls, period);
		seen |= 1ULL << (period - P);
	}
	/* not one period over and over */
	ck_assert_uint_gt(__builtin_popcountll(seen), 1);
	munmap((void *)h, 16 * psz);
	close(fd);
}
END_TEST

static struct knob mem_max = { .path = PFM_SMPL_MEM_MAX };

static void mem_max_save(void)
{
	knob_save(&mem_max);
}

static void mem_max_restore(void)
{
	knob_restore(&mem_max);
}

/* smpl_buffer_mem_max caps every buffer together, root's too. */
START_TEST(test_mem_max)
{
	long psz = page_size();
	char buf[32];
	int a;

	ck_assert_int_eq(mem_cur(), 0);
	snprintf(buf, sizeof(buf), "%ld\n", 8 * psz);
	ck_assert_ok(sysfs_write(PFM_SMPL_MEM_MAX, buf));
	ck_assert_errno(smpl_ctx(9 * psz), ENOMEM);
	a = ck_smpl_ctx(6 * psz);
	ck_assert_int_eq(mem_cur(), 6 * psz);
	ck_assert_errno(smpl_ctx(3 * psz), ENOMEM);
	close(ck_smpl_ctx(2 * psz));
	/* lowered below what is in use: new buffers are refused, old ones stay */
	ck_assert_ok(sysfs_write(PFM_SMPL_MEM_MAX, "4096\n"));
	ck_assert_errno(smpl_ctx(MIN_BUF), ENOMEM);
	ck_assert_int_eq(mem_cur(), 6 * psz);
	close(a);
	ck_assert_int_eq(mem_cur(), 0);
	mem_max_restore();
	ck_assert_errno(sysfs_write(PFM_SMPL_MEM_MAX, "lots\n"), EINVAL);
}
END_TEST

/* Each format is listed with its version. */
START_TEST(test_formats_listed)
{
	char buf[32];

	ck_assert_ok(sysfs_read(PFM_SYSFS "/formats/default/version", buf, sizeof(buf)));
	ck_assert_str_eq(buf, "1.0\n");
	ck_assert_errno(sysfs_read(PFM_SYSFS "/formats/Default/version", buf, sizeof(buf)),
			ENOENT);
}
END_TEST

START_TEST(test_mem_max_default)
{
	char buf[32];

	ck_assert_ok(sysfs_read(PFM_SMPL_MEM_MAX, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "18446744073709551615\n");
}
END_TEST

Suite *pfm_smpl_suite(void)
{
	Suite *s = suite_create("smpl");
	TCase *tc = pfm_tcase("smpl");

	tcase_add_unchecked_fixture(tc, mem_max_save, mem_max_restore);
	tcase_add_test(tc, test_formats_listed);
	tcase_add_test(tc, test_mem_max_default);
	tcase_add_test(tc, test_buffer_header);
	tcase_add_test(tc, test_smallest_buffer);
	tcase_add_test(tc, test_create_refusals);
	tcase_add_test(tc, test_mmap_refusals);
	tcase_add_test(tc, test_buffer_context_counts);
	tcase_add_test(tc, test_memlock_limit);
	tcase_add_test(tc, test_memlock_per_user);
	tcase_add_test(tc, test_memlock_ipc_lock);
	tcase_add_test(tc, test_buffer_beyond_free_memory);
	tcase_add_test(tc, test_mem_max);
	tcase_add_test(tc, test_samples);
	tcase_add_test(tc, test_buffer_full);
	tcase_add_test(tc, test_sample_and_notify);
	tcase_add_test(tc, test_random_periods);
	suite_add_tcase(s, tc);
	return s;
}
