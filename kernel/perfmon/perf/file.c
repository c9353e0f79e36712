// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the file of a perf event opened through pfm_perf_event_open(): read(),
 * ioctl(), mmap(), poll() and close() as perf_event_open(2) describes them.
 *
 * read() gives the read_format layout, exactly its size (ENOSPC for a shorter
 * buffer), also after the monitored thread exited.  With PERF_FORMAT_GROUP it
 * reads the whole group, leader first, with the times of the leader.  LOST is
 * always 0: a counting event loses nothing.
 *
 * mmap() of one page gives the perf_event_mmap_page of a software event: index 0
 * (no user-mode counter read), the count in offset, the times; refreshed at
 * each read().  1 + 2^n pages add the ring the event's records go to
 * (ring.c).
 * poll() says POLLHUP, as perf_events does, for an event without a ring and
 * once the monitored thread has exited.  SET_OUTPUT: output.c.
 */
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/poll.h>

#include "layer.h"
#include "breakpoint.h"
#include "event.h"
#include "file.h"
#include "inherit.h"
#include "ring.h"
#include "sample.h"
#include "sched.h"

static const struct file_operations pfm_perf_fops;

struct pfm_perf_event *pfm_perf_event_from_file(struct file *file)
{
	return file->f_op == &pfm_perf_fops ? file->private_data : NULL;
}

/* Number of u64 in a read of ev with its read_format. */
static unsigned int pfm_perf_read_words(const struct pfm_perf_event *ev)
{
	u64 rf = ev->attr.read_format;
	unsigned int entry = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	unsigned int n = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (rf & PERF_FORMAT_GROUP)
		return 1 + n + (1 + ev->leader->nr_siblings) * entry;
	return n + entry;
}

/* The events a read of ev reports, leader first for a group read. */
static unsigned int pfm_perf_read_events(struct pfm_perf_event *ev,
					 struct pfm_perf_event **evs)
{
	struct pfm_perf_event *sib;
	unsigned int n = 0;

	if (!(ev->attr.read_format & PERF_FORMAT_GROUP)) {
		evs[n++] = ev;
		return n;
	}
	evs[n++] = ev->leader;
	list_for_each_entry(sib, &ev->leader->siblings, sibling_entry)
		evs[n++] = sib;
	return n;
}

/* read_format's head: the value or, with GROUP, the number of values; the times. */
unsigned int pfm_perf_read_head(u64 rf, u64 first, u64 ena, u64 run, u64 *w)
{
	unsigned int n = 0;

	w[n++] = first;
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		w[n++] = ena;
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		w[n++] = run;
	return n;
}

/* What follows each value: its id, its lost count (none is lost here). */
unsigned int pfm_perf_read_tail(u64 rf, u64 id, u64 *w)
{
	unsigned int n = 0;

	if (rf & PERF_FORMAT_ID)
		w[n++] = id;
	if (rf & PERF_FORMAT_LOST)
		w[n++] = 0;
	return n;
}

/*
 * Lays out what read() returns for ev, from the values of the events
 * pfm_perf_read_events() listed (the first one's times are the group's).
 */
static void pfm_perf_layout(const struct pfm_perf_event *ev, struct pfm_perf_event **evs,
			    const struct pfm_perf_value *vals, unsigned int nr, u64 *buf)
{
	u64 rf = ev->attr.read_format;
	bool group = rf & PERF_FORMAT_GROUP;
	unsigned int n, i;

	n = pfm_perf_read_head(rf, group ? nr : vals[0].count, vals[0].ena_ns, vals[0].run_ns,
			       buf);
	for (i = 0; i < nr; i++) {
		if (group)
			buf[n++] = vals[i].count;
		n += pfm_perf_read_tail(rf, evs[i]->id, buf + n);
	}
}

/*
 * The family lock first (inherited copies live in other contexts, whose locks
 * are taken one at a time after this one's), then the event's context.
 */
