// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon: perf_counter_open() of the 2008 proposal on perfmon (perf_counter.h).
 *
 * A counter goes to pfm_perf_event_open() when perfmon answers it, else it is built
 * here from native calls: one perfmon context per monitored thread or CPU, started
 * at once, and one software counter of it per perf counter, whose PMC enable bit is
 * the counter's enable state (and its leader's).  The fd handed out for a native
 * counter is an empty memfd: a real fd number, which no other open can reuse while
 * the counter exists, and on which the plain read() of a caller who forgot the
 * wrappers returns 0 rather than another object's data.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "perfmon.h"
#include "perf_counter.h"
#include "perf_counter_ring.h"
#include "perf_counter_native.h"

#define PC_FORMATS	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define PC_RECORDS	(PERF_RECORD_IP | PERF_RECORD_TID | PERF_RECORD_TIME | PERF_RECORD_ADDR | \
			 PERF_RECORD_GROUP | PERF_RECORD_CALLCHAIN)

struct pc_state pc_lib = { .lock = PTHREAD_MUTEX_INITIALIZER };

static pthread_once_t shim_once = PTHREAD_ONCE_INIT;
static int shim_present;

/* As libperfmon's preload: a NULL attr is EFAULT only from a perfmon that has the call. */
static void shim_probe(void)
{
	int saved = errno;

	if (pfm_door() >= 0 && pfm_perf_event_open(NULL, 0, -1, -1, 0) < 0 &&
	    errno == EFAULT)
		shim_present = 1;
	errno = saved;
}

static struct pc_counter *pc_lookup(int fd)
{
	return fd >= 0 && fd < pc_lib.len ? pc_lib.tab[fd] : NULL;
}

int pc_native_fd(int fd)
{
	int native;

	pthread_mutex_lock(&pc_lib.lock);
	native = pc_lookup(fd) != NULL;
	pthread_mutex_unlock(&pc_lib.lock);
	return native;
}

static int pc_store(int fd, struct pc_counter *c)
{
	struct pc_counter **tab;
	int len;

	if (fd >= pc_lib.len) {
		len = fd + 16;
		tab = realloc(pc_lib.tab, len * sizeof(*tab));
		if (!tab)
			return ENOMEM;
		memset(tab + pc_lib.len, 0, (len - pc_lib.len) * sizeof(*tab));
		pc_lib.tab = tab;
		pc_lib.len = len;
	}
	pc_lib.tab[fd] = c;
	return 0;
}

/* The software event of a native counter's config, or -1 (EINVAL). */
static int pc_sw_event(uint64_t config)
{
	uint64_t id = config & PERF_COUNTER_EVENT_MASK;

	if (config & PERF_COUNTER_RAW_MASK) {
		if (!(config & PERF_COUNTER_RAW_PFM_SW_BIT) ||
		    (config & ~(PERF_COUNTER_RAW_MASK | PERF_COUNTER_RAW_PFM_SW_BIT |
				PFM_SW_PMC_EVENT_MASK)))
			return -1;
		id = config & PFM_SW_PMC_EVENT_MASK;
		return id && id <= PFM_SW_EV_MAX ? (int)id : -1;
	}
	if ((config & PERF_COUNTER_TYPE_MASK) >> PERF_COUNTER_TYPE_SHIFT != PERF_TYPE_SOFTWARE)
		return -1;
	switch (id) {
	case PERF_COUNT_CPU_CLOCK:
	case PERF_COUNT_TASK_CLOCK:
		return PFM_SW_EV_TASK_CLOCK;
	case PERF_COUNT_PAGE_FAULTS:
		return PFM_SW_EV_PAGE_FAULTS;
	case PERF_COUNT_CONTEXT_SWITCHES:
		return PFM_SW_EV_CTX_SWITCHES;
	case PERF_COUNT_CPU_MIGRATIONS:
		return PFM_SW_EV_CPU_MIGRATIONS;
	default:
		return -1;
	}
}

static int pc_pfm_raw(uint64_t config)
{
	return (config & PERF_COUNTER_RAW_MASK) && (config & PERF_COUNTER_RAW_PFM_SW_BIT);
}

/*
 * 0, or EINVAL for a config no path counts: a type the proposal has not, perfmon's
 * raw events it has not, the software events perfmon does not tell apart (the same
 * on both paths).  Hardware, tracepoint and raw CPU events are the perf_event
 * path's to refuse.
 */
