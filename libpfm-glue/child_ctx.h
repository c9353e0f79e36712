/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon, inside: counting a forked child (child_ctx.c), for the compat
 * interfaces that follow fork() (pmc.h's accumulated values, perf_counter.h's
 * inherit).  perfmon never follows a fork; their fork handlers do: before the
 * fork the parent makes a context, unattached, with the child's PMCs; in the child
 * the handler attaches it to the child; the parent keeps the fd, reads it, and
 * learns from it when the child has gone.
 */
#ifndef _LIBPERFMON_CHILD_CTX_H
#define _LIBPERFMON_CHILD_CTX_H

/* In the child: attach context fd (the parent's) to the calling thread and start it. */
int pfm_child_ctx_adopt(int fd);
/*
 * In the parent: 1 once the child of context fd has exited (or been detached at an
 * exec), its PFM_MSG_END taken; its counts stay readable.  0 while it counts.
 */
int pfm_child_ctx_ended(int fd);

#endif
