// SPDX-License-Identifier: GPL-2.0
/*
 * perf: perf_event_open's hardware events (PERF_TYPE_HARDWARE, HW_CACHE, RAW) as
 * the perf_event_open layer programs them, on every simulated model.
 *
 * The layer's open path (perf_open.c, perf_event.c) needs files, fds and threads
 * and runs only in the kernel (the guest suites); what it does with a hardware
 * event is here: the driver's translation of the attr (perf_x86.c and its
 * tables), then the placement on a target's counters and the PMC requests
 * (perf_hw.c, the same calls perf_event.c makes), written through the core to a
 * context on the simulated CPU, and exact counts of what the CPU executes.
 *
 * The expected codes are written out here from the Intel SDM's architectural
 * events and the AMD event lists, with Linux 6.1's choice of which generic event
 * is which code and which errno each missing one gets.
 */
#include <linux/perf_event.h>

#include "sim_test.h"
#include "perf_hw.h"

#define GP_ALL(n)	(((1U << (n)) - 1) << PFM_PERF_GP_FIRST)
#define FX_BIT(j)	(1U << (PFM_PERF_FIXED_FIRST + (j)))
#define LV_UK		(PFM_X86_SEL_USR | PFM_X86_SEL_OS)

static bool is_intel(void)
{
	return sim_m()->vendor == SIM_INTEL;
}

static bool is_zen(void)
{
	return sim_m()->vendor == SIM_AMD && sim_m()->family >= 0x17;
}

static bool has_fixed(unsigned int j)
{
	return is_intel() && j < sim_num_fixed();
}

static int encode(u32 type, u64 config, u64 excl, struct pfm_perf_enc *e)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.exclude_user = !!(excl & 1);
	a.exclude_kernel = !!(excl & 2);
	return pfm_arch_perf_encode(&a, e);
}

#define EX_U	2	/* exclude_kernel: user level only, as :u */
#define EX_K	1	/* exclude_user: kernel level only, as :k */

/* What a generic event must be on the model: 0 code = the errno in err. */
struct want {
	u64 code;
	int err;
	int fixed;		/* fixed counter that may count it, -1 none */
	bool fixed_only;
};

static struct want want_generic(unsigned int id)
{
	static const u64 intel[PERF_COUNT_HW_MAX] = {
		0x003c, 0x00c0, 0x4f2e, 0x412e, 0x00c4, 0x00c5, 0x013c, 0, 0, 0,
	};
	static const u64 k8[PERF_COUNT_HW_MAX] = {
		0x0076, 0x00c0, 0x077d, 0x077e, 0x00c2, 0x00c3, 0, 0x00d0, 0x00d1, 0,
	};
	static const u64 zen[PERF_COUNT_HW_MAX] = {
		0x0076, 0x00c0, 0xff60, 0x0964, 0x00c2, 0x00c3, 0, 0x0287, 0x0187, 0,
	};
	struct want w = { .fixed = -1 };

	if (id >= PERF_COUNT_HW_MAX) {
		w.err = -EINVAL;
		return w;
	}
	w.code = is_intel() ? intel[id] : is_zen() ? zen[id] : k8[id];
	if (is_intel()) {
		if (id == PERF_COUNT_HW_INSTRUCTIONS)
			w.fixed = 0;
		if (id == PERF_COUNT_HW_CPU_CYCLES)
			w.fixed = 1;
		/* CPUID.0AH:EBX bit 6: intel_v2 has no Branch Misses Retired */
		if (id == PERF_COUNT_HW_BRANCH_MISSES && (sim_m()->events_unavail & (1U << 6)))
			w.code = 0;
		if (id == PERF_COUNT_HW_REF_CPU_CYCLES && has_fixed(2)) {
			w.code = 0x0300;
			w.fixed = 2;
			w.fixed_only = true;
		}
	}
	if (!w.code)
		w.err = -ENOENT;
	return w;
}

/* enc as it must be for w at user and kernel level */
static void ck_enc(const struct pfm_perf_enc *e, const struct want *w, u64 lv, u64 flv,
		   const char *what)
{
	u32 counters = w->fixed_only ? 0 : GP_ALL(sim_m()->num_gp);
	u64 pmc = w->fixed_only ? 0 : w->code | lv;
	u64 fpmc = 0;

	if (w->fixed >= 0 && has_fixed(w->fixed)) {
		counters |= FX_BIT(w->fixed);
		fpmc = flv << (4 * w->fixed);
	}
	ck_assert_msg(e->counters == counters && e->pmc == pmc && e->fixed_pmc == fpmc,
		      "%s on %s: counters %#x pmc %#llx fixed %#llx; expected %#x %#llx %#llx",
		      what, sim_m()->name, e->counters, (unsigned long long)e->pmc,
		      (unsigned long long)e->fixed_pmc, counters, (unsigned long long)pmc,
		      (unsigned long long)fpmc);
}

