// SPDX-License-Identifier: GPL-2.0
/*
 * perf_hybrid: perf's hardware events on a simulated Lunar Lake (CPU 0 a P core,
 * CPU 1 an E core; tests/sim/cpuid/): which core type's PMU an attr opens on
 * (the extended type, RAW's type number, the CPU), 6.1's refusals, and a
 * thread's cpu_core and cpu_atom events in its one context of every type, each
 * counter switched on only on its own type as perf/cgroup.c's gate does, exact
 * across migrations.
 */
#include <string.h>

#include "sim_perf.h"

#define CORE_ID		0x40
#define P_CPU		0
#define E_CPU		1
#define T_CORE		1	/* pfm_perf_enc.type: index + 1 */
#define T_ATOM		2
#define EXT(t)		((u64)(t) << 32)
#define GP_MASK(m)	((u64)(m) << PFM_PERF_GP_FIRST)
#define FX_BIT(j)	PFM_PERF_COUNTER(PFM_PERF_FIXED_FIRST + (j))

static void lunar_lake(void)
{
	sim_start_hybrid("intel-06-bd-lunarlake");
}

static int enc_on(u32 type, u64 config, int cpu, struct pfm_perf_enc *e)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.exclude_kernel = 1;
	return pfm_perf_hw_encode(&a, cpu, e);
}

/* The type (index + 1) an attr opens on, or its errno. */
static int type_on(u32 type, u64 config, int cpu)
{
	struct pfm_perf_enc e;
	int ret = enc_on(type, config, cpu, &e);

	return ret ? ret : e.type;
}

/*
 * 6.1's perf_init_event() on a hybrid machine: HARDWARE and HW_CACHE go to
 * their extended type's PMU, PERF_TYPE_RAW (4, the P cores') without one, and
 * on one CPU to that CPU's type; RAW by attr.type, cpu_atom's number included.
 * A type no core type has, or a CPU outside the type's: ENOENT.  Each type's
 * events may use that type's counters only.
 */
START_TEST(test_hybrid_types)
{
	const u32 atom = SIM_PERF_TYPE_ATOM;
	struct pfm_perf_enc e;

	lunar_lake();
	ck_assert_uint_eq(pfm_x86_unit_types[0].id, CORE_ID);
	ck_assert_uint_eq(pfm_x86_unit_types[0].perf_type, PERF_TYPE_RAW);
	ck_assert_uint_eq(pfm_x86_unit_types[1].perf_type, atom);

	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, -1), T_CORE);
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, EXT(PERF_TYPE_RAW), -1), T_CORE);
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, EXT(atom), -1), T_ATOM);
	ck_assert_int_eq(type_on(PERF_TYPE_RAW, 0x00c0, -1), T_CORE);
	ck_assert_int_eq(type_on(atom, 0x00c0, -1), T_ATOM);
	/* on one CPU: the unnamed type is the CPU's, a named one must be it */
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, 0, E_CPU), T_ATOM);
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, 0, P_CPU), T_CORE);
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, EXT(atom), E_CPU), T_ATOM);
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, EXT(PERF_TYPE_RAW), E_CPU), -ENOENT);
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, EXT(atom), P_CPU), -ENOENT);
	ck_assert_int_eq(type_on(PERF_TYPE_RAW, 0x00c0, E_CPU), -ENOENT);
	ck_assert_int_eq(type_on(atom, 0x00c0, P_CPU), -ENOENT);
	/* types no core type has: a software PMU's, an unknown one */
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, EXT(PERF_TYPE_SOFTWARE), -1), -ENOENT);
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, EXT(atom + 1), -1), -ENOENT);
	ck_assert_int_eq(type_on(PERF_TYPE_HW_CACHE, EXT(atom + 1), -1), -ENOENT);
	ck_assert_int_eq(type_on(atom + 1, 0x00c0, -1), -ENOENT);
	ck_assert_int_eq(type_on(PERF_TYPE_BREAKPOINT, 0x00c0, -1), -ENOENT);
	/* the config's own checks after the type: past perf's list, reserved bits */
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, EXT(atom) | PERF_COUNT_HW_MAX, -1), -EINVAL);
	ck_assert_int_eq(type_on(atom, 0x00c0 | PFM_X86_SEL_PC, -1), -EINVAL);
	/* counters: P cores GP 0-9 and fixed 0-3, E cores GP 0-7 and fixed 0-2, 4-6 */
	ck_assert_int_eq(enc_on(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, -1, &e), 0);
	ck_assert_uint_eq(e.counters, GP_MASK(0x3ff) | FX_BIT(1));
	ck_assert_int_eq(enc_on(PERF_TYPE_HARDWARE, EXT(atom) | 1, -1, &e), 0);
	ck_assert_uint_eq(e.counters, GP_MASK(0xff) | FX_BIT(0));
	ck_assert_uint_eq(e.pmc, 0x00c0 | PFM_X86_SEL_USR);
	/* fixed counter 3 (topdown slots, pseudo-encoding 0x0400): P cores only */
	ck_assert_int_eq(enc_on(PERF_TYPE_RAW, 0x0400, -1, &e), 0);
	ck_assert_uint_eq(e.counters, FX_BIT(3));
	ck_assert_int_eq(enc_on(atom, 0x0400, -1, &e), -ENOENT);
	ck_assert_int_eq(enc_on(atom, 0x0700, -1, &e), 0);
	ck_assert_uint_eq(e.counters, FX_BIT(6));
	ck_assert_int_eq(enc_on(PERF_TYPE_RAW, 0x0700, -1, &e), -ENOENT);
}
END_TEST

