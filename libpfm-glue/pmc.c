// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon: NetBSD's pmc_control(2) and pmc_get_info(2) on perfmon (pmc.h).
 *
 * The state of the process's counters is kept here, under one lock, and mirrored in
 * one perfmon context: a counter's PMC holds its event (and EN while it runs), its
 * PMD its count.  Children are counted by contexts the fork handlers attach to
 * them; their counts are summed when they are found exited.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "perfmon.h"
#include "pmc.h"
#include "child_ctx.h"

#define PMC_X86_MAX	16		/* perfmon_x86.h: PMC/PMD 0..15 */
#define PMC_MAX		(PMC_NCOUNTERS_SW + PMC_X86_MAX)
#define PMC_EN		(1ULL << 22)	/* software PMU and x86 event selects */
#define PMC_USR		(1ULL << 16)

enum pmc_state { PMC_FREE, PMC_CONFIGURED, PMC_PROFILING };

struct pmc_counter {
	uint16_t reg;			/* PMC and PMD number (they are equal) */
	int type;			/* PMC_TYPE_PERFMON_* */
	enum pmc_state state;
	int running;
	uint64_t sel;			/* the PMC value without EN */
	uint64_t accumulated;		/* exited children's counts */
};

/* A forked child's context, counting until the child exits. */
struct pmc_child {
	int fd;
	uint32_t ctrs;			/* the counters configured at the fork */
	struct pmc_child *next;
};

static struct {
	pthread_mutex_t lock;
	int ready;
	int fd;
	int nctr;
	int has_x86;
	const struct pfm_dfl_smpl_hdr *buf;	/* the sampling buffer, or NULL */
	struct pmc_counter ctr[PMC_MAX];
	struct pmc_child *children;
	int fork_fd;			/* the context made for the child being forked */
	uint32_t fork_ctrs;		/* and the counters configured in it */
	int atfork;			/* the fork handlers are registered */
} pmc = { .lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1, .fork_fd = -1 };

static int pmc_write(int fd, const struct pmc_counter *c, uint64_t sel, uint32_t pmd_flags,
		     uint64_t value)
{
	struct pfarg_pmc pc;
	struct pfarg_pmd pd;

	memset(&pc, 0, sizeof(pc));
	pc.reg_num = c->reg;
	pc.reg_value = sel;
	if (pfm_write_pmcs(fd, &pc, sizeof(pc)))
		return -1;
	memset(&pd, 0, sizeof(pd));
	pd.reg_num = c->reg;
	pd.reg_flags = pmd_flags;
	pd.reg_value = value;
	pd.reg_short_reset = value;
	pd.reg_long_reset = value;
	return pfm_write_pmds(fd, &pd, sizeof(pd));
}

/* The EN bit only: the count stays. */
static int pmc_set_en(struct pmc_counter *c, int en)
{
	struct pfarg_pmc pc;

	memset(&pc, 0, sizeof(pc));
	pc.reg_num = c->reg;
	pc.reg_value = c->sel | (en ? PMC_EN : 0);
	return pfm_write_pmcs(pmc.fd, &pc, sizeof(pc));
}

static int pmc_read(int fd, unsigned int reg, uint64_t *v)
{
	struct pfarg_pmd pd;

	memset(&pd, 0, sizeof(pd));
	pd.reg_num = reg;
	if (pfm_read_pmds(fd, &pd, sizeof(pd)))
		return -1;
	*v = pd.reg_value;
	return 0;
}

static void pmc_prepare(void);
static void pmc_parent(void);
static void pmc_child(void);

/* The x86 general-purpose counters this context may use, after the software ones. */
static int pmc_find_counters(int fd)
{
	struct pfarg_setinfo si;
	int i, n = 0;

	for (i = 0; i < PMC_NCOUNTERS_SW; i++) {
		pmc.ctr[n].reg = PFM_SW_FIRST_PMD + i;
		pmc.ctr[n++].type = PMC_TYPE_PERFMON_SW;
	}
	memset(&si, 0, sizeof(si));
	if (pfm_getinfo_evtsets(fd, &si, sizeof(si)))
		return -1;
	for (i = 0; i < PMC_X86_MAX; i++) {
		if (!(si.set_avail_pmds[0] & (1ULL << i)) ||
		    !(si.set_avail_pmcs[0] & (1ULL << i)))
			continue;
		pmc.ctr[n].reg = i;
		pmc.ctr[n++].type = PMC_TYPE_PERFMON_X86;
		pmc.has_x86 = 1;
	}
	pmc.nctr = n;
	return 0;
}

