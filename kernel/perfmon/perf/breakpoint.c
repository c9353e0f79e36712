// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: PERF_TYPE_BREAKPOINT events (watchpoints and instruction
 * breakpoints) of the perf_event_open layer.
 *
 * The debug registers belong to the kernel's hardware breakpoint service,
 * which ptrace, kgdb and perf_events share; DR7 is never written here.  Each
 * event (and each inherited copy) holds one breakpoint of that service, made
 * with perf_event_create_kernel_counter() on the event's thread (and CPU) or
 * CPU, as register_user_hw_breakpoint() and register_wide_hw_breakpoint() make
 * theirs: the service reserves a slot (ENOSPC when the thread's or CPU's four
 * are taken), parses the type, length and alignment (EINVAL), refuses a kernel
 * address without CAP_SYS_ADMIN (EPERM) or with exclude_kernel (EINVAL), all
 * as it does for perf_event_open(2), since it is the same code.
 *
 * The breakpoint's handler runs where the hit is taken, in the thread that
 * made the access (or on the CPU), and counts one PFM_SW_EV_BREAKPOINT event
 * under the event's key: the software PMU counts it on the counters whose PMC
 * carries that key (perfmon_sw.h), so counting, sampling, overflow signals and
 * the ring are the layer's, as for any software event.  A key is an id of
 * this file's, one per breakpoint, so that a thread's events never count each
 * other's hits.  The breakpoint is on while the event is enabled, as perf_events
 * has its own on only while its event is: a disabled watchpoint must cost its
 * thread nothing, where an armed one takes a debug exception at every access.
 * A hit while the event is enabled but its counter is not scheduled (another
 * event set is on) counts nothing.
 */
#include <linux/hardirq.h>
#include <linux/hw_breakpoint.h>
#include <linux/irq_work.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/xarray.h>

#include "layer.h"
#include "breakpoint.h"
#include "event.h"
#include "inherit.h"

#ifdef CONFIG_HAVE_HW_BREAKPOINT

/* The keys given out, each to the event whose breakpoint it counts. */
static DEFINE_XARRAY_ALLOC1(pfm_perf_bp_keys);

/* The service's attr for a as a perf_event_open(2) caller gave it. */
static void pfm_perf_bp_attr(const struct perf_event_attr *a, struct perf_event_attr *ka)
{
	memset(ka, 0, sizeof(*ka));
	ka->type = PERF_TYPE_BREAKPOINT;
	ka->size = sizeof(*ka);
	ka->bp_addr = a->bp_addr;
	ka->bp_type = a->bp_type;
	ka->bp_len = a->bp_len;
	/* every hit reaches the handler, as hw_breakpoint_init() asks */
	ka->sample_period = 1;
	ka->pinned = 1;
	/* the service filters the levels (perf_exclude_event()) and checks them */
	ka->exclude_user = a->exclude_user;
	ka->exclude_kernel = a->exclude_kernel;
	ka->exclude_hv = a->exclude_hv;
}

/*
 * A hit the kernel took on its own access to user memory (copy_to_user() in a
 * system call, for an event that counts the kernel) comes in the debug
 * exception's NMI-like context, where the core's locks may not be taken: it
 * is counted from a hard irq_work on the same CPU, which runs as soon as the
 * exception returns, still in the thread that made the access.  One exception
 * reports at most the four debug registers' hits.
 */
struct pfm_perf_bp_defer {
	unsigned int nr;
	u32 key[4];
	u64 ip[4];
};

static DEFINE_PER_CPU(struct pfm_perf_bp_defer, pfm_perf_bp_deferred);

static void pfm_perf_bp_count(u32 key, bool kernel, u64 ip)
{
	struct pfm_ovfl_where at = { .ip = ip, .kernel = kernel };

	pfm_sw_count_keyed(PFM_SW_EV_BREAKPOINT, key, 1,
			   kernel ? PFM_SW_PMC_OS : PFM_SW_PMC_USR, &at);
}

static void pfm_perf_bp_drain(struct irq_work *w)
{
	struct pfm_perf_bp_defer *d = this_cpu_ptr(&pfm_perf_bp_deferred);
	unsigned int i;

	for (i = 0; i < d->nr; i++)
		pfm_perf_bp_count(d->key[i], true, d->ip[i]);
	d->nr = 0;
}