/*
 * perf/cgroup.c's gate of a thread's event: on its one CPU if it has one, on
 * CPUs of its type if it has one, both if both.
 */
START_TEST(test_gate_cpu)
{
	lunar_lake();
	ck_assert(pfm_perf_gate_cpu(-1, 0, P_CPU) && pfm_perf_gate_cpu(-1, 0, E_CPU));
	ck_assert(pfm_perf_gate_cpu(-1, T_CORE, P_CPU));
	ck_assert(!pfm_perf_gate_cpu(-1, T_CORE, E_CPU));
	ck_assert(!pfm_perf_gate_cpu(-1, T_ATOM, P_CPU));
	ck_assert(pfm_perf_gate_cpu(-1, T_ATOM, E_CPU));
	ck_assert(pfm_perf_gate_cpu(E_CPU, 0, E_CPU) && !pfm_perf_gate_cpu(E_CPU, 0, P_CPU));
	ck_assert(pfm_perf_gate_cpu(E_CPU, T_ATOM, E_CPU));
	ck_assert(!pfm_perf_gate_cpu(E_CPU, T_ATOM, P_CPU));
	ck_assert(!pfm_perf_gate_cpu(P_CPU, T_ATOM, P_CPU));
}
END_TEST

/* A machine of one type keeps its one number: cpu_atom's is no PMU's there. */
START_TEST(test_one_type)
{
	sim_start(_i);
	ck_assert_int_eq(type_on(PERF_TYPE_RAW, 0x00c0, -1), 0);
	ck_assert_int_eq(type_on(SIM_PERF_TYPE_ATOM, 0x00c0, -1), -ENOENT);
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, EXT(SIM_PERF_TYPE_ATOM), -1), -ENOENT);
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, EXT(PERF_TYPE_RAW), 0), 0);
}
END_TEST

/*
 * Leaf 0x23 sub-leaf 3, each type's architectural events: Topdown Slots
 * (0x01a4) is the P cores' only on Meteor Lake and Lunar Lake.  A RAW event
 * opens on cpu_core; on cpu_atom it is refused with EINVAL, as a RAW
 * architectural event the CPU lacks is on one type; the type rule (ENOENT)
 * comes first.
 */
