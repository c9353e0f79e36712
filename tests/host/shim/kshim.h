/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim.h: the part of the kernel API the perfmon core uses, for host unit tests.
 *
 * Every tests/host/shim/linux/<name>.h includes this file, so the core files compile
 * unchanged: internal.h includes <linux/...> headers, and the host build puts
 * tests/host/shim/ first on the include path.  One CPU (CPU 0), no preemption, no
 * interrupts.  What is not plain memory goes through kshim.c, which the tests drive:
 *   - the allocator counts live allocations and can fail the Nth one;
 *   - user memory is host memory, except that a pointer below 4096, or SHIM_BAD_UPTR,
 *     faults;
 *   - WARN_ON*() records instead of printing; the tests require none fired;
 *   - locks are no-ops that record misuse (recursion, unlock of a free lock) as a WARN;
 *   - `current` is a fake task the tests can change; task and module references are
 *     counted so that the tests see them all dropped.
 * Keep it small: add only what the core needs.
 */
#ifndef _PFM_KSHIM_H
#define _PFM_KSHIM_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <linux/errno.h>	/* shim: the system's uapi numbers, as the kernel's */
#include <linux/types.h>	/* shim: the system's uapi __u8..__u64, then this file */

/* types */
typedef __s8 s8;
typedef __u8 u8;
typedef __s16 s16;
typedef __u16 u16;
typedef __s32 s32;
typedef __u32 u32;
typedef __s64 s64;
typedef __u64 u64;
typedef unsigned int gfp_t;
typedef struct { uid_t val; } kuid_t;

#define __user
#define __must_check
#define __always_unused	__attribute__((__unused__))
#define noinline	__attribute__((__noinline__))
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define GFP_KERNEL	0u
#define GFP_ATOMIC	1u
#define PAGE_SIZE	4096UL

/* kernel.h */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")
#define static_assert(expr, ...)	__static_assert(expr, ##__VA_ARGS__, #expr)
#define __static_assert(expr, msg, ...)	_Static_assert(expr, msg)
#define __uninitialized
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
/* Like the kernel's: both sides must have the same type (a warning, -Werror). */
#define __shim_minmax(a, b, op) ({				\
	__typeof__(a) __a = (a);				\
	__typeof__(b) __b = (b);				\
	(void)(&__a == &__b);					\
	__a op __b ? __a : __b; })
#define min(a, b)	__shim_minmax(a, b, <)
#define max(a, b)	__shim_minmax(a, b, >)
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) do { *(volatile __typeof__(x) *)&(x) = (v); } while (0)
/* one thread on the host: ordering against the compiler is enough */
#define smp_wmb()	__asm__ __volatile__("" ::: "memory")
#define pr_err(fmt, ...)	shim_printk(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	shim_printk(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	shim_printk(fmt, ##__VA_ARGS__)
void shim_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* WARN: recorded (count, last place), never printed as a crash. */
extern unsigned int shim_warn_count;
extern const char *shim_warn_last;	/* "file:line: condition" of the last one */
void shim_warn(const char *cond, const char *file, int line);
#define WARN_ON(cond) ({						\
	bool __c = !!(cond);						\
	if (__c)							\
		shim_warn(#cond, __FILE__, __LINE__);			\
	__c; })
#define WARN_ON_ONCE(cond)	WARN_ON(cond)
#define WARN_ONCE(cond, fmt, ...)	WARN_ON(cond)

/* err.h */
#define MAX_ERRNO	4095
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr)
{
	return (unsigned long)ptr >= (unsigned long)-MAX_ERRNO;
}

/* string.h */
static inline void *memchr_inv(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p != (unsigned char)c)
			return (void *)p;
	return NULL;
}

#ifndef U64_MAX
#define U64_MAX			((u64)~0ULL)
#endif
#define DIV_ROUND_UP_ULL(n, d)	(((n) + (d) - 1) / (d))
#ifndef max_t
#define max_t(type, a, b)	((type)(a) > (type)(b) ? (type)(a) : (type)(b))
#define min_t(type, a, b)	((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#endif

/* bitops.h, bitmap.h */
#define BITS_PER_LONG		64
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define BIT_WORD(n)		((n) / BITS_PER_LONG)
#define BIT_MASK(n)		(1UL << ((n) % BITS_PER_LONG))
#define __ffs(x)		((unsigned long)__builtin_ctzl(x))
#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

