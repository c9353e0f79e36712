// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: PERF_RECORD_MMAP2 (or MMAP) of each mapping the monitored thread
 * makes or changes, when it makes it, as 6.1's perf_event_mmap() writes it:
 * executable mappings to the events with attr.mmap or mmap2, the others (misc
 * PERF_RECORD_MISC_MMAP_DATA) to those with attr.mmap_data.
 *
 * Why a kprobe: Linux 6.1 has no tracepoint on mmap(), and a module cannot
 * add one.  mm/ calls perf_event_mmap(vma) for every mapping perf reports,
 * unconditionally (it returns at once when perf_events has no side-band
 * event): mmap_region() (mmap(), and the ELF loader's segments at an exec),
 * do_brk_flags() (brk(), and an image's bss), mprotect_fixup() (an mprotect()
 * that changes a mapping's flags, PROT_EXEC added or taken) and
 * __install_special_mapping() (the vDSO).  A kprobe on its first instruction
 * sees each call, with the vma as it is then.
 *
 * The handler runs in the thread that maps, in atomic context, mmap_lock held
 * for writing: it cannot sleep for d_path().  It keeps what the record needs
 * in the target's small queue (the vma's bounds, offset and flags, its file
 * held, the time and CPU), and the thread's side-band work (sideband.c), queued
 * TWA_RESUME, writes the records before the thread returns to user mode, with
 * the time taken here, so that perf, which orders records by time, has the
 * mapping before any later sample in it.  A record goes to the events
 * enabled at the mapping (and still enabled), on its CPU or every CPU.  A
 * queue that overflows (more than PFM_PERF_MMAP_QUEUE mappings in one system
 * call: an exec of a large image) reports, after the queued ones, every
 * executable mapping its rings do not know, with the time of the first
 * mapping dropped; data mappings dropped so are not reported.
 *
 * If the symbol cannot be probed (CONFIG_KPROBES off, or the kernel refuses),
 * the layer loads without it: mappings are then reported at an exec and after
 * a sample only (sideband.c), as the uapi header says.
 */
#include <linux/file.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#include "layer.h"
#include "event.h"
#include "sideband.h"

struct pfm_perf_mmap_probe {
	struct vm_area_struct *vma;
	u64 time;
	int cpu;
};

/* vma into t's queue if an event of t asks for it now (ctx->lock held, t attached). */
static void pfm_perf_mmap_enqueue(struct pfm_perf_target *t, void *arg)
{
	struct pfm_perf_mmap_probe *p = arg;
	struct pfm_perf_mmap_queue *q = t->mq;
	struct pfm_perf_mmap_ent *m;
	struct pfm_perf_event *ev;
	bool wanted = false;

	list_for_each_entry(ev, &t->sb_events, sb_entry) {
		if (pfm_perf_sb_on(ev, p->cpu) && pfm_perf_sb_map_wanted(ev, p->vma->vm_flags)) {
			wanted = true;
			break;
		}
	}
	/* the queue is the thread's: only its own work empties it */
	if (!wanted || !q || !pfm_perf_sb_kick(t))
		return;
	if (q->nr == PFM_PERF_MMAP_QUEUE) {
		if (!q->overflow)
			q->overflow_time = p->time;
		q->overflow = true;
		return;
	}
	m = &q->ent[q->nr++];
	pfm_perf_sb_map_fill(m, p->vma);
	m->time = p->time;
	m->cpu = p->cpu;
	if (m->file)
		get_file(m->file);
}

/* The events of t that take m: enabled when it was made and now, on its CPU. */
static bool pfm_perf_mmap_takes(const struct pfm_perf_event *ev, const struct pfm_perf_mmap_ent *m)
{
	return pfm_perf_sb_map_wanted(ev, m->vm_flags) && pfm_perf_sb_on(ev, m->cpu) &&
	       READ_ONCE(ev->on_since) <= m->time;
}

/*
 * t's queue, made when the first event that asks for mappings joins t
 * (ctx->mutex held): most targets never have one.  0, or ENOMEM and nothing
 * changed.
 */
int pfm_perf_mmap_queue_get(struct pfm_perf_target *t, const struct perf_event_attr *a)
{
	struct pfm_perf_mmap_queue *q;
	unsigned long flags;

	if (t->mq || !pfm_perf_sb_mmap_attr(a))
		return 0;
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	/* the probe reads it under ctx->lock */
	raw_spin_lock_irqsave(pfm_ctx_lock(t->ctx), flags);
	t->mq = q;
	raw_spin_unlock_irqrestore(pfm_ctx_lock(t->ctx), flags);
	return 0;
}

/*
 * t's queue written out and emptied (its thread, before it returns to user
 * mode, ctx->mutex held); if t's context is no longer attached, only emptied.
 */
void pfm_perf_mmap_drain(struct pfm_perf_target *t)
{
	struct pfm_perf_mmap_queue *q = t->mq;
	bool live = pfm_ctx_is_loaded(t->ctx);
	struct pfm_perf_event *ev;
	unsigned int i;
	char *path;
	u64 *buf = NULL;

	if (!q || (!q->nr && !q->overflow))
		return;
	if (live)
		buf = kmalloc(PAGE_SIZE + PATH_MAX, GFP_KERNEL);
	path = (char *)buf + PAGE_SIZE;
	for (i = 0; i < q->nr; i++) {
		struct pfm_perf_mmap_ent *m = &q->ent[i];

		list_for_each_entry(ev, &t->events, entry)
			if (buf && pfm_perf_mmap_takes(ev, m))
				pfm_perf_sb_map_record(ev, m, buf, path);
		if (m->file)
			fput(m->file);
		m->file = NULL;
	}
	kfree(buf);
	q->nr = 0;
	if (q->overflow && live)
		pfm_perf_sb_mappings(t, q->overflow_time, false);
	q->overflow = false;
}

#ifdef CONFIG_KPROBES
/*
 * A CPU's events have no thread of theirs to write later: their records are
 * written here, at the mapping, in a buffer of the CPU's (a page and a path),
 * with the mapping thread's ids.  The path is made first, outside the
 * context's lock: d_path() does not sleep, but it reads the fs_struct's
 * sequence count, whose writers run with interrupts on, and the context's lock
 * is taken in interrupts (the overflow path).
 */
static DEFINE_PER_CPU(u64 *, pfm_perf_mmap_buf);

struct pfm_perf_mmap_cpu {
	struct pfm_perf_mmap_probe *p;
	struct pfm_perf_mmap_ent m;
	bool wanted;
};

static bool pfm_perf_mmap_cpu_takes(const struct pfm_perf_event *ev,
				    const struct pfm_perf_mmap_probe *p)
{
	return pfm_perf_sb_on(ev, p->cpu) && pfm_perf_sb_map_wanted(ev, p->vma->vm_flags);
}

static void pfm_perf_mmap_cpu_wanted(struct pfm_perf_target *t, void *arg)
{
	struct pfm_perf_mmap_cpu *mc = arg;
	struct pfm_perf_event *ev;

	list_for_each_entry(ev, &t->sb_events, sb_entry)
		mc->wanted |= pfm_perf_mmap_cpu_takes(ev, mc->p);
}

static void pfm_perf_mmap_cpu_write(struct pfm_perf_target *t, void *arg)
{
	struct pfm_perf_mmap_cpu *mc = arg;
	u64 *buf = this_cpu_read(pfm_perf_mmap_buf);
	struct pfm_perf_event *ev;

	list_for_each_entry(ev, &t->sb_events, sb_entry)
		if (pfm_perf_mmap_cpu_takes(ev, mc->p))
			pfm_perf_sb_map_record(ev, &mc->m, buf, NULL);
}

/* The mapping to this CPU's events that ask for it. */
static void pfm_perf_mmap_cpu(struct pfm_perf_mmap_probe *p)
{
	struct pfm_perf_mmap_cpu mc = { .p = p, .m = { .time = p->time, .cpu = p->cpu } };
	u64 *buf = this_cpu_read(pfm_perf_mmap_buf);
	const char *name;

	if (!buf)
		return;
	pfm_perf_sb_visit(NULL, p->cpu, pfm_perf_mmap_cpu_wanted, &mc);
	if (!mc.wanted)
		return;
	pfm_perf_sb_map_fill(&mc.m, p->vma);
	if (mc.m.file) {
		name = d_path(&mc.m.file->f_path, (char *)buf + PAGE_SIZE, PATH_MAX);
		mc.m.name = IS_ERR(name) ? "//toolong" : name;
	}
	pfm_perf_sb_visit(NULL, p->cpu, pfm_perf_mmap_cpu_write, &mc);
}

static void pfm_perf_mmap_bufs_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		kfree(per_cpu(pfm_perf_mmap_buf, cpu));
		per_cpu(pfm_perf_mmap_buf, cpu) = NULL;
	}
}

