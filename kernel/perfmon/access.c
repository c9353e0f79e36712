// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: who may create which session, attach to which thread, and count at kernel
 * level.
 *
 * /sys/kernel/perfmon/paranoid, like perf_event_paranoid:
 *   -1  no restriction
 *    0  CPU (system-wide) sessions and kernel-level counting open to every user
 *    1  CPU sessions need CAP_PERFMON; kernel-level counting open
 *    2  CPU sessions and kernel-level counting need CAP_PERFMON (default)
 *    3  every session needs CAP_PERFMON
 * CAP_SYS_ADMIN is accepted wherever CAP_PERFMON is (perfmon_capable()).
 *
 * /sys/kernel/perfmon/sys_group and task_group: when not -1, only members of that
 * group (or perfmon-capable users) may create CPU or per-thread sessions.
 *
 * Attaching to another thread takes the access perf_event_open() takes: the caller
 * must be allowed to read the thread's memory as ptrace would
 * (PTRACE_MODE_READ_REALCREDS).  The thread need not be stopped: the kernel reaches
 * its PMU state wherever it runs.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/ptrace.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/user_namespace.h>

#include "internal.h"
#include "access.h"
#include "env.h"

int pfm_paranoid = 2;
int pfm_sys_group = -1;
int pfm_task_group = -1;

static bool pfm_in_group(int gid)
{
	return gid < 0 || in_group_p(make_kgid(current_user_ns(), gid));
}

int pfm_access_create(u32 flags)
{
	int paranoid = READ_ONCE(pfm_paranoid);

	if (perfmon_capable())
		return 0;
	if (paranoid >= 3)
		return -EPERM;
	if (flags & PFM_FL_SYSTEM_WIDE) {
		if (paranoid >= 1 || !pfm_in_group(READ_ONCE(pfm_sys_group)))
			return -EPERM;
		return 0;
	}
	return pfm_in_group(READ_ONCE(pfm_task_group)) ? 0 : -EPERM;
}

int pfm_access_pmc(const struct pfm_regdesc *desc, u64 value)
{
	if (!(value & desc->priv_msk))
		return 0;
	if (READ_ONCE(pfm_paranoid) < 2 || perfmon_capable())
		return 0;
	return -EPERM;
}

#if IS_BUILTIN(CONFIG_PERFMON)
static bool pfm_may_read_task(struct task_struct *task)
{
	return ptrace_may_access(task, PTRACE_MODE_READ_REALCREDS);
}
#else
/*
 * A module cannot call ptrace_may_access(): this is its credential and dumpability
 * part, which is what a stock kernel's LSMs add nothing to for a read-mode check
 * (Yama restricts attach mode only).
 */
static bool pfm_may_read_task(struct task_struct *task)
{
	const struct cred *cred = current_cred(), *tcred;
	struct user_namespace *tns;
	struct mm_struct *mm;
	bool ok;

	if (same_thread_group(task, current))
		return true;
	rcu_read_lock();
	tcred = __task_cred(task);
	ok = uid_eq(cred->uid, tcred->euid) && uid_eq(cred->uid, tcred->suid) &&
	     uid_eq(cred->uid, tcred->uid) && gid_eq(cred->gid, tcred->egid) &&
	     gid_eq(cred->gid, tcred->sgid) && gid_eq(cred->gid, tcred->gid);
	tns = get_user_ns(tcred->user_ns);
	rcu_read_unlock();
	if (!ok)
		ok = ns_capable(tns, CAP_SYS_PTRACE);
	put_user_ns(tns);
	if (!ok)
		return false;

	task_lock(task);
	mm = task->mm;
	if (mm && get_dumpable(mm) != SUID_DUMP_USER && !ns_capable(mm->user_ns, CAP_SYS_PTRACE))
		ok = false;
	task_unlock(task);
	return ok;
}
#endif

int pfm_access_task(struct task_struct *task)
{
	if (task->flags & PF_KTHREAD)
		return -EPERM;
	if (task == current)
		return 0;
	return pfm_may_read_task(task) ? 0 : -EACCES;
}
