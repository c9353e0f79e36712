/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: the counters the perf_event_open layer gives its events (counters.c),
 * and where perf's hardware events may go on them: the PMU unit that encodes
 * them answers in its own terms (pmu.h, struct pfm_attr_enc), which counters.c
 * turns into the numbering below, this layer's own.
 *
 * A target (event.h) owns one row of counters per event set, numbered in one
 * space across the PMU's units so that the layer treats them alike:
 *
 *   0 .. 31    software counters: the software PMU's first PFM_PERF_SW_COUNTERS
 *              (PMC/PMD PFM_SW_FIRST_* + i)
 *   32 .. 47   the general-purpose counters (PMC/PMD 0..15 of <perfmon/perfmon_x86.h>)
 *   48 .. 55   the fixed counters (PMD 16..23), all controlled by PMC 16
 *
 * Counting software events share a counter per distinct value (a few dozen at
 * most), but every sampling one takes a counter of its own: 32 let one set hold
 * the sampling tracepoints a tool opens per CPU (perf sched record's dozen) with
 * room to spare, where the software PMU's 64 would make every set's row (8 per
 * target) half as large again.  A mask of counters is a u64, bit i counter i.
 *
 * A counter holds one PMC value "without its on switch": the software PMU's and
 * the event selects' EN bit (bit 22 in both), or, for a fixed counter, its
 * levels in FIXED_CTR_CTRL, which are its on switch.  Events counting the same
 * value share a counter.  Everything here is a pure function of the counters and
 * the PMU description, so that the host tests run it on the simulator.
 */
#ifndef _PERFMON_PERF_COUNTERS_H
#define _PERFMON_PERF_COUNTERS_H

#include <uapi/perfmon/perfmon.h>
#include <uapi/perfmon/perfmon_sw.h>
#include <uapi/perfmon/perfmon_x86.h>

struct perf_event_attr;

#define PFM_PERF_SW_COUNTERS	32
#define PFM_PERF_GP_FIRST	PFM_PERF_SW_COUNTERS
#define PFM_PERF_FIXED_FIRST	(PFM_PERF_GP_FIRST + PFM_X86_MAX_GP)
#define PFM_PERF_NUM_COUNTERS	(PFM_PERF_FIXED_FIRST + PFM_X86_MAX_FIXED)
#define PFM_PERF_COUNTER(i)	(1ULL << (i))

/* Event sets a target's groups are spread over (sched.c), each with a row. */
#define PFM_PERF_MAX_SETS	8

/* The on switch of software counters and event selects alike. */
#define PFM_PERF_PMC_EN		(1ULL << 22)

/*
 * A counter of a target, shared by the events that count the same: 56 of them
 * in every set's row of every monitored thread, so kept to 16 bytes (what a
 * sampling counter's resets took off is beside the row, struct pfm_perf_set).
 */
struct pfm_perf_counter {
	u64 pmc;			/* PMC value without the on switch */
	u16 users;			/* events on it, PFM_PERF_USERS_MAX at most */
	u16 counting;			/* of those, counting now: on while any */
	bool smpl;			/* a sampling event's own: never shared */
};

/* Events on one counter at most: one that has them is not shared further. */
#define PFM_PERF_USERS_MAX	0xffff

/*
 * What an event may count on: counters (bits of the numbering above) where the
 * PMC value is pmc, and at most one fixed counter, where it is fixed_pmc.  No
 * counter at all: the event counts nothing (both levels excluded).
 */
struct pfm_perf_enc {
	u64 counters;
	u64 pmc;
	u64 fixed_pmc;
	bool own;			/* a counter of its own (sampling): no sharing */
	u8 type;			/* hybrid: the type of CPU it counts on + 1, else 0 */
};

/*
 * A PERF_TYPE_HARDWARE, HW_CACHE or RAW attr, or one of a hybrid machine's PMU
 * types, on the hardware PMU now registered (pfm_pmu_encode_attr()), opened on
 * cpu (-1: wherever its thread runs; an online CPU), on the counters above.
 * 0, or the errno perf_event_open(2) gives: ENOENT when there is no hardware
 * PMU or it is not of that type, and as Linux 6.1's x86 code gives it for each
 * config (see <perfmon/perfmon_perf.h>, PERF_EVENT_OPEN COMPATIBILITY).
 */
int pfm_perf_hw_encode(const struct perf_event_attr *attr, int cpu, struct pfm_perf_enc *enc);
/*
 * Whether a thread's event gated by CPU and type of CPU (cgroup.c) counts while
 * its thread runs on cpu: ev_cpu its one CPU (-1: any), type its group's type
 * of CPU (pfm_perf_enc.type; 0: any).
 */
bool pfm_perf_gate_cpu(int ev_cpu, u8 type, int cpu);

/* counters.c: what event.c does with a target's counters (ctx->mutex held) */
struct pfm_context;
unsigned int pfm_perf_counter_pmd(unsigned int i);
unsigned int pfm_perf_counter_pmc(unsigned int i);
int pfm_perf_counter_get(struct pfm_context *ctx, u16 set, struct pfm_perf_counter *counters,
			 const struct pfm_perf_enc *enc, u64 *pmc, u64 *unwritten);
/* ctx NULL: the counter is left as it is, its context going unread (inherit.c) */
void pfm_perf_counter_put(struct pfm_context *ctx, u16 set, struct pfm_perf_counter *counters,
			  unsigned int i, bool counting);
struct pfm_op_clock;
int pfm_perf_counters_write(struct pfm_context *ctx, u16 set, struct pfm_perf_counter *counters,
			    const unsigned int *counting, u64 changed, struct pfm_op_clock *clock);
int pfm_perf_counters_program(struct pfm_context *ctx, u16 set,
			      const struct pfm_perf_counter *counters, u64 *unwritten);
int pfm_perf_place_every(struct pfm_perf_counter *const *rows, unsigned int nr,
			 const struct pfm_perf_enc *enc);

/*
 * Where a sampling counter's overflows go (ring.c's format): the event that
 * owns counter i of set s.  Keyed by set, as each set has its own PMDs.
 */
struct pfm_perf_event;
struct pfm_perf_routes {
	struct pfm_perf_event *ev[PFM_PERF_MAX_SETS][PFM_PERF_NUM_COUNTERS];
};
void pfm_perf_route_set(struct pfm_perf_routes *r, unsigned int set, unsigned int i,
			struct pfm_perf_event *ev);
struct pfm_perf_event *pfm_perf_route_find(const struct pfm_perf_routes *r, unsigned int set,
					   unsigned int pmd);

/* their parts, for the tests */
int pfm_perf_place(const struct pfm_perf_counter *counters, const struct pfm_perf_enc *enc,
		   u64 *pmc);
unsigned int pfm_perf_counters_req(const struct pfm_perf_counter *counters,
				   const unsigned int *counting, u64 changed,
				   struct pfarg_pmc *req);

#endif /* _PERFMON_PERF_COUNTERS_H */
