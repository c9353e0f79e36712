// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: sampling perf events (sample_period), on the core's overflow path.
 *
 * A sampling event has a counter of its own (never shared, as counting events'
 * are), software or hardware (a hardware counter's PMU interrupt reaches the
 * core's overflow path as a software counter's carry does), whose PMD is a
 * perfmon sampling PMD: it starts at -period and the core resets it to -period
 * at each 64-bit overflow (ovfl.c), after the "perf_ring" format (ring.c)
 * has handed the overflow to the event here; the period's accounting is
 * overflow.c's.  The count the
 * event reports is the PMD's progress plus the periods the resets took off it
 * (its row's wrapped[]), so reading a sampling event gives what it counted, as perf
 * does.
 *
 * PERF_RECORD_SAMPLE carries, in the kernel's order, IDENTIFIER, IP, TID, TIME,
 * ADDR, ID, STREAM_ID, CPU, PERIOD, READ (a group's with PERF_FORMAT_GROUP) and
 * CALLCHAIN.  IP is
 * where the event happened (overflow.c): the faulting instruction, the
 * instruction a clock's timer or a PMU interrupt hit, a kernel one (misc
 * PERF_RECORD_MISC_KERNEL) only for an event that counts the kernel; else where
 * the thread is in user mode (misc PERF_RECORD_MISC_USER); ADDR the faulting address for page faults, else
 * 0; TIME perf's clock (local_clock()); pid/tid in the sampled thread's namespace;
 * ID the opened event's id (an inherited copy's too), STREAM_ID the event's own,
 * CALLCHAIN the user frames (callchain.c); the fields after RAW are
 * sample_tail.c's.  BRANCH_STACK is EOPNOTSUPP, where perf_event_open(2)
 * says a PMU does not support something.
 */
#include <linux/pid_namespace.h>
#include <linux/sched/clock.h>

#include "layer.h"
#include "counters.h"
#include "event.h"
#include "file.h"
#include "overflow.h"
#include "perf.h"
#include "ring.h"
#include "sample.h"
#include "sideband.h"

/*
 * The largest record: the fields, a callchain's nr, two marks and addresses, a
 * group read, a raw record as large as a trace event's may be
 * (PERF_MAX_TRACE_SIZE) with its size word, two register dumps with their ABI
 * words; then, once an event asks for a copy of the user stack, that copy with
 * its two size words as large as a record's u16 size lets it be.
 */
#define PFM_PERF_RAW_MAX	8192
#define PFM_PERF_SAMPLE_WORDS	(16 + 3 + PFM_PERF_MAX_STACK + 3 + 3 * PFM_PERF_READ_GROUP_MAX + \
				 1 + PFM_PERF_RAW_MAX / sizeof(u64) + 2 * (1 + 64))
#define PFM_PERF_SAMPLE_WORDS_STACK	(PFM_PERF_SAMPLE_WORDS + 2 + USHRT_MAX / sizeof(u64) + 1)

/* perf_event_max_sample_rate's default */
unsigned long pfm_perf_max_sample_rate = 100000;

bool pfm_perf_sampling(const struct perf_event_attr *attr)
{
	return attr->sample_period != 0;	/* sample_freq shares the field */
}

/* What this layer cannot sample, where perf_event_alloc() refuses a PMU's gaps. */
int pfm_perf_sample_check(const struct perf_event_attr *attr)
{
	int ret = pfm_perf_callchain_check(attr);

	if (!ret)
		ret = pfm_perf_regs_extended_check(attr);
	if (ret || !pfm_perf_sampling(attr))
		return ret;
	ret = pfm_perf_sample_bits_check(attr);
	if (!ret && (attr->sample_type & PERF_SAMPLE_STACK_USER))
		ret = pfm_perf_sample_room_for_stacks();
	return ret;
}

static bool pfm_perf_reads_group(const struct pfm_perf_event *ev)
{
	return pfm_perf_sampling(&ev->attr) && (ev->attr.sample_type & PERF_SAMPLE_READ) &&
	       (ev->attr.read_format & PERF_FORMAT_GROUP);
}

/*
 * ev joining leader's group: a sample that reads the group must fit the record
 * buffer, as perf_event_validate_size() keeps records under 16 KiB (E2BIG);
 * ctx->mutex held.
 */
