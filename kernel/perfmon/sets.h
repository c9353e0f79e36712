/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: event sets, each the whole software image of the PMU, and what they
 * keep for each PMD (sets.c).
 */
#ifndef _PERFMON_SETS_H
#define _PERFMON_SETS_H

#include "internal.h"

struct pfm_context;

/* What a set keeps for each PMD. */
struct pfm_pmd {
	u64 value;		/* 64-bit virtual value; while live, its low bits are
				 * the hardware value at the last sync */
	u32 flags;		/* PFM_PMDFL_* */
	u64 long_reset;
	u64 short_reset;
	u64 last_reset_val;
	u64 ovfl_switch_cnt;		/* overflows before a switch, as written */
	u64 switch_left;		/* overflows left before the switch */
};

/*
 * What few PMDs are given, apart from struct pfm_pmd, in an array of a set's own
 * made at the first write that gives any of it (pfm_write_pmds()): the PMDs it
 * resets with it and records in its samples, its random mask, its sample event
 * id.  Most sets have none, and without it a set's PMDs fit a quarter of the
 * memory.
 */
struct pfm_pmd_opts {
	u64 reset_pmds[PFM_PMD_BV];
	u64 smpl_pmds[PFM_PMD_BV];
	u64 random_mask;
	u64 smpl_eventid;
};

/* An event set: the whole software image of the PMU. */
struct pfm_event_set {
	struct list_head list;		/* in ctx->sets, ordered by id */
	u16 id;
	bool system_wide;		/* of a CPU session: on the CPU banks (pmu.h) */
	u32 flags;			/* PFM_SETFL_* */
	u64 timeout_ns;			/* effective switch timeout */
	u64 timeout_mask;		/* PFM_SETFL_RANDOM_TIMEOUT: range taken off it */
	u64 timeout_left_ns;		/* left of it: when it last went live, or left (switch.c) */
	u64 runs;			/* activations */
	u64 duration_ns;		/* time live: on the CPU, started, active */
	/*
	 * The overflow bitmaps cover the PMDs the bit vectors name alone: those
	 * past them take no part in overflow handling (perfmon_sw.h).
	 */
	DECLARE_BITMAP(ovfl_pmds, PFM_MAX_PMDS);	/* overflowed last */
	DECLARE_BITMAP(ovfl_pending, PFM_MAX_PMDS);	/* carried, not yet acted on */
	/*
	 * Set with every bit of ovfl_pending, cleared with all of them: the test at
	 * each switch-in (ovfl.h) looks at it, not at every word of the bitmap.
	 */
	bool ovfl_pending_any;
	u16 used_bits;			/* what used_pmcs and used_pmds cover (below) */
	DECLARE_BITMAP(restart_pmds, PFM_MAX_PMDS);	/* notified: long reset at restart */
	/*
	 * The registers written by the user, below used_bits: in used_bv, the
	 * registers the bit vectors name, until a write names a software counter
	 * past them; then in an array of the set's own, which covers them all
	 * (set_room.c).  Most sets never need it.
	 */
	unsigned long *used_pmcs;
	unsigned long *used_pmds;
	unsigned long used_bv[2][BITS_TO_LONGS(PFM_MAX_PMDS)];
	DECLARE_BITMAP(no_emul64, PFM_MAX_PMDS);	/* PMDs exported raw */
	/*
	 * By slot (pmu.h), reached through pfm_set_pmc(), pfm_set_pmd(), pfm_set_opts():
	 * the first pmc_slots and pmd_slots slots only, as many as the registers the
	 * set's writes named reach (set_room.c); a slot past them holds its quiescent
	 * value, a PMD's all zero (pfm_set_pmc_val(), pfm_set_pmd_read()).
	 */
	u64 *pmcs;			/* [pmc_slots] */
	u64 pmcs_gen;			/* names these PMC values (pfm_set_pmcs_changed()) */
	struct pfm_pmd *pmds;		/* [pmd_slots] */
	struct pfm_pmd_opts *opts;	/* [pmd_slots], or NULL: none */
	u16 pmc_slots;
	u16 pmd_slots;
	u32 pmds_bytes;			/* pmd_slots * sizeof(struct pfm_pmd) */
};

/* used_bv's two bitmaps, and the array past it, serve PMCs and PMDs alike. */
static_assert(PFM_MAX_PMCS == PFM_MAX_PMDS && PFM_NUM_PMCS == PFM_NUM_PMDS);
#define PFM_USED_WORDS	BITS_TO_LONGS(PFM_NUM_PMDS)

/* Whether the user wrote PMD i (any number) or PMC i in set. */
static __always_inline bool pfm_set_uses_pmd(const struct pfm_event_set *set, unsigned int i)
{
	return i < set->used_bits && test_bit(i, set->used_pmds);
}

static __always_inline bool pfm_set_uses_pmc(const struct pfm_event_set *set, unsigned int i)
{
	return i < set->used_bits && test_bit(i, set->used_pmcs);
}

/* The value of implemented PMC i in set, whose arrays reach it. */
static inline u64 *pfm_set_pmc(const struct pfm_event_set *set, unsigned int i)
{
	return &set->pmcs[pfm_pmu.pmc_slot[i]];
}

