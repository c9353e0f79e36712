// SPDX-License-Identifier: GPL-2.0
/*
 * What the core asks of the kernel environment (kernel/perfmon/env.h), as
 * recording stubs.
 *
 * The hooks mirror kernel/perfmon/thread.c on one CPU: attaching the calling thread
 * hooks it at once (on_cpu = this CPU, state LOADED, stopped); another thread is
 * attached with its state saved (on_cpu = -1) and no hooks, as if its hooking task
 * work had not run yet; detaching unloads and releases at once, as if the thread's
 * unhooking task work ran immediately.  A thread has at most one context (EEXIST).
 */
#include "harness.h"
#include "pmu_type.h"

/* stats.c */
struct pfm_stats pfm_stats;

struct pfm_host_env pfm_host_env;

#define ENV_MAX_ATTACHED	8
static struct pfm_context *env_map[ENV_MAX_ATTACHED];	/* contexts with ctx->task set */

/* thread.c's hook, reduced to whether its notifier is registered */
struct pfm_hook {
	bool on;
};

static struct pfm_hook env_hooks[ENV_MAX_ATTACHED];

u64 pfm_clock_ns(void)
{
	return pfm_host_env.clock_ns;
}

s64 shim_now_ns(void)
{
	return pfm_host_env.clock_ns;
}

/* No interrupt on the host: a software unit's overflow says where through its caller. */
bool pfm_irq_where(struct pfm_ovfl_where *at __always_unused)
{
	return false;
}

/* The thread's user-mode IP: what the test set (perf/overflow.c's samples). */
u64 pfm_user_ip(void)
{
	return pfm_host_env.user_ip;
}

struct task_struct *pfm_find_task(pid_t tid)
{
	if (tid == task_pid_vnr(current))
		return get_task_struct(current);
	if (tid == shim_task_self.pid)
		return get_task_struct(&shim_task_self);
	if (tid == shim_task_other.pid)
		return get_task_struct(&shim_task_other);
	return ERR_PTR(-ESRCH);
}

static int env_map_add(struct pfm_context *ctx, struct task_struct *task)
{
	unsigned int i, free = ENV_MAX_ATTACHED;

	for (i = 0; i < ENV_MAX_ATTACHED; i++) {
		if (env_map[i] && env_map[i]->task == task)
			return -EEXIST;
		if (!env_map[i] && free == ENV_MAX_ATTACHED)
			free = i;
	}
	ck_assert_uint_lt(free, ENV_MAX_ATTACHED);
	ctx->task = task;
	ctx->hook = &env_hooks[free];
	env_map[free] = ctx;
	pfm_host_env.attached++;
	return 0;
}

static void env_map_del(struct pfm_context *ctx)
{
	unsigned int i;

	for (i = 0; i < ENV_MAX_ATTACHED; i++) {
		if (env_map[i] == ctx) {
			env_map[i] = NULL;
			WRITE_ONCE(ctx->task, NULL);
			ctx->hook = NULL;
			pfm_host_env.attached--;
			return;
		}
	}
	ck_abort_msg("detach of a context that is not attached");
}