int pfm_perf_group_read_check(const struct pfm_perf_event *ev,
			      const struct pfm_perf_event *leader)
{
	const struct pfm_perf_event *sib;
	bool reads = pfm_perf_reads_group(ev) || pfm_perf_reads_group(leader);

	list_for_each_entry(sib, &leader->siblings, sibling_entry)
		reads |= pfm_perf_reads_group(sib);
	if (reads && leader->nr_siblings + 2 > PFM_PERF_READ_GROUP_MAX)
		return -E2BIG;
	return 0;
}

static u64 pfm_perf_primary_id(const struct pfm_perf_event *ev)
{
	return ev->parent ? ev->parent->id : ev->id;
}

/* pid's number in ns, as pid_nr_ns() gives it (0 where pid has none there) */
static __always_inline u32 pfm_perf_nr_in(const struct pid *pid, const struct pid_namespace *ns)
{
	if (pid && ns->level <= pid->level && pid->numbers[ns->level].ns == ns)
		return pid->numbers[ns->level].nr;
	return 0;
}

/*
 * The sampled thread's pid and tid in its own pid namespace, as task_tgid_vnr()
 * and task_pid_vnr() give them, without their RCU section and namespace lookup
 * twice over: interrupts are off (an RCU reader), and current's active namespace
 * is its thread pid's last level, where the thread group's pid has a number too.
 */
static u64 pfm_perf_tid(void)
{
	const struct pid *tp = task_pid(current);
	const struct pid_namespace *ns;

	if (unlikely(!tp))
		return 0;
	ns = tp->numbers[tp->level].ns;
	return (u64)pfm_perf_nr_in(task_tgid(current), ns) | (u64)tp->numbers[tp->level].nr << 32;
}

/* The sample_id_all trailer of a non-sample record of ev, in w; its words. */
unsigned int pfm_perf_id_trailer(const struct pfm_perf_event *ev, u64 *w)
{
	return pfm_perf_id_trailer_at(ev, w, local_clock());
}

/* The same, with the time given. */
unsigned int pfm_perf_id_trailer_at(const struct pfm_perf_event *ev, u64 *w, u64 time)
{
	return pfm_perf_id_trailer_task(ev, w, time, current);
}

/* task's pid and tid in whose pid namespace, as perf's u32 pair */
u64 pfm_perf_pid_tid(struct task_struct *task, struct task_struct *whose)
{
	struct pid_namespace *ns = task_active_pid_ns(whose);

	return (u64)(u32)task_tgid_nr_ns(task, ns) | (u64)(u32)task_pid_nr_ns(task, ns) << 32;
}

/*
 * The same, of task: a switch's record for the thread switched in is written
 * before it runs, while current is the thread switched out.  Its pid and tid
 * are those task's own namespace gives it, as current's would once task runs:
 * the thread switched out may be a dead one whose pid its parent has reaped
 * already (a preemptible kernel switches it out after exit_notify()), and in
 * its namespace, none, every pid reads 0.
 */
unsigned int pfm_perf_id_trailer_task(const struct pfm_perf_event *ev, u64 *w, u64 time,
				      struct task_struct *task)
{
	u64 st = ev->attr.sample_type;
	unsigned int n = 0;

	if (!ev->attr.sample_id_all)
		return 0;
	if (st & PERF_SAMPLE_TID)
		w[n++] = pfm_perf_pid_tid(task, task);
	if (st & PERF_SAMPLE_TIME)
		w[n++] = time;
	if (st & PERF_SAMPLE_ID)
		w[n++] = pfm_perf_primary_id(ev);
	if (st & PERF_SAMPLE_STREAM_ID)
		w[n++] = ev->id;
	if (st & PERF_SAMPLE_CPU)
		w[n++] = raw_smp_processor_id();
	if (st & PERF_SAMPLE_IDENTIFIER)
		w[n++] = pfm_perf_primary_id(ev);
	return n;
}

