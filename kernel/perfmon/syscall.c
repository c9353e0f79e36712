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
 * One system call per line of PFM_CALLS, pfm_<name>, with the arguments in the
 * order of the prototype.  C's conversion to unsigned long sign-extends an int, as
 * the ioctl door's signed 64-bit field would carry it; the entry table's row then
 * widens each argument as its type says.  A negative load target is thus out of
 * range, as the large __u64 it becomes over the ioctl.
 */
#define PFM_SYS_TYPE_INT(type)		type
#define PFM_SYS_TYPE_U32(type)		type
#define PFM_SYS_TYPE_ULONG(type)	type
#define PFM_SYS_TYPE_PTR(type)		type __user *
#define PFM_SYS_PARAM(kind, type, arg)	PFM_SYS_TYPE_##kind(type), arg
#define PFM_SYS_VALUE(kind, type, arg)	(unsigned long)arg

#define PFM_SYS_DEFINE(n, sysname, call, ...)					\
	SYSCALL_DEFINE##n(sysname, __PFM_MAP(n, PFM_SYS_PARAM, __VA_ARGS__))	\
	{									\
		return pfm_sys(call, &(const struct pfm_args){			\
			.a = { __PFM_MAP(n, PFM_SYS_VALUE, __VA_ARGS__) } });	\
	}
#define PFM_SYS_DEFINE_N(n, sysname, call, ...) \
	PFM_SYS_DEFINE(n, sysname, call, __VA_ARGS__)
#define PFM_SYS(nr, NAME, name, shape, ioc, elem, ...) \
	PFM_SYS_DEFINE_N(__PFM_NARGS(__VA_ARGS__), pfm_##name, PFM_CALL_##NAME, __VA_ARGS__)

PFM_CALLS(PFM_SYS)

/*
 * libperfmon adds PFM_CALL_<NAME> to the first number: the system call table
 * (scripts/intree/core.patch) must follow the list's order.
 */
#define PFM_NR_CHECK(nr, NAME, name, ...) \
	static_assert(__NR_pfm_##name == __NR_pfm_create_context + PFM_CALL_##NAME);
PFM_CALLS(PFM_NR_CHECK)

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
