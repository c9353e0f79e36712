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
#include "race.h"
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
	struct fd f;
	long ret;

	ctx = pfm_ctx_fdget((int)args->a[0], &f);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	pfm_race_window(PFM_RACE_CALL_FD);
	ret = pfm_vec_run(e, ctx, (void __user *)args->a[1], args->a[2]);
	fdput(f);
	return ret;
}

static long pfm_ctl_call(const struct pfm_entry *e, const struct pfm_args *args)
{
	struct pfm_context *ctx;
	struct fd f;
	long ret;

	ctx = pfm_ctx_fdget((int)args->a[0], &f);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	pfm_race_window(PFM_RACE_CALL_FD);
	mutex_lock(&ctx->mutex);
	if (e->kind == PFM_ENTRY_CTL)
		ret = e->ctl(ctx, args->a[1], args->a[2]);
	else
		ret = e->ctl_flags(ctx, args->a[1]);
	mutex_unlock(&ctx->mutex);
	fdput(f);
	return ret;
}

/*
 * The rows run pfm_<name>(); the core calls these two by shorter names, which its
 * other users (file.c, the perf layer) share.
 */
static long pfm_load_context(struct pfm_context *ctx, u32 flags, u64 target)
{
	return pfm_load(ctx, flags, target);
}

static long pfm_unload_context(struct pfm_context *ctx, u32 flags)
{
	return pfm_unload(ctx, flags);
}

/*
 * A row of the table from a line of PFM_CALLS: its name, its arguments' widening,
 * and from its shape the kind of call, the ioctl layout and the function,
 * pfm_<name>() (pfm_<name>_user() for a vector the call reads in place).
 */
#define PFM_ROW_ARG_INT		PFM_ARG_INT
#define PFM_ROW_ARG_U32		PFM_ARG_U32
#define PFM_ROW_ARG_ULONG	PFM_ARG_ULONG
#define PFM_ROW_ARG_PTR		PFM_ARG_ULONG
#define PFM_ROW_ARG(kind, type, arg)	PFM_ROW_ARG_##kind

#define PFM_ROW_CREATE(name, elem) \
	.kind = PFM_ENTRY_CALL, .ioc = PFM_IOC_CREATE, .call = pfm_##name
#define PFM_ROW_VEC(name, elem) \
	.kind = PFM_ENTRY_VEC, .ioc = PFM_IOC_VEC, .elem_size = sizeof(elem), \
	.vec = pfm_##name
#define PFM_ROW_VEC_OUT(name, elem) \
	PFM_ROW_VEC(name, elem), .copy_out = true
#define PFM_ROW_VEC_USER(name, elem) \
	.kind = PFM_ENTRY_VEC, .ioc = PFM_IOC_VEC, .elem_size = sizeof(elem), \
	.user_vec = true, .uvec = pfm_##name##_user
#define PFM_ROW_CTL(name, elem) \
	.kind = PFM_ENTRY_CTL, .ioc = PFM_IOC_CTL, .ctl = pfm_##name
#define PFM_ROW_CTL_FLAGS(name, elem) \
	.kind = PFM_ENTRY_CTL_FLAGS, .ioc = PFM_IOC_CTL, .ctl_flags = pfm_##name
#define PFM_ROW_ARGS(name, elem) \
	.kind = PFM_ENTRY_CALL, .ioc = PFM_IOC_ARGS, .call = pfm_##name
#define PFM_ROW_ARGS_LAYER(name, elem) \
	.kind = PFM_ENTRY_LAYER, .ioc = PFM_IOC_ARGS

#define PFM_ROW(nr, NAME, call, shape, ioc, elem, ...)				\
	[PFM_CALL_##NAME] = {							\
		.name = "pfm_" #call,						\
		.args = { __PFM_ARGS_MAP(PFM_ROW_ARG, __VA_ARGS__) },		\
		PFM_ROW_##shape(call, elem),					\
	},

/*
 * Indexed by call number and unsized, so that the check below fails when a call
 * number has no row.
 */
const struct pfm_entry pfm_entries[] = {
	PFM_CALLS(PFM_ROW)
};
static_assert(ARRAY_SIZE(pfm_entries) == PFM_CALL_NR);

