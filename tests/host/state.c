// SPDX-License-Identifier: GPL-2.0
/*
 * state: attach, detach, start and stop (state.c).
 *
 *   UNLOADED --load--> LOADED(stopped) --start--> LOADED(started) --stop--> ...
 *   LOADED --unload--> UNLOADED
 *
 * A call that fails changes nothing: not the context, not the references it holds.
 */
#include "harness.h"

struct ctx_state {
	enum pfm_state state;
	bool started;
	int on_cpu;
	int cpu;
	struct task_struct *task;
	struct pfm_event_set *active;
	unsigned int ref;
	u64 runs, duration_ns;
	int attached, task_usage, sw_users, fake_users, sessions;
};

static void ctx_snap(struct pfm_context *ctx, struct ctx_state *s)
{
	memset(s, 0, sizeof(*s));
	s->state = ctx->state;
	s->started = ctx->started;
	s->on_cpu = ctx->on_cpu;
	s->cpu = ctx->cpu;
	s->task = ctx->task;
	s->active = ctx->active;
	s->ref = refcount_read(&ctx->ref);
	s->runs = ctx_set0(ctx)->runs;
	s->duration_ns = ctx_set0(ctx)->duration_ns;
	s->attached = pfm_host_env.attached;
	s->task_usage = shim_task_self.usage + shim_task_other.usage;
	s->sw_users = pfm_host_env.sw_hooks_users;
	s->fake_users = fake_pmu.users;
	s->sessions = pfm_host_env.task_sessions + pfm_host_env.cpu_sessions;
}

/* call must fail with err and leave ctx as it was */
#define ck_fails_unchanged(ctx, call, err) do {					\
	struct ctx_state __b, __a;						\
	ctx_snap(ctx, &__b);							\
	ck_assert_int_eq((call), (err));					\
	ctx_snap(ctx, &__a);							\
	ck_assert_msg(!memcmp(&__b, &__a, sizeof(__b)), "%s changed the context", #call); \
} while (0)

START_TEST(test_start_stop_unloaded)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_fails_unchanged(ctx, pfm_start(ctx, 0, 0), -EINVAL);
	ck_fails_unchanged(ctx, pfm_start(ctx, PFM_STARTFL_SET, 0), -EINVAL);
	ck_fails_unchanged(ctx, pfm_stop(ctx, 0), -EINVAL);
	ck_fails_unchanged(ctx, pfm_unload(ctx, 0), -EINVAL);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_load_self)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_load_self(ctx);
	ck_assert_int_eq(ctx->state, PFM_CTX_LOADED);
	ck_assert(!ctx->started);
	ck_assert_ptr_eq(ctx->task, &shim_task_self);
	ck_assert_int_eq(ctx->on_cpu, 0);
	ck_assert_uint_eq(refcount_read(&ctx->ref), 2);		/* the attachment's */
	ck_assert_int_eq(shim_task_self.usage, 1);		/* the attachment's */
	ck_assert_int_eq(pfm_host_env.sw_hooks_users, 1);
	ck_assert_int_eq(fake_pmu.users, 1);
	ck_assert_int_eq(pfm_host_env.task_sessions, 1);
	ck_assert_uint_eq(fake_pmu_accesses(), 0);		/* stopped: PMU untouched */
	ck_unload(ctx);
	ck_assert_int_eq(ctx->state, PFM_CTX_UNLOADED);
	ck_assert_ptr_null(ctx->task);
	ck_assert_uint_eq(refcount_read(&ctx->ref), 1);
	/* and again */
	ck_load_self(ctx);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_load_twice)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_load_self(ctx);
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, shim_task_self.pid), -EBUSY);
	ck_start(ctx);
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, shim_task_self.pid), -EBUSY);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_load_bad_args)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_fails_unchanged(ctx, pfm_load(ctx, 1, shim_task_self.pid), -EINVAL);
	ck_fails_unchanged(ctx, pfm_load(ctx, 1U << 31, shim_task_self.pid), -EINVAL);
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, 4242), -ESRCH);
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, 0), -ESRCH);
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, (u64)INT_MAX + 1), -ESRCH);
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, (u64)shim_task_self.pid | 1ULL << 32),
			   -ESRCH);
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, ~0ULL), -ESRCH);
	ck_assert_uint_eq(pfm_host_env.attach_calls, 0);
	pfm_context_put(ctx);
}
END_TEST