/* Every generic id, and ids past the list: the code, the counters, the errno. */
START_TEST(test_generic_ids)
{
	struct pfm_perf_enc e;
	struct want w;
	unsigned int id;
	char what[32];
	int ret;

	sim_start(_i);
	for (id = 0; id <= PERF_COUNT_HW_MAX + 1; id++) {
		w = want_generic(id);
		ret = encode(PERF_TYPE_HARDWARE, id, 0, &e);
		snprintf(what, sizeof(what), "generic id %u", id);
		ck_assert_msg(ret == w.err, "%s on %s: %d, expected %d", what, sim_m()->name,
			      ret, w.err);
		if (!ret)
			ck_enc(&e, &w, LV_UK, 0x3, what);
	}
	ck_assert_int_eq(encode(PERF_TYPE_HARDWARE, 1000, 0, &e), -EINVAL);
	/* the upper half names a PMU: 0 or the x86 PMU's type (RAW) only */
	ck_assert_int_eq(encode(PERF_TYPE_HARDWARE, (4ULL << 32) | 1, 0, &e), 0);
	ck_assert_u64_eq(e.pmc, 0x00c0 | LV_UK);
	ck_assert_int_eq(encode(PERF_TYPE_HARDWARE, (1ULL << 32) | 1, 0, &e), -ENOENT);
}
END_TEST

/* exclude_user / exclude_kernel as USR / OS; the bits that change nothing. */
START_TEST(test_levels)
{
	struct want w = want_generic(PERF_COUNT_HW_INSTRUCTIONS);
	struct perf_event_attr a;
	struct pfm_perf_enc e;

	sim_start(_i);
	ck_assert_int_eq(encode(PERF_TYPE_HARDWARE, 1, EX_U, &e), 0);
	ck_enc(&e, &w, PFM_X86_SEL_USR, 0x2, "instructions:u");
	ck_assert_int_eq(encode(PERF_TYPE_HARDWARE, 1, EX_K, &e), 0);
	ck_enc(&e, &w, PFM_X86_SEL_OS, 0x1, "instructions:k");
	/* both excluded: counts nothing, on no counter (perf_events: USR = OS = 0) */
	ck_assert_int_eq(encode(PERF_TYPE_HARDWARE, 1, EX_U | EX_K, &e), 0);
	ck_assert_uint_eq(e.counters, 0);

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.exclude_idle = 1;
	a.exclude_guest = 1;
	ck_assert_int_eq(pfm_arch_perf_encode(&a, &e), 0);
	ck_enc(&e, &w, PFM_X86_SEL_USR, 0x2, "instructions:u, hv idle guest excluded");
	a.exclude_host = 1;
	ck_assert_int_eq(pfm_arch_perf_encode(&a, &e), -EINVAL);
	/* no precise events without PEBS or IBS */
	a.exclude_host = 0;
	a.precise_ip = 1;
	ck_assert_int_eq(pfm_arch_perf_encode(&a, &e), -EOPNOTSUPP);
}
END_TEST

/* RAW: every event-select field; the kernel's own bits ignored; reserved EINVAL. */
START_TEST(test_raw)
{
	const u64 full = (1ULL << 24) | PFM_X86_SEL_EDGE | PFM_X86_SEL_INV;
	struct pfm_perf_enc e;
	u64 cfg, any_ok;

	sim_start(_i);
	cfg = 0x12345678ULL & (PFM_X86_SEL_EVENT | PFM_X86_SEL_UMASK | PFM_X86_SEL_CMASK);
	cfg |= PFM_X86_SEL_EDGE | PFM_X86_SEL_INV;
	ck_assert_int_eq(encode(PERF_TYPE_RAW, cfg, EX_U, &e), 0);
	ck_assert_u64_eq(e.pmc, cfg | PFM_X86_SEL_USR);
	ck_assert_uint_eq(e.counters, GP_ALL(sim_m()->num_gp));	/* filters: no fixed */
	/* USR, OS, INT and EN in config: perf_events' own bits, ignored */
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x00c4 | PFM_X86_SEL_USR | PFM_X86_SEL_OS |
				PFM_X86_SEL_INT | PFM_X86_SEL_EN, EX_K, &e), 0);
	ck_assert_u64_eq(e.pmc, 0x00c4 | PFM_X86_SEL_OS);
	/* reserved: pin control, bit 32 on Intel, Host/GuestOnly on AMD, the top */
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x00c4 | PFM_X86_SEL_PC, 0, &e), -EINVAL);
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x00c4 | (1ULL << 40), 0, &e), -EINVAL);
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x00c4 | (1ULL << 63), 0, &e), -EINVAL);
	/* AMD's event bits 11:8: family 10h on; reserved on Intel and family 0Fh */
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x1000000c4ULL, 0, &e),
			 sim_m()->vendor == SIM_AMD && sim_m()->family >= 0x10 ? 0 : -EINVAL);
	/* AnyThread: Intel v3 and v4 (privileged, as a PMC write checks), else EINVAL */
	any_ok = is_intel() && sim_m()->version >= 3 && !sim_m()->anythread_deprecated;
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x003c | PFM_X86_SEL_ANY, 0, &e),
			 any_ok ? 0 : -EINVAL);
	if (any_ok)
		ck_assert_u64_eq(e.fixed_pmc, (0x3ULL | 0x4ULL) << 4);	/* fixed 1 with ANY */
	/* an architectural event CPUID says is missing: the driver refuses it */
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x00c5, 0, &e),
			 sim_m()->events_unavail & (1U << 6) ? -EINVAL : 0);
	/* fixed counters: exact code without filters; the pseudo-encodings fixed only */
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x00c0, 0, &e), 0);
	ck_assert_uint_eq(e.counters, GP_ALL(sim_m()->num_gp) | (has_fixed(0) ? FX_BIT(0) : 0));
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x00c0 | full, 0, &e), 0);
	ck_assert_uint_eq(e.counters, GP_ALL(sim_m()->num_gp));
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x0300, EX_U, &e),
			 has_fixed(2) || !is_intel() ? 0 : -ENOENT);
	if (has_fixed(2)) {
		ck_assert_uint_eq(e.counters, FX_BIT(2));
		ck_assert_u64_eq(e.fixed_pmc, PFM_X86_FIXED_USR(2));
	} else if (!is_intel()) {
		ck_assert_uint_eq(e.counters, GP_ALL(sim_m()->num_gp));	/* AMD event 0 */
	}
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x0400, 0, &e),
			 has_fixed(3) || !is_intel() ? 0 : -ENOENT);
	if (has_fixed(3))
		ck_assert_uint_eq(e.counters, FX_BIT(3));
}
END_TEST

