/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host unit tests of the perfmon core: what every test file shares.
 *
 * The core files that host.mk lists (PFM_HOST_CORE_SRCS) are compiled unchanged
 * against the shim in shim/.  What they call in the kernel-only files (thread.c,
 * sw_hooks.c, access.c, res.c, msg.c, ...) is provided by env.c as recording
 * stubs; fake_pmu.c is a 48-bit hardware unit of the tests' own.  The simulator
 * suites (tests/sim/suites/) share these fixtures and shortcuts.
 *
 * Every test runs in its own process (CK_FORK) with a checked fixture: the setup
 * registers the units and notes the allocator, and the teardown requires that
 * everything taken was given back (memory, module, task, unit and session
 * references, attachments) and that no WARN fired.
 */
#ifndef PFM_HOST_HARNESS_H
#define PFM_HOST_HARNESS_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"		/* the core's own headers, through the shim */
#include "args.h"
#include "ctx.h"
#include "env.h"		/* what the core asks of the kernel: env.c */
#include "ovfl.h"
#include "pmu_state.h"
#include "rw.h"
#include "sets.h"
#include "state.h"
#include "sw_pmu.h"
#include "switch.h"
#include "kshim_test.h"

/* Suites, one per file */
Suite *pfm_args_suite(void);
Suite *pfm_rw_suite(void);
Suite *pfm_read_user_suite(void);
Suite *pfm_emul64_suite(void);
Suite *pfm_state_suite(void);
Suite *pfm_sw_suite(void);
Suite *pfm_sw_banks_suite(void);
Suite *pfm_sw_words_suite(void);
Suite *pfm_sw_keyed_suite(void);
Suite *pfm_upage_suite(void);
Suite *pfm_ctx_suite(void);
Suite *pfm_pmu_suite(void);
Suite *pfm_sets_suite(void);
Suite *pfm_set_room_suite(void);
Suite *pfm_notify_suite(void);
Suite *pfm_mux_smpl_suite(void);
Suite *pfm_calls_suite(void);

/*
 * The fake hardware unit: PMC0..3 at logical 0..3 (bits 63..32 reserved, bit 22
 * enables counting), PMD0..3 at logical 0..3, 48 bits wide, PMDi counting under PMCi.
 * PMC0..2 accept PFM_PMCFL_NO_EMUL64; PMC3 (a fixed-function-like control) does not,
 * and its quiescent value is FAKE_PMC3_DFL.  One register file (CPU 0), and counters
 * of every access the core makes to it.
 */
#define FAKE_NUM		4
#define FAKE_WIDTH		48
#define FAKE_MASK		((1ULL << FAKE_WIDTH) - 1)
#define FAKE_PMC_EN		(1ULL << 22)
#define FAKE_PMC_RSVD		0xffffffff00000000ULL
#define FAKE_PMC3_DFL		0x5ULL
#define FAKE_OS_BIT		(1ULL << 17)	/* priv_msk of every fake PMC */

struct fake_pmu {
	u64 pmc[FAKE_NUM];
	u64 pmd[FAKE_NUM];
	bool enabled;
	bool system_wide;
	unsigned int nr_write_pmc;
	unsigned int nr_write_pmd;
	unsigned int nr_read_pmd;
	unsigned int nr_enable;
	unsigned int nr_disable;
	int users;		/* get() - put() */
	int get_ret;		/* what get() returns */
};

extern struct fake_pmu fake_pmu;
extern const struct pfm_pmu_unit fake_unit;
extern const struct pfm_regdesc fake_pmcs[FAKE_NUM];
extern const struct pfm_regdesc fake_pmds[FAKE_NUM];

/* Counts delta events on counter i if the unit is enabled and PMCi has EN. */
void fake_pmu_advance(unsigned int i, u64 delta);
/* Register accesses (reads, writes, enable, disable) made so far. */
unsigned int fake_pmu_accesses(void);

/*
 * The environment (env.c): the clock, the threads, the hooks, the software-event
 * probes, the access model and the session accounting, as recording stubs.
 */
