// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: /sys/kernel/perfmon/.
 *
 *   version            interface version, "major.minor"
 *   arg_mem_max        largest vector argument in bytes (rw, at least one element)
 *   paranoid, sys_group, task_group   the access model (access.c); paranoid is
 *                      -2 (follow kernel.perf_event_paranoid) until a level is
 *                      written (paranoid.c)
 *   paranoid_level     the paranoid level in effect (ro)
 *   ctx_per_user_max   contexts a user may hold (res.c)
 *   task_sessions_count, sys_sessions_count   attached sessions of each kind
 *   contexts_count     contexts that exist, of every user (each counts against
 *                      its user's ctx_per_user_max until it is freed)
 *   task_hooks_count   hooks on threads: attached, or waiting for the thread to run
 *                      after an attach (thread.c); a detach takes its hook off at
 *                      once
 *   perf_*             the perf_event_open layer's own, where it is built
 *                      (perf/perf.c lists them)
 *   smpl_buffer_mem_max  bytes all sampling buffers together may take (rw, default
 *                        unlimited); smpl_buffer_mem_cur  bytes they take now
 *   pmu_desc/model     name of the active PMU description
 *   pmu_desc/types     the types of CPU (uapi perfmon.h, CPU TYPES), one line each:
 *                      id, name, its PMCs and PMDs (logical bitmaps); empty with one
 *   pmu_desc/pmcN/     name, addr, dfl_val, rsvd_msk, priv_msk of each implemented PMC
 *   pmu_desc/pmdN/     name, addr, width of each implemented PMD
 *   syscall            first system call number (in-tree build only: syscall.c)
 *   formats/NAME/version  each sampling format (smpl_fmt.c)
 */
#include <linux/kobject.h>
#include <linux/sysfs.h>

#include "internal.h"
#include "access.h"
#include "args.h"
#include "pmu_type.h"
#include "res.h"
#include "smpl.h"
#include "sysfs.h"
#include "thread.h"

static struct kobject *pfm_kobj;
static struct kobject *pfm_desc_kobj;

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u.%u\n", PFM_VERSION_MAJ, PFM_VERSION_MIN);
}

static ssize_t model_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", pfm_pmu.model);
}

static ssize_t types_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	const struct pfm_pmu_unit *u = pfm_pmu.typed;
	DECLARE_BITMAP(pmcs, PFM_NUM_PMCS);
	DECLARE_BITMAP(pmds, PFM_NUM_PMDS);
	unsigned int k;
	ssize_t n = 0;

	for (k = 0; u && k < u->num_types; k++) {
		const struct pfm_pmu_type *t = &u->types[k];

		bitmap_copy(pmcs, pfm_pmu.impl_pmcs, PFM_NUM_PMCS);
		bitmap_copy(pmds, pfm_pmu.impl_pmds, PFM_NUM_PMDS);
		pfm_pmu_type_regs(k, pmcs, pmds);
		n += sysfs_emit_at(buf, n, "%#x %s %*pb %*pb\n", t->id, t->name,
				   PFM_MAX_PMCS, pmcs, PFM_MAX_PMDS, pmds);
	}
	return n;
}

/* Integer knobs of the access model: value and the range a store accepts. */
struct pfm_int_knob {
	struct kobj_attribute attr;
	int *val;
	int min, max;
};

#define to_knob(a) container_of(a, struct pfm_int_knob, attr)

static ssize_t pfm_knob_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(*to_knob(attr)->val));
}

static ssize_t pfm_knob_store(struct kobject *kobj, struct kobj_attribute *attr,
			      const char *buf, size_t count)
{
	struct pfm_int_knob *k = to_knob(attr);
	int v, ret;

	ret = kstrtoint(buf, 0, &v);
	if (ret)
		return ret;
	if (v < k->min || v > k->max)
		return -EINVAL;
	WRITE_ONCE(*k->val, v);
	return count;
}

#define PFM_INT_KNOB(_name, _var, _min, _max)					\
	static struct pfm_int_knob pfm_knob_##_name = {				\
		.attr = __ATTR(_name, 0644, pfm_knob_show, pfm_knob_store),	\
		.val = &(_var), .min = (_min), .max = (_max),			\
	}