/* Create, attach to this thread and start the process's context: 0 or an errno. */
static int pmc_setup(void)
{
	struct pfm_dfl_smpl_arg arg = { .buf_size = PMC_PROF_BUF_SIZE };
	void *buf = NULL;
	int fd, err;

	if (pmc.ready)
		return 0;
	fd = pfm_create_context(PFM_FL_SMPL_FMT | PFM_FL_CLOEXEC, PFM_DFL_SMPL_NAME, &arg,
				sizeof(arg));
	if (fd < 0 && errno == ENOMEM)
		fd = pfm_create_context(PFM_FL_CLOEXEC);	/* counting without profiling */
	else if (fd >= 0)
		buf = mmap(NULL, PMC_PROF_BUF_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (fd < 0)
		/* no door: the module is not loaded, as a kernel without PERFCTRS */
		return errno == ENOENT || errno == ENODEV ? ENXIO : errno;
	if (buf == MAP_FAILED)
		goto fail;
	if (!pmc.atfork) {
		if (pthread_atfork(pmc_prepare, pmc_parent, pmc_child)) {
			errno = ENOMEM;
			goto fail;
		}
		pmc.atfork = 1;
	}
	if (pmc_find_counters(fd) || pfm_load_context(fd, 0, gettid()) ||
	    pfm_start(fd, 0))
		goto fail;
	pmc.fd = fd;
	pmc.buf = buf;
	pmc.ready = 1;
	return 0;
fail:
	/* EEXIST: the thread has another context */
	err = errno == EEXIST ? EBUSY : errno;
	if (buf && buf != MAP_FAILED)
		munmap(buf, PMC_PROF_BUF_SIZE);
	close(fd);
	return err;
}

/*
 * A first call that fails leaves no session behind: what pmc_setup() made for it
 * is given back, as a system call that fails changes nothing.
 */
static void pmc_unsetup(int was_ready)
{
	if (was_ready || !pmc.ready)
		return;
	if (pmc.buf)
		munmap((void *)pmc.buf, PMC_PROF_BUF_SIZE);
	close(pmc.fd);
	pmc.buf = NULL;
	pmc.fd = -1;
	pmc.ready = 0;
}

/*
 * Fork handlers.  Before the fork the parent builds the child's context, stopped
 * and not attached, with its counters' events and their EN; the child attaches it
 * to itself and starts it; the parent keeps its fd to read the child's counts
 * after the child exits.
 */
static void pmc_prepare(void)
{
	uint32_t ctrs = 0;
	int fd, i;

	pthread_mutex_lock(&pmc.lock);
	pmc.fork_fd = -1;
	for (i = 0; i < pmc.nctr; i++)
		if (pmc.ctr[i].state == PMC_CONFIGURED)
			ctrs |= 1U << i;
	if (!ctrs)
		return;
	fd = pfm_create_context(PFM_FL_CLOEXEC);
	if (fd < 0)
		return;
	for (i = 0; i < pmc.nctr; i++) {
		const struct pmc_counter *c = &pmc.ctr[i];

		if ((ctrs & (1U << i)) &&
		    pmc_write(fd, c, c->sel | (c->running ? PMC_EN : 0), 0, 0)) {
			close(fd);
			return;
		}
	}
	pmc.fork_fd = fd;
	pmc.fork_ctrs = ctrs;
}

static void pmc_parent(void)
{
	struct pmc_child *c;

	if (pmc.fork_fd >= 0) {
		c = malloc(sizeof(*c));
		if (c) {
			c->fd = pmc.fork_fd;
			c->ctrs = pmc.fork_ctrs;
			c->next = pmc.children;
			pmc.children = c;
		} else {
			close(pmc.fork_fd);
		}
	}
	pmc.fork_fd = -1;
	pthread_mutex_unlock(&pmc.lock);
}

static void pmc_child(void)
{
	struct pmc_child *c, *next;
	int i;

	/* the parent's contexts are the parent's business */
	for (c = pmc.children; c; c = next) {
		next = c->next;
		close(c->fd);
		free(c);
	}
	pmc.children = NULL;
	if (pmc.buf)
		munmap((void *)pmc.buf, PMC_PROF_BUF_SIZE);
	pmc.buf = NULL;
	close(pmc.fd);
	pmc.fd = pmc.fork_fd;
	pmc.fork_fd = -1;
	for (i = 0; i < pmc.nctr; i++) {
		pmc.ctr[i].accumulated = 0;
		if (pmc.ctr[i].state == PMC_PROFILING)
			pmc.ctr[i].state = PMC_FREE;
	}
	if (pmc.fd < 0 || pfm_child_ctx_adopt(pmc.fd)) {
		/* nothing to count with: the child starts afresh at its next call */
		if (pmc.fd >= 0)
			close(pmc.fd);
		pmc.fd = -1;
		pmc.ready = 0;
		pmc.nctr = 0;
		pmc.has_x86 = 0;
		memset(pmc.ctr, 0, sizeof(pmc.ctr));
	}
	pthread_mutex_unlock(&pmc.lock);
}

/* Add the counts of the children that have exited, and forget them. */
static void pmc_harvest(void)
{
	struct pmc_child **pp = &pmc.children, *c;
	uint64_t v;
	int i;

	while ((c = *pp)) {
		if (!pfm_child_ctx_ended(c->fd)) {
			pp = &c->next;
			continue;
		}
		for (i = 0; i < pmc.nctr; i++)
			if ((c->ctrs & (1U << i)) && !pmc_read(c->fd, pmc.ctr[i].reg, &v))
				pmc.ctr[i].accumulated += v;
		*pp = c->next;
		close(c->fd);
		free(c);
	}
}

/* ENODEV unless counter c can count event id ev; else its PMC value, without EN. */
static int pmc_encode(const struct pmc_counter *c, pmc_evid_t ev, uint64_t *sel)
{
	if (c->type == PMC_TYPE_PERFMON_SW) {
		if (ev == PFM_SW_EV_NONE || ev > PFM_SW_EV_MAX)
			return ENODEV;
	} else if (ev & ~PMC_X86_EVID_MASK) {
		return ENODEV;
	}
	*sel = ev | PMC_USR;
	return 0;
}

/* errno of a refused register write: the kernel's EINVAL is an event it refuses */
static int pmc_write_errno(void)
{
	return errno == EINVAL ? ENODEV : errno;
}

static int pmc_configure(struct pmc_counter *c, const struct pmc_counter_cfg *cfg)
{
	uint64_t sel;
	int err;

	if (c->state == PMC_PROFILING)
		return EBUSY;
	err = pmc_encode(c, cfg->event_id, &sel);
	if (err)
		return err;
	if (pmc_write(pmc.fd, c, sel, 0, 0))
		return pmc_write_errno();
	c->sel = sel;
	c->state = PMC_CONFIGURED;
	c->running = 0;
	return 0;
}

static int pmc_startstop(struct pmc_counter *c, int start)
{
	if (c->state == PMC_FREE)
		return ENXIO;
	if (c->state == PMC_PROFILING)
		return EBUSY;
	if (c->running == start)
		return start ? EINPROGRESS : 0;
	if (pmc_set_en(c, start))
		return errno;
	c->running = start;
	return 0;
}

static int pmc_buf_full(void)
{
	const struct pfm_dfl_smpl_hdr *h = pmc.buf;

	return h->hdr_cur_offs + h->hdr_min_buf_space > h->hdr_buf_size;
}

static int pmc_profstart(struct pmc_counter *c, const struct pmc_counter_cfg *cfg)
{
	uint64_t sel;
	int err;

	if (c->state != PMC_FREE)
		return EBUSY;
	err = pmc_encode(c, cfg->event_id, &sel);
	if (err)
		return err;
	if (!cfg->reset_value)
		return EINVAL;
	if (!pmc.buf)
		return ENOMEM;
	/* a sample at each 64-bit overflow: reset_value events from -reset_value */
	if (pmc_write(pmc.fd, c, sel | PMC_EN, PFM_PMDFL_SMPL, -cfg->reset_value))
		return pmc_write_errno();
	c->sel = sel;
	c->state = PMC_PROFILING;
	return 0;
}

static int pmc_profstop(struct pmc_counter *c)
{
	if (c->state != PMC_PROFILING)
		return ENXIO;
	if (pmc_write(pmc.fd, c, c->sel, 0, 0))
		return errno;
	c->state = PMC_FREE;
	/* a full buffer masked the context: a stop and a start lift the mask */
	if (pmc_buf_full() && (pfm_stop(pmc.fd, 0) || pfm_start(pmc.fd, 0)))
		return errno;
	return 0;
}

/*
 * NetBSD's pmc_control() and pmc_get_info() are system calls: a bad argument
 * pointer is EFAULT, not a crash of the caller.  The argument is copied through
 * the kernel (process_vm_readv/writev on this process), which checks it as a
 * system call would; where those calls are not allowed (a seccomp filter), it
 * is copied directly.
 */
static int pmc_copy_in(void *dst, const void *argp, size_t n)
{
	struct iovec l = { dst, n }, r = { (void *)argp, n };

	if (!argp)
		return EFAULT;
	if (process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)n)
		return 0;
	if (errno == EFAULT)
		return EFAULT;
	memcpy(dst, argp, n);
	return 0;
}

