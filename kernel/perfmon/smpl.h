/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: sampling formats and their buffers.
 *
 * A format is a named layout of the sampling buffer and the argument that sizes it.
 * The core allocates the buffer when the context is created, charges it as locked
 * memory (smpl_buf.c) and maps it read-only into the monitoring process.  The buffer
 * lives until the last close of the context fd: a mapping holds the file, so nothing
 * can still be mapped when it goes.
 */
#ifndef _PERFMON_SMPL_H
#define _PERFMON_SMPL_H

#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/types.h>

struct pfm_context;
struct pfm_event_set;
struct pfm_smpl_charge;
struct pfm_smpl_fmt;
struct user_struct;

/* A context's sampling buffer (smpl.h); addr is NULL without a format. */
struct pfm_smpl_buf {
	const struct pfm_smpl_fmt *fmt;	/* holds a reference on the format's module */
	void *addr;			/* vmalloc_user() memory */
	size_t size;			/* a page multiple */
	const struct pfm_smpl_charge *charge;	/* how it was charged, or NULL */
	struct user_struct *user;	/* charged with the pages, or NULL */
	unsigned long charged_pages;
	/*
	 * Shared (a PFM_FL_INHERIT context's): other contexts' samples come in
	 * too (pfm_smpl_append()), under the owner's smpl_lock; a full buffer
	 * drops what does not fit and never masks, and the reader hands back
	 * what it consumed (drain) instead of emptying it at a restart.
	 */
	bool shared;
	bool full_told;			/* shared: the owner was told it filled */
};

struct pfm_smpl_fmt {
	const char *name;
	u32 version;
	size_t arg_size;		/* exact size of the argument */
	/* 0, or -EINVAL for any field the format does not accept */
	int (*validate)(u32 ctx_flags, const void *arg);
	/* the buffer size the (valid) argument asks for, in bytes */
	u64 (*getsize)(const void *arg);
	/* lays out a new buffer of size bytes (page multiple, zeroed) */
	void (*init)(void *buf, size_t size, const void *arg);
	/*
	 * PMD pmd of the live active set overflowed (ctx->lock held, interrupts off,
	 * in the thread that caused it): records a sample; true when the buffer has
	 * no room for another, which masks monitoring and notifies the controller.
	 */
	bool (*handler)(struct pfm_smpl_buf *b, struct pfm_context *ctx,
			struct pfm_event_set *set, unsigned int pmd);
	/* the controller restarts after a notification (ctx->lock held) */
	void (*restart)(struct pfm_smpl_buf *b);
	/*
	 * A shared buffer's reader consumed its first n samples: they go, the
	 * others move up (the owner's smpl_lock held, interrupts off).  0, or
	 * -EINVAL when there are fewer than n; the formats that have none
	 * cannot be shared (PFM_FL_INHERIT with them is EINVAL).
	 */
	int (*drain)(struct pfm_smpl_buf *b, u64 n);
	/*
	 * Optional: next becomes the active set after prev (NULL before the first
	 * start), at a switch or a start (ctx->lock held, interrupts off, the PMU
	 * disabled; every set's values are in set->pmds[].value, ctx->live_ns is the
	 * context's live time).  At most one record write: it runs at every switch.
	 */
	void (*set_switch)(struct pfm_smpl_buf *b, struct pfm_context *ctx,
			   struct pfm_event_set *prev, struct pfm_event_set *next);
	bool kernel_only;		/* not for pfm_create_context() (the perf layer's) */
	struct module *owner;
	struct list_head list;
	struct kobject *kobj;		/* formats/<name>/ */
};

int pfm_smpl_fmt_register(struct pfm_smpl_fmt *fmt);
void pfm_smpl_fmt_unregister(struct pfm_smpl_fmt *fmt);

/* smpl_fmt.c: the format named by the caller, with its buffer set up in b */
int pfm_smpl_setup(struct pfm_smpl_buf *b, u32 ctx_flags, const char __user *uname,
		   const void __user *uarg, u64 arg_size);
int pfm_smpl_setup_kernel(struct pfm_smpl_buf *b, const char *name, const void *arg);
void pfm_smpl_release(struct pfm_smpl_buf *b);

/* smpl_buf.c */
extern atomic_long_t pfm_smpl_mem_cur;
extern unsigned long pfm_smpl_mem_max;
/*
 * How a buffer's pages are charged to its user: charge() records what it took in
 * the buffer (user and charged_pages, or the caller's own state around it) and
 * uncharge() gives it back, when the buffer is freed.  A charge that keeps state
 * outside the buffer (container_of() of its owner) is only for a buffer embedded
 * in that owner and never copied: the core copies a context's buffer by value.  perfmon's own rule is
 * pfm_smpl_charge_locked: the user's locked_vm within RLIMIT_MEMLOCK.
 */
struct pfm_smpl_charge {
	int (*charge)(struct pfm_smpl_buf *b, unsigned long pages);
	void (*uncharge)(struct pfm_smpl_buf *b);
};
extern const struct pfm_smpl_charge pfm_smpl_charge_locked;
/* gives back the user's locked_vm that b->user and b->charged_pages hold */
void pfm_smpl_uncharge_user(struct pfm_smpl_buf *b);
int pfm_smpl_buf_alloc(struct pfm_smpl_buf *b, u64 size, const struct pfm_smpl_charge *charge);
void pfm_smpl_buf_free(struct pfm_smpl_buf *b);
/* what b is charged with given back now, its memory left to pfm_smpl_buf_free() */
void pfm_smpl_buf_uncharge(struct pfm_smpl_buf *b);
int pfm_smpl_buf_mmap(struct pfm_smpl_buf *b, struct vm_area_struct *vma);

int pfm_smpl_init(void);
void pfm_smpl_exit(void);

/* dfl_smpl.c */
int pfm_dfl_smpl_init(void);
void pfm_dfl_smpl_exit(void);

/* mux_smpl.c */
int pfm_mux_smpl_init(void);
void pfm_mux_smpl_exit(void);

#endif
