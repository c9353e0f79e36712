// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the registry of sampling formats, and setting one up for a new context.
 *
 * Formats may come from other modules later (a PEBS format, say): a context holds a
 * reference on its format's module for as long as it has the buffer.  Each format
 * shows in /sys/kernel/perfmon/formats/<name>/version ("major.minor").
 */
#include <linux/kobject.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <uapi/perfmon/perfmon_dfl_smpl.h>

#include "internal.h"
#include "ctx.h"
#include "env.h"
#include "smpl.h"
#include "sysfs.h"

static LIST_HEAD(pfm_smpl_fmts);
static DEFINE_MUTEX(pfm_smpl_fmts_mutex);
static struct kobject *pfm_fmts_kobj;

struct pfm_fmt_kobj {
	struct kobject kobj;
	const struct pfm_smpl_fmt *fmt;
};

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	u32 v = container_of(kobj, struct pfm_fmt_kobj, kobj)->fmt->version;

	return sysfs_emit(buf, "%u.%u\n", v >> 16, v & 0xffff);
}

static struct kobj_attribute pfm_fmt_version_attr = __ATTR_RO(version);

static struct attribute *pfm_fmt_attrs[] = {
	&pfm_fmt_version_attr.attr, NULL,
};
ATTRIBUTE_GROUPS(pfm_fmt);

static void pfm_fmt_kobj_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct pfm_fmt_kobj, kobj));
}

static struct kobj_type pfm_fmt_ktype = {
	.release = pfm_fmt_kobj_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = pfm_fmt_groups,
};

static int pfm_fmt_sysfs_add(struct pfm_smpl_fmt *fmt)
{
	struct pfm_fmt_kobj *k;
	int ret;

	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	k->fmt = fmt;
	ret = kobject_init_and_add(&k->kobj, &pfm_fmt_ktype, pfm_fmts_kobj, "%s", fmt->name);
	if (ret) {
		kobject_put(&k->kobj);
		return ret;
	}
	fmt->kobj = &k->kobj;
	return 0;
}

static struct pfm_smpl_fmt *pfm_smpl_fmt_find(const char *name)
{
	struct pfm_smpl_fmt *fmt;

	lockdep_assert_held(&pfm_smpl_fmts_mutex);
	list_for_each_entry(fmt, &pfm_smpl_fmts, list)
		if (!strcmp(fmt->name, name))
			return fmt;
	return NULL;
}

int pfm_smpl_fmt_register(struct pfm_smpl_fmt *fmt)
{
	int ret = 0;

	if (strlen(fmt->name) >= PFM_SMPL_NAME_MAX || !fmt->validate || !fmt->getsize ||
	    !fmt->init || !fmt->handler)
		return -EINVAL;
	mutex_lock(&pfm_smpl_fmts_mutex);
	if (pfm_smpl_fmt_find(fmt->name))
		ret = -EBUSY;
	else
		ret = pfm_fmt_sysfs_add(fmt);
	if (!ret)
		list_add_tail(&fmt->list, &pfm_smpl_fmts);
	mutex_unlock(&pfm_smpl_fmts_mutex);
	return ret;
}

/* The format's module is going: no context can hold a reference on it. */
void pfm_smpl_fmt_unregister(struct pfm_smpl_fmt *fmt)
{
	mutex_lock(&pfm_smpl_fmts_mutex);
	list_del(&fmt->list);
	kobject_put(fmt->kobj);
	fmt->kobj = NULL;
	mutex_unlock(&pfm_smpl_fmts_mutex);
}

static const struct pfm_smpl_fmt *pfm_smpl_fmt_get(const char *name)
{
	struct pfm_smpl_fmt *fmt;

	mutex_lock(&pfm_smpl_fmts_mutex);
	fmt = pfm_smpl_fmt_find(name);
	if (fmt && !try_module_get(fmt->owner))
		fmt = NULL;
	mutex_unlock(&pfm_smpl_fmts_mutex);
	return fmt;
}

/*
 * The format's argument checked, its buffer allocated and laid out into b; the
 * caller holds a reference on the format, which b keeps on success.
 */
static int pfm_smpl_setup_fmt(struct pfm_smpl_buf *b, const struct pfm_smpl_fmt *fmt,
			      u32 ctx_flags, const void *arg)
{
	struct pfm_smpl_buf nb = {};
	int ret;

	/* an inherit context's buffer takes its inheritors' samples too */
	if ((ctx_flags & PFM_FL_INHERIT) && !fmt->drain)
		return -EINVAL;
	nb.shared = ctx_flags & PFM_FL_INHERIT;
	ret = fmt->validate(ctx_flags, arg);
	if (ret)
		return ret;
	ret = pfm_smpl_buf_alloc(&nb, fmt->getsize(arg),
				 fmt->kernel_only ? NULL : &pfm_smpl_charge_locked);
	if (ret)
		return ret;
	fmt->init(nb.addr, nb.size, arg);
	nb.fmt = fmt;
	*b = nb;
	return 0;
}

/*
 * Everything the caller gave is checked before any memory is charged, so a refused
 * call leaves no trace; b is filled only on success.
 */