/* Without them, CPU events get no mapping records (the CPUs' kprobe writes nothing). */
static void pfm_perf_mmap_bufs_alloc(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu(pfm_perf_mmap_buf, cpu) = kmalloc_node(PAGE_SIZE + PATH_MAX, GFP_KERNEL,
							       cpu_to_node(cpu));
}

/* perf_event_mmap(vma): the thread that maps, mmap_lock held for writing. */
static int pfm_perf_mmap_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct pfm_perf_mmap_probe p = {
		.vma = (struct vm_area_struct *)regs_get_kernel_argument(regs, 0),
	};

	if (!atomic_read(&pfm_perf_nr_sb_mmap) || !current->mm || p.vma->vm_mm != current->mm)
		return 0;
	p.time = local_clock();
	p.cpu = smp_processor_id();
	pfm_perf_sb_visit(current, -1, pfm_perf_mmap_enqueue, &p);
	pfm_perf_mmap_cpu(&p);
	return 0;
}

static struct kprobe pfm_perf_mmap_kp = {
	.symbol_name = "perf_event_mmap",
	.pre_handler = pfm_perf_mmap_pre,
};
static bool pfm_perf_mmap_probed;

int pfm_perf_mmap_init(void)
{
	int ret;

	pfm_perf_mmap_bufs_alloc();
	ret = register_kprobe(&pfm_perf_mmap_kp);
	pfm_perf_mmap_probed = !ret;
	if (ret) {
		pfm_perf_mmap_bufs_free();
		pr_info("perfmon: perf layer: no kprobe on perf_event_mmap (%d): mappings reported at exec and after samples only\n",
			ret);
	}
	return ret;
}

/* Every mapping made is reported as made: the lazy reports after samples are off. */
bool pfm_perf_mmap_hooked(void)
{
	return pfm_perf_mmap_probed;
}

void pfm_perf_mmap_exit(void)
{
	if (pfm_perf_mmap_probed) {
		unregister_kprobe(&pfm_perf_mmap_kp);
		pfm_perf_mmap_bufs_free();
	}
	pfm_perf_mmap_probed = false;
}
#else
int pfm_perf_mmap_init(void)
{
	return -EOPNOTSUPP;
}

void pfm_perf_mmap_exit(void)
{
}

bool pfm_perf_mmap_hooked(void)
{
	return false;
}
#endif
