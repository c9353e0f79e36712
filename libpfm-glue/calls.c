// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon: the public calls.
 *
 * Every call goes to the kernel, whatever its arguments: the kernel owns the
 * validation and its errno is the answer.  These wrappers only turn the C
 * prototypes (variadic ones included) into the raw call's argument list.
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

static int vec_call(int call, int fd, void *req, size_t size)
{
	return (int)pfm_door_vec_call(call, fd, req, size);
}

int pfm_write_pmcs(int fd, struct pfarg_pmc *req, size_t size)
{
	return vec_call(PFM_CALL_WRITE_PMCS, fd, req, size);
}

int pfm_write_pmds(int fd, struct pfarg_pmd *req, size_t size)
{
	return vec_call(PFM_CALL_WRITE_PMDS, fd, req, size);
}

int pfm_read_pmds(int fd, struct pfarg_pmd *req, size_t size)
{
	return vec_call(PFM_CALL_READ_PMDS, fd, req, size);
}

int pfm_create_evtsets(int fd, struct pfarg_setdesc *req, size_t size)
{
	return vec_call(PFM_CALL_CREATE_EVTSETS, fd, req, size);
}

int pfm_delete_evtsets(int fd, struct pfarg_setdesc *req, size_t size)
{
	return vec_call(PFM_CALL_DELETE_EVTSETS, fd, req, size);
}

int pfm_getinfo_evtsets(int fd, struct pfarg_setinfo *req, size_t size)
{
	return vec_call(PFM_CALL_GETINFO_EVTSETS, fd, req, size);
}

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
	int set_id = 0;
	va_list ap;

	/* the set id exists only when the flag says so */
	if (flags & PFM_STARTFL_SET) {
		va_start(ap, flags);
		set_id = va_arg(ap, int);
		va_end(ap);
	}
	return ctl_call(PFM_CALL_START, fd, flags, set_id);
}

int pfm_stop(int fd, int flags)
{
	return ctl_call(PFM_CALL_STOP, fd, flags, 0);
}

int pfm_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			int group_fd, unsigned long flags)
{
	return (int)pfm_door_call(PFM_CALL_PERF_EVENT_OPEN, PTR_ARG(attr),
				  INT_ARG(pid), INT_ARG(cpu), INT_ARG(group_fd),
				  flags);
}
