/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: event sets (sets.c).
 */
#ifndef _PERFMON_SETS_H
#define _PERFMON_SETS_H

struct pfm_event_set *pfm_set_alloc(u16 id);
void pfm_set_free(struct pfm_event_set *set);
struct pfm_event_set *pfm_find_set(struct pfm_context *ctx, u16 id);
struct pfm_event_set *pfm_first_set(struct pfm_context *ctx);
struct pfm_event_set *pfm_next_set(struct pfm_context *ctx, struct pfm_event_set *set);
void pfm_free_sets(struct pfm_context *ctx);
/* the switch timeouts' granularity */
u64 pfm_timer_resolution_ns(void);

/* vectors of n struct pfarg_setdesc (create, delete) / pfarg_setinfo (getinfo) */
long pfm_create_evtsets(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_delete_evtsets(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_getinfo_evtsets(struct pfm_context *ctx, void *vec, unsigned int n);
/*
 * The durations of sets 0..n-1, as pfm_getinfo_evtsets() reports them (0 for an
 * id without a set), into set_ns, taken in one visit to the state: with a write
 * or a read there (rw.h: the perf shim's times, which must start and stop with
 * the counts even when the state is on another CPU, and two visits there are a
 * wake-up of that CPU apart), or alone (pfm_sets_clock()).
 */
struct pfm_op_clock {
	u64 *set_ns;
	unsigned int n;
	bool taken;		/* set by a call that succeeded */
};

/* ctx->lock held, where the state is */
void pfm_sets_clock_locked(struct pfm_context *ctx, struct pfm_op_clock *clock);
void pfm_sets_clock(struct pfm_context *ctx, struct pfm_op_clock *clock);

#endif /* _PERFMON_SETS_H */