/* value's bit index is its sign bit (index 63 leaves it as it is) */
static inline s64 sign_extend64(u64 value, int index)
{
	u8 shift = 63 - index;

	return (s64)(value << shift) >> shift;
}

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return addr[BIT_WORD(nr)] & BIT_MASK(nr);
}

static inline bool __test_and_set_bit(unsigned long nr, unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	__set_bit(nr, addr);
	return old;
}

static inline unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
					  unsigned long off)
{
	for (; off < size; off++)
		if (test_bit(off, addr))
			return off;
	return size;
}

#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = find_next_bit((addr), (size), 0); (bit) < (size);	\
	     (bit) = find_next_bit((addr), (size), (bit) + 1))

#define for_each_set_bit_from(bit, addr, size)				\
	for ((bit) = find_next_bit((addr), (size), (bit)); (bit) < (size);	\
	     (bit) = find_next_bit((addr), (size), (bit) + 1))

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_from_arr64(unsigned long *bitmap, const u64 *buf,
				     unsigned int nbits)
{
	unsigned int k;

	for (k = 0; k < BITS_TO_LONGS(nbits); k++)
		bitmap[k] = buf[k];
	if (nbits % BITS_PER_LONG)
		bitmap[k - 1] &= BIT_MASK(nbits) - 1;
}

static inline bool bitmap_subset(const unsigned long *a, const unsigned long *b,
				 unsigned int nbits)
{
	unsigned int i;

	for (i = 0; i < nbits; i++)
		if (test_bit(i, a) && !test_bit(i, b))
			return false;
	return true;
}