/* The value of implemented PMC i in set, reached or not. */
static inline u64 pfm_set_pmc_val(const struct pfm_event_set *set, unsigned int i)
{
	unsigned int s = pfm_pmu.pmc_slot[i];

	return s < set->pmc_slots ? set->pmcs[s] : pfm_pmu.dfl_pmcs[s];
}

/*
 * Implemented PMD i's entry in pmds, the array of a set.  The offsets are read
 * through a pointer: the read takes them inside a user access window, where a
 * bounds check may not call out (i is checked against the PMU first).
 */
static __always_inline struct pfm_pmd *pfm_pmd_at(struct pfm_pmd *pmds, unsigned int i)
{
	const u16 *off = pfm_pmu.pmd_off;

	return (void *)pmds + off[i];
}

/* What set keeps for implemented PMD i, which its arrays reach. */
static __always_inline struct pfm_pmd *pfm_set_pmd(const struct pfm_event_set *set,
						   unsigned int i)
{
	return pfm_pmd_at(set->pmds, i);
}

/* A PMD past a set's array: zero, never written. */
extern const struct pfm_pmd pfm_pmd_none;

/*
 * PMD i (below PFM_NUM_PMDS) in an array of bytes bytes, reached or not: to read
 * only.  The one compare that finds a PMD the array reaches, the common case, also
 * rules out a PMD not implemented (its offset, PFM_PMD_NO_OFF, is past any array):
 * that one sets *bad, so that the visit needs no test of its own against the PMU.
 */
static __always_inline const struct pfm_pmd *pfm_pmd_read_at(const struct pfm_pmd *pmds,
							     u32 bytes, unsigned int i, u64 *bad)
{
	const u16 *off = pfm_pmu.pmd_off;
	unsigned long o = off[i];

	if (likely(o < bytes))
		return (const void *)pmds + o;
	*bad |= o == PFM_PMD_NO_OFF;
	return &pfm_pmd_none;
}

/* What set keeps for implemented PMD i, reached or not: to read only. */
static __always_inline const struct pfm_pmd *pfm_set_pmd_read(const struct pfm_event_set *set,
							      unsigned int i)
{
	u64 bad = 0;

	return pfm_pmd_read_at(set->pmds, set->pmds_bytes, i, &bad);
}

/* The options of implemented PMD i in set, which has them (set->opts). */
static inline struct pfm_pmd_opts *pfm_set_opts(const struct pfm_event_set *set,
						unsigned int i)
{
	return &set->opts[pfm_pmu.pmd_slot[i]];
}

/* The context's sets, in id order (ctx->mutex or ctx->lock held). */
#define pfm_for_each_set(ctx, set)	list_for_each_entry(set, &(ctx)->sets, list)

int pfm_set_cache_init(void);
void pfm_set_cache_exit(void);
struct pfm_event_set *pfm_set_alloc(u16 id, bool system_wide);
void pfm_set_free(struct pfm_event_set *set);
struct pfm_event_set *pfm_find_set(struct pfm_context *ctx, u16 id);
struct pfm_event_set *pfm_first_set(struct pfm_context *ctx);
struct pfm_event_set *pfm_next_set(struct pfm_context *ctx, struct pfm_event_set *set);
void pfm_free_sets(struct pfm_context *ctx);

/*
 * set_room.c: the arrays of the sets a vector of PMC or PMD writes names, made
 * large enough for its registers before it is applied (ctx->mutex held, the
 * vector checked): -ENOMEM, and no register changed, if they cannot all be had.
 */
int pfm_sets_room_pmcs(struct pfm_context *ctx, const struct pfarg_pmc *req, unsigned int n);
int pfm_sets_room_pmds(struct pfm_context *ctx, const struct pfarg_pmd *req, unsigned int n);
/* the switch timeouts' granularity */
u64 pfm_timer_resolution_ns(void);

/* vectors of n struct pfarg_setdesc (create, delete) / pfarg_setinfo (getinfo) */
long pfm_create_evtsets(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_create_evtsets_user(struct pfm_context *ctx, void __user *uptr, u64 size);
long pfm_delete_evtsets(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_getinfo_evtsets(struct pfm_context *ctx, void *vec, unsigned int n);
void pfm_set_add_duration(struct pfm_event_set *set, u64 ns);
/*
 * The durations of sets 0..n-1, as pfm_getinfo_evtsets() reports them (0 for an
 * id without a set), into set_ns, taken in one visit to the state: with a write
 * or a read there (rw.h: the perf shim's times, which must start and stop with
 * the counts even when the state is on another CPU, and two visits there are a
 * wake-up of that CPU apart), or alone (pfm_sets_clock()).  with, if set, is
 * called in that visit once the durations are taken (ctx->lock held, where the
 * state is), so that what its caller keeps beside them under ctx->lock is read
 * at the same instant.
 */
struct pfm_op_clock {
	u64 *set_ns;
	unsigned int n;
	bool taken;		/* set by a call that succeeded */
	void (*with)(struct pfm_context *ctx, struct pfm_op_clock *clock);
	void *arg;		/* with's */
};

/* ctx->lock held, where the state is */
void pfm_sets_clock_locked(struct pfm_context *ctx, struct pfm_op_clock *clock);
void pfm_sets_clock(struct pfm_context *ctx, struct pfm_op_clock *clock);

#endif /* _PERFMON_SETS_H */
