// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the /dev/perfmon door, for kernels without the system calls.
 *
 * One ioctl per call, numbered as the call; the call's row in the entry table
 * (entry.h) says which structure it carries.  The structures hold no pointer-sized
 * field, so 32-bit programs use the same ioctls.
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>

#include "internal.h"
#include "dev.h"
#include "entry.h"

static const size_t pfm_ioc_sizes[] = {
	[PFM_IOC_CREATE]	= sizeof(struct pfarg_ioc_create),
	[PFM_IOC_VEC]		= sizeof(struct pfarg_ioc_vec),
	[PFM_IOC_CTL]		= sizeof(struct pfarg_ioc_ctl),
};

/* The size of the structure the ioctl of call e carries. */
static size_t pfm_ioc_size(const struct pfm_entry *e)
{
	if (e->ioc == PFM_IOC_ARGS)
		return pfm_entry_nargs(e) * sizeof(__u64);
	return pfm_ioc_sizes[e->ioc];
}

/* The call's arguments, in the order of its system call, from its ioctl structure. */
static int pfm_ioc_decode(const struct pfm_entry *e, const void *buf, struct pfm_args *args)
{
	const struct pfarg_ioc_create *create = buf;
	const struct pfarg_ioc_vec *vec = buf;
	const struct pfarg_ioc_ctl *ctl = buf;
	const __u64 *a64 = buf;
	unsigned int i;

	switch (e->ioc) {
	case PFM_IOC_CREATE:
		if (create->reserved1)
			return -EINVAL;
		*args = (struct pfm_args){ .a = { create->flags, create->smpl_name,
						  create->smpl_arg, create->smpl_arg_size } };
		return 0;
	case PFM_IOC_VEC:
		if (vec->reserved1)
			return -EINVAL;
		*args = (struct pfm_args){ .a = { vec->fd, vec->req, vec->size } };
		return 0;
	case PFM_IOC_CTL:
		*args = (struct pfm_args){ .a = { ctl->fd, ctl->flags, ctl->arg } };
		return 0;
	case PFM_IOC_ARGS:
		*args = (struct pfm_args){};
		for (i = 0; i < pfm_entry_nargs(e); i++)
			args->a[i] = a64[i];
		return 0;
	}
	return -ENOTTY;
}

/*
 * The ioctl number is the call number; the rest of cmd must match the call's row.
 * A call that is not served (its layer is not built) is an unknown ioctl, as on a
 * module that never had it.
 */
static long pfm_dev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	const struct pfm_entry *e;
	u64 buf[PFM_ENTRY_MAX_ARGS];
	struct pfm_args args;
	size_t size;
	int ret;

	if (!pfm_entry_served(_IOC_NR(cmd)))
		return -ENOTTY;
	e = pfm_entry(_IOC_NR(cmd));
	size = pfm_ioc_size(e);
	if (cmd != _IOC(_IOC_WRITE, PFM_IOC_MAGIC, _IOC_NR(cmd), size))
		return -ENOTTY;
	if (copy_from_user(buf, (void __user *)arg, size))
		return -EFAULT;
	ret = pfm_ioc_decode(e, buf, &args);
	if (ret)
		return ret;
	return pfm_call(_IOC_NR(cmd), &args);
}

/* Every ioctl structure fits in the buffer above. */
static_assert(sizeof(struct pfarg_ioc_create) <= PFM_ENTRY_MAX_ARGS * sizeof(u64));
static_assert(sizeof(struct pfarg_ioc_vec) <= PFM_ENTRY_MAX_ARGS * sizeof(u64));
static_assert(sizeof(struct pfarg_ioc_ctl) <= PFM_ENTRY_MAX_ARGS * sizeof(u64));

/*
 * Each line of PFM_CALLS names the structure its shape decodes above: an ARGS
 * call's holds one __u64 per argument.
 */
#define PFM_DEV_IOC_IS(ioc, type)	__builtin_types_compatible_p(struct ioc, struct type)
#define PFM_DEV_IOC_CREATE(ioc, n)	PFM_DEV_IOC_IS(ioc, pfarg_ioc_create)
#define PFM_DEV_IOC_VEC(ioc, n)		PFM_DEV_IOC_IS(ioc, pfarg_ioc_vec)
#define PFM_DEV_IOC_VEC_OUT(ioc, n)	PFM_DEV_IOC_IS(ioc, pfarg_ioc_vec)
#define PFM_DEV_IOC_VEC_USER(ioc, n)	PFM_DEV_IOC_IS(ioc, pfarg_ioc_vec)
#define PFM_DEV_IOC_CTL(ioc, n)		PFM_DEV_IOC_IS(ioc, pfarg_ioc_ctl)
#define PFM_DEV_IOC_CTL_FLAGS(ioc, n)	PFM_DEV_IOC_IS(ioc, pfarg_ioc_ctl)
#define PFM_DEV_IOC_ARGS(ioc, n)	(sizeof(struct ioc) == (n) * sizeof(__u64))
#define PFM_DEV_IOC_ARGS_LAYER(ioc, n)	PFM_DEV_IOC_ARGS(ioc, n)
#define PFM_DEV_IOC_CHECK(nr, NAME, name, shape, ioc, elem, ...) \
	static_assert(PFM_DEV_IOC_##shape(ioc, __PFM_NARGS(__VA_ARGS__)));
PFM_CALLS(PFM_DEV_IOC_CHECK)

/* The ioctl codes are ABI: direction, magic, number and structure size. */
static_assert(PFM_IOC_CREATE_CONTEXT == _IOC(_IOC_WRITE, 'J', 0, 32));
static_assert(PFM_IOC_WRITE_PMCS == _IOC(_IOC_WRITE, 'J', 1, 24));
static_assert(PFM_IOC_WRITE_PMDS == _IOC(_IOC_WRITE, 'J', 2, 24));
static_assert(PFM_IOC_READ_PMDS == _IOC(_IOC_WRITE, 'J', 3, 24));
static_assert(PFM_IOC_LOAD_CONTEXT == _IOC(_IOC_WRITE, 'J', 4, 16));
static_assert(PFM_IOC_START == _IOC(_IOC_WRITE, 'J', 5, 16));
static_assert(PFM_IOC_STOP == _IOC(_IOC_WRITE, 'J', 6, 16));
static_assert(PFM_IOC_CREATE_EVTSETS == _IOC(_IOC_WRITE, 'J', 7, 24));
static_assert(PFM_IOC_GETINFO_EVTSETS == _IOC(_IOC_WRITE, 'J', 8, 24));
static_assert(PFM_IOC_DELETE_EVTSETS == _IOC(_IOC_WRITE, 'J', 9, 24));
static_assert(PFM_IOC_UNLOAD_CONTEXT == _IOC(_IOC_WRITE, 'J', 10, 16));
static_assert(PFM_IOC_PERF_EVENT_OPEN == _IOC(_IOC_WRITE, 'J', 11, 40));

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