START_TEST(test_arch_events_by_type)
{
	static const char *const names[] = {
		"intel-06-aa-meteorlake", "intel-06-bd-lunarlake",
	};
	const u32 atom = SIM_PERF_TYPE_ATOM;
	struct pfm_perf_enc e;

	sim_start_hybrid(names[_i]);
	ck_assert_int_eq(enc_on(PERF_TYPE_RAW, 0x01a4, -1, &e), 0);
	ck_assert_uint_eq(e.type, T_CORE);
	ck_assert_uint_eq(e.pmc, 0x01a4 | PFM_X86_SEL_USR);
	ck_assert_int_eq(type_on(PERF_TYPE_RAW, 0x01a4, P_CPU), T_CORE);
	ck_assert_int_eq(type_on(atom, 0x01a4, -1), -EINVAL);
	ck_assert_int_eq(type_on(atom, 0x01a4, E_CPU), -EINVAL);
	ck_assert_int_eq(type_on(PERF_TYPE_RAW, 0x01a4, E_CPU), -ENOENT);
	/* an event both have, on both */
	ck_assert_int_eq(type_on(atom, 0x00c5, -1), T_ATOM);
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, EXT(atom) | PERF_COUNT_HW_BRANCH_MISSES, -1),
			 T_ATOM);
}
END_TEST

/*
 * v6's events of sub-leaf 3 bits 8-12 on Lunar Lake: Topdown Bad Speculation
 * (0x0073) is the E cores' only, Topdown Retiring (0x02c2) both types'.
 */
START_TEST(test_v6_events_by_type)
{
	const u32 atom = SIM_PERF_TYPE_ATOM;

	lunar_lake();
	ck_assert_int_eq(type_on(PERF_TYPE_RAW, 0x0073, -1), -EINVAL);
	ck_assert_int_eq(type_on(PERF_TYPE_RAW, 0x0073, P_CPU), -EINVAL);
	ck_assert_int_eq(type_on(atom, 0x0073, -1), T_ATOM);
	ck_assert_int_eq(type_on(atom, 0x0073, E_CPU), T_ATOM);
	ck_assert_int_eq(type_on(PERF_TYPE_RAW, 0x02c2, -1), T_CORE);
	ck_assert_int_eq(type_on(atom, 0x02c2, -1), T_ATOM);
}
END_TEST

/*
 * One type, v6: sub-leaf 3 stands in place of leaf 0xA's EBX, which here calls
 * Topdown Slots missing while sub-leaf 3 has it, and lacks Branch Misses
 * Retired: perf's branch-misses is ENOENT (6.1 drops it from its map), the RAW
 * code EINVAL, Topdown Slots opens.
 */
START_TEST(test_arch_events_v6)
{
	struct sim_model m = sim_models[SIM_INTEL_V5];

	m.version = 6;
	m.leaf23 = true;
	m.gp23 = 0xff;
	m.fixed23 = 0xf;
	m.events_len = 13;
	m.events_unavail = 1U << 7;
	m.events23 = 0x1fbf;
	sim_reset_custom(&m);
	ck_assert_str_eq(sim_probe(), "intel_arch_v6");
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, -1), -ENOENT);
	ck_assert_int_eq(type_on(PERF_TYPE_RAW, 0x00c5, -1), -EINVAL);
	ck_assert_int_eq(type_on(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, -1), 0);
	ck_assert_int_eq(type_on(PERF_TYPE_RAW, 0x01a4, -1), 0);
}
END_TEST

/* A typed event as perf/event.c sets it up on a thread: gated, so its own counter, no fixed. */
static int open_typed(struct pfm_context *ctx, struct pfm_perf_counter *cnt, u32 type,
		      u64 config, u8 *t)
{
	struct pfm_perf_enc e;
	u64 pmc;
	int ret;

	ret = enc_on(type, config, -1, &e);
	if (ret)
		return ret;
	e.own = true;
	e.counters &= PFM_PERF_COUNTER(PFM_PERF_FIXED_FIRST) - 1;
	*t = e.type;
	return pfm_perf_counter_get(ctx, 0, cnt, &e, &pmc, NULL);
}

