// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: pfm_perf_event_open(), perf_event_open(2) answered by perfmon.
 *
 * The arguments are checked in the order Linux 6.1 checks them, so that a call
 * with several faults gets the errno perf_event_open(2) would give:
 *
 *   unknown flags EINVAL; the attr (EFAULT, E2BIG with the supported size
 *   written back, EINVAL); paranoid 3 EACCES; kernel level without privilege
 *   EACCES; frequency or period EINVAL; a free fd (EMFILE); group_fd EBADF; pid
 *   ESRCH; leader inherit mismatch EINVAL; cpu EINVAL; type and config ENOENT;
 *   what the layer does not do (sample bits, branch stacks, aux, sampling CPU
 *   events) EOPNOTSUPP; CPU events: privilege EACCES, CPU offline ENODEV; group
 *   rules EINVAL; the thread's context (EACCES, EBUSY, EMFILE) or the CPU's
 *   session (EACCES where the CPU has a session of someone else's); a hardware
 *   event's counter (EBUSY while sessions of the other kind hold the hardware).
 *
 * Privilege is perfmon's (/sys/kernel/perfmon/paranoid and CAP_PERFMON), its
 * refusals given as EACCES, the errno perf tools fall back on.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>

#include "layer.h"
#include "breakpoint.h"
#include "counters.h"
#include "event.h"
#include "file.h"
#include "inherit.h"
#include "perf.h"
#include "ring.h"
#include "sample.h"
#include "sideband.h"

#define PFM_PERF_FLAG_ALL	(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | \
				 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC)

static int pfm_perf_check_branch(struct perf_event_attr *attr)
{
	u64 mask = attr->branch_sample_type;

	if (mask & ~(PERF_SAMPLE_BRANCH_MAX - 1))
		return -EINVAL;
	if (!(mask & ~PERF_SAMPLE_BRANCH_PLM_ALL))
		return -EINVAL;
	return 0;
}

/* perf_copy_attr()'s checks: size, reserved fields, known bits, combinations. */
int pfm_perf_copy_attr(struct perf_event_attr __user *uattr, struct perf_event_attr *attr)
{
	u32 size;
	int ret;

	memset(attr, 0, sizeof(*attr));
	if (get_user(size, &uattr->size))
		return -EFAULT;
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > PAGE_SIZE)
		goto err_size;
	ret = copy_struct_from_user(attr, sizeof(*attr), uattr, size);
	if (ret == -E2BIG)
		goto err_size;
	if (ret)
		return ret;
	attr->size = size;

	if (attr->__reserved_1 || attr->__reserved_2 || attr->__reserved_3)
		return -EINVAL;
	if (attr->sample_type & ~(PERF_SAMPLE_MAX - 1))
		return -EINVAL;
	if (attr->read_format & ~(PERF_FORMAT_MAX - 1))
		return -EINVAL;
	if (attr->sample_type & PERF_SAMPLE_BRANCH_STACK) {
		ret = pfm_perf_check_branch(attr);
		if (ret)
			return ret;
	}
	if (attr->sample_type & PERF_SAMPLE_REGS_USER) {
		ret = pfm_perf_regs_check(attr->sample_regs_user);
		if (ret)
			return ret;
	}
	if (attr->sample_type & PERF_SAMPLE_STACK_USER) {
		if (attr->sample_stack_user >= USHRT_MAX ||
		    !IS_ALIGNED(attr->sample_stack_user, sizeof(u64)))
			return -EINVAL;
	}
	/* 6.1 checks these first and answers for the registers last */
	ret = attr->sample_type & PERF_SAMPLE_REGS_INTR ?
	      pfm_perf_regs_check(attr->sample_regs_intr) : 0;
	if (!IS_ENABLED(CONFIG_CGROUP_PERF) && (attr->sample_type & PERF_SAMPLE_CGROUP))
		return -EINVAL;
	if ((attr->sample_type & PERF_SAMPLE_WEIGHT) &&
	    (attr->sample_type & PERF_SAMPLE_WEIGHT_STRUCT))
		return -EINVAL;
	if (!attr->inherit && attr->inherit_thread)
		return -EINVAL;
	if (attr->remove_on_exec && attr->enable_on_exec)
		return -EINVAL;
	if (attr->sigtrap && !attr->remove_on_exec)
		return -EINVAL;
	return ret;

err_size:
	if (put_user((u32)sizeof(*attr), &uattr->size))
		return -EFAULT;
	return -E2BIG;
}

/* Kernel-level counting: the OS bit of the software PMU needs what it needs. */
static int pfm_perf_allow_kernel(void)
{
	const struct pfm_reg *r = &pfm_pmu.pmc[PFM_SW_FIRST_PMC];

	return pfm_access_pmc(r->desc, PFM_SW_PMC_OS) ? -EACCES : 0;
}

