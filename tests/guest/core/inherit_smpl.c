// SPDX-License-Identifier: GPL-2.0
/*
 * inherit (sampling): a PFM_FL_INHERIT context with the "default" format shares
 * its buffer with its inheritors (perfmon.h, INHERITANCE; perfmon_dfl_smpl.h).
 * PMD64 samples every P system calls and records PMD65, which counts them from
 * 0: each child's samples carry its own tid and its own counts, a full buffer
 * drops what does not fit and counts it, and the reader drains what it read.
 * The workloads are inherit.c's: raw system calls, so the counts are exact.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <perfmon/perfmon_mux_smpl.h>

#include "util.h"
#include "suites.h"

#define P	50
#define M	1010			/* getppid() per child: 20 samples each */
#define PER_CHILD	((M + 1) / P)	/* its exit_group() counts too */
#define CONTEXTS	"/sys/kernel/perfmon/contexts_count"
#define MEM_CUR		"/sys/kernel/perfmon/smpl_buffer_mem_cur"

struct sample {
	struct pfm_dfl_smpl_entry e;
	uint64_t syscalls;
};

static int inh_smpl_ctx(uint64_t buf_size, uint32_t flags)
{
	struct pfm_dfl_smpl_arg arg = { .buf_size = buf_size };

	return pfm_create_context(PFM_FL_INHERIT | PFM_FL_SMPL_FMT | flags,
				  PFM_DFL_SMPL_NAME, &arg, sizeof(arg));
}

/* PMD64 samples every P system calls with PMD65's count; loaded on this thread. */
static int ck_inh_smpl_ctx(uint64_t buf_size)
{
	int fd = inh_smpl_ctx(buf_size, 0);
	struct pfarg_pmd pd[2];

	ck_assert_msg(fd >= 0, "inherit + default format: %s", strerror(errno));
	ck_write_pmc(fd, SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	ck_write_pmc(fd, SW_PMC(1), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
	pmd_init(&pd[0], SW_PMD(0), -(uint64_t)P);
	pd[0].reg_flags = PFM_PMDFL_SMPL;
	pd[0].reg_short_reset = -(uint64_t)P;
	pd[0].reg_long_reset = -(uint64_t)P;
	pd[0].reg_smpl_pmds[SW_PMD(1) / 64] = 1ULL << (SW_PMD(1) % 64);
	pmd_init(&pd[1], SW_PMD(1), 0);
	ck_assert_ok(pfm_write_pmds(fd, pd, sizeof(pd)));
	ck_load_self(fd);
	return fd;
}

static const struct pfm_dfl_smpl_hdr *ck_map(int fd, size_t size)
{
	void *p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);

	ck_assert_msg(p != MAP_FAILED, "mmap: %s", strerror(errno));
	return p;
}

/* n children of M getppid() each; the parent makes 2n + 1 calls (no sample). */
static void fork_children(pid_t *pid, int n)
{
	raw_children(pid, n, M);
}

/*
 * Every child's samples, each with its tid, its process, the sampling PMD and
 * its own count at the sample; none of the parent's; the family's count of the
 * sampled event is in PMD65, PMD64 (whose value is no count) is the parent's.
 */
START_TEST(test_children_samples)
{
	static const int ns[] = { 1, 4 };
	const int n = ns[_i];
	size_t size = 16 * page_size();
	int fd = ck_inh_smpl_ctx(size), i, rs, rt;
	const struct pfm_dfl_smpl_hdr *h = ck_map(fd, size);
	const struct sample *s = (const void *)(h + 1);
	unsigned int got[4] = { 0 };
	union pfarg_msg m;
	pid_t pid[4];
	uint64_t k;

	rs = pfm_start(fd, 0);
	fork_children(pid, n);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(h->hdr_count, (uint64_t)n * PER_CHILD);
	ck_assert_uint_eq(h->hdr_overflows, 0);
	ck_assert_uint_eq(h->hdr_cur_offs, sizeof(*h) + n * PER_CHILD * sizeof(*s));
	for (k = 0; k < h->hdr_count; k++) {
		for (i = 0; i < n && s[k].e.pid != (uint32_t)pid[i]; i++)
			;
		ck_assert_msg(i < n, "sample %llu of tid %u", (unsigned long long)k, s[k].e.pid);
		ck_assert_uint_eq(s[k].e.tgid, pid[i]);
		ck_assert_uint_eq(s[k].e.ovfl_pmd, SW_PMD(0));
		ck_assert_uint_eq(s[k].e.size, sizeof(*s));
		/* its own count: the j-th sample of a child at j * P */
		ck_assert_uint_eq(s[k].syscalls, (uint64_t)++got[i] * P);
	}
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(got[i], PER_CHILD);
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(1)), 2 * n + 1 + (uint64_t)n * (M + 1));
	ck_assert_uint_eq(ck_read_pmd(fd, SW_PMD(0)), -(uint64_t)P + 2 * n + 1);
	/* the buffer did not fill: no message */
	ck_assert_ok(fcntl(fd, F_SETFL, O_NONBLOCK));
	ck_assert_errno(read(fd, &m, sizeof(m)), EAGAIN);
	munmap((void *)h, size);
	close(fd);
}
END_TEST

/*
 * A one-page buffer: 82 samples fit, the other 38 of 6 children are dropped and
 * counted, nobody is masked, one message tells of the fill; a drain of what was
 * read moves the rest up and lets sampling go on.
 */