/*
 * Set up at init: the module loader copies a module's per-CPU initial values
 * without applying relocations to them, so a function pointer there is NULL.
 */
static DEFINE_PER_CPU(struct irq_work, pfm_perf_bp_work);

/*
 * In the thread that hit the breakpoint (a user-mode access, or the kernel's
 * access to user memory on its behalf), or on the CPU for a CPU event.
 */
static void pfm_perf_bp_hit(struct perf_event *bp, struct perf_sample_data *data,
			    struct pt_regs *regs)
{
	u32 key = (u32)(unsigned long)bp->overflow_handler_context;
	struct pfm_perf_bp_defer *d;

	if (!in_nmi()) {
		pfm_perf_bp_count(key, !user_mode(regs), instruction_pointer(regs));
		return;
	}
	d = this_cpu_ptr(&pfm_perf_bp_deferred);
	if (d->nr == ARRAY_SIZE(d->key))
		return;
	d->key[d->nr] = key;
	d->ip[d->nr++] = instruction_pointer(regs);
	irq_work_queue(this_cpu_ptr(&pfm_perf_bp_work));
}

int pfm_perf_bp_get(struct pfm_perf_event *ev)
{
	struct pfm_perf_target *t = ev->target;
	struct perf_event_attr ka;
	struct perf_event *bp;
	u32 key;
	int ret;

	if (ev->attr.type != PERF_TYPE_BREAKPOINT)
		return 0;
	ret = xa_alloc(&pfm_perf_bp_keys, &key, ev, XA_LIMIT(1, U32_MAX), GFP_KERNEL);
	if (ret)
		return ret == -EBUSY ? -ENOSPC : ret;
	pfm_perf_bp_attr(&ev->attr, &ka);
	ka.disabled = !ev->enabled;
	bp = perf_event_create_kernel_counter(&ka, t->task ? ev->cpu : t->cpu, t->task,
					      pfm_perf_bp_hit, (void *)(unsigned long)key);
	if (IS_ERR(bp)) {
		xa_erase(&pfm_perf_bp_keys, key);
		return PTR_ERR(bp);
	}
	ev->bp = bp;
	ev->bp_key = key;
	ev->bp_armed = ev->enabled;
	return 0;
}

/*
 * The service's enable and disable reach the thread where it runs (a
 * cross-CPU call when that is another CPU), as perf_events' own do for an
 * ENABLE or DISABLE.
 */
void pfm_perf_bp_arm(struct pfm_perf_event *ev, bool on)
{
	if (!ev->bp || ev->bp_armed == on)
		return;
	if (on)
		perf_event_enable(ev->bp);
	else
		perf_event_disable(ev->bp);
	ev->bp_armed = on;
}

/*
 * Once the service has removed the breakpoint (an IPI to the CPU the thread
 * runs on, which waits for a handler running there), no hit carries the key.
 */
void pfm_perf_bp_put(struct pfm_perf_event *ev)
{
	if (!ev->bp)
		return;
	unregister_hw_breakpoint(ev->bp);
	xa_erase(&pfm_perf_bp_keys, ev->bp_key);
	ev->bp = NULL;
	ev->bp_key = 0;
}

u64 pfm_perf_bp_pmc(const struct pfm_perf_event *ev)
{
	u64 lv = (ev->attr.exclude_user ? 0 : PFM_SW_PMC_USR) |
		 (ev->attr.exclude_kernel ? 0 : PFM_SW_PMC_OS);

	if (!lv || !ev->bp)
		return 0;
	return PFM_SW_EV_BREAKPOINT | lv | (u64)ev->bp_key << PFM_SW_PMC_KEY_SHIFT;
}

/*
 * One event of the family, as 6.1's perf_event_modify_breakpoint(): the event
 * is disabled, the new attr must equal the old but for bp_addr, bp_type,
 * bp_len and disabled (EINVAL), the service moves the breakpoint (its parse's
 * EINVAL and EPERM, ENOSPC for a type that needs a slot of another kind), and
 * the event is enabled again unless its attr says disabled: the new attr's if
 * the change was made, else the one it was opened with.  sig_data is taken
 * first, whatever follows.
 */