/* HW_CACHE: Intel's architectural PMU has no cache events; AMD's tables. */
START_TEST(test_cache)
{
	unsigned int c, op, res, ok = 0, enoent = 0, einval = 0;
	struct pfm_perf_enc e;
	int ret;

	sim_start(_i);
	for (c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++) {
		for (op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			for (res = 0; res < PERF_COUNT_HW_CACHE_RESULT_MAX; res++) {
				ret = encode(PERF_TYPE_HW_CACHE, c | (op << 8) | (res << 16), 0, &e);
				ok += !ret;
				enoent += ret == -ENOENT;
				einval += ret == -EINVAL;
			}
		}
	}
	ck_assert_uint_eq(ok + enoent + einval, 42);
	if (is_intel()) {
		ck_assert_uint_eq(enoent, 42);
	} else {
		/* write to L1I; write or prefetch on ITLB, BPU, NODE: 2 + 3 * 4 */
		ck_assert_uint_eq(einval, 14);
		ck_assert_uint_eq(ok, is_zen() ? 11 : 18);
	}
	/* past the lists: EINVAL everywhere */
	ck_assert_int_eq(encode(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_MAX, 0, &e), -EINVAL);
	ck_assert_int_eq(encode(PERF_TYPE_HW_CACHE, 3 << 8, 0, &e), -EINVAL);
	ck_assert_int_eq(encode(PERF_TYPE_HW_CACHE, 2 << 16, 0, &e), -EINVAL);
	if (is_intel())
		return;
	/* L1D read miss, DTLB read miss, LL read access: codes per family */
	ck_assert_int_eq(encode(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1D |
				(PERF_COUNT_HW_CACHE_RESULT_MISS << 16), EX_U, &e), 0);
	ck_assert_u64_eq(e.pmc, (is_zen() ? 0xc860 : 0x0141) | PFM_X86_SEL_USR);
	ck_assert_int_eq(encode(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_DTLB |
				(PERF_COUNT_HW_CACHE_RESULT_MISS << 16), 0, &e), 0);
	ck_assert_u64_eq(e.pmc, (is_zen() ? 0xf045 : 0x0746) | LV_UK);
	ck_assert_int_eq(encode(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_LL, 0, &e),
			 is_zen() ? -ENOENT : 0);
	ck_assert_int_eq(encode(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1I |
				(PERF_COUNT_HW_CACHE_OP_WRITE << 8), 0, &e), -EINVAL);
}
END_TEST

/* No hardware PMU (pmu_model=software, or QEMU's TCG): every type ENOENT. */
START_TEST(test_no_pmu)
{
	struct pfm_perf_enc e;

	ck_assert_str_eq(sim_start_param(_i, "software"), "software");
	ck_assert_int_eq(encode(PERF_TYPE_HARDWARE, 0, 0, &e), -ENOENT);
	ck_assert_int_eq(encode(PERF_TYPE_HARDWARE, PERF_COUNT_HW_MAX, 0, &e), -ENOENT);
	ck_assert_int_eq(encode(PERF_TYPE_HW_CACHE, 0, 0, &e), -ENOENT);
	ck_assert_int_eq(encode(PERF_TYPE_HW_CACHE, 0xff, 0, &e), -ENOENT);
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x76, 0, &e), -ENOENT);
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 1ULL << 63, 0, &e), -ENOENT);
}
END_TEST

/* --- placement and counting, as perf_event.c does it ------------------------------ */

struct ev {
	u32 type;
	u64 config;
	u64 excl;
	int counter;
};

#define EV(t, c, x)	((struct ev){ .type = (t), .config = (c), .excl = (x), .counter = -1 })

/* perf_event.c's setup: the attr's encoding on a counter of set; the counter or errno. */
static int open_ev_in(struct pfm_context *ctx, u16 set, struct pfm_perf_counter *cnt,
		      struct ev *ev)
{
	struct pfm_perf_enc e;
	u64 pmc;
	int ret;

	ev->counter = -1;
	ret = encode(ev->type, ev->config, ev->excl, &e);
	if (ret)
		return ret;
	ret = pfm_perf_counter_get(ctx, set, cnt, &e, &pmc);
	if (ret >= 0)
		ev->counter = ret;
	return ret;
}

