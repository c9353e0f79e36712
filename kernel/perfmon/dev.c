// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the /dev/perfmon door, for kernels without the system calls.
 *
 * One ioctl per call.  The structures hold no pointer-sized field, so 32-bit programs
 * use the same ioctls.
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#include "internal.h"
#include "dev.h"
#include "entry.h"

static long pfm_dev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *uarg = (void __user *)arg;
	unsigned int nr = _IOC_NR(cmd);
	union {
		struct pfarg_ioc_create create;
		struct pfarg_ioc_vec vec;
		struct pfarg_ioc_ctl ctl;
		struct pfarg_ioc_perf_open perf;
	} a;

	switch (cmd) {
	case PFM_IOC_CREATE_CONTEXT:
		if (copy_from_user(&a.create, uarg, sizeof(a.create)))
			return -EFAULT;
		if (a.create.reserved1)
			return -EINVAL;
		return pfm_call(nr, a.create.flags, a.create.smpl_name, a.create.smpl_arg,
				a.create.smpl_arg_size);
	case PFM_IOC_WRITE_PMCS:
	case PFM_IOC_WRITE_PMDS:
	case PFM_IOC_READ_PMDS:
	case PFM_IOC_CREATE_EVTSETS:
	case PFM_IOC_GETINFO_EVTSETS:
	case PFM_IOC_DELETE_EVTSETS:
		if (copy_from_user(&a.vec, uarg, sizeof(a.vec)))
			return -EFAULT;
		if (a.vec.reserved1)
			return -EINVAL;
		return pfm_call(nr, a.vec.fd, a.vec.req, a.vec.size, 0);
	case PFM_IOC_LOAD_CONTEXT:
	case PFM_IOC_START:
	case PFM_IOC_STOP:
	case PFM_IOC_UNLOAD_CONTEXT:
		if (copy_from_user(&a.ctl, uarg, sizeof(a.ctl)))
			return -EFAULT;
		return pfm_call(nr, a.ctl.fd, a.ctl.flags, a.ctl.arg, 0);
	case PFM_IOC_PERF_EVENT_OPEN:
		if (copy_from_user(&a.perf, uarg, sizeof(a.perf)))
			return -EFAULT;
		if (a.perf.reserved)
			return -EINVAL;
		/* pid and cpu share an argument (entry.c) */
		return pfm_call(nr, a.perf.attr,
				(u32)a.perf.pid | ((unsigned long)(u32)a.perf.cpu << 32),
				(long)a.perf.group_fd, a.perf.flags);
	}
	return -ENOTTY;
}

static const struct file_operations pfm_dev_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = pfm_dev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice pfm_miscdev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "perfmon",
	.fops = &pfm_dev_fops,
	.mode = 0666,
};

int pfm_dev_init(void)
{
	return misc_register(&pfm_miscdev);
}

void pfm_dev_exit(void)
{
	misc_deregister(&pfm_miscdev);
}
