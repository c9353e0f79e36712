// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the entry points, one table shared by both doors.
 *
 * Each call takes up to four arguments in the order of its system call; the ioctl
 * door (dev.c) unpacks its structure into the same four, the syscall door passes its
 * registers, so both run exactly the same code.
 */
#include <linux/uaccess.h>

#include "internal.h"
#include "entry.h"
#include "file.h"
#include "perf.h"
#include "smpl.h"

static long pfm_create_context(unsigned long a0, unsigned long a1, unsigned long a2,
			       unsigned long a3)
{
	struct pfm_smpl_buf smpl = {};
	u32 flags = (u32)a0;
	struct pfm_context *ctx;
	long ret;
	int fd;

	if (a0 != flags)
		return -EINVAL;
	ret = pfm_check_create_flags(flags);
	if (ret)
		return ret;
	ret = pfm_access_create(flags);
	if (ret)
		return ret;
	if (flags & PFM_FL_SMPL_FMT) {
		ret = pfm_smpl_setup(&smpl, flags, (const char __user *)a1,
				     (const void __user *)a2, a3);
		if (ret)
			return ret;
	} else if (a1 || a2 || a3) {
		return -EINVAL;
	}

	ctx = pfm_context_alloc(flags);
	if (IS_ERR(ctx)) {
		pfm_smpl_release(&smpl);
		return PTR_ERR(ctx);
	}
	ctx->smpl = smpl;
	fd = pfm_ctx_install_fd(ctx, flags & PFM_FL_CLOEXEC);
	if (fd < 0) {
		pfm_smpl_release(&ctx->smpl);
		pfm_context_put(ctx);
	}
	return fd;
}

typedef long (*pfm_vec_fn)(struct pfm_context *ctx, void *req, unsigned int n);

/* Common body of the vector calls: fd, copy in, run under the mutex, copy out. */
static long pfm_vec_call(unsigned long fd, unsigned long ureq, unsigned long size,
			 size_t elem, pfm_vec_fn fn, bool copy_out)
{
	void __user *uptr = (void __user *)ureq;
	struct pfm_context *ctx;
	void *req;
	long ret;

	ctx = pfm_ctx_from_fd((int)fd);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	req = pfm_vec_copy_in(uptr, size, elem);
	if (IS_ERR(req)) {
		ret = PTR_ERR(req);
		goto out_ctx;
	}
	mutex_lock(&ctx->mutex);
	ret = fn(ctx, req, size / elem);
	mutex_unlock(&ctx->mutex);
	if (!ret && copy_out)
		ret = pfm_vec_copy_out(uptr, req, size);
	kfree(req);
out_ctx:
	pfm_context_put(ctx);
	return ret;
}

static long pfm_do_write_pmcs(struct pfm_context *ctx, void *req, unsigned int n)
{
	return pfm_write_pmcs(ctx, req, n);
}

static long pfm_do_write_pmds(struct pfm_context *ctx, void *req, unsigned int n)
{
	return pfm_write_pmds(ctx, req, n);
}

static long pfm_do_read_pmds(struct pfm_context *ctx, void *req, unsigned int n)
{
	return pfm_read_pmds(ctx, req, n);
}

static long pfm_write_pmcs_entry(unsigned long a0, unsigned long a1, unsigned long a2,
				 unsigned long a3)
{
	return pfm_vec_call(a0, a1, a2, sizeof(struct pfarg_pmc), pfm_do_write_pmcs, false);
}

static long pfm_write_pmds_entry(unsigned long a0, unsigned long a1, unsigned long a2,
				 unsigned long a3)
{
	return pfm_vec_call(a0, a1, a2, sizeof(struct pfarg_pmd), pfm_do_write_pmds, false);
}

static long pfm_read_pmds_entry(unsigned long a0, unsigned long a1, unsigned long a2,
				unsigned long a3)
{
	return pfm_vec_call(a0, a1, a2, sizeof(struct pfarg_pmd), pfm_do_read_pmds, true);
}

static long pfm_do_create_evtsets(struct pfm_context *ctx, void *req, unsigned int n)
{
	return pfm_create_evtsets(ctx, req, n);
}

static long pfm_do_delete_evtsets(struct pfm_context *ctx, void *req, unsigned int n)
{
	return pfm_delete_evtsets(ctx, req, n);
}

static long pfm_do_getinfo_evtsets(struct pfm_context *ctx, void *req, unsigned int n)
{
	return pfm_getinfo_evtsets(ctx, req, n);
}

static long pfm_create_evtsets_entry(unsigned long a0, unsigned long a1, unsigned long a2,
				     unsigned long a3)
{
	return pfm_vec_call(a0, a1, a2, sizeof(struct pfarg_setdesc),
			    pfm_do_create_evtsets, true);
}