/* PERF_RECORD_THROTTLE or UNTHROTTLE of ev: time, id, stream_id, trailer. */
void pfm_perf_throttle_record(struct pfm_perf_event *ev, u32 type)
{
	u64 w[4 + 6];
	struct perf_event_header *h = (struct perf_event_header *)w;
	unsigned int n = 1;

	w[n++] = local_clock();
	w[n++] = pfm_perf_primary_id(ev);
	w[n++] = ev->id;
	n += pfm_perf_id_trailer(ev, w + n);
	h->type = type;
	h->misc = 0;
	h->size = n * sizeof(u64);
	pfm_perf_ring_write(ev, w);
}

/* The live time of the context's sets together, and of set, now (in the live thread). */
static u64 pfm_perf_live_ns(struct pfm_context *ctx, struct pfm_event_set *set, u64 *set_ns)
{
	u64 d = pfm_live_elapsed(ctx);

	*set_ns = set->duration_ns + d;
	return pfm_ctx_live_ns(ctx) + d;
}

/* ev's count in the context's sets (every set for a pinned event), the closed intervals' too. */
static u64 pfm_perf_sample_count(struct pfm_perf_event *ev, struct pfm_context *ctx,
				 unsigned int pmd)
{
	struct pfm_perf_target *t = ev->target;
	struct pfm_event_set *s;
	u64 count = ev->acc;

	pfm_for_each_set(ctx, s) {
		if (s->id >= t->nr_sets || !pfm_perf_open_in(ev, s->id))
			continue;
		count += pfm_pmd_value(ctx, s, pmd) +
			 pfm_perf_wrapped(t->sets[s->id], ev->counter) - ev->base[s->id];
	}
	return count;
}

/* A group member's count now, the closed intervals' too. */
static u64 pfm_perf_member_count(struct pfm_perf_event *ev, struct pfm_context *ctx)
{
	if (!ev->open_sets || ev->counter < 0)
		return ev->acc;
	return pfm_perf_sample_count(ev, ctx, pfm_perf_counter_pmd(ev->counter));
}

/* A member's { value, id, lost } of a group read. */
static unsigned int pfm_perf_read_member(const struct pfm_perf_event *e, u64 count, u64 rf,
					 u64 *w)
{
	w[0] = count;
	return 1 + pfm_perf_read_tail(rf, pfm_perf_primary_id(e), w + 1);
}

/*
 * PERF_SAMPLE_READ: what read() would give, the overflowed period counted:
 * time_enabled over all the sets, time_running over the event's own set (all of
 * them for a pinned event).  With PERF_FORMAT_GROUP, the sampled event's times
 * and every member's count, leader first, as perf_output_read_group(): the
 * group's list is changed under ctx->lock too (open.c), which is held here.
 * Out of line: few samples read, and the sample path keeps its registers.
 */
static noinline unsigned int pfm_perf_sample_read(struct pfm_perf_event *ev,
						  struct pfm_context *ctx,
						  struct pfm_event_set *set, unsigned int pmd,
						  u64 *w)
{
	u64 rf = ev->attr.read_format, count = ev->acc, ena = ev->ena_ns, run = ev->run_ns;
	struct pfm_perf_event *leader = ev->leader, *e;
	u64 total, set_ns, run_now;
	unsigned int n;

	if (ev->counting) {
		count = pfm_perf_sample_count(ev, ctx, pmd);
		total = pfm_perf_live_ns(ctx, set, &set_ns);
		run_now = ev->all_sets ? total : set_ns;
		/* a gated event's times as event.c keeps them: its gate is open here */
		if (pfm_perf_gated(ev))
			run_now = pfm_perf_gate_ns(ev, run_now);
		ena += (ev->cgrp ? run_now : total) - ev->since_ns;
		run += run_now - ev->run_since_ns;
	}
	if (!(rf & PERF_FORMAT_GROUP)) {
		n = pfm_perf_read_head(rf, count, ena, run, w);
		return n + pfm_perf_read_tail(rf, pfm_perf_primary_id(ev), w + n);
	}
	n = pfm_perf_read_head(rf, 1 + leader->nr_siblings, ena, run, w);
	n += pfm_perf_read_member(leader, leader == ev ? count : pfm_perf_member_count(leader, ctx),
				  rf, w + n);
	list_for_each_entry(e, &leader->siblings, sibling_entry)
		n += pfm_perf_read_member(e, e == ev ? count : pfm_perf_member_count(e, ctx),
					  rf, w + n);
	return n;
}

