// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon's own calls: contexts with and without a sampling format, registers,
 * load on self, on another thread and on a CPU, start and stop, sets, the
 * mappings of the counts page and of the sampling buffer, messages, unload and
 * close.  Counters are software ones (there is no hardware PMU in the guest).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "faults.h"
#include "perfmon_dfl_smpl.h"

#define SMPL_PAGES	8
#define NPMD		4
#define PERIOD		20	/* system calls to an overflow */

static struct pfm_dfl_smpl_arg smpl_arg = { .buf_size = SMPL_PAGES * 4096 };

/* A context with NPMD software counters of system calls; loaded on self if asked. */
static int counters_ctx(struct fenv *e, int flags, bool load)
{
	int i;

	e->fd[0] = fe_ctx(flags);
	if (e->fd[0] < 0)
		return -1;
	for (i = 0; i < NPMD; i++)
		if (fe_write_pmc(e->fd[0], SW_PMC(i), PFM_SW_PMC(PFM_SW_EV_SYSCALLS)))
			return -1;
	return load ? pfm_load_context(e->fd[0], 0, self_tid()) : 0;
}

static int setup_ctx(struct fenv *e)
{
	return counters_ctx(e, 0, false);
}

static int setup_loaded(struct fenv *e)
{
	return counters_ctx(e, 0, true);
}

static int setup_started(struct fenv *e)
{
	return counters_ctx(e, 0, true) ?: pfm_start(e->fd[0], 0);
}

static int setup_kid(struct fenv *e)
{
	return counters_ctx(e, 0, false) ?: fe_kid(e);
}

static int setup_kid_loaded(struct fenv *e)
{
	return setup_kid(e) ?: pfm_load_context(e->fd[0], 0, e->kid.pid);
}

static void state_pmds(struct fenv *e, char *buf, size_t len)
{
	fe_pmds_state(e->fd[0], 0, NPMD, buf, len);
}

static const char *check_fd(struct fenv *e, long r)
{
	(void)e;
	return r >= 0 ? NULL : "no fd";
}

static long op_create(struct fenv *e)
{
	(void)e;
	return pfm_create_context(0);
}

static long op_create_smpl(struct fenv *e)
{
	(void)e;
	return pfm_create_context(PFM_FL_SMPL_FMT, PFM_DFL_SMPL_NAME, &smpl_arg,
				  sizeof(smpl_arg));
}

static long op_create_sys(struct fenv *e)
{
	(void)e;
	return pfm_create_context(PFM_FL_SYSTEM_WIDE);
}

static struct pfarg_pmc pmcs[NPMD];
static struct pfarg_pmd pmds[NPMD];

static long op_write_pmcs(struct fenv *e)
{
	return pfm_write_pmcs(e->fd[0], pmcs, sizeof(pmcs));
}

/*
 * An inherit context loaded on self with a child forked since, so that its PMC
 * writes reach a live inheritor: the child waits in a read until the runner's
 * end closes the pipe.
 */
