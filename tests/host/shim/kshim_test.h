/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test side of the shim: knobs and counters of kshim.c.  Not seen by the core.
 */
#ifndef _PFM_KSHIM_TEST_H
#define _PFM_KSHIM_TEST_H

#include <kshim.h>

extern long shim_alloc_live;		/* allocations not freed yet */
extern unsigned long shim_alloc_calls;	/* allocations asked for */
extern unsigned long shim_alloc_failed;	/* allocations failed on purpose */
/* Fail the nth allocation from now (1: the next one); 0: fail none. */
void shim_alloc_fail_nth(unsigned long n);

extern unsigned long shim_uaccess_calls;	/* copy_{from,to}_user() calls */
bool shim_uptr_faults(const void *uptr);

extern unsigned int shim_printk_count;
extern const char *shim_printk_last;	/* the last message, cut at 255 characters */
extern const char *shim_printk_all;	/* every message, the first 4095 characters */

extern struct task_struct shim_task_self;	/* `current` unless a test says */
extern struct task_struct shim_task_other;

extern bool shim_module_get_fail;	/* try_module_get() fails */
extern u64 shim_random;			/* what get_random_u64() returns */

bool shim_hrtimer_fire(struct hrtimer *timer);
/* the timer hrtimer_start() started last (a unit's own, which tests cannot name) */
extern struct hrtimer *shim_hrtimer_last;
/* Called at the end of each hrtimer_start(), where timer:hrtimer_start fires. */
extern void (*shim_hrtimer_start_hook)(struct hrtimer *timer);

#endif /* _PFM_KSHIM_TEST_H */