static long pfm_delete_evtsets_entry(unsigned long a0, unsigned long a1, unsigned long a2,
				     unsigned long a3)
{
	return pfm_vec_call(a0, a1, a2, sizeof(struct pfarg_setdesc),
			    pfm_do_delete_evtsets, false);
}

static long pfm_getinfo_evtsets_entry(unsigned long a0, unsigned long a1, unsigned long a2,
				      unsigned long a3)
{
	return pfm_vec_call(a0, a1, a2, sizeof(struct pfarg_setinfo),
			    pfm_do_getinfo_evtsets, true);
}

typedef long (*pfm_ctl_fn)(struct pfm_context *ctx, u32 flags, u64 arg);

static long pfm_ctl_call(unsigned long fd, unsigned long flags, u64 arg, pfm_ctl_fn fn)
{
	struct pfm_context *ctx;
	long ret;

	ctx = pfm_ctx_from_fd((int)fd);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (flags != (u32)flags) {
		ret = -EINVAL;
		goto out;
	}
	mutex_lock(&ctx->mutex);
	ret = fn(ctx, (u32)flags, arg);
	mutex_unlock(&ctx->mutex);
out:
	pfm_context_put(ctx);
	return ret;
}

static long pfm_load_entry(unsigned long a0, unsigned long a1, unsigned long a2,
			   unsigned long a3)
{
	return pfm_ctl_call(a0, a1, a2, pfm_load);
}

static long pfm_start_entry(unsigned long a0, unsigned long a1, unsigned long a2,
			    unsigned long a3)
{
	return pfm_ctl_call(a0, a1, a2, pfm_start);
}

static long pfm_no_arg_unload(struct pfm_context *ctx, u32 flags, u64 arg)
{
	return pfm_unload(ctx, flags);
}

static long pfm_no_arg_stop(struct pfm_context *ctx, u32 flags, u64 arg)
{
	return pfm_stop(ctx, flags);
}

static long pfm_stop_entry(unsigned long a0, unsigned long a1, unsigned long a2,
			   unsigned long a3)
{
	if (a2)
		return -EINVAL;
	return pfm_ctl_call(a0, a1, 0, pfm_no_arg_stop);
}

static long pfm_unload_entry(unsigned long a0, unsigned long a1, unsigned long a2,
			     unsigned long a3)
{
	if (a2)
		return -EINVAL;
	return pfm_ctl_call(a0, a1, 0, pfm_no_arg_unload);
}

/*
 * perf_event_open(2)'s five arguments in the table's four: pid and cpu are ints
 * and travel together in a1, pid in the low half (dev.c packs them).
 */
static long pfm_perf_event_open_entry(unsigned long a0, unsigned long a1,
				      unsigned long a2, unsigned long a3)
{
	return pfm_perf_event_open((struct perf_event_attr __user *)a0, (int)(u32)a1,
				   (int)(u32)((u64)a1 >> 32), (int)a2, a3);
}

const struct pfm_entry pfm_entries[PFM_CALL_NR] = {
	[PFM_CALL_CREATE_CONTEXT]	= { "pfm_create_context", pfm_create_context },
	[PFM_CALL_WRITE_PMCS]		= { "pfm_write_pmcs", pfm_write_pmcs_entry },
	[PFM_CALL_WRITE_PMDS]		= { "pfm_write_pmds", pfm_write_pmds_entry },
	[PFM_CALL_READ_PMDS]		= { "pfm_read_pmds", pfm_read_pmds_entry },
	[PFM_CALL_LOAD_CONTEXT]		= { "pfm_load_context", pfm_load_entry },
	[PFM_CALL_START]		= { "pfm_start", pfm_start_entry },
	[PFM_CALL_STOP]			= { "pfm_stop", pfm_stop_entry },
	[PFM_CALL_CREATE_EVTSETS]	= { "pfm_create_evtsets", pfm_create_evtsets_entry },
	[PFM_CALL_GETINFO_EVTSETS]	= { "pfm_getinfo_evtsets", pfm_getinfo_evtsets_entry },
	[PFM_CALL_DELETE_EVTSETS]	= { "pfm_delete_evtsets", pfm_delete_evtsets_entry },
	[PFM_CALL_UNLOAD_CONTEXT]	= { "pfm_unload_context", pfm_unload_entry },
	[PFM_CALL_PERF_EVENT_OPEN]	= { "pfm_perf_event_open", pfm_perf_event_open_entry },
};

long pfm_call(unsigned int nr, unsigned long a0, unsigned long a1, unsigned long a2,
	      unsigned long a3)
{
	BUILD_BUG_ON(ARRAY_SIZE(pfm_entries) != PFM_CALL_NR);
	if (nr >= PFM_CALL_NR || !pfm_entries[nr].fn)
		return -ENOSYS;
	return pfm_entries[nr].fn(a0, a1, a2, a3);
}