/* The checks made before a file descriptor is taken. */
static int pfm_perf_check_attr(const struct perf_event_attr *attr, int pid, int cpu,
			       unsigned long flags)
{
	if (pfm_access_create(0))
		return -EACCES;
	if (!attr->exclude_kernel || attr->text_poke) {
		if (pfm_perf_allow_kernel())
			return -EACCES;
	}
	if (attr->namespaces && !perfmon_capable())
		return -EACCES;
	if (attr->freq) {
		if (attr->sample_freq > READ_ONCE(pfm_perf_max_sample_rate))
			return -EINVAL;
	} else if (attr->sample_period & (1ULL << 63)) {
		return -EINVAL;
	}
	if (attr->sample_type & PERF_SAMPLE_PHYS_ADDR) {
		if (pfm_perf_allow_kernel())
			return -EACCES;
	}
	if ((flags & PERF_FLAG_PID_CGROUP) && (pid == -1 || cpu == -1))
		return -EINVAL;
	return 0;
}

/* A thread perf_event_open() may name: pid 0 is the caller; not one exiting. */
static struct task_struct *pfm_perf_find_task(int pid)
{
	struct task_struct *task;

	if (!pid) {
		get_task_struct(current);
		return current;
	}
	if (pid < 0)
		return ERR_PTR(-ESRCH);
	task = pfm_find_task(pid);
	if (IS_ERR(task))
		return task;
	if (task->flags & PF_EXITING) {
		put_task_struct(task);
		return ERR_PTR(-ESRCH);
	}
	return task;
}

/*
 * perf_trace_event_perm(): a tracepoint's raw records (PERF_SAMPLE_RAW) need
 * perf_allow_tracepoint() (paranoid -1 or CAP_PERFMON, else EPERM), but for a
 * thread's events of the trace events marked for any user (the system call
 * ones), which the trace layer tells (an id that names no trace event is its
 * EINVAL, before any privilege is asked).
 */
static int pfm_perf_tp_perm(const struct perf_event_attr *attr, struct task_struct *task)
{
	int ret;

	if (!(attr->sample_type & PERF_SAMPLE_RAW))
		return 0;
	if (pfm_paranoid_level() <= -1 || perfmon_capable())
		return 0;
	ret = pfm_sw_keyed_any_user(PFM_SW_EV_TRACEPOINT, attr->config);
	if (ret < 0)
		return ret;
	return ret && task ? 0 : -EPERM;
}

/*
 * The type and config: software events here, perf's hardware ones (HARDWARE,
 * HW_CACHE, RAW, a hybrid machine's cpu_atom type) on the hardware PMU if there
 * is one (ENOENT otherwise, as perf_events answers without a PMU, and for a
 * type it does not serve), tracepoints by their trace layer's source
 * (trace/), breakpoints where the kernel has the hardware breakpoint service
 * (their own checks are the service's, when the event takes its breakpoint:
 * breakpoint.c).
 */
static int pfm_perf_check_type(const struct perf_event_attr *attr, struct task_struct *task,
			       int cpu)
{
	struct pfm_perf_enc enc;

	switch (attr->type) {
	case PERF_TYPE_SOFTWARE:
		return attr->config >= PERF_COUNT_SW_MAX ? -ENOENT : 0;
	case PERF_TYPE_TRACEPOINT:
		/*
		 * perf_trace_init(): no trace event has that id (the keys of
		 * filtered hits are none); the source checks the rest
		 */
		return attr->config >= PFM_SW_TP_FILTERED ? -EINVAL : pfm_perf_tp_perm(attr, task);
	case PERF_TYPE_BREAKPOINT:
		return pfm_perf_bp_served() ? 0 : -ENOENT;
	}
	/*
	 * HARDWARE, HW_CACHE, RAW, and the type numbers of a hybrid machine's
	 * PMUs: the hardware PMU's; an offline CPU is refused later (ENODEV)
	 */
	return pfm_perf_hw_encode(attr, cpu >= 0 && cpu_online(cpu) ? cpu : -1, &enc);
}

