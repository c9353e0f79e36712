// SPDX-License-Identifier: GPL-2.0
/*
 * perf: perf_event_open's hardware events (PERF_TYPE_HARDWARE, HW_CACHE, RAW) as
 * the perf_event_open layer programs them, on every simulated model.
 *
 * The layer's open path (perf/open.c, perf/event.c) needs files, fds and
 * threads and runs only in the kernel (the guest suites); what it does with a
 * hardware event is here: the driver's translation of the attr (perf_x86.c and
 * its tables, the unit's encode_attr()) as the layer asks for it and numbers it
 * (pfm_perf_hw_encode()), then the placement on a target's counters and the PMC
 * requests (perf/counters.c, the same calls perf/event.c makes), written
 * through the core to a context on the simulated CPU, and exact counts of what
 * the CPU executes.
 *
 * The expected codes are written out here from the Intel SDM's architectural
 * events and the AMD event lists, with Linux 6.1's choice of which generic event
 * is which code and which errno each missing one gets.
 */
#include <linux/perf_event.h>

#include "sim_test.h"
#include "sim_perf.h"

#define GP_ALL(n)	((PFM_PERF_COUNTER(n) - 1) << PFM_PERF_GP_FIRST)
#define FX_BIT(j)	PFM_PERF_COUNTER(PFM_PERF_FIXED_FIRST + (j))
#define LV_UK		(PFM_X86_SEL_USR | PFM_X86_SEL_OS)

static bool is_intel(void)
{
	return sim_m()->vendor == SIM_INTEL;
}

static bool is_zen(void)
{
	return sim_m()->vendor == SIM_AMD && sim_m()->family >= 0x17;
}

/* Fixed counter j exists on the model (leaf 0x23's bitmap, or v5's with the count) */
bool has_fixed(unsigned int j)
{
	const struct sim_model *m = sim_m();

	if (!is_intel() || m->version < 2)
		return false;
	if (m->leaf23)
		return m->fixed23 & (1u << j);
	return j < m->num_fixed || (m->version >= 5 && (m->fixed_bitmap & (1u << j)));
}

int encode(u32 type, u64 config, u64 excl, struct pfm_perf_enc *e)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.exclude_user = !!(excl & 1);
	a.exclude_kernel = !!(excl & 2);
	return pfm_perf_hw_encode(&a, -1, e);
}


/*
 * CPUID says architectural event k (k < 8) is missing: leaf 0x23 sub-leaf 3
 * where the model has it, else CPUID.0AH:EBX and its length.
 */
static bool arch_missing(unsigned int k)
{
	const struct sim_model *m = sim_m();

	if (m->events23)
		return !(m->events23 & (1U << k));
	return k >= m->events_len || (m->events_unavail & (1U << k));
}

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
	/* the generic ids' bits in CPUID.0AH:EBX */
	static const int arch_bit[] = { 0, 1, 3, 4, 5, 6, 2 };
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
		/* an event CPUID calls missing (intel_v2: Branch Misses Retired; Westmere: Ref) */
		if (id < ARRAY_SIZE(arch_bit) && arch_bit[id] >= 0 && arch_missing(arch_bit[id]))
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
	u64 counters = w->fixed_only ? 0 : GP_ALL(sim_m()->num_gp);
	u64 pmc = w->fixed_only ? 0 : w->code | lv;
	u64 fpmc = 0;

	if (w->fixed >= 0 && has_fixed(w->fixed)) {
		counters |= FX_BIT(w->fixed);
		fpmc = flv << (4 * w->fixed);
	}
	ck_assert_msg(e->counters == counters && e->pmc == pmc && e->fixed_pmc == fpmc,
		      "%s on %s: counters %#llx pmc %#llx fixed %#llx; expected %#llx %#llx %#llx",
		      what, sim_m()->name, (unsigned long long)e->counters,
		      (unsigned long long)e->pmc, (unsigned long long)e->fixed_pmc,
		      (unsigned long long)counters, (unsigned long long)pmc,
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
	ck_assert_int_eq(pfm_perf_hw_encode(&a, -1, &e), 0);
	ck_enc(&e, &w, PFM_X86_SEL_USR, 0x2, "instructions:u, hv idle guest excluded");
	a.exclude_host = 1;
	ck_assert_int_eq(pfm_perf_hw_encode(&a, -1, &e), -EINVAL);
	/* no precise events without PEBS or IBS */
	a.exclude_host = 0;
	a.precise_ip = 1;
	ck_assert_int_eq(pfm_perf_hw_encode(&a, -1, &e), -EOPNOTSUPP);
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
	/* CPUID.0AH:EDX[15] deprecates it from v5 on (Goldmont Plus, v4, sets it too) */
	any_ok = is_intel() && sim_m()->version >= 3 &&
		 !(sim_m()->version >= 5 && sim_m()->anythread_deprecated);
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x003c | PFM_X86_SEL_ANY, 0, &e),
			 any_ok ? 0 : -EINVAL);
	if (any_ok)
		ck_assert_u64_eq(e.fixed_pmc, (0x3ULL | 0x4ULL) << 4);	/* fixed 1 with ANY */
	/* an architectural event CPUID says is missing: the driver refuses it */
	ck_assert_int_eq(encode(PERF_TYPE_RAW, 0x00c5, 0, &e),
			 is_intel() && arch_missing(6) ? -EINVAL : 0);
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