START_TEST(test_small_buffer)
{
	size_t size = page_size();
	int fd = ck_inh_smpl_ctx(size), rs, rt, rd, rd2, rd3;
	const struct pfm_dfl_smpl_hdr *h = ck_map(fd, size);
	const struct sample *s = (const void *)(h + 1);
	const uint64_t fit = (size - sizeof(*h)) / sizeof(*s);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	union pfarg_msg m;
	uint64_t total = 6 * PER_CHILD, before;
	uint32_t last_pid;
	pid_t pid[6];

	ck_assert_uint_eq(fit, 82);
	rs = pfm_start(fd, 0);
	fork_children(pid, 6);
	ck_assert_uint_eq(h->hdr_count, fit);
	ck_assert_uint_eq(h->hdr_overflows, total - fit);
	ck_assert_uint_eq(h->hdr_count + h->hdr_overflows, total);
	ck_assert_int_eq(poll(&p, 1, 5000), 1);
	ck_assert_int_eq(read(fd, &m, sizeof(m)), sizeof(m));
	ck_assert_uint_eq(m.type, PFM_MSG_OVFL);
	ck_assert_uint_eq(m.pfm_ovfl_msg.msg_ovfl_pmds[SW_PMD(0) / 64], 1ULL << (SW_PMD(0) % 64));
	/* one message for the fill, whatever was dropped after it */
	ck_assert_int_eq(poll(&p, 1, 100), 0);
	/* more than the buffer holds: EINVAL, and nothing drained */
	rd = pfm_start(fd, PFM_STARTFL_RESTART | PFM_STARTFL_DRAIN, (unsigned long)fit + 1);
	ck_assert_int_eq(rd, -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(h->hdr_count, fit);
	/* the first 60 read: the last 10 move up */
	last_pid = s[fit - 1].e.pid;
	before = s[fit - 1].syscalls;
	rd2 = pfm_start(fd, PFM_STARTFL_RESTART | PFM_STARTFL_DRAIN, 60UL);
	ck_assert_int_eq(rd2, 0);
	ck_assert_uint_eq(h->hdr_count, fit - 60);
	ck_assert_uint_eq(h->hdr_cur_offs, sizeof(*h) + (fit - 60) * sizeof(*s));
	ck_assert_uint_eq(s[fit - 61].e.pid, last_pid);
	ck_assert_uint_eq(s[fit - 61].syscalls, before);
	/* sampling goes on into the room made, and a new fill tells again */
	fork_children(pid, 2);
	rt = pfm_stop(fd, 0);
	ck_assert_int_eq(rs, 0);
	ck_assert_int_eq(rt, 0);
	ck_assert_uint_eq(h->hdr_count, fit - 60 + 2 * PER_CHILD);
	rd3 = pfm_start(fd, PFM_STARTFL_RESTART | PFM_STARTFL_DRAIN, (unsigned long)h->hdr_count);
	ck_assert_int_eq(rd3, 0);
	ck_assert_uint_eq(h->hdr_count, 0);
	ck_assert_uint_eq(h->hdr_cur_offs, sizeof(*h));
	ck_assert_uint_eq(h->hdr_overflows, total - fit);
	munmap((void *)h, size);
	close(fd);
}
END_TEST

/*
 * What cannot be shared stays EINVAL and makes nothing: blocking, a CPU, the mux
 * format (its log is one thread's); a drain without a shared buffer or without
 * a restart.
 */
START_TEST(test_smpl_refusals)
{
	struct pfm_dfl_smpl_arg arg = { .buf_size = 4 * page_size() };
	struct pfm_mux_smpl_arg marg = { .buf_size = 4 * page_size() };
	long ctxs = ck_sysfs_read_long(CONTEXTS), mem = ck_sysfs_read_long(MEM_CUR);
	int fd;

	ck_assert_errno(inh_smpl_ctx(4 * page_size(), PFM_FL_NOTIFY_BLOCK), EINVAL);
	ck_assert_errno(inh_smpl_ctx(4 * page_size(), PFM_FL_SYSTEM_WIDE), EINVAL);
	ck_assert_errno(pfm_create_context(PFM_FL_INHERIT | PFM_FL_SMPL_FMT, PFM_MUX_SMPL_NAME,
					   &marg, sizeof(marg)), EINVAL);
	ck_assert_errno(pfm_create_context(PFM_FL_INHERIT | PFM_FL_SMPL_FMT, PFM_DFL_SMPL_NAME,
					   &arg, sizeof(arg) - 8), EINVAL);
	ck_assert_int_eq(ck_sysfs_read_long(CONTEXTS), ctxs);
	ck_assert_int_eq(ck_sysfs_read_long(MEM_CUR), mem);
	/* a buffer of its own: no drain */
	fd = pfm_create_context(PFM_FL_SMPL_FMT, PFM_DFL_SMPL_NAME, &arg, sizeof(arg));
	ck_assert_int_ge(fd, 0);
	ck_load_self(fd);
	ck_assert_errno(pfm_start(fd, PFM_STARTFL_RESTART | PFM_STARTFL_DRAIN, 0UL), EINVAL);
	close(fd);
	fd = ck_inh_smpl_ctx(4 * page_size());
	ck_assert_errno(pfm_start(fd, PFM_STARTFL_DRAIN, 0UL), EINVAL);
	ck_assert_errno(pfm_start(fd, PFM_STARTFL_RESTART | PFM_STARTFL_DRAIN, 1UL), EINVAL);
	/* nothing masked, nothing read: a restart of a shared buffer is no error */
	ck_assert_ok(pfm_start(fd, PFM_STARTFL_RESTART));
	close(fd);
}
END_TEST

void pfm_inherit_smpl_tests(TCase *tc)
{
	tcase_add_loop_test(tc, test_children_samples, 0, 2);
	tcase_add_test(tc, test_small_buffer);
	tcase_add_test(tc, test_smpl_refusals);
}