/* The period that ran out is done at time now (overflow.c). */
static void pfm_perf_period_done(struct pfm_perf_event *ev, u64 *wrapped,
				 struct pfm_pmd *p, u64 now)
{
	pfm_perf_period_done_at(&ev->per, ev->attr.freq ? ev->attr.sample_freq : 0,
				now, wrapped, p);
}

/*
 * perf_event_max_sample_rate (pfm_perf_throttle_at()).  A software counter's
 * overflow costs no interrupt: it keeps its period, and its next occurrence
 * after the tick samples again, as 6.1's; a hardware counter backs off.
 */
static noinline bool pfm_perf_throttle_tick(struct pfm_perf_event *ev, u64 *wrapped,
					    struct pfm_pmd *p, u64 now, unsigned int max)
{
	bool skip;
	u32 record;

	skip = pfm_perf_throttle_at(&ev->thr, jiffies, max, &ev->per, p, &record);
	if (record)
		pfm_perf_throttle_record(ev, record);
	if (!skip)
		return false;
	if (pfm_perf_swevent(&ev->attr))
		pfm_perf_period_done(ev, wrapped, p, now);
	else
		pfm_perf_period_backoff(&ev->thr, &ev->per, max, wrapped, p);
	return true;
}

/*
 * The same, its common case inline: a sample within the tick's limit, which
 * writes no record (out of line, with the record's word on its own stack).
 */
static __always_inline bool pfm_perf_throttled(struct pfm_perf_event *ev, u64 *wrapped,
					       struct pfm_pmd *p, u64 now)
{
	unsigned int max = DIV_ROUND_UP(READ_ONCE(pfm_perf_max_sample_rate), HZ);

	if (!pfm_perf_throttles(&ev->attr) || pfm_perf_throttle_within(&ev->thr, jiffies, max))
		return false;
	return pfm_perf_throttle_tick(ev, wrapped, p, now, max);
}

/*
 * ADDR, as 6.1's perf_sample_data_init() is given it: a fault's address, a
 * breakpoint's bp_addr (perf_bp_event()), else 0 (no data address of a
 * hardware event without PEBS or IBS).
 */
u64 pfm_perf_sample_addr(const struct pfm_perf_event *ev)
{
	switch (ev->attr.type) {
	case PERF_TYPE_SOFTWARE:
		return pfm_sw_event_addr();
	case PERF_TYPE_BREAKPOINT:
		return ev->attr.bp_addr;
	}
	return 0;
}

/*
 * PERF_SAMPLE_RAW: the payload of the software event that overflowed (a trace
 * event's record, trace/tracepoint.c) as perf_prepare_sample() lays it out: a u32
 * size, the bytes, zeros up to a u64 boundary, the size counting the bytes and the
 * zeros.  An event without one gives 4 zero bytes, as perf's empty raw record.
 * Returns the words written.  Out of line, as few samples have one: its
 * size's word, on the stack for pfm_sw_event_payload(), would otherwise put a
 * stack canary into every sample.
 */
static noinline unsigned int pfm_perf_sample_raw(u64 *w)
{
	u32 size;
	const void *data = pfm_sw_event_payload(&size);
	u32 total;

	if (!data || size > PFM_PERF_RAW_MAX)
		size = 0;
	total = ALIGN(size + sizeof(u32), sizeof(u64));
	memset(w, 0, total);
	*(u32 *)w = total - sizeof(u32);
	if (size)
		memcpy((u8 *)w + sizeof(u32), data, size);
	return total / sizeof(u64);
}

/*
 * One record per CPU at a time: it is built with interrupts off.  Each CPU's
 * is allocated on its node, at first without room for a user stack copy (64
 * KiB more a CPU, which a machine of hundreds of CPUs would hold for nothing
 * until some tool asks for one): the first event that asks has every CPU's
 * buffer replaced by a larger one before its open returns, and the larger ones
 * stay until the layer's exit.  A sample in progress on the old buffer has
 * interrupts off: the grace period after the switch outlasts it.
 */
static u64 * __percpu *pfm_perf_sample_bufs;
static bool pfm_perf_sample_stacks;	/* the buffers have room for a stack copy */
static DEFINE_MUTEX(pfm_perf_sample_grow);

