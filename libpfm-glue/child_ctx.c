// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon: a forked child's context (child_ctx.h).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <unistd.h>

#include "perfmon.h"
#include "child_ctx.h"

int pfm_child_ctx_adopt(int fd)
{
	/* counting starts with the child's first instruction after the fork */
	return pfm_load_context(fd, 0, gettid()) || pfm_start(fd, 0) ? -1 : 0;
}

int pfm_child_ctx_ended(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	union pfarg_msg msg;

	/* the one message such a context gets: PFM_MSG_END when its thread is gone */
	return poll(&p, 1, 0) == 1 && read(fd, &msg, sizeof(msg)) == sizeof(msg) &&
	       msg.type == PFM_MSG_END;
}