/* Every way an attach can fail gives back what was taken before it. */
START_TEST(test_load_unwinds)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_context *other = ck_ctx_new(0);
	u64 tid = shim_task_self.pid;

	pfm_host_env.access_task_ret = -EPERM;
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, tid), -EPERM);
	pfm_host_env.access_task_ret = 0;
	pfm_host_env.session_ret = -EBUSY;
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, tid), -EBUSY);
	pfm_host_env.session_ret = 0;
	fake_pmu.get_ret = -ENODEV;			/* the first unit */
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, tid), -ENODEV);
	fake_pmu.get_ret = 0;
	pfm_host_env.sw_hooks_get_ret = -ENOENT;	/* the second: the first is put */
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, tid), -ENOENT);
	pfm_host_env.sw_hooks_get_ret = 0;
	pfm_host_env.attach_ret = -EINTR;
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, tid), -EINTR);
	pfm_host_env.attach_ret = 0;
	/* a thread has one context at most */
	ck_load_self(other);
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, tid), -EEXIST);
	ck_unload(other);
	ck_load_self(ctx);
	ck_unload(ctx);
	pfm_context_put(ctx);
	pfm_context_put(other);
}
END_TEST

/* What a reattach's fn sees. */
static void reattach_fn(struct pfm_context *ctx, void *arg)
{
	ctx_snap(ctx, arg);
}

/*
 * A reattach (a layer changing its sets): detached while fn runs, with the
 * session, the units and the PMU held across, then attached again, stopped.  No
 * memory for the new hook changes nothing; an attach again that fails (the
 * thread exited) gives everything back.
 */
START_TEST(test_reattach)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct ctx_state b, seen, a;

	ck_fails_unchanged(ctx, pfm_reattach_task(ctx, &shim_task_self, reattach_fn, &seen),
			   -EBUSY);
	ck_load_self(ctx);
	ck_start(ctx);
	pfm_host_env.attach_ret = -ENOMEM;
	seen.state = PFM_CTX_LOADED;
	ck_fails_unchanged(ctx, pfm_reattach_task(ctx, &shim_task_self, reattach_fn, &seen),
			   -ENOMEM);
	pfm_host_env.attach_ret = 0;
	ck_assert_int_eq(seen.state, PFM_CTX_LOADED);		/* fn did not run */

	ctx_snap(ctx, &b);
	ck_assert_int_eq(pfm_reattach_task(ctx, &shim_task_self, reattach_fn, &seen), 0);
	ck_assert_int_eq(seen.state, PFM_CTX_UNLOADED);
	ck_assert_int_eq(seen.sw_users, b.sw_users);
	ck_assert_int_eq(seen.fake_users, b.fake_users);
	ck_assert_int_eq(seen.sessions, b.sessions);
	ctx_snap(ctx, &a);
	ck_assert_int_eq(a.state, PFM_CTX_LOADED);
	ck_assert(!a.started);
	ck_assert_ptr_eq(a.task, &shim_task_self);
	ck_assert_uint_eq(a.ref, b.ref);
	ck_assert_int_eq(a.task_usage, b.task_usage);
	ck_assert_int_eq(a.sw_users, b.sw_users);
	ck_assert_int_eq(a.fake_users, b.fake_users);
	ck_assert_int_eq(a.sessions, b.sessions);

	pfm_host_env.reattach_ret = -ESRCH;
	ck_assert_int_eq(pfm_reattach_task(ctx, &shim_task_self, reattach_fn, &seen), -ESRCH);
	pfm_host_env.reattach_ret = 0;
	ck_assert_int_eq(seen.state, PFM_CTX_UNLOADED);
	ck_assert_int_eq(ctx->state, PFM_CTX_UNLOADED);
	ck_assert_int_eq(pfm_host_env.sw_hooks_users, 0);
	ck_assert_int_eq(fake_pmu.users, 0);
	ck_assert_int_eq(pfm_host_env.task_sessions, 0);
	ck_assert_int_eq(shim_task_self.usage, 0);
	pfm_context_put(ctx);
}
END_TEST

