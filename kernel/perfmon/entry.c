// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the entry points, one table shared by both doors (entry.h).
 *
 * Both doors hand pfm_call() the arguments in the order of the system call; the row
 * says how to widen them and what shape of call runs: a vector call copies its vector
 * in, runs under ctx->mutex and copies it back out if the row says so; a control call
 * runs under ctx->mutex; a plain call gets the arguments as they are.
 */
#include <linux/uaccess.h>

#include "internal.h"
#include "access.h"
#include "args.h"
#include "ctx.h"
#include "entry.h"
#include "file.h"
#include "perf/perf.h"
#include "rw.h"
#include "rw_user.h"
#include "sets.h"
#include "smpl.h"
#include "state.h"

/* (flags, smpl_name, smpl_arg, smpl_arg_size): the new context's fd */
static long pfm_create_context(const struct pfm_args *args)
{
	const unsigned long *a = args->a;
	struct pfm_smpl_buf smpl = {};
	u32 flags = a[0];
	struct pfm_context *ctx;
	long ret;
	int fd;

	ret = pfm_check_create_flags(flags);
	if (ret)
		return ret;
	ret = pfm_access_create(flags);
	if (ret)
		return ret;
	if (flags & PFM_FL_SMPL_FMT) {
		ret = pfm_smpl_setup(&smpl, flags, (const char __user *)a[1],
				     (const void __user *)a[2], a[3]);
		if (ret)
			return ret;
	} else if (a[1] || a[2] || a[3]) {
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

/*
 * Common body of the vector calls, on a context the door found: copy in, run under
 * the mutex, copy out; or, for a call that moves its own fields, the size rules of
 * a copy and the call.
 */
long pfm_vec_run(const struct pfm_entry *e, struct pfm_context *ctx, void __user *uptr,
		 u64 size)
{
	void *req;
	long ret;

	if (e->user_vec)
		return e->uvec(ctx, uptr, size);
	req = pfm_vec_copy_in(uptr, size, e->elem_size);
	if (IS_ERR(req))
		return PTR_ERR(req);
	mutex_lock(&ctx->mutex);
	ret = e->vec(ctx, req, size / e->elem_size);
	mutex_unlock(&ctx->mutex);
	if (!ret && e->copy_out)
		ret = pfm_vec_copy_out(uptr, req, size);
	kfree(req);
	return ret;
}

/* (fd, req, size) */
static long pfm_vec_call(const struct pfm_entry *e, const struct pfm_args *args)
{
	struct pfm_context *ctx;
	long ret;

	ctx = pfm_ctx_from_fd((int)args->a[0]);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = pfm_vec_run(e, ctx, (void __user *)args->a[1], args->a[2]);
	pfm_context_put(ctx);
	return ret;
}

static long pfm_ctl_call(const struct pfm_entry *e, const struct pfm_args *args)
{
	struct pfm_context *ctx;
	long ret;

	ctx = pfm_ctx_from_fd((int)args->a[0]);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	mutex_lock(&ctx->mutex);
	if (e->kind == PFM_ENTRY_CTL)
		ret = e->ctl(ctx, args->a[1], args->a[2]);
	else
		ret = e->ctl_flags(ctx, args->a[1]);
	mutex_unlock(&ctx->mutex);
	pfm_context_put(ctx);
	return ret;
}

/* (attr, pid, cpu, group_fd, flags), as perf_event_open(2) takes them (perf_open.c) */
static long pfm_perf_event_open_entry(const struct pfm_args *args)
{
	const unsigned long *a = args->a;

	return pfm_perf_event_open((struct perf_event_attr __user *)a[0], (int)a[1],
				   (int)a[2], (int)a[3], a[4]);
}

/*
 * Indexed by call number and unsized, so that the check below fails when a call
 * number has no row.  Rows keep the order of the PFM_CALL_* numbers.
 */
const struct pfm_entry pfm_entries[] = {
	[PFM_CALL_CREATE_CONTEXT] = {
		.name = "pfm_create_context", .kind = PFM_ENTRY_CALL, .ioc = PFM_IOC_CREATE,
		.args = { PFM_ARG_U32, PFM_ARG_ULONG, PFM_ARG_ULONG, PFM_ARG_ULONG },
		.call = pfm_create_context,
	},
	[PFM_CALL_WRITE_PMCS] = {
		.name = "pfm_write_pmcs", .kind = PFM_ENTRY_VEC, .ioc = PFM_IOC_VEC,
		.elem_size = sizeof(struct pfarg_pmc), .vec = pfm_write_pmcs,
	},
	[PFM_CALL_WRITE_PMDS] = {
		.name = "pfm_write_pmds", .kind = PFM_ENTRY_VEC, .ioc = PFM_IOC_VEC,
		.elem_size = sizeof(struct pfarg_pmd), .vec = pfm_write_pmds,
	},
	[PFM_CALL_READ_PMDS] = {
		.name = "pfm_read_pmds", .kind = PFM_ENTRY_VEC, .ioc = PFM_IOC_VEC,
		.elem_size = sizeof(struct pfarg_pmd), .user_vec = true,
		.uvec = pfm_read_pmds_user,
	},
	[PFM_CALL_LOAD_CONTEXT] = {
		.name = "pfm_load_context", .kind = PFM_ENTRY_CTL, .ioc = PFM_IOC_CTL,
		.ctl = pfm_load,
	},
	[PFM_CALL_START] = {
		.name = "pfm_start", .kind = PFM_ENTRY_CTL, .ioc = PFM_IOC_CTL,
		.ctl = pfm_start,
	},
	[PFM_CALL_STOP] = {
		.name = "pfm_stop", .kind = PFM_ENTRY_CTL_FLAGS, .ioc = PFM_IOC_CTL,
		.ctl_flags = pfm_stop,
	},
	[PFM_CALL_CREATE_EVTSETS] = {
		.name = "pfm_create_evtsets", .kind = PFM_ENTRY_VEC, .ioc = PFM_IOC_VEC,
		.elem_size = sizeof(struct pfarg_setdesc), .copy_out = true,
		.vec = pfm_create_evtsets,
	},
	[PFM_CALL_GETINFO_EVTSETS] = {
		.name = "pfm_getinfo_evtsets", .kind = PFM_ENTRY_VEC, .ioc = PFM_IOC_VEC,
		.elem_size = sizeof(struct pfarg_setinfo), .copy_out = true,
		.vec = pfm_getinfo_evtsets,
	},
	[PFM_CALL_DELETE_EVTSETS] = {
		.name = "pfm_delete_evtsets", .kind = PFM_ENTRY_VEC, .ioc = PFM_IOC_VEC,
		.elem_size = sizeof(struct pfarg_setdesc), .vec = pfm_delete_evtsets,
	},
	[PFM_CALL_UNLOAD_CONTEXT] = {
		.name = "pfm_unload_context", .kind = PFM_ENTRY_CTL_FLAGS, .ioc = PFM_IOC_CTL,
		.ctl_flags = pfm_unload,
	},
	[PFM_CALL_PERF_EVENT_OPEN] = {	/* (attr, pid, cpu, group_fd, flags): a new fd */
		.name = "pfm_perf_event_open", .kind = PFM_ENTRY_CALL, .ioc = PFM_IOC_ARGS,
		.args = { PFM_ARG_ULONG, PFM_ARG_INT, PFM_ARG_INT, PFM_ARG_INT, PFM_ARG_ULONG },
		.call = pfm_perf_event_open_entry,
	},
};
static_assert(ARRAY_SIZE(pfm_entries) == PFM_CALL_NR);

/* The argument types of the kinds whose shape is fixed. */
static const enum pfm_arg_type pfm_kind_args[][PFM_ENTRY_MAX_ARGS] = {
	[PFM_ENTRY_VEC]		= { PFM_ARG_INT, PFM_ARG_ULONG, PFM_ARG_ULONG },
	[PFM_ENTRY_CTL]		= { PFM_ARG_INT, PFM_ARG_U32, PFM_ARG_ULONG },
	[PFM_ENTRY_CTL_FLAGS]	= { PFM_ARG_INT, PFM_ARG_U32 },
};

/* The row of call nr, or NULL if there is no such call. */
const struct pfm_entry *pfm_entry(unsigned int nr)
{
	if (nr >= ARRAY_SIZE(pfm_entries) || !pfm_entries[nr].name)
		return NULL;
	return &pfm_entries[nr];
}

static const enum pfm_arg_type *pfm_entry_args(const struct pfm_entry *e)
{
	return e->kind == PFM_ENTRY_CALL ? e->args : pfm_kind_args[e->kind];
}

unsigned int pfm_entry_nargs(const struct pfm_entry *e)
{
	const enum pfm_arg_type *t = pfm_entry_args(e);
	unsigned int n = 0;

	while (n < PFM_ENTRY_MAX_ARGS && t[n] != PFM_ARG_NONE)
		n++;
	return n;
}

/*
 * Widens each argument as its type says; an argument the call does not take must be
 * 0 (the ioctl structures have room for some that not every call uses).
 */
static int pfm_args_widen(const struct pfm_entry *e, const struct pfm_args *in,
			  struct pfm_args *out)
{
	const enum pfm_arg_type *t = pfm_entry_args(e);
	unsigned int i;

	for (i = 0; i < PFM_ENTRY_MAX_ARGS; i++) {
		switch (t[i]) {
		case PFM_ARG_NONE:
			if (in->a[i])
				return -EINVAL;
			out->a[i] = 0;
			break;
		case PFM_ARG_INT:
			out->a[i] = (unsigned long)(long)(int)in->a[i];
			break;
		case PFM_ARG_U32:
			out->a[i] = (u32)in->a[i];
			break;
		case PFM_ARG_ULONG:
			out->a[i] = in->a[i];
			break;
		}
	}
	return 0;
}

long pfm_call(unsigned int nr, const struct pfm_args *args)
{
	const struct pfm_entry *e = pfm_entry(nr);
	struct pfm_args a;
	int ret;

	if (!e)
		return -ENOSYS;
	ret = pfm_args_widen(e, args, &a);
	if (ret)
		return ret;
	switch (e->kind) {
	case PFM_ENTRY_CALL:
		return e->call(&a);
	case PFM_ENTRY_VEC:
		return pfm_vec_call(e, &a);
	case PFM_ENTRY_CTL:
	case PFM_ENTRY_CTL_FLAGS:
		return pfm_ctl_call(e, &a);
	}
	return -ENOSYS;
}
