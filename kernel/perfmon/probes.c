// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: tracepoint probes attached while something needs them (probes.h).
 *
 * Attaching a probe patches kernel text and detaching one waits for the
 * tracepoint's callers: both cost far more than a session, and a tool that opens
 * one session after another (perf record's per-CPU events, run after run) would
 * pay them every time, in the thread that opens or closes.  So a set of probes is
 * attached by its first user, in the user's process context, and detached a
 * second after its last user went, from a work item (the last user can go in
 * atomic context).  A probe that runs with no user must do nothing: each tells by
 * pfm_probe_set_users() or by state of its own.  perf_events defers its
 * context-switch hooks the same way.
 */
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

#include "internal.h"
#include "probes.h"

#define PFM_PROBES_LINGER	HZ

/* Every set's attachments, one at a time. */
static DEFINE_MUTEX(pfm_probes_mutex);

static void pfm_probe_set_off_locked(struct pfm_probe_set *s, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		tracepoint_probe_unregister(s->probes[i].tp, s->probes[i].func, NULL);
	s->on = false;
	if (s->attached)
		s->attached(false);
}

static void pfm_probe_set_workfn(struct work_struct *work)
{
	struct pfm_probe_set *s = container_of(to_delayed_work(work), struct pfm_probe_set, off);

	mutex_lock(&pfm_probes_mutex);
	if (!atomic_read(&s->users) && s->on)
		pfm_probe_set_off_locked(s, s->count);
	mutex_unlock(&pfm_probes_mutex);
}

static void pfm_probe_find(struct tracepoint *tp, void *priv)
{
	struct pfm_probe_set *s = priv;
	unsigned int i;

	for (i = 0; i < s->count; i++)
		if (!strcmp(tp->name, s->probes[i].name))
			s->probes[i].tp = tp;
}

int pfm_probe_set_init(struct pfm_probe_set *s)
{
	unsigned int i;

	atomic_set(&s->users, 0);
	s->on = false;
	INIT_DELAYED_WORK(&s->off, pfm_probe_set_workfn);
	for_each_kernel_tracepoint(pfm_probe_find, s);
	for (i = 0; i < s->count; i++)
		if (!s->probes[i].tp)
			return -ENOENT;
	return 0;
}

/*
 * One more user: the probes attached before this returns.  The user counts even
 * when attaching fails (the probes stay off): it gives its use back with
 * pfm_probe_set_put() either way.  Process context.
 */
int pfm_probe_set_get(struct pfm_probe_set *s)
{
	unsigned int i;
	int ret = 0;

	atomic_inc(&s->users);
	mutex_lock(&pfm_probes_mutex);
	if (s->on)
		goto out;
	for (i = 0; i < s->count; i++) {
		ret = s->probes[i].tp ?
		      tracepoint_probe_register(s->probes[i].tp, s->probes[i].func, NULL) :
		      -ENOENT;
		if (ret) {
			pfm_probe_set_off_locked(s, i);
			goto out;
		}
	}
	s->on = true;
	if (s->attached)
		s->attached(true);
out:
	mutex_unlock(&pfm_probes_mutex);
	return ret;
}

/* Any context but under the runqueue lock (it may queue a work item). */
void pfm_probe_set_put(struct pfm_probe_set *s)
{
	/* a second after the last of the users, however many came and went */
	if (atomic_dec_and_test(&s->users))
		mod_delayed_work(system_wq, &s->off, PFM_PROBES_LINGER);
}

/*
 * No user is left: the probes off now.  A probe may still be running on another
 * CPU until tracepoint_synchronize_unregister(), which the caller runs once for
 * all its sets.
 */
void pfm_probe_set_exit(struct pfm_probe_set *s)
{
	cancel_delayed_work_sync(&s->off);
	mutex_lock(&pfm_probes_mutex);
	if (s->on)
		pfm_probe_set_off_locked(s, s->count);
	mutex_unlock(&pfm_probes_mutex);
}