static ssize_t pfm_perf_read(struct file *file, char __user *ubuf, size_t count,
			     loff_t *pos)
{
	struct pfm_perf_event *ev = file->private_data, **evs = NULL;
	struct pfm_context *ctx = ev->target->ctx;
	struct pfm_perf_value *vals = NULL;
	unsigned int nr = 0, i;
	u64 *buf = NULL;
	size_t size;
	int ret;

	mutex_lock(&pfm_perf_family_mutex);
	mutex_lock(pfm_ctx_mutex(ctx));
	size = pfm_perf_read_words(ev) * sizeof(u64);
	/* end of file for a pinned group in ERROR, before the size (6.1's __perf_read()) */
	ret = 0;
	if (ev->error)
		size = 0;
	else if (count < size)
		ret = -ENOSPC;
	if (ret || !size)
		goto out_ctx;
	ret = -ENOMEM;
	nr = 1 + ev->leader->nr_siblings;
	evs = kcalloc(nr, sizeof(*evs), GFP_KERNEL);
	vals = kcalloc(nr, sizeof(*vals), GFP_KERNEL);
	buf = kmalloc(size, GFP_KERNEL);
	if (!evs || !vals || !buf)
		goto out_ctx;
	nr = pfm_perf_read_events(ev, evs);
	for (i = 0, ret = 0; i < nr && !ret; i++)
		ret = pfm_perf_event_value(evs[i], &vals[i]);
	mutex_unlock(pfm_ctx_mutex(ctx));
	for (i = 0; i < nr && !ret; i++)
		pfm_perf_children_value(evs[i], &vals[i]);
	/* the members cannot go while the family lock is held */
	if (!ret) {
		mutex_lock(pfm_ctx_mutex(ctx));
		for (i = 0; i < nr; i++)
			if (evs[i] == ev)
				pfm_perf_update_page(ev, &vals[i]);
		pfm_perf_layout(ev, evs, vals, nr, buf);
		mutex_unlock(pfm_ctx_mutex(ctx));
	}
	mutex_unlock(&pfm_perf_family_mutex);
	if (!ret && copy_to_user(ubuf, buf, size))
		ret = -EFAULT;
	goto out;

out_ctx:
	mutex_unlock(pfm_ctx_mutex(ctx));
	mutex_unlock(&pfm_perf_family_mutex);
out:
	kfree(buf);
	kfree(vals);
	kfree(evs);
	return ret ? ret : size;
}

/* Enable or disable, synced by the caller (pfm_perf_target_sync()). */
static int pfm_perf_op_enable(struct pfm_perf_event *ev, bool on)
{
	pfm_perf_event_mark(ev, on);
	return 0;
}

static int pfm_perf_op_reset(struct pfm_perf_event *ev, bool unused)
{
	return pfm_perf_event_reset(ev);
}

/* fn on ev, or on its whole group, then their counters in one vector. */
static int pfm_perf_apply_events(struct pfm_perf_event *ev, pfm_perf_op fn, bool on,
				 u32 flags)
{
	struct pfm_perf_event *leader = ev->leader, *sib;
	int ret;

	if (!(flags & PERF_IOC_FLAG_GROUP)) {
		ret = fn(ev, on);
	} else {
		ret = fn(leader, on);
		list_for_each_entry(sib, &leader->siblings, sibling_entry)
			ret = ret ?: fn(sib, on);
	}
	return ret ?: pfm_perf_target_sync(ev->target);
}

/*
 * ENABLE, DISABLE, RESET: on ev (and its copies), or its whole group.  Under the
 * family lock, which keeps the group as it is (events leave it only when freed).
 */
static long pfm_perf_apply(struct pfm_perf_event *ev, pfm_perf_op fn, bool on, u32 flags)
{
	struct pfm_context *ctx = ev->target->ctx;
	struct pfm_perf_event *leader, *sib;
	int ret;

	mutex_lock(&pfm_perf_family_mutex);
	mutex_lock(pfm_ctx_mutex(ctx));
	ret = pfm_perf_apply_events(ev, fn, on, flags);
	mutex_unlock(pfm_ctx_mutex(ctx));
	if (!ret && !(flags & PERF_IOC_FLAG_GROUP)) {
		pfm_perf_children_apply(ev, fn, on);
	} else if (!ret) {
		leader = ev->leader;
		pfm_perf_children_apply(leader, fn, on);
		list_for_each_entry(sib, &leader->siblings, sibling_entry)
			pfm_perf_children_apply(sib, fn, on);
	}
	mutex_unlock(&pfm_perf_family_mutex);
	return ret;
}

