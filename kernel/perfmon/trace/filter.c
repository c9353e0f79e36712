// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: a trace event filter (the tracefs filter language) on one of the trace
 * source's in-kernel counters, by the kernel's own filter code.
 *
 * perf_events filters a tracepoint counter's hits itself (perf_tp_event_match()
 * runs filter_match_preds() on the record before the overflow handler sees it),
 * once ftrace_profile_set_filter() has parsed the filter for that counter: the
 * function behind perf's PERF_EVENT_IOC_SET_FILTER.  So a filtered source's
 * counters carry the filter, parsed and matched exactly as perf's would be, the
 * parse errors included, and the filter is freed with the counter.  The
 * function is global but not exported: built into the kernel the layer calls it;
 * as a module it finds its address once, at load, by registering a kprobe on it
 * and taking the probe's address (the kprobe is unregistered at once and never
 * fires).  Every other way to that parser is static (perf_event_set_filter(),
 * the tracefs filter files' writers, which filter for the ftrace ring buffer
 * and not for perf).  Where the address cannot be had (a kernel without
 * kprobes; with IBT, where a kprobe's address is past the function's ENDBR and
 * an indirect call there faults) filters are refused with EINVAL, and the kernel
 * log says so.
 */
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/trace_events.h>

#include "layer.h"
#include "filter.h"

static int (*pfm_tp_set_filter)(struct perf_event *event, int event_id, char *filter_str);

#ifndef MODULE
void pfm_tp_filter_init(void)
{
	pfm_tp_set_filter = ftrace_profile_set_filter;
}
#elif defined(CONFIG_KPROBES) && !defined(CONFIG_X86_KERNEL_IBT)
void pfm_tp_filter_init(void)
{
	struct kprobe kp = { .symbol_name = "ftrace_profile_set_filter" };
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		pr_info("perfmon: trace: no address for ftrace_profile_set_filter (%d): tracepoint filters refused\n",
			ret);
		return;
	}
	pfm_tp_set_filter = (void *)kp.addr;
	unregister_kprobe(&kp);
}
#else
void pfm_tp_filter_init(void)
{
	pr_info("perfmon: trace: no way to ftrace_profile_set_filter: tracepoint filters refused\n");
}
#endif

/* filter on ev, a tracepoint counter of trace event id: 0 or perf's errno. */
int pfm_tp_filter_apply(struct perf_event *ev, u32 id, const char *filter)
{
	char *s;
	int ret;

	if (!pfm_tp_set_filter)
		return -EINVAL;
	/* the parser takes a writable string */
	s = kstrdup(filter, GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	ret = pfm_tp_set_filter(ev, id, s);
	kfree(s);
	return ret;
}