/* --- placement and counting, as perf/event.c does it ------------------------------ */

/* perf/event.c's setup: the attr's encoding on a counter of set; the counter or errno. */
int open_ev_in(struct pfm_context *ctx, u16 set, struct pfm_perf_counter *cnt,
		      struct ev *ev)
{
	struct pfm_perf_enc e;
	u64 pmc;
	int ret;

	ev->counter = -1;
	ret = encode(ev->type, ev->config, ev->excl, &e);
	if (ret)
		return ret;
	ret = pfm_perf_counter_get(ctx, set, cnt, &e, &pmc, NULL);
	if (ret >= 0)
		ev->counter = ret;
	return ret;
}

static int open_ev(struct pfm_context *ctx, struct pfm_perf_counter *cnt, struct ev *ev)
{
	return open_ev_in(ctx, 0, cnt, ev);
}

/* Turns counters of set on (or off) as perf/event.c's sync does: every event on them. */
void set_counting_in(struct pfm_context *ctx, u16 set, struct pfm_perf_counter *cnt,
			    u64 mask, bool on)
{
	unsigned int counting[PFM_PERF_NUM_COUNTERS], i;
	u64 changed = 0;

	for (i = 0; i < PFM_PERF_NUM_COUNTERS; i++) {
		counting[i] = cnt[i].counting;
		if ((mask & PFM_PERF_COUNTER(i)) && cnt[i].users && !!cnt[i].counting != on) {
			counting[i] = on ? cnt[i].users : 0;
			changed |= PFM_PERF_COUNTER(i);
		}
	}
	ck_assert_int_eq(pfm_perf_counters_write(ctx, set, cnt, counting, changed, NULL), 0);
}

static void set_counting(struct pfm_context *ctx, struct pfm_perf_counter *cnt, u64 mask,
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

	set_counting(ctx, cnt, ~0ULL, true);
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
	set_counting(ctx, cnt, PFM_PERF_COUNTER(cyc.counter), false);
	sim_count(SIM_EV_INST, 10, SIM_USER);
	sim_count(sim_cycles_event(), 10, SIM_KERNEL);
	ck_assert_u64_eq(count_of(ctx, &inst), 1010);
	ck_assert_u64_eq(count_of(ctx, &cyc), 700);
	set_counting(ctx, cnt, PFM_PERF_COUNTER(cyc.counter), true);
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
	ck_assert_uint_eq(pfm_perf_counters_req(cnt, counting,
							 PFM_PERF_COUNTER(f1) | PFM_PERF_COUNTER(g0), req), 2);
	ck_assert_uint_eq(req[0].reg_num, GP_PMC(0));
	ck_assert_u64_eq(req[0].reg_value, 0x00c4 | PFM_X86_SEL_USR | PFM_X86_SEL_EN);
	ck_assert_uint_eq(req[1].reg_num, FX_PMC);
	ck_assert_u64_eq(req[1].reg_value, PFM_X86_FIXED_USR(0) | PFM_X86_FIXED_OS(1));
	/* a counter no event uses goes quiescent */
	cnt[g0].users = 0;
	ck_assert_uint_eq(pfm_perf_counters_req(cnt, NULL, PFM_PERF_COUNTER(g0), req), 1);
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
	/* a counter with as many events as it can count is shared no further */
	cnt[PFM_PERF_GP_FIRST].users = PFM_PERF_USERS_MAX - 1;
	ck_assert_int_eq(open_ev(ctx, cnt, &same), PFM_PERF_GP_FIRST);
	ck_assert_uint_eq(cnt[PFM_PERF_GP_FIRST].users, PFM_PERF_USERS_MAX);
	ck_assert_int_eq(open_ev(ctx, cnt, &same), -EINVAL);
	ck_assert_uint_eq(cnt[PFM_PERF_GP_FIRST].users, PFM_PERF_USERS_MAX);
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

Suite *sim_perf_suite(void)
{
	Suite *s = suite_create("sim_perf");
	TCase *tc = sim_tcase("perf");

	tcase_add_loop_test(tc, test_generic_ids, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_levels, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_raw, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_cache, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_no_pmu, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_counting, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_fixed_request, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_full, 0, sim_nr_core_models());
	tcase_add_loop_test(tc, test_held_elsewhere, 0, SIM_NR_MODELS);
	tcase_add_loop_test(tc, test_kernel_level_privilege, 0, sim_nr_core_models());
	suite_add_tcase(s, tc);
	return s;
}