/* prctl(PR_TASK_PERF_EVENTS_*) on an event its caller opened: ENABLE or DISABLE, 0 */
void pfm_perf_event_enable(struct pfm_perf_event *ev, bool on)
{
	pfm_perf_apply(ev, pfm_perf_op_enable, on, 0);
}

/* SET_OUTPUT's argument: -1, or an fd of this layer (EBADF otherwise). */
static long pfm_perf_ioc_set_output(struct pfm_perf_event *ev, unsigned long arg)
{
	struct pfm_perf_event *out;
	struct fd f;
	long ret;

	if ((int)arg == -1)
		return pfm_perf_set_output(ev, NULL);
	f = fdget((int)arg);
	if (!f.file)
		return -EBADF;
	out = pfm_perf_event_from_file(f.file);
	ret = out ? pfm_perf_set_output(ev, out) : -EBADF;
	fdput(f);
	return ret;
}

static long pfm_perf_modify(struct pfm_perf_event *ev, unsigned long arg)
{
	struct perf_event_attr attr;
	int ret;

	ret = pfm_perf_copy_attr((struct perf_event_attr __user *)arg, &attr);
	if (ret)
		return ret;
	if (attr.type != ev->attr.type)
		return -EINVAL;
	return pfm_perf_bp_modify(ev, &attr);	/* only breakpoints can be modified */
}

static long pfm_perf_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pfm_perf_event *ev = file->private_data;
	void __user *uarg = (void __user *)arg;
	u64 value;
	struct fd f;
	long ret;

	switch (cmd) {
	case PERF_EVENT_IOC_ENABLE:
		return pfm_perf_apply(ev, pfm_perf_op_enable, true, arg);
	case PERF_EVENT_IOC_DISABLE:
		return pfm_perf_apply(ev, pfm_perf_op_enable, false, arg);
	case PERF_EVENT_IOC_RESET:
		return pfm_perf_apply(ev, pfm_perf_op_reset, false, arg);
	case PERF_EVENT_IOC_REFRESH:
		ret = pfm_perf_refresh(ev, arg);
		return ret ?: pfm_perf_apply(ev, pfm_perf_op_enable, true, 0);
	case PERF_EVENT_IOC_PERIOD:
		if (copy_from_user(&value, uarg, sizeof(value)))
			return -EFAULT;
		return pfm_perf_sample_period(ev, value);
	case PERF_EVENT_IOC_ID:
		if (copy_to_user(uarg, &ev->id, sizeof(ev->id)))
			return -EFAULT;
		return 0;
	case PERF_EVENT_IOC_SET_OUTPUT:
		return pfm_perf_ioc_set_output(ev, arg);
	case PERF_EVENT_IOC_SET_FILTER:
		return pfm_perf_ioc_set_filter(ev, uarg);
	case PERF_EVENT_IOC_SET_BPF:
		f = fdget((int)arg);
		if (!f.file)
			return -EBADF;
		fdput(f);
		return -EINVAL;		/* not a BPF program, or no place for one */
	case PERF_EVENT_IOC_PAUSE_OUTPUT:
		return pfm_perf_ring_pause(ev, arg);
	case PERF_EVENT_IOC_QUERY_BPF:
		return -EINVAL;		/* not a tracepoint */
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		return pfm_perf_modify(ev, arg);
	}
	return -ENOTTY;
}

static __poll_t pfm_perf_poll(struct file *file, poll_table *wait)
{
	struct pfm_perf_event *ev = file->private_data;
	struct pfm_context *ctx = ev->target->ctx;

	/* The core wakes this queue with the end message of the thread's exit. */
	poll_wait(file, pfm_ctx_msg_wait(ctx), wait);
	if (!pfm_ctx_is_loaded(ctx))
		return EPOLLHUP;
	return pfm_perf_ring_poll(ev, file, wait);
}