/* Another thread: attached stopped, its state saved until it hooks itself. */
START_TEST(test_load_other_thread)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_assert_int_eq(pfm_load(ctx, 0, shim_task_other.pid), 0);
	ck_assert_int_eq(ctx->state, PFM_CTX_LOADED);
	ck_assert_ptr_eq(ctx->task, &shim_task_other);
	ck_assert_int_eq(shim_task_other.usage, 1);
	ck_assert_int_eq(ctx->on_cpu, -1);
	ck_start(ctx);
	ck_assert(ctx->started);
	ck_assert_uint_eq(fake_pmu_accesses(), 0);	/* not running here */
	ck_stop(ctx);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_start_bad_args)
{
	struct pfm_context *ctx = ck_ctx_new(0);

	ck_load_self(ctx);
	ck_fails_unchanged(ctx, pfm_start(ctx, PFM_STARTFL_SET, 1), -EINVAL);
	ck_fails_unchanged(ctx, pfm_start(ctx, PFM_STARTFL_SET, PFM_MAX_SET_ID), -EINVAL);
	ck_fails_unchanged(ctx, pfm_start(ctx, PFM_STARTFL_SET, PFM_MAX_SET_ID + 1ULL),
			   -EINVAL);
	ck_fails_unchanged(ctx, pfm_start(ctx, PFM_STARTFL_SET, 1ULL << 32), -EINVAL);
	ck_fails_unchanged(ctx, pfm_start(ctx, PFM_STARTFL_RESTART, 0), -EBUSY);
	ck_fails_unchanged(ctx, pfm_start(ctx, 0, 1), -EINVAL);	/* arg without SET */
	ck_fails_unchanged(ctx, pfm_start(ctx, 0x4, 0), -EINVAL);
	ck_fails_unchanged(ctx, pfm_start(ctx, 1U << 31, 0), -EINVAL);
	ck_fails_unchanged(ctx, pfm_stop(ctx, 1), -EINVAL);
	ck_fails_unchanged(ctx, pfm_unload(ctx, 1), -EINVAL);
	ck_assert(!ctx->started);
	/* the set that exists is fine */
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_SET, 0), 0);
	ck_assert(ctx->started);
	ck_fails_unchanged(ctx, pfm_start(ctx, PFM_STARTFL_SET, 2), -EINVAL);
	ck_fails_unchanged(ctx, pfm_start(ctx, PFM_STARTFL_RESTART, 0), -EBUSY);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_start_twice_stop_twice)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_event_set *set = ctx_set0(ctx);

	/* a hardware register: the fake unit is driven for this context */
	ck_write_pmc(ctx, 0, FAKE_PMC_EN | 1, 0);
	ck_load_self(ctx);
	ck_stop(ctx);					/* stopped already: fine */
	ck_assert_uint_eq(set->runs, 0);
	ck_start(ctx);
	ck_assert_ptr_eq(ctx->active, set);
	ck_assert_uint_eq(fake_pmu.nr_enable, 1);
	ck_start(ctx);
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_SET, 0), 0);
	ck_assert_uint_eq(set->runs, 1);		/* counted once */
	ck_assert_uint_eq(fake_pmu.nr_enable, 1);
	ck_stop(ctx);
	ck_stop(ctx);
	ck_assert(!ctx->started);
	ck_assert_uint_eq(fake_pmu.nr_disable, 1);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

START_TEST(test_runs_and_duration)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_event_set *set = ctx_set0(ctx);

	ck_load_self(ctx);
	pfm_host_env.clock_ns = 100;
	ck_start(ctx);
	pfm_host_env.clock_ns = 350;
	ck_stop(ctx);
	ck_assert_uint_eq(set->runs, 1);
	ck_assert_uint_eq(set->duration_ns, 250);
	pfm_host_env.clock_ns = 1000;			/* stopped: not counted */
	ck_start(ctx);
	pfm_host_env.clock_ns = 1100;
	ck_start(ctx);					/* no-op */
	pfm_host_env.clock_ns = 1200;
	ck_stop(ctx);
	ck_assert_uint_eq(set->runs, 2);
	ck_assert_uint_eq(set->duration_ns, 450);
	pfm_host_env.clock_ns = 5000;
	ck_assert_uint_eq(set->duration_ns, 450);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* Unload while counting stops first: PMU disabled and quiesced, time accounted. */