static int pc_config_ok(uint64_t config)
{
	if (config & PERF_COUNTER_RAW_MASK)
		return !pc_pfm_raw(config) || pc_sw_event(config) >= 0 ? 0 : EINVAL;
	switch ((config & PERF_COUNTER_TYPE_MASK) >> PERF_COUNTER_TYPE_SHIFT) {
	case PERF_TYPE_SOFTWARE:
		return pc_sw_event(config) >= 0 ? 0 : EINVAL;
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_TRACEPOINT:
		return 0;
	default:
		return EINVAL;
	}
}

/* The checks both paths make: 0 or an errno. */
static int pc_check(const struct perf_counter_hw_event *hw, pid_t pid, int cpu,
		    unsigned long flags)
{
	if (!hw)
		return EFAULT;
	if (flags || hw->munmap || hw->__reserved_1 || hw->extra_config_len ||
	    hw->__reserved_2 || hw->__reserved_3 || (hw->read_format & ~PC_FORMATS))
		return EINVAL;
	/* a sampling counter's records: those the perf_event ring has (perf_counter_ring.c) */
	if (hw->irq_period && (hw->record_type & ~PC_RECORDS))
		return EINVAL;
	/* the shim writes COMM records to sampling events' rings only */
	if (hw->comm && !hw->irq_period)
		return EINVAL;
	if (cpu < -1 || (pid < 0 && cpu == -1))
		return EINVAL;
	return 0;
}

/*
 * The perf_event_attr of a counter: the proposal's fields, same values (its record
 * bits IP, TID, TIME, ADDR, CALLCHAIN are PERF_SAMPLE_*'s, and GROUP is
 * PERF_SAMPLE_READ's bit, which reads the group with PERF_FORMAT_GROUP, and the
 * ids that tell its members, perf_counter_ring.c).  A notification "for every page
 * filled" is a watermark of a page.
 */
static void pc_to_attr(const struct perf_counter_hw_event *hw, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (hw->config & PERF_COUNTER_RAW_MASK) {
		a->type = PERF_TYPE_RAW;
		a->config = hw->config & ~PERF_COUNTER_RAW_MASK;
	} else {
		a->type = (hw->config & PERF_COUNTER_TYPE_MASK) >> PERF_COUNTER_TYPE_SHIFT;
		a->config = hw->config & PERF_COUNTER_EVENT_MASK;
	}
	a->read_format = hw->read_format;
	a->disabled = hw->disabled;
	a->pinned = hw->pinned;
	a->exclusive = hw->exclusive;
	a->exclude_user = hw->exclude_user;
	a->exclude_kernel = hw->exclude_kernel;
	a->exclude_hv = hw->exclude_hv;
	a->exclude_idle = hw->exclude_idle;
	a->inherit = hw->inherit;
	a->mmap = hw->mmap;
	a->comm = hw->comm;
	a->sample_period = hw->irq_period;
	if (hw->irq_period)
		a->sample_type = hw->record_type;
	if (hw->irq_period && (hw->record_type & PERF_RECORD_GROUP))
		a->read_format |= PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	a->wakeup_events = hw->wakeup_events;
	if (!hw->wakeup_events) {
		a->watermark = 1;
		a->wakeup_watermark = sysconf(_SC_PAGESIZE);
	}
}

/* ns the context's set was active: the thread's time, or a CPU's wall-clock time. */
static int pc_duration(struct pc_ctx *x, uint64_t *ns)
{
	struct pfarg_setinfo si;

	memset(&si, 0, sizeof(si));
	if (pfm_getinfo_evtsets(x->fd, &si, sizeof(si)))
		return -1;
	*ns = si.set_act_duration;
	return 0;
}

/*
 * Write the EN of counter c and, for a leader, of its members, as their own state
 * and their leader's say: in one call, so that a group starts and stops as one (no
 * member counts the others' writes).  Time is taken before EN is set and after it is
 * cleared, so that a counted system call count stays the workload's plus the one
 * that stops it.
 */
