// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the system call door, for the in-tree build.
 *
 * Each pfm_* system call hands its arguments, in the order of its prototype, to the
 * entry table that the ioctl door (dev.c) also uses.  They are widened exactly as the
 * ioctl door's structures widen them (flags as __u32, an fd as __s32, the load target
 * and the set id as the sign-extended __u64 that libperfmon stores), so that the same
 * call gets the same answer, errno included, through either door.
 *
 * The first call number is published in /sys/kernel/perfmon/syscall, the others
 * follow in PFM_CALL_* order (scripts/intree/ adds them to the x86_64 table).
 *
 * This file takes the place of dev.c in the in-tree build: main.c brings the door up
 * last, through pfm_dev_init(), once the core is ready.
 */
#include <linux/kobject.h>
#include <linux/syscalls.h>
#include <linux/sysfs.h>
#include <asm/unistd.h>

#include "internal.h"
#include "dev.h"
#include "entry.h"
#include "sysfs.h"

/*
 * The system calls exist from boot, the core only once main.c has set it up: until
 * then, or for good if that failed, they answer as if they did not exist.
 */
static bool pfm_sys_ready;

static long pfm_sys(unsigned int nr, const struct pfm_args *args)
{
	if (!smp_load_acquire(&pfm_sys_ready))
		return -ENOSYS;
	return pfm_call(nr, args);
}

/*
 * The arguments in the order of the prototype.  C's conversion to unsigned long
 * sign-extends an int, as the ioctl door's signed 64-bit field would carry it; the
 * entry table's row then widens each argument as its type says.
 */
#define PFM_SYS(nr, ...) \
	pfm_sys(nr, &(const struct pfm_args){ .a = { __VA_ARGS__ } })

SYSCALL_DEFINE4(pfm_create_context, int, flags, const char __user *, smpl_name,
		void __user *, smpl_arg, size_t, smpl_arg_size)
{
	return PFM_SYS(PFM_CALL_CREATE_CONTEXT, flags, (unsigned long)smpl_name,
		       (unsigned long)smpl_arg, smpl_arg_size);
}

SYSCALL_DEFINE3(pfm_write_pmcs, int, fd, void __user *, req, size_t, size)
{
	return PFM_SYS(PFM_CALL_WRITE_PMCS, fd, (unsigned long)req, size);
}

SYSCALL_DEFINE3(pfm_write_pmds, int, fd, void __user *, req, size_t, size)
{
	return PFM_SYS(PFM_CALL_WRITE_PMDS, fd, (unsigned long)req, size);
}

SYSCALL_DEFINE3(pfm_read_pmds, int, fd, void __user *, req, size_t, size)
{
	return PFM_SYS(PFM_CALL_READ_PMDS, fd, (unsigned long)req, size);
}

/* A negative target is out of range, as the large __u64 it becomes over the ioctl. */
SYSCALL_DEFINE3(pfm_load_context, int, fd, int, flags, int, target)
{
	return PFM_SYS(PFM_CALL_LOAD_CONTEXT, fd, flags, target);
}

SYSCALL_DEFINE3(pfm_start, int, fd, int, flags, int, set_id)
{
	return PFM_SYS(PFM_CALL_START, fd, flags, set_id);
}

SYSCALL_DEFINE2(pfm_stop, int, fd, int, flags)
{
	return PFM_SYS(PFM_CALL_STOP, fd, flags);
}

SYSCALL_DEFINE3(pfm_create_evtsets, int, fd, void __user *, req, size_t, size)
{
	return PFM_SYS(PFM_CALL_CREATE_EVTSETS, fd, (unsigned long)req, size);
}

SYSCALL_DEFINE3(pfm_getinfo_evtsets, int, fd, void __user *, req, size_t, size)
{
	return PFM_SYS(PFM_CALL_GETINFO_EVTSETS, fd, (unsigned long)req, size);
}

SYSCALL_DEFINE3(pfm_delete_evtsets, int, fd, void __user *, req, size_t, size)
{
	return PFM_SYS(PFM_CALL_DELETE_EVTSETS, fd, (unsigned long)req, size);
}

SYSCALL_DEFINE2(pfm_unload_context, int, fd, int, flags)
{
	return PFM_SYS(PFM_CALL_UNLOAD_CONTEXT, fd, flags);
}

SYSCALL_DEFINE5(pfm_perf_event_open, struct perf_event_attr __user *, attr, pid_t, pid,
		int, cpu, int, group_fd, unsigned long, flags)
{
	return PFM_SYS(PFM_CALL_PERF_EVENT_OPEN, (unsigned long)attr, pid, cpu, group_fd, flags);
}

/* libperfmon adds PFM_CALL_xxx to the first number: the table must follow that order. */
#define PFM_NR_CHECK(name, call) \
	static_assert(__NR_##name == __NR_pfm_create_context + (call))
PFM_NR_CHECK(pfm_write_pmcs, PFM_CALL_WRITE_PMCS);
PFM_NR_CHECK(pfm_write_pmds, PFM_CALL_WRITE_PMDS);
PFM_NR_CHECK(pfm_read_pmds, PFM_CALL_READ_PMDS);
PFM_NR_CHECK(pfm_load_context, PFM_CALL_LOAD_CONTEXT);
PFM_NR_CHECK(pfm_start, PFM_CALL_START);
PFM_NR_CHECK(pfm_stop, PFM_CALL_STOP);
PFM_NR_CHECK(pfm_create_evtsets, PFM_CALL_CREATE_EVTSETS);
PFM_NR_CHECK(pfm_getinfo_evtsets, PFM_CALL_GETINFO_EVTSETS);
PFM_NR_CHECK(pfm_delete_evtsets, PFM_CALL_DELETE_EVTSETS);
PFM_NR_CHECK(pfm_unload_context, PFM_CALL_UNLOAD_CONTEXT);
PFM_NR_CHECK(pfm_perf_event_open, PFM_CALL_PERF_EVENT_OPEN);
static_assert(PFM_CALL_NR == PFM_CALL_PERF_EVENT_OPEN + 1);

static ssize_t syscall_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", __NR_pfm_create_context);
}

static struct kobj_attribute pfm_syscall_attr = __ATTR_RO(syscall);

int pfm_dev_init(void)
{
	int ret;

	/* Ready before published: libperfmon may use the calls as soon as it reads it. */
	smp_store_release(&pfm_sys_ready, true);
	ret = sysfs_create_file(pfm_sysfs_kobj(), &pfm_syscall_attr.attr);
	if (ret)
		WRITE_ONCE(pfm_sys_ready, false);
	return ret;
}

void pfm_dev_exit(void)
{
	sysfs_remove_file(pfm_sysfs_kobj(), &pfm_syscall_attr.attr);
	WRITE_ONCE(pfm_sys_ready, false);
}