static int pmc_copy_out(void *argp, const void *src, size_t n)
{
	struct iovec l = { (void *)src, n }, r = { argp, n };

	if (process_vm_writev(getpid(), &l, 1, &r, 1, 0) == (ssize_t)n)
		return 0;
	if (errno == EFAULT)
		return EFAULT;
	memcpy(argp, src, n);
	return 0;
}

static int pmc_control_locked(int ctr, int op, void *argp)
{
	struct pmc_counter_cfg cfg;
	struct pmc_counter *c;
	int err;

	if (op < PMC_OP_START || op > PMC_OP_PROFSTOP)
		return EINVAL;
	err = pmc_setup();
	if (err)
		return err;
	if (ctr < 0 || ctr >= pmc.nctr)
		return EINVAL;
	c = &pmc.ctr[ctr];
	switch (op) {
	case PMC_OP_START:
		return pmc_startstop(c, 1);
	case PMC_OP_STOP:
		return pmc_startstop(c, 0);
	case PMC_OP_CONFIGURE:
	case PMC_OP_PROFSTART:
		err = pmc_copy_in(&cfg, argp, sizeof(cfg));
		if (err)
			return err;
		return op == PMC_OP_CONFIGURE ? pmc_configure(c, &cfg) : pmc_profstart(c, &cfg);
	default:
		return pmc_profstop(c);
	}
}