static int open_ev(struct pfm_context *ctx, struct pfm_perf_counter *cnt, struct ev *ev)
{
	return open_ev_in(ctx, 0, cnt, ev);
}

/* Turns counters of set on (or off) as perf_event.c's sync does: every event on them. */
static void set_counting_in(struct pfm_context *ctx, u16 set, struct pfm_perf_counter *cnt,
			    u32 mask, bool on)
{
	unsigned int counting[PFM_PERF_NUM_COUNTERS], i;
	u32 changed = 0;

	for (i = 0; i < PFM_PERF_NUM_COUNTERS; i++) {
		counting[i] = cnt[i].counting;
		if ((mask & (1U << i)) && cnt[i].users && !!cnt[i].counting != on) {
			counting[i] = on ? cnt[i].users : 0;
			changed |= 1U << i;
		}
	}
	ck_assert_int_eq(pfm_perf_counters_write(ctx, set, cnt, counting, changed), 0);
}

static void set_counting(struct pfm_context *ctx, struct pfm_perf_counter *cnt, u32 mask,
			 bool on)
{
	set_counting_in(ctx, 0, cnt, mask, on);
}

static u64 count_of(struct pfm_context *ctx, const struct ev *ev)
{
	return ck_read_pmd(ctx, pfm_perf_counter_pmd(ev->counter));
}

/*
 * instructions:u, cycles:k, branches, a filtered raw instructions:u, the same
 * instructions:u again and a software event: on the fixed counters where they
 * can, the general-purpose ones else, shared where the value is the same; exact
 * counts, and the fixed control shared without one counter stopping another.
 */