/* What perf_event_alloc() and the context lookup refuse, in their order. */
static int pfm_perf_check_event(const struct perf_event_attr *attr,
				struct task_struct *task, int cpu,
				const struct pfm_perf_event *leader, unsigned long flags)
{
	int ret;

	if ((unsigned int)cpu >= nr_cpu_ids && (!task || cpu != -1))
		return -EINVAL;
	if (attr->sigtrap && !task)
		return -EINVAL;
	if (attr->inherit && (attr->sample_type & PERF_SAMPLE_READ))
		return -EINVAL;
	ret = pfm_perf_check_type(attr, task, cpu);
	if (ret)
		return ret;
	if (attr->sample_type & PERF_SAMPLE_BRANCH_STACK)
		return -EOPNOTSUPP;
	if (attr->aux_output)
		return -EOPNOTSUPP;
	ret = pfm_perf_sample_check(attr);
	if (ret)
		return ret;
	if (!task) {
		/* 6.1's perf_allow_cpu(): paranoid > 0 without CAP_PERFMON */
		if (pfm_access_create(PFM_FL_SYSTEM_WIDE))
			return -EACCES;
	}
	if (leader) {
		if (leader->leader != leader || leader->cpu != cpu)
			return -EINVAL;
		if (leader->target->task != task)
			return -EINVAL;
		if (attr->exclusive || attr->pinned)
			return -EINVAL;
	}
	/* 6.1 refuses a CPU context that is not online after the group rules */
	if (!task && !cpu_online(cpu))
		return -ENODEV;
	/* a snapshot of an AUX area needs an AUX event leading the group: none here */
	if (attr->aux_sample_size)
		return -EINVAL;
	return 0;
}

/*
 * The new event on its target, linked into its group, its counters not yet in
 * line with its state (the caller syncs the target); ctx->mutex held.
 */
int pfm_perf_event_attach(struct pfm_perf_event *ev, struct pfm_perf_event *leader)
{
	unsigned long flags;
	int ret;

	if (leader) {
		ret = pfm_perf_group_read_check(ev, leader);
		if (ret)
			return ret;
	}
	ret = pfm_perf_mmap_queue_get(ev->target, &ev->attr);
	if (ret)
		return ret;
	ret = pfm_perf_bp_get(ev);
	if (ret)
		return ret;
	ret = pfm_perf_event_setup(ev->target, ev, leader);
	if (ret)
		goto err_bp;
	ret = pfm_perf_cgroup_link(ev);
	if (ret) {
		pfm_perf_event_teardown(ev);
		goto err_bp;
	}
	if (leader) {
		/* under ctx->lock too: a sample reads the group (sample.c) */
		raw_spin_lock_irqsave(pfm_ctx_lock(ev->target->ctx), flags);
		ev->leader = leader;
		list_add_tail(&ev->sibling_entry, &leader->siblings);
		leader->nr_siblings++;
		raw_spin_unlock_irqrestore(pfm_ctx_lock(ev->target->ctx), flags);
	}
	pfm_perf_target_add(ev);
	if (ev->exec_armed || ev->attr.remove_on_exec)
		pfm_perf_exec_arm(ev->target);
	return 0;

err_bp:
	pfm_perf_bp_put(ev);
	return ret;
}

/* The new event on its target, linked into its group; ctx->mutex held. */
int pfm_perf_event_link(struct pfm_perf_event *ev, struct pfm_perf_event *leader)
{
	int ret;

	ret = pfm_perf_event_attach(ev, leader);
	if (ret)
		return ret;
	ret = pfm_perf_event_set_enabled(ev, ev->enabled);
	if (ret)
		pfm_perf_event_unlink(ev);
	return ret;
}

/* an event is some 750 bytes, which kmalloc would round up to 1024 */
PFM_DEFINE_CACHE(pfm_perf_event_cache, pfm_perf_event)

struct pfm_perf_event *pfm_perf_event_alloc(const struct perf_event_attr *attr)
{
	struct pfm_perf_event *ev;

	ev = kmem_cache_zalloc(pfm_perf_event_cache, GFP_KERNEL);
	if (!ev)
		return NULL;
	ev->attr = *attr;
	ev->leader = ev;
	INIT_LIST_HEAD(&ev->siblings);
	INIT_LIST_HEAD(&ev->sibling_entry);
	INIT_LIST_HEAD(&ev->entry);
	INIT_LIST_HEAD(&ev->children);
	INIT_LIST_HEAD(&ev->child_entry);
	INIT_LIST_HEAD(&ev->owner_entry);
	INIT_LIST_HEAD(&ev->gate_entry);
	INIT_LIST_HEAD(&ev->sb_entry);
	ev->id = pfm_perf_new_id();
	ev->counter = -1;
	ev->cpu = -1;
	ev->enabled = !attr->disabled;
	ev->on_since = local_clock();
	ev->exec_armed = attr->disabled && attr->enable_on_exec;
	pfm_perf_output_init(ev);
	pfm_perf_async_init(ev);
	return ev;
}