START_TEST(test_unload_stops)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_event_set *set = ctx_set0(ctx);

	ck_write_pmc(ctx, 0, FAKE_PMC_EN | 1, 0);
	ck_write_pmd(ctx, 0, 10);
	ck_load_self(ctx);
	pfm_host_env.clock_ns = 10;
	ck_start(ctx);
	fake_pmu_advance(0, 5);
	pfm_host_env.clock_ns = 70;
	ck_unload(ctx);
	ck_assert_int_eq(ctx->state, PFM_CTX_UNLOADED);
	ck_assert(!ctx->started);
	ck_assert(!fake_pmu.enabled);
	ck_assert_u64_eq(fake_pmu.pmc[0], fake_pmcs[0].dfl_val);
	ck_assert_uint_eq(set->duration_ns, 60);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 15);	/* saved */
	ck_assert_int_eq(pfm_host_env.attached, 0);
	ck_fails_unchanged(ctx, pfm_stop(ctx, 0), -EINVAL);
	ck_fails_unchanged(ctx, pfm_start(ctx, 0, 0), -EINVAL);
	/* reloaded, it starts from the same set and the same counts */
	ck_load_self(ctx);
	ck_start(ctx);
	ck_assert_u64_eq(fake_pmu.pmd[0], 15);
	ck_assert_uint_eq(set->runs, 2);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* A CPU session: attached to CPU 0, live there while attached. */
START_TEST(test_load_cpu)
{
	struct pfm_context *ctx = ck_ctx_new(PFM_FL_SYSTEM_WIDE);

	/*
	 * The software probes are registered already (another session holds them), so
	 * that this test steers clear of the known bug shown by
	 * test_bug_load_cpu_registers_probes_under_hotplug_lock.
	 */
	ck_assert_int_eq(pfm_sw_hooks_get(true), 0);

	ck_fails_unchanged(ctx, pfm_load(ctx, 0, 1), -EINVAL);		/* offline */
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, nr_cpu_ids), -EINVAL);
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, 1ULL << 32), -EINVAL);
	pfm_host_env.session_ret = -EBUSY;
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, 0), -EBUSY);
	pfm_host_env.session_ret = 0;
	fake_pmu.get_ret = -ENODEV;
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, 0), -ENODEV);
	fake_pmu.get_ret = 0;
	ck_assert_int_eq(shim_cpus_read_locked, 0);

	ck_assert_int_eq(pfm_load(ctx, 0, 0), 0);
	ck_assert_int_eq(shim_cpus_read_locked, 0);
	ck_assert_int_eq(ctx->state, PFM_CTX_LOADED);
	ck_assert_int_eq(ctx->cpu, 0);
	ck_assert_int_eq(ctx->on_cpu, 0);
	ck_assert_ptr_null(ctx->task);
	ck_assert_int_eq(pfm_host_env.cpu_sessions, 1);
	ck_fails_unchanged(ctx, pfm_load(ctx, 0, 0), -EBUSY);
	ck_write_pmc(ctx, 0, FAKE_PMC_EN | 1, 0);
	ck_start(ctx);
	ck_assert(fake_pmu.enabled && fake_pmu.system_wide);
	fake_pmu_advance(0, 33);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 33);
	ck_unload(ctx);
	ck_assert_int_eq(ctx->state, PFM_CTX_UNLOADED);
	ck_assert_int_eq(ctx->cpu, -1);
	ck_assert(!fake_pmu.enabled);
	ck_assert_uint_eq(refcount_read(&ctx->ref), 1);
	pfm_context_put(ctx);
	pfm_sw_hooks_put(true);
}
END_TEST

/*
 * pfm_load_cpu() must take the units before cpus_read_lock(): the software unit's
 * get() registers its tracepoint probes when it is the first user, and each first
 * probe on a tracepoint enables a static key: static_key_enable() takes
 * cpus_read_lock() again.  cpus_read_lock() is not recursive: a CPU-hotplug writer
 * arriving between the two would deadlock the load.
 */