static void pfm_perf_sample_bufs_free(u64 **bufs)
{
	int cpu;

	for_each_possible_cpu(cpu)
		kvfree(bufs[cpu]);
}

/* A buffer of words for each possible CPU, on its node, into bufs: 0 or -ENOMEM. */
static int pfm_perf_sample_bufs_alloc(u64 **bufs, size_t words)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		bufs[cpu] = kvmalloc_node(words * sizeof(u64), GFP_KERNEL, cpu_to_node(cpu));
		if (!bufs[cpu])
			return -ENOMEM;
	}
	return 0;
}

/* Process context, before the open of an event that copies the user stack returns. */
int pfm_perf_sample_room_for_stacks(void)
{
	u64 **bufs;
	int cpu, ret = 0;

	if (READ_ONCE(pfm_perf_sample_stacks))
		return 0;
	bufs = kcalloc(nr_cpu_ids, sizeof(*bufs), GFP_KERNEL);
	if (!bufs)
		return -ENOMEM;
	mutex_lock(&pfm_perf_sample_grow);
	if (pfm_perf_sample_stacks)
		goto out;
	ret = pfm_perf_sample_bufs_alloc(bufs, PFM_PERF_SAMPLE_WORDS_STACK);
	if (ret)
		goto out;
	for_each_possible_cpu(cpu)
		bufs[cpu] = xchg(per_cpu_ptr(pfm_perf_sample_bufs, cpu), bufs[cpu]);
	WRITE_ONCE(pfm_perf_sample_stacks, true);
	synchronize_rcu();
out:
	/* the old buffers, or the new ones that could not all be had */
	pfm_perf_sample_bufs_free(bufs);
	mutex_unlock(&pfm_perf_sample_grow);
	kfree(bufs);
	return ret;
}

void pfm_perf_sample_exit(void)
{
	int cpu;

	if (!pfm_perf_sample_bufs)
		return;
	for_each_possible_cpu(cpu)
		kvfree(*per_cpu_ptr(pfm_perf_sample_bufs, cpu));
	free_percpu(pfm_perf_sample_bufs);
	pfm_perf_sample_bufs = NULL;
	pfm_perf_sample_stacks = false;
}

int pfm_perf_sample_init(void)
{
	u64 **bufs;
	int cpu, ret;

	pfm_perf_sample_bufs = alloc_percpu(u64 *);
	bufs = kcalloc(nr_cpu_ids, sizeof(*bufs), GFP_KERNEL);
	ret = pfm_perf_sample_bufs && bufs ?
	      pfm_perf_sample_bufs_alloc(bufs, PFM_PERF_SAMPLE_WORDS) : -ENOMEM;
	if (ret) {
		if (bufs)
			pfm_perf_sample_bufs_free(bufs);
		free_percpu(pfm_perf_sample_bufs);
		pfm_perf_sample_bufs = NULL;
	} else {
		for_each_possible_cpu(cpu)
			*per_cpu_ptr(pfm_perf_sample_bufs, cpu) = bufs[cpu];
	}
	kfree(bufs);
	return ret;
}

/*
 * What an overflow does besides the record, each for an attribute few events
 * have: tested here, so that a plain sample makes none of the calls.
 */
static __always_inline int pfm_perf_sample_async(struct pfm_perf_event *ev)
{
	if (unlikely(ev->attr.sigtrap))
		pfm_perf_sigtrap(ev);
	return atomic_read(&ev->event_limit) ? pfm_perf_async_overflow(ev) : POLL_IN;
}

static __always_inline void pfm_perf_sample_after(struct pfm_perf_event *ev, int kill,
						  u16 misc, u64 ip, u64 time)
{
	const struct pfm_perf_event *o = ev->parent ? ev->parent : ev;

	if (READ_ONCE(o->fasync))
		pfm_perf_async_signal(ev, kill);
	/* a kernel IP is in no mapping of the thread's to report */
	if (ev->attr.mmap || ev->attr.mmap2)
		pfm_perf_sb_sample(ev, misc == PERF_RECORD_MISC_USER ? ip : 0, time);
}