/*
 * No ctx->mutex here: mmap_lock is held, and attaching takes the mutex first and
 * mmap_lock after (exec's locks).  The ring is output.c's; read() fills
 * its user page under the mutex.
 */
static int pfm_perf_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct pfm_perf_event *ev = file->private_data;

	/* as perf_mmap(): every copy of an inherit event on any CPU would write one ring */
	if (ev->cpu == -1 && ev->attr.inherit)
		return -EINVAL;
	if (vma->vm_pgoff || !(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	return pfm_perf_output_mmap(file->private_data, vma);
}

/*
 * The event leaves its target: a leader's members become leaders of their own
 * (as perf_events does), the counter is given back.  ctx->mutex held.
 */
void pfm_perf_event_unlink(struct pfm_perf_event *ev)
{
	struct pfm_context *ctx = ev->target->ctx;
	struct pfm_perf_event *sib, *tmp;
	unsigned long flags;

	/* the group's list under ctx->lock too: a sample reads the group */
	if (ev->leader != ev) {
		raw_spin_lock_irqsave(pfm_ctx_lock(ctx), flags);
		list_del_init(&ev->sibling_entry);
		ev->leader->nr_siblings--;
		ev->leader = ev;
		raw_spin_unlock_irqrestore(pfm_ctx_lock(ctx), flags);
	} else {
		list_for_each_entry_safe(sib, tmp, &ev->siblings, sibling_entry) {
			raw_spin_lock_irqsave(pfm_ctx_lock(ctx), flags);
			list_del_init(&sib->sibling_entry);
			ev->nr_siblings--;
			sib->leader = sib;
			raw_spin_unlock_irqrestore(pfm_ctx_lock(ctx), flags);
			pfm_perf_sched_orphan(sib);
			pfm_perf_event_set_enabled(sib, sib->enabled);
		}
		ev->nr_siblings = 0;
	}
	pfm_perf_target_del(ev);
	pfm_perf_cgroup_unlink(ev);
	pfm_perf_event_teardown(ev);
	pfm_perf_bp_put(ev);
}

/*
 * Frees an event that pfm_perf_open_event() linked, and its inherited copies.
 * Under the family lock, so that a fork copying it either finished (and its copy
 * is dropped here) or finds it gone from its target.
 */
void pfm_perf_event_free(struct pfm_perf_event *ev)
{
	struct pfm_perf_target *t = ev->target;

	pfm_perf_owner_del(ev);		/* before the family lock: prctl.c's order */
	mutex_lock(&pfm_perf_family_mutex);
	pfm_perf_children_drop(ev);
	mutex_lock(pfm_ctx_mutex(t->ctx));
	pfm_perf_event_unlink(ev);
	mutex_unlock(pfm_ctx_mutex(t->ctx));
	mutex_unlock(&pfm_perf_family_mutex);
	pfm_perf_filter_release(ev);
	pfm_perf_output_release(ev);
	pfm_perf_async_release(ev);
	pfm_perf_cgroup_put(ev);
	pfm_perf_event_dealloc(ev);
	pfm_perf_target_put(t);
}

static int pfm_perf_release(struct inode *inode, struct file *file)
{
	pfm_perf_event_free(file->private_data);
	return 0;
}

static const struct file_operations pfm_perf_fops = {
	.owner = THIS_MODULE,
	.read = pfm_perf_read,
	.poll = pfm_perf_poll,
	.unlocked_ioctl = pfm_perf_ioctl,
	.compat_ioctl = pfm_perf_ioctl,
	.mmap = pfm_perf_mmap,
	.fasync = pfm_perf_fasync,
	.release = pfm_perf_release,
	.llseek = no_llseek,
};

/* The event's file at fd (reserved by the caller); 0 or an errno. */
int pfm_perf_install_fd(struct pfm_perf_event *ev, int fd)
{
	struct file *file;

	file = anon_inode_getfile("[perf_event]", &pfm_perf_fops, ev, O_RDWR);
	if (IS_ERR(file))
		return PTR_ERR(file);
	fd_install(fd, file);
	return 0;
}