START_TEST(test_counting)
{
	struct pfm_perf_counter cnt[PFM_PERF_NUM_COUNTERS] = {};
	struct ev inst = EV(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, EX_U);
	struct ev cyc = EV(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, EX_K);
	struct ev br = EV(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0);
	struct ev raw = EV(PERF_TYPE_RAW, 0x010000c0 | PFM_X86_SEL_EDGE, EX_U);
	struct ev again = EV(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, EX_U);
	struct ev cache = EV(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_BPU, EX_U);
	unsigned int room;
	struct pfm_context *ctx;
	struct pfarg_pmc sw;
	u64 branch;
	bool fits;

	sim_start(_i);
	branch = is_intel() ? 0x00c4 : 0x00c2;
	room = sim_m()->num_gp + (has_fixed(1) ? 2 : 0);
	fits = room >= 4;
	ctx = ck_ctx_new(0);
	ck_assert_int_ge(open_ev(ctx, cnt, &inst), 0);
	ck_assert_int_ge(open_ev(ctx, cnt, &cyc), 0);
	ck_assert_int_eq(open_ev(ctx, cnt, &br), fits ? br.counter : -EINVAL);
	ck_assert_int_eq(open_ev(ctx, cnt, &raw), fits ? raw.counter : -EINVAL);
	ck_assert_int_eq(open_ev(ctx, cnt, &again), inst.counter);	/* shared */
	ck_assert_uint_eq(cnt[inst.counter].users, 2);
	if (has_fixed(1)) {
		ck_assert_int_eq(inst.counter, PFM_PERF_FIXED_FIRST + 0);
		ck_assert_int_eq(cyc.counter, PFM_PERF_FIXED_FIRST + 1);
		ck_assert_int_eq(br.counter, PFM_PERF_GP_FIRST + 0);
	} else {
		ck_assert_int_eq(inst.counter, PFM_PERF_GP_FIRST + 0);
		ck_assert_int_eq(cyc.counter, PFM_PERF_GP_FIRST + 1);
	}
	/* Intel's architectural PMU has no cache events; AMD counts BPU reads */
	ck_assert_int_eq(open_ev(ctx, cnt, &cache),
			 is_intel() ? -ENOENT : room >= 5 ? cache.counter : -EINVAL);
	/* a software counter beside them, as the shim's software events are */
	memset(&sw, 0, sizeof(sw));
	sw.reg_num = SW_PMC(0);
	sw.reg_value = PFM_SW_PMC(PFM_SW_EV_SYSCALLS);
	ck_assert_int_eq(pfm_write_pmcs(ctx, &sw, 1), 0);

	set_counting(ctx, cnt, ~0U, true);
	ck_load_self(ctx);
	ck_start(ctx);
	sim_count(SIM_EV_INST, 1000, SIM_USER);
	sim_count(SIM_EV_INST, 300, SIM_KERNEL);
	sim_count(sim_cycles_event(), 5000, SIM_USER);
	sim_count(sim_cycles_event(), 700, SIM_KERNEL);
	sim_count(branch, 40, SIM_USER);
	sim_count(branch, 2, SIM_KERNEL);
	pfm_sw_count(PFM_SW_EV_SYSCALLS, 3);
	ck_assert_u64_eq(count_of(ctx, &inst), 1000);
	ck_assert_u64_eq(count_of(ctx, &cyc), 700);
	if (fits) {
		ck_assert_u64_eq(count_of(ctx, &br), 42);
		ck_assert_u64_eq(count_of(ctx, &raw), 1000);	/* filters not simulated */
		if (!is_intel() && room >= 5)
			ck_assert_u64_eq(count_of(ctx, &cache), 40);
	}
	/* cycles off: instructions, on the same fixed control, go on */
	set_counting(ctx, cnt, 1U << cyc.counter, false);
	sim_count(SIM_EV_INST, 10, SIM_USER);
	sim_count(sim_cycles_event(), 10, SIM_KERNEL);
	ck_assert_u64_eq(count_of(ctx, &inst), 1010);
	ck_assert_u64_eq(count_of(ctx, &cyc), 700);
	set_counting(ctx, cnt, 1U << cyc.counter, true);
	sim_count(sim_cycles_event(), 5, SIM_KERNEL);
	ck_assert_u64_eq(count_of(ctx, &cyc), 705);
	/* cycles closed (its one event leaves): the counter stops, instructions go on */
	pfm_perf_counter_put(ctx, 0, cnt, cyc.counter, true);
	ck_assert_uint_eq(cnt[cyc.counter].users, 0);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	sim_count(sim_cycles_event(), 9, SIM_KERNEL);
	ck_assert_u64_eq(count_of(ctx, &inst), 1011);
	ck_assert_u64_eq(count_of(ctx, &cyc), 705);
	/* one of instructions' two events leaves: it goes on counting */
	pfm_perf_counter_put(ctx, 0, cnt, again.counter, true);
	sim_count(SIM_EV_INST, 1, SIM_USER);
	ck_assert_u64_eq(count_of(ctx, &inst), 1012);
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_pmd(ctx, SW_PMD(0)), 3);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* The fixed counters share one control: one request, every counter's levels. */
START_TEST(test_fixed_request)
{
	struct pfm_perf_counter cnt[PFM_PERF_NUM_COUNTERS] = {};
	unsigned int counting[PFM_PERF_NUM_COUNTERS] = {};
	struct pfarg_pmc req[PFM_PERF_NUM_COUNTERS];
	unsigned int f0 = PFM_PERF_FIXED_FIRST, f1 = f0 + 1, g0 = PFM_PERF_GP_FIRST;

	sim_start(_i);
	cnt[f0] = (struct pfm_perf_counter){ .pmc = PFM_X86_FIXED_USR(0), .users = 1, .counting = 1 };
	cnt[f1] = (struct pfm_perf_counter){ .pmc = PFM_X86_FIXED_OS(1), .users = 1, .counting = 0 };
	cnt[g0] = (struct pfm_perf_counter){ .pmc = 0x00c4 | PFM_X86_SEL_USR, .users = 1, .counting = 0 };
	counting[f0] = 1;
	counting[f1] = 1;
	counting[g0] = 1;
	ck_assert_uint_eq(pfm_perf_counters_req(cnt, counting, (1U << f1) | (1U << g0), req), 2);
	ck_assert_uint_eq(req[0].reg_num, GP_PMC(0));
	ck_assert_u64_eq(req[0].reg_value, 0x00c4 | PFM_X86_SEL_USR | PFM_X86_SEL_EN);
	ck_assert_uint_eq(req[1].reg_num, FX_PMC);
	ck_assert_u64_eq(req[1].reg_value, PFM_X86_FIXED_USR(0) | PFM_X86_FIXED_OS(1));
	/* a counter no event uses goes quiescent */
	cnt[g0].users = 0;
	ck_assert_uint_eq(pfm_perf_counters_req(cnt, NULL, 1U << g0, req), 1);
	ck_assert_u64_eq(req[0].reg_value, 0);
	ck_assert_uint_eq(pfm_perf_counter_pmd(f1), FX_PMD(1));
	ck_assert_uint_eq(pfm_perf_counter_pmd(g0 + 3), GP_PMD(3));
	ck_assert_uint_eq(pfm_perf_counter_pmd(2), SW_PMD(2));
}
END_TEST

/* Every counter taken: one more value is EINVAL, the same value shares. */
START_TEST(test_full)
{
	struct pfm_perf_counter cnt[PFM_PERF_NUM_COUNTERS] = {};
	struct ev ev, same = EV(PERF_TYPE_RAW, 0x10, EX_U);
	struct ev inst = EV(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, EX_U);
	struct pfm_context *ctx;
	unsigned int i;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	for (i = 0; i < sim_m()->num_gp; i++) {
		ev = EV(PERF_TYPE_RAW, 0x10 + i, EX_U);
		ck_assert_int_eq(open_ev(ctx, cnt, &ev), PFM_PERF_GP_FIRST + i);
	}
	ev = EV(PERF_TYPE_RAW, 0x10 + i, EX_U);
	ck_assert_int_eq(open_ev(ctx, cnt, &ev), -EINVAL);
	ck_assert_int_eq(open_ev(ctx, cnt, &same), PFM_PERF_GP_FIRST);
	/* instructions still have their fixed counter */
	ck_assert_int_eq(open_ev(ctx, cnt, &inst), has_fixed(0) ? PFM_PERF_FIXED_FIRST : -EINVAL);
	pfm_context_put(ctx);
}
END_TEST