/*
 * perf/cgroup.c's gate at a switch in on cpu, before the core loads the state:
 * each typed counter on where its type is the CPU's, off elsewhere.
 */
static void gate(struct pfm_context *ctx, const struct pfm_perf_counter *cnt,
		 const int *counter, const u8 *type, unsigned int n, int cpu)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		pfm_pmc_set_value(ctx, ctx_set0(ctx), pfm_perf_counter_pmc(counter[i]),
				  cnt[counter[i]].pmc |
				  (pfm_perf_gate_cpu(-1, type[i], cpu) ? PFM_PERF_PMC_EN : 0));
}

/* The thread moves to cpu, its n typed counters gated there. */
static void migrate(struct pfm_context *ctx, const struct pfm_perf_counter *cnt,
		    const int *counter, const u8 *type, unsigned int n, unsigned int cpu)
{
	pfm_host_sched_out(ctx);
	sim_set_cpu(cpu);
	gate(ctx, cnt, counter, type, n, cpu);
	pfm_host_sched_in(ctx);
}

/*
 * cycles of cpu_core (no extended type), cycles of cpu_atom (its extended
 * type) and instructions of cpu_atom (RAW, its type number) on one thread that
 * migrates P, E, P, E: each counts exactly what its own type executed, in the
 * thread's one context of every type, and no register an E core lacks is
 * touched.  The context's live time runs on both types: it is the events'
 * time_enabled, where each one's time_running is its gate's.
 */
START_TEST(test_hybrid_counting)
{
	static struct pfm_perf_counter cnt[PFM_PERF_NUM_COUNTERS];
	const u64 cyc = sim_cycles_event();
	struct pfarg_setinfo info = { .set_id = 0 };
	struct pfm_context *ctx;
	int counter[3];
	u8 type[3];
	unsigned int i;

	lunar_lake();
	memset(cnt, 0, sizeof(cnt));
	ctx = ck_ctx_new(0);
	pfm_ctx_every_type(ctx);
	ck_assert_uint_eq(ctx->pmu_type, 0);
	counter[0] = open_typed(ctx, cnt, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, &type[0]);
	counter[1] = open_typed(ctx, cnt, PERF_TYPE_HARDWARE,
				EXT(SIM_PERF_TYPE_ATOM) | PERF_COUNT_HW_CPU_CYCLES, &type[1]);
	counter[2] = open_typed(ctx, cnt, SIM_PERF_TYPE_ATOM, 0x00c0, &type[2]);
	/* the same value, each its own counter */
	ck_assert_int_eq(counter[0], PFM_PERF_GP_FIRST + 0);
	ck_assert_int_eq(counter[1], PFM_PERF_GP_FIRST + 1);
	ck_assert_int_eq(counter[2], PFM_PERF_GP_FIRST + 2);
	ck_assert_uint_eq(type[0], T_CORE);
	ck_assert_uint_eq(type[1], T_ATOM);
	ck_assert_uint_eq(type[2], T_ATOM);
	for (i = 0; i < 3; i++)
		cnt[counter[i]].users = 1;
	gate(ctx, cnt, counter, type, 3, P_CPU);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(cyc, 1000, SIM_USER);
	sim_count(SIM_EV_INST, 400, SIM_USER);
	pfm_host_env.clock_ns += 1000;
	migrate(ctx, cnt, counter, type, 3, E_CPU);
	sim_count(cyc, 300, SIM_USER);
	sim_count(SIM_EV_INST, 90, SIM_USER);
	sim_count(cyc, 5, SIM_KERNEL);
	pfm_host_env.clock_ns += 2000;
	migrate(ctx, cnt, counter, type, 3, P_CPU);
	sim_count(cyc, 50, SIM_USER);
	sim_count(SIM_EV_INST, 7, SIM_USER);
	pfm_host_env.clock_ns += 4000;
	migrate(ctx, cnt, counter, type, 3, E_CPU);
	sim_count(cyc, 2, SIM_USER);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	pfm_host_env.clock_ns += 8000;
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, pfm_perf_counter_pmd(counter[0])), 1050);
	ck_assert_u64_eq(ck_read_pmd(ctx, pfm_perf_counter_pmd(counter[1])), 302);
	ck_assert_u64_eq(ck_read_pmd(ctx, pfm_perf_counter_pmd(counter[2])), 91);
	ck_assert_uint_eq(sim.gp, 0);
	ck_assert_int_eq(pfm_getinfo_evtsets(ctx, &info, 1), 0);
	ck_assert_u64_eq(info.set_act_duration, 15000);
	ck_done(ctx);
}
END_TEST