/*
 * PMD pmd of ev's counter overflowed (ctx->lock held, interrupts off, in the
 * sampled thread): one PERF_RECORD_SAMPLE, then the reset's period is counted.
 */
void pfm_perf_sample_overflow(struct pfm_perf_event *ev, struct pfm_context *ctx,
			      struct pfm_event_set *set, unsigned int pmd)
{
	u64 *wrapped = &ev->target->sets[set->id]->wrapped[ev->counter];
	u64 *w = this_cpu_read(*pfm_perf_sample_bufs), st = ev->attr.sample_type;
	const struct pfm_ovfl_where *at = pfm_overflow_where();
	struct perf_event_header *h = (struct perf_event_header *)w;
	struct pfm_pmd *p = pfm_set_pmd(set, pmd);
	u64 ip, time = local_clock();
	unsigned int n = 1;
	u16 misc;
	int kill;

	/*
	 * A thread's event on one CPU: what happens elsewhere is counted, not
	 * sampled.  Past REFRESH's limit, until the disable, nothing is sampled.
	 */
	if ((ev->cpu >= 0 && ev->cpu != smp_processor_id()) || READ_ONCE(ev->limit_hit) ||
	    pfm_perf_sample_excluded(&ev->attr, at)) {
		pfm_perf_period_done(ev, wrapped, p, time);
		return;
	}
	if (pfm_perf_throttled(ev, wrapped, p, time))
		return;
	kill = pfm_perf_sample_async(ev);
	ip = pfm_perf_sample_ip(at, !ev->attr.exclude_kernel, &misc);
	if (st & PERF_SAMPLE_IDENTIFIER)
		w[n++] = pfm_perf_primary_id(ev);
	if (st & PERF_SAMPLE_IP)
		w[n++] = ip;
	if (st & PERF_SAMPLE_TID)
		w[n++] = pfm_perf_tid();
	if (st & PERF_SAMPLE_TIME)
		w[n++] = time;
	if (st & PERF_SAMPLE_ADDR)
		w[n++] = pfm_perf_sample_addr(ev);
	if (st & PERF_SAMPLE_ID)
		w[n++] = pfm_perf_primary_id(ev);
	if (st & PERF_SAMPLE_STREAM_ID)
		w[n++] = ev->id;
	if (st & PERF_SAMPLE_CPU)
		w[n++] = smp_processor_id();
	if (st & PERF_SAMPLE_PERIOD)
		w[n++] = ev->per.period;
	if (st & PERF_SAMPLE_READ)
		n += pfm_perf_sample_read(ev, ctx, set, pmd, w + n);
	if (st & PERF_SAMPLE_CALLCHAIN)
		n += pfm_perf_callchain(ev, w + n, misc == PERF_RECORD_MISC_KERNEL ? ip : 0);
	if (st & PERF_SAMPLE_RAW)
		n += pfm_perf_sample_raw(w + n);
	if (unlikely(st & PFM_PERF_SAMPLE_TAIL))
		n += pfm_perf_sample_tail(ev, w + n, n, at, ip);
	h->type = PERF_RECORD_SAMPLE;
	h->misc = misc;
	h->size = n * sizeof(u64);
	/* the sample's time: one reading of the clock per sample */
	pfm_perf_period_done(ev, wrapped, p, time);
	pfm_perf_ring_write_irqs_off(ev, w);
	pfm_perf_sample_after(ev, kill, misc, ip, time);
}

struct pfm_perf_new_period {
	struct pfm_perf_event *ev;
	u64 period;
};

/*
 * Where the state lives, under ctx->lock: the period in progress ends now and
 * a new one starts (as perf restarts the event with period_left 0); wrapped
 * takes what the PMD leaves, so the count goes on.
 */
static void pfm_perf_restart_period(struct pfm_context *ctx, void *arg)
{
	struct pfm_perf_new_period *np = arg;
	struct pfm_perf_event *ev = np->ev;
	unsigned int pmd = pfm_perf_counter_pmd(ev->counter);
	struct pfm_event_set *set;

	/* a pinned event samples on its own counter in every set */
	pfm_for_each_set(ctx, set) {
		struct pfm_pmd *p;

		if (set->id >= PFM_PERF_MAX_SETS || !pfm_perf_in_set(ev, set->id))
			continue;
		p = pfm_set_pmd(set, pmd);
		ev->target->sets[set->id]->wrapped[ev->counter] +=
			pfm_pmd_value(ctx, set, pmd) + np->period;
		p->short_reset = -np->period;
		p->long_reset = -np->period;
		pfm_pmd_replace_value(ctx, set, pmd, -np->period);
	}
	ev->per.period = np->period;
}