PFM_INT_KNOB(paranoid, pfm_paranoid, PFM_PARANOID_SYSTEM, 3);
PFM_INT_KNOB(sys_group, pfm_sys_group, -1, INT_MAX);
PFM_INT_KNOB(task_group, pfm_task_group, -1, INT_MAX);

/* Unsigned limits (sysfs.h), shown and stored within their range. */
ssize_t pfm_ulong_knob_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(*to_ulong_knob(attr)->val));
}

ssize_t pfm_ulong_knob_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	struct pfm_ulong_knob *k = to_ulong_knob(attr);
	unsigned long v;
	int ret;

	ret = kstrtoul(buf, 0, &v);
	if (ret)
		return ret;
	if (v < k->min || v > k->max)
		return -EINVAL;
	WRITE_ONCE(*k->val, v);
	return count;
}

/* Below one element of the largest structure no call could be made. */
PFM_ULONG_KNOB(arg_mem_max, pfm_arg_mem_max, sizeof(struct pfarg_setinfo), INT_MAX);
PFM_ULONG_KNOB(ctx_per_user_max, pfm_ctx_per_user_max, 0, UINT_MAX);
/* Lowering it below what is in use refuses new buffers and frees none. */
PFM_ULONG_KNOB(smpl_buffer_mem_max, pfm_smpl_mem_max, 0, ULONG_MAX);

PFM_COUNT_ATTR(task_sessions_count, pfm_res_task_sessions);
PFM_COUNT_ATTR(sys_sessions_count, pfm_res_sys_sessions);
PFM_COUNT_ATTR(contexts_count, pfm_res_contexts);
PFM_COUNT_ATTR(task_hooks_count, pfm_thread_hooks);

static ssize_t smpl_buffer_mem_cur_show(struct kobject *kobj, struct kobj_attribute *attr,
					char *buf)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&pfm_smpl_mem_cur));
}

static ssize_t paranoid_level_show(struct kobject *kobj, struct kobj_attribute *attr,
				   char *buf)
{
	return sysfs_emit(buf, "%d\n", pfm_paranoid_level());
}

static struct kobj_attribute pfm_version_attr = __ATTR_RO(version);
static struct kobj_attribute pfm_paranoid_level_attr = __ATTR_RO(paranoid_level);
static struct kobj_attribute pfm_smpl_buffer_mem_cur_attr = __ATTR_RO(smpl_buffer_mem_cur);
static struct kobj_attribute pfm_model_attr = __ATTR_RO(model);
static struct kobj_attribute pfm_types_attr = __ATTR_RO(types);

static struct attribute *pfm_top_attrs[] = {
	&pfm_version_attr.attr,
	&pfm_knob_arg_mem_max.attr.attr,
	&pfm_knob_paranoid.attr.attr,
	&pfm_paranoid_level_attr.attr,
	&pfm_knob_sys_group.attr.attr,
	&pfm_knob_task_group.attr.attr,
	&pfm_knob_ctx_per_user_max.attr.attr,
	&pfm_task_sessions_count_attr.attr,
	&pfm_sys_sessions_count_attr.attr,
	&pfm_contexts_count_attr.attr,
	&pfm_task_hooks_count_attr.attr,
	&pfm_knob_smpl_buffer_mem_max.attr.attr,
	&pfm_smpl_buffer_mem_cur_attr.attr,
	NULL,
};

static const struct attribute_group pfm_top_group = {
	.attrs = pfm_top_attrs,
};

/* One directory per register. */
struct pfm_reg_kobj {
	struct kobject kobj;
	const struct pfm_regdesc *desc;
};

#define to_reg(k) container_of(k, struct pfm_reg_kobj, kobj)

static ssize_t name_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", to_reg(kobj)->desc->name);
}

static ssize_t addr_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n", to_reg(kobj)->desc->addr);
}

static ssize_t dfl_val_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n", to_reg(kobj)->desc->dfl_val);
}

static ssize_t rsvd_msk_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n", to_reg(kobj)->desc->rsvd_msk);
}

static ssize_t priv_msk_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n", to_reg(kobj)->desc->priv_msk);
}

static ssize_t width_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_reg(kobj)->desc->width);
}

