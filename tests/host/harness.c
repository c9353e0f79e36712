// SPDX-License-Identifier: GPL-2.0
/*
 * Fixtures and shortcuts shared by the host tests.
 */
#include <string.h>

#include "harness.h"

static long base_live;

/* The core's caches, as the module's first steps make them; then the live count. */
static void pfm_host_note(void)
{
	ck_assert_int_eq(pfm_ctx_cache_init(), 0);
	ck_assert_int_eq(pfm_set_cache_init(), 0);
	base_live = shim_alloc_live;
}

void pfm_host_setup_bare(void)
{
	pfm_pmu_reset();
	pfm_host_note();
}

void pfm_host_setup_sw(void)
{
	pfm_pmu_reset();
	ck_assert_int_eq(pfm_pmu_add_unit(&pfm_sw_unit), 0);
	pfm_host_note();
}

void pfm_host_setup(void)
{
	pfm_pmu_reset();
	ck_assert_int_eq(pfm_pmu_add_unit(&fake_unit), 0);
	ck_assert_int_eq(pfm_pmu_add_unit(&pfm_sw_unit), 0);
	pfm_host_note();
}

/* Everything taken was given back, and nothing went wrong on the way. */
void pfm_host_teardown(void)
{
	ck_assert_msg(!shim_warn_count, "%u WARN fired, the last: %s", shim_warn_count,
		      shim_warn_last);
	ck_assert_msg(shim_alloc_live == base_live, "%ld allocations leaked",
		      shim_alloc_live - base_live);
	ck_assert_int_eq(shim_this_module.refs, 0);
	ck_assert_int_eq(shim_task_self.usage, 0);
	ck_assert_int_eq(shim_task_other.usage, 0);
	ck_assert_int_eq(pfm_host_env.attached, 0);
	ck_assert_int_eq(pfm_host_env.sw_hooks_users, 0);
	ck_assert_int_eq(pfm_host_env.sw_syscall_users, 0);
	ck_assert_int_eq(pfm_host_env.charged, 0);
	ck_assert_int_eq(pfm_host_env.task_sessions, 0);
	ck_assert_int_eq(pfm_host_env.cpu_sessions, 0);
	ck_assert_int_eq(pfm_host_env.hw_sessions[0], 0);
	ck_assert_int_eq(pfm_host_env.hw_sessions[1], 0);
	ck_assert_int_eq(fake_pmu.users, 0);
	ck_assert_int_eq(shim_cpus_read_locked, 0);
	ck_assert(!shim_uaccess_window);
	ck_assert_int_eq(shim_pagefault_disabled, 0);
	shim_uaccess_fault_at = -1;
	pfm_set_cache_exit();
	pfm_ctx_cache_exit();
}

TCase *pfm_host_tcase(const char *name, void (*setup)(void))
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, setup, pfm_host_teardown);
	tcase_set_timeout(tc, 10);
	return tc;
}

struct pfm_context *ck_ctx_new(u32 flags)
{
	struct pfm_context *ctx = pfm_context_alloc(flags);

	ck_assert_msg(ctx && !IS_ERR(ctx), "pfm_context_alloc(%#x) failed", flags);
	return ctx;
}

void ck_load_self(struct pfm_context *ctx)
{
	ck_assert_int_eq(pfm_load(ctx, 0, current->pid), 0);
}

void ck_unload(struct pfm_context *ctx)
{
	ck_assert_int_eq(pfm_unload(ctx, 0), 0);
}

void ck_start(struct pfm_context *ctx)
{
	ck_assert_int_eq(pfm_start(ctx, 0, 0), 0);
}

void ck_stop(struct pfm_context *ctx)
{
	ck_assert_int_eq(pfm_stop(ctx, 0), 0);
}

long pfm_host_write_pmc(struct pfm_context *ctx, u16 set, u16 num, u64 value, u32 flags)
{
	struct pfarg_pmc req = {
		.reg_num = num, .reg_set = set, .reg_flags = flags, .reg_value = value,
	};

	return pfm_write_pmcs(ctx, &req, 1);
}

void ck_write_pmc(struct pfm_context *ctx, u16 num, u64 value, u32 flags)
{
	ck_assert_int_eq(pfm_host_write_pmc(ctx, 0, num, value, flags), 0);
}

void ck_write_set_pmc(struct pfm_context *ctx, u16 set, u16 num, u64 value)
{
	ck_assert_int_eq(pfm_host_write_pmc(ctx, set, num, value, 0), 0);
}

void ck_write_set_pmd(struct pfm_context *ctx, u16 set, u16 num, u64 value)
{
	struct pfarg_pmd req = { .reg_num = num, .reg_set = set, .reg_value = value };

	ck_assert_int_eq(pfm_write_pmds(ctx, &req, 1), 0);
}

void ck_write_pmd(struct pfm_context *ctx, u16 num, u64 value)
{
	ck_write_set_pmd(ctx, 0, num, value);
}

u64 ck_read_set_pmd(struct pfm_context *ctx, u16 set, u16 num)
{
	struct pfarg_pmd req = { .reg_num = num, .reg_set = set };

	ck_assert_int_eq(pfm_read_pmds(ctx, &req, 1), 0);
	return req.reg_value;
}

u64 ck_read_pmd(struct pfm_context *ctx, u16 num)
{
	return ck_read_set_pmd(ctx, 0, num);
}

struct pfm_event_set *ctx_set0(struct pfm_context *ctx)
{
	struct pfm_event_set *set = pfm_find_set(ctx, 0);

	ck_assert_ptr_nonnull(set);
	return set;
}

void ck_write_pmd_full(struct pfm_context *ctx, u16 set, u16 num, u64 value, u32 flags,
		       u64 short_reset, u64 long_reset, u64 switch_cnt)
{
	struct pfarg_pmd r = {
		.reg_num = num, .reg_set = set, .reg_value = value, .reg_flags = flags,
		.reg_short_reset = short_reset, .reg_long_reset = long_reset,
		.reg_ovfl_switch_cnt = switch_cnt,
	};

	ck_assert_int_eq(pfm_write_pmds(ctx, &r, 1), 0);
}

void ck_done(struct pfm_context *ctx)
{
	if (ctx->state == PFM_CTX_LOADED)
		ck_unload(ctx);
	pfm_context_put(ctx);
}

void ck_create_set(struct pfm_context *ctx, u16 id, u32 flags, u64 timeout_ns)
{
	struct pfarg_setdesc d = { .set_id = id, .set_flags = flags, .set_timeout = timeout_ns };

	ck_assert_int_eq(pfm_create_evtsets(ctx, &d, 1), 0);
}

void ck_getinfo(struct pfm_context *ctx, u16 set, struct pfarg_setinfo *info)
{
	memset(info, 0, sizeof(*info));
	info->set_id = set;
	ck_assert_int_eq(pfm_getinfo_evtsets(ctx, info, 1), 0);
}

struct pfarg_setinfo ck_info(struct pfm_context *ctx, u16 set)
{
	struct pfarg_setinfo i;

	ck_getinfo(ctx, set, &i);
	return i;
}