/*
 * PERF_EVENT_IOC_PERIOD with perf's checks: a sampling event (EINVAL), a
 * value not 0 (EINVAL), within the maximum rate with freq, else below 2^63
 * (EINVAL).  With freq it is the new frequency, else the new period, counted
 * from now.  ctx->mutex not held.
 */
int pfm_perf_sample_period(struct pfm_perf_event *ev, u64 value)
{
	struct pfm_perf_new_period np = { .ev = ev, .period = value };
	struct pfm_context *ctx = ev->target->ctx;

	if (!pfm_perf_sampling(&ev->attr) || !value)
		return -EINVAL;
	if (ev->attr.freq ? value > READ_ONCE(pfm_perf_max_sample_rate) : value >> 63)
		return -EINVAL;
	if (pfm_perf_every_event(&ev->attr))
		np.period = 1;	/* as at open: every occurrence still */
	mutex_lock(pfm_ctx_mutex(ctx));
	if (ev->attr.freq) {
		ev->attr.sample_freq = value;
	} else {
		ev->attr.sample_period = value;
		if (ev->counter >= 0)
			pfm_run_on_state(ctx, pfm_perf_restart_period, &np);
		else if (ev->per.period)
			ev->per.period = np.period;	/* taken up when it gets a counter again */
	}
	mutex_unlock(pfm_ctx_mutex(ctx));
	return 0;
}

/* ev's counter (its own) in set s as a sampling PMD; ctx->mutex held. */
static int pfm_perf_smpl_pmd(struct pfm_perf_event *ev, unsigned int s, u32 flags, u64 period)
{
	struct pfarg_pmd req = {};

	req.reg_set = s;
	req.reg_num = pfm_perf_counter_pmd(ev->counter);
	req.reg_flags = flags;
	req.reg_value = -period;
	req.reg_short_reset = -period;
	req.reg_long_reset = -period;
	return pfm_write_pmds(ev->target->ctx, &req, 1);
}

/*
 * ev just took a counter of its own in set s (sched.c): it becomes a
 * sampling PMD routed to ev, in the period ev counts now (its first the first
 * time).  On failure the caller gives the counter back.
 */
int pfm_perf_sample_setup(struct pfm_perf_event *ev, unsigned int s)
{
	struct pfm_perf_set *row = ev->target->sets[s];
	struct pfm_perf_counter *c = &row->counters[ev->counter];
	u64 *wrapped;
	int ret;

	if (!row->wrapped) {
		wrapped = kcalloc(PFM_PERF_NUM_COUNTERS, sizeof(*wrapped), GFP_KERNEL);
		if (!wrapped)
			return -ENOMEM;
		/* read without ctx->lock by a read of the set's counters */
		WRITE_ONCE(row->wrapped, wrapped);
	}
	c->smpl = true;
	row->wrapped[ev->counter] = 0;
	if (!ev->per.period) {
		ev->per.period = pfm_perf_first_period(&ev->attr);
		ev->per.stamp = local_clock();
	}
	ret = pfm_perf_route(ev, s, true);
	if (!ret)
		ret = pfm_perf_smpl_pmd(ev, s, PFM_PMDFL_SMPL, ev->per.period);
	if (ret) {
		pfm_perf_route(ev, s, false);
		c->smpl = false;
	}
	return ret;
}

/* ev leaves its counter in set s: no more overflows reach it; ctx->mutex held. */
void pfm_perf_sample_teardown(struct pfm_perf_event *ev, unsigned int s)
{
	struct pfm_perf_set *row = ev->target->sets[s];

	pfm_perf_route(ev, s, false);
	pfm_perf_smpl_pmd(ev, s, 0, 0);
	row->counters[ev->counter].smpl = false;
	row->wrapped[ev->counter] = 0;
}