int pfm_env_attach(struct pfm_context *ctx, struct task_struct *task)
{
	unsigned long flags;
	int ret;

	pfm_host_env.attach_calls++;
	if (pfm_host_env.attach_ret)
		return pfm_host_env.attach_ret;
	ret = env_map_add(ctx, task);
	if (ret)
		return ret;
	/* The hook holds the thread and the context. */
	get_task_struct(task);
	pfm_context_get(ctx);
	raw_spin_lock_irqsave(&ctx->lock, flags);
	ctx->started = false;
	ctx->state = PFM_CTX_LOADED;
	ctx->hook->on = false;
	if (task == current) {
		ctx->hook->on = true;
		/* as thread.c's hook: on a CPU of another type, not live */
		if (pfm_pmu_type_serves(ctx, smp_processor_id())) {
			ctx->on_cpu = smp_processor_id();
			ctx->last_cpu = ctx->on_cpu;
		}
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return 0;
}

long pfm_env_detach(struct pfm_context *ctx)
{
	struct task_struct *task = ctx->task;
	unsigned long flags;
	bool release = true;

	pfm_host_env.detach_calls++;
	ck_assert_ptr_nonnull(task);
	raw_spin_lock_irqsave(&ctx->lock, flags);
	if (ctx->state == PFM_CTX_LOADED)
		release = pfm_unload_locked(ctx);
	ctx->hook->on = false;
	ctx->on_cpu = -1;
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	env_map_del(ctx);
	if (release)
		pfm_detach_release(ctx);
	put_task_struct(task);
	pfm_context_put(ctx);
	return 0;
}

/*
 * A reattach's hook: a token only, the map slot is taken at pfm_env_reattach();
 * attach_ret fails the preparation, reattach_ret the attach after the detach.
 */
static struct pfm_hook env_reattach_token;

struct pfm_hook *pfm_env_reattach_prepare(struct pfm_context *ctx, struct task_struct *task)
{
	pfm_host_env.reattach_calls++;
	if (ctx->task != task)
		return ERR_PTR(-ESRCH);
	if (pfm_host_env.attach_ret)
		return ERR_PTR(pfm_host_env.attach_ret);
	return &env_reattach_token;
}

int pfm_env_reattach(struct pfm_context *ctx, struct task_struct *task, struct pfm_hook *hook)
{
	ck_assert_ptr_eq(hook, &env_reattach_token);
	if (pfm_host_env.reattach_ret)
		return pfm_host_env.reattach_ret;
	return pfm_env_attach(ctx, task);
}

void pfm_env_reattach_abort(struct pfm_hook *hook)
{
	ck_assert_ptr_eq(hook, &env_reattach_token);
}

/* One CPU: the state is here (on_cpu 0) or saved (on_cpu -1). */
void pfm_run_on_state(struct pfm_context *ctx, pfm_state_fn fn, void *arg)
{
	unsigned long flags;

	pfm_host_env.run_on_state_calls++;
	raw_spin_lock_irqsave(&ctx->lock, flags);
	WARN_ON(ctx->on_cpu >= 0 && ctx->on_cpu != smp_processor_id());
	fn(ctx, arg);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}

/* The hook a thread attached from elsewhere puts on itself (thread.c's task_work). */
void pfm_host_hook_on(struct pfm_context *ctx)
{
	ck_assert_ptr_eq(ctx->task, current);
	ctx->hook->on = true;
}

/* thread.c's switch-out hook, the scheduler's stamp of the switch at now */
void pfm_host_sched_out_at(struct pfm_context *ctx, u64 now)
{
	ck_assert(ctx->hook && ctx->hook->on);
	pfm_sw_count_switch_out();
	raw_spin_lock(&ctx->lock);
	pfm_sched_out_locked(ctx, now);
	raw_spin_unlock(&ctx->lock);
}

void pfm_host_sched_out(struct pfm_context *ctx)
{
	pfm_host_sched_out_at(ctx, pfm_clock_ns());
}

/* thread.c's switch-in hook, back on this CPU, the scheduler's stamp of the pick at now */
void pfm_host_sched_in_at(struct pfm_context *ctx, u64 now)
{
	unsigned long flags;
	bool migrated;

	ck_assert(ctx->hook && ctx->hook->on);
	raw_spin_lock_irqsave(&ctx->lock, flags);
	migrated = pfm_sched_in_locked(ctx, smp_processor_id(), now);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	if (migrated)
		pfm_sw_count_thread(PFM_SW_EV_CPU_MIGRATIONS, 1);
}

void pfm_host_sched_in(struct pfm_context *ctx)
{
	pfm_host_sched_in_at(ctx, pfm_clock_ns());
}

/* sw_hooks.c */
int pfm_sw_hooks_get(bool system_wide __always_unused)
{
	if (pfm_host_env.sw_hooks_get_ret)
		return pfm_host_env.sw_hooks_get_ret;
	/*
	 * The first user registers the probes (pfm_sw_hooks_sync()): a tracepoint's
	 * first probe enables its static key, and static_key_enable() takes
	 * cpus_read_lock().  (The last put unregisters from a work item.)
	 */
	if (!pfm_host_env.sw_hooks_users++) {
		cpus_read_lock();
		cpus_read_unlock();
	}
	return 0;
}

void pfm_sw_hooks_put(bool system_wide __always_unused)
{
	WARN_ON(pfm_host_env.sw_hooks_users <= 0);
	pfm_host_env.sw_hooks_users--;
}

int pfm_sw_needs_get(u32 bits)
{
	if (pfm_host_env.sw_needs_get_ret)
		return pfm_host_env.sw_needs_get_ret;
	if (bits & PFM_SW_NEED_SYSCALLS)
		pfm_host_env.sw_syscall_users++;
	return 0;
}

void pfm_sw_needs_put(u32 bits)
{
	if (bits & PFM_SW_NEED_SYSCALLS) {
		WARN_ON(pfm_host_env.sw_syscall_users <= 0);
		pfm_host_env.sw_syscall_users--;
	}
}

/* access.c */
int pfm_access_task(struct task_struct *task __always_unused)
{
	return pfm_host_env.access_task_ret;
}

int pfm_access_pmc(const struct pfm_regdesc *desc, u64 value)
{
	pfm_host_env.access_pmc_calls++;
	/* as access.c: only the register's own privileged bits ask for privilege */
	if (!(value & desc->priv_msk))
		return 0;
	return pfm_host_env.unprivileged ? -EPERM : 0;
}

/* upage_map.c: host tests allocate the page with kzalloc() */
void pfm_upage_free(struct pfm_counts_page *pg)
{
	kfree(pg);
}

/* res.c */
int pfm_res_ctx_charge(struct pfm_context *ctx __always_unused)
{
	if (pfm_host_env.charge_ret)
		return pfm_host_env.charge_ret;
	pfm_host_env.charged++;
	return 0;
}

void pfm_res_ctx_uncharge(struct pfm_context *ctx __always_unused)
{
	WARN_ON(pfm_host_env.charged <= 0);
	pfm_host_env.charged--;
}

int pfm_res_session_get(struct pfm_context *ctx __always_unused, int cpu)
{
	if (pfm_host_env.session_ret)
		return pfm_host_env.session_ret;
	if (cpu < 0)
		pfm_host_env.task_sessions++;
	else
		pfm_host_env.cpu_sessions++;
	return 0;
}

void pfm_res_session_put(struct pfm_context *ctx __always_unused, int cpu)
{
	int *n = cpu < 0 ? &pfm_host_env.task_sessions : &pfm_host_env.cpu_sessions;

	WARN_ON(*n <= 0);
	(*n)--;
}

/* res.c's rule: the two kinds of session never hold the hardware at once */
int pfm_res_hw_get(struct pfm_context *ctx)
{
	bool system_wide = pfm_ctx_system_wide(ctx);

	if (pfm_host_env.hw_sessions[!system_wide])
		return -EBUSY;
	pfm_host_env.hw_sessions[system_wide]++;
	return 0;
}

void pfm_res_hw_put(struct pfm_context *ctx)
{
	int *n = &pfm_host_env.hw_sessions[pfm_ctx_system_wide(ctx)];

	WARN_ON(*n <= 0);
	(*n)--;
}

void pfm_env_block(struct pfm_context *ctx __always_unused)
{
	pfm_host_env.blocks++;
}

void pfm_env_unblock(struct pfm_context *ctx __always_unused)
{
}

/* smpl_fmt.c */
bool pfm_smpl_record_locked(struct pfm_context *ctx, struct pfm_event_set *set,
			    unsigned int pmd)
{
	pfm_host_env.samples++;
	if (pfm_host_env.on_record)
		pfm_host_env.on_record(ctx, set, pmd);
	return pfm_host_env.smpl_full;
}

void pfm_smpl_restart_locked(struct pfm_context *ctx __always_unused)
{
	pfm_host_env.smpl_restarts++;
}

/* no buffer is shared on the host */
int pfm_smpl_drain(struct pfm_context *ctx __always_unused, u64 n __always_unused)
{
	return -EINVAL;
}

void pfm_smpl_switch_locked(struct pfm_context *ctx, struct pfm_event_set *prev,
			    struct pfm_event_set *next)
{
	pfm_host_env.switch_logs++;
	if (pfm_host_env.on_switch)
		pfm_host_env.on_switch(ctx, prev, next);
}

/* msg.c */
void pfm_msg_init(struct pfm_context *ctx __always_unused)
{
}

void pfm_msg_ovfl_locked(struct pfm_context *ctx __always_unused, const unsigned long *ovfl)
{
	pfm_host_env.ovfl_msgs++;
	bitmap_copy(pfm_host_env.ovfl_msg_pmds, ovfl, PFM_MAX_PMDS);
}

void pfm_msg_end(struct pfm_context *ctx __always_unused,
		 struct task_struct *task __always_unused, u32 reason __always_unused)
{
	pfm_host_env.end_msgs++;
}

/*
 * main.c's sw_banks step, once for the test process: every test's fork starts
 * with the banks allocated, zeroed as the kernel's are.
 */
static void __attribute__((constructor)) env_sw_banks(void)
{
	if (pfm_sw_banks_init())
		abort();
	/* the module's init, not a test's: the tests count their own allocations */
	shim_alloc_calls = 0;
	shim_alloc_live = 0;
}