static inline void bitmap_copy(unsigned long *dst, const unsigned long *src,
			       unsigned int nbits)
{
	memcpy(dst, src, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_fill(unsigned long *dst, unsigned int nbits)
{
	unsigned int i;

	bitmap_zero(dst, nbits);
	for (i = 0; i < nbits; i++)
		__set_bit(i, dst);
}

static inline void bitmap_or(unsigned long *dst, const unsigned long *a,
			     const unsigned long *b, unsigned int nbits)
{
	unsigned int k;

	for (k = 0; k < BITS_TO_LONGS(nbits); k++)
		dst[k] = a[k] | b[k];
}

static inline bool bitmap_intersects(const unsigned long *a, const unsigned long *b,
				     unsigned int nbits)
{
	unsigned int i;

	for (i = 0; i < nbits; i++)
		if (test_bit(i, a) && test_bit(i, b))
			return true;
	return false;
}

/* As the kernel's: true if any bit is left. */
static inline bool bitmap_and(unsigned long *dst, const unsigned long *a,
			      const unsigned long *b, unsigned int nbits)
{
	unsigned long any = 0;
	unsigned int k;

	for (k = 0; k < BITS_TO_LONGS(nbits); k++)
		any |= dst[k] = a[k] & b[k];
	return any != 0;
}

static inline unsigned int hweight64(u64 w)
{
	return __builtin_popcountll(w);
}

static inline unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits)
{
	unsigned int i, n = 0;

	for (i = 0; i < nbits; i++)
		n += test_bit(i, src);
	return n;
}

static inline bool bitmap_empty(const unsigned long *src, unsigned int nbits)
{
	return find_next_bit(src, nbits, 0) >= nbits;
}

static inline void bitmap_to_arr64(u64 *buf, const unsigned long *bitmap,
				   unsigned int nbits)
{
	unsigned int k;

	for (k = 0; k < BITS_TO_LONGS(nbits); k++)
		buf[k] = bitmap[k];
	if (nbits % BITS_PER_LONG)
		buf[k - 1] &= BIT_MASK(nbits) - 1;
}

/* list.h */
struct list_head {
	struct list_head *next, *prev;
};
struct hlist_node {
	struct hlist_node *next, **pprev;
};
#define SHIM_LIST_POISON1	((void *)0x100)	/* faults, as in the kernel */
#define SHIM_LIST_POISON2	((void *)0x122)

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline void __list_add(struct list_head *n, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_add(n, head, head->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

static inline void list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	e->next = SHIM_LIST_POISON1;
	e->prev = SHIM_LIST_POISON2;
}

#define LIST_HEAD(name)	struct list_head name = { &(name), &(name) }

static inline void list_move(struct list_head *e, struct list_head *head)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	list_add(e, head);
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

static inline bool list_is_last(const struct list_head *l, const struct list_head *head)
{
	return l->next == head;
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_for_each_entry(pos, head, member)					\
	for (pos = list_first_entry(head, __typeof__(*pos), member);		\
	     &pos->member != (head); pos = list_next_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member)				\
	for (pos = list_first_entry(head, __typeof__(*pos), member),		\
	     n = list_next_entry(pos, member);					\
	     &pos->member != (head); pos = n, n = list_next_entry(n, member))

/* Locks: one CPU, nothing runs concurrently; misuse is a WARN. */
struct mutex {
	int held;
};
typedef struct {
	int held;
} raw_spinlock_t;

#define mutex_init(m)		((m)->held = 0)
#define mutex_destroy(m)	((void)WARN_ON((m)->held))
#define mutex_lock(m)		do { WARN_ON((m)->held); (m)->held = 1; } while (0)
#define mutex_unlock(m)		do { WARN_ON(!(m)->held); (m)->held = 0; } while (0)
#define raw_spin_lock_init(l)	((l)->held = 0)
#define raw_spin_lock(l)	do { WARN_ON((l)->held); (l)->held = 1; } while (0)
#define raw_spin_unlock(l)	do { WARN_ON(!(l)->held); (l)->held = 0; } while (0)
#define raw_spin_lock_irqsave(l, f)	do { (f) = 0; raw_spin_lock(l); } while (0)
#define SINGLE_DEPTH_NESTING		1
#define raw_spin_lock_nested(l, sub)	do { (void)(sub); raw_spin_lock(l); } while (0)
#define raw_spin_unlock_irqrestore(l, f) do { (void)(f); raw_spin_unlock(l); } while (0)
#define lockdep_assert_held(l)	WARN_ON(!(l)->held)
#define local_irq_save(f)	((f) = 0)
#define local_irq_restore(f)	((void)(f))
#define preempt_disable()	do { } while (0)
#define preempt_enable()	do { } while (0)

/* refcount.h: saturation and use-after-free cases WARN, as in the kernel. */
typedef struct {
	int refs;
} refcount_t;

static inline void refcount_set(refcount_t *r, int n) { r->refs = n; }
static inline unsigned int refcount_read(const refcount_t *r) { return r->refs; }
static inline void refcount_inc(refcount_t *r)
{
	WARN_ON(r->refs <= 0);
	r->refs++;
}
static inline bool refcount_dec_and_test(refcount_t *r)
{
	if (WARN_ON(r->refs <= 0))
		return false;
	return --r->refs == 0;
}

/* wait.h */
typedef struct {
	int unused;
} wait_queue_head_t;
#define init_waitqueue_head(q)		((void)(q))
#define wake_up_interruptible(q)	((void)(q))

/* sched.h: tasks are fakes; `current` is whichever the test says. */
struct task_struct {
	pid_t pid;
	int usage;			/* references taken and not dropped */
	const char *comm;
};
struct preempt_notifier {
	void *ops;
};
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};

extern struct task_struct *shim_current;
#define current			shim_current
extern int shim_cpu;			/* the CPU we run on: 0 */
#define smp_processor_id()	(shim_cpu)
#define raw_smp_processor_id()	(shim_cpu)
#define task_pid_vnr(t)		((t)->pid)

static inline struct task_struct *get_task_struct(struct task_struct *t)
{
	t->usage++;
	return t;
}

static inline void put_task_struct(struct task_struct *t)
{
	WARN_ON(t->usage <= 0);
	t->usage--;
}

/*
 * cpu.h, cpumask.h: CPUs 0..nr_cpu_ids-1, shim_cpu_online says which are online.
 * cpus_read_lock() is not recursive: taken again by its holder, it deadlocks against
 * a CPU-hotplug writer that came in between (and lockdep says so), hence a WARN.
 */
extern unsigned int nr_cpu_ids;
extern unsigned long shim_cpu_online;
extern int shim_cpus_read_locked;	/* depth */
#define cpu_online(cpu)		(!!(shim_cpu_online & (1UL << (cpu))))
#define cpus_read_lock()	do { WARN_ON(shim_cpus_read_locked); shim_cpus_read_locked++; } while (0)
#define cpus_read_unlock()	do { WARN_ON(shim_cpus_read_locked <= 0); shim_cpus_read_locked--; } while (0)
#define cpu_relax()		do { } while (0)

/* math64.h, jiffies.h (a HZ of 250, Debian's), time64.h */
#define NSEC_PER_SEC		1000000000ULL
#define HZ			250
#define TICK_NSEC		(NSEC_PER_SEC / HZ)

static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}

static inline u64 div64_u64_rem(u64 a, u64 b, u64 *rem)
{
	*rem = a % b;
	return a / b;
}

/* percpu.h: one CPU */
#define DEFINE_PER_CPU(type, name)	type name
#define this_cpu_ptr(ptr)		(ptr)
#define per_cpu_ptr(ptr, cpu)		((void)(cpu), (ptr))
#define this_cpu_read(var)		(var)
#define __percpu
#define alloc_percpu(type)		((type *)calloc(1, sizeof(type)))
#define free_percpu(p)			free(p)
#define this_cpu_write(var, v)		((var) = (v))
#define __this_cpu_add(var, n)		((var) += (n))
#define __this_cpu_inc(var)		((var)++)
#define __this_cpu_dec(var)		((var)--)
#define __this_cpu_read(var)		(var)
#define __this_cpu_write(var, v)	((var) = (v))
#define DECLARE_PER_CPU(type, name)	extern type name
#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < 1; (cpu)++)

/*
 * hrtimer.h: one timer base on the fake clock (pfm_host_env.clock_ns, see env.c);
 * tests fire a timer with shim_hrtimer_fire().
 */
typedef s64 ktime_t;
#define ns_to_ktime(ns)		((ktime_t)(ns))
#define ktime_to_ns(kt)		((s64)(kt))
#define CLOCK_MONOTONIC		1
enum hrtimer_mode {
	HRTIMER_MODE_REL_PINNED_HARD = 1,
};
enum hrtimer_restart {
	HRTIMER_NORESTART,
	HRTIMER_RESTART,
};
struct hrtimer_cpu_base {
	unsigned int cpu;
};
struct hrtimer_clock_base {
	struct hrtimer_cpu_base *cpu_base;
};
struct hrtimer {
	enum hrtimer_restart (*function)(struct hrtimer *timer);
	bool armed;
	s64 expires;
	struct hrtimer_clock_base *base;	/* the one CPU's */
};
extern unsigned int hrtimer_resolution;
extern unsigned long shim_hrtimer_starts, shim_hrtimer_cancels;
s64 shim_now_ns(void);
void hrtimer_init(struct hrtimer *timer, int clock, enum hrtimer_mode mode);
void hrtimer_start(struct hrtimer *timer, ktime_t rel, enum hrtimer_mode mode);
int hrtimer_try_to_cancel(struct hrtimer *timer);
ktime_t hrtimer_get_remaining(const struct hrtimer *timer);
u64 hrtimer_forward_now(struct hrtimer *timer, ktime_t interval);
static inline int hrtimer_cancel(struct hrtimer *timer)
{
	return hrtimer_try_to_cancel(timer);
}
static inline bool hrtimer_active(const struct hrtimer *timer)
{
	return timer->armed;
}
static inline ktime_t hrtimer_get_expires(const struct hrtimer *timer)
{
	return timer->expires;
}
static inline ktime_t ktime_get(void)
{
	return shim_now_ns();
}
#define ktime_sub(a, b)		((a) - (b))
#define ktime_add_ns(kt, ns)	((kt) + (s64)(ns))
static inline bool hrtimer_is_queued(const struct hrtimer *timer)
{
	return timer->armed;
}
static inline void hrtimer_set_expires(struct hrtimer *timer, ktime_t expires)
{
	timer->expires = expires;
}
static inline ktime_t hrtimer_cb_get_time(const struct hrtimer *timer __always_unused)
{
	return shim_now_ns();
}

/* module.h */
struct module {
	int refs;
};
extern struct module shim_this_module;
#define THIS_MODULE		(&shim_this_module)
#define EXPORT_SYMBOL_GPL(sym)
bool try_module_get(struct module *m);
void module_put(struct module *m);

/* slab.h: through the test allocator */
void *shim_kmalloc(size_t size, gfp_t gfp, bool zero);
void kfree(const void *p);
#define kmalloc(size, gfp)	shim_kmalloc((size), (gfp), false)
#define kzalloc(size, gfp)	shim_kmalloc((size), (gfp), true)
static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return shim_kmalloc(n * size, gfp, true);
}
#define cpu_to_node(cpu)	((void)(cpu), 0)
#define kcalloc_node(n, size, gfp, node)	((void)(node), kcalloc((n), (size), (gfp)))
static inline void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return shim_kmalloc(n * size, gfp, false);
}