/*
 * A context of every type given a counter the E cores lack (GP 9, fixed
 * counter 3), on: on the E core the driver leaves it off and untouched (no
 * fault), and it counts on where it left off back on the P core.
 */
START_TEST(test_every_type_absent_counter)
{
	struct pfm_context *ctx;

	lunar_lake();
	ctx = ck_ctx_new(0);
	pfm_ctx_every_type(ctx);
	ck_write_pmc(ctx, GP_PMC(9), SEL_U(SIM_EV_INST), 0);
	ck_write_pmc(ctx, GP_PMC(0), SEL_U(SIM_EV_INST), 0);
	ck_write_pmc(ctx, FX_PMC, PFM_X86_FIXED_USR(3) | PFM_X86_FIXED_USR(0), 0);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 10, SIM_USER);
	migrate(ctx, NULL, NULL, NULL, 0, E_CPU);
	sim_count(SIM_EV_INST, 100, SIM_USER);
	ck_assert_uint_eq(sim.gp, 0);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(9)), 10);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 110);
	ck_assert_u64_eq(ck_read_pmd(ctx, FX_PMD(0)), 110);
	migrate(ctx, NULL, NULL, NULL, 0, P_CPU);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(9)), 11);
	ck_assert_u64_eq(ck_read_pmd(ctx, GP_PMD(0)), 111);
	ck_assert_uint_eq(sim.gp, 0);
	ck_done(ctx);
}
END_TEST

/* Only a per-thread context, before its attach, becomes one of every type. */
START_TEST(test_every_type_refused)
{
	struct pfm_context *ctx;

	lunar_lake();
	ctx = ck_ctx_new(PFM_FL_SYSTEM_WIDE | PFM_FL_PMU_TYPE(CORE_ID));
	pfm_ctx_every_type(ctx);
	ck_assert_uint_eq(ctx->pmu_type, 1);
	pfm_context_put(ctx);
	ctx = ck_ctx_new(PFM_FL_PMU_TYPE(CORE_ID));
	ck_load_self(ctx);
	pfm_ctx_every_type(ctx);
	ck_assert_uint_eq(ctx->pmu_type, 1);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

Suite *sim_perf_hybrid_suite(void)
{
	Suite *s = suite_create("sim_perf_hybrid");
	TCase *tc = sim_tcase("perf_hybrid");

	tcase_add_test(tc, test_hybrid_types);
	tcase_add_test(tc, test_gate_cpu);
	tcase_add_loop_test(tc, test_one_type, 0, SIM_NR_MODELS);
	tcase_add_test(tc, test_hybrid_counting);
	tcase_add_loop_test(tc, test_arch_events_by_type, 0, 2);
	tcase_add_test(tc, test_arch_events_v6);
	tcase_add_test(tc, test_v6_events_by_type);
	tcase_add_test(tc, test_every_type_absent_counter);
	tcase_add_test(tc, test_every_type_refused);
	suite_add_tcase(s, tc);
	return s;
}