struct pfm_host_env {
	u64 clock_ns;			/* pfm_clock_ns() */
	int attached;			/* contexts attached to a thread or a CPU */
	unsigned int attach_calls;
	unsigned int detach_calls;
	unsigned int run_on_state_calls;
	int attach_ret;			/* injected pfm_env_attach() error */
	unsigned int reattach_calls;
	int reattach_ret;		/* injected pfm_env_reattach() error */
	int sw_hooks_users;
	int sw_hooks_get_ret;		/* injected pfm_sw_hooks_get() error */
	int sw_syscall_users;		/* holders of the system call hook */
	int sw_needs_get_ret;		/* injected pfm_sw_needs_get() error */
	int access_task_ret;		/* pfm_access_task() result */
	bool unprivileged;		/* pfm_access_pmc() refuses a register's priv_msk */
	unsigned int access_pmc_calls;
	int charged;			/* contexts charged to the user */
	int charge_ret;			/* injected pfm_res_ctx_charge() error */
	int task_sessions;
	int cpu_sessions;
	int session_ret;		/* injected pfm_res_session_get() error */
	int hw_sessions[2];		/* holding the hardware, [system_wide] (res.c's rule) */
	unsigned int end_msgs;		/* pfm_msg_end() calls */
	unsigned int ovfl_msgs;		/* pfm_msg_ovfl_locked() calls */
	unsigned int blocks;		/* pfm_env_block() calls */
	unsigned int samples;		/* pfm_smpl_record_locked() calls */
	bool smpl_full;			/* what it says: the buffer is full */
	unsigned int smpl_restarts;	/* pfm_smpl_restart_locked() calls */
	unsigned int switch_logs;	/* pfm_smpl_switch_locked() calls */
	/* what pfm_smpl_record_locked() runs as the format's handler, if set */
	void (*on_record)(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int pmd);
	/* what pfm_smpl_switch_locked() runs as the format's op, if set */
	void (*on_switch)(struct pfm_context *ctx, struct pfm_event_set *prev,
			  struct pfm_event_set *next);
	unsigned long ovfl_msg_pmds[BITS_TO_LONGS(PFM_MAX_PMDS)];	/* of the last one */
	u64 user_ip;			/* what pfm_user_ip() says */
};

extern struct pfm_host_env pfm_host_env;

/* The monitored thread leaving and coming back to the CPU (thread.c's hooks). */
void pfm_host_sched_out(struct pfm_context *ctx);
void pfm_host_sched_out_at(struct pfm_context *ctx, u64 now);
void pfm_host_sched_in_at(struct pfm_context *ctx, u64 now);
void pfm_host_sched_in(struct pfm_context *ctx);
/* The thread attached from elsewhere (current now) hooks itself. */
void pfm_host_hook_on(struct pfm_context *ctx);

/* Fixtures: units registered, then the teardown checks everything was given back. */
void pfm_host_setup(void);		/* fake unit, then the software unit */
void pfm_host_setup_sw(void);		/* the software unit only */
void pfm_host_setup_bare(void);		/* no unit */
void pfm_host_teardown(void);
/* A test case with the given fixture, 5 s timeout. */
TCase *pfm_host_tcase(const char *name, void (*setup)(void));

/* The software unit's registers, by counter. */
#define SW_PMC(i)	(PFM_SW_FIRST_PMC + (i))
#define SW_PMD(i)	(PFM_SW_FIRST_PMD + (i))

/* pfm_write_pmcs() of one PMC of a set; returns its result. */
long pfm_host_write_pmc(struct pfm_context *ctx, u16 set, u16 num, u64 value, u32 flags);

/* Shortcuts; each asserts the call succeeded.  Without a set: set 0. */
struct pfm_context *ck_ctx_new(u32 flags);
void ck_load_self(struct pfm_context *ctx);
void ck_unload(struct pfm_context *ctx);
void ck_start(struct pfm_context *ctx);
void ck_stop(struct pfm_context *ctx);
void ck_write_pmc(struct pfm_context *ctx, u16 num, u64 value, u32 flags);
void ck_write_set_pmc(struct pfm_context *ctx, u16 set, u16 num, u64 value);
void ck_write_pmd(struct pfm_context *ctx, u16 num, u64 value);
void ck_write_set_pmd(struct pfm_context *ctx, u16 set, u16 num, u64 value);
u64 ck_read_pmd(struct pfm_context *ctx, u16 num);
u64 ck_read_set_pmd(struct pfm_context *ctx, u16 set, u16 num);
struct pfm_event_set *ctx_set0(struct pfm_context *ctx);
/* A PMD written with its flags, resets and switch threshold. */
void ck_write_pmd_full(struct pfm_context *ctx, u16 set, u16 num, u64 value, u32 flags,
		       u64 short_reset, u64 long_reset, u64 switch_cnt);
/*
 * A context sampling with a task clock on software counter clk (at -1000, reset
 * -1000, samples to a stand-in format), started at time 1000: its carry's timer
 * is armed for 2000.  The test clears ctx->smpl.fmt before ck_done().  (sw.c)
 */
struct pfm_context *ck_sampling_clock_at_1000(u16 clk);
/* Detaches if attached, then drops the test's reference. */
void ck_done(struct pfm_context *ctx);
/* Event set id created (or changed) with flags and timeout. */
void ck_create_set(struct pfm_context *ctx, u16 id, u32 flags, u64 timeout_ns);
/* pfm_getinfo_evtsets() of one set, into *info. */
void ck_getinfo(struct pfm_context *ctx, u16 set, struct pfarg_setinfo *info);
/* the same, by value */
struct pfarg_setinfo ck_info(struct pfm_context *ctx, u16 set);

#define ck_assert_u64_eq(a, b)	ck_assert_uint_eq((u64)(a), (u64)(b))

#endif /* PFM_HOST_HARNESS_H */