/* Counters held by someone else (perf_events): EBUSY, as perf_events' reservation. */
START_TEST(test_held_elsewhere)
{
	struct pfm_perf_counter cnt[PFM_PERF_NUM_COUNTERS] = {};
	struct ev ev = EV(PERF_TYPE_RAW, 0x11, EX_U);
	struct ev inst = EV(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, EX_U);
	struct pfm_context *ctx;

	sim_reset(_i);
	sim_perf_take_all();
	ck_assert_str_eq(sim_probe(), sim_models[_i].driver_model);
	ctx = ck_ctx_new(0);
	ck_assert_int_eq(open_ev(ctx, cnt, &ev), -EBUSY);
	ck_assert_int_eq(open_ev(ctx, cnt, &inst), -EBUSY);
	pfm_context_put(ctx);
}
END_TEST

/* Kernel level without privilege: EACCES, the errno perf falls back on; nothing taken. */
START_TEST(test_kernel_level_privilege)
{
	struct pfm_perf_counter cnt[PFM_PERF_NUM_COUNTERS] = {};
	struct ev cyc = EV(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0);
	struct ev br = EV(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0);
	struct pfm_context *ctx;

	sim_start(_i);
	ctx = ck_ctx_new(0);
	pfm_host_env.unprivileged = true;
	ck_assert_int_eq(open_ev(ctx, cnt, &cyc), -EACCES);
	ck_assert_int_eq(open_ev(ctx, cnt, &br), -EACCES);
	ck_assert_uint_eq(cnt[PFM_PERF_GP_FIRST].users + cnt[PFM_PERF_FIXED_FIRST + 1].users, 0);
	cyc.excl = EX_U;
	ck_assert_int_ge(open_ev(ctx, cnt, &cyc), 0);
	pfm_context_put(ctx);
}
END_TEST

/*
 * More events than counters, spread as perf_sched.c does: the event that does
 * not fit beside the others in set 0 goes to set 1, the sets switch on their
 * timeout, and each event counts exactly what happened while its set was
 * active.  The sets' durations are time_running and their sum time_enabled:
 * they scale a steady workload's count back to the whole.
 */
START_TEST(test_multiplexed_sets)
{
	static struct pfm_perf_counter cnt[2][PFM_PERF_NUM_COUNTERS];
	struct pfarg_setinfo info[2] = { { .set_id = 0 }, { .set_id = 1 } };
	struct ev ev[PFM_X86_MAX_GP + 1];
	struct pfm_context *ctx;
	unsigned int n, i, s;
	u64 ena;

	sim_start(_i);
	memset(cnt, 0, sizeof(cnt));
	n = sim_m()->num_gp + 1;
	ctx = ck_ctx_new(0);
	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	/* instructions with distinct counter masks: no sharing, no fixed counter */
	for (i = 0; i < n; i++) {
		ev[i] = EV(PERF_TYPE_RAW, 0x00c0 | (u64)(i + 1) << 24, EX_U);
		if (i < n - 1) {
			ck_assert_int_eq(open_ev_in(ctx, 0, cnt[0], &ev[i]), PFM_PERF_GP_FIRST + i);
			continue;
		}
		ck_assert_int_eq(open_ev_in(ctx, 0, cnt[0], &ev[i]), -EINVAL);
		ck_assert_int_eq(open_ev_in(ctx, 1, cnt[1], &ev[i]), PFM_PERF_GP_FIRST);
	}
	set_counting_in(ctx, 0, cnt[0], ~0U, true);
	set_counting_in(ctx, 1, cnt[1], ~0U, true);
	ck_load_self(ctx);
	ck_start(ctx);
	/* 100 user instructions a millisecond: 1 ms in set 0, 1 in set 1, 1 in set 0 */
	for (s = 0; s < 3; s++) {
		sim_count(SIM_EV_INST, 100, SIM_USER);
		sim_count(SIM_EV_INST, 50, SIM_KERNEL);
		pfm_host_env.clock_ns += 1000000;
		if (s < 2)
			ck_assert(shim_hrtimer_fire(&ctx->timer));
	}
	ck_stop(ctx);
	for (i = 0; i < n - 1; i++)
		ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, pfm_perf_counter_pmd(ev[i].counter)), 200);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, pfm_perf_counter_pmd(ev[n - 1].counter)), 100);
	/* set 1's counter 0 is not set 0's */
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, pfm_perf_counter_pmd(ev[0].counter)), 200);
	ck_assert_int_eq(pfm_getinfo_evtsets(ctx, info, 2), 0);
	ck_assert_u64_eq(info[0].set_act_duration, 2000000);
	ck_assert_u64_eq(info[1].set_act_duration, 1000000);
	ena = info[0].set_act_duration + info[1].set_act_duration;
	ck_assert_u64_eq(100 * ena / info[1].set_act_duration, 300);
	ck_assert_u64_eq(200 * ena / info[0].set_act_duration, 300);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* --- sampling and pinned events over sets, as perf_sched.c and perf_ring.c --- */

static struct pfm_perf_routes test_routes;
static unsigned int routed[2], unrouted;
static struct pfm_perf_event *const ev_a = (struct pfm_perf_event *)&routed[0];
static struct pfm_perf_event *const ev_b = (struct pfm_perf_event *)&routed[1];