START_TEST(test_load_cpu_probes_outside_hotplug_lock)
{
	struct pfm_context *ctx = ck_ctx_new(PFM_FL_SYSTEM_WIDE);
	long ret;

	ck_assert_int_eq(pfm_host_env.sw_hooks_users, 0);	/* the first session */
	ret = pfm_load(ctx, 0, 0);
	ck_assert_msg(!shim_warn_count,
		      "BUG: pfm_load_cpu() takes the units (software probes registered, "
		      "cpus_read_lock() inside) with cpus_read_lock() held: %s", shim_warn_last);
	ck_assert_int_eq(ret, 0);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

/* A set made by hand (the set calls are not in this version), in id order. */
static struct pfm_event_set *add_set(struct pfm_context *ctx, u16 id)
{
	struct pfm_event_set *set = pfm_set_alloc(id, false);

	ck_assert_ptr_nonnull(set);
	list_add_tail(&set->list, &ctx->sets);
	return set;
}

/* Starting another set while started: the old one is saved, the new one goes live. */
START_TEST(test_switch_sets)
{
	struct pfm_context *ctx = ck_ctx_new(0);
	struct pfm_event_set *s0 = ctx_set0(ctx), *s1 = add_set(ctx, 1);
	struct pfarg_pmc c = { .reg_num = 0, .reg_set = 1, .reg_value = FAKE_PMC_EN | 2 };
	struct pfarg_pmd d = { .reg_num = 0, .reg_set = 1, .reg_value = 1000 };

	ck_write_pmc(ctx, 0, FAKE_PMC_EN | 1, 0);
	ck_write_pmd(ctx, 0, 10);
	ck_assert_int_eq(pfm_write_pmcs(ctx, &c, 1), 0);
	ck_assert_int_eq(pfm_write_pmds(ctx, &d, 1), 0);
	ck_load_self(ctx);
	pfm_host_env.clock_ns = 100;
	ck_start(ctx);
	ck_assert_ptr_eq(ctx->active, s0);
	fake_pmu_advance(0, 5);
	/* set 1 is not live: writing it touches no register */
	{
		unsigned int acc = fake_pmu_accesses();

		ck_assert_int_eq(pfm_write_pmds(ctx, &d, 1), 0);
		ck_assert_int_eq(pfm_read_pmds(ctx, &d, 1), 0);
		ck_assert_u64_eq(d.reg_value, 1000);
		ck_assert_uint_eq(fake_pmu_accesses(), acc);
	}
	pfm_host_env.clock_ns = 300;
	ck_assert_int_eq(pfm_start(ctx, PFM_STARTFL_SET, 1), 0);
	ck_assert_ptr_eq(ctx->active, s1);
	ck_assert(ctx->started);
	ck_assert_u64_eq(pfm_set_pmd(s0, 0)->value, 15);		/* saved */
	ck_assert_uint_eq(s0->duration_ns, 200);
	ck_assert_u64_eq(fake_pmu.pmc[0], FAKE_PMC_EN | 2);	/* set 1 on the PMU */
	ck_assert_u64_eq(fake_pmu.pmd[0], 1000);
	fake_pmu_advance(0, 7);
	d.reg_value = 0;
	ck_assert_int_eq(pfm_read_pmds(ctx, &d, 1), 0);
	ck_assert_u64_eq(d.reg_value, 1007);
	ck_assert_u64_eq(ck_read_pmd(ctx, 0), 15);		/* set 0 kept its count */
	pfm_host_env.clock_ns = 350;
	ck_stop(ctx);
	ck_assert_uint_eq(s1->duration_ns, 50);
	ck_assert_uint_eq(s0->runs, 1);
	ck_assert_uint_eq(s1->runs, 1);
	/* a plain start resumes the last active set */
	ck_start(ctx);
	ck_assert_ptr_eq(ctx->active, s1);
	ck_assert_uint_eq(s1->runs, 2);
	ck_unload(ctx);
	pfm_context_put(ctx);
}
END_TEST

Suite *pfm_state_suite(void)
{
	Suite *s = suite_create("state");
	TCase *tc = pfm_host_tcase("state", pfm_host_setup);

	tcase_add_test(tc, test_start_stop_unloaded);
	tcase_add_test(tc, test_load_self);
	tcase_add_test(tc, test_load_twice);
	tcase_add_test(tc, test_load_bad_args);
	tcase_add_test(tc, test_load_unwinds);
	tcase_add_test(tc, test_load_other_thread);
	tcase_add_test(tc, test_start_bad_args);
	tcase_add_test(tc, test_start_twice_stop_twice);
	tcase_add_test(tc, test_runs_and_duration);
	tcase_add_test(tc, test_unload_stops);
	tcase_add_test(tc, test_reattach);
	tcase_add_test(tc, test_load_cpu);
	tcase_add_test(tc, test_switch_sets);
	tcase_add_test(tc, test_load_cpu_probes_outside_hotplug_lock);
	suite_add_tcase(s, tc);
	return s;
}
