/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf suites' shared fixtures (sim_perf.c): an attr's encoding, and a
 * perf event placed and counting as perf/event.c does it.
 */
#ifndef PFM_SIM_PERF_H
#define PFM_SIM_PERF_H

#include <linux/perf_event.h>

#include "sim_test.h"
#include "perf/counters.h"

#define EX_U	2	/* exclude_kernel: user level only, as :u */
#define EX_K	1	/* exclude_user: kernel level only, as :k */

struct ev {
	u32 type;
	u64 config;
	u64 excl;
	int counter;
};

#define EV(t, c, x)	((struct ev){ .type = (t), .config = (c), .excl = (x), .counter = -1 })

bool has_fixed(unsigned int j);
int encode(u32 type, u64 config, u64 excl, struct pfm_perf_enc *e);
/* perf/event.c's setup: the attr's encoding on a counter of set; the counter or errno. */
int open_ev_in(struct pfm_context *ctx, u16 set, struct pfm_perf_counter *cnt, struct ev *ev);
/* Turns counters of set on (or off) as perf/event.c's sync does: every event on them. */
void set_counting_in(struct pfm_context *ctx, u16 set, struct pfm_perf_counter *cnt,
		     u64 mask, bool on);

#endif