/* The perf_ring format's handler: whose overflow this is, by set and PMD. */
static void route_record(struct pfm_context *ctx, struct pfm_event_set *set, unsigned int pmd)
{
	struct pfm_perf_event *ev = pfm_perf_route_find(&test_routes, set->id, pmd);

	(void)ctx;
	if (ev == ev_a)
		routed[0]++;
	else if (ev == ev_b)
		routed[1]++;
	else
		unrouted++;
}

/*
 * A software sampling event in set 0 and another in set 1, each on counter 0 of
 * its set's row (the same PMD), beside hardware groups that need the two sets:
 * each overflow reaches the event of the set it happened in, each set's counts
 * are exact, and a PMD no event owns reaches none.
 */
START_TEST(test_sampling_routed_by_set)
{
	static struct pfm_perf_counter cnt[2][PFM_PERF_NUM_COUNTERS];
	static const char fake_fmt;
	struct pfm_perf_enc sw = {
		.counters = (1U << PFM_SW_NUM_COUNTERS) - 1,
		.pmc = PFM_SW_EV_SYSCALLS | PFM_SW_PMC_USR,
		.own = true,
	};
	struct ev hw[PFM_X86_MAX_GP + 1];
	const u64 period = 4;
	struct pfm_context *ctx;
	unsigned int n, i, s;
	int c[2];
	u64 pmc;

	sim_start(_i);
	memset(cnt, 0, sizeof(cnt));
	memset(&test_routes, 0, sizeof(test_routes));
	routed[0] = routed[1] = unrouted = 0;
	n = sim_m()->num_gp + 1;
	ctx = ck_ctx_new(0);
	ctx->smpl.fmt = (const struct pfm_smpl_fmt *)&fake_fmt;
	pfm_host_env.on_record = route_record;
	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	for (i = 0; i < n; i++) {
		hw[i] = EV(PERF_TYPE_RAW, 0x00c0 | (u64)(i + 1) << 24, EX_U);
		ck_assert_int_ge(open_ev_in(ctx, i < n - 1 ? 0 : 1, cnt[i < n - 1 ? 0 : 1],
					    &hw[i]), 0);
	}
	for (s = 0; s < 2; s++) {
		c[s] = pfm_perf_counter_get(ctx, s, cnt[s], &sw, &pmc);
		ck_assert_int_eq(c[s], 0);
		ck_assert(cnt[s][0].users == 1);
		cnt[s][0].smpl = true;
		ck_write_pmd_full(ctx, s, SW_PMD(0), -period, PFM_PMDFL_SMPL, -period, -period, 0);
		set_counting_in(ctx, s, cnt[s], ~0U, true);
	}
	/* a sampling event's counter is its own: another one takes the next */
	ck_assert_int_eq(pfm_perf_counter_get(ctx, 0, cnt[0], &sw, &pmc), 1);
	pfm_perf_counter_put(ctx, 0, cnt[0], 1, false);
	pfm_perf_route_set(&test_routes, 0, c[0], ev_a);
	pfm_perf_route_set(&test_routes, 1, c[1], ev_b);
	ck_load_self(ctx);
	ck_start(ctx);
	/* set 0: 10 calls, 100 instructions; set 1: 7 and 100; set 0: 6 and 100 */
	for (s = 0; s < 3; s++) {
		for (i = 0; i < (s == 0 ? 10 : s == 1 ? 7 : 6); i++)
			pfm_sw_count(PFM_SW_EV_SYSCALLS, 1);
		sim_count(SIM_EV_INST, 100, SIM_USER);
		pfm_host_env.clock_ns += 1000000;
		if (s < 2)
			ck_assert(shim_hrtimer_fire(&ctx->timer));
	}
	ck_stop(ctx);
	/* 16 calls in set 0 at a period of 4: four samples, the last one just reset */
	ck_assert_uint_eq(routed[0], 4);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, SW_PMD(0)), -period);
	/* 7 in set 1: one sample, three into the next period */
	ck_assert_uint_eq(routed[1], 1);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, SW_PMD(0)), -period + 3);
	ck_assert_uint_eq(unrouted, 0);
	ck_assert_uint_eq(pfm_host_env.samples, 5);
	/* the hardware groups: each counted its own set's turns exactly */
	for (i = 0; i < n - 1; i++)
		ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, pfm_perf_counter_pmd(hw[i].counter)), 200);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, pfm_perf_counter_pmd(hw[n - 1].counter)), 100);
	/* routes: by set and PMD; a PMD no counter has, or a set past the rows, none */
	ck_assert_ptr_eq(pfm_perf_route_find(&test_routes, 1, SW_PMD(0)), ev_b);
	ck_assert_ptr_null(pfm_perf_route_find(&test_routes, 1, SW_PMD(1)));
	ck_assert_ptr_null(pfm_perf_route_find(&test_routes, PFM_PERF_MAX_SETS, SW_PMD(0)));
	ck_assert_ptr_null(pfm_perf_route_find(&test_routes, 0, PFM_MAX_PMDS - 1));
	pfm_host_env.on_record = NULL;
	ctx->smpl.fmt = NULL;
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/*
 * A pinned event is in every set on one counter index (perf_sched.c): the first
 * free in every row, a fixed counter first; its count is the sum of its counter
 * in each set, exact, so it runs all the time.  No index free in every row:
 * -EINVAL, the pinned group cannot be scheduled (perf's ERROR state).
 */
