/* SPDX-License-Identifier: GPL-2.0 */
/* Host test shim: see ../kshim.h.  The core only embeds one; msg.c uses it. */
#ifndef _SHIM_LINUX_IRQ_WORK_H
#define _SHIM_LINUX_IRQ_WORK_H

struct irq_work {
	unsigned long pending;
};

#endif