static int pfm_perf_bp_modify_one(struct pfm_perf_event *ev, const struct perf_event_attr *attr)
{
	struct pfm_context *ctx = ev->target->ctx;
	struct perf_event_attr old, ka;
	int ret;

	mutex_lock(pfm_ctx_mutex(ctx));
	WRITE_ONCE(ev->attr.sig_data, attr->sig_data);
	pfm_perf_event_mark(ev, false);
	old = ev->attr;
	old.bp_addr = attr->bp_addr;
	old.bp_type = attr->bp_type;
	old.bp_len = attr->bp_len;
	old.disabled = attr->disabled;
	ret = -EINVAL;
	if (!memcmp(&old, attr, sizeof(old)) && ev->bp) {
		/* left off by the service: the enable below turns it on */
		pfm_perf_bp_attr(attr, &ka);
		ka.disabled = 1;
		ret = modify_user_hw_breakpoint(ev->bp, &ka);
		/* on again as it was made, if the service refused the change */
		ev->bp_armed = !ev->bp->attr.disabled;
	}
	if (!ret)
		ev->attr = old;
	if (!ev->attr.disabled)
		pfm_perf_event_mark(ev, true);
	pfm_perf_target_sync(ev->target);
	mutex_unlock(pfm_ctx_mutex(ctx));
	return ret;
}

/*
 * The keyed source's side (layer.h): a PMC may name a key while its event
 * lives; nothing is held per PMC, the breakpoint being the event's.
 */
static int pfm_perf_bp_key_get(unsigned int event, u32 key)
{
	return xa_load(&pfm_perf_bp_keys, key) ? 0 : -ENOENT;
}

static void pfm_perf_bp_key_put(unsigned int event, u32 key)
{
}

static const struct pfm_sw_keyed_ops pfm_perf_bp_ops = {
	.get = pfm_perf_bp_key_get,
	.put = pfm_perf_bp_key_put,
};

int pfm_perf_bp_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu(pfm_perf_bp_work, cpu) = IRQ_WORK_INIT_HARD(pfm_perf_bp_drain);
	return pfm_sw_keyed_register(PFM_SW_EV_BREAKPOINT, &pfm_perf_bp_ops);
}

/* No event is left: their files hold the module. */
void pfm_perf_bp_exit(void)
{
	int cpu;

	pfm_sw_keyed_unregister(PFM_SW_EV_BREAKPOINT, &pfm_perf_bp_ops);
	for_each_possible_cpu(cpu)
		irq_work_sync(per_cpu_ptr(&pfm_perf_bp_work, cpu));
}

/* The opened event, then its copies, as 6.1 (the first refusal stops there). */
int pfm_perf_bp_modify(struct pfm_perf_event *ev, const struct perf_event_attr *attr)
{
	struct pfm_perf_event *copy;
	int ret;

	if (ev->attr.type != PERF_TYPE_BREAKPOINT)
		return -EOPNOTSUPP;
	mutex_lock(&pfm_perf_family_mutex);
	ret = pfm_perf_bp_modify_one(ev, attr);
	list_for_each_entry(copy, &ev->children, child_entry) {
		if (ret)
			break;
		ret = pfm_perf_bp_modify_one(copy, attr);
	}
	mutex_unlock(&pfm_perf_family_mutex);
	return ret;
}

#else /* !CONFIG_HAVE_HW_BREAKPOINT: open refuses the type (ENOENT) */

int pfm_perf_bp_init(void)
{
	return 0;
}

void pfm_perf_bp_exit(void)
{
}

int pfm_perf_bp_get(struct pfm_perf_event *ev)
{
	return ev->attr.type == PERF_TYPE_BREAKPOINT ? -ENOENT : 0;
}

void pfm_perf_bp_put(struct pfm_perf_event *ev)
{
}

u64 pfm_perf_bp_pmc(const struct pfm_perf_event *ev)
{
	return 0;
}

int pfm_perf_bp_modify(struct pfm_perf_event *ev, const struct perf_event_attr *attr)
{
	return -EOPNOTSUPP;
}

void pfm_perf_bp_arm(struct pfm_perf_event *ev, bool on)
{
}

#endif
