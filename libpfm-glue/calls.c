// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon: the public calls.
 *
 * Every call goes to the kernel, whatever its arguments: the kernel owns the
 * validation and its errno is the answer.  These wrappers only turn the C
 * prototypes (variadic ones included) into the raw call's argument list.  The
 * vector calls and the calls of ARGS shape are made from the list of calls
 * (PFM_CALLS in <perfmon/perfmon_calls.h>); the others, variadic or not, by hand.
 */
#include <stdarg.h>
#include <stdint.h>

#include "perfmon.h"
#include "door.h"

/*
 * An int argument travels sign-extended, so that the kernel sees the caller's
 * value whether it takes the argument as an int or as a 64-bit field.
 */
#define INT_ARG(x)	((unsigned long)(long)(x))
#define PTR_ARG(p)	((unsigned long)(uintptr_t)(p))

int pfm_create_context(int flags, ...)
{
	char *smpl_name = NULL;
	void *smpl_arg = NULL;
	size_t smpl_arg_size = 0;
	va_list ap;

	/* the sampling arguments exist only when the flag says so */
	if (flags & PFM_FL_SMPL_FMT) {
		va_start(ap, flags);
		smpl_name = va_arg(ap, char *);
		smpl_arg = va_arg(ap, void *);
		smpl_arg_size = va_arg(ap, size_t);
		va_end(ap);
	}
	return (int)pfm_door_call(PFM_CALL_CREATE_CONTEXT, (unsigned int)flags,
				  PTR_ARG(smpl_name), PTR_ARG(smpl_arg),
				  smpl_arg_size, 0);
}

/* (fd, req, size): the cheapest door (door.h) */
#define VEC_CALL(nr, NAME, name, elem)						\
	int pfm_##name(int fd, elem *req, size_t size)				\
	{									\
		return (int)pfm_door_vec_call(PFM_CALL_##NAME, fd, req, size);	\
	}

/* Any arguments, each as the list says the kernel widens it. */
#define ARG_TYPE_INT(type)	type
#define ARG_TYPE_U32(type)	type
#define ARG_TYPE_ULONG(type)	type
#define ARG_TYPE_PTR(type)	type *
#define ARG_PARAM(kind, type, arg)	ARG_TYPE_##kind(type) arg
#define ARG_VALUE_INT(arg)	INT_ARG(arg)
#define ARG_VALUE_U32(arg)	((unsigned long)(unsigned int)(arg))
#define ARG_VALUE_ULONG(arg)	((unsigned long)(arg))
#define ARG_VALUE_PTR(arg)	PTR_ARG(arg)
#define ARG_VALUE(kind, type, arg)	ARG_VALUE_##kind(arg)

#define ARGS_CALL(nr, NAME, name, ...)						\
	int pfm_##name(__PFM_ARGS_MAP(ARG_PARAM, __VA_ARGS__))			\
	{									\
		unsigned long a[5] = { __PFM_ARGS_MAP(ARG_VALUE, __VA_ARGS__) };\
										\
		return (int)pfm_door_call(PFM_CALL_##NAME, a[0], a[1], a[2],	\
					  a[3], a[4]);				\
	}

#define CALL_CREATE(...)
#define CALL_CTL(...)
#define CALL_CTL_FLAGS(...)
#define CALL_VEC(nr, NAME, name, elem, ...)	VEC_CALL(nr, NAME, name, elem)
#define CALL_VEC_OUT(nr, NAME, name, elem, ...)	VEC_CALL(nr, NAME, name, elem)
#define CALL_VEC_USER(nr, NAME, name, elem, ...) VEC_CALL(nr, NAME, name, elem)
#define CALL_ARGS(nr, NAME, name, elem, ...)	ARGS_CALL(nr, NAME, name, __VA_ARGS__)
#define CALL_ARGS_LAYER(nr, NAME, name, elem, ...) ARGS_CALL(nr, NAME, name, __VA_ARGS__)
#define CALL(nr, NAME, name, shape, ioc, elem, ...) \
	CALL_##shape(nr, NAME, name, elem, __VA_ARGS__)

PFM_CALLS(CALL)

/* pfm_door_call() carries five arguments. */
#define CALL_NARGS_CHECK(nr, NAME, name, shape, ioc, elem, ...) \
	_Static_assert(__PFM_NARGS(__VA_ARGS__) <= 5, "pfm_" #name ": too many arguments");
PFM_CALLS(CALL_NARGS_CHECK)

static int ctl_call(int call, int fd, int flags, long arg)
{
	return (int)pfm_door_call(call, INT_ARG(fd), (unsigned int)flags,
				  (unsigned long)arg, 0, 0);
}

int pfm_load_context(int fd, int flags, int target)
{
	return ctl_call(PFM_CALL_LOAD_CONTEXT, fd, flags, target);
}

int pfm_unload_context(int fd, int flags)
{
	return ctl_call(PFM_CALL_UNLOAD_CONTEXT, fd, flags, 0);
}

int pfm_start(int fd, int flags, ...)
{
	long arg = 0;
	va_list ap;

	/* the set id, or the samples drained, exist only when a flag says so */
	va_start(ap, flags);
	if (flags & PFM_STARTFL_SET)
		arg = va_arg(ap, int);
	else if (flags & PFM_STARTFL_DRAIN)
		arg = (long)va_arg(ap, unsigned long);
	va_end(ap);
	return ctl_call(PFM_CALL_START, fd, flags, arg);
}

int pfm_stop(int fd, int flags)
{
	return ctl_call(PFM_CALL_STOP, fd, flags, 0);
}