/* Everything past the fd: the event on its thread's target, then its file. */
static long pfm_perf_open_event(const struct perf_event_attr *attr, int pid, int cpu,
				struct pfm_perf_event *leader, struct pfm_perf_event *output,
				unsigned long flags, int fd)
{
	struct pfm_perf_target *t;
	struct pfm_perf_event *ev;
	struct task_struct *task = NULL;
	long ret;

	if (pid != -1 && !(flags & PERF_FLAG_PID_CGROUP)) {
		task = pfm_perf_find_task(pid);
		if (IS_ERR(task))
			return PTR_ERR(task);
	}
	ret = -EINVAL;
	if (task && leader && leader->attr.inherit != attr->inherit)
		goto out_task;
	ret = pfm_perf_check_event(attr, task, cpu, leader, flags);
	if (ret)
		goto out_task;
	ret = -ENOMEM;
	ev = pfm_perf_event_alloc(attr);
	if (!ev)
		goto out_task;
	ev->cpu = cpu;
	if (flags & PERF_FLAG_PID_CGROUP) {
		struct cgroup *cgrp = pfm_perf_cgroup_get(pid, leader);

		if (IS_ERR(cgrp)) {
			ret = PTR_ERR(cgrp);
			pfm_perf_event_dealloc(ev);
			goto out_task;
		}
		ev->cgrp = cgrp;
	}
	if (!task) {
		/* a CPU has no children to inherit to and no exec to wait for */
		ev->attr.inherit = 0;
		ev->exec_armed = false;
	}
	if (leader) {
		t = leader->target;
		refcount_inc(&t->ref);
	} else {
		t = pfm_perf_target_get(task, cpu);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			pfm_perf_cgroup_put(ev);
			pfm_perf_event_dealloc(ev);
			goto out_task;
		}
	}
	ev->target = t;
	mutex_lock(pfm_ctx_mutex(t->ctx));
	ret = pfm_perf_event_link(ev, leader);
	mutex_unlock(pfm_ctx_mutex(t->ctx));
	if (ret) {
		pfm_perf_target_put(t);
		pfm_perf_cgroup_put(ev);
		pfm_perf_event_dealloc(ev);
		goto out_task;
	}
	/* PERF_FLAG_FD_OUTPUT: into group_fd's ring, with SET_OUTPUT's rules */
	ret = output ? pfm_perf_set_output(ev, output) : 0;
	/* the opener's: its prctl(PR_TASK_PERF_EVENTS_*) reaches it (prctl.c) */
	if (!ret)
		ret = pfm_perf_owner_add(ev);
	if (!ret)
		ret = pfm_perf_install_fd(ev, fd);
	if (ret)
		pfm_perf_event_free(ev);
out_task:
	if (task)
		put_task_struct(task);
	return ret;
}

long pfm_perf_event_open(struct perf_event_attr __user *uattr, int pid, int cpu,
			 int group_fd, unsigned long flags)
{
	struct pfm_perf_event *leader = NULL, *output = NULL;
	struct perf_event_attr attr;
	struct fd group = {};
	long ret;
	int fd;

	if (flags & ~PFM_PERF_FLAG_ALL)
		return -EINVAL;
	ret = pfm_perf_copy_attr(uattr, &attr);
	if (ret)
		return ret;
	ret = pfm_perf_check_attr(&attr, pid, cpu, flags);
	if (ret)
		return ret;
	fd = get_unused_fd_flags(O_RDWR | (flags & PERF_FLAG_FD_CLOEXEC ? O_CLOEXEC : 0));
	if (fd < 0)
		return fd;
	if (group_fd != -1) {
		group = fdget(group_fd);
		ret = -EBADF;
		if (!group.file)
			goto err_fd;
		leader = pfm_perf_event_from_file(group.file);
		if (!leader)
			goto err_group;
		if (flags & PERF_FLAG_FD_OUTPUT)
			output = leader;
		if (flags & PERF_FLAG_FD_NO_GROUP)
			leader = NULL;
	}
	ret = pfm_perf_open_event(&attr, pid, cpu, leader, output, flags, fd);
	if (ret)
		goto err_group;
	fdput(group);
	return fd;

err_group:
	fdput(group);
err_fd:
	put_unused_fd(fd);
	return ret;
}

/* The call's row: (attr, pid, cpu, group_fd, flags), widened as the row says. */
static long pfm_perf_event_open_call(const struct pfm_args *args)
{
	const unsigned long *a = args->a;

	return pfm_perf_event_open((struct perf_event_attr __user *)a[0], (int)a[1],
				   (int)a[2], (int)a[3], a[4]);
}

void pfm_perf_event_dealloc(struct pfm_perf_event *ev)
{
	kmem_cache_free(pfm_perf_event_cache, ev);
}

int pfm_perf_open_init(void)
{
	int ret;

	ret = pfm_perf_event_cache_init();
	if (ret)
		return ret;
	ret = pfm_entry_register(PFM_CALL_PERF_EVENT_OPEN, pfm_perf_event_open_call);
	if (ret)
		pfm_perf_event_cache_exit();
	return ret;
}

/* No event is left once the call is gone: each holds the module through its file. */
void pfm_perf_open_exit(void)
{
	pfm_entry_unregister(PFM_CALL_PERF_EVENT_OPEN);
	pfm_perf_event_cache_exit();
}