/*
 * The list is dense and in number order (the system calls are numbered from the
 * first in list order): each line's number is its position.
 */
#define PFM_ROW_SEQ(nr, NAME, ...)	PFM_ROW_SEQ_##NAME,
enum { PFM_CALLS(PFM_ROW_SEQ) };
#define PFM_ROW_CHECK_SEQ(nr, NAME, ...) \
	static_assert((nr) == (int)PFM_ROW_SEQ_##NAME);
PFM_CALLS(PFM_ROW_CHECK_SEQ)

/* The numbers are ABI. */
static_assert(PFM_CALL_CREATE_CONTEXT == 0);
static_assert(PFM_CALL_WRITE_PMCS == 1);
static_assert(PFM_CALL_WRITE_PMDS == 2);
static_assert(PFM_CALL_READ_PMDS == 3);
static_assert(PFM_CALL_LOAD_CONTEXT == 4);
static_assert(PFM_CALL_START == 5);
static_assert(PFM_CALL_STOP == 6);
static_assert(PFM_CALL_CREATE_EVTSETS == 7);
static_assert(PFM_CALL_GETINFO_EVTSETS == 8);
static_assert(PFM_CALL_DELETE_EVTSETS == 9);
static_assert(PFM_CALL_UNLOAD_CONTEXT == 10);
static_assert(PFM_CALL_PERF_EVENT_OPEN == 11);
static_assert(PFM_CALL_WRITE_PMC_FILTER == 12);

/* The functions layers registered for their rows (PFM_ENTRY_LAYER). */
static long (*pfm_layer_calls[PFM_CALL_NR])(const struct pfm_args *args);

/* The row of call nr, or NULL if there is no such call. */
const struct pfm_entry *pfm_entry(unsigned int nr)
{
	if (nr >= ARRAY_SIZE(pfm_entries) || !pfm_entries[nr].name)
		return NULL;
	return &pfm_entries[nr];
}

/* Whether call nr is served now: it has a row, and a layer's row has its function. */
bool pfm_entry_served(unsigned int nr)
{
	const struct pfm_entry *e = pfm_entry(nr);

	return e && (e->kind != PFM_ENTRY_LAYER || READ_ONCE(pfm_layer_calls[nr]));
}

unsigned int pfm_entry_nargs(const struct pfm_entry *e)
{
	const enum pfm_arg_type *t = e->args;
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
	const enum pfm_arg_type *t = e->args;
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
	long (*layer_call)(const struct pfm_args *args) = NULL;
	struct pfm_args a;
	int ret;

	if (!e)
		return -ENOSYS;
	/* without its layer the call does not exist: no argument is looked at */
	if (e->kind == PFM_ENTRY_LAYER) {
		layer_call = READ_ONCE(pfm_layer_calls[nr]);
		if (!layer_call)
			return -ENOSYS;
	}
	ret = pfm_args_widen(e, args, &a);
	if (ret)
		return ret;
	switch (e->kind) {
	case PFM_ENTRY_CALL:
		return e->call(&a);
	case PFM_ENTRY_LAYER:
		return layer_call(&a);
	case PFM_ENTRY_VEC:
		return pfm_vec_call(e, &a);
	case PFM_ENTRY_CTL:
	case PFM_ENTRY_CTL_FLAGS:
		return pfm_ctl_call(e, &a);
	}
	return -ENOSYS;
}

/*
 * The layer's module registers at init, before the door opens, and unregisters
 * at exit, after it closed: no call runs while the pointer changes, and the module
 * loader serialises the two.
 */
int pfm_entry_register(unsigned int nr, long (*call)(const struct pfm_args *args))
{
	const struct pfm_entry *e = pfm_entry(nr);

	if (!e)
		return -ENOENT;
	if (e->kind != PFM_ENTRY_LAYER)
		return -EINVAL;
	if (READ_ONCE(pfm_layer_calls[nr]))
		return -EBUSY;
	WRITE_ONCE(pfm_layer_calls[nr], call);
	return 0;
}

void pfm_entry_unregister(unsigned int nr)
{
	const struct pfm_entry *e = pfm_entry(nr);

	if (WARN_ON_ONCE(!e || e->kind != PFM_ENTRY_LAYER))
		return;
	WRITE_ONCE(pfm_layer_calls[nr], NULL);
}
