// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: who may create which session, attach to which thread, and count at kernel
 * level.
 *
 * The paranoid level in effect (paranoid.c: kernel.perf_event_paranoid unless
 * /sys/kernel/perfmon/paranoid says otherwise), with perf_event_paranoid's levels:
 *   -1  no restriction
 *    0  CPU (system-wide) sessions and kernel-level counting open to every user
 *    1  CPU sessions need CAP_PERFMON; kernel-level counting open
 *    2  CPU sessions and kernel-level counting need CAP_PERFMON (the kernel's default)
 *    3  every session needs CAP_PERFMON (Debian's kernels' default)
 * CAP_SYS_ADMIN is accepted wherever CAP_PERFMON is (perfmon_capable()).
 *
 * /sys/kernel/perfmon/sys_group and task_group: when not -1, only members of that
 * group (or perfmon-capable users) may create CPU or per-thread sessions.
 *
 * Attaching to another thread takes the access perf_event_open() takes: the caller
 * must be allowed to read the thread's memory as ptrace would
 * (PTRACE_MODE_READ_REALCREDS, security modules included).  The thread need not be
 * stopped: the kernel reaches its PMU state wherever it runs.  An exec() that the
 * controller could not have attached to after it ends the attachment (exec.c).
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/file.h>
#include <linux/mount.h>
#include <linux/path.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>
#include <linux/ptrace.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/user_namespace.h>

#include "internal.h"
#include "access.h"
#include "env.h"

int pfm_sys_group = -1;
int pfm_task_group = -1;

static bool pfm_in_group(int gid)
{
	return gid < 0 || in_group_p(make_kgid(current_user_ns(), gid));
}

int pfm_access_create(u32 flags)
{
	int paranoid = pfm_paranoid_level();

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
	if (pfm_paranoid_level() < 2 || perfmon_capable())
		return 0;
	return -EPERM;
}

/*
 * The credential and dumpability part of PTRACE_MODE_READ_REALCREDS, for cred (not
 * necessarily current's) against task as it is now.  A capability counts in the
 * namespace it was granted in and in its descendants; the kernel's further rule (the
 * owner of a child namespace) is not applied, which can only refuse more.
 */
static bool pfm_cred_ns_capable(const struct cred *cred, struct user_namespace *ns, int cap)
{
	for (;;) {
		if (ns == cred->user_ns)
			return cap_raised(cred->cap_effective, cap);
		if (ns->level <= cred->user_ns->level || !ns->parent)
			return false;
		ns = ns->parent;
	}
}

bool pfm_access_cred_may_read(const struct cred *cred, struct task_struct *task)
{
	const struct cred *tcred;
	struct mm_struct *mm;
	bool ok;

	rcu_read_lock();
	tcred = __task_cred(task);
	ok = uid_eq(cred->uid, tcred->euid) && uid_eq(cred->uid, tcred->suid) &&
	     uid_eq(cred->uid, tcred->uid) && gid_eq(cred->gid, tcred->egid) &&
	     gid_eq(cred->gid, tcred->sgid) && gid_eq(cred->gid, tcred->gid);
	if (!ok)
		ok = pfm_cred_ns_capable(cred, tcred->user_ns, CAP_SYS_PTRACE);
	rcu_read_unlock();
	if (!ok)
		return false;

	task_lock(task);
	mm = task->mm;
	if (mm && get_dumpable(mm) != SUID_DUMP_USER &&
	    !pfm_cred_ns_capable(cred, mm->user_ns, CAP_SYS_PTRACE))
		ok = false;
	task_unlock(task);
	return ok;
}

#if IS_BUILTIN(CONFIG_PERFMON)
static int pfm_may_read_task(struct task_struct *task)
{
	return ptrace_may_access(task, PTRACE_MODE_READ_REALCREDS) ? 0 : -EACCES;
}

int pfm_access_init(void)
{
	return 0;
}

void pfm_access_exit(void)
{
}
#else
/*
 * A module cannot call ptrace_may_access(), and the security modules (AppArmor,
 * SELinux) mediate read mode too.  Opening /proc/PID/maps runs the kernel's own
 * read-mode check, LSM hooks included (mm_access()), so the module opens it on a
 * private mount of proc with the caller's fs ids set to its real ids: the check is
 * then PTRACE_MODE_READ_REALCREDS exactly.  The mount is the initial pid
 * namespace's when the module is loaded from it.
 *
 * The open fails for other reasons than a refusal, and each keeps its own errno:
 * a thread that exits between its lookup and the open (its proc entry gone, or
 * going) is ESRCH, as the lookup would have said a moment later; a failed
 * allocation is ENOMEM; only the read-mode check's refusal is EACCES.
 *
 * The dcache would keep the dentries of PID and PID/maps, and their inodes, for
 * the thread's life: nobody but this check walks the private mount, and no later
 * check would find them faster than it makes them.  They are dropped from it
 * once the open is done, and go with their last reference (the file's, at its
 * release).
 */
static struct vfsmount *pfm_proc_mnt;

/* The check's dentries out of the dcache: PID/maps and PID. */
static void pfm_proc_forget(const struct path *path)
{
	d_drop(path->dentry);
	d_drop(path->dentry->d_parent);
}

/*
 * Opens PID/maps on the private mount with the caller's credentials as they are:
 * found first with O_PATH (which runs no check), so that its dentries are known
 * whether the open that checks succeeds or not.
 */
static int pfm_open_maps(const char *name)
{
	struct file *at, *f;

	at = file_open_root_mnt(pfm_proc_mnt, name, O_PATH, 0);
	if (IS_ERR(at))
		return PTR_ERR(at);
	f = dentry_open(&at->f_path, O_RDONLY, current_cred());
	pfm_proc_forget(&at->f_path);
	fput(at);
	if (IS_ERR(f))
		return PTR_ERR(f);
	fput(f);
	return 0;
}

static int pfm_may_read_task(struct task_struct *task)
{
	struct pid_namespace *ns = proc_pid_ns(pfm_proc_mnt->mnt_sb);
	const struct cred *old;
	struct cred *real;
	char name[24];
	pid_t nr;
	int err;

	nr = task_pid_nr_ns(task, ns);
	if (!nr)
		return -ESRCH;		/* reaped since its lookup */
	snprintf(name, sizeof(name), "%d/maps", nr);
	real = prepare_creds();
	if (!real)
		return -ENOMEM;
	real->fsuid = real->uid;
	real->fsgid = real->gid;
	old = override_creds(real);
	err = pfm_open_maps(name);
	revert_creds(old);
	put_cred(real);
	if (!err)
		return 0;
	if (err == -ENOENT || err == -ESRCH || !pid_alive(task) || (task->flags & PF_EXITING))
		return -ESRCH;
	if (err == -ENOMEM)
		return -ENOMEM;
	return -EACCES;
}

int pfm_access_init(void)
{
	struct file_system_type *proc = get_fs_type("proc");
	struct vfsmount *mnt;

	if (!proc)
		return -ENOENT;
	mnt = kern_mount(proc);
	module_put(proc->owner);
	if (IS_ERR(mnt))
		return PTR_ERR(mnt);
	pfm_proc_mnt = mnt;
	return 0;
}

void pfm_access_exit(void)
{
	kern_unmount(pfm_proc_mnt);
}
#endif

int pfm_access_task(struct task_struct *task)
{
	if (task->flags & PF_KTHREAD)
		return -EPERM;
	if (task == current)
		return 0;
	return pfm_may_read_task(task);
}