int pfm_smpl_setup(struct pfm_smpl_buf *b, u32 ctx_flags, const char __user *uname,
		   const void __user *uarg, u64 arg_size)
{
	const struct pfm_smpl_fmt *fmt;
	char name[PFM_SMPL_NAME_MAX];
	void *arg = NULL;
	long len;
	int ret;

	len = strncpy_from_user(name, uname, sizeof(name));
	if (len < 0)
		return len;
	if (len == sizeof(name))
		return -EINVAL;
	fmt = pfm_smpl_fmt_get(name);
	if (!fmt)
		return -EINVAL;
	ret = -EINVAL;
	if (arg_size != fmt->arg_size || fmt->kernel_only)
		goto err_fmt;
	arg = memdup_user(uarg, arg_size);
	if (IS_ERR(arg)) {
		ret = PTR_ERR(arg);
		goto err_fmt;
	}
	ret = pfm_smpl_setup_fmt(b, fmt, ctx_flags, arg);
	kfree(arg);
	if (ret)
		goto err_fmt;
	return 0;

err_fmt:
	module_put(fmt->owner);
	return ret;
}

/* The same for a context the kernel makes itself (the perf layer's). */
int pfm_smpl_setup_kernel(struct pfm_smpl_buf *b, const char *name, const void *arg)
{
	const struct pfm_smpl_fmt *fmt;
	int ret;

	fmt = pfm_smpl_fmt_get(name);
	if (!fmt)
		return -EINVAL;
	ret = pfm_smpl_setup_fmt(b, fmt, 0, arg);
	if (ret)
		module_put(fmt->owner);
	return ret;
}

void pfm_smpl_release(struct pfm_smpl_buf *b)
{
	if (!b->fmt)
		return;
	pfm_smpl_buf_free(b);
	module_put(b->fmt->owner);
	b->fmt = NULL;
}

/* After sysfs: the formats directory, where formats show once registered. */
int pfm_smpl_init(void)
{
	pfm_fmts_kobj = kobject_create_and_add("formats", pfm_sysfs_kobj());
	return pfm_fmts_kobj ? 0 : -ENOMEM;
}

void pfm_smpl_exit(void)
{
	kobject_put(pfm_fmts_kobj);
}

void pfm_ctx_set_sink(struct pfm_context *ctx, const struct pfm_smpl_sink *sink, void *data)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	ctx->sink = sink;
	ctx->sink_data = data;
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}

/*
 * A sample of ctx (set, pmd) into owner's shared buffer, ctx->lock held: true the
 * first time since the last drain that the buffer has no room for another, when
 * the owner's reader is to be told (it is never masked for it).
 */
bool pfm_smpl_append(struct pfm_context *owner, struct pfm_context *ctx,
		     struct pfm_event_set *set, unsigned int pmd)
{
	struct pfm_smpl_buf *b = &owner->smpl;
	unsigned long flags;
	bool full, first;

	raw_spin_lock_irqsave(&owner->smpl_lock, flags);
	full = b->fmt->handler(b, ctx, set, pmd);
	first = full && !b->full_told;
	if (full)
		b->full_told = true;
	raw_spin_unlock_irqrestore(&owner->smpl_lock, flags);
	return first;
}

int pfm_smpl_drain(struct pfm_context *ctx, u64 n)
{
	struct pfm_smpl_buf *b = &ctx->smpl;
	unsigned long flags;
	int ret;

	if (!b->shared)
		return -EINVAL;
	raw_spin_lock_irqsave(&ctx->smpl_lock, flags);
	ret = b->fmt->drain(b, n);
	if (!ret)
		b->full_told = false;
	raw_spin_unlock_irqrestore(&ctx->smpl_lock, flags);
	return ret;
}

/* A shared buffer's reader is told it filled, and nobody is masked. */
static noinline bool pfm_smpl_record_shared(struct pfm_context *ctx, struct pfm_event_set *set,
					    unsigned int pmd)
{
	DECLARE_BITMAP(bits, PFM_MAX_PMDS);

	if (pfm_smpl_append(ctx, ctx, set, pmd)) {
		bitmap_zero(bits, PFM_MAX_PMDS);
		__set_bit(pmd, bits);
		pfm_msg_ovfl_locked(ctx, bits);
	}
	return false;
}

/*
 * A sample of ctx's own: into its buffer, or its sink's (a layer's, layer.h);
 * true when the buffer is full and ctx is to be masked.  The shared buffer's
 * path is apart, so that the common one stays a tail call into the format's
 * handler, with no frame and no array on the stack.
 */
bool pfm_smpl_record_locked(struct pfm_context *ctx, struct pfm_event_set *set,
			    unsigned int pmd)
{
	if (likely(ctx->smpl.fmt)) {
		if (likely(!ctx->smpl.shared))
			return ctx->smpl.fmt->handler(&ctx->smpl, ctx, set, pmd);
		return pfm_smpl_record_shared(ctx, set, pmd);
	}
	if (ctx->sink)
		ctx->sink->record(ctx->sink_data, ctx, set, pmd);
	return false;
}

/* A shared buffer is drained by its reader, not emptied by the restart. */
void pfm_smpl_restart_locked(struct pfm_context *ctx)
{
	if (ctx->smpl.fmt && ctx->smpl.fmt->restart && !ctx->smpl.shared)
		ctx->smpl.fmt->restart(&ctx->smpl);
}

void pfm_smpl_switch_locked(struct pfm_context *ctx, struct pfm_event_set *prev,
			    struct pfm_event_set *next)
{
	if (ctx->smpl.fmt && ctx->smpl.fmt->set_switch)
		ctx->smpl.fmt->set_switch(&ctx->smpl, ctx, prev, next);
}
