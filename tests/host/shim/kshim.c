// SPDX-License-Identifier: GPL-2.0
/*
 * kshim.c: the state behind kshim.h, which the host tests drive and check.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <kshim.h>
#include <linux/irq_work.h>
#include "kshim_test.h"

/* WARN */
unsigned int shim_warn_count;
const char *shim_warn_last;

void shim_warn(const char *cond, const char *file, int line)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s:%d: WARN_ON(%s)", file, line, cond);
	shim_warn_last = buf;
	shim_warn_count++;
	fprintf(stderr, "kshim: %s\n", buf);
}

unsigned int shim_printk_count;
static char shim_printk_buf[256];
const char *shim_printk_last = shim_printk_buf;
static char shim_printk_log[4096];
const char *shim_printk_all = shim_printk_log;

void shim_printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(shim_printk_buf, sizeof(shim_printk_buf), fmt, ap);
	va_end(ap);
	fputs(shim_printk_buf, stderr);
	strncat(shim_printk_log, shim_printk_buf,
		sizeof(shim_printk_log) - strlen(shim_printk_log) - 1);
	shim_printk_count++;
}

/* The allocator: malloc underneath (so ASan sees every buffer), counted. */
long shim_alloc_live;
unsigned long shim_alloc_calls;
unsigned long shim_alloc_failed;
static unsigned long shim_fail_countdown;

void shim_alloc_fail_nth(unsigned long n)
{
	shim_fail_countdown = n;
}

/* Not an allocation the tests count: a cache lives as long as the fixture. */
struct kmem_cache *shim_kmem_cache_create(size_t size)
{
	struct kmem_cache *c = calloc(1, sizeof(*c));

	if (c)
		c->size = size;
	return c;
}

void kmem_cache_destroy(struct kmem_cache *c)
{
	free(c);
}

void *shim_kmalloc(size_t size, gfp_t gfp __always_unused, bool zero)
{
	void *p;

	shim_alloc_calls++;
	if (shim_fail_countdown && !--shim_fail_countdown) {
		shim_alloc_failed++;
		return NULL;
	}
	p = malloc(size ? size : 1);
	if (!p)
		return NULL;
	/* kmalloc() memory is not zeroed: poison it so that a missed init shows. */
	memset(p, zero ? 0 : 0xa5, size);
	shim_alloc_live++;
	return p;
}

void kfree(const void *p)
{
	if (!p)
		return;
	shim_alloc_live--;
	free((void *)p);
}

/* User memory: host memory, but low addresses and the bad marker fault. */
unsigned long shim_uaccess_calls;

bool shim_uptr_faults(const void *uptr)
{
	uintptr_t bad = (uintptr_t)SHIM_BAD_UPTR;

	return (uintptr_t)uptr < 4096 || ((uintptr_t)uptr >= bad && (uintptr_t)uptr - bad < (1 << 20));
}

int shim_pagefault_disabled;
unsigned int shim_pagefault_disables;
bool shim_uaccess_window;
int shim_uaccess_fault_at = -1;

/* access_ok() refuses only kernel addresses: a bad user pointer faults on access */
bool shim_user_access_begin(const void __user *p, unsigned long n)
{
	(void)p;
	(void)n;
	WARN_ON(shim_uaccess_window);
	shim_uaccess_window = true;
	return true;
}

void shim_user_access_end(void)
{
	WARN_ON(!shim_uaccess_window);
	shim_uaccess_window = false;
}

bool shim_uaccess_faults(const void __user *p)
{
	WARN_ON(!shim_uaccess_window);
	if (shim_uptr_faults(p))
		return true;
	return shim_pagefault_disabled > 0 && shim_uaccess_fault_at >= 0 &&
	       shim_uaccess_fault_at-- == 0;
}

unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	shim_uaccess_calls++;
	if (shim_uptr_faults(from)) {
		memset(to, 0, n);	/* the kernel zeroes what it could not copy */
		return n;
	}
	memcpy(to, from, n);
	return 0;
}

unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	shim_uaccess_calls++;
	if (shim_uptr_faults(to))
		return n;
	memcpy(to, from, n);
	return 0;
}

/* Tasks: the test's own thread, and another thread of the same process. */
struct task_struct shim_task_self = { .pid = 1000, .comm = "self" };
struct task_struct shim_task_other = { .pid = 1001, .comm = "other" };
struct task_struct *shim_current = &shim_task_self;
int shim_cpu;

/* CPUs: two exist, only CPU 0 is online (and runs everything). */
unsigned int nr_cpu_ids = 2;
unsigned long shim_cpu_online = 1UL;
int shim_cpus_read_locked;

/* The module */
struct module shim_this_module;
bool shim_module_get_fail;

bool try_module_get(struct module *m)
{
	if (shim_module_get_fail)
		return false;
	m->refs++;
	return true;
}

void module_put(struct module *m)
{
	WARN_ON(m->refs <= 0);
	m->refs--;
}

/* hrtimer: expiries on the fake clock of the tests (pfm_clock_ns()). */
unsigned int hrtimer_resolution = 1;
unsigned long shim_hrtimer_starts, shim_hrtimer_cancels;

static struct hrtimer_cpu_base shim_hrtimer_cpu_base;
static struct hrtimer_clock_base shim_hrtimer_base = { .cpu_base = &shim_hrtimer_cpu_base };

void hrtimer_init(struct hrtimer *timer, int clock __always_unused,
		  enum hrtimer_mode mode __always_unused)
{
	memset(timer, 0, sizeof(*timer));
	timer->base = &shim_hrtimer_base;
}

struct hrtimer *shim_hrtimer_last;
void (*shim_hrtimer_start_hook)(struct hrtimer *timer);

void hrtimer_start(struct hrtimer *timer, ktime_t rel, enum hrtimer_mode mode __always_unused)
{
	shim_hrtimer_last = timer;
	timer->armed = true;
	timer->expires = shim_now_ns() + rel;
	shim_hrtimer_starts++;
	if (shim_hrtimer_start_hook)
		shim_hrtimer_start_hook(timer);
}

int hrtimer_try_to_cancel(struct hrtimer *timer)
{
	int was = timer->armed;

	timer->armed = false;
	shim_hrtimer_cancels++;
	return was;
}

ktime_t hrtimer_get_remaining(const struct hrtimer *timer)
{
	return timer->expires - shim_now_ns();
}

u64 hrtimer_forward_now(struct hrtimer *timer, ktime_t interval)
{
	u64 n = 0;

	while (timer->expires <= shim_now_ns()) {
		timer->expires += interval;
		n++;
	}
	return n;
}

/* Runs an armed timer's function as its expiry would, if the clock has reached it. */
bool shim_hrtimer_fire(struct hrtimer *timer)
{
	if (!timer->armed || timer->expires > shim_now_ns())
		return false;
	timer->armed = false;
	if (timer->function(timer) == HRTIMER_RESTART)
		timer->armed = true;
	return true;
}

u64 shim_random;

u64 get_random_u64(void)
{
	return shim_random;
}

/* irq_work.h: the queue shim_irq_work_run() empties */
static struct irq_work *shim_irq_works;

bool irq_work_queue(struct irq_work *work)
{
	struct irq_work **p = &shim_irq_works;

	if (work->pending)
		return false;
	work->pending = 1;
	work->next = NULL;
	while (*p)
		p = &(*p)->next;
	*p = work;
	return true;
}

unsigned int shim_irq_work_run(void)
{
	unsigned int n = 0;

	while (shim_irq_works) {
		struct irq_work *work = shim_irq_works;

		shim_irq_works = work->next;
		work->pending = 0;
		work->func(work);
		n++;
	}
	return n;
}

void irq_work_sync(struct irq_work *work)
{
	if (work->pending)
		shim_irq_work_run();
}