/* slab.h caches: a cache is its object size, its objects the test allocator's */
struct kmem_cache {
	size_t size;
};
struct kmem_cache *shim_kmem_cache_create(size_t size);
void kmem_cache_destroy(struct kmem_cache *c);
#define KMEM_CACHE(s, flags)		shim_kmem_cache_create(sizeof(struct s))
#define kmem_cache_zalloc(c, gfp)	shim_kmalloc((c)->size, (gfp), true)
#define kmem_cache_free(c, p)		kfree(p)

/*
 * uaccess.h: return the number of bytes not copied, like the kernel.  Anything in
 * the first MiB from SHIM_BAD_UPTR on faults.
 */
#define SHIM_BAD_UPTR	((void __user *)0x7ff0deadbeef0000UL)
unsigned long copy_from_user(void *to, const void __user *from, unsigned long n);
unsigned long copy_to_user(void __user *to, const void *from, unsigned long n);

/*
 * The user access window of unsafe_get_user() and unsafe_put_user(): an access
 * outside it, or a window opened twice or closed when shut, is a WARN.  With page
 * faults disabled, the access shim_uaccess_fault_at counts down to (0: the next)
 * faults, once: a page the kernel would have had to fault in, which it cannot do
 * there.  -1: none does.
 */
extern int shim_pagefault_disabled;
extern unsigned int shim_pagefault_disables;	/* pagefault_disable() calls */
extern bool shim_uaccess_window;
extern int shim_uaccess_fault_at;
bool shim_user_access_begin(const void __user *p, unsigned long n);
void shim_user_access_end(void);
bool shim_uaccess_faults(const void __user *p);
#define pagefault_disable()		(shim_pagefault_disabled++, shim_pagefault_disables++)
#define pagefault_enable()		(shim_pagefault_disabled--)
#define user_access_begin(p, n)		shim_user_access_begin(p, n)
#define user_access_end()		shim_user_access_end()
#define unsafe_get_user(x, ptr, label) do {				\
	if (shim_uaccess_faults(ptr))					\
		goto label;						\
	(x) = *(ptr);							\
} while (0)
#define unsafe_put_user(x, ptr, label) do {				\
	if (shim_uaccess_faults(ptr))					\
		goto label;						\
	*(ptr) = (x);							\
} while (0)

/* atomic_long_t: one thread, plain operations */
typedef struct {
	long counter;
} atomic_long_t;

static inline void atomic_long_set(atomic_long_t *a, long v) { a->counter = v; }
static inline void atomic_long_inc(atomic_long_t *a) { a->counter++; }
static inline long atomic_long_read(const atomic_long_t *a) { return a->counter; }
static inline long atomic_long_inc_return(atomic_long_t *a) { return ++a->counter; }
static inline long atomic_long_xchg(atomic_long_t *a, long v)
{
	long old = a->counter;

	a->counter = v;
	return old;
}

/* random: what the test put in shim_random, each call */
u64 get_random_u64(void);

/* sysfs: the types perfmon's knobs are made of (sysfs.h); no file is made here */
struct kobject;
struct attribute {
	const char *name;
	unsigned short mode;
};
struct kobj_attribute {
	struct attribute attr;
	ssize_t (*show)(struct kobject *kobj, struct kobj_attribute *attr, char *buf);
	ssize_t (*store)(struct kobject *kobj, struct kobj_attribute *attr,
			 const char *buf, size_t count);
};

#endif /* _PFM_KSHIM_H */
