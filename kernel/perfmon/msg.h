/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: a context's message queue (msg.c): queued where the events happen,
 * read from the context fd (file.c).  What the core queues is in env.h.
 */
#ifndef _PERFMON_MSG_H
#define _PERFMON_MSG_H

struct pfm_context;
struct task_struct;
union pfarg_msg;

void pfm_msg_end(struct pfm_context *ctx, struct task_struct *task, u32 reason);
bool pfm_msg_pending(struct pfm_context *ctx);
bool pfm_msg_pop(struct pfm_context *ctx, union pfarg_msg *msg);
void pfm_msg_unpop(struct pfm_context *ctx, const union pfarg_msg *msg);

#endif /* _PERFMON_MSG_H */
