// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: CPU hotplug.
 */
#include <linux/cpuhotplug.h>

#include "internal.h"
#include "ctx.h"
#include "hotplug.h"
#include "res.h"
#include "state.h"

/* A CPU going offline takes its session with it: the session is detached. */
static int pfm_cpu_offline(unsigned int cpu)
{
	struct pfm_context *ctx = pfm_res_cpu_ctx_get(cpu);

	if (ctx) {
		pfm_detach_cpu(ctx);
		pfm_context_put(ctx);
	}
	return 0;
}

static enum cpuhp_state pfm_cpuhp_state;

int pfm_hotplug_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "perfmon:online", NULL,
					pfm_cpu_offline);
	if (ret < 0)
		return ret;
	pfm_cpuhp_state = ret;
	return 0;
}

void pfm_hotplug_exit(void)
{
	cpuhp_remove_state_nocalls(pfm_cpuhp_state);
}