static int pc_apply(struct pc_counter *c)
{
	struct pc_counter *chg[PC_SLOTS], *m;
	struct pfarg_pmc pmc[PC_SLOTS];
	int i, n = 0, timed = 0;
	uint64_t now = 0;

	for (i = -1; i < pc_lib.len && n < PC_SLOTS; i++) {
		m = i < 0 ? c : pc_lib.tab[i];
		if (!m || (i >= 0 && (m == c || m->leader != c)) ||
		    (m->enabled && m->leader->enabled) == m->on)
			continue;
		memset(&pmc[n], 0, sizeof(pmc[n]));
		pmc[n].reg_num = PFM_SW_FIRST_PMC + m->slot;
		pmc[n].reg_value = m->sel | (m->on ? 0 : PC_EN);
		timed |= m->read_format != 0;
		chg[n++] = m;
	}
	if (!n)
		return 0;
	if (timed && pc_duration(c->ctx, &now))
		return errno;
	if (pfm_write_pmcs(c->ctx->fd, pmc, n * sizeof(pmc[0])))
		return errno;
	pc_inherit_write(c->ctx, pmc, n);
	for (i = 0; i < n; i++) {
		if (chg[i]->on)
			break;
	}
	/* the time of the disabled ones, after their EN is cleared */
	if (timed && i < n && pc_duration(c->ctx, &now))
		now = 0;
	for (i = 0; i < n; i++) {
		m = chg[i];
		m->on = !m->on;
		if (m->on)
			m->on_since = now;
		else if (now)
			m->time += now - m->on_since;
	}
	return 0;
}

/* The context of thread tid or CPU cpu, made, attached and started if need be. */
static int pc_get_ctx(pid_t tid, int cpu, struct pc_ctx **out)
{
	struct pc_ctx *x;
	int fd, err;

	for (x = pc_lib.ctxs; x; x = x->next) {
		if (x->tid == tid && x->cpu == cpu) {
			*out = x;
			return 0;
		}
	}
	x = calloc(1, sizeof(*x));
	if (!x)
		return ENOMEM;
	fd = pfm_create_context(PFM_FL_CLOEXEC | (tid < 0 ? PFM_FL_SYSTEM_WIDE : 0));
	if (fd < 0) {
		err = errno;
		free(x);
		return err;
	}
	if (pfm_load_context(fd, 0, tid < 0 ? cpu : tid) || pfm_start(fd, 0)) {
		/* a thread has one context: this one is refused beside another */
		err = errno == EEXIST ? EBUSY : errno;
		close(fd);
		free(x);
		return err;
	}
	pc_inherit_atfork();
	x->fd = fd;
	x->fork_fd = -1;
	x->tid = tid;
	x->cpu = cpu;
	x->mine = tid == gettid();
	x->owner = pthread_self();
	x->next = pc_lib.ctxs;
	pc_lib.ctxs = x;
	*out = x;
	return 0;
}

static void pc_put_ctx(struct pc_ctx *x)
{
	struct pc_ctx **pp;

	if (x->used)
		return;
	for (pp = &pc_lib.ctxs; *pp != x; pp = &(*pp)->next)
		;
	*pp = x->next;
	pc_inherit_free(x);
	close(x->fd);
	free(x);
}

