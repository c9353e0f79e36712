// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the paranoid level in effect (access.c has what each level allows).
 *
 * /sys/kernel/perfmon/paranoid is PFM_PARANOID_SYSTEM (-2) unless an
 * administrator writes a level (-1..3) there: perfmon then follows the
 * kernel's kernel.perf_event_paranoid, read at each check, so that installing
 * perfmon opens nothing the system closed (Debian's kernels ship with 3, no
 * monitoring at all without CAP_PERFMON), and the perf_event_open layer
 * answers as the kernel's own perf_event_open would.  A level written there is
 * the administrator's choice and stands, tighter or looser than the kernel's.
 *
 * A module cannot take the kernel's variable by name (it is not exported): its
 * address is looked up once at load with kallsyms_lookup_name(), itself found
 * with a kprobe, as the symbol lookup a module may not call directly.  Where
 * neither is possible the level is taken as 3, the strictest, and the log says
 * how to choose another.
 */
#include <linux/kprobes.h>
#include <linux/perf_event.h>

#include "internal.h"
#include "access.h"

int pfm_paranoid = PFM_PARANOID_SYSTEM;

/* The kernel's kernel.perf_event_paranoid, or NULL: level 3. */
static const int *pfm_sys_paranoid;

int pfm_paranoid_level(void)
{
	int level = READ_ONCE(pfm_paranoid);

	if (level != PFM_PARANOID_SYSTEM)
		return level;
	return pfm_sys_paranoid ? READ_ONCE(*pfm_sys_paranoid) : 3;
}

#ifndef MODULE
int pfm_paranoid_init(void)
{
	pfm_sys_paranoid = &sysctl_perf_event_paranoid;
	return 0;
}
#elif defined(CONFIG_KPROBES) && !defined(CONFIG_X86_KERNEL_IBT)
int pfm_paranoid_init(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long (*lookup)(const char *name);

	if (register_kprobe(&kp)) {
		pr_warn("perfmon: no address for kallsyms_lookup_name: paranoid taken as 3 (set /sys/kernel/perfmon/paranoid to choose)\n");
		return 0;
	}
	lookup = (void *)kp.addr;
	unregister_kprobe(&kp);
	pfm_sys_paranoid = (const int *)lookup("sysctl_perf_event_paranoid");
	if (!pfm_sys_paranoid)
		pr_warn("perfmon: no kernel.perf_event_paranoid: paranoid taken as 3 (set /sys/kernel/perfmon/paranoid to choose)\n");
	return 0;
}
#else
int pfm_paranoid_init(void)
{
	pr_warn("perfmon: kernel.perf_event_paranoid cannot be read: paranoid taken as 3 (set /sys/kernel/perfmon/paranoid to choose)\n");
	return 0;
}
#endif

void pfm_paranoid_exit(void)
{
}
