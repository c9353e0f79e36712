// SPDX-License-Identifier: GPL-2.0
/*
 * What perfmon holds, machine-wide (footprint.h).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "footprint.h"
#include "util.h"

int stock_kernel(void)
{
	return access(PFM_SYSFS "/syscall", F_OK) != 0;
}

static long meminfo_kb(const char *key)
{
	char buf[8192], *p;

	if (sysfs_read("/proc/meminfo", buf, sizeof(buf)))
		return -1;
	p = strstr(buf, key);
	return p ? atol(p + strlen(key)) : -1;
}

void footprint(struct footprint *f)
{
	char buf[32];

	f->contexts = ck_sysfs_read_long(PFM_SYSFS "/contexts_count");
	f->hooks = ck_sysfs_read_long(PFM_SYSFS "/task_hooks_count");
	f->sessions = ck_sysfs_read_long(PFM_SYSFS "/task_sessions_count");
	/* the module's references (module builds only) */
	f->refcnt = sysfs_read("/sys/module/perfmon/refcnt", buf, sizeof(buf)) ? -1 : atol(buf);
	f->slab_kb = meminfo_kb("Slab:");
}

/*
 * Slab moves a little on its own, within the slack; what a cycle allocates, left
 * behind at every cycle, adds up beyond it.
 * On the debug kernel KASAN's quarantine holds freed objects back, so Slab says
 * nothing there: kmemleak, run after the suite, checks leaks instead.
 */
#define SLAB_SLACK_KB	2048

void ck_footprint_same(const struct footprint *a, const struct footprint *b,
		       const char *what)
{
	ck_assert_msg(b->contexts == a->contexts, "%s: contexts %ld -> %ld", what,
		      a->contexts, b->contexts);
	ck_assert_msg(b->hooks == a->hooks, "%s: hooks %ld -> %ld", what, a->hooks, b->hooks);
	ck_assert_msg(b->sessions == a->sessions, "%s: sessions %ld -> %ld", what,
		      a->sessions, b->sessions);
	ck_assert_msg(b->refcnt == a->refcnt, "%s: module refcnt %ld -> %ld", what,
		      a->refcnt, b->refcnt);
	ck_assert_msg(!stock_kernel() || b->slab_kb - a->slab_kb < SLAB_SLACK_KB,
		      "%s: Slab %ld kB -> %ld kB", what, a->slab_kb, b->slab_kb);
}