static int pc_open_native(const struct perf_counter_hw_event *hw, pid_t pid, int cpu,
			  int group_fd, int *out)
{
	struct pc_counter *c, *leader = NULL;
	pid_t tid = pid < 0 ? -1 : pid ? pid : gettid();
	struct pfarg_pmd pmd;
	struct pc_ctx *x = NULL;
	struct pfarg_pmc pmc;
	int ev, slot, err;

	ev = pc_sw_event(hw->config);
	/*
	 * perfmon counts a thread on every CPU; sampling and records are the perf_event
	 * path's; inherit follows the forks of the calling thread, which this library
	 * sees (perf_counter_inherit.c)
	 */
	if (ev < 0 || (pid >= 0 && cpu >= 0) || hw->irq_period || hw->mmap ||
	    (hw->inherit && (tid < 0 || (pid && tid != gettid()))))
		return EINVAL;
	if (group_fd != -1) {
		leader = pc_lookup(group_fd);
		if (!leader)
			return EBADF;
		/* a group is inherited whole or not at all, as perf_event has it */
		if (leader->leader != leader || leader->ctx->tid != tid ||
		    leader->ctx->cpu != (tid < 0 ? cpu : -1) || leader->inherit != hw->inherit)
			return EINVAL;
	}
	if (hw->inherit && pc_inherit_atfork())
		return ENOMEM;
	err = pc_get_ctx(tid, tid < 0 ? cpu : -1, &x);
	if (err)
		return err;
	for (slot = 0; slot < PC_SLOTS && (x->used & PC_SLOT(slot)); slot++)
		;
	if (slot == PC_SLOTS) {
		err = ENOSPC;
		goto put;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		err = ENOMEM;
		goto put;
	}
	c->ctx = x;
	c->slot = slot;
	c->leader = leader ? leader : c;
	c->enabled = !hw->disabled;
	c->read_format = hw->read_format;
	c->inherit = hw->inherit;
	c->sel = ev | (hw->exclude_user ? 0 : PFM_SW_PMC_USR) |
		 (hw->exclude_kernel ? 0 : PFM_SW_PMC_OS);
	c->fd = memfd_create("perf_counter", MFD_CLOEXEC);
	if (c->fd < 0)
		goto fail;
	memset(&pmd, 0, sizeof(pmd));
	pmd.reg_num = PFM_SW_FIRST_PMD + slot;
	memset(&pmc, 0, sizeof(pmc));
	pmc.reg_num = PFM_SW_FIRST_PMC + slot;
	pmc.reg_value = c->sel;
	/* EPERM: kernel level refused, the kernel's answer stands */
	if (pfm_write_pmds(x->fd, &pmd, sizeof(pmd)) ||
	    pfm_write_pmcs(x->fd, &pmc, sizeof(pmc)))
		goto fail;
	err = pc_store(c->fd, c);
	if (err)
		goto fail_err;
	x->used |= PC_SLOT(slot);
	err = pc_apply(c);
	if (err) {
		pc_lib.tab[c->fd] = NULL;
		x->used &= ~PC_SLOT(slot);
		goto fail_err;
	}
	*out = c->fd;
	return 0;
fail:
	err = errno;
fail_err:
	if (c->fd >= 0)
		close(c->fd);
	free(c);
put:
	pc_put_ctx(x);
	return err;
}

int perf_counter_open(struct perf_counter_hw_event *hw_event, pid_t pid, int cpu,
		      int group_fd, unsigned long flags)
{
	struct perf_event_attr attr;
	int err, fd = -1;

	err = pc_check(hw_event, pid, cpu, flags);
	if (!err)
		err = pc_config_ok(hw_event->config);
	if (err)
		goto out;
	pthread_once(&shim_once, shim_probe);
	/* perf_event has no encoding for perfmon's own raw events */
	if (shim_present && !pc_pfm_raw(hw_event->config))
		goto shim;
	pthread_mutex_lock(&pc_lib.lock);
	err = pc_open_native(hw_event, pid, cpu, group_fd, &fd);
	pthread_mutex_unlock(&pc_lib.lock);
	goto out;
shim:
	pc_to_attr(hw_event, &attr);
	fd = pfm_perf_event_open(&attr, pid, cpu, group_fd, 0);
	if (fd < 0) {
		/* no such event, or one it cannot sample: "not able to count" */
		err = errno == ENOENT || errno == EOPNOTSUPP ? EINVAL : errno;
		goto out;
	}
	err = pc_ring_note(fd, hw_event, group_fd, group_fd == -1 && (!pid || pid == gettid()));
	if (err)
		close(fd);
out:
	if (err) {
		errno = err;
		return -1;
	}
	return fd;
}

