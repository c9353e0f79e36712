// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon: inherit for perf_counter_open()'s native counters (perf_counter.h).
 *
 * perfmon never follows a fork, so the fork handlers do (child_ctx.h): before a
 * fork by the thread a context counts, the parent makes a context for the child
 * with a copy of each inherit counter (its event and its EN as written), the child
 * attaches it to itself, and the parent keeps it among the context's children.  A
 * counter's value adds what its copies counted: those of live children read where
 * they count, those of children gone (exited, or detached at an exec) folded into
 * the counter once, and their contexts closed.  Enable and disable write the
 * copies' EN after the original's.  Children that a child forks are not counted
 * (its copies are the parent's), nor children made without the fork handlers
 * (vfork(), posix_spawn(), a raw clone()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfmon.h"
#include "child_ctx.h"
#include "perf_counter_native.h"

/* The counter of context x in slot, or NULL. */
static struct pc_counter *pc_at(const struct pc_ctx *x, int slot)
{
	struct pc_counter *c;
	int i;

	for (i = 0; i < pc_lib.len; i++) {
		c = pc_lib.tab[i];
		if (c && c->ctx == x && c->slot == slot)
			return c;
	}
	return NULL;
}

static int pc_read_slot(int fd, int slot, uint64_t *v)
{
	struct pfarg_pmd pmd;

	memset(&pmd, 0, sizeof(pmd));
	pmd.reg_num = PFM_SW_FIRST_PMD + slot;
	if (pfm_read_pmds(fd, &pmd, sizeof(pmd)))
		return errno;
	*v = pmd.reg_value;
	return 0;
}

/* Fold the copies of x's gone children into their counters, and close them. */
static void pc_fold(struct pc_ctx *x)
{
	struct pc_child **pp = &x->children, *ch;
	struct pc_counter *c;
	uint64_t v;
	int slot;

	while ((ch = *pp)) {
		if (!pfm_child_ctx_ended(ch->fd)) {
			pp = &ch->next;
			continue;
		}
		for (slot = 0; slot < PC_SLOTS; slot++) {
			c = (ch->slots & PC_SLOT(slot)) ? pc_at(x, slot) : NULL;
			if (c && !pc_read_slot(ch->fd, slot, &v))
				c->inherited += v;
		}
		*pp = ch->next;
		close(ch->fd);
		free(ch);
	}
}

int pc_inherit_sum(struct pc_counter *c, uint64_t *sum)
{
	struct pc_child *ch;
	uint64_t v;
	int err;

	pc_fold(c->ctx);
	*sum = c->inherited;
	for (ch = c->ctx->children; ch; ch = ch->next) {
		if (!(ch->slots & PC_SLOT(c->slot)))
			continue;
		err = pc_read_slot(ch->fd, c->slot, &v);
		if (err)
			return err;
		*sum += v;
	}
	return 0;
}

/* Writes per call: the caller's vector holds up to a PMC per software counter. */
#define PC_WRITE_CHUNK	8

/*
 * The PMC writes pmc[0..n) of x, on the copies of the slots each child has, a
 * few at a time: the caller (pc_apply()) has its own vector on the stack.
 */
void pc_inherit_write(struct pc_ctx *x, const struct pfarg_pmc *pmc, int n)
{
	struct pfarg_pmc w[PC_WRITE_CHUNK];
	struct pc_child *ch;
	int i, k;

	for (ch = x->children; ch; ch = ch->next) {
		for (i = k = 0; i < n; i++) {
			if (ch->slots & PC_SLOT(pmc[i].reg_num - PFM_SW_FIRST_PMC))
				w[k++] = pmc[i];
			/* a child gone has nothing to switch; its counts stay */
			if (k && (k == PC_WRITE_CHUNK || i == n - 1)) {
				pfm_write_pmcs(ch->fd, w, k * sizeof(w[0]));
				k = 0;
			}
		}
	}
}

/* Counter slot of x is closed: its copies stop and are no longer its. */
void pc_inherit_drop(struct pc_ctx *x, int slot)
{
	struct pfarg_pmc pmc;

	memset(&pmc, 0, sizeof(pmc));
	pmc.reg_num = PFM_SW_FIRST_PMC + slot;
	pc_inherit_write(x, &pmc, 1);
	for (struct pc_child *ch = x->children; ch; ch = ch->next)
		ch->slots &= ~PC_SLOT(slot);
}

void pc_inherit_free(struct pc_ctx *x)
{
	struct pc_child *ch;

	while ((ch = x->children)) {
		x->children = ch->next;
		close(ch->fd);
		free(ch);
	}
}

/* The child's context of x, stopped and unattached, with the inherit counters. */
static int pc_fork_ctx(struct pc_ctx *x, uint64_t *slots)
{
	struct pfarg_pmc *pmc;
	struct pfarg_pmd *pmd;
	struct pc_counter *c;
	int i, n = 0, fd = -1;

	*slots = 0;
	/* a register of each kind per software counter: 14 KiB, too much for a stack */
	pmc = calloc(PC_SLOTS, sizeof(*pmc));
	pmd = calloc(PC_SLOTS, sizeof(*pmd));
	if (!pmc || !pmd)
		goto out;
	for (i = 0; i < pc_lib.len; i++) {
		c = pc_lib.tab[i];
		if (!c || c->ctx != x || !c->inherit)
			continue;
		memset(&pmc[n], 0, sizeof(pmc[n]));
		memset(&pmd[n], 0, sizeof(pmd[n]));
		pmc[n].reg_num = PFM_SW_FIRST_PMC + c->slot;
		pmc[n].reg_value = c->sel | (c->on ? PC_EN : 0);
		pmd[n].reg_num = PFM_SW_FIRST_PMD + c->slot;
		*slots |= PC_SLOT(c->slot);
		n++;
	}
	if (!n)
		goto out;
	fd = pfm_create_context(PFM_FL_CLOEXEC);
	if (fd < 0)
		goto out;
	if (pfm_write_pmds(fd, pmd, n * sizeof(pmd[0])) ||
	    pfm_write_pmcs(fd, pmc, n * sizeof(pmc[0]))) {
		close(fd);
		fd = -1;
	}
out:
	free(pmc);
	free(pmd);
	return fd;
}

/* Fork handlers; the lock is held across the fork. */
static void pc_prepare(void)
{
	pthread_t self = pthread_self();
	struct pc_ctx *x;

	pthread_mutex_lock(&pc_lib.lock);
	for (x = pc_lib.ctxs; x; x = x->next) {
		x->fork_fd = -1;
		if (x->mine && pthread_equal(x->owner, self))
			x->fork_fd = pc_fork_ctx(x, &x->fork_slots);
	}
}

static void pc_parent(void)
{
	struct pc_child *ch;
	struct pc_ctx *x;

	for (x = pc_lib.ctxs; x; x = x->next) {
		if (x->fork_fd < 0)
			continue;
		ch = malloc(sizeof(*ch));
		if (ch) {
			ch->fd = x->fork_fd;
			ch->slots = x->fork_slots;
			ch->next = x->children;
			x->children = ch;
		} else {
			close(x->fork_fd);
		}
		x->fork_fd = -1;
	}
	pthread_mutex_unlock(&pc_lib.lock);
}

/*
 * The child: its copies count it from here; the parent's contexts and children
 * are the parent's.  perf_counter_task_enable() finds the calling thread's counters
 * by pthread_self(), which a forked child's thread shares with its parent's: the
 * child has none of them.
 */
static void pc_child(void)
{
	struct pc_ctx *x;

	for (x = pc_lib.ctxs; x; x = x->next) {
		x->mine = 0;
		pc_inherit_free(x);
		if (x->fork_fd >= 0) {
			/* uncounted if it fails: nothing to report it to */
			pfm_child_ctx_adopt(x->fork_fd);
			close(x->fork_fd);
		}
		x->fork_fd = -1;
	}
	pthread_mutex_unlock(&pc_lib.lock);
}

int pc_inherit_atfork(void)
{
	if (!pc_lib.atfork && !pthread_atfork(pc_prepare, pc_parent, pc_child))
		pc_lib.atfork = 1;
	return pc_lib.atfork ? 0 : ENOMEM;
}