START_TEST(test_pinned_every_set)
{
	static struct pfm_perf_counter cnt[2][PFM_PERF_NUM_COUNTERS];
	struct pfm_perf_counter *rows[2] = { cnt[0], cnt[1] };
	struct ev a = EV(PERF_TYPE_RAW, 0x01000076, EX_U);
	struct ev b = EV(PERF_TYPE_RAW, 0x02000076, EX_U);
	struct ev inst = EV(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, EX_U);
	struct ev more[PFM_X86_MAX_GP];
	struct pfm_perf_enc pin, raw;
	struct pfm_context *ctx;
	unsigned int s, i;
	int at;
	u64 pmc;

	sim_start(_i);
	memset(cnt, 0, sizeof(cnt));
	if (sim_m()->num_gp < 3)
		return;
	ctx = ck_ctx_new(0);
	ck_create_set(ctx, 0, PFM_SETFL_TIME_SWITCH, 1000000);
	ck_create_set(ctx, 1, PFM_SETFL_TIME_SWITCH, 1000000);
	/* GP 0 taken in set 0, GP 0 and 1 in set 1 */
	ck_assert_int_eq(open_ev_in(ctx, 0, cnt[0], &a), PFM_PERF_GP_FIRST);
	ck_assert_int_eq(open_ev_in(ctx, 1, cnt[1], &b), PFM_PERF_GP_FIRST);
	b = EV(PERF_TYPE_RAW, 0x03000076, EX_U);
	ck_assert_int_eq(open_ev_in(ctx, 1, cnt[1], &b), PFM_PERF_GP_FIRST + 1);
	/* instructions: fixed counter 0 where there is one, else GP 2 */
	ck_assert_int_eq(encode(inst.type, inst.config, inst.excl, &pin), 0);
	at = pfm_perf_place_every(rows, 2, &pin);
	ck_assert_int_eq(at, has_fixed(0) ? PFM_PERF_FIXED_FIRST : PFM_PERF_GP_FIRST + 2);
	/* a value only GP counters take: GP 2, free in both */
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x010000c0, EX_U, &raw), 0);
	ck_assert_int_eq(pfm_perf_place_every(rows, 2, &raw), PFM_PERF_GP_FIRST + 2);
	/* the same value as set 0's a shares GP 0 there, but set 1's GP 0 is b's */
	ck_assert_int_eq(encode(a.type, a.config, a.excl, &raw), 0);
	ck_assert_int_eq(pfm_perf_place_every(rows, 2, &raw), PFM_PERF_GP_FIRST + 2);
	ck_assert_int_eq(pfm_perf_place_every(rows, 1, &raw), PFM_PERF_GP_FIRST);
	/* the pinned event at its index in both sets, counting in both */
	pin.counters = 1U << at;
	for (s = 0; s < 2; s++) {
		ck_assert_int_eq(pfm_perf_counter_get(ctx, s, cnt[s], &pin, &pmc), at);
		set_counting_in(ctx, s, cnt[s], ~0U, true);
	}
	ck_load_self(ctx);
	ck_start(ctx);
	for (s = 0; s < 3; s++) {
		sim_count(SIM_EV_INST, 100 + s, SIM_USER);
		pfm_host_env.clock_ns += 1000000;
		if (s < 2)
			ck_assert(shim_hrtimer_fire(&ctx->timer));
	}
	ck_stop(ctx);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 0, pfm_perf_counter_pmd(at)), 100 + 102);
	ck_assert_u64_eq(ck_read_set_pmd(ctx, 1, pfm_perf_counter_pmd(at)), 101);
	/* every GP counter of set 0 taken: no index for a GP-only value in both */
	for (i = 0; i < PFM_X86_MAX_GP; i++) {
		more[i] = EV(PERF_TYPE_RAW, 0x00c4 | (u64)(i + 4) << 24, EX_U);
		if (open_ev_in(ctx, 0, cnt[0], &more[i]) == -EINVAL)
			break;
	}
	ck_assert_uint_lt(i, PFM_X86_MAX_GP);
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x050000c0, EX_U, &raw), 0);
	ck_assert_int_eq(pfm_perf_place_every(rows, 2, &raw), -EINVAL);
	/* set 1 alone: its first free GP counter (GP 0 and 1 are b's, maybe 2 pinned) */
	i = PFM_PERF_GP_FIRST + (at == PFM_PERF_GP_FIRST + 2 ? 3 : 2);
	ck_assert_int_eq(pfm_perf_place_every(rows + 1, 1, &raw),
			 i < PFM_PERF_GP_FIRST + sim_m()->num_gp ? (int)i : -EINVAL);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

Suite *sim_perf_suite(void)
{
	Suite *s = suite_create("sim_perf");
	TCase *tc = sim_tcase("perf");

	tcase_add_loop_test(tc, test_generic_ids, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_levels, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_raw, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_cache, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_no_pmu, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_counting, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_fixed_request, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_full, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_multiplexed_sets, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_sampling_routed_by_set, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_pinned_every_set, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_held_elsewhere, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_kernel_level_privilege, 0, SIM_NR_MODELS);
	suite_add_tcase(s, tc);
	return s;
}