static int pc_read_native(struct pc_counter *c, void *buf, size_t count, ssize_t *len)
{
	uint64_t v[3], now, copies;
	struct pfarg_pmd pmd;
	size_t n = 1;
	int err;

	*len = (1 + __builtin_popcount(c->read_format)) * sizeof(uint64_t);
	if (count < (size_t)*len)
		return ENOSPC;
	memset(&pmd, 0, sizeof(pmd));
	pmd.reg_num = PFM_SW_FIRST_PMD + c->slot;
	if (pfm_read_pmds(c->ctx->fd, &pmd, sizeof(pmd)))
		return errno;
	v[0] = pmd.reg_value;
	if (c->inherit) {
		err = pc_inherit_sum(c, &copies);
		if (err)
			return err;
		v[0] += copies;
	}
	if (c->read_format) {
		now = c->time;
		if (c->on) {
			if (pc_duration(c->ctx, &now))
				return errno;
			now = c->time + now - c->on_since;
		}
		/* a software counter runs whenever it is enabled */
		if (c->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			v[n++] = now;
		if (c->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			v[n++] = now;
	}
	memcpy(buf, v, *len);
	return 0;
}

ssize_t perf_counter_read(int fd, void *buf, size_t count)
{
	struct pc_counter *c;
	ssize_t len = -1;
	int err;

	pthread_mutex_lock(&pc_lib.lock);
	c = pc_lookup(fd);
	if (!c) {
		pthread_mutex_unlock(&pc_lib.lock);
		len = pc_ring_read(fd, buf, count);
		pc_ring_sync(fd);
		return len;
	}
	err = pc_read_native(c, buf, count, &len);
	pthread_mutex_unlock(&pc_lib.lock);
	if (err) {
		errno = err;
		return -1;
	}
	return len;
}

/* Set counter c's own state; a leader's carries its members. */
static int pc_enable(struct pc_counter *c, int enabled)
{
	c->enabled = enabled;
	return pc_apply(c);
}

int perf_counter_ioctl(int fd, unsigned long request, unsigned long arg)
{
	struct pc_counter *c;
	int err;

	pthread_mutex_lock(&pc_lib.lock);
	c = pc_lookup(fd);
	if (!c) {
		pthread_mutex_unlock(&pc_lib.lock);
		err = ioctl(fd, request, arg);
		if (!err)
			pc_ring_note_ioctl(fd, request);
		pc_ring_sync(fd);
		return err;
	}
	switch (request) {
	case PERF_COUNTER_IOC_ENABLE:
		err = pc_enable(c, 1);
		break;
	case PERF_COUNTER_IOC_DISABLE:
		err = pc_enable(c, 0);
		break;
	case PERF_COUNTER_IOC_REFRESH:
		err = EINVAL;		/* for overflow counters, which are not made */
		break;
	default:
		err = ENOTTY;
		break;
	}
	pthread_mutex_unlock(&pc_lib.lock);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

int perf_counter_close(int fd)
{
	struct pc_counter *c, *m;
	struct pfarg_pmc pmc;
	int i;

	pthread_mutex_lock(&pc_lib.lock);
	c = pc_lookup(fd);
	if (!c) {
		pthread_mutex_unlock(&pc_lib.lock);
		pc_ring_forget(fd);
		return close(fd);
	}
	pc_lib.tab[fd] = NULL;
	memset(&pmc, 0, sizeof(pmc));
	pmc.reg_num = PFM_SW_FIRST_PMC + c->slot;
	pfm_write_pmcs(c->ctx->fd, &pmc, sizeof(pmc));
	pc_inherit_drop(c->ctx, c->slot);
	close(c->fd);
	c->ctx->used &= ~PC_SLOT(c->slot);
	/*
	 * The members of a closed leader become leaders of their own, last: an
	 * enabled member counts from the return of this call, as from an enable.
	 */
	for (i = 0; i < pc_lib.len; i++) {
		m = pc_lib.tab[i];
		if (m && m->leader == c) {
			m->leader = m;
			pc_apply(m);
		}
	}
	pc_put_ctx(c->ctx);
	free(c);
	pthread_mutex_unlock(&pc_lib.lock);
	return 0;
}

/*
 * The prctl before an enable and after a disable: the counters count neither, as
 * they count neither the ioctl that enables them nor the one after a disable.
 */
static int pc_task_enable(int enabled)
{
	int prctl_op = enabled ? PR_TASK_PERF_COUNTERS_ENABLE : PR_TASK_PERF_COUNTERS_DISABLE;
	pthread_t self = pthread_self();
	struct pc_counter *c;
	int i, err = 0;

	if (enabled && (prctl(prctl_op) || pc_ring_members_restore() || pc_ring_task_enable(1)))
		return -1;
	pthread_mutex_lock(&pc_lib.lock);
	for (i = 0; i < pc_lib.len && !err; i++) {
		c = pc_lib.tab[i];
		if (c && c->leader == c && c->ctx->mine &&
		    pthread_equal(c->ctx->owner, self))
			err = pc_enable(c, enabled);
	}
	pthread_mutex_unlock(&pc_lib.lock);
	if (err) {
		errno = err;
		return -1;
	}
	if (enabled)
		return 0;
	if (pc_ring_task_enable(0) || prctl(prctl_op))
		return -1;
	return pc_ring_members_restore() ? -1 : 0;
}

int perf_counter_task_enable(void)
{
	return pc_task_enable(1);
}

int perf_counter_task_disable(void)
{
	return pc_task_enable(0);
}
