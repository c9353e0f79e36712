/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host test shim: see ../kshim.h.  A queued work waits for shim_irq_work_run(),
 * as a kernel one waits for interrupts to be on again.
 */
#ifndef _SHIM_LINUX_IRQ_WORK_H
#define _SHIM_LINUX_IRQ_WORK_H

#include <stdbool.h>

struct irq_work {
	unsigned long pending;
	void (*func)(struct irq_work *work);
	struct irq_work *next;
};

#define IRQ_WORK_INIT_HARD(fn)	((struct irq_work){ .func = (fn) })

bool irq_work_queue(struct irq_work *work);
void irq_work_sync(struct irq_work *work);
/* Runs the queued works, and those they queue: how many ran. */
unsigned int shim_irq_work_run(void);

#endif
