/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: /sys/kernel/perfmon/ (sysfs.c), and the knobs a layer adds there in
 * an attribute group of its own (sysfs_create_group() on pfm_sysfs_kobj()).
 */
#ifndef _PERFMON_SYSFS_H
#define _PERFMON_SYSFS_H

#include <linux/kobject.h>
#include <linux/sysfs.h>

int pfm_sysfs_init(void);
void pfm_sysfs_exit(void);
struct kobject *pfm_sysfs_kobj(void);

/* An unsigned limit: its variable and the range a store accepts. */
struct pfm_ulong_knob {
	struct kobj_attribute attr;
	unsigned long *val;
	unsigned long min, max;
};

#define to_ulong_knob(a) container_of(a, struct pfm_ulong_knob, attr)

ssize_t pfm_ulong_knob_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf);
ssize_t pfm_ulong_knob_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count);

#define PFM_ULONG_KNOB(_name, _var, _min, _max)					\
	static struct pfm_ulong_knob pfm_knob_##_name = {			\
		.attr = __ATTR(_name, 0644, pfm_ulong_knob_show, pfm_ulong_knob_store), \
		.val = &(_var), .min = (_min), .max = (_max),			\
	}

/* A read-only count, shown as fn() returns it. */
#define PFM_COUNT_ATTR(_name, _fn)						\
static ssize_t _name##_show(struct kobject *kobj, struct kobj_attribute *attr,	\
			    char *buf)						\
{										\
	return sysfs_emit(buf, "%u\n", _fn());					\
}										\
static struct kobj_attribute pfm_##_name##_attr = __ATTR_RO(_name)

#endif