static struct kobj_attribute pfm_name_attr = __ATTR_RO(name);
static struct kobj_attribute pfm_addr_attr = __ATTR_RO(addr);
static struct kobj_attribute pfm_dfl_val_attr = __ATTR_RO(dfl_val);
static struct kobj_attribute pfm_rsvd_msk_attr = __ATTR_RO(rsvd_msk);
static struct kobj_attribute pfm_priv_msk_attr = __ATTR_RO(priv_msk);
static struct kobj_attribute pfm_width_attr = __ATTR_RO(width);

static struct attribute *pfm_pmc_attrs[] = {
	&pfm_name_attr.attr, &pfm_addr_attr.attr, &pfm_dfl_val_attr.attr,
	&pfm_rsvd_msk_attr.attr, &pfm_priv_msk_attr.attr, NULL,
};
ATTRIBUTE_GROUPS(pfm_pmc);

static struct attribute *pfm_pmd_attrs[] = {
	&pfm_name_attr.attr, &pfm_addr_attr.attr, &pfm_width_attr.attr, NULL,
};
ATTRIBUTE_GROUPS(pfm_pmd);

static void pfm_reg_release(struct kobject *kobj)
{
	kfree(to_reg(kobj));
}

static struct kobj_type pfm_pmc_ktype = {
	.release = pfm_reg_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = pfm_pmc_groups,
};

static struct kobj_type pfm_pmd_ktype = {
	.release = pfm_reg_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = pfm_pmd_groups,
};

static struct kobject *pfm_reg_kobjs[PFM_NUM_PMCS + PFM_NUM_PMDS];
static unsigned int pfm_nr_reg_kobjs;

static int pfm_add_reg(struct kobj_type *type, const char *prefix, unsigned int n,
		       const struct pfm_regdesc *desc)
{
	struct pfm_reg_kobj *r;
	int ret;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->desc = desc;
	ret = kobject_init_and_add(&r->kobj, type, pfm_desc_kobj, "%s%u", prefix, n);
	if (ret) {
		kobject_put(&r->kobj);
		return ret;
	}
	pfm_reg_kobjs[pfm_nr_reg_kobjs++] = &r->kobj;
	return 0;
}

static void pfm_del_regs(void)
{
	while (pfm_nr_reg_kobjs)
		kobject_put(pfm_reg_kobjs[--pfm_nr_reg_kobjs]);
}

int pfm_sysfs_init(void)
{
	unsigned int i;
	int ret;

	pfm_kobj = kobject_create_and_add("perfmon", kernel_kobj);
	if (!pfm_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(pfm_kobj, &pfm_top_group);
	if (ret)
		goto err_kobj;
	pfm_desc_kobj = kobject_create_and_add("pmu_desc", pfm_kobj);
	if (!pfm_desc_kobj) {
		ret = -ENOMEM;
		goto err_kobj;
	}
	ret = sysfs_create_file(pfm_desc_kobj, &pfm_model_attr.attr);
	if (!ret)
		ret = sysfs_create_file(pfm_desc_kobj, &pfm_types_attr.attr);
	if (ret)
		goto err_desc;
	for_each_set_bit(i, pfm_pmu.impl_pmcs, PFM_NUM_PMCS) {
		ret = pfm_add_reg(&pfm_pmc_ktype, "pmc", i, pfm_pmu.pmc[i].desc);
		if (ret)
			goto err_regs;
	}
	for_each_set_bit(i, pfm_pmu.impl_pmds, PFM_NUM_PMDS) {
		ret = pfm_add_reg(&pfm_pmd_ktype, "pmd", i, pfm_pmu.pmd[i].desc);
		if (ret)
			goto err_regs;
	}
	return 0;

err_regs:
	pfm_del_regs();
err_desc:
	kobject_put(pfm_desc_kobj);
err_kobj:
	kobject_put(pfm_kobj);
	return ret;
}

void pfm_sysfs_exit(void)
{
	pfm_del_regs();
	kobject_put(pfm_desc_kobj);
	kobject_put(pfm_kobj);
}

/* The door's own files go here (syscall.c: "syscall"). */
struct kobject *pfm_sysfs_kobj(void)
{
	return pfm_kobj;
}