static int setup_inherit_child(struct fenv *e)
{
	int p[2];
	pid_t pid;
	char c;

	if (counters_ctx(e, PFM_FL_INHERIT, true) || pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(p[1]);
		while (read(p[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(p[0]);
	e->fd[1] = p[1];
	return wait_blocked_read(pid, p[0]);
}

static long op_write_pmds(struct fenv *e)
{
	return pfm_write_pmds(e->fd[0], pmds, sizeof(pmds));
}

static long op_read_pmds(struct fenv *e)
{
	return pfm_read_pmds(e->fd[0], pmds, sizeof(pmds));
}

static long op_load_self(struct fenv *e)
{
	return pfm_load_context(e->fd[0], 0, self_tid());
}

static long op_load_kid(struct fenv *e)
{
	return pfm_load_context(e->fd[0], 0, e->kid.pid);
}

static int setup_sys(struct fenv *e)
{
	e->fd[0] = fe_ctx(PFM_FL_SYSTEM_WIDE);
	if (e->fd[0] < 0)
		return -1;
	return fe_write_pmc(e->fd[0], SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
}

static long op_load_cpu(struct fenv *e)
{
	return pfm_load_context(e->fd[0], 0, 0);
}

static long op_start(struct fenv *e)
{
	return pfm_start(e->fd[0], 0);
}

static long op_stop(struct fenv *e)
{
	return pfm_stop(e->fd[0], 0);
}

static long op_unload(struct fenv *e)
{
	return pfm_unload_context(e->fd[0], 0);
}

static long op_close(struct fenv *e)
{
	return close(e->fd[0]);
}

/* sets 1..3, switching on a timeout */
static struct pfarg_setdesc sets[3] = {
	{ .set_id = 1, .set_flags = PFM_SETFL_TIME_SWITCH, .set_timeout = 1000000 },
	{ .set_id = 2, .set_flags = PFM_SETFL_TIME_SWITCH, .set_timeout = 1000000 },
	{ .set_id = 3 },
};

static long op_create_sets(struct fenv *e)
{
	return pfm_create_evtsets(e->fd[0], sets, sizeof(sets));
}

static int setup_sets(struct fenv *e)
{
	return setup_ctx(e) ?: pfm_create_evtsets(e->fd[0], sets, sizeof(sets));
}

/* A deletion names the sets only: every other field must be zero. */
static struct pfarg_setdesc gone[3] = { { .set_id = 1 }, { .set_id = 2 }, { .set_id = 3 } };

static long op_delete_sets(struct fenv *e)
{
	return pfm_delete_evtsets(e->fd[0], gone, sizeof(gone));
}

static struct pfarg_setinfo setinfo[4] = {
	{ .set_id = 0 }, { .set_id = 1 }, { .set_id = 2 }, { .set_id = 3 },
};

static long op_getinfo_sets(struct fenv *e)
{
	return pfm_getinfo_evtsets(e->fd[0], setinfo, sizeof(setinfo));
}

/* Which of sets 0..3 exist, and their flags. */
static void state_sets(struct fenv *e, char *buf, size_t len)
{
	struct pfarg_setinfo si;
	size_t pos = 0;
	int i;

	for (i = 0; i < 4 && pos < len; i++) {
		memset(&si, 0, sizeof(si));
		si.set_id = i;
		if (pfm_getinfo_evtsets(e->fd[0], &si, sizeof(si)))
			pos += snprintf(buf + pos, len - pos, "set%d:%s ", i, strerror(errno));
		else
			pos += snprintf(buf + pos, len - pos, "set%d:%#x/%llu ", i,
					si.set_flags, (unsigned long long)si.set_timeout);
	}
}

static long op_mmap_counts(struct fenv *e)
{
	e->map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, e->fd[0], PFM_MMAP_COUNTS_OFFSET);
	return e->map == MAP_FAILED ? -1 : 0;
}

static const char *check_counts_page(struct fenv *e, long r)
{
	const struct pfm_counts_page *pg = e->map;

	(void)r;
	return pg->version ? NULL : "counts page of version 0";
}

static int setup_smpl(struct fenv *e)
{
	e->fd[0] = op_create_smpl(e);
	return e->fd[0] < 0 ? -1 : 0;
}

static long op_mmap_smpl(struct fenv *e)
{
	e->map = mmap(NULL, SMPL_PAGES * 4096, PROT_READ, MAP_SHARED, e->fd[0], 0);
	return e->map == MAP_FAILED ? -1 : 0;
}

static const char *check_smpl_hdr(struct fenv *e, long r)
{
	const struct pfm_dfl_smpl_hdr *h = e->map;

	(void)r;
	return h->hdr_version == PFM_DFL_SMPL_VERSION ? NULL : "bad header version";
}

/* A message queued: counter 0 notifies after PERIOD system calls, then masked. */
static int setup_msg(struct fenv *e)
{
	struct pfarg_pmd pd;
	long i;

	if (setup_ctx(e) || fcntl(e->fd[0], F_SETFL, O_NONBLOCK))
		return -1;
	pmd_init(&pd, SW_PMD(0), -PERIOD);
	pd.reg_flags = PFM_PMDFL_OVFL_NOTIFY;
	pd.reg_long_reset = -PERIOD;
	if (pfm_write_pmds(e->fd[0], &pd, sizeof(pd)) ||
	    pfm_load_context(e->fd[0], 0, self_tid()) || pfm_start(e->fd[0], 0))
		return -1;
	for (i = 0; i < 2 * PERIOD; i++)
		syscall(SYS_getppid);
	return 0;
}

static union pfarg_msg msg;

static long op_read_msg(struct fenv *e)
{
	return read(e->fd[0], &msg, sizeof(msg));
}

static const char *check_msg(struct fenv *e, long r)
{
	(void)e;
	if (r != sizeof(msg))
		return "short message";
	return msg.type == PFM_MSG_OVFL ? NULL : "not an overflow message";
}

static int setup_smpl_loaded(struct fenv *e)
{
	if (setup_smpl(e) || op_mmap_smpl(e) ||
	    fe_write_pmc(e->fd[0], SW_PMC(0), PFM_SW_PMC(PFM_SW_EV_SYSCALLS)))
		return -1;
	return pfm_load_context(e->fd[0], 0, self_tid()) ?: pfm_start(e->fd[0], 0);
}

static long op_write_smpl_pmd(struct fenv *e)
{
	struct pfarg_pmd pd;

	pmd_init(&pd, SW_PMD(0), -PERIOD);
	pd.reg_flags = PFM_PMDFL_SMPL;
	pd.reg_long_reset = -PERIOD;
	pd.reg_short_reset = -PERIOD;
	return pfm_write_pmds(e->fd[0], &pd, sizeof(pd));
}

static __attribute__((constructor)) void init_vectors(void)
{
	int i;

	for (i = 0; i < NPMD; i++) {
		pmc_init(&pmcs[i], SW_PMC(i), PFM_SW_PMC(PFM_SW_EV_SYSCALLS));
		pmd_init(&pmds[i], SW_PMD(i), 1000 * (i + 1));
	}
}

const struct fcase fcases_core[] = {
	FCASE("ctx_create", FC_SHORT, NULL, op_create, NULL, check_fd),
	FCASE("ctx_create_smpl", 0, NULL, op_create_smpl, NULL, check_fd),
	FCASE("ctx_create_cpu", 0, NULL, op_create_sys, NULL, check_fd),
	FCASE("write_pmcs", 0, setup_ctx, op_write_pmcs, state_pmds, NULL),
	FCASE("write_pmcs_inherit", 0, setup_inherit_child, op_write_pmcs, state_pmds, NULL),
	FCASE("write_pmds", FC_SHORT, setup_ctx, op_write_pmds, state_pmds, NULL),
	FCASE("write_pmds_loaded", 0, setup_loaded, op_write_pmds, state_pmds, NULL),
	FCASE("write_smpl_pmd", 0, setup_smpl_loaded, op_write_smpl_pmd, NULL, NULL),
	FCASE("read_pmds", 0, setup_started, op_read_pmds, NULL, NULL),
	FCASE("load_self", FC_SHORT, setup_ctx, op_load_self, state_pmds, NULL),
	FCASE("load_thread", 0, setup_kid, op_load_kid, state_pmds, NULL),
	FCASE("load_cpu", 0, setup_sys, op_load_cpu, NULL, NULL),
	FCASE("start", 0, setup_loaded, op_start, NULL, NULL),
	FCASE("stop", 0, setup_started, op_stop, NULL, NULL),
	FCASE("sets_create", FC_SHORT, setup_ctx, op_create_sets, state_sets, NULL),
	FCASE("sets_delete", 0, setup_sets, op_delete_sets, state_sets, NULL),
	FCASE("sets_getinfo", 0, setup_sets, op_getinfo_sets, state_sets, NULL),
	FCASE("mmap_counts", 0, setup_loaded, op_mmap_counts, NULL, check_counts_page),
	FCASE("mmap_smpl", 0, setup_smpl, op_mmap_smpl, NULL, check_smpl_hdr),
	FCASE("msg_read", 0, setup_msg, op_read_msg, NULL, check_msg),
	FCASE("unload_self", 0, setup_started, op_unload, NULL, NULL),
	FCASE("unload_thread", 0, setup_kid_loaded, op_unload, NULL, NULL),
	FCASE("close_loaded", FC_NOFAIL, setup_started, op_close, NULL, NULL),
	FCASE("close_thread", FC_NOFAIL, setup_kid_loaded, op_close, NULL, NULL),
	FCASE("close_smpl", FC_NOFAIL, setup_smpl_loaded, op_close, NULL, NULL),
	{ .name = NULL }
};