static int pmc_get_info_locked(int ctr, int op, void *argp)
{
	struct pmc_counter *c;
	uint64_t v;
	int err;

	if (op < PMC_INFO_NCOUNTERS || op > PMC_INFO_ACCUMULATED_COUNTER_VALUE)
		return EINVAL;
	err = pmc_setup();
	if (err)
		return err;
	if (op == PMC_INFO_NCOUNTERS) {
		if (!argp)
			return EFAULT;
		return pmc_copy_out(argp, &pmc.nctr, sizeof(int));
	}
	if (op == PMC_INFO_CPUCTR_TYPE && ctr == -1) {
		if (!argp)
			return EFAULT;
		return pmc_copy_out(argp, &(int){ pmc.has_x86 ? PMC_TYPE_PERFMON_X86 :
								    PMC_TYPE_PERFMON_SW }, sizeof(int));
	}
	if (ctr < 0 || ctr >= pmc.nctr)
		return EINVAL;
	c = &pmc.ctr[ctr];
	switch (op) {
	case PMC_INFO_CPUCTR_TYPE:
		if (!argp)
			return EFAULT;
		return pmc_copy_out(argp, &(int){ c->type }, sizeof(int));
	case PMC_INFO_COUNTER_VALUE:
		if (c->state == PMC_FREE)
			return ENXIO;
		if (c->state == PMC_PROFILING)
			return EBUSY;
		if (!argp)
			return EFAULT;
		if (pmc_read(pmc.fd, c->reg, &v))
			return errno;
		return pmc_copy_out(argp, &v, sizeof(v));
	default:
		if (!argp)
			return EFAULT;
		pmc_harvest();
		return pmc_copy_out(argp, &c->accumulated, sizeof(c->accumulated));
	}
}

int pmc_control(int ctr, int op, void *argp)
{
	int err, ready;

	pthread_mutex_lock(&pmc.lock);
	ready = pmc.ready;
	err = pmc_control_locked(ctr, op, argp);
	if (err)
		pmc_unsetup(ready);
	pthread_mutex_unlock(&pmc.lock);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

int pmc_get_info(int ctr, int op, void *argp)
{
	int err, ready;

	pthread_mutex_lock(&pmc.lock);
	ready = pmc.ready;
	err = pmc_get_info_locked(ctr, op, argp);
	if (err)
		pmc_unsetup(ready);
	pthread_mutex_unlock(&pmc.lock);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

long pmc_prof_samples(int ctr, struct pfm_dfl_smpl_entry *e, long n)
{
	const struct pfm_dfl_smpl_entry *s;
	const struct pfm_dfl_smpl_hdr *h;
	long found = 0;
	uint64_t i, count;
	int err = 0;

	pthread_mutex_lock(&pmc.lock);
	err = pmc_setup();
	if (!err && (ctr < 0 || ctr >= pmc.nctr || n < 0 || (n && !e)))
		err = EINVAL;
	if (!err && !pmc.buf)
		err = ENXIO;
	if (err) {
		pthread_mutex_unlock(&pmc.lock);
		errno = err;
		return -1;
	}
	h = pmc.buf;
	count = __atomic_load_n(&h->hdr_count, __ATOMIC_ACQUIRE);
	/* no PMD is recorded with a sample: the entries are all of one size */
	s = (const void *)(h + 1);
	for (i = 0; i < count; i++, s++) {
		if (s->ovfl_pmd != pmc.ctr[ctr].reg)
			continue;
		if (found < n)
			e[found] = *s;
		found++;
	}
	pthread_mutex_unlock(&pmc.lock);
	return found;
}
